//! The one wrapping helper: every piece of prose on screen is wrapped here.
//!
//! Keeping a single implementation (as the Codex TUI does) means one set of rules for width:
//! widths are display columns of grapheme clusters (`unicode-width` over `unicode-segmentation`
//! clusters), so CJK takes two columns, emoji sequences stay whole and combining marks never
//! leave their base. Wrapping is greedy at spaces, may also break beside double-width
//! characters (CJK text has no spaces), breaks words longer than the line, and keeps each span's
//! style on its own text only. It is linear in the input. It does not sanitize: callers pass
//! text that went through [`super::sanitize`]; widths come from [`super::width`].

use std::borrow::Cow;

use ratatui::text::{Line, Span};

use super::truncate::{owned_span, take_width, truncate_spans};
use super::width::{TAB_WIDTH, grapheme_indices, grapheme_width, spans_width};

/// What replaces a character too wide for the one or two columns left on a line.
const TOO_WIDE: &str = "?";

/// How a piece of input is written out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// The input text itself.
    Text,
    /// A run of printable ASCII other than the space, a cluster and a column
    /// per byte: one piece for a whole word, cut anywhere when it is broken.
    Run,
    /// A tab, written as spaces.
    Tab,
    /// A character wider than the whole line, written as [`TOO_WIDE`].
    TooWide,
}

/// One grapheme cluster (or a run of them) of the input, by span and byte range.
#[derive(Debug, Clone, Copy)]
struct Piece {
    span: usize,
    start: usize,
    end: usize,
    width: usize,
    kind: Kind,
}

impl Kind {
    /// Whether the piece is written as the input's own text.
    fn is_text(self) -> bool {
        matches!(self, Kind::Text | Kind::Run)
    }
}

impl Piece {
    /// How many bytes the piece is written as.
    fn written_len(&self) -> usize {
        match self.kind {
            Kind::Text | Kind::Run => self.end - self.start,
            Kind::Tab => self.width,
            Kind::TooWide => TOO_WIDE.len(),
        }
    }
}

/// A prefix cut to leave room for content, and its width.
struct Prefix {
    spans: Vec<Span<'static>>,
    width: usize,
}

impl Prefix {
    fn new(spans: &[Span<'_>], width: usize) -> Self {
        let natural = spans_width(spans);
        // Content always keeps at least two columns (one when the line has only one).
        let room = width.saturating_sub(width.min(2));
        if natural <= room {
            Prefix {
                spans: spans.iter().map(owned_span).collect(),
                width: natural,
            }
        } else {
            let (spans, width) = take_width(spans, room);
            Prefix { spans, width }
        }
    }
}

/// The state of one wrapping run.
struct Wrapper<'s, 'a> {
    spans: &'s [Span<'a>],
    width: usize,
    first: Prefix,
    rest: Prefix,
    lines: Vec<Line<'static>>,
    line: Vec<Piece>,
    line_width: usize,
    line_has_word: bool,
    /// The current line starts the input or follows a `\n`: its leading spaces are kept.
    hard_start: bool,
    space: Vec<Piece>,
    space_width: usize,
    word: Vec<Piece>,
    word_width: usize,
}

