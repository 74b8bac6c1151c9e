//! Markdown (a prompt, a reply, reasoning) as HTML: comrak with the same
//! extensions as the terminal's rendering, raw HTML escaped (never passed),
//! links kept only to `http`, `https` and `mailto` (any other target is
//! shown as its text), images never loaded (an image with a web address
//! becomes a link to it), fenced code highlighted by syntect as classes.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::{self, Write as _};

use comrak::adapters::SyntaxHighlighterAdapter;
use comrak::nodes::{AstNode, NodeValue};
use comrak::options::Plugins;
use comrak::{Arena, format_html_with_plugins, parse_document};

use super::escape;
use crate::render::markdown::{as_written_note_text, markdown_end};
use crate::render::highlight::classed::{CODE_CLASS, classed_html};

/// Writes `source` (sanitized Markdown) as HTML to `out`; past its
/// markdown budget ([`crate::render::markdown::markdown_end`]), the rest as
/// written in a `pre` behind the note the terminal shows.
pub(super) fn write_markdown(source: &str, out: &mut String) {
    let (source, rest) = source.split_at(markdown_end(source).unwrap_or(source.len()));
    write_laid_out(source, out);
    if !rest.is_empty() {
        let note = as_written_note_text(rest.lines().count());
        let _ = write!(
            out,
            "<p class=\"note\"><em>{}</em></p>\n<pre class=\"as-written\">{}</pre>\n",
            escape(&note),
            escape(rest)
        );
    }
}

/// Writes Markdown as HTML, whole, to `out`.
fn write_laid_out(source: &str, out: &mut String) {
    if write_plain_paragraphs(source, out) {
        return;
    }
    let mut options = crate::render::markdown::options();
    options.render.escape = true;
    let arena = Arena::new();
    let root = parse_document(&arena, source, &options);
    neutralise(&arena, root);
    let highlighter = Classed;
    let mut plugins = Plugins::default();
    plugins.render.codefence_syntax_highlighter = Some(&highlighter);
    out.reserve(source.len() + source.len() / 4);
    // Writing to a String cannot fail.
    let _ = format_html_with_plugins(root, &options, out, &plugins);
}

/// Writes `source` to `out` as comrak writes it when it is paragraphs of
/// plain words —
/// letters, digits, spaces and punctuation that no Markdown rule of the
/// extensions on reads (no emphasis, code, link, autolink, entity, escape,
/// HTML, table, footnote or strikethrough character, no `:` or `www.`), each
/// line starting with a letter (no list, heading, quote, code block or
/// setext line can start) and ending without a space (no hard break),
/// paragraphs apart by one blank line; writes nothing and returns `false`
/// for any other text. Such text
/// is a paragraph of the same words, line breaks kept: written here without
/// a parse, which took a fifth of a large export. The test
/// `plain_paragraphs_are_what_comrak_writes` holds the two to the same bytes.
fn write_plain_paragraphs(source: &str, out: &mut String) -> bool {
    let text = source.trim_end_matches('\n');
    let bytes = text.as_bytes();
    for (at, &byte) in bytes.iter().enumerate() {
        if !PLAIN[usize::from(byte)]
            || (byte == b'.' && at >= 3 && bytes[at - 3..at].eq_ignore_ascii_case(b"www"))
        {
            return false;
        }
    }
    let start = out.len();
    out.reserve(text.len() + 16);
    out.push_str("<p>");
    // Whether the line before was blank; `None` before the first line.
    let mut blank_before = None;
    for line in text.split('\n') {
        if line.is_empty() {
            // A blank first line (the empty text's only one), or two in a
            // row: not this simple form.
            if blank_before != Some(false) {
                out.truncate(start);
                return false;
            }
            blank_before = Some(true);
            continue;
        }
        if !line.as_bytes()[0].is_ascii_alphabetic() || line.ends_with(' ') {
            out.truncate(start);
            return false;
        }
        match blank_before {
            None => {}
            Some(true) => out.push_str("</p>\n<p>"),
            Some(false) => out.push('\n'),
        }
        out.push_str(line);
        blank_before = Some(false);
    }
    out.push_str("</p>\n");
    true
}

