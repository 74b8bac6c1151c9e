//! Layout of the blocks only a stream has: the text being written right now
//! (shown dimmed, with a cursor, until the completed event replaces it) and
//! the stored lines of the raw view.

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use serde_json::Value;

use super::{
    BODY_INDENT, LayoutContext, RESULT_GUTTER, clean, display_timestamp, indent, inner_width,
    json_text_lines, pane,
};
#[cfg(feature = "cli")]
use crate::model::Conversation;
use crate::model::{InProgress, InProgressKind};
#[cfg(feature = "cli")]
use crate::render::document::BlockKind;
use crate::render::markdown::markdown_to_lines_highlighting;
use crate::text::width::{display_width, line_width};
use crate::text::wrap::{prefix_lines, wrap_spans};

/// The cursor at the end of text being written.
pub(super) const CURSOR: &str = "▍";

/// The block of [`crate::render::document::BlockKind::InProgress`].
pub(super) fn in_progress(
    kind: InProgressKind,
    live: bool,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    let Some(progress) = ctx.conv.in_progress.as_ref().filter(|p| p.kind == kind) else {
        return Vec::new();
    };
    let styles = &ctx.theme.styles;
    let dim = Style::new().add_modifier(Modifier::DIM);
    let text = clean(&progress.text, ctx);
    match kind {
        InProgressKind::Message => {
            let state = if live { "typing…" } else { "unfinished" };
            let label = vec![
                Span::styled("assistant", styles.assistant_label),
                Span::styled(format!(" · {state}"), styles.pending),
            ];
            let inner = inner_width(ctx.width, BODY_INDENT);
            let body = markdown_to_lines_highlighting(
                &text,
                inner,
                inner,
                ctx.theme,
                dim,
                ctx.highlighting,
            );
            let body = with_cursor(body, inner, live, styles.pending);
            pane(label, None, indent(body, BODY_INDENT, ctx.width), ctx)
        }
        InProgressKind::Reasoning => {
            let state = if live {
                "thinking…"
            } else {
                "thinking (unfinished)"
            };
            let mut lines = vec![Line::from(Span::styled(
                format!("▾ {state}"),
                styles.reasoning,
            ))];
            let inner = inner_width(ctx.width, BODY_INDENT);
            let body = markdown_to_lines_highlighting(
                &text,
                inner,
                inner,
                ctx.theme,
                styles.reasoning,
                ctx.highlighting,
            );
            let body = with_cursor(body, inner, live, styles.pending);
            lines.extend(indent(body, BODY_INDENT, ctx.width));
            lines.push(Line::default());
            lines
        }
        InProgressKind::ToolInput | InProgressKind::ToolOutput => {
            let tool = clean(tool_name(progress), ctx).into_owned();
            let header = match (kind, live) {
                (InProgressKind::ToolInput, true) => format!("preparing {tool} arguments…"),
                (InProgressKind::ToolInput, false) => format!("{tool} arguments (unfinished)"),
                (_, true) => format!("{tool} · output so far…"),
                (_, false) => format!("{tool} · output so far (unfinished)"),
            };
            let mut lines = wrap_spans(
                &[
                    Span::styled("◌ ", styles.pending),
                    Span::styled(header, styles.pending),
                ],
                ctx.width,
                &[],
                &[Span::raw("    ")],
            );
            let gutter = [Span::styled(RESULT_GUTTER, styles.turn_rule)];
            let inner = inner_width(ctx.width, RESULT_GUTTER);
            let body = wrap_spans(&[Span::styled(text.into_owned(), dim)], inner, &[], &[]);
            let body = with_cursor(body, inner, live, styles.pending);
            lines.extend(prefix_lines(body, &gutter, &gutter, ctx.width, inner));
            lines.push(Line::default());
            lines
        }
    }
}

fn tool_name(progress: &InProgress) -> &str {
    progress
        .tool_name
        .as_deref()
        .or(progress.call_id.as_deref())
        .unwrap_or("tool")
}

/// Puts the cursor after the last text (a line of its own when the last is
/// full); text that stopped for good gets `…` instead.
fn with_cursor(
    mut lines: Vec<Line<'static>>,
    width: usize,
    live: bool,
    style: Style,
) -> Vec<Line<'static>> {
    while lines.last().is_some_and(|l| line_width(l) == 0) && lines.len() > 1 {
        lines.pop();
    }
    let mark = Span::styled(if live { CURSOR } else { "…" }, style);
    match lines.last_mut() {
        Some(last) if line_width(last) + display_width(&mark.content) <= width => {
            last.spans.push(mark)
        }
        _ => lines.push(Line::from(mark)),
    }
    lines
}

/// The block of [`crate::render::document::BlockKind::Original`]: a stored
/// line as read, or why it could not be read.
pub(super) fn original(index: usize, ctx: &LayoutContext<'_>) -> Vec<Line<'static>> {
    let Some(original) = ctx.conv.originals.get(index) else {
        return Vec::new();
    };
    let styles = &ctx.theme.styles;
    let mut lines = Vec::new();
    if let Some(error) = &original.error {
        let problem = crate::problem::line_problem(original.line, error);
        let text = format!("⚠ malformed {}", clean(&problem, ctx));
        lines.extend(wrap_spans(
            &[Span::styled(text, styles.warning)],
            ctx.width,
            &[],
            &[Span::raw("  ")],
        ));
    }
    if let Some(json) = original.json.as_deref() {
        if original.error.is_none()
            && let Some(value) = original.fields()
        {
            let header = clean(&original_header(original.line, &value), ctx).into_owned();
            lines.extend(wrap_spans(
                &[Span::styled(header, styles.tool_header)],
                ctx.width,
                &[],
                &[Span::raw("    ")],
            ));
        }
        lines.extend(json_text_lines(json, ctx));
    }
    lines.push(Line::default());
    lines
}

/// `line N · <type>  <time>`: the record's type (a v27 line's fact types,
/// or its progress type) and time.
fn original_header(line: usize, value: &Value) -> String {
    let type_of = |v: &Value| v.get("type").and_then(Value::as_str).map(str::to_string);
    let (kind, at) = if let Some(facts) = value.get("facts").and_then(Value::as_array) {
        let types: Vec<String> = facts.iter().filter_map(type_of).collect();
        (format!("facts: {}", types.join(", ")), value.get("at"))
    } else if let Some(progress) = value.get("progress") {
        let kind = type_of(progress).unwrap_or_default();
        (format!("progress: {kind}"), None)
    } else {
        let at = value.get("meta").and_then(|m| m.get("at"));
        (type_of(value).unwrap_or_default(), at)
    };
    let mut header = format!("line {line} · {kind}");
    if let Some(at) = at.and_then(Value::as_str) {
        header.push_str(&format!("  {}", display_timestamp(at)));
    }
    header
}

/// The text of a stream block, for search and copying.
#[cfg(feature = "cli")]
pub(super) fn text(kind: &BlockKind, conv: &Conversation) -> Option<String> {
    match kind {
        BlockKind::InProgress { .. } => conv.in_progress.as_ref().map(|p| p.text.clone()),
        BlockKind::Original { index } => conv.originals.get(*index).map(|o| {
            let mut text = o
                .json
                .as_deref()
                .map(crate::render::result::reindent_json)
                .unwrap_or_default();
            if let Some(error) = &o.error {
                let problem = crate::problem::line_problem(o.line, error);
                text.push_str(&format!("\nmalformed {problem}"));
            }
            text
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
