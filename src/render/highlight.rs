//! Syntax highlighting of code into styled lines: syntect with the Oniguruma regex engine,
//! two-face's grammars and themes.
//!
//! The engine was chosen by measurement against syntect's pure-Rust one, fancy-regex
//! (docs/architecture.md, "Highlighting engine"). A grammar regex that backtracks without
//! end stops at Oniguruma's retry limit and counts as no match, so a hostile line ends.
//!
//! The grammars and themes load once per process, on first use, through two-face's API;
//! syntect decodes a grammar when parsing first enters it and compiles each regex on its
//! first use, so a grammar is compiled once per process, whatever the number of blocks. Two
//! memories, per thread, that cannot change the output: the theme's style of each scope path
//! (`highlight/styles.rs`, in place of syntect's per-push selector matching) and lines parsed
//! before from the same parser state (`highlight/parse_memo.rs`). Highlighted lines are not
//! kept: the caller decides that.
//!
//! Only foreground colour, bold and italic are taken from the syntax theme (its backgrounds and
//! underlines fight with the viewer's own), and every colour is mapped to the theme's colour
//! depth. Lines are never wrapped here: code keeps its shape and the caller cuts long lines
//! with [`crate::text::truncate::cut_to_width`].

use std::sync::LazyLock;

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use syntect::highlighting::FontStyle;
use syntect::parsing::{ParseState, SyntaxReference, SyntaxSet};
use syntect::util::LinesWithEndings;
use two_face::theme::{EmbeddedLazyThemeSet, EmbeddedThemeName};

use super::color_depth::ColorDepth;
use super::theme::Theme;
use styles::StyleStack;

#[cfg(feature = "cli")]
pub mod classed;
mod parse_memo;
mod styles;
use crate::text::sanitize::{SanitizeMode, sanitize};

/// Columns between tab stops in code.
pub const CODE_TAB: usize = 4;

/// Above this many bytes code is shown plain: highlighting is sequential within a
/// block, and a bigger block would stall the screen it is on.
pub const MAX_HIGHLIGHT_BYTES: usize = 64 * 1024;

/// Grammars whose code is shown plain. syntect's Markdown grammar slows down
/// on every line once its context stack is deep (fuzzing found a few KB of
/// fenced markdown that stalled it), and markdown source in a fence reads well
/// as written.
const PLAIN_GRAMMARS: &[&str] = &["Markdown", "MultiMarkdown"];

/// Grammars replaced by another for the same language. The Oniguruma set
/// holds grammars that need Oniguruma, and one of them (Babel's) would take
/// `js` over from `JavaScript`, changing the colours of every JavaScript block
/// from those overhear has always shown.
const PINNED_GRAMMARS: &[(&str, &str)] = &[("JavaScript (Babel)", "JavaScript")];

/// Above this many lines code is shown plain.
pub const MAX_HIGHLIGHT_LINES: usize = 10_000;

/// A line of code longer than this many bytes is shown plain, and the
/// parser goes on after it from the state the line before left. A grammar's
/// regexes may search the rest of the line from every place in it, so one
/// line costs up to its length squared: 20 KB of `<a ` as `vim` took 2 s.
/// Capped, highlighting costs at most this many times the code's length
/// (docs/hardening.md, "Bounded work").
pub const MAX_HIGHLIGHT_LINE_BYTES: usize = 4 * 1024;

/// two-face's grammars (bat's set, for lines with their endings), read once per process on
/// the first use; each grammar's regexes compile on its first use.
static SYNTAXES: LazyLock<SyntaxSet> = LazyLock::new(two_face::syntax::extra_newlines);

/// two-face's themes, read once per process on the first use; each theme is decoded on its
/// own first use.
static THEMES: LazyLock<EmbeddedLazyThemeSet> = LazyLock::new(two_face::theme::extra);

/// The syntax theme `name`.
fn syntax_theme(name: EmbeddedThemeName) -> &'static syntect::highlighting::Theme {
    THEMES.get(name)
}

