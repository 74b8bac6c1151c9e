//! How a tool result's text is presented: as markdown, as (highlighted) code, or as plain text.
//!
//! Classifying and presenting are separate steps because the caller cuts the normalized text to
//! the number of lines the tool's style allows in between (display policy §3.2): the cut counts
//! lines of what will be shown (pretty-printed JSON, the code inside a fence), not of the raw
//! result. Nothing here decides whether a result is shown.

use std::borrow::Cow;

use ratatui::style::Style;
use ratatui::text::Line;

use super::ansi::ansi_to_lines;
use super::highlight::guess_language;
use super::lazy_highlight::Highlighting;
use super::markdown::markdown_to_lines_highlighting;
use super::theme::Theme;
use crate::text::sanitize::SanitizeMode;
use crate::text::truncate::cut_to_width;
use crate::text::wrap::wrap_spans;

/// How a result's text is shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Presentation {
    /// Through the markdown renderer (`text/markdown`).
    Markdown,
    /// As code in the given language (`None`: guessed, else plain code), never wrapped.
    Code(Option<String>),
    /// As wrapped text; ANSI colour in it becomes style.
    Plain,
}

/// Decides how to show a result and normalizes its text: `text/markdown` → markdown; a JSON
/// object or array → pretty-printed JSON (numbers and strings kept exactly as written); a
/// leading ```` ```lang ```` fence → that language with the fence lines removed; an XML-like
/// `<tag>…</tag>` envelope → XML; anything else → plain.
pub fn classify_result<'a>(text: &'a str, mime_type: Option<&str>) -> (Presentation, Cow<'a, str>) {
    let mime = mime_type
        .map(|m| {
            m.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
        .unwrap_or_default();
    if mime == "text/markdown" {
        return (Presentation::Markdown, Cow::Borrowed(text));
    }
    if let Some(pretty) = pretty_json(text) {
        return (Presentation::Code(Some("json".into())), Cow::Owned(pretty));
    }
    if let Some((language, body)) = strip_fence(text) {
        return (Presentation::Code(language), Cow::Borrowed(body));
    }
    if is_xml_envelope(text) {
        return (Presentation::Code(Some("xml".into())), Cow::Borrowed(text));
    }
    (Presentation::Plain, Cow::Borrowed(text))
}

/// Lays out a classified (and possibly cut) result at `width`; code, never wrapped, is cut at
/// `code_width` columns (a viewer that scrolls sideways passes more than `width`; a value
/// below `width` counts as `width`).
#[cfg(any(test, feature = "internals"))]
pub fn present(
    presentation: &Presentation,
    text: &str,
    width: usize,
    code_width: usize,
    theme: &Theme,
) -> Vec<Line<'static>> {
    present_highlighting(
        presentation,
        text,
        width,
        code_width,
        theme,
        Highlighting::Whole,
    )
}

/// [`present`] with code highlighted as `highlighting` says (the viewer
/// highlights only what it shows).
pub fn present_highlighting(
    presentation: &Presentation,
    text: &str,
    width: usize,
    code_width: usize,
    theme: &Theme,
    highlighting: Highlighting<'_>,
) -> Vec<Line<'static>> {
    let width = width.max(1);
    let code_width = code_width.max(width);
    match presentation {
        Presentation::Markdown => markdown_to_lines_highlighting(
            text,
            width,
            code_width,
            theme,
            Style::new(),
            highlighting,
        ),
        Presentation::Code(language) => {
            let language = language.as_deref().or_else(|| guess_language(text));
            highlighting
                .code(text, language, theme)
                .iter()
                .map(|line| cut_to_width(line, code_width))
                .collect()
        }
        Presentation::Plain => plain_lines(text, Some(width), theme),
    }
}

/// Plain result text (its colour escapes kept as styles) as lines, each
/// wrapped at `width` columns, or each line of the text whole (`None`: for
/// a page the browser wraps).
pub fn plain_lines(text: &str, width: Option<usize>, theme: &Theme) -> Vec<Line<'static>> {
    let base = theme.styles.result_text;
    let mut out = Vec::new();
    for mut line in ansi_to_lines(text, SanitizeMode::Strip) {
        for span in &mut line.spans {
            span.style = theme.adapt(base.patch(span.style));
        }
        match width {
            Some(width) => out.extend(wrap_spans(&line.spans, width, &[], &[])),
            None => out.push(Line::from(line.spans)),
        }
    }
    out
}

