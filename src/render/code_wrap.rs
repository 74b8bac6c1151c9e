//! Lines wider than the page (code, JSON, a stored terminal rendering),
//! wrapped for printed output so that nothing is lost, as `bat --wrap
//! character` does.
//!
//! A continuation line repeats the line's leading indent (spaces and the
//! result gutter's `│`) and puts a dim [`CONTINUATION_MARK`] in its last
//! column, so the wrapped text stays aligned under its line and the mark sits
//! in the gutter, not in the text. The viewer never wraps code: it scrolls
//! sideways instead.

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use crate::text::ascii::is_printable;
use crate::text::truncate::cut_to_width;
use crate::text::width::{grapheme_indices, grapheme_width, line_fits};

/// The mark in the gutter of each continuation line.
pub const CONTINUATION_MARK: &str = "↪";

/// Below this width, lines are cut (with `…`) instead: a continuation would
/// hold next to nothing.
const NARROWEST: usize = 4;

/// `line` as lines of at most `width` columns: itself when it fits, else
/// its first `width` columns followed by continuation lines.
pub fn wrap_long_line(line: Line<'static>, width: usize) -> Vec<Line<'static>> {
    if line_fits(&line, width) {
        return vec![line];
    }
    if width < NARROWEST {
        return vec![cut_to_width(&line, width)];
    }
    let cells = cells_of(&line);
    let prefix = continuation_prefix(&line, width);
    let prefix_width: usize = cells_width(&prefix);
    let mut out = Vec::new();
    let mut rest = Rest {
        cells: &cells,
        at: 0,
        within: 0,
    };
    let mut first = true;
    while !rest.is_empty() {
        let room = if first { width } else { width - prefix_width };
        let mut spans = if first { Vec::new() } else { spans_of(&prefix) };
        match rest.too_wide(room) {
            // One grapheme wider than the whole room (an emoji sequence at a
            // very narrow width): shown as a cut, never past the width.
            Some(style) => spans.push(Span::styled("…", style.add_modifier(Modifier::DIM))),
            None => spans.extend(rest.take(room)),
        }
        let mut wrapped = Line::from(spans);
        wrapped.style = line.style;
        out.push(wrapped);
        first = false;
    }
    out
}

/// One grapheme (a tab as its spaces), its style and its columns; or a run
/// of printable ASCII, one column a byte, which may be split anywhere.
#[derive(Clone)]
struct Cell<'a> {
    text: &'a str,
    style: Style,
    width: usize,
    run: bool,
}

/// The cells of `line`: a span of printable ASCII (nearly all code) is one
/// run, any other span a cell per grapheme.
fn cells_of<'a>(line: &'a Line<'_>) -> Vec<Cell<'a>> {
    let mut cells = Vec::new();
    for span in &line.spans {
        let text: &str = &span.content;
        if !text.is_empty() && is_printable(text) {
            cells.push(Cell {
                text,
                style: span.style,
                width: text.len(),
                run: true,
            });
        } else {
            grapheme_cells(text, span.style, |cell| {
                cells.push(cell);
                true
            });
        }
    }
    cells
}

/// Calls `each` with a cell per grapheme of `text` (a tab as its spaces),
/// while it returns true; false when it stopped.
fn grapheme_cells<'a>(text: &'a str, style: Style, mut each: impl FnMut(Cell<'a>) -> bool) -> bool {
    for (_, g) in grapheme_indices(text) {
        let width = grapheme_width(g);
        let cell = |text, width| Cell {
            text,
            style,
            width,
            run: false,
        };
        if g == "\t" {
            // A tab may be split like the spaces it is written as.
            if !(0..width).all(|_| each(cell(" ", 1))) {
                return false;
            }
        } else if !each(cell(g, width)) {
            return false;
        }
    }
    true
}

fn cells_width(cells: &[Cell<'_>]) -> usize {
    cells.iter().map(|c| c.width).sum()
}

/// The cells not yet on a line: from byte `within` of cell `at`.
struct Rest<'c, 'a> {
    cells: &'c [Cell<'a>],
    at: usize,
    within: usize,
}

impl Rest<'_, '_> {
    fn is_empty(&self) -> bool {
        self.at >= self.cells.len()
    }

    /// The style of the next cell when it is one grapheme wider than
    /// `room`, taken alone so that wrapping moves on (the caller shows it as
    /// a cut).
    fn too_wide(&mut self, room: usize) -> Option<Style> {
        let cell = &self.cells[self.at];
        if cell.run || cell.width <= room {
            return None;
        }
        self.at += 1;
        Some(cell.style)
    }