/// Common fence tokens syntect does not know by that name.
const ALIASES: &[(&str, &str)] = &[
    ("shell", "sh"),
    ("console", "sh"),
    ("shellsession", "sh"),
    ("zsh", "sh"),
    ("golang", "go"),
    ("python3", "py"),
    ("py3", "py"),
    ("jsonl", "json"),
    ("ndjson", "json"),
    ("jsonc", "json"),
    ("json5", "json"),
    ("patch", "diff"),
    ("udiff", "diff"),
    ("yml", "yaml"),
    ("javascript", "js"),
    ("typescript", "ts"),
    ("html5", "html"),
    ("c++", "cpp"),
    ("objective-c", "m"),
];

/// The syntax for a fence token or file extension, case-insensitive.
fn find_syntax(lang: &str) -> Option<&'static SyntaxReference> {
    let token = lang.trim().trim_start_matches('.').to_ascii_lowercase();
    if token.is_empty() || matches!(token.as_str(), "text" | "txt" | "plain" | "plaintext") {
        return None;
    }
    let token = ALIASES
        .iter()
        .find(|(alias, _)| *alias == token)
        .map_or(token.as_str(), |(_, target)| target);
    let syntax = SYNTAXES.find_syntax_by_token(token)?;
    let syntax = match PINNED_GRAMMARS
        .iter()
        .find(|(grammar, _)| *grammar == syntax.name)
    {
        Some((_, pinned)) => SYNTAXES.find_syntax_by_name(pinned)?,
        None => syntax,
    };
    Some(syntax).filter(|syntax| !PLAIN_GRAMMARS.contains(&syntax.name.as_str()))
}

/// The set and its grammar for `token` ([`SyntaxSet::find_syntax_by_token`]), for tests.
#[cfg(test)]
fn by_token(token: &str) -> (&'static SyntaxSet, &'static SyntaxReference) {
    let syntaxes: &'static SyntaxSet = &SYNTAXES;
    (
        syntaxes,
        syntaxes.find_syntax_by_token(token).expect("a grammar"),
    )
}

/// True when `lang` names a language the highlighter knows.
#[cfg(any(test, feature = "internals"))]
pub fn is_known_language(lang: &str) -> bool {
    find_syntax(lang).is_some()
}

/// A language for code that does not say: `json` for a JSON object or array, `diff` for a
/// unified diff. `None` otherwise.
pub fn guess_language(code: &str) -> Option<&'static str> {
    let trimmed = code.trim_start();
    if (trimmed.starts_with('{') || trimmed.starts_with('['))
        && serde_json::from_str::<serde::de::IgnoredAny>(code).is_ok()
    {
        return Some("json");
    }
    let mut minus = false;
    for line in code.lines().take(200) {
        if line.starts_with("diff --git ") || (minus && line.starts_with("+++ ")) {
            return Some("diff");
        }
        if line.starts_with("@@ -") && line[4..].contains(" @@") {
            return Some("diff");
        }
        minus = line.starts_with("--- ");
    }
    None
}

/// Replaces tabs by spaces up to the next [`CODE_TAB`] stop.
fn expand_tabs(line: &str) -> std::borrow::Cow<'_, str> {
    crate::text::width::expand_tabs(line, 0, CODE_TAB).0
}

/// A syntect colour as a ratatui colour. Themes like `ansi` and `base16` encode palette indexes
/// in the alpha channel (as bat does): alpha 0 means palette index `r`, alpha 1 the default.
fn convert_color(color: syntect::highlighting::Color) -> Option<Color> {
    match color.a {
        0 => Some(Color::Indexed(color.r)),
        1 => None,
        _ => Some(Color::Rgb(color.r, color.g, color.b)),
    }
}

fn convert_style(style: syntect::highlighting::Style, theme: &Theme) -> Style {
    let mut out = Style::new();
    out.fg = convert_color(style.foreground);
    if style.font_style.contains(FontStyle::BOLD) {
        out = out.add_modifier(Modifier::BOLD);
    }
    if style.font_style.contains(FontStyle::ITALIC) {
        out = out.add_modifier(Modifier::ITALIC);
    }
    theme.adapt(out)
}