impl<'s, 'a> Wrapper<'s, 'a> {
    fn new(
        spans: &'s [Span<'a>],
        width: usize,
        first_prefix: &[Span<'_>],
        rest_prefix: &[Span<'_>],
    ) -> Self {
        let width = width.max(1);
        Wrapper {
            spans,
            width,
            first: Prefix::new(first_prefix, width),
            rest: Prefix::new(rest_prefix, width),
            lines: Vec::new(),
            line: Vec::new(),
            line_width: 0,
            line_has_word: false,
            hard_start: true,
            space: Vec::new(),
            space_width: 0,
            word: Vec::new(),
            word_width: 0,
        }
    }

    fn available(&self) -> usize {
        let prefix = if self.lines.is_empty() {
            &self.first
        } else {
            &self.rest
        };
        self.width - prefix.width
    }

    fn push_to_line(&mut self, piece: Piece) {
        self.line_width += piece.width;
        if let Some(last) = self.line.last_mut()
            && last.span == piece.span
            && last.kind.is_text()
            && piece.kind.is_text()
            && last.end == piece.start
        {
            last.end = piece.end;
            last.width += piece.width;
            return;
        }
        self.line.push(piece);
    }

    fn emit_line(&mut self) {
        let prefix = if self.lines.is_empty() {
            &self.first
        } else {
            &self.rest
        };
        // Room for the line's spans and for a prefix put in front of it
        // later (`prefix_lines`), so that neither grows the list.
        let mut spans: Vec<Span<'static>> = Vec::with_capacity(prefix.spans.len() + 4);
        spans.extend(prefix.spans.iter().cloned());
        // One span per run of pieces of one input span, its text sized first.
        let mut group = 0;
        while group < self.line.len() {
            let index = self.line[group].span;
            let end = self.line[group..]
                .iter()
                .position(|piece| piece.span != index)
                .map_or(self.line.len(), |n| group + n);
            let pieces = &self.line[group..end];
            let content = &self.spans[index].content;
            let mut text = String::with_capacity(pieces.iter().map(Piece::written_len).sum());
            for piece in pieces {
                match piece.kind {
                    Kind::Text | Kind::Run => text.push_str(&content[piece.start..piece.end]),
                    Kind::Tab => text.extend(std::iter::repeat_n(' ', piece.width)),
                    Kind::TooWide => text.push_str(TOO_WIDE),
                }
            }
            spans.push(Span::styled(text, self.spans[index].style));
            group = end;
        }
        self.line.clear();
        self.lines.push(Line::from(spans));
        self.line_width = 0;
        self.line_has_word = false;
        self.hard_start = false;
    }

    /// Places the pending spaces and word.
    fn flush_word(&mut self) {
        if self.word.is_empty() {
            return;
        }
        let available = self.available();
        // Taken out to be placed, and given back empty: its memory is
        // reused for the next word's spaces.
        let mut space = std::mem::take(&mut self.space);
        let space_width = std::mem::replace(&mut self.space_width, 0);
        if self.line_has_word {
            if self.line_width + space_width + self.word_width <= available {
                for piece in space.drain(..) {
                    self.push_to_line(piece);
                }
                self.space = space;
                self.place_word();
                return;
            }
            self.emit_line();
        } else if self.hard_start {
            // Leading indentation of a line of input, as much as fits.
            for piece in space.drain(..) {
                if self.line_width + piece.width > available {
                    break;
                }
                self.push_to_line(piece);
            }
        }
        space.clear();
        self.space = space;
        self.place_word();
    }

    /// Puts the pending word on the current line, breaking it where it does not fit.
    fn place_word(&mut self) {
        // Taken out and given back empty, as the spaces are.
        let mut word = std::mem::take(&mut self.word);
        let word_width = std::mem::replace(&mut self.word_width, 0);
        if self.line_width + word_width <= self.available() {
            for piece in word.drain(..) {
                self.push_to_line(piece);
            }
        } else {
            for mut piece in word.drain(..) {
                if piece.kind == Kind::Run {
                    self.break_run(piece);
                    continue;
                }
                if self.line_width + piece.width > self.available() && self.line_width > 0 {
                    self.emit_line();
                }
                if piece.width > self.available() {
                    piece.kind = Kind::TooWide;
                    piece.width = 1;
                }
                self.push_to_line(piece);
            }
        }
        self.word = word;
        self.line_has_word = true;
    }

    /// Places a run of a word too long for the line: as many bytes as the
    /// line has columns left, the rest on the next lines (what placing it a
    /// cluster at a time does).
    fn break_run(&mut self, run: Piece) {
        let mut start = run.start;
        while start < run.end {
            let room = self.available().saturating_sub(self.line_width);
            if room == 0 && self.line_width > 0 {
                self.emit_line();
                continue;
            }
            let end = run.end.min(start + room.max(1));
            self.push_to_line(Piece {
                start,
                end,
                width: end - start,
                ..run
            });
            start = end;
        }
    }

    fn run(mut self) -> Vec<Line<'static>> {
        for (index, span) in self.spans.iter().enumerate() {
            let mut clusters = grapheme_indices(&span.content);
            loop {
                if let Some((start, end)) = clusters.word_run() {
                    self.word.push(Piece {
                        span: index,
                        start,
                        end,
                        width: end - start,
                        kind: Kind::Run,
                    });
                    self.word_width += end - start;
                    continue;
                }
                if let Some(start) = clusters.space() {
                    self.push_space(index, start);
                    continue;
                }
                let Some((start, g)) = clusters.next() else {
                    break;
                };
                self.push_cluster(index, start, g);
            }
        }
        self.finish()
    }

