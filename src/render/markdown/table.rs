//! Markdown tables: a grid with aligned columns when the columns fit the
//! width (the widest shrink first, words kept whole where they can), else
//! each row stacked as `header: cell` lines.

use std::borrow::Cow;

use comrak::nodes::{AstNode, NodeValue, TableAlignment};
use ratatui::text::{Line, Span};

use super::as_written::{AsWritten, Fenced, fenced, prose_lines};
use super::{Ctx, Renderer};
use crate::text::truncate::cut_to_width;
use crate::text::width::{display_width, line_width};
use crate::text::wrap::{spaces, wrap_spans};

/// A table column is never narrower than its longest word of up to this many columns (longer
/// words, like URLs and paths, are broken anyway); when the columns cannot get that, the table
/// is stacked.
const MAX_WORD_FLOOR: usize = 12;

/// Nor narrower than this (or its natural width, if smaller).
const MIN_COLUMN: usize = 3;

impl Renderer<'_> {
    pub(super) fn table<'a>(
        &mut self,
        node: &'a AstNode<'a>,
        alignments: &[TableAlignment],
        ctx: Ctx,
    ) -> Vec<Line<'static>> {
        let header_style = ctx.base.patch(self.theme.styles.table_header);
        let mut rows: Vec<(bool, Vec<Vec<Span<'static>>>)> = Vec::new();
        for row in node.children() {
            let header = matches!(row.data().value, NodeValue::TableRow(true));
            let style = if header { header_style } else { ctx.base };
            let cells = row
                .children()
                .map(|cell| self.inline_spans(cell, style))
                .collect();
            rows.push((header, cells));
        }
        let columns = rows
            .iter()
            .map(|(_, cells)| cells.len())
            .max()
            .unwrap_or(0)
            .max(alignments.len());
        if columns == 0 {
            return Vec::new();
        }
        let natural: Vec<usize> = (0..columns)
            .map(|c| {
                rows.iter()
                    .filter_map(|(_, cells)| cells.get(c))
                    .map(|cell| {
                        let text: String = cell.iter().map(|s| s.content.as_ref()).collect();
                        text.split('\n').map(display_width).max().unwrap_or(0)
                    })
                    .max()
                    .unwrap_or(0)
                    .max(1)
            })
            .collect();
        let minimum: Vec<usize> = (0..columns)
            .map(|c| {
                rows.iter()
                    .filter_map(|(_, cells)| cells.get(c))
                    .flat_map(|cell| cell.iter())
                    .flat_map(|span| span.content.split_whitespace().map(display_width))
                    .filter(|&w| w <= MAX_WORD_FLOOR)
                    .max()
                    .unwrap_or(0)
                    .max(natural[c].min(MIN_COLUMN))
            })
            .collect();
        let overhead = 3 * columns + 1;
        let Some(widths) = ctx
            .width
            .checked_sub(overhead)
            .and_then(|room| fit_columns(&natural, &minimum, room))
        else {
            return self.stacked_table(&rows, ctx);
        };
        self.grid_table(&rows, &widths, alignments, ctx)
    }

    fn grid_table(
        &self,
        rows: &[(bool, Vec<Vec<Span<'static>>>)],
        widths: &[usize],
        alignments: &[TableAlignment],
        ctx: Ctx,
    ) -> Vec<Line<'static>> {
        let border = self.theme.styles.table_border;
        let rule = |left: &str, mid: &str, right: &str| {
            let mut text = String::from(left);
            for (i, w) in widths.iter().enumerate() {
                if i > 0 {
                    text.push_str(mid);
                }
                text.push_str(&"─".repeat(w + 2));
            }
            text.push_str(right);
            Line::from(Span::styled(text, border))
        };
        // Lay out every row first: separators between body rows only when a row wraps.
        let laid: Vec<(bool, Vec<Vec<Line<'static>>>)> = rows
            .iter()
            .map(|(header, cells)| {
                let wrapped = widths
                    .iter()
                    .enumerate()
                    .map(|(c, &w)| match cells.get(c) {
                        Some(cell) if !cell.is_empty() => wrap_spans(cell, w, &[], &[]),
                        _ => vec![Line::default()],
                    })
                    .collect();
                (*header, wrapped)
            })
            .collect();
        let multi_line = laid
            .iter()
            .any(|(header, cells)| !header && cells.iter().any(|c| c.len() > 1));
        let mut out = vec![rule("┌", "┬", "┐")];
        let mut previous_header = false;
        for (index, (header, cells)) in laid.into_iter().enumerate() {
            if index > 0 && ((previous_header && !header) || multi_line) {
                out.push(rule("├", "┼", "┤"));
            }
            previous_header = header;
            let height = cells.iter().map(Vec::len).max().unwrap_or(1);
            for row_line in 0..height {
                let mut spans = vec![Span::styled("│ ", border)];
                for (c, cell) in cells.iter().enumerate() {
                    if c > 0 {
                        spans.push(Span::styled(" │ ", border));
                    }
                    let content = cell.get(row_line).cloned().unwrap_or_default();
                    let pad = widths[c].saturating_sub(line_width(&content));
                    let (left, right) = match alignments.get(c) {
                        Some(TableAlignment::Right) => (pad, 0),
                        Some(TableAlignment::Center) => (pad / 2, pad - pad / 2),
                        _ => (0, pad),
                    };
                    if left > 0 {
                        spans.push(spaces(left));
                    }
                    spans.extend(content.spans);
                    if right > 0 {
                        spans.push(spaces(right));
                    }
                }
                spans.push(Span::styled(" │", border));
                out.push(Line::from(spans));
            }
        }
        out.push(rule("└", "┴", "┘"));
        // Defence in depth: the layout above never exceeds the width.
        out.into_iter()
            .map(|l| cut_to_width(&l, ctx.width))
            .collect()
    }

    /// A table too wide for a grid: each body row as `header: value` lines.
    fn stacked_table(
        &self,
        rows: &[(bool, Vec<Vec<Span<'static>>>)],
        ctx: Ctx,
    ) -> Vec<Line<'static>> {
        let header_style = ctx.base.patch(self.theme.styles.table_header);
        let headers: Vec<String> = rows
            .iter()
            .find(|(header, _)| *header)
            .map(|(_, cells)| {
                cells
                    .iter()
                    .map(|cell| cell.iter().map(|s| s.content.as_ref()).collect())
                    .collect()
            })
            .unwrap_or_default();
        let mut out: Vec<Line<'static>> = Vec::new();
        let body: Vec<&Vec<Vec<Span<'static>>>> = rows
            .iter()
            .filter(|(header, _)| !header)
            .map(|(_, cells)| cells)
            .collect();
        if body.is_empty() {
            let spans = vec![Span::styled(headers.join(" · "), header_style)];
            return self.prose(spans, ctx.width, &[], &[]);
        }
        for cells in body {
            if !out.is_empty() {
                out.push(Line::from(Span::styled(
                    "─".repeat(ctx.width.min(3)),
                    self.theme.styles.table_border,
                )));
            }
            for (c, cell) in cells.iter().enumerate() {
                let key = headers
                    .get(c)
                    .map_or_else(|| format!("{}", c + 1), Clone::clone);
                let mut spans = vec![Span::styled(format!("{key}:"), header_style)];
                spans.push(Span::styled(" ", ctx.base));
                spans.extend(cell.iter().cloned());
                out.extend(wrap_spans(&spans, ctx.width, &[], &[spaces(2)]));
            }
        }
        out
    }
}

/// Column widths for `room` columns of content: natural widths when they fit, else the widest
/// columns shrink first (every column above a level is cut to it) but never below `minimum`
/// (a column's longest short word, see [`MAX_WORD_FLOOR`]), so words stay whole where they can.
/// `None` when even the minimums do not fit: the caller stacks the table.
fn fit_columns(natural: &[usize], minimum: &[usize], room: usize) -> Option<Vec<usize>> {
    if natural.iter().sum::<usize>() <= room {
        return Some(natural.to_vec());
    }
    if minimum.iter().sum::<usize>() > room {
        return None;
    }
    let at = |level: usize| -> Vec<usize> {
        natural
            .iter()
            .zip(minimum)
            .map(|(&n, &m)| n.min(level).max(m))
            .collect()
    };
    // The highest level whose widths fit, by binary search (the sum grows with the level).
    let (mut low, mut high) = (0, natural.iter().copied().max().unwrap_or(0));
    while low < high {
        let mid = (low + high).div_ceil(2);
        if at(mid).iter().sum::<usize>() <= room {
            low = mid;
        } else {
            high = mid - 1;
        }
    }
    let mut widths = at(low);
    let mut left = room - widths.iter().sum::<usize>();
    for (w, &n) in widths.iter_mut().zip(natural) {
        if left == 0 {
            break;
        }
        if n > *w {
            *w += 1;
            left -= 1;
        }
    }
    Some(widths)
}

/// The most cells (counted by their `|` borders) a run of table lines may
/// have to be laid out as a table. Each cell costs a few hundred bytes in
/// the parser's tree and a line or more when stacked: a 7 MB table of
/// 1000 × 1000 cells took 900 MB. A larger run is shown as written, in a
/// code block, after a note (docs/hardening.md, "Bounded work").
pub(super) const MAX_TABLE_CELLS: usize = 10_000;

/// `text` with every run of consecutive lines holding `|` (outside fenced
/// code) that has more than [`MAX_TABLE_CELLS`] of them put in a fenced
/// code block behind a note, so the parser never builds the table: one
/// pass, linear in the text. Borrowed when no run is that large; with
/// where each run went.
pub(super) fn oversized_tables_as_written(text: &str) -> (Cow<'_, str>, Vec<Fenced>) {
    let mut runs = Vec::new();
    // (start, pipes, lines) of the run of lines with `|` going on.
    let mut run: Option<(usize, usize, usize)> = None;
    let mut close = |run: &mut Option<(usize, usize, usize)>, end: usize| {
        if let Some((start, pipes, lines)) = run.take()
            && pipes > MAX_TABLE_CELLS
        {
            runs.push(AsWritten {
                start,
                end,
                note: format!(
                    "(a table of {lines} lines, shown as written: tables of more than \
                     {MAX_TABLE_CELLS} cells are not laid out)"
                ),
            });
        }
    };
    prose_lines(text, |start, line| {
        let pipes = line.map_or(0, |line| line.bytes().filter(|b| *b == b'|').count());
        if pipes == 0 {
            close(&mut run, start);
            return;
        }
        let (_, total, lines) = run.get_or_insert((start, 0, 0));
        *total += pipes;
        *lines += 1;
    });
    close(&mut run, text.len());
    fenced(text, &runs)
}
