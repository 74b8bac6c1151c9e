use syntect::parsing::{ParseState, ScopeStackOp};
use syntect::util::LinesWithEndings;

use super::*;

/// A little of many languages, with the lines that make grammars embed others: a shebang,
/// PHP and ERB tags, HTML with a script and a style, a fenced block, a heredoc, SQL, JSON,
/// comments, Python, LaTeX, YAML.
const SAMPLE: &str = r##"#!/bin/sh
<?php echo "hi $x"; ?> <%= @user.name %> {{ value | filter }} {% if x %}
<html><head><style>p { color: red; }</style><script>let x = /a+/g; `t ${x}`;</script></head>
<div class="a" onclick="go()">text &amp; more</div></html>
```rust
fn main() { let s = r#"raw"#; }
```
SELECT a, b FROM t WHERE c = 'd'; -- comment
cat <<EOF
$HOME `date`
EOF
{"a": [1, true, null, "x"]}
/* block */ // line
def f(x): return f"{x}"  # py
\begin{document} $x^2$ \end{document}
---
key: value
- item
"##;

/// The scope changes of each line of [`SAMPLE`] parsed as `grammar` with `syntaxes`; a
/// grammar error as its text.
fn parsed(
    grammar: &SyntaxReference,
    syntaxes: &SyntaxSet,
) -> Vec<Result<Vec<(usize, ScopeStackOp)>, String>> {
    let mut state = ParseState::new(grammar);
    LinesWithEndings::from(SAMPLE)
        .map(|line| {
            state
                .parse_line(line, syntaxes)
                .map_err(|err| err.to_string())
        })
        .collect()
}

#[test]
fn every_grammar_highlights_with_its_reach_as_with_every_grammar() {
    let whole = two_face::syntax::extra_newlines();
    assert_eq!(finding().syntaxes().len(), whole.syntaxes().len());
    for (index, grammar) in whole.syntaxes().iter().enumerate() {
        let (syntaxes, ours) = highlighting(&finding().syntaxes()[index]);
        assert_eq!(ours.name, grammar.name);
        assert_eq!(
            parsed(ours, syntaxes),
            parsed(grammar, &whole),
            "{}",
            grammar.name
        );
    }
}

#[test]
fn a_grammar_keeps_its_set_and_a_reach_is_read_once() {
    let (rust, _) = by_token("rs");
    assert!(std::ptr::eq(rust, by_token("rust").0));
    // Two grammars with one reach (ASP and HTML (ASP)) share its set; Rust's is another.
    let (asp, _) = highlighting(finding().find_syntax_by_name("ASP").expect("ASP"));
    let (html_asp, _) = highlighting(
        finding()
            .find_syntax_by_name("HTML (ASP)")
            .expect("HTML (ASP)"),
    );
    assert!(std::ptr::eq(asp, html_asp));
    assert!(!std::ptr::eq(asp, rust));
}