    /// Takes in a space of span `index` at byte `start`: the word before it
    /// is placed, the space waits to be placed before the next word.
    fn push_space(&mut self, index: usize, start: usize) {
        self.flush_word();
        self.space_width += 1;
        self.space.push(Piece {
            span: index,
            start,
            end: start + 1,
            width: 1,
            kind: Kind::Text,
        });
    }

    /// Takes in one grapheme cluster `g` of span `index`, at byte `start`.
    fn push_cluster(&mut self, index: usize, start: usize, g: &str) {
        let end = start + g.len();
        let piece = |width, kind| Piece {
            span: index,
            start,
            end,
            width,
            kind,
        };
        match g {
            "\n" | "\r\n" => {
                self.flush_word();
                self.space.clear();
                self.space_width = 0;
                self.emit_line();
                self.hard_start = true;
            }
            " " => self.push_space(index, start),
            "\t" => {
                self.flush_word();
                self.space_width += TAB_WIDTH;
                self.space.push(piece(TAB_WIDTH, Kind::Tab));
            }
            _ => {
                let width = grapheme_width(g);
                if width >= 2 {
                    // Double-width text (CJK) may break on either side.
                    self.flush_word();
                    self.word.push(piece(width, Kind::Text));
                    self.word_width = width;
                    self.flush_word();
                } else {
                    self.word.push(piece(width, Kind::Text));
                    self.word_width += width;
                }
            }
        }
    }

    /// Places what is pending and returns the lines.
    fn finish(mut self) -> Vec<Line<'static>> {
        self.flush_word();
        if self.hard_start && !self.line_has_word {
            let available = self.available();
            for piece in std::mem::take(&mut self.space) {
                if self.line_width + piece.width > available {
                    break;
                }
                self.push_to_line(piece);
            }
        }
        self.emit_line();
        self.lines
    }
}

