//! Cutting text to a number of columns, measured by [`super::width`]: from the end (with or
//! without a `…` marker), from the start (text being typed) and columns skipped on the left
//! (horizontal scrolling). A cut never splits a grapheme cluster.

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
#[cfg(feature = "cli")]
use unicode_segmentation::UnicodeSegmentation;

use super::ascii::is_printable;
use super::width::{TAB_WIDTH, display_width, grapheme_indices, grapheme_width, spans_width};

/// The marker [`cut_to_width`] puts where it cut a line.
pub const CUT_MARKER: &str = "…";

/// An owned copy of a span.
pub(crate) fn owned_span(span: &Span<'_>) -> Span<'static> {
    Span::styled(span.content.to_string(), span.style)
}

/// The longest leading part of `spans` that fits in `width` columns.
pub(crate) fn take_width(spans: &[Span<'_>], width: usize) -> (Vec<Span<'static>>, usize) {
    let mut out = Vec::new();
    let mut used = 0;
    for span in spans {
        if is_printable(&span.content) {
            // Printable ASCII: a column a byte, cut at any byte.
            let taken = span.content.len().min(width - used);
            if taken > 0 {
                out.push(Span::styled(span.content[..taken].to_string(), span.style));
            }
            used += taken;
            if taken < span.content.len() {
                break;
            }
            continue;
        }
        if take_graphemes(span, width, &mut used, &mut out) {
            break;
        }
    }
    (out, used)
}

/// Takes from `span`, a grapheme at a time, what fits in `width` columns
/// past the `used` ones (a tab as [`TAB_WIDTH`] spaces); whether some of
/// it did not fit.
fn take_graphemes(
    span: &Span<'_>,
    width: usize,
    used: &mut usize,
    out: &mut Vec<Span<'static>>,
) -> bool {
    let mut text = String::new();
    let mut full = false;
    for (_, g) in grapheme_indices(&span.content) {
        let w = grapheme_width(g);
        if *used + w > width {
            full = true;
            break;
        }
        *used += w;
        if g == "\t" {
            text.push_str(&" ".repeat(TAB_WIDTH));
        } else {
            text.push_str(g);
        }
    }
    if !text.is_empty() {
        out.push(Span::styled(text, span.style));
    }
    full
}

/// A line that is never wrapped (code) cut to `width` columns, ending in a dim [`CUT_MARKER`]
/// where something was cut off.
pub fn cut_to_width(line: &Line<'_>, width: usize) -> Line<'static> {
    let spans: Vec<Span<'static>> = if spans_width(&line.spans) <= width {
        line.spans.iter().map(owned_span).collect()
    } else if width == 0 {
        Vec::new()
    } else {
        let (mut spans, _) = take_width(&line.spans, width - 1);
        spans.push(Span::styled(
            CUT_MARKER,
            Style::new().add_modifier(Modifier::DIM),
        ));
        spans
    };
    let mut out = Line::from(spans);
    out.style = line.style;
    out.alignment = line.alignment;
    out
}

/// The leading part of `spans` that fits in `width` columns, cut without a marker (for
/// prefixes squeezed by a narrow width).
pub fn truncate_spans(spans: &[Span<'_>], width: usize) -> Vec<Span<'static>> {
    take_width(spans, width).0
}

/// `text` cut to `width` columns, with `…` when it was longer.
pub fn truncate(text: &str, width: usize) -> String {
    if display_width(text) <= width {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for (_, g) in grapheme_indices(text) {
        let w = grapheme_width(g);
        if used + w + 1 > width {
            break;
        }
        out.push_str(g);
        used += w;
    }
    if width > 0 {
        out.push('…');
    }
    out
}

/// `text` cut to its last `width` columns, with `…` in front when it was
/// longer (for text being typed: its end is what matters).
#[cfg(feature = "cli")]
pub fn truncate_start(text: &str, width: usize) -> String {
    if display_width(text) <= width {
        return text.to_string();
    }
    let mut kept = Vec::new();
    let mut used = 0;
    for g in text.graphemes(true).rev() {
        let w = grapheme_width(g);
        if used + w + 1 > width {
            break;
        }
        kept.push(g);
        used += w;
    }
    let mut out = String::new();
    if width > 0 {
        out.push('…');
    }
    out.extend(kept.into_iter().rev());
    out
}

/// `text` cut to `width` columns by leaving out its middle, with `…` in its
/// place when it was longer (a label whose start and end both say
/// something: `sub-agent Round 2: al…ison › reply`).
#[cfg(feature = "cli")]
pub fn truncate_middle(text: &str, width: usize) -> String {
    if display_width(text) <= width {
        return text.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let room = width - 1;
    let tail = truncate_start(text, room / 2 + 1);
    // `truncate_start` put its own `…` in front of the end it kept.
    let tail = tail.strip_prefix('…').unwrap_or(&tail).to_string();
    let head = truncate(text, room - display_width(&tail) + 1);
    let head = head.strip_suffix('…').unwrap_or(&head);
    format!("{head}…{tail}")
}

/// `line` without its first `cols` display columns; a wide character cut in
/// half becomes a space so that the columns after it stay aligned.
#[cfg(feature = "cli")]
pub fn shift(line: &Line<'static>, cols: usize) -> Line<'static> {
    if cols == 0 {
        return line.clone();
    }
    let mut skipped = 0;
    let mut spans = Vec::new();
    for span in &line.spans {
        if skipped >= cols {
            spans.push(span.clone());
            continue;
        }
        let mut kept = String::new();
        for g in grapheme_indices(&span.content).map(|(_, g)| g) {
            if skipped >= cols {
                kept.push_str(g);
                continue;
            }
            let w = grapheme_width(g);
            skipped += w;
            if skipped > cols {
                kept.push_str(&" ".repeat(skipped - cols));
            }
        }
        if !kept.is_empty() {
            spans.push(Span::styled(kept, span.style));
        }
    }
    Line::from(spans).style(line.style)
}

#[cfg(test)]
mod tests {
    use ratatui::style::Color;

    use super::*;
    use crate::text::width::line_text;

    #[test]
    fn the_middle_is_left_out_to_fit() {
        let label = "sub-agent Round 2: alice comparison › reply";
        for width in 1..50 {
            let cut = truncate_middle(label, width);
            assert!(display_width(&cut) <= width, "{width}: {cut}");
            if width >= display_width(label) {
                assert_eq!(cut, label);
            } else {
                assert_eq!(display_width(&cut), width, "{cut}");
                assert!(cut.contains('…'));
            }
        }
        assert_eq!(truncate_middle(label, 20), "sub-agent …n › reply");
        assert_eq!(truncate_middle("日本語のテキスト", 7), "日本…ト");
    }

    #[test]
    fn cut_marks_the_cut() {
        let line = Line::from(vec![Span::raw("abc"), Span::raw("defgh")]);
        let cut = cut_to_width(&line, 5);
        assert_eq!(line_text(&cut), "abcd…");
        assert!(
            cut.spans
                .last()
                .unwrap()
                .style
                .add_modifier
                .contains(Modifier::DIM)
        );
        assert_eq!(line_text(&cut_to_width(&line, 8)), "abcdefgh");
        assert_eq!(line_text(&cut_to_width(&Line::from("中文字"), 4)), "中…");
        assert_eq!(line_text(&cut_to_width(&line, 0)), "");
    }

    #[test]
    fn shifting_drops_columns_across_spans() {
        let line = Line::from(vec![
            Span::raw("abc"),
            Span::styled("defg", Style::new().fg(Color::Red)),
        ]);
        let shifted = shift(&line, 4);
        assert_eq!(line_text(&shifted), "efg");
        assert_eq!(shifted.spans[0].style.fg, Some(Color::Red));
    }

    #[test]
    fn shifting_through_a_wide_character_keeps_alignment() {
        let line = Line::from("a界b");
        assert_eq!(line_text(&shift(&line, 2)), " b");
        assert_eq!(line_text(&shift(&line, 3)), "b");
    }

    #[test]
    fn shifting_counts_an_emoji_sequence_as_the_wrapper_does() {
        // A family emoji: one cluster the wrapper counts 8 columns wide (its
        // characters' widths added up, as xterm and tmux draw it).
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}";
        let line = Line::from(format!("{family}xyz"));
        let cols = display_width(family);
        assert_eq!(line_text(&shift(&line, cols)), "xyz");
        assert_eq!(line_text(&shift(&line, cols + 1)), "yz");
        assert_eq!(
            truncate(&format!("{family}xyz"), cols + 2),
            format!("{family}x…")
        );
    }

    #[test]
    fn truncate_marks_the_cut() {
        assert_eq!(truncate("conversation", 6), "conve…");
        assert_eq!(truncate("short", 6), "short");
        assert_eq!(truncate_start("conversation", 6), "…ation");
        assert_eq!(truncate_start("short", 6), "short");
    }

    /// [`take_width`] a grapheme at a time, as it was before printable ASCII
    /// was cut by bytes: the reference the fast path must agree with.
    fn taken_per_grapheme(spans: &[Span<'_>], width: usize) -> (Vec<Span<'static>>, usize) {
        let mut out = Vec::new();
        let mut used = 0;
        for span in spans {
            if take_graphemes(span, width, &mut used, &mut out) {
                break;
            }
        }
        (out, used)
    }

    proptest::proptest! {
        #[test]
        fn ascii_is_cut_by_bytes_as_by_graphemes(
            pieces in proptest::collection::vec(
                ("( |\\t|\\r|[a-z,]|日|e\u{301}|👩\u{200d}👧){0,10}", proptest::bool::ANY),
                0..6,
            ),
            width in 0..40usize,
        ) {
            let spans: Vec<Span<'static>> = pieces
                .iter()
                .map(|(text, bold)| {
                    let style = if *bold { Style::new().bold() } else { Style::new() };
                    Span::styled(text.clone(), style)
                })
                .collect();
            proptest::prop_assert_eq!(take_width(&spans, width), taken_per_grapheme(&spans, width));
        }
    }
}