/// One line per line of `code` (a final newline gives no extra line), in the theme's
/// `code_block` style.
fn plain(code: &str, theme: &Theme) -> Vec<Line<'static>> {
    code.lines()
        .map(|line| {
            Line::from(Span::styled(
                expand_tabs(line).into_owned(),
                theme.styles.code_block,
            ))
        })
        .collect()
}

/// `code` not highlighted: the lines [`highlight`] gives, the same text in
/// the theme's `code_block` style. For output that shows no colour
/// (`overhear render --color never`), where highlighting would cost the
/// syntax set's loading and every line's parse for nothing.
pub fn unhighlighted(code: &str, theme: &Theme) -> Vec<Line<'static>> {
    plain(&sanitize(code, SanitizeMode::Strip), theme)
}

/// Highlights `code` as `lang` (a fence token or file extension such as `rs`, `rust`, `json`,
/// `diff`, `toml`, `sh`; case-insensitive): one line per line of code, tabs expanded, nothing
/// wrapped. Unknown or absent languages, and code over [`MAX_HIGHLIGHT_BYTES`] or
/// [`MAX_HIGHLIGHT_LINES`], come back plain in the theme's `code_block` style. Control
/// characters are removed first.
pub fn highlight(code: &str, lang: Option<&str>, theme: &Theme) -> Vec<Line<'static>> {
    let code = sanitize(code, SanitizeMode::Strip);
    let code = code.as_ref();
    let Some(syntax) = grammar_for(code, lang) else {
        return plain(code, theme);
    };
    let mut progress = Progress::new(syntax, theme);
    LinesWithEndings::from(code)
        .map(|source| progress.next_line(source, theme))
        .collect()
}

/// The syntax set and the limits say `code` (sanitized) is highlighted as
/// `lang`: the grammar to use, or `None` when it is shown plain.
fn grammar_for(code: &str, lang: Option<&str>) -> Option<&'static SyntaxReference> {
    let syntax = lang.and_then(find_syntax)?;
    if code.len() > MAX_HIGHLIGHT_BYTES || code.lines().nth(MAX_HIGHLIGHT_LINES).is_some() {
        return None;
    }
    Some(syntax)
}

/// Where the highlighting of one block stands after the lines done so far:
/// the parser's and the styles' state, the terminal styles met, and whether
/// a grammar error has made the rest plain.
struct Progress {
    parse: ParseState,
    styles: StyleStack<'static>,
    converted: ConvertedStyles,
    failed: bool,
}

impl Progress {
    /// Nothing highlighted yet, `syntax` in `theme`.
    fn new(syntax: &SyntaxReference, theme: &Theme) -> Self {
        Progress {
            parse: ParseState::new(syntax),
            styles: StyleStack::new(theme.syntax_theme, syntax_theme(theme.syntax_theme)),
            converted: ConvertedStyles::default(),
            failed: false,
        }
    }

    /// One line of code (`source`, with its line ending) highlighted from
    /// the state the lines before left. After a grammar error the rest of
    /// the code is shown plain.
    fn next_line(&mut self, source: &str, theme: &Theme) -> Line<'static> {
        let plain = |source: &str| {
            let text = source.strip_suffix('\n').unwrap_or(source);
            let text = text.strip_suffix('\r').unwrap_or(text);
            Line::from(Span::styled(
                expand_tabs(text).into_owned(),
                theme.styles.code_block,
            ))
        };
        if source.len() > MAX_HIGHLIGHT_LINE_BYTES {
            return plain(source);
        }
        let spans = if self.failed {
            None
        } else {
            self.highlight_line(source, theme)
        };
        match spans {
            Some(spans) => Line::from(spans),
            None => {
                // A grammar error: the rest of the code is shown plain.
                self.failed = true;
                plain(source)
            }
        }
    }

    /// The spans of one line of code (`source`, with its line ending), or `None` on a grammar
    /// error.
    fn highlight_line(&mut self, source: &str, theme: &Theme) -> Option<Vec<Span<'static>>> {
        let ops = parse_memo::parse_line(&mut self.parse, source, &SYNTAXES).ok()?;
        let converted = &mut self.converted;
        let mut spans: Vec<Span<'static>> = Vec::new();
        let mut column = 0;
        self.styles
            .follow(&ops, source, |style, piece| {
                let piece = piece.trim_end_matches(['\n', '\r']);
                if piece.is_empty() {
                    return;
                }
                let style = converted.get(style, theme);
                let (text, end) = crate::text::width::expand_tabs(piece, column, CODE_TAB);
                column = end;
                match spans.last_mut() {
                    Some(last) if last.style == style => last.content.to_mut().push_str(&text),
                    _ => spans.push(Span::styled(text.into_owned(), style)),
                }
            })
            .ok()?;
        Some(spans)
    }
}

