//! THE display-width ruler: how many terminal columns a piece of text takes.
//!
//! Every width in overhear (wrapping, layout, tables, the status bar, the picker, and the tests
//! that check them) is measured here, so what was laid out to fit is cut where it was measured.
//! Widths are counted per grapheme cluster (`unicode-segmentation`), so emoji sequences and
//! combining marks stay whole. Other width functions (`Line::width`, `Span::width`,
//! `UnicodeWidthStr::width`, `UnicodeWidthChar::width`) are denied outside this module by
//! `clippy.toml`. It measures; it never changes text (see [`super::sanitize`] for that).

use ratatui::text::{Line, Span};
use unicode_segmentation::UnicodeSegmentation;

/// Columns a tab advances in wrapped prose (it is written as spaces).
pub const TAB_WIDTH: usize = 4;

/// The grapheme clusters of `s` with their byte offsets. ASCII text (nearly
/// all of what agents write) skips Unicode segmentation, which dominated
/// wrapping a 50 MB message: each byte is a cluster, but for `\r\n`.
pub fn grapheme_indices(s: &str) -> GraphemeIndices<'_> {
    if s.is_ascii() {
        GraphemeIndices::Ascii { text: s, at: 0 }
    } else {
        GraphemeIndices::Unicode(s.grapheme_indices(true))
    }
}

/// The iterator of [`grapheme_indices`].
pub enum GraphemeIndices<'a> {
    /// ASCII text, one byte at a time.
    Ascii {
        /// The text.
        text: &'a str,
        /// The offset of the next cluster.
        at: usize,
    },
    /// Any other text, by `unicode-segmentation`.
    Unicode(unicode_segmentation::GraphemeIndices<'a>),
}

impl<'a> Iterator for GraphemeIndices<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<(usize, &'a str)> {
        match self {
            GraphemeIndices::Ascii { text, at } => {
                let start = *at;
                let bytes = text.as_bytes();
                let first = *bytes.get(start)?;
                let len = if first == b'\r' && bytes.get(start + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                *at += len;
                Some((start, &text[start..start + len]))
            }
            GraphemeIndices::Unicode(inner) => inner.next(),
        }
    }
}

/// Display width of one grapheme cluster, as wrapping counts it.
///
/// Terminals disagree on emoji sequences: some draw a ZWJ family or a flag as one glyph two
/// columns wide, many (xterm, VTE, tmux, Alacritty) add up the widths of its characters. The
/// larger of the two is counted, so a line never overflows on either kind of terminal (on the
/// first it merely ends a few columns early).
pub fn grapheme_width(g: &str) -> usize {
    if let [b' '..=b'~'] = g.as_bytes() {
        return 1;
    }
    if g == "\t" {
        TAB_WIDTH
    } else {
        #[allow(clippy::disallowed_methods)] // the one place the ruler is built
        let (per_char, cluster): (usize, usize) = (
            g.chars()
                .map(|c| unicode_width::UnicodeWidthChar::width(c).unwrap_or(0))
                .sum(),
            unicode_width::UnicodeWidthStr::width(g),
        );
        cluster.max(per_char)
    }
}

/// The number of terminal columns `s` takes (tabs count [`TAB_WIDTH`]).
///
/// Printable ASCII (most of what is measured: every printed line is measured
/// for `--code wrap`) is one column a byte, counted without walking clusters.
pub fn display_width(s: &str) -> usize {
    if s.bytes().all(|b| matches!(b, b' '..=b'~')) {
        return s.len();
    }
    if let Some(width) = lone_chars_width(s) {
        return width;
    }
    grapheme_indices(s).map(|(_, g)| grapheme_width(g)).sum()
}

/// The width of `s` when each of its characters is a cluster of its own,
/// measured a character at a time; `None` when one may join a neighbour.
/// Printable ASCII and the punctuation, arrows and box drawing that gutters,
/// rules and prose use never join one another (no rule of Unicode's cluster
/// boundaries holds them together: none is a mark, a joiner, a control, a
/// regional indicator or Hangul), so segmenting them would find a cluster
/// per character.
fn lone_chars_width(s: &str) -> Option<usize> {
    let mut width = 0;
    let mut utf8 = [0; 4];
    for c in s.chars() {
        width += match c {
            ' '..='~' => 1,
            // Dashes, quotes, bullets, the ellipsis; then the rest of
            // General Punctuation between its separators and bidi controls
            // (U+2028–U+202E) and its invisible operators (from U+2060).
            '\u{2010}'..='\u{2027}' | '\u{202F}'..='\u{205E}'
            // Arrows, box drawing and block elements.
            | '\u{2190}'..='\u{21FF}'
            | '\u{2500}'..='\u{259F}' => grapheme_width(c.encode_utf8(&mut utf8)),
            _ => return None,
        };
    }
    Some(width)
}

