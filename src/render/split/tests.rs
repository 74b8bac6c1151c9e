use proptest::prelude::*;
use ratatui::text::Line;

use super::*;
use crate::render::markdown::markdown_to_lines;
use crate::render::theme::Theme;

/// Cut wherever a cut is allowed, however small the text.
const EVERYWHERE: SplitLimits = SplitLimits {
    above: 0,
    bytes: 0,
    lines: 1,
};

fn whole(text: &str, width: usize) -> Vec<Line<'static>> {
    markdown_to_lines(text, width, &Theme::dark())
}

/// The pieces laid out one after another, a blank line between two pieces
/// (the one markdown puts between two blocks).
fn pieced(text: &str, width: usize, ranges: &[Range<usize>]) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for (i, range) in ranges.iter().enumerate() {
        let piece = whole(&text[range.clone()], width);
        assert!(
            ranges.len() == 1 || !piece.is_empty(),
            "piece {i} lays out nothing: {range:?}"
        );
        if i > 0 {
            lines.push(Line::default());
        }
        lines.extend(piece);
    }
    lines
}

fn assert_covers(ranges: &[Range<usize>], len: usize) {
    assert_eq!(ranges.first().map(|r| r.start), Some(0));
    assert_eq!(ranges.last().map(|r| r.end), Some(len));
    for pair in ranges.windows(2) {
        assert_eq!(pair[0].end, pair[1].start);
        assert!(pair[0].start < pair[0].end);
    }
}

/// Splits `text` everywhere it may and checks the pieces lay out like the
/// whole at a few widths; returns the cuts.
fn check(text: &str) -> Vec<Range<usize>> {
    let ranges = markdown_pieces(text, &EVERYWHERE);
    assert_covers(&ranges, text.len());
    for width in [12, 40, 80] {
        assert_eq!(
            pieced(text, width, &ranges),
            whole(text, width),
            "width {width}, pieces {:?}",
            ranges.iter().map(|r| &text[r.clone()]).collect::<Vec<_>>()
        );
    }
    ranges
}

/// The pieces as text.
fn texts<'t>(text: &'t str, ranges: &[Range<usize>]) -> Vec<&'t str> {
    ranges.iter().map(|r| &text[r.clone()]).collect()
}

#[test]
fn paragraphs_are_cut_between_one_another() {
    let text = "One paragraph\nof two lines.\n\nAnother *one*.\n\n\n# A heading\n\nLast.";
    assert_eq!(
        texts(text, &check(text)),
        [
            "One paragraph\nof two lines.\n\n",
            "Another *one*.\n\n\n",
            "# A heading\n\n",
            "Last."
        ]
    );
}

#[test]
fn small_texts_stay_whole() {
    let text = "a\n\nb\n\nc";
    assert_eq!(markdown_pieces(text, &SplitLimits::default()).len(), 1);
    let limits = SplitLimits {
        above: 0,
        bytes: 4,
        lines: 1,
    };
    assert_eq!(
        texts(text, &markdown_pieces(text, &limits)),
        ["a\n\nb\n\n", "c"]
    );
}

#[test]
fn lists_quotes_and_tables_are_never_cut_inside() {
    let text = "Intro.\n\n- one\n- two\n\n- three, loose\n\n  still three\n\n1. first\n\n2. second\n\n\
                > quoted\n\n> another quote\n>\n> on\n\nAfter.\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n\
                Then text\n\n* star\n+ plus\n\nEnd.";
    assert_eq!(
        texts(text, &check(text)),
        [
            "Intro.\n\n- one\n- two\n\n- three, loose\n\n  still three\n\n1. first\n\n2. second\n\n\
             > quoted\n\n> another quote\n>\n> on\n\n",
            "After.\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n",
            "Then text\n\n* star\n+ plus\n\n",
            "End.",
        ]
    );
}

#[test]
fn fences_are_never_cut_inside() {
    let text = "Code:\n\n```rust\nfn a() {}\n\nfn b() {}\n```\n\nText.\n\n~~~~\n~~~\n\nstill code\n~~~~\n\n\
                ```\nunclosed\n\nnever cut\n\nhere";
    let pieces = texts(text, &check(text));
    assert_eq!(
        pieces,
        [
            "Code:\n\n",
            "```rust\nfn a() {}\n\nfn b() {}\n```\n\n",
            "Text.\n\n",
            "~~~~\n~~~\n\nstill code\n~~~~\n\n",
            "```\nunclosed\n\nnever cut\n\nhere"
        ]
    );
}

#[test]
fn an_indented_fence_stops_the_cutting() {
    // The fence may belong to the list item (then it ends with it) or not.
    let text = "- a\n  ```\nfoo\n\n```\ncode\n\nbar\n```\n\nlater";
    assert_eq!(check(text).len(), 1);
}

#[test]
fn html_blocks_definitions_and_escapes_stop_the_cutting() {
    for text in [
        "Text.\n\n<pre>\n\nkept\n\n</pre>\n\nafter",
        "See [x].\n\nMore.\n\n[x]: https://example.com",
        "A note[^1].\n\nMore.\n\n[^1]: the note",
        "a <!-- gone --> b\n\nc",
    ] {
        assert_eq!(check(text).len(), 1, "{text:?}");
    }
    // Cut before the line of the escape at the latest.
    let escape = "Before.\n\nMiddle.\n\nAn \u{1b}]0;title\n\nstill the title\u{7} after.\n\nEnd.";
    assert_eq!(
        texts(escape, &check(escape)),
        [
            "Before.\n\n",
            "Middle.\n\nAn \u{1b}]0;title\n\nstill the title\u{7} after.\n\nEnd."
        ]
    );
}