/// How many levels deep JSON is indented; a value nested deeper is written
/// compactly on one line. Indenting every level costs the depth squared
/// (a 60 KB `[[[…]]]` is 30,000 lines of up to 60,000 spaces: 1.8 GB), so
/// the pretty text is kept within about `2 × MAX_INDENT + 3` times the
/// compact one (docs/hardening.md, "Bounded work").
pub const MAX_INDENT: usize = 16;

/// A JSON object or array re-indented with two spaces, or `None` for anything else. The text is
/// re-indented token by token rather than parsed into values, so big numbers and string escapes
/// stay exactly as written.
fn pretty_json(text: &str) -> Option<String> {
    let trimmed = text.trim();
    if !(trimmed.starts_with('{') || trimmed.starts_with('[')) {
        return None;
    }
    // `IgnoredAny` is read without recursion and without a depth limit.
    serde_json::from_str::<serde::de::IgnoredAny>(trimmed).ok()?;
    Some(reindent_json(trimmed))
}

/// Valid JSON text re-indented with two spaces per level, as
/// `serde_json::to_string_pretty` writes it, up to [`MAX_INDENT`] levels;
/// a value that would open deeper is written compactly on one line. One
/// pass, without recursion: the work and the text grow linearly with the
/// input whatever its depth.
pub fn reindent_json(json: &str) -> String {
    reindent_json_head(json, usize::MAX).0
}

/// The first `keep` lines of [`reindent_json`]'s text, and how many lines
/// the whole has: a value of millions of small objects is shown a few
/// thousand lines deep without its whole text being written.
pub fn reindent_json_head(json: &str, keep: usize) -> (String, usize) {
    let bytes = json.as_bytes();
    let mut out = Head {
        out: Vec::with_capacity(bytes.len().saturating_mul(2).min(1 << 20)),
        keep,
        breaks: 0,
    };
    let mut indent = 0usize;
    // Inside a value written compactly: how deep inside it.
    let mut compact = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'"' => {
                // Copy the string verbatim, escapes included.
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                out.extend(&bytes[start..(i + 1).min(bytes.len())]);
            }
            b'{' | b'[' if compact > 0 || indent >= MAX_INDENT => {
                compact += 1;
                out.push(b);
            }
            b'}' | b']' if compact > 0 => {
                compact -= 1;
                out.push(b);
            }
            b',' if compact > 0 => out.push(b),
            b':' if compact > 0 => out.push(b),
            b'{' | b'[' => {
                let close = if b == b'{' { b'}' } else { b']' };
                let next = bytes[i + 1..]
                    .iter()
                    .position(|c| !c.is_ascii_whitespace())
                    .map(|p| i + 1 + p);
                out.push(b);
                if let Some(n) = next.filter(|&n| bytes[n] == close) {
                    out.push(close);
                    i = n;
                } else {
                    indent += 1;
                    out.newline(indent);
                }
            }
            b'}' | b']' => {
                indent = indent.saturating_sub(1);
                out.newline(indent);
                out.push(b);
            }
            b',' => {
                out.push(b',');
                out.newline(indent);
            }
            b':' => out.extend(b": "),
            b' ' | b'\t' | b'\n' | b'\r' => {}
            _ => out.push(b),
        }
        i += 1;
    }
    let text = String::from_utf8(out.out)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    (text, out.breaks + 1)
}

/// Where [`reindent_json_head`] writes: the bytes of its first `keep`
/// lines, and every line break counted.
struct Head {
    out: Vec<u8>,
    keep: usize,
    /// The line breaks written or counted so far.
    breaks: usize,
}

impl Head {
    /// Whether the line being written is one of the first `keep`.
    fn keeping(&self) -> bool {
        self.breaks < self.keep
    }

    fn push(&mut self, byte: u8) {
        if self.keeping() {
            self.out.push(byte);
        }
    }

    fn extend(&mut self, bytes: &[u8]) {
        if self.keeping() {
            self.out.extend_from_slice(bytes);
        }
    }