    /// The spans of the next cells that fit in `room` columns, neighbours of
    /// one style joined.
    fn take(&mut self, room: usize) -> Vec<Span<'static>> {
        let mut spans: Vec<Span<'static>> = Vec::new();
        let mut used = 0;
        while let Some(cell) = self.cells.get(self.at) {
            if cell.run {
                let piece = &cell.text[self.within..];
                let taken = piece.len().min(room - used);
                if taken == 0 {
                    break;
                }
                push_piece(&mut spans, &piece[..taken], cell.style);
                used += taken;
                if taken < piece.len() {
                    self.within += taken;
                    break;
                }
                self.within = 0;
            } else {
                if used + cell.width > room {
                    break;
                }
                push_piece(&mut spans, cell.text, cell.style);
                used += cell.width;
            }
            self.at += 1;
        }
        spans
    }
}

/// The indent repeated on continuation lines, ending in the mark: the
/// line's leading spaces and gutter bars, the last space replaced by the
/// mark (or the mark after them when they end in a bar). It takes at most
/// half the width, so a continuation always has room.
fn continuation_prefix<'a>(line: &'a Line<'_>, width: usize) -> Vec<Cell<'a>> {
    let budget = width / 2;
    let mut indent: Vec<Cell<'a>> = Vec::new();
    // One cell past the budget is enough to know whether the indent ends
    // in a space; what lies beyond would be dropped (a line of 20,000 tabs
    // once dropped its 80,000 cells one by one, each time summing the rest).
    let mut taken = 0;
    for span in &line.spans {
        let whole = grapheme_cells(&span.content, span.style, |cell| {
            let indents = (cell.text == " " || cell.text == "│") && taken <= budget;
            if indents {
                taken += cell.width;
                indent.push(cell);
            }
            indents
        });
        if !whole {
            break;
        }
    }
    let mut indent_width = cells_width(&indent);
    if indent.last().is_some_and(|c| c.text == " ") && indent_width <= budget {
        indent.pop();
        indent_width -= 1;
    }
    while indent_width + 1 > budget {
        let Some(cell) = indent.pop() else { break };
        indent_width -= cell.width;
    }
    indent.push(Cell {
        text: CONTINUATION_MARK,
        style: Style::new().add_modifier(Modifier::DIM),
        width: 1,
        run: false,
    });
    indent
}

