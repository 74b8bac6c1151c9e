//! Rules and labels: the rule that opens a turn (number, time, model, tokens,
//! cost, outcome, duration) and the labels of background tasks and errors.

use ratatui::text::{Line, Span};
use serde_json::Value;

use crate::model::facts;
use crate::text::truncate::cut_to_width;
use crate::text::width::{display_width, line_width};
use crate::text::wrap::wrap_spans;

use super::LayoutContext;
use super::lines::{clean, pretty};

/// `── label ───────── detail ──`, shortened to fit.
pub(super) fn rule(
    label: Vec<Span<'static>>,
    detail: Option<Span<'static>>,
    ctx: &LayoutContext<'_>,
) -> Line<'static> {
    let dim = ctx.theme.styles.turn_rule;
    let mut spans = vec![Span::styled("── ", dim)];
    spans.extend(label);
    spans.push(Span::raw(" "));
    let used: usize = spans.iter().map(|s| display_width(&s.content)).sum();
    let detail_width = detail.as_ref().map_or(0, |d| display_width(&d.content) + 4);
    if let Some(detail) = detail.filter(|_| used + detail_width + 3 <= ctx.width) {
        let fill = ctx.width - used - detail_width;
        spans.push(Span::styled("─".repeat(fill), dim));
        spans.push(Span::raw(" "));
        spans.push(detail);
        spans.push(Span::styled(" ──", dim));
    } else if used < ctx.width {
        spans.push(Span::styled("─".repeat(ctx.width - used), dim));
    }
    let line = Line::from(spans);
    if line_width(&line) > ctx.width {
        cut_to_width(&line, ctx.width)
    } else {
        line
    }
}

pub(super) fn turn_rule(
    number: usize,
    timestamp: Option<&str>,
    info: Option<&facts::TurnInfo>,
    took: Option<String>,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    let label = vec![Span::styled(
        format!("turn {number}"),
        ctx.theme.styles.turn_rule,
    )];
    let detail = timestamp.map(|t| {
        let stamp = display_timestamp(&clean(t, ctx));
        // The longest form that fits: date, time and duration; the time of
        // day (the date goes first) and the duration; the duration alone.
        let room = ctx
            .width
            .saturating_sub(display_width(&format!("── turn {number} ")) + 7);
        let candidates = match &took {
            Some(took) => vec![
                format!("{stamp} · {took}"),
                format!("{} · {took}", stamp.get(11..).unwrap_or(&stamp)),
                took.clone(),
                stamp.clone(),
            ],
            None => vec![stamp.clone()],
        };
        let text = candidates
            .into_iter()
            .find(|c| display_width(c) <= room)
            .unwrap_or(stamp);
        Span::styled(text, ctx.theme.styles.turn_rule)
    });
    let mut lines = vec![rule(label, detail, ctx)];
    if let Some(info) = info {
        let summary = clean(&turn_summary(info), ctx).into_owned();
        if !summary.is_empty() {
            let spans = [Span::styled(summary, ctx.theme.styles.turn_rule)];
            lines.extend(wrap_spans(
                &spans,
                ctx.width,
                &[Span::raw("   ")],
                &[Span::raw("   ")],
            ));
        }
    }
    if let Some(error) = info.and_then(|i| i.error.as_ref()) {
        let text = error_text(error);
        let spans = [Span::styled(
            format!("✗ {}", clean(&text, ctx)),
            ctx.theme.styles.error,
        )];
        lines.extend(wrap_spans(&spans, ctx.width, &[], &[]));
    }
    lines.push(Line::default());
    lines
}

/// Model, tokens, cost and state of a turn, as one line of the turn rule.
pub(super) fn turn_summary(info: &facts::TurnInfo) -> String {
    let mut parts = Vec::new();
    if let Some(model) = &info.model {
        parts.push(model.clone());
    }
    // Exact counts, grouped in thousands as every count overhear shows.
    let n = crate::text::count::thousands;
    let cache = match (info.cache_read_tokens, info.cache_write_tokens) {
        (Some(r), Some(w)) if r > 0 || w > 0 => {
            format!(" ({} cache read, {} cache write)", n(r), n(w))
        }
        (Some(r), None) if r > 0 => format!(" ({} cache read)", n(r)),
        _ => String::new(),
    };
    match (info.input_tokens, info.output_tokens) {
        (Some(i), Some(o)) => parts.push(format!("{} in{cache} / {} out tokens", n(i), n(o))),
        (Some(i), None) => parts.push(format!("{} in tokens", n(i))),
        (None, Some(o)) => parts.push(format!("{} out tokens", n(o))),
        (None, None) => {}
    }
    // Recorded, else priced from the tokens (`~$`), else "not priced".
    if let Some(cost) = crate::usage::Cost::of(info, crate::usage::prices()) {
        parts.push(cost.label());
    }
    if info.held {
        parts.push("held — continues later".into());
    }
    match info.ended {
        Some(facts::TurnEnd::Failed) => parts.push("failed".into()),
        Some(facts::TurnEnd::Cancelled) => parts.push("cancelled".into()),
        _ => {}
    }
    parts.join(" · ")
}

pub(super) fn error_text(error: &facts::ErrorInfo) -> String {
    match (error.code.is_empty(), error.message.is_empty()) {
        (false, false) => format!("{}: {}", error.code, error.message),
        (false, true) => error.code.clone(),
        _ => error.message.clone(),
    }
}

/// The state of a background task, as shown on its call's header.
pub(super) fn task_label(task: &facts::TaskStatus) -> String {
    let state = match task.status {
        Some(facts::TaskState::Working) | None => "working…",
        Some(facts::TaskState::Completed) => "completed",
        Some(facts::TaskState::Failed) => "failed",
        Some(facts::TaskState::Cancelled) => "cancelled",
        Some(facts::TaskState::Detached) => "detached, still working",
    };
    let mut label = format!("task {state}");
    let explains = matches!(
        task.status,
        Some(facts::TaskState::Detached | facts::TaskState::Cancelled)
    );
    if let Some(reason) = task.reason.as_ref().filter(|_| explains) {
        label.push_str(&format!(" ({reason})"));
    }
    label
}

/// What a settled task produced: its output, or its error.
pub(super) fn task_detail(task: &facts::TaskStatus) -> Option<String> {
    match task.status {
        Some(facts::TaskState::Failed) => {
            let code = task.code.clone().unwrap_or_default();
            let message = task.message.clone().unwrap_or_default();
            Some(error_text(&facts::ErrorInfo { code, message }))
        }
        Some(facts::TaskState::Completed) => {
            let output = task.output.as_ref().map(|o| match o {
                Value::String(s) => s.clone(),
                other => pretty(other),
            });
            output.or_else(|| task.result_message.clone())
        }
        _ => None,
    }
}

/// A stored timestamp as `YYYY-MM-DD HH:MM:SS UTC` (absolute, deterministic).
pub fn display_timestamp(stored: &str) -> String {
    let trimmed = stored.trim();
    let date_time: String = trimmed
        .chars()
        .take(19)
        .map(|c| if c == 'T' { ' ' } else { c })
        .collect();
    let rest = &trimmed[date_time.len().min(trimmed.len())..];
    let offset = rest.trim_start_matches(|c: char| c == '.' || c.is_ascii_digit());
    match offset {
        "" | "Z" | "+00:00" => format!("{date_time} UTC"),
        other => format!("{date_time} {other}"),
    }
}