    /// A line break, and the next line's indentation.
    fn newline(&mut self, indent: usize) {
        self.breaks += 1;
        if self.keeping() {
            self.out.push(b'\n');
            self.out.extend(std::iter::repeat_n(b' ', indent * 2));
        }
    }
}

/// For text that opens with a code fence: the fence's language and the text between the
/// fences (the closing fence, if any, removed).
fn strip_fence(text: &str) -> Option<(Option<String>, &str)> {
    let start = text.len() - text.trim_start_matches(['\n', '\r', ' ']).len();
    // The fence must start its line.
    let line_start = text[..start].rfind('\n').map_or(0, |p| p + 1);
    let first_end = text[start..].find('\n').map_or(text.len(), |p| start + p);
    let first = text[line_start..first_end].trim();
    let fence_char = first.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let run = first.chars().take_while(|&c| c == fence_char).count();
    if run < 3 {
        return None;
    }
    let info = first[run..].trim();
    if fence_char == '`' && info.contains('`') {
        return None;
    }
    let language = info
        .split(|c: char| c.is_whitespace() || c == ',' || c == '{' || c == '}')
        .find(|t| !t.is_empty())
        .map(|t| t.trim_start_matches('.').to_string());
    let body_start = (first_end + 1).min(text.len());
    let mut body = &text[body_start..];
    let trimmed = body.trim_end();
    let last_start = trimmed.rfind('\n').map_or(0, |p| p + 1);
    let last = trimmed[last_start..].trim();
    if last.len() >= run && last.chars().all(|c| c == fence_char) {
        body = &trimmed[..last_start];
    }
    Some((language, body.trim_end_matches(['\n', '\r'])))
}