/// Wraps styled text to `width` columns: the first line starts with `first_prefix`, the others
/// with `rest_prefix` (a hanging indent, a quote gutter). A `\n` in the text forces a break;
/// spaces at a break are dropped, spaces that indent a line of input are kept. No line is ever
/// wider than `width` (a prefix too wide for it is cut); an empty input gives one line holding
/// only the prefix.
pub fn wrap_spans(
    spans: &[Span<'_>],
    width: usize,
    first_prefix: &[Span<'_>],
    rest_prefix: &[Span<'_>],
) -> Vec<Line<'static>> {
    Wrapper::new(spans, width, first_prefix, rest_prefix).run()
}

/// The width to lay content out at beside a prefix `prefix` columns wide (a gutter, a list
/// marker): what is left, but at least two columns (one when the line has only one); pass it to
/// [`prefix_lines`], which cuts the prefix to fit.
pub fn child_width(width: usize, prefix: usize) -> usize {
    width.saturating_sub(prefix).max(width.min(2))
}

/// Puts `first` before the first line and `rest` before the others, for lines laid out at
/// `child` = [`child_width`]`(width, prefix width)` columns; the prefixes are cut to the
/// `width - child` columns the content leaves, so no line exceeds `width`. A blank line gets
/// the prefix without its trailing spaces.
pub fn prefix_lines(
    lines: Vec<Line<'static>>,
    first: &[Span<'static>],
    rest: &[Span<'static>],
    width: usize,
    child: usize,
) -> Vec<Line<'static>> {
    let budget = width.saturating_sub(child);
    let fit = |prefix: &[Span<'static>]| -> Vec<Span<'static>> {
        if spans_width(prefix) <= budget {
            prefix.to_vec()
        } else {
            truncate_spans(prefix, budget)
        }
    };
    let first = fit(first);
    let rest = fit(rest);
    lines
        .into_iter()
        .enumerate()
        .map(|(i, line)| {
            let prefix = if i == 0 { &first } else { &rest };
            let blank = line.spans.iter().all(|s| s.content.trim().is_empty());
            // The line's own list of spans takes the prefix in front (it
            // has room for it as the wrapper leaves it): no list is made
            // per line and level of nesting.
            let mut spans = line.spans;
            if blank {
                spans.clear();
                spans.extend(prefix.iter().cloned());
                trim_end(&mut spans);
            } else {
                // One span or two: inserted, not spliced (a splice's
                // machinery cost more than the move, line after line).
                for (at, span) in prefix.iter().enumerate() {
                    spans.insert(at, span.clone());
                }
            }
            Line::from(spans)
        })
        .collect()
}

/// Removes trailing whitespace from a span list.
fn trim_end(spans: &mut Vec<Span<'static>>) {
    while let Some(last) = spans.last_mut() {
        let trimmed = last.content.trim_end().len();
        if trimmed == 0 {
            spans.pop();
        } else {
            if trimmed < last.content.len() {
                last.content.to_mut().truncate(trimmed);
            }
            break;
        }
    }
}

/// A span holding `n` spaces.
pub fn spaces(n: usize) -> Span<'static> {
    Span::raw(Cow::Owned(" ".repeat(n)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::width::{display_width, line_text, line_width};
    use ratatui::style::{Color, Modifier, Style};
    use unicode_segmentation::UnicodeSegmentation;

    fn texts(lines: &[Line<'_>]) -> Vec<String> {
        lines.iter().map(line_text).collect()
    }

    fn wrap_plain(text: &str, width: usize) -> Vec<String> {
        texts(&wrap_spans(&[Span::raw(text)], width, &[], &[]))
    }

    #[test]
    fn wraps_at_spaces_greedily() {
        assert_eq!(
            wrap_plain("the quick brown fox jumps over", 10),
            ["the quick", "brown fox", "jumps over"]
        );
    }

    #[test]
    fn breaks_words_longer_than_the_line() {
        assert_eq!(
            wrap_plain("see abcdefghijklmnop end", 6),
            ["see", "abcdef", "ghijkl", "mnop", "end"]
        );
    }

    #[test]
    fn newline_forces_a_break_and_indentation_is_kept() {
        assert_eq!(
            wrap_plain("fn main() {\n    body();\n}", 40),
            ["fn main() {", "    body();", "}"]
        );
        assert_eq!(wrap_plain("a\n\nb", 10), ["a", "", "b"]);
        assert_eq!(wrap_plain("", 10), [""]);
    }

    #[test]
    fn cjk_is_double_width_and_breaks_between_characters() {
        let lines = wrap_plain("中文字符测试", 5);
        assert_eq!(lines, ["中文", "字符", "测试"]);
        for line in &lines {
            assert!(display_width(line) <= 5);
        }
        assert_eq!(wrap_plain("ab 中文", 5), ["ab 中", "文"]);
    }

    #[test]
    fn emoji_and_combining_marks_stay_whole() {
        let family = "👨\u{200d}👩\u{200d}👧";
        // Six columns: what a terminal that adds up its characters draws (hardening).
        assert_eq!(display_width(family), 6);
        let lines = wrap_plain(&format!("{family}{family}{family}"), 12);
        assert_eq!(lines, [format!("{family}{family}"), family.to_string()]);
        assert_eq!(display_width("🇫🇷"), 2);
        assert_eq!(display_width("❤\u{fe0f}"), 2);
        // e + combining acute: one column, never split from its base.
        let word = "e\u{301}".repeat(6);
        let lines = wrap_plain(&word, 4);
        assert_eq!(lines, ["e\u{301}".repeat(4), "e\u{301}".repeat(2)]);
    }

    #[test]
    fn style_stays_with_its_span_across_breaks() {
        let bold = Style::new().add_modifier(Modifier::BOLD);
        let red = Style::new().fg(Color::Red);
        let spans = [
            Span::raw("plain "),
            Span::styled("bold words here", bold),
            Span::styled(" red", red),
        ];
        let lines = wrap_spans(&spans, 11, &[], &[]);
        assert_eq!(texts(&lines), ["plain bold", "words here", "red"]);
        assert_eq!(lines[0].spans[1].style, bold);
        assert_eq!(lines[1].spans.len(), 1);
        assert_eq!(lines[1].spans[0].style, bold);
        assert_eq!(lines[2].spans[0].style, red);
        assert_eq!(lines[2].spans[0].content, "red");
    }

    #[test]
    fn punctuation_after_a_styled_span_joins_its_word() {
        let spans = [
            Span::styled("code", Style::new().fg(Color::Cyan)),
            Span::raw(", next"),
        ];
        assert_eq!(texts(&wrap_spans(&spans, 5, &[], &[])), ["code,", "next"]);
    }

    #[test]
    fn prefixes_hang() {
        let lines = wrap_spans(
            &[Span::raw("one two three four")],
            9,
            &[Span::raw("- ")],
            &[Span::raw("  ")],
        );
        assert_eq!(texts(&lines), ["- one two", "  three", "  four"]);
    }

    #[test]
    fn prefix_wider_than_width_is_cut() {
        let prefix = [Span::raw("│ │ │ │ ")];
        for width in 1..=10 {
            let lines = wrap_spans(&[Span::raw("word 中文 x")], width, &prefix, &prefix);
            for line in &lines {
                assert!(line_width(line) <= width, "{width}: {:?}", line_text(line));
            }
        }
        let lines = wrap_spans(&[Span::raw("中")], 1, &prefix, &prefix);
        assert_eq!(texts(&lines), [TOO_WIDE]);
    }

    #[test]
    fn prefix_lines_adds_gutters_and_cuts_them_at_narrow_widths() {
        let gutter = [Span::raw("│ ")];
        let child = child_width(20, 2);
        assert_eq!(child, 18);
        let inner = wrap_spans(&[Span::raw("one two\n\nthree")], child, &[], &[]);
        let lines = prefix_lines(inner, &gutter, &gutter, 20, child);
        assert_eq!(texts(&lines), ["│ one two", "│", "│ three"]);
        // At width 3 the content keeps two columns and the gutter is cut to one.
        let child = child_width(3, 2);
        let inner = wrap_spans(&[Span::raw("abcd")], child, &[], &[]);
        let lines = prefix_lines(inner, &gutter, &gutter, 3, child);
        assert_eq!(texts(&lines), ["│ab", "│cd"]);
    }

    #[test]
    fn tabs_become_spaces() {
        assert_eq!(wrap_plain("a\tb", 20), ["a    b"]);
        assert_eq!(display_width("\t"), TAB_WIDTH);
    }

    #[test]
    fn long_paragraph_is_linear_and_within_width() {
        let text = "lorem ipsum dolor sit amet ".repeat(4000);
        let lines = wrap_plain(&text, 37);
        assert!(lines.iter().all(|l| display_width(l) <= 37));
        let word = "x".repeat(100_000);
        let lines = wrap_plain(&word, 80);
        assert_eq!(lines.len(), 1250);
    }

    /// [`wrap_spans`] a grapheme cluster at a time, every cluster found by
    /// Unicode segmentation, as it was before runs of ASCII were placed
    /// whole: the reference the fast path must agree with.
    fn wrapped_per_cluster(
        spans: &[Span<'_>],
        width: usize,
        first_prefix: &[Span<'_>],
        rest_prefix: &[Span<'_>],
    ) -> Vec<Line<'static>> {
        let mut wrapper = Wrapper::new(spans, width, first_prefix, rest_prefix);
        for (index, span) in spans.iter().enumerate() {
            for (start, g) in span.content.grapheme_indices(true) {
                wrapper.push_cluster(index, start, g);
            }
        }
        wrapper.finish()
    }

    use proptest::prelude::*;

    proptest! {
        #[test]
        fn runs_of_ascii_wrap_as_clusters_do(
            parts in prop::collection::vec(
                (
                    "([a-z.,;:!?()/_-]{1,14}|[A-Z0-9]{1,30}| {1,3}|\\t|\\n|\\r\\n|e\u{301}|\u{301}|中文|—|’|👩\u{200d}👧|\u{600}|\u{1F1EB}\u{1F1F7}){0,8}",
                    0..3usize,
                ),
                0..10,
            ),
            first in "[│• ]{0,4}",
            rest in "[│ ]{0,4}",
            width in 1usize..=60,
        ) {
            let spans: Vec<Span<'_>> = parts
                .iter()
                .map(|(t, s)| Span::styled(t.as_str(), styles()[*s]))
                .collect();
            let first = [Span::raw(first.as_str())];
            let rest = [Span::raw(rest.as_str())];
            prop_assert_eq!(
                wrap_spans(&spans, width, &first, &rest),
                wrapped_per_cluster(&spans, width, &first, &rest)
            );
        }
    }

    fn styles() -> [Style; 3] {
        [
            Style::new(),
            Style::new().add_modifier(Modifier::BOLD),
            Style::new().fg(Color::Red),
        ]
    }

    proptest! {
        #[test]
        fn never_wider_and_text_and_styles_survive(
            parts in prop::collection::vec(
                ("[a-z ]{0,15}|[中文字 ]{0,6}|(\\t|\\n| |e\u{301}|👍){0,6}", 0..3usize),
                0..12,
            ),
            prefix in "[│• ]{0,8}",
            width in 1usize..=300,
        ) {
            let spans: Vec<Span<'_>> = parts
                .iter()
                .map(|(t, s)| Span::styled(t.as_str(), styles()[*s]))
                .collect();
            let prefix_spans = [Span::raw(prefix.as_str())];
            let lines = wrap_spans(&spans, width, &prefix_spans, &prefix_spans);
            // Every visible character, with its style, in input order.
            let visible = |spans: &mut dyn Iterator<Item = (&str, Style)>| -> Vec<(String, Style)> {
                spans
                    .flat_map(|(t, s)| {
                        t.graphemes(true)
                            .filter(|g| !g.trim().is_empty())
                            .map(move |g| (g.to_string(), s))
                            .collect::<Vec<_>>()
                    })
                    .collect()
            };
            let expected = visible(&mut spans.iter().map(|s| (s.content.as_ref(), s.style)));
            let mut shown = Vec::new();
            for line in &lines {
                prop_assert!(line_width(line) <= width, "{} > {width}", line_width(line));
                // The prefix comes first on each line and is the only unstyled-raw span there.
                let content = line.spans.iter().skip_while(|s| prefix.starts_with(s.content.as_ref()) && s.style == Style::new() && !s.content.is_empty() && s.content.chars().all(|c| "│• ".contains(c)));
                shown.extend(visible(&mut content.map(|s| (s.content.as_ref(), s.style))));
            }
            if width >= 2 {
                prop_assert_eq!(shown, expected);
            }
        }
    }
}
