//! The theme's style for each stretch of a line, from the scope changes syntect's parser
//! reports: what syntect's `HighlightIterator` computes, with the style of each scope path
//! remembered instead of matched against the theme's selectors on every push.
//!
//! syntect's highlighter recomputes a style on each scope push by trying every selector of the
//! theme (`update_single_cache_for_push`, then the multi-scope selectors); a comma-separated
//! table pushes a dozen scopes per field, so that matching was a quarter of highlighting one.
//! The style of a push depends only on the theme and the scope path after it (syntect builds it
//! from the path's prefixes, as `Highlighter::style_for_stack` does in one call), so a path's
//! style is computed once and looked up after. The paths are remembered as a tree (a path is
//! its parent path and one scope), so a push looks its scope up among the children of the path
//! it extends instead of hashing the whole path. The stack of styles follows syntect's exactly,
//! including its behaviour when a grammar pops more scopes than it pushed.

use std::cell::RefCell;
use std::collections::HashMap;

use syntect::highlighting::{Highlighter, Style, Theme};
use syntect::parsing::{BasicScopeStackOp, Scope, ScopeError, ScopeStack, ScopeStackOp};
use two_face::theme::EmbeddedThemeName;

/// Scope paths remembered per theme and thread; once this many are, a block remembers no new
/// ones and the next block starts afresh. Grammars produce a few hundred distinct paths.
const MAX_PATHS: usize = 1 << 14;

/// The empty path, the root of every [`PathTree`].
const ROOT: u32 = 0;

/// Stands for a path not remembered (the memory full, or a grammar that popped past the bottom
/// of the stack): its style and its children's are computed afresh.
const NOT_REMEMBERED: u32 = u32::MAX;

/// One remembered scope path: its style and the paths one scope longer seen so far.
struct PathNode {
    style: Style,
    children: Vec<(Scope, u32)>,
}

/// The scope paths of one theme seen on this thread, each under the path it extends.
struct PathTree {
    nodes: Vec<PathNode>,
}

impl PathTree {
    /// Only the empty path, styled `root` (the theme's default).
    fn new(root: Style) -> Self {
        PathTree {
            nodes: vec![PathNode {
                style: root,
                children: Vec::new(),
            }],
        }
    }

    /// The path `parent` extended by `scope` (`path`, in full): its node and style, remembered
    /// when there is room.
    fn child(
        &mut self,
        parent: u32,
        scope: Scope,
        path: &[Scope],
        highlighter: &Highlighter<'_>,
    ) -> (u32, Style) {
        let Some(node) = self.nodes.get(parent as usize) else {
            return (NOT_REMEMBERED, highlighter.style_for_stack(path));
        };
        if let Some(&(_, id)) = node.children.iter().find(|(s, _)| *s == scope) {
            return (id, self.nodes[id as usize].style);
        }
        let style = highlighter.style_for_stack(path);
        if self.nodes.len() >= MAX_PATHS {
            return (NOT_REMEMBERED, style);
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(PathNode {
            style,
            children: Vec::new(),
        });
        self.nodes[parent as usize].children.push((scope, id));
        (id, style)
    }
}

thread_local! {
    static REMEMBERED: RefCell<HashMap<EmbeddedThemeName, PathTree>> =
        RefCell::new(HashMap::new());
}

/// The scope path and the styles of its prefixes while one block of code is highlighted, line
/// after line (the state syntect keeps in its `HighlightState`).
pub(super) struct StyleStack<'t> {
    name: EmbeddedThemeName,
    highlighter: Highlighter<'t>,
    path: ScopeStack,
    /// The style after each prefix of the path, the empty one first.
    styles: Vec<Style>,
    /// The remembered node of each prefix, beside `styles`.
    nodes: Vec<u32>,
    remembered: PathTree,
}