/// The bytes [`write_plain_paragraphs`] lets through: ASCII letters and digits,
/// the space, the line feed and `,.;?!()/%$+=-'`.
const PLAIN: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        // `byte` < 256: the cast keeps it whole.
        table[byte] = (byte as u8).is_ascii_alphanumeric();
        byte += 1;
    }
    let punctuation = b" \n,.;?!()/%$+=-'";
    let mut i = 0;
    while i < punctuation.len() {
        table[punctuation[i] as usize] = true;
        i += 1;
    }
    table
};

/// Whether a link may point at `url`: the web and mail only.
fn allowed(url: &str) -> bool {
    let url = url.trim_start().to_ascii_lowercase();
    ["http://", "https://", "mailto:"]
        .iter()
        .any(|scheme| url.starts_with(scheme))
}

/// Rewrites what must not reach the page: a link to anything but
/// [`allowed`] targets becomes its text; an image becomes a link to its
/// address (allowed) or its text (not), so the page loads nothing.
fn neutralise<'a>(arena: &'a Arena<'a>, root: &'a AstNode<'a>) {
    let mut unwrap = Vec::new();
    for node in root.descendants() {
        let mut data = node.data.borrow_mut();
        let value = &mut data.value;
        match value {
            NodeValue::Link(link) if !allowed(&link.url) => unwrap.push(node),
            NodeValue::Image(link) => {
                if allowed(&link.url) {
                    *value = NodeValue::Link(link.clone());
                    drop(data);
                    let label = arena.alloc(NodeValue::Text(Cow::Borrowed("image: ")).into());
                    node.prepend(label);
                } else {
                    unwrap.push(node);
                }
            }
            NodeValue::WikiLink(_) => unwrap.push(node),
            _ => {}
        }
    }
    for node in unwrap {
        while let Some(child) = node.first_child() {
            child.detach();
            node.insert_before(child);
        }
        node.detach();
    }
}

/// syntect's classes for fenced code; plain escaped text when the language
/// is unknown or the code too large to highlight.
struct Classed;

impl SyntaxHighlighterAdapter for Classed {
    fn write_highlighted(
        &self,
        output: &mut dyn fmt::Write,
        lang: Option<&str>,
        code: &str,
    ) -> fmt::Result {
        match lang
            .filter(|l| !l.is_empty())
            .and_then(|l| classed_html(code, l))
        {
            Some(html) => output.write_str(&html),
            None => output.write_str(&escape(code)),
        }
    }

    fn write_pre_tag(
        &self,
        output: &mut dyn fmt::Write,
        _attributes: HashMap<&'static str, Cow<'_, str>>,
    ) -> fmt::Result {
        write!(output, "<pre class=\"{CODE_CLASS}\">")
    }

