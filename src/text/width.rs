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

use super::ascii::{is_printable, printable_prefix};

/// Columns a tab advances in wrapped prose (it is written as spaces).
pub const TAB_WIDTH: usize = 4;

/// The grapheme clusters of `s` with their byte offsets.
///
/// Unicode segmentation is costly and nearly all of what agents write is
/// ASCII, so only the stretches that need it are segmented: between two ASCII
/// characters there is always a cluster boundary (but inside `\r\n`: no
/// rule of Unicode's joins an ASCII character to an ASCII neighbour — none is
/// a mark, a joiner, a prepended character, a pictograph, a regional
/// indicator or Hangul), so an ASCII character followed by another is a
/// cluster of its own, and a stretch that holds other characters is segmented
/// from the boundary before it to the next such boundary after it, where
/// segmenting afresh finds what segmenting the whole text finds.
pub fn grapheme_indices(s: &str) -> GraphemeIndices<'_> {
    GraphemeIndices {
        text: s,
        at: 0,
        stretch: None,
    }
}

/// The iterator of [`grapheme_indices`].
pub struct GraphemeIndices<'a> {
    /// The text.
    text: &'a str,
    /// Where the next cluster starts, outside a segmented stretch.
    at: usize,
    /// The stretch being segmented: its offset in `text` and its clusters.
    stretch: Option<(usize, unicode_segmentation::GraphemeIndices<'a>)>,
}

impl GraphemeIndices<'_> {
    /// Skips the run of printable ASCII other than the space that the text
    /// holds from here, each byte of which is a cluster of its own (the last
    /// byte before a non-ASCII character is left out: a mark may join it), and
    /// returns its byte range; `None` when there is no such run here. For
    /// wrapping, which places such a run as one piece.
    pub fn word_run(&mut self) -> Option<(usize, usize)> {
        if self.stretch.is_some() {
            return None;
        }
        let bytes = self.text.as_bytes();
        let start = self.at;
        let mut end = start;
        while end < bytes.len() && matches!(bytes[end], b'!'..=b'~') {
            end += 1;
        }
        if end < bytes.len() && !bytes[end].is_ascii() {
            end = end.saturating_sub(1).max(start);
        }
        if end == start {
            return None;
        }
        self.at = end;
        Some((start, end))
    }
}

impl GraphemeIndices<'_> {
    /// Skips a space that is a cluster of its own here (no mark follows it)
    /// and returns its offset; `None` when there is none. For wrapping, which
    /// breaks at spaces.
    pub fn space(&mut self) -> Option<usize> {
        let bytes = self.text.as_bytes();
        let start = self.at;
        if self.stretch.is_some()
            || bytes.get(start) != Some(&b' ')
            || bytes.get(start + 1).is_some_and(|b| !b.is_ascii())
        {
            return None;
        }
        self.at += 1;
        Some(start)
    }
}

impl<'a> Iterator for GraphemeIndices<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<(usize, &'a str)> {
        if let Some((offset, clusters)) = &mut self.stretch {
            if let Some((start, cluster)) = clusters.next() {
                return Some((*offset + start, cluster));
            }
            self.stretch = None;
        }
        let bytes = self.text.as_bytes();
        let start = self.at;
        let first = *bytes.get(start)?;
        let next = bytes.get(start + 1).copied();
        if first.is_ascii() && next.is_none_or(|b| b.is_ascii()) {
            let len = if first == b'\r' && next == Some(b'\n') {
                2
            } else {
                1
            };
            self.at += len;
            return Some((start, &self.text[start..start + len]));
        }
        // An ASCII character or one measured alone ([`is_lone`]: the
        // punctuation, shapes and box drawing of headers and gutters), before
        // the end, an ASCII character or one measured alone, is a cluster of
        // its own too: no rule of Unicode's joins such a pair (none is a
        // mark, a joiner, a prepended character, a regional indicator or
        // Hangul; `characters_measured_one_at_a_time_are_clusters_of_their_own`),
        // and the text is at a cluster boundary here.
        let rest = &self.text[start..];
        let mut chars = rest.chars();
        let c = chars.next()?;
        if (c.is_ascii() || is_lone(c)) && chars.next().is_none_or(|n| n.is_ascii() || is_lone(n)) {
            let end = start + c.len_utf8();
            self.at = end;
            return Some((start, &self.text[start..end]));
        }
        let end = ascii_boundary_after(bytes, start + 1);
        self.at = end;
        let mut clusters = self.text[start..end].grapheme_indices(true);
        let first_cluster = clusters.next();
        self.stretch = Some((start, clusters));
        first_cluster.map(|(offset, cluster)| (start + offset, cluster))
    }
}