#[test]
fn crlf_blank_lines_are_blank() {
    let text = "One.\r\n\r\nTwo.\r\n";
    assert_eq!(texts(text, &check(text)), ["One.\r\n\r\n", "Two.\r\n"]);
}

#[test]
fn plain_lines_are_cut_by_count_and_by_size() {
    let text = "1\n2\n3\n4\n5";
    let limits = SplitLimits {
        above: 0,
        bytes: 100,
        lines: 2,
    };
    assert_eq!(
        texts(text, &line_pieces(text, &limits)),
        ["1\n2\n", "3\n4\n", "5"]
    );
    let limits = SplitLimits {
        above: 0,
        bytes: 3,
        lines: 100,
    };
    assert_eq!(
        texts(text, &line_pieces(text, &limits)),
        ["1\n2\n", "3\n4\n", "5"]
    );
    assert_eq!(line_pieces(text, &SplitLimits::default()).len(), 1);
    let trailing = "a\nb\n";
    assert_eq!(
        texts(trailing, &line_pieces(trailing, &EVERYWHERE)),
        ["a\n", "b\n"]
    );
}

#[test]
fn a_slice_of_parts_crosses_them() {
    let parts = ["abc", "", "def"];
    assert_eq!(slice_of_parts(&parts, 1..2), "b");
    assert!(matches!(slice_of_parts(&parts, 3..5), Cow::Borrowed("de")));
    assert_eq!(slice_of_parts(&parts, 2..4), "cd");
    assert_eq!(slice_of_parts(&parts, 0..6), "abcdef");
}

/// Lines that mean different things depending on what comes before them.
const FRAGMENTS: &[&str] = &[
    "Plain words here",
    "*emphasis* and `code`",
    "# Heading",
    "Setext\n===",
    "- item",
    "  continued item",
    "1. numbered",
    "2) other",
    "> quote",
    ">",
    "| a | b |\n| - | - |\n| 1 | 2 |",
    "```",
    "```rust",
    "~~~",
    "  ```",
    "    indented code",
    "\tTabbed",
    "---",
    "***",
    "<div>",
    "</div>",
    "<pre>",
    "</pre>",
    "[link]: /url",
    "[^n]: note",
    "text with [link] and [^n]",
    "www.example.com",
    "- [ ] task",
    "word \u{1b}[31mred",
    "\u{1b}]0;title",
    "\u{7}",
    "Ünïcode text",
    "\u{a0}non-breaking space",
    "#",
    "Title\n---",
    "  - nested item",
    "[x]",
    "a <!-- comment --> b",
    "\r",
    "",
    " ",
];

#[test]
fn a_piece_past_its_budget_is_cut_into_lines_as_written_even_after_a_fenced_table() {
    let limits = SplitLimits::default();
    let table = "|a|b|c|d|\n".repeat(3_000);
    let items: String = (0..40_000).map(|i| format!("- *item* {i}\n")).collect();
    let text = format!("intro\n\n{table}\n{items}");
    // One piece (no cut divides a table or a list), then its lines.
    let one = |text: &str| {
        let pieces = markdown_pieces(text, &limits);
        assert_eq!(pieces.len(), 1);
        with_as_written(text, pieces, &limits)
    };
    let pieces = one(&text);
    let forms: Vec<PieceForm> = pieces.iter().map(|(_, form)| *form).collect();
    // Laid out to the budget's end, the table with it; then the rest of
    // the list, 2,048 lines a piece.
    assert_eq!(forms[0], PieceForm::Laid);
    let (laid, _) = &pieces[0];
    assert!(laid.end > 7 + table.len());
    let rest = text[laid.end..].lines().count();
    assert_eq!(forms[1], PieceForm::AsWrittenFrom { lines: rest });
    assert_eq!(pieces.len(), 1 + rest.div_ceil(limits.lines));
    assert!(forms[2..].iter().all(|f| *f == PieceForm::AsWrittenMore));
    assert_covers(&pieces.iter().map(|(r, _)| r.clone()).collect::<Vec<_>>(), text.len());
    // A piece within its budget and with nothing to fence is plain; one
    // with a table to fence is not.
    let small = one(&items[..1_000]);
    assert_eq!(small, vec![(0..1_000, PieceForm::Plain)]);
    let fenced = one(&table);
    assert_eq!(fenced, vec![(0..table.len(), PieceForm::Laid)]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn pieces_lay_out_like_the_whole(
        picks in prop::collection::vec((0..FRAGMENTS.len(), 0..3usize), 1..40),
    ) {
        let mut text = String::new();
        for (fragment, newlines) in picks {
            text.push_str(FRAGMENTS[fragment]);
            text.push_str(&"\n".repeat(newlines + 1));
        }
        let ranges = markdown_pieces(&text, &EVERYWHERE);
        assert_covers(&ranges, text.len());
        for width in [10, 60] {
            prop_assert_eq!(pieced(&text, width, &ranges), whole(&text, width), "{:?}", text);
        }
    }
}