impl<'t> StyleStack<'t> {
    /// An empty path in `theme` (named `name`: the styles remembered are the theme's).
    pub(super) fn new(name: EmbeddedThemeName, theme: &'t Theme) -> Self {
        let highlighter = Highlighter::new(theme);
        let root = highlighter.get_default();
        let remembered = REMEMBERED
            .with(|all| all.borrow_mut().remove(&name))
            .filter(|tree| tree.nodes.len() < MAX_PATHS)
            .unwrap_or_else(|| PathTree::new(root));
        StyleStack {
            name,
            highlighter,
            path: ScopeStack::new(),
            styles: vec![root],
            nodes: vec![ROOT],
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
        let (styles, nodes, remembered, highlighter) = (
            &mut self.styles,
            &mut self.nodes,
            &mut self.remembered,
            &self.highlighter,
        );
        self.path.apply_with_hook(op, |basic, path| match basic {
            BasicScopeStackOp::Push(scope) => {
                // The node of the path before this push, when the stack of nodes still
                // follows the path (a grammar that popped past the bottom leaves it short).
                let parent = match nodes.last() {
                    Some(&parent) if nodes.len() == path.len() => parent,
                    _ => NOT_REMEMBERED,
                };
                let (node, style) = remembered.child(parent, scope, path, highlighter);
                styles.push(style);
                nodes.push(node);
            }
            BasicScopeStackOp::Pop => {
                styles.pop();
                nodes.pop();
            }
        })
    }
}

impl Drop for StyleStack<'_> {
    fn drop(&mut self) {
        let remembered = std::mem::replace(&mut self.remembered, PathTree { nodes: Vec::new() });
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
        let (syntaxes, syntax) = super::super::by_token(token);
        let theme = super::super::syntax_theme(name);
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

    /// Each (style, text) of `line` under `ops` as syntect's own highlighter gives it and as
    /// [`StyleStack`] does.
    fn both_for_ops(ops: &[(usize, ScopeStackOp)], line: &str, name: EmbeddedThemeName) {
        use syntect::highlighting::{HighlightIterator, HighlightState};
        let theme = super::super::syntax_theme(name);
        let highlighter = Highlighter::new(theme);
        let mut state = HighlightState::new(&highlighter, ScopeStack::new());
        let expected: Vec<(Style, String)> =
            HighlightIterator::new(&mut state, ops, line, &highlighter)
                .map(|(style, text)| (style, text.to_string()))
                .collect();
        let mut ours = StyleStack::new(name, theme);
        let mut got = Vec::new();
        ours.follow(ops, line, |style, text| got.push((style, text.to_string())))
            .expect("balanced");
        assert_eq!(got, expected, "{ops:?}");
    }

    #[test]
    fn styles_are_syntects_through_clears_and_with_the_memory_full() {
        use syntect::parsing::ClearAmount;
        let scope = |name: &str| ScopeStackOp::Push(Scope::new(name).expect("a scope"));
        let ops = vec![
            (1, scope("source.rust")),
            (2, scope("string.quoted.double")),
            (3, scope("constant.character.escape")),
            (4, ScopeStackOp::Clear(ClearAmount::TopN(2))),
            (4, scope("comment.line")),
            (5, ScopeStackOp::Pop(1)),
            (6, ScopeStackOp::Restore),
            (7, ScopeStackOp::Pop(1)),
            (7, scope("keyword.control")),
            (8, ScopeStackOp::Clear(ClearAmount::All)),
            (8, scope("entity.name.function")),
            (9, ScopeStackOp::Pop(1)),
            (9, ScopeStackOp::Restore),
        ];
        let line = "abcdefghijkl";
        let name = EmbeddedThemeName::Base16OceanDark;
        // Cold, remembered, then with room for one new path only: the paths
        // not remembered are styled afresh.
        both_for_ops(&ops, line, name);
        both_for_ops(&ops, line, name);
        let theme = super::super::syntax_theme(name);
        let mut nearly_full = PathTree::new(Highlighter::new(theme).get_default());
        while nearly_full.nodes.len() < MAX_PATHS - 1 {
            nearly_full.nodes.push(PathNode {
                style: Style::default(),
                children: Vec::new(),
            });
        }
        REMEMBERED.with(|all| all.borrow_mut().insert(name, nearly_full));
        both_for_ops(&ops, line, name);
        let remembered = REMEMBERED.with(|all| all.borrow()[&name].nodes.len());
        assert_eq!(remembered, MAX_PATHS, "one path remembered, no more");
        // A full memory is started afresh by the next block.
        both_for_ops(&ops, line, name);
        let remembered = REMEMBERED.with(|all| all.borrow()[&name].nodes.len());
        assert!(remembered < 20, "{remembered}");
    }
}
