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
    let prefix = continuation_prefix(&cells, width);
    let prefix_width: usize = cells_width(&prefix);
    let mut out = Vec::new();
    let mut rest = &cells[..];
    let mut first = true;
    while !rest.is_empty() {
        let room = if first { width } else { width - prefix_width };
        let taken = fitting(rest, room);
        let mut spans = if first { Vec::new() } else { spans_of(&prefix) };
        if cells_width(&rest[..taken]) > room {
            // One grapheme wider than the whole room (an emoji sequence at a
            // very narrow width): shown as a cut, never past the width.
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

/// One grapheme (a tab as its spaces), its style and its columns.
#[derive(Clone)]
struct Cell<'a> {
    text: &'a str,
    style: Style,
    width: usize,
}

fn cells_of<'a>(line: &'a Line<'_>) -> Vec<Cell<'a>> {
    let mut cells = Vec::new();
    for span in &line.spans {
        for (_, g) in grapheme_indices(&span.content) {
            let width = grapheme_width(g);
            if g == "\t" {
                // A tab may be split like the spaces it is written as.
                cells.extend((0..width).map(|_| Cell {
                    text: " ",
                    style: span.style,
                    width: 1,
                }));
            } else {
                cells.push(Cell {
                    text: g,
                    style: span.style,
                    width,
                });
            }
        }
    }
    cells
}

fn cells_width(cells: &[Cell<'_>]) -> usize {
    cells.iter().map(|c| c.width).sum()
}

/// How many leading `cells` fit in `room` columns (at least one, so that
/// wrapping always moves on: a first cell wider than `room` is taken alone,
/// and the caller shows it as a cut).
fn fitting(cells: &[Cell<'_>], room: usize) -> usize {
    let mut used = 0;
    let mut count = 0;
    for cell in cells {
        if used + cell.width > room {
            break;
        }
        used += cell.width;
        count += 1;
    }
    count.max(1)
}

/// The indent repeated on continuation lines, ending in the mark: the
/// line's leading spaces and gutter bars, the last space replaced by the
/// mark (or the mark after them when they end in a bar). It takes at most
/// half the width, so a continuation always has room.
fn continuation_prefix<'a>(cells: &[Cell<'a>], width: usize) -> Vec<Cell<'a>> {
    let budget = width / 2;
    let mut indent: Vec<Cell<'a>> = cells
        .iter()
        .take_while(|c| c.text == " " || c.text == "│")
        .cloned()
        .collect();
    if indent.last().is_some_and(|c| c.text == " ") {
        indent.pop();
    }
    while cells_width(&indent) + 1 > budget && !indent.is_empty() {
        indent.pop();
    }
    indent.push(Cell {
        text: CONTINUATION_MARK,
        style: Style::new().add_modifier(Modifier::DIM),
        width: 1,
    });
    indent
}

/// Cells back as spans, neighbours of one style joined.
fn spans_of(cells: &[Cell<'_>]) -> Vec<Span<'static>> {
    let mut spans: Vec<Span<'static>> = Vec::new();
    for cell in cells {
        match spans.last_mut() {
            Some(last) if last.style == cell.style => last.content.to_mut().push_str(cell.text),
            _ => spans.push(Span::styled(cell.text.to_string(), cell.style)),
        }
    }
    spans
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
}