/// The terminal style of each syntax style met in one block: a block uses a
/// few dozen, and converting one (the colour mapped to the theme's depth) is
/// dearer than finding it again.
#[derive(Default)]
struct ConvertedStyles {
    /// The depth the styles were converted to.
    depth: ColorDepth,
    seen: Vec<(syntect::highlighting::Style, Style)>,
}

impl ConvertedStyles {
    /// Past this many styles in a block the others are converted each time.
    const MAX: usize = 64;

    /// `style` converted for `theme` (its colours mapped to the theme's depth).
    fn get(&mut self, style: syntect::highlighting::Style, theme: &Theme) -> Style {
        if theme.depth != self.depth {
            self.seen.clear();
            self.depth = theme.depth;
        }
        if let Some(&(_, converted)) = self.seen.iter().find(|(seen, _)| *seen == style) {
            return converted;
        }
        let converted = convert_style(style, theme);
        if self.seen.len() < Self::MAX {
            self.seen.push((style, converted));
        }
        converted
    }
}

/// [`highlight`] a few lines at a time: the parser's and the styles' state
/// after the last line done is kept, so the next lines go on from it. Once
/// every line is done, [`Resumable::lines`] is what [`highlight`] returns;
/// before, the lines not yet done are plain, in the theme's `code_block`
/// style (the same text, so the same widths). For the viewer, which
/// highlights only what it shows (`render::lazy_highlight`).
pub struct Resumable {
    /// The code, sanitized.
    code: String,
    /// Where the next line to highlight starts in `code`.
    next: usize,
    /// Lines in all.
    len: usize,
    progress: Progress,
    /// The lines highlighted so far.
    done: Vec<Line<'static>>,
}

impl Resumable {
    /// `code` as `lang`, nothing highlighted yet; `None` when [`highlight`]
    /// shows it plain (an unknown language, code over the limits).
    pub fn new(code: &str, lang: Option<&str>, theme: &Theme) -> Option<Resumable> {
        let code = sanitize(code, SanitizeMode::Strip).into_owned();
        let syntax = grammar_for(&code, lang)?;
        Some(Resumable {
            len: code.lines().count(),
            code,
            next: 0,
            progress: Progress::new(syntax, theme),
            done: Vec::new(),
        })
    }

    /// How many lines the code has.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the code has no lines.
    #[cfg(any(test, feature = "internals"))]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many lines are highlighted.
    pub fn highlighted(&self) -> usize {
        self.done.len()
    }

    /// Highlights the next `lines` lines (fewer at the end); how many are
    /// highlighted now.
    pub fn advance(&mut self, lines: usize, theme: &Theme) -> usize {
        let rest = &self.code[self.next..];
        for source in LinesWithEndings::from(rest).take(lines) {
            let line = self.progress.next_line(source, theme);
            self.done.push(line);
            self.next += source.len();
        }
        self.done.len()
    }

    /// Every line: those highlighted, then the rest plain.
    pub fn lines(&self, theme: &Theme) -> Vec<Line<'static>> {
        let mut lines = self.done.clone();
        lines.extend(plain(&self.code[self.next..], theme));
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::theme::ColorDepth;
    use crate::text::width::line_text;