/// `<tag …>…</tag>` around the whole text, or an XML declaration.
fn is_xml_envelope(text: &str) -> bool {
    let trimmed = text.trim();
    if trimmed.starts_with("<?xml") {
        return true;
    }
    let Some(rest) = trimmed.strip_prefix('<') else {
        return false;
    };
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ':' | '.'))
        .collect();
    if !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        return false;
    }
    let after = &rest[name.len()..];
    if !after.starts_with(['>', ' ', '\t', '\n', '/']) {
        return false;
    }
    let Some(body) = trimmed.strip_suffix('>') else {
        return false;
    };
    let closing = body.trim_end();
    closing.ends_with(&format!("</{name}"))
        || (after.starts_with("/>") && trimmed.len() == name.len() + 3)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::output::lines_to_string;

    #[test]
    fn markdown_mime_type_wins() {
        let (p, text) = classify_result("{\"a\": 1}", Some("text/markdown; charset=utf-8"));
        assert_eq!(p, Presentation::Markdown);
        assert_eq!(text, "{\"a\": 1}");
    }

    #[test]
    fn json_is_pretty_printed_exactly() {
        let (p, text) = classify_result(
            r#"{"n": 123456789012345678901234567890, "s": "a\"b\u00e9", "e": [], "o": {"x": [1, {}]}}"#,
            None,
        );
        assert_eq!(p, Presentation::Code(Some("json".into())));
        assert_eq!(
            text,
            "{\n  \"n\": 123456789012345678901234567890,\n  \"s\": \"a\\\"b\\u00e9\",\n  \"e\": [],\n  \"o\": {\n    \"x\": [\n      1,\n      {}\n    ]\n  }\n}"
        );
        assert_eq!(classify_result("42", None).0, Presentation::Plain);
        assert_eq!(classify_result("{broken", None).0, Presentation::Plain);
    }

    #[test]
    fn json_deeper_than_the_indent_cap_is_written_compactly_in_linear_space() {
        let depth = 30_000;
        let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let (p, shown) = classify_result(&text, None);
        assert_eq!(p, Presentation::Code(Some("json".into())));
        // Indenting every level would be 60,000 lines and 1.8 GB.
        assert_eq!(shown.lines().count(), 2 * MAX_INDENT + 1);
        assert!(shown.len() < 3 * text.len(), "{} bytes", shown.len());
        let widest = shown.lines().map(str::len).max().unwrap_or(0);
        assert_eq!(widest, 2 * MAX_INDENT + 2 * (depth - MAX_INDENT));
        // Still the same JSON.
        assert!(serde_json::from_str::<serde::de::IgnoredAny>(&shown).is_ok());
    }

    #[test]
    fn json_within_the_cap_is_indented_as_serde_json_indents_it() {
        let value: serde_json::Value = serde_json::from_str(
            r#"{"a": [1, {"b": [[], {}, "x,y:[z]"]}], "c": {"d": {"e": {"f": null}}}}"#,
        )
        .unwrap();
        let compact = serde_json::to_string(&value).unwrap();
        assert_eq!(
            reindent_json(&compact),
            serde_json::to_string_pretty(&value).unwrap()
        );
    }

    #[test]
    fn the_head_of_a_reindented_value_is_the_whole_texts_first_lines_and_counts_them_all() {
        let value: serde_json::Value = serde_json::from_str(
            r#"{"a": [1, {"b": [[], {}, "x,y:[z]"]}], "c": {"d": {"e": {"f": null}}}, "g": "h"}"#,
        )
        .unwrap();
        let compact = serde_json::to_string(&value).unwrap();
        let whole = reindent_json(&compact);
        let lines: Vec<&str> = whole.lines().collect();
        for keep in [1, 2, 5, lines.len() - 1, lines.len(), lines.len() + 3] {
            let (head, total) = reindent_json_head(&compact, keep);
            assert_eq!(total, lines.len(), "keep {keep}");
            let shown = keep.min(lines.len());
            assert_eq!(head, lines[..shown].join("\n"), "keep {keep}");
        }
        assert_eq!(reindent_json_head("1", 1), ("1".to_string(), 1));
    }

    #[test]
    fn leading_fence_selects_the_language() {
        let (p, text) = classify_result("```rust\nfn main() {}\n```\n", None);
        assert_eq!(p, Presentation::Code(Some("rust".into())));
        assert_eq!(text, "fn main() {}");
        let (p, text) = classify_result("```\nplain\ncode", None);
        assert_eq!(p, Presentation::Code(None));
        assert_eq!(text, "plain\ncode");
        assert_eq!(
            classify_result("text\n```rust\nx\n```", None).0,
            Presentation::Plain
        );
    }

    #[test]
    fn xml_envelope_is_xml() {
        let (p, _) = classify_result("<result>\n  <item a=\"1\">x</item>\n</result>\n", None);
        assert_eq!(p, Presentation::Code(Some("xml".into())));
        assert_eq!(
            classify_result("<b>bold</b> and more", None).0,
            Presentation::Plain
        );
        assert_eq!(
            classify_result("a < b and c > d", None).0,
            Presentation::Plain
        );
    }

    #[test]
    fn plain_text_wraps_in_result_style_and_keeps_ansi_colour() {
        let theme = Theme::dark();
        let lines = present(
            &Presentation::Plain,
            "\x1b[31merror:\x1b[0m something went wrong here",
            16,
            16,
            &theme,
        );
        assert_eq!(
            lines_to_string(&lines),
            "error: something\nwent wrong here\n"
        );
        assert!(lines[0].spans[0].style.fg.is_some());
    }

    #[test]
    fn code_is_cut_not_wrapped() {
        let theme = Theme::dark();
        let (p, text) = classify_result("{\"key\": \"a long value that will not fit\"}", None);
        let lines = present(&p, &text, 20, 20, &theme);
        assert_eq!(lines.len(), 3);
        assert!(lines_to_string(&lines).contains('…'));
    }

    #[test]
    fn code_keeps_its_columns_up_to_the_code_width() {
        let theme = Theme::dark();
        let (p, text) = classify_result("{\"key\": \"a long value that will not fit\"}", None);
        let lines = present(&p, &text, 20, 200, &theme);
        let shown = lines_to_string(&lines);
        assert!(
            shown.contains("\"key\": \"a long value that will not fit\""),
            "{shown}"
        );
        assert!(!shown.contains('…'));
        let plain = present(
            &Presentation::Plain,
            "words that wrap at the width",
            12,
            200,
            &theme,
        );
        assert!(
            plain
                .iter()
                .all(|l| crate::text::width::line_width(l) <= 12),
            "prose still wraps"
        );
    }
}
