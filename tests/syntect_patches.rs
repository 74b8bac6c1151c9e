//! The patched syntect (`vendor/syntect`, `vendor/patches/`) parses as the published
//! syntect 5.3.0 does, where the patches change how it keeps its matches: the per-line
//! search cache that remembers each pattern's last match, and the region of the match that
//! wins a token. Each grammar below is made so that a region kept too long, or taken from
//! the wrong search, gives other scope changes (or no end); the expected changes are what
//! the published syntect 5.3.0 gives.

use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use syntect::parsing::syntax_definition::SyntaxDefinition;
use syntect::parsing::{ParseState, ScopeStackOp, SyntaxSet, SyntaxSetBuilder};

/// The scope changes of each line of `code` parsed with `grammar` (a `.sublime-syntax`),
/// written one line each as `position op`; a panic if parsing does not end within seconds
/// (a non-consuming match handed back from the cache where it should not be repeats for
/// ever).
fn parse(grammar: impl Into<String>, code: &'static str) -> Vec<String> {
    let grammar: String = grammar.into();
    let (done, result) = mpsc::channel();
    thread::spawn(move || {
        let definition = SyntaxDefinition::load_from_str(&grammar, true, None).expect("grammar");
        let mut builder = SyntaxSetBuilder::new();
        builder.add(definition);
        let set: SyntaxSet = builder.build();
        let mut state = ParseState::new(&set.syntaxes()[0]);
        let lines: Vec<String> = code
            .split_inclusive('\n')
            .map(|line| {
                let ops = state.parse_line(line, &set).expect("parses");
                ops.iter().map(written).collect::<Vec<_>>().join(", ")
            })
            .collect();
        let _ = done.send(lines);
    });
    match result.recv_timeout(Duration::from_secs(20)) {
        Ok(lines) => lines,
        Err(mpsc::RecvTimeoutError::Timeout) => {
            panic!("parsing did not end: a match handed back from the cache for ever?")
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("parsing panicked (above)"),
    }
}

/// One scope change as `position op`: `3 +keyword.a`, `5 -2` (two scopes popped).
fn written((at, op): &(usize, ScopeStackOp)) -> String {
    match op {
        ScopeStackOp::Push(scope) => format!("{at} +{}", scope.build_string()),
        ScopeStackOp::Pop(n) => format!("{at} -{n}"),
        other => format!("{at} {other:?}"),
    }
}

/// A pattern that matches nothing where it is asked again, after matching something
/// earlier in the line: `a*` matches "aa", then the empty string at `b`, which a pattern
/// without a push or pop may not take. The published syntect keeps the earlier match
/// (now behind) and searches again; a cache that kept the empty match would hand it back
/// when the pushed context asks at the same place, and parse it for ever.
#[test]
fn an_empty_match_is_not_remembered_for_the_same_place() {
    const GRAMMAR: &str = r#"%YAML 1.2
---
name: CacheProbe
scope: source.probe
contexts:
  main:
    - include: common
    - match: '(?=b)'
      push: inner
  common:
    - match: 'a*'
      scope: keyword.a
  inner:
    - include: common
    - match: 'b'
      scope: string.b
      pop: true
"#;
    assert_eq!(
        parse(GRAMMAR, "aab\nab aab\n"),
        [
            "0 +source.probe, 0 +keyword.a, 2 -1, 2 +string.b, 3 -1",
            "0 +keyword.a, 1 -1, 1 +string.b, 2 -1, 5 +string.b, 6 -1",
        ]
    );
}

/// A remembered match still ahead is taken with its own captures, and one behind is
/// searched again with new ones: the same two-capture pattern wins four times on a line.
#[test]
fn a_remembered_match_keeps_its_own_captures() {
    const GRAMMAR: &str = r#"%YAML 1.2
---
name: CacheProbe
scope: source.probe
contexts:
  main:
    - match: '([a-z]+)(\d)'
      captures:
        1: entity.name.probe
        2: constant.numeric.probe
    - match: '[A-Z]'
      scope: keyword.upper
"#;
    assert_eq!(
        parse(GRAMMAR, "ab1 X cd2 Y e3\nxyz9\n"),
        [
            "0 +source.probe, 0 +entity.name.probe, 2 -1, 2 +constant.numeric.probe, 3 -1, \
             4 +keyword.upper, 5 -1, 6 +entity.name.probe, 8 -1, 8 +constant.numeric.probe, 9 -1, \
             10 +keyword.upper, 11 -1, 12 +entity.name.probe, 13 -1, 13 +constant.numeric.probe, 14 -1",
            "0 +entity.name.probe, 3 -1, 3 +constant.numeric.probe, 4 -1",
        ]
    );
}

/// Patterns with back-references (never remembered) searched one after the other: the
/// first finds the winning match and the second a shorter one at the same place after it
/// (`ab!`, `ab`), or the second an earlier one (`cdcd`). The winner's captures and end must
/// be its own, and the word captured by the last push (`ab`, `cd`, then `ef`, the pushing
/// pattern's remembered match searched again) the one referred back to.
#[test]
fn the_winning_match_is_not_overwritten_by_the_searches_after_it() {
    const GRAMMAR: &str = r#"%YAML 1.2
---
name: CacheProbe
scope: source.probe
contexts:
  main:
    - match: '(\w+)<'
      scope: punctuation.open
      push: inner
  inner:
    - match: '(\1)(!)'
      captures:
        1: entity.name.close
        2: keyword.bang
      pop: true
    - match: '(?:\1)+'
      scope: string.repeated
      pop: true
"#;
    assert_eq!(
        parse(GRAMMAR, "ab< x ab! abab\ncd< cdcd ef< ef!\n"),
        [
            "0 +source.probe, 0 +punctuation.open, 3 -1, 6 +entity.name.close, 8 -1, \
             8 +keyword.bang, 9 -1",
            "0 +punctuation.open, 3 -1, 4 +string.repeated, 8 -1, 9 +punctuation.open, 12 -1, \
             13 +entity.name.close, 15 -1, 15 +keyword.bang, 16 -1",
        ]
    );
}

/// Contexts included twelve deep (the patched walk keeps eight without allocating, the
/// rest in a list): each word is found at its own depth, and the patterns after an include
/// are reached once the walk has come back out of it (`x` at depth 9, past the eighth;
/// the digit and `w12` at the outermost).
#[test]
fn patterns_are_walked_in_order_through_deep_includes() {
    let mut grammar = String::from(
        "%YAML 1.2\n---\nname: CacheProbe\nscope: source.probe\ncontexts:\n  main:\n    - include: c0\n",
    );
    for depth in 0..12 {
        grammar +=
            &format!("  c{depth}:\n    - match: '\\bw{depth}\\b'\n      scope: word.d{depth}\n");
        if depth < 11 {
            grammar += &format!("    - include: c{}\n", depth + 1);
        }
        if depth == 9 {
            grammar += "    - match: '\\bx\\b'\n      scope: word.after.d9\n";
        }
        if depth == 0 {
            grammar += "    - match: '\\d'\n      scope: constant.numeric\n";
            grammar += "    - match: '\\bw\\d+\\b'\n      scope: word.other\n";
        }
    }
    assert_eq!(
        parse(grammar, "w0 w5 w11 7 w12 w8 x\n"),
        [
            "0 +source.probe, 0 +word.d0, 2 -1, 3 +word.d5, 5 -1, 6 +word.d11, 9 -1, \
          10 +constant.numeric, 11 -1, 12 +word.other, 15 -1, 16 +word.d8, 18 -1, 19 +word.after.d9, 20 -1"
        ]
    );
}