    fn write_code_tag(
        &self,
        output: &mut dyn fmt::Write,
        _attributes: HashMap<&'static str, Cow<'_, str>>,
    ) -> fmt::Result {
        output.write_str("<code>")
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{write_markdown, write_plain_paragraphs};
    use crate::export::html::foreign_tag;

    /// [`write_markdown`] to a page of its own.
    fn markdown_html(source: &str) -> String {
        let mut out = String::new();
        write_markdown(source, &mut out);
        out
    }

    /// What [`write_plain_paragraphs`] writes, `None` when it writes nothing.
    fn plain_paragraphs(source: &str) -> Option<String> {
        let mut out = String::from("before");
        let plain = write_plain_paragraphs(source, &mut out);
        let written = out.strip_prefix("before").map(str::to_string);
        assert!(plain || written.as_deref() == Some(""), "{source:?} left {out:?}");
        written.filter(|_| plain)
    }

    /// What comrak writes of `source`, past the plain path.
    fn by_comrak(source: &str) -> String {
        let mut options = crate::render::markdown::options();
        options.render.escape = true;
        comrak::markdown_to_html(source, &options)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1024))]
        /// Text the plain path takes comes out as comrak writes it; the
        /// words are drawn so that some lines start a list, a heading or a
        /// quote, end in spaces or hold an autolink, which it must refuse.
        #[test]
        fn plain_paragraphs_are_what_comrak_writes(
            tokens in prop::collection::vec(
                prop_oneof![
                    30 => "[a-zA-Z][a-zA-Z0-9]{0,8}",
                    20 => Just(" ".to_string()),
                    2 => "[0-9]{1,4}[.)]?",
                    4 => "[,.;?!()/%$+=' -]{1,2}",
                    1 => "(www|WWW|wWw)\\.[a-z]{1,5}",
                    1 => "[-+*#>=]{1,3}",
                    // What Markdown reads inside a line: emphasis, code,
                    // strikethrough, links, entities, HTML, autolinks, quotes.
                    1 => "\\*{1,2}[a-z]{1,4}\\*{1,2}",
                    1 => "_{1,2}[a-z]{1,4}_{1,2}",
                    1 => "`[a-z]{1,4}`",
                    1 => "~~?[a-z]{1,4}~~?",
                    1 => "\\[[a-z]{1,3}\\]\\([a-z]{1,3}\\)",
                    1 => "&[a-z]{2,4};",
                    1 => "<[a-z]{1,3}>",
                    1 => "[a-z]{1,3}@[a-z]{1,3}\\.[a-z]{2}",
                    1 => "(https?|ftp)://[a-z]{1,5}",
                    1 => "\"[a-z]{1,4}\"",
                    1 => "[\\\\|:#^{}]",
                    4 => Just("\n".to_string()),
                    2 => Just("\n\n".to_string()),
                    1 => Just("  \n".to_string()),
                ],
                1..30,
            ),
        ) {
            let source = tokens.concat();
            if let Some(html) = plain_paragraphs(&source) {
                prop_assert_eq!(html, by_comrak(&source), "{:?}", source);
            }
        }
    }

    #[test]
    fn prose_of_plain_words_takes_the_plain_path_and_markdown_does_not() {
        let plain = "Fixed the parser in src/main.rs (3 tests, 100% pass); it's done!\nNext step?\n\nRun it again.\n";
        assert_eq!(plain_paragraphs(plain).as_deref(), Some(by_comrak(plain).as_str()));
        for markdown in [
            "see `code`",
            "**bold**",
            "a\n- list",
            "1. one",
            "a\n\n\nb",
            "  indented",
            "ends with two spaces  \nnext",
            "go to www.example.com",
            "see https://example.com",
            "a <b> c",
            "x & y",
            "say \"hi\"",
            "café",
        ] {
            assert_eq!(plain_paragraphs(markdown), None, "{markdown}");
        }
    }

    #[test]
    fn markdown_becomes_headings_lists_tables_and_emphasis() {
        let html = markdown_html(
            "## Key Points\n\n* one **bold**\n* two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
        );
        assert!(html.contains("<h2>Key Points</h2>"), "{html}");
        assert!(html.contains("<li>one <strong>bold</strong></li>"), "{html}");
        assert!(html.contains("<table>"), "{html}");
        assert_eq!(foreign_tag(&html), None, "{html}");
    }

    #[test]
    fn raw_html_is_text() {
        let html = markdown_html("<script>alert(1)</script>\n\nand <img src=x onerror=y> inline");
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
        assert_eq!(foreign_tag(&html), None, "{html}");
    }

    #[test]
    fn only_web_and_mail_links_stay_links() {
        let html = markdown_html(
            "[ok](https://example.com/a) [mail](mailto:a@b.c) [js](javascript:alert(1)) \
             [file](file:///etc/passwd) [rel](src/main.rs) ![pic](https://example.com/p.png) \
             ![local](/tmp/p.png)",
        );
        assert!(html.contains("<a href=\"https://example.com/a\">ok</a>"), "{html}");
        assert!(html.contains("<a href=\"mailto:a@b.c\">mail</a>"), "{html}");
        assert!(!html.contains("javascript"), "{html}");
        assert!(!html.contains("file:"), "{html}");
        assert!(!html.contains("src/main.rs"), "{html}");
        assert!(html.contains(" js "), "{html}");
        assert!(
            html.contains("<a href=\"https://example.com/p.png\">image: pic</a>"),
            "{html}"
        );
        assert!(html.contains("local"), "{html}");
        assert!(!html.contains("<img"), "{html}");
    }

    #[test]
    fn fenced_code_is_highlighted_with_classes() {
        let html = markdown_html("```rust\nfn main() { let x = \"<b>\"; }\n```\n");
        assert!(html.contains("<pre class=\"hl-code\"><code>"), "{html}");
        assert!(html.contains("class=\"hl-"), "{html}");
        assert!(html.contains("&lt;b&gt;"), "{html}");
        let plain = markdown_html("```\n<b>x</b>\n```\n");
        assert!(plain.contains("&lt;b&gt;x&lt;/b&gt;"), "{plain}");
    }
}