/// Cells back as spans, neighbours of one style joined.
fn spans_of(cells: &[Cell<'_>]) -> Vec<Span<'static>> {
    let mut spans: Vec<Span<'static>> = Vec::new();
    for cell in cells {
        push_piece(&mut spans, cell.text, cell.style);
    }
    spans
}

/// `text` in `style` after `spans`, joined to the last one when it has that style.
fn push_piece(spans: &mut Vec<Span<'static>>, text: &str, style: Style) {
    match spans.last_mut() {
        Some(last) if last.style == style => last.content.to_mut().push_str(text),
        _ => spans.push(Span::styled(text.to_string(), style)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::width::{line_text, line_width};

    fn texts(lines: &[Line<'_>]) -> Vec<String> {
        lines.iter().map(line_text).collect()
    }

    #[test]
    fn a_line_that_fits_is_left_alone() {
        let line = Line::from("    {\"a\": 1}");
        assert_eq!(texts(&wrap_long_line(line, 12)), ["    {\"a\": 1}"]);
    }

    #[test]
    fn a_long_json_line_continues_under_its_indent_with_the_mark_in_the_gutter() {
        let url = "https://example.com/a/very/long/path/that/does/not/fit?q=1";
        let line = Line::from(format!("      \"url\": \"{url}\""));
        let lines = wrap_long_line(line, 30);
        let text = texts(&lines);
        assert_eq!(text[0], "      \"url\": \"https://example.");
        for continuation in &text[1..] {
            assert!(continuation.starts_with("     ↪"), "{continuation:?}");
        }
        assert!(lines.iter().all(|l| line_width(l) <= 30));
        // Nothing is lost: the pieces put together are the line.
        let joined: String = text
            .iter()
            .enumerate()
            .map(|(i, t)| if i == 0 { t.as_str() } else { &t[8..] })
            .collect();
        assert_eq!(joined, format!("      \"url\": \"{url}\""));
    }

    #[test]
    fn the_result_gutter_is_kept_and_the_mark_is_dim() {
        let line = Line::from(vec![
            Span::styled("  │ ", Style::new().fg(ratatui::style::Color::Red)),
            Span::raw("x".repeat(30)),
        ]);
        let lines = wrap_long_line(line, 20);
        let text = texts(&lines);
        assert_eq!(text[0], format!("  │ {}", "x".repeat(16)));
        assert_eq!(text[1], format!("  │↪{}", "x".repeat(14)));
        assert_eq!(lines[1].spans[0].style.fg, Some(ratatui::style::Color::Red));
        let mark = lines[1].spans.iter().find(|s| s.content == "↪").unwrap();
        assert!(mark.style.add_modifier.contains(Modifier::DIM));
    }

    #[test]
    fn wide_characters_and_deep_indents_never_pass_the_width() {
        let line = Line::from(format!("{}{}", " ".repeat(30), "日本語".repeat(20)));
        for width in NARROWEST..=40 {
            let lines = wrap_long_line(line.clone(), width);
            for l in &lines {
                assert!(line_width(l) <= width, "{width}: {:?}", line_text(l));
            }
            let kept: usize = lines
                .iter()
                .map(|l| line_text(l).matches('日').count())
                .sum();
            assert_eq!(kept, 20, "at {width} every character is kept");
        }
    }

    #[test]
    fn a_grapheme_wider_than_the_room_is_cut_not_overflowing() {
        let family = "👩\u{200d}👩\u{200d}👧\u{200d}👦";
        let line = Line::from(format!("{}{family}{family}", " ".repeat(6)));
        for width in NARROWEST..=20 {
            for l in wrap_long_line(line.clone(), width) {
                assert!(line_width(&l) <= width, "{width}: {:?}", line_text(&l));
            }
        }
    }

    #[test]
    fn a_page_too_narrow_to_wrap_on_cuts_instead() {
        let lines = wrap_long_line(Line::from("abcdefgh"), 3);
        assert_eq!(texts(&lines), ["ab…"]);
    }

    /// The way lines were wrapped before runs of ASCII were taken whole: a
    /// cell per grapheme, the reference the runs must agree with.
    fn wrapped_per_grapheme(line: &Line<'static>, width: usize) -> Vec<Line<'static>> {
        if line_fits(line, width) {
            return vec![line.clone()];
        }
        if width < NARROWEST {
            return vec![cut_to_width(line, width)];
        }
        let mut cells = Vec::new();
        for span in &line.spans {
            grapheme_cells(&span.content, span.style, |cell| {
                cells.push(cell);
                true
            });
        }
        let mut prefix: Vec<Cell<'_>> = cells
            .iter()
            .take_while(|c| c.text == " " || c.text == "│")
            .cloned()
            .collect();
        if prefix.last().is_some_and(|c| c.text == " ") {
            prefix.pop();
        }
        while cells_width(&prefix) + 1 > width / 2 && !prefix.is_empty() {
            prefix.pop();
        }
        prefix.push(Cell {
            text: CONTINUATION_MARK,
            style: Style::new().add_modifier(Modifier::DIM),
            width: 1,
            run: false,
        });
        let prefix_width = cells_width(&prefix);
        let mut out = Vec::new();
        let mut rest = &cells[..];
        let mut first = true;
        while !rest.is_empty() {
            let room = if first { width } else { width - prefix_width };
            let mut used = 0;
            let mut taken = 0;
            for cell in rest {
                if used + cell.width > room {
                    break;
                }
                used += cell.width;
                taken += 1;
            }
            let taken = taken.max(1);
            let mut spans = if first { Vec::new() } else { spans_of(&prefix) };
            if cells_width(&rest[..taken]) > room {
                spans.push(Span::styled("…", rest[0].style.add_modifier(Modifier::DIM)));
            } else {
                spans.extend(spans_of(&rest[..taken]));
            }
            let mut wrapped = Line::from(spans);
            wrapped.style = line.style;
            out.push(wrapped);
            rest = &rest[taken..];
            first = false;
        }
        out
    }

    use proptest::prelude::*;

    proptest! {
        #[test]
        fn runs_of_ascii_wrap_as_graphemes_do(
            pieces in proptest::collection::vec(
                ("( |│|\\t|[a-z,\"]|日|é|e\u{301}|👩\u{200d}👧){0,12}", 0..4usize),
                0..8,
            ),
            width in 1..40usize,
        ) {
            // Styles include the mark's own dim, which a continuation's text
            // must not be joined to.
            let styles = [
                Style::new(),
                Style::new().fg(ratatui::style::Color::Red),
                Style::new().add_modifier(Modifier::DIM),
                Style::new().fg(ratatui::style::Color::Blue).add_modifier(Modifier::BOLD),
            ];
            let line = Line::from(
                pieces
                    .iter()
                    .map(|(text, style)| Span::styled(text.clone(), styles[*style]))
                    .collect::<Vec<_>>(),
            );
            prop_assert_eq!(
                wrap_long_line(line.clone(), width),
                wrapped_per_grapheme(&line, width)
            );
        }
    }
}