/// The first offset from `from` on that lies between two ASCII characters
/// (not inside `\r\n`), where a cluster always ends; the text's length if
/// there is none.
fn ascii_boundary_after(bytes: &[u8], from: usize) -> usize {
    (from..bytes.len())
        .find(|&i| {
            bytes[i - 1].is_ascii()
                && bytes[i].is_ascii()
                && !(bytes[i - 1] == b'\r' && bytes[i] == b'\n')
        })
        .unwrap_or(bytes.len())
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
    if is_printable(s) {
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
    for c in s.chars() {
        if !is_lone(c) {
            return None;
        }
        // Each is one column wide (`characters_measured_one_at_a_time_are_one_column_wide`).
        width += 1;
    }
    Some(width)
}

/// Whether `c` is one of the characters [`lone_chars_width`] measures alone.
fn is_lone(c: char) -> bool {
    matches!(c,
        ' '..='~'
        // Latin-1: letters with their accents composed, the middle dot and
        // the signs of the layout's headers (`·`, `×`, `§`); not the soft
        // hyphen, a control.
        | '\u{A0}'..='\u{AC}' | '\u{AE}'..='\u{FF}'
        // Dashes, quotes, bullets, the ellipsis; then the rest of
        // General Punctuation between its separators and bidi controls
        // (U+2028–U+202E) and its invisible operators (from U+2060).
        | '\u{2010}'..='\u{2027}' | '\u{202F}'..='\u{205E}'
        // Arrows, box drawing and block elements.
        | '\u{2190}'..='\u{21FF}'
        // Control pictures (`␛`, what an escape is shown as).
        | '\u{2400}'..='\u{2426}'
        // Box drawing, block elements and geometric shapes (`●`, `▾`, `◦`)
        // but the two drawn two columns wide (`◽`, `◾`).
        | '\u{2500}'..='\u{25FC}' | '\u{25FF}')
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
/// no clusters (printable ASCII and the characters measured alone as one column, a
/// tab [`TAB_WIDTH`], any other character two: no character is wider, and a cluster of several
/// is never wider than its characters so counted), then, only when the bound is over `width`,
/// measured.
pub fn line_fits(line: &Line<'_>, width: usize) -> bool {
    // A character is at least one byte and at most a tab's columns (or two): a line short
    // enough in bytes fits unread (an export's lines, laid out as wide as they are).
    let bytes: usize = line.spans.iter().map(|span| span.content.len()).sum();
    if bytes.saturating_mul(TAB_WIDTH.max(2)) <= width {
        return true;
    }
    let at_most: usize = line
        .spans
        .iter()
        .map(|span| {
            let ascii = printable_prefix(span.content.as_bytes());
            let rest: usize = span.content[ascii..]
                .chars()
                .map(|c| match c {
                    '\t' => TAB_WIDTH,
                    _ if is_lone(c) => 1,
                    _ => 2,
                })
                .sum();
            ascii + rest
        })
        .sum();
    at_most <= width || line_width(line) <= width
}

/// The characters of `line`, styles dropped (for measuring, searching and tests).
#[cfg(feature = "cli")]
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
        let lone: Vec<char> = candidates()
            .filter(|c| lone_chars_width(c.encode_utf8(&mut [0; 4])).is_some())
            .collect();
        assert_eq!(lone.len(), 95 + 95 + 24 + 48 + 112 + 39 + 254);
        for a in &lone {
            for b in &lone {
                let pair = format!("{a}{b}");
                assert_eq!(pair.graphemes(true).count(), 2, "{pair:?}");
            }
        }
    }

    #[test]
    fn characters_measured_one_at_a_time_are_one_column_wide() {
        // `lone_chars_width` counts each of them as one column without
        // asking the ruler: what the ruler says of each, alone.
        let lone = candidates().filter(|c| lone_chars_width(c.encode_utf8(&mut [0; 4])).is_some());
        for c in lone {
            assert_eq!(grapheme_width(c.encode_utf8(&mut [0; 4])), 1, "{c:?}");
        }
        // And the ones left out would not be.
        for c in ['\u{AD}', '\u{25FD}', '\u{25FE}'] {
            let alone = c.encode_utf8(&mut [0; 4]).to_string();
            assert!(lone_chars_width(&alone).is_none());
        }
        assert_eq!(grapheme_width("\u{25FD}"), 2);
    }

    /// The blocks of characters [`lone_chars_width`] measures alone, with
    /// their neighbours.
    fn candidates() -> impl Iterator<Item = char> {
        (' '..='~')
            .chain('\u{A0}'..='\u{FF}')
            .chain('\u{2010}'..='\u{205F}')
            .chain('\u{2190}'..='\u{21FF}')
            .chain('\u{2400}'..='\u{243F}')
            .chain('\u{2500}'..='\u{25FF}')
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

    /// ASCII words and controls mixed with every kind of character that
    /// joins a cluster: marks, joiners, prepended characters, spacing marks,
    /// regional indicators, Hangul, pictographs, Indic conjuncts.
    fn mixed_text() -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop_oneof![
                4 => "[ -~]{1,6}",
                1 => "[\r\n\t\x01]{1,3}",
                2 => "[·×§é ●▾◦▸◽◾␛─│…→—’\u{A0}\u{AD}]{1,4}",
                3 => "[\u{301}\u{200D}\u{FE0F}\u{600}\u{903}\u{915}\u{94D}\u{937}\u{1F1E6}\u{1F1EB}\u{1100}\u{1161}\u{11A8}\u{AC00}\u{1F468}\u{1F3FB}\u{2764}\u{20E3}\u{E0041}\u{E007F}\u{1F3F4}中é—]{1,4}",
                1 => "\\PC{1,3}",
            ],
            0..14,
        )
        .prop_map(|parts| parts.concat())
    }

    proptest! {
        #[test]
        fn a_line_fits_when_its_width_is_within(
            text in "[ -~\t]{0,12}\\PC{0,6}[ -~]{0,12}|[\u{1F1E6}-\u{1F1FF}\u{200D}\u{FE0F}\u{1F468}\u{0300}\u{3000}e ]{0,12}|[ -~\u{A0}-\u{FF}\u{2010}-\u{2060}\u{2190}-\u{21FF}\u{2400}-\u{2440}\u{2500}-\u{25FF}\u{301}\u{200D}\u{FE0F}\u{20E3}\u{1F1E6}\u{0600}\u{1100}\u{AC00}\t]{0,40}",
            width in 0usize..40,
        ) {
            let line = Line::from(vec![Span::raw(text.clone()), Span::raw(text.clone())]);
            prop_assert_eq!(line_fits(&line, width), line_width(&line) <= width);
        }

        #[test]
        fn ascii_clusters_are_unicode_clusters(text in "[ -~\r\n\t]{0,40}|\\PC{0,20}|[ -~\r\n\u{A0}-\u{FF}\u{2010}-\u{2060}\u{2190}-\u{21FF}\u{2400}-\u{2440}\u{2500}-\u{25FF}\u{301}\u{200D}\u{FE0F}\u{600}]{0,40}") {
            let fast: Vec<(usize, &str)> = grapheme_indices(&text).collect();
            let slow: Vec<(usize, &str)> = text.grapheme_indices(true).collect();
            prop_assert_eq!(fast, slow);
        }

        #[test]
        fn mixed_text_is_segmented_as_unicode_segments_it(text in mixed_text()) {
            let fast: Vec<(usize, &str)> = grapheme_indices(&text).collect();
            let slow: Vec<(usize, &str)> = text.grapheme_indices(true).collect();
            prop_assert_eq!(fast, slow);
        }

        #[test]
        fn word_runs_are_runs_of_whole_clusters(text in mixed_text(), every in 1usize..4) {
            // Runs and spaces taken at some places and not others: each byte
            // of a run and each space is a cluster, and what comes after one
            // is segmented as before.
            let mut clusters = grapheme_indices(&text);
            let mut seen = Vec::new();
            for step in 0.. {
                if step % every == 0 && let Some((start, end)) = clusters.word_run() {
                    prop_assert!(text[start..end].bytes().all(|b| b.is_ascii_graphic()));
                    seen.extend((start..end).map(|i| (i, &text[i..=i])));
                    continue;
                }
                if step % every == 1 && let Some(start) = clusters.space() {
                    seen.push((start, &text[start..=start]));
                    continue;
                }
                match clusters.next() {
                    Some(cluster) => seen.push(cluster),
                    None => break,
                }
            }
            let slow: Vec<(usize, &str)> = text.grapheme_indices(true).collect();
            prop_assert_eq!(seen, slow);
        }

        #[test]
        fn printable_ascii_is_measured_as_its_clusters_are(text in "[ -~\t\r\n\x01]{0,60}|[ -~]{0,30}\\PC{0,5}[ -~]{0,30}") {
            let by_cluster: usize = text.grapheme_indices(true).map(|(_, g)| grapheme_width(g)).sum();
            prop_assert_eq!(display_width(&text), by_cluster);
        }

        #[test]
        fn latin1_punctuation_arrows_and_shapes_are_measured_as_their_clusters_are(
            text in "[ -~\u{A0}-\u{FF}\u{2010}-\u{2060}\u{2190}-\u{21FF}\u{2400}-\u{2440}\u{2500}-\u{25FF}\u{301}\u{200D}\u{FE0F}\u{20E3}\u{1F1E6}\u{0600}\u{1100}\u{AC00}\t]{0,40}",
        ) {
            let by_cluster: usize = text.grapheme_indices(true).map(|(_, g)| grapheme_width(g)).sum();
            prop_assert_eq!(display_width(&text), by_cluster);
        }
    }
}
