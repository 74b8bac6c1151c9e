//! How a call's view reads (`model::call_view`): a command as `$ command`
//! under its description, a diff coloured by the theme, a checklist and
//! questions as prose wrapped at words. The reader says what each line is;
//! the looks are decided here.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::model::call_view::{CallView, DiffLineKind, ItemStatus};
use crate::text::wrap::wrap_spans;

use super::LayoutContext;
use super::lines::{clean, indent_code};

/// The indent of a call's view under its card's header.
const INDENT: &str = "    ";

/// The lines of a diff a terminal shows; an export shows every line the
/// reader kept.
const TERMINAL_DIFF_LINES: usize = 60;

/// `view` laid out at the context's width, behind the card's indent; a
/// command's description is left out when it is the card's `subject` (the
/// header says it already). `whole`: a diff is not cut to the terminal's
/// [`TERMINAL_DIFF_LINES`].
pub(super) fn lines(
    view: &CallView,
    subject: Option<&str>,
    whole: bool,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    let styles = &ctx.theme.styles;
    match view {
        CallView::Command {
            description,
            command,
        } => {
            let mut out = Vec::new();
            if let Some(about) = description.as_deref().filter(|d| Some(d.trim()) != subject) {
                out.extend(prose(
                    &[Span::styled(format!("# {}", clean(about, ctx)), styles.note)],
                    "",
                    ctx,
                ));
            }
            let command = clean(command, ctx);
            let code: Vec<Line<'static>> = command
                .trim_end()
                .lines()
                .enumerate()
                .map(|(i, line)| {
                    let lead = if i == 0 { "$ " } else { "" };
                    Line::from(format!("{lead}{line}"))
                })
                .collect();
            out.extend(indent_code(code, INDENT, ctx));
            out
        }
        CallView::Diff { lines, more } => {
            let shown = if whole {
                lines.len()
            } else {
                lines.len().min(TERMINAL_DIFF_LINES)
            };
            let more = more + (lines.len() - shown);
            let code: Vec<Line<'static>> = lines[..shown]
                .iter()
                .map(|line| {
                    let style = match line.kind {
                        DiffLineKind::File => styles.diff_file,
                        DiffLineKind::Hunk => styles.diff_hunk,
                        DiffLineKind::Added => styles.diff_added,
                        DiffLineKind::Removed => styles.diff_removed,
                        DiffLineKind::Context => Style::new(),
                    };
                    Line::from(Span::styled(clean(&line.text, ctx).into_owned(), style))
                })
                .collect();
            let mut out = indent_code(code, INDENT, ctx);
            if more > 0 {
                let plural = if more == 1 { "" } else { "s" };
                let note = if whole {
                    format!(
                        "… {more} more line{plural} left out (an export keeps {} lines of a diff)",
                        super::WHOLE_RESULT_LINES
                    )
                } else {
                    format!("… {more} more line{plural}")
                };
                out.extend(prose(&[Span::styled(note, styles.truncation_note)], "", ctx));
            }
            out
        }
        CallView::Checklist { explanation, items } => {
            let mut out = Vec::new();
            if let Some(why) = explanation {
                out.extend(prose(
                    &[Span::raw(clean(why, ctx).into_owned())],
                    "",
                    ctx,
                ));
            }
            for item in items {
                let (mark, style) = match item.status {
                    ItemStatus::Done => ("✔ ", styles.plan_done),
                    ItemStatus::Active => ("▶ ", styles.plan_active),
                    ItemStatus::Pending => ("☐ ", Style::new()),
                };
                let spans = [
                    Span::styled(mark, style),
                    Span::styled(clean(&item.text, ctx).into_owned(), style),
                ];
                out.extend(prose(&spans, "  ", ctx));
            }
            out
        }
        CallView::Questions { questions } => {
            let mut out = Vec::new();
            for question in questions {
                let text = format!("? {}", clean(&question.text, ctx));
                out.extend(prose(&[Span::styled(text, styles.strong)], "  ", ctx));
                for (label, about) in &question.options {
                    let mut spans = vec![Span::raw(format!("  • {}", clean(label, ctx)))];
                    if let Some(about) = about {
                        spans.push(Span::styled(
                            format!(" — {}", clean(about, ctx)),
                            styles.note,
                        ));
                    }
                    out.extend(prose(&spans, "    ", ctx));
                }
            }
            out
        }
    }
}

/// Prose behind the card's indent, wrapped at words; lines after the first
/// hang by `hang` more.
fn prose(spans: &[Span<'_>], hang: &str, ctx: &LayoutContext<'_>) -> Vec<Line<'static>> {
    let rest = format!("{INDENT}{hang}");
    wrap_spans(spans, ctx.width, &[Span::raw(INDENT)], &[Span::raw(rest)])
}
