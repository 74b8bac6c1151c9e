//! Reasoning: shown in full, cut to a number of characters, or folded to a
//! one-line summary, as the policy decided.

use std::borrow::Cow;

use ratatui::text::{Line, Span};

use crate::model::{ChatResponse, EventKind};
use crate::policy::ReasoningDisplay;
use crate::render::markdown::markdown_to_lines_highlighting;
use crate::text::wrap::wrap_spans;

use super::lines::{clean, indent, inner_width};
use super::{BODY_INDENT, LayoutContext};

pub(super) fn reasoning(
    events: &[usize],
    display: ReasoningDisplay,
    folded: bool,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    let mut text = String::new();
    for &e in events {
        if let EventKind::ChatResponse(ChatResponse::Reasoning(part)) = &ctx.conv.events[e].kind {
            text.push_str(part);
        }
    }
    let text = clean(&text, ctx);
    let chars = text.chars().count();
    let collapsed = folded || matches!(display, ReasoningDisplay::Summary);
    if collapsed {
        let summary = format!("▸ thinking ({chars} characters, folded)");
        let mut lines = wrap_spans(
            &[Span::styled(summary, ctx.theme.styles.reasoning)],
            ctx.width,
            &[],
            &[],
        );
        lines.push(Line::default());
        return lines;
    }
    let shown: Cow<'_, str> = match display {
        ReasoningDisplay::Chars(n) if chars > n => {
            Cow::Owned(format!("{}…", text.chars().take(n).collect::<String>()))
        }
        _ => text,
    };
    let mut lines = vec![Line::from(Span::styled(
        "▾ thinking",
        ctx.theme.styles.reasoning,
    ))];
    let inner = inner_width(ctx.width, BODY_INDENT);
    let body = markdown_to_lines_highlighting(
        &shown,
        inner,
        inner + ctx.code_slack(),
        ctx.theme,
        ctx.theme.styles.reasoning,
        ctx.highlighting,
    );
    lines.extend(indent(body, BODY_INDENT, ctx.width));
    lines.push(Line::default());
    lines
}