/// The display width of a run of spans.
pub fn spans_width(spans: &[Span<'_>]) -> usize {
    spans.iter().map(|s| display_width(&s.content)).sum()
}

/// The number of terminal columns `line` takes.
pub fn line_width(line: &Line<'_>) -> usize {
    spans_width(&line.spans)
}

/// True when `line` takes at most `width` columns. Counted first with an upper bound that walks
/// no clusters (printable ASCII one column, a tab [`TAB_WIDTH`], any other character two: no
/// character is wider), then, only when the bound is over `width`, measured.
pub fn line_fits(line: &Line<'_>, width: usize) -> bool {
    let at_most: usize = line
        .spans
        .iter()
        .flat_map(|span| span.content.chars())
        .map(|c| match c {
            ' '..='~' => 1,
            '\t' => TAB_WIDTH,
            _ => 2,
        })
        .sum();
    at_most <= width || line_width(line) <= width
}

/// The characters of `line`, styles dropped (for measuring, searching and tests).
pub fn line_text(line: &Line<'_>) -> String {
    line.spans.iter().map(|s| s.content.as_ref()).collect()
}

/// `text` with each tab replaced by spaces up to the next multiple of `stop`, counting from
/// `column` (where `text` starts on its line); also returns the column after it. Borrows when
/// there is no tab.
pub fn expand_tabs(text: &str, column: usize, stop: usize) -> (std::borrow::Cow<'_, str>, usize) {
    let stop = stop.max(1);
    if !text.contains('\t') {
        return (text.into(), column + display_width(text));
    }
    let mut out = String::with_capacity(text.len() + stop);
    let mut column = column;
    for (_, g) in grapheme_indices(text) {
        if g == "\t" {
            let to = (column / stop + 1) * stop;
            out.extend(std::iter::repeat_n(' ', to - column));
            column = to;
        } else {
            out.push_str(g);
            column += grapheme_width(g);
        }
    }
    (out.into(), column)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::disallowed_methods)] // the ruler is checked against the functions it is built on
    use proptest::prelude::*;
    use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

    use super::*;

    #[test]
    fn tabs_expand_to_stops_counted_from_the_column() {
        assert_eq!(expand_tabs("a\tb", 0, 8), ("a       b".into(), 9));
        assert_eq!(expand_tabs("\tb", 3, 4), (" b".into(), 5));
        // A wide character takes two columns before the stop.
        assert_eq!(expand_tabs("中\tx", 0, 4).0, "中  x");
        assert_eq!(expand_tabs("plain", 2, 8), ("plain".into(), 7));
    }

    #[test]
    fn characters_measured_one_at_a_time_are_clusters_of_their_own() {
        // Every pair of the characters `lone_chars_width` measures alone is
        // two clusters, so no string of them holds a longer one (the rules
        // that look further than a pair need joiners or regional indicators).
        let lone: Vec<char> = (' '..='~')
            .chain('\u{2010}'..='\u{205F}')
            .chain('\u{2190}'..='\u{21FF}')
            .chain('\u{2500}'..='\u{259F}')
            .filter(|c| lone_chars_width(c.encode_utf8(&mut [0; 4])).is_some())
            .collect();
        assert_eq!(lone.len(), 95 + 24 + 48 + 112 + 160);
        for a in &lone {
            for b in &lone {
                let pair = format!("{a}{b}");
                assert_eq!(pair.graphemes(true).count(), 2, "{pair:?}");
            }
        }
    }

    #[test]
    fn the_ascii_shortcut_measures_as_unicode_does() {
        for byte in 0u8..=0x7f {
            let text = char::from(byte).to_string();
            let slow = if text == "\t" {
                TAB_WIDTH
            } else {
                UnicodeWidthStr::width(text.as_str()).max(byte_width(byte))
            };
            assert_eq!(grapheme_width(&text), slow, "{byte:#x}");
        }
    }

    fn byte_width(byte: u8) -> usize {
        char::from(byte).width().unwrap_or(0)
    }

    proptest! {
        #[test]
        fn a_line_fits_when_its_width_is_within(
            text in "[ -~\t]{0,12}\\PC{0,6}[ -~]{0,12}|[\u{1F1E6}-\u{1F1FF}\u{200D}\u{FE0F}\u{1F468}\u{0300}\u{3000}e ]{0,12}",
            width in 0usize..40,
        ) {
            let line = Line::from(vec![Span::raw(text.clone()), Span::raw(text.clone())]);
            prop_assert_eq!(line_fits(&line, width), line_width(&line) <= width);
        }

        #[test]
        fn ascii_clusters_are_unicode_clusters(text in "[ -~\r\n\t]{0,40}|\\PC{0,20}") {
            let fast: Vec<(usize, &str)> = grapheme_indices(&text).collect();
            let slow: Vec<(usize, &str)> = text.grapheme_indices(true).collect();
            prop_assert_eq!(fast, slow);
        }

        #[test]
        fn printable_ascii_is_measured_as_its_clusters_are(text in "[ -~\t\r\n\x01]{0,60}|[ -~]{0,30}\\PC{0,5}[ -~]{0,30}") {
            let by_cluster: usize = text.grapheme_indices(true).map(|(_, g)| grapheme_width(g)).sum();
            prop_assert_eq!(display_width(&text), by_cluster);
        }

        #[test]
        fn punctuation_arrows_and_box_drawing_are_measured_as_their_clusters_are(
            text in "[ -~\u{2010}-\u{2060}\u{2190}-\u{21FF}\u{2500}-\u{25A0}\u{301}\u{200D}\u{FE0F}\u{1F1E6}\u{0600}\u{1100}\u{AC00}\t]{0,40}",
        ) {
            let by_cluster: usize = text.grapheme_indices(true).map(|(_, g)| grapheme_width(g)).sum();
            prop_assert_eq!(display_width(&text), by_cluster);
        }
    }
}