    fn colors(lines: &[Line<'_>]) -> Vec<Option<Color>> {
        lines
            .iter()
            .flat_map(|l| l.spans.iter().map(|s| s.style.fg))
            .collect()
    }

    #[test]
    fn known_languages_by_token_and_extension() {
        for lang in [
            "rs", "rust", "RUST", "json", "diff", "toml", "sh", "bash", "py", "shell", "yml",
        ] {
            assert!(is_known_language(lang), "{lang}");
        }
        assert!(!is_known_language("no-such-language"));
        // Shown plain on purpose (see PLAIN_GRAMMARS).
        assert!(!is_known_language("markdown"));
        assert!(!is_known_language("md"));
        assert!(!is_known_language("text"));
    }

    #[test]
    fn highlighted_code_keeps_its_text_and_gets_colours() {
        let theme = Theme::dark();
        let code = "fn main() {\n\tprintln!(\"hi\");\n}\n";
        let lines = highlight(code, Some("rust"), &theme);
        let text: Vec<String> = lines.iter().map(line_text).collect();
        assert_eq!(text, ["fn main() {", "    println!(\"hi\");", "}"]);
        let distinct: std::collections::HashSet<_> = colors(&lines).into_iter().collect();
        assert!(distinct.len() >= 3, "{distinct:?}");
    }

    #[test]
    fn javascript_keeps_its_grammar() {
        for token in ["js", "javascript", "JS"] {
            assert_eq!(
                find_syntax(token).map(|s| s.name.as_str()),
                Some("JavaScript")
            );
        }
    }

    #[test]
    fn unknown_language_is_plain_code_style() {
        let theme = Theme::dark();
        let lines = highlight("a\nb", Some("klingon"), &theme);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].spans[0].style, theme.styles.code_block);
    }

    #[test]
    fn syntax_colours_follow_the_colour_depth() {
        let code = "{\"a\": [1, true, \"x\"]}";
        let sixteen = Theme::dark().with_depth(ColorDepth::Ansi16);
        for fg in colors(&highlight(code, Some("json"), &sixteen))
            .into_iter()
            .flatten()
        {
            assert!(!matches!(fg, Color::Rgb(..) | Color::Indexed(_)), "{fg:?}");
        }
        let none = Theme::dark().with_depth(ColorDepth::None);
        assert!(
            colors(&highlight(code, Some("json"), &none))
                .iter()
                .all(Option::is_none)
        );
        let indexed = Theme::dark().with_depth(ColorDepth::Ansi256);
        for fg in colors(&highlight(code, Some("json"), &indexed))
            .into_iter()
            .flatten()
        {
            assert!(!matches!(fg, Color::Rgb(..)), "{fg:?}");
        }
    }

    #[test]
    fn guesses_json_and_diffs() {
        assert_eq!(guess_language("  {\"a\": 1}\n"), Some("json"));
        assert_eq!(guess_language("[1, 2]"), Some("json"));
        assert_eq!(guess_language("{not json"), None);
        assert_eq!(
            guess_language("--- a/x.rs\n+++ b/x.rs\n@@ -1 +1 @@\n-a\n+b\n"),
            Some("diff")
        );
        assert_eq!(guess_language("@@ -3,7 +3,8 @@ fn x()\n"), Some("diff"));
        assert_eq!(guess_language("just words"), None);
    }

    #[test]
    fn resumed_highlighting_is_the_whole_highlighting_once_done() {
        let theme = Theme::dark();
        let rust = include_str!("code_wrap.rs");
        let json = "{\n  \"a\": [1, true,\n    \"x\"],\n\t\"b\": null\n}\n";
        for (code, lang) in [(rust, "rs"), (json, "json"), ("a\r\n\r\nb", "sh")] {
            let whole = highlight(code, Some(lang), &theme);
            for step in [1, 7, 1000] {
                let mut resumable = Resumable::new(code, Some(lang), &theme).unwrap();
                assert_eq!(resumable.len(), whole.len());
                while resumable.highlighted() < resumable.len() {
                    let before = resumable.highlighted();
                    let lines = resumable.lines(&theme);
                    // Before it is done: the same text, the rest plain.
                    assert_eq!(
                        lines.iter().map(line_text).collect::<Vec<_>>(),
                        whole.iter().map(line_text).collect::<Vec<_>>()
                    );
                    assert_eq!(lines[..before], whole[..before]);
                    assert!(
                        lines[before..]
                            .iter()
                            .flat_map(|l| &l.spans)
                            .all(|s| s.style == theme.styles.code_block)
                    );
                    resumable.advance(step, &theme);
                }
                assert_eq!(resumable.lines(&theme), whole, "{lang} by {step}");
            }
        }
    }

    #[test]
    fn resumable_is_none_where_code_is_shown_plain() {
        let theme = Theme::dark();
        assert!(Resumable::new("x", Some("klingon"), &theme).is_none());
        assert!(Resumable::new("x", None, &theme).is_none());
        let big = "let x = 1;\n".repeat(MAX_HIGHLIGHT_BYTES / 10);
        assert!(Resumable::new(&big, Some("rs"), &theme).is_none());
    }

    #[test]
    fn a_line_past_the_cap_is_plain_and_the_next_goes_on_as_before() {
        let theme = Theme::dark();
        let long = format!("let s = \"{}\";", "a".repeat(MAX_HIGHLIGHT_LINE_BYTES));
        let lines = highlight(&format!("let x = 1;\n{long}\nlet y = 2;\n"), Some("rs"), &theme);
        let alone = highlight("let x = 1;\nlet y = 2;\n", Some("rs"), &theme);
        assert_eq!(line_text(&lines[1]), long);
        assert!(lines[1].spans.iter().all(|s| s.style == theme.styles.code_block));
        assert_eq!([&lines[0], &lines[2]], [&alone[0], &alone[1]]);
    }

    #[test]
    fn controls_in_code_are_removed() {
        let theme = Theme::dark();
        let lines = highlight("let x = 1;\x1b[2J\x07", Some("rs"), &theme);
        assert_eq!(line_text(&lines[0]), "let x = 1;");
    }

    /// `render --color never` prints code unhighlighted: it must be the text
    /// a highlighted print shows, line for line, whatever the language, the
    /// tabs, the line endings and the control characters.
    mod unhighlighted_text {
        use super::*;
        use proptest::prelude::*;

        fn texts(lines: &[Line<'_>]) -> Vec<String> {
            lines.iter().map(line_text).collect()
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(200))]
            #[test]
            fn is_the_highlighted_text(
                code in "([ -~]|\\t|\\r|\\n|\\r\\n|é|漢|\u{1b}|\u{7}|\u{200b}){0,120}",
                lang in prop::sample::select(vec![
                    Some("rs"), Some("json"), Some("diff"), Some("sh"), Some("py"),
                    Some("toml"), Some("md"), Some("yaml"), Some("klingon"), None,
                ]),
            ) {
                let theme = Theme::dark().with_depth(ColorDepth::None);
                prop_assert_eq!(
                    texts(&unhighlighted(&code, &theme)),
                    texts(&highlight(&code, lang, &theme))
                );
            }
        }

        #[test]
        fn is_the_highlighted_text_of_long_and_broken_code() {
            let theme = Theme::builtin("light").expect("a built-in theme");
            let long = format!("let x = \"{}\";\n\tfn\r\n", "y".repeat(MAX_HIGHLIGHT_LINE_BYTES + 10));
            let many = "x = 1\n".repeat(MAX_HIGHLIGHT_LINES + 5);
            for (code, lang) in [(long.as_str(), "rs"), (many.as_str(), "py"), ("a\tb\tc\n\t\td", "rs")] {
                assert_eq!(
                    texts(&unhighlighted(code, &theme)),
                    texts(&highlight(code, Some(lang), &theme)),
                    "{lang}"
                );
            }
        }
    }
}
