//! The theme's style for each stretch of a line, from the scope changes syntect's parser
//! reports: what syntect's `HighlightIterator` computes, with the style of each scope path
//! remembered instead of matched against the theme's selectors on every push.
//!
//! syntect's highlighter recomputes a style on each scope push by trying every selector of the
//! theme (`update_single_cache_for_push`, then the multi-scope selectors); a comma-separated
//! table pushes a dozen scopes per field, so that matching was a quarter of highlighting one.
//! The style of a push depends only on the theme and the scope path after it (syntect builds it
//! from the path's prefixes, as `Highlighter::style_for_stack` does in one call), so a path's
//! style is computed once and looked up after. The stack of styles follows syntect's exactly,
//! including its behaviour when a grammar pops more scopes than it pushed.

use std::cell::RefCell;
use std::collections::HashMap;

use syntect::highlighting::{Highlighter, Style, Theme};
use syntect::parsing::{BasicScopeStackOp, Scope, ScopeError, ScopeStack, ScopeStackOp};
use two_face::theme::EmbeddedThemeName;

/// Scope paths remembered per theme and thread; past this many the memory is started afresh.
/// Grammars produce a few hundred distinct paths.
const MAX_PATHS: usize = 1 << 14;

/// The style of each scope path seen, per syntax theme.
type PathStyles = HashMap<EmbeddedThemeName, HashMap<Vec<Scope>, Style>>;

thread_local! {
    static REMEMBERED: RefCell<PathStyles> = RefCell::new(HashMap::new());
}

/// The scope path and the styles of its prefixes while one block of code is highlighted, line
/// after line (the state syntect keeps in its `HighlightState`).
pub(super) struct StyleStack<'t> {
    name: EmbeddedThemeName,
    highlighter: Highlighter<'t>,
    path: ScopeStack,
    styles: Vec<Style>,
    remembered: HashMap<Vec<Scope>, Style>,
}

impl<'t> StyleStack<'t> {
    /// An empty path in `theme` (named `name`: the styles remembered are the theme's).
    pub(super) fn new(name: EmbeddedThemeName, theme: &'t Theme) -> Self {
        let highlighter = Highlighter::new(theme);
        let styles = vec![highlighter.get_default()];
        let remembered = REMEMBERED.with(|all| all.borrow_mut().remove(&name).unwrap_or_default());
        StyleStack {
            name,
            highlighter,
            path: ScopeStack::new(),
            styles,
            remembered,
        }
    }

    /// Calls `piece` with each non-empty stretch of `line` and its style, following `ops` (the
    /// parser's scope changes for `line`, by byte offset), and leaves the path as the line ends.
    /// An error is a grammar restoring scopes it never cleared.
    pub(super) fn follow<'l>(
        &mut self,
        ops: &[(usize, ScopeStackOp)],
        line: &'l str,
        mut piece: impl FnMut(Style, &'l str),
    ) -> Result<(), ScopeError> {
        let mut at = 0;
        for (end, op) in ops {
            let style = self.top();
            let text = &line[at..*end];
            self.apply(op)?;
            at = *end;
            if !text.is_empty() {
                piece(style, text);
            }
        }
        if at < line.len() {
            piece(self.top(), &line[at..]);
        }
        Ok(())
    }

    /// The style in force: syntect's plain `Style::default()` once a grammar has popped past
    /// the bottom of the stack, as its highlighter has.
    fn top(&self) -> Style {
        self.styles.last().copied().unwrap_or_default()
    }

    fn apply(&mut self, op: &ScopeStackOp) -> Result<(), ScopeError> {
        let (styles, remembered, highlighter) =
            (&mut self.styles, &mut self.remembered, &self.highlighter);
        self.path.apply_with_hook(op, |basic, path| match basic {
            BasicScopeStackOp::Push(_) => {
                let style = match remembered.get(path) {
                    Some(style) => *style,
                    None => {
                        let style = highlighter.style_for_stack(path);
                        if remembered.len() >= MAX_PATHS {
                            remembered.clear();
                        }
                        remembered.insert(path.to_vec(), style);
                        style
                    }
                };
                styles.push(style);
            }
            BasicScopeStackOp::Pop => {
                styles.pop();
            }
        })
    }
}

impl Drop for StyleStack<'_> {
    fn drop(&mut self) {
        let remembered = std::mem::take(&mut self.remembered);
        REMEMBERED.with(|all| all.borrow_mut().insert(self.name, remembered));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use syntect::easy::HighlightLines;
    use syntect::parsing::ParseState;
    use syntect::util::LinesWithEndings;

    /// Each (style, text) of `code` as syntect's own highlighter gives it and as
    /// [`StyleStack`] does, twice (the second time from remembered styles).
    fn both(code: &str, token: &str, name: EmbeddedThemeName) {
        let syntaxes = &*super::super::SYNTAXES;
        let theme = super::super::syntax_theme(name);
        let syntax = syntaxes.find_syntax_by_token(token).expect("a grammar");
        let mut theirs = HighlightLines::new(syntax, theme);
        let expected: Vec<(Style, String)> = LinesWithEndings::from(code)
            .flat_map(|line| theirs.highlight_line(line, syntaxes).expect("parses"))
            .map(|(style, text)| (style, text.to_string()))
            .collect();
        for round in 0..2 {
            let mut parse = ParseState::new(syntax);
            let mut ours = StyleStack::new(name, theme);
            let mut got = Vec::new();
            for line in LinesWithEndings::from(code) {
                let ops = parse.parse_line(line, syntaxes).expect("parses");
                ours.follow(&ops, line, |style, text| {
                    got.push((style, text.to_string()))
                })
                .expect("balanced");
            }
            assert_eq!(got, expected, "{token} in {name:?}, round {round}");
        }
    }

    #[test]
    fn styles_are_syntects_in_every_kind_of_code() {
        let csv = "a,b,\"c,d\",e,f,g\n1,2,3,4,5,6,7\n";
        let rust =
            "/// doc\nfn main() {\n    let s = r#\"raw\"#; // x\n    println!(\"{s}\");\n}\n";
        let sh = "cat <<EOF\n$HOME\nEOF\necho \"$((1 + 2))\"\n";
        let diff = "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n";
        let html =
            "<div class=\"a\"><script>let x = 1;</script><style>p{color:red}</style></div>\n";
        for name in [
            EmbeddedThemeName::Base16OceanDark,
            EmbeddedThemeName::InspiredGithub,
            EmbeddedThemeName::Ansi,
        ] {
            both(csv, "csv", name);
            both(rust, "rs", name);
            both(sh, "sh", name);
            both(diff, "diff", name);
            both(html, "html", name);
        }
    }
}
