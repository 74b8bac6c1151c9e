//! A sub-agent under the card of the call that started it: one summary line
//! (`▸ agent "Research …" · 14 tool calls · 3m12s`), and its own
//! conversation — speech, tool cards, notices — laid out at a narrower width
//! and indented behind a dotted gutter (docs/agents.md, "Sub-agents").

use ratatui::text::{Line, Span};
use serde_json::Value;

use crate::model::{ChatResponse, Conversation, EventKind};
use crate::render::document::{BlockKind, SubAgent, ToolCard};
use crate::render::duration;
use crate::text::truncate::truncate;
use crate::text::width::display_width;

use super::lines::clean;
use super::{Fold, LayoutContext, Reader, layout_with};

/// Gutter in front of a sub-agent's lines.
pub(super) const GUTTER: &str = "  ┆ ";

/// The sub-agent's conversation of `card`, when it has one with events.
pub(super) fn of<'c>(
    card: &'c ToolCard,
    ctx: &LayoutContext<'c>,
) -> Option<(&'c SubAgent, &'c Conversation)> {
    let sub = card.subagent.as_deref()?;
    let conv = ctx.conv.subagents.get(&sub.call)?;
    Some((sub, conv))
}

/// The summary line: `▸ agent "description" · 14 tool calls · 3m12s`, then
/// the call's state when it failed or runs; `open` marks it unfolded (`▾`).
/// The description is cut to keep it one line.
pub(super) fn summary_line(
    card: &ToolCard,
    sub: &Conversation,
    open: bool,
    indent: &str,
    ctx: &LayoutContext<'_>,
) -> Line<'static> {
    let styles = &ctx.theme.styles;
    let request = &ctx.conv.events[card.call.request];
    let arguments = match &request.kind {
        EventKind::ToolCallRequest { arguments, .. } => arguments.as_ref(),
        _ => &Value::Null,
    };
    let calls = tool_calls(sub);
    let mut tail = format!(" · {calls} tool call{}", if calls == 1 { "" } else { "s" });
    if let Some(took) = span(sub) {
        tail.push_str(&format!(" · {}", duration::human(took)));
    }
    let failed = card.call.response.is_some_and(|r| {
        let event = &ctx.conv.events[r];
        matches!(event.kind, EventKind::ToolCallResponse { is_error: true, .. })
            && !crate::model::facts::refused(event)
    });
    let state = if failed {
        Some((" · failed", styles.error))
    } else if card.call.response.is_none() && card.live {
        Some((" · running…", styles.pending))
    } else {
        None
    };
    let marker = if open { "▾ agent " } else { "▸ agent " };
    let fixed = display_width(indent)
        + display_width(marker)
        + display_width(&tail)
        + state.map_or(0, |(s, _)| display_width(s))
        + 2;
    let room = ctx.width.saturating_sub(fixed).max(1);
    let described = clean(&description(arguments), ctx).into_owned();
    let mut spans = vec![
        Span::raw(indent.to_string()),
        Span::styled(marker, styles.tool_header),
        Span::styled(
            format!("\"{}\"", truncate(&described, room)),
            styles.tool_header,
        ),
        Span::styled(tail, styles.turn_rule),
    ];
    if let Some((text, style)) = state {
        spans.push(Span::styled(text, style));
    }
    Line::from(spans)
}

/// The sub-agent's blocks, laid out `GUTTER` narrower than the card and
/// behind it; the turn rules are left out (the card's line says the rest).
pub(super) fn nested_lines(
    sub: &SubAgent,
    conv: &Conversation,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    let indent = display_width(GUTTER);
    let inner = LayoutContext {
        conv,
        width: ctx.width.saturating_sub(indent).max(8),
        code_width: ctx.code_width.map(|c| c.saturating_sub(indent).max(8)),
        ..*ctx
    };
    let gutter = Span::styled(GUTTER, ctx.theme.styles.turn_rule);
    let mut lines: Vec<Line<'static>> = Vec::new();
    for block in &sub.document.blocks {
        if matches!(block.kind, BlockKind::TurnRule { .. }) {
            continue;
        }
        for line in layout_with(block, Fold::Policy, Reader::Print, &inner) {
            let mut spans = vec![gutter.clone()];
            spans.extend(line.spans);
            lines.push(Line::from(spans).style(line.style));
        }
    }
    // The blank line that ends the last block would only repeat the gutter.
    if lines.last().is_some_and(|l| l.spans.len() == 1) {
        lines.pop();
    }
    lines
}

/// Whether the sub-agent's first message is its prompt (the call's
/// arguments then need not be shown again).
pub(super) fn was_asked(conv: &Conversation) -> bool {
    conv.events
        .iter()
        .any(|e| matches!(e.kind, EventKind::ChatRequest { .. }))
}

/// The sub-agent's last words: its report, which its call's result repeats.
pub(super) fn report(conv: &Conversation) -> Option<&str> {
    conv.events.iter().rev().find_map(|e| match &e.kind {
        EventKind::ChatResponse(ChatResponse::Message(Some(text))) if !text.trim().is_empty() => {
            Some(text.as_str())
        }
        _ => None,
    })
}

/// `agent "description"`, the description as stored (the status bar sanitizes it).
#[cfg(feature = "cli")]
pub(super) fn name(card: &ToolCard, conv: &Conversation) -> String {
    match &conv.events[card.call.request].kind {
        EventKind::ToolCallRequest { arguments, .. } => {
            format!("agent \"{}\"", description(arguments))
        }
        _ => "agent".to_string(),
    }
}

/// What the call asked for, in a few words: Claude Code's `description`,
/// else the first line of a Codex `message` (or the prompt).
fn description(arguments: &Value) -> String {
    let text = |key: &str| arguments.get(key).and_then(Value::as_str);
    let text = text("description")
        .or_else(|| text("message"))
        .or_else(|| text("prompt"))
        .unwrap_or("sub-agent");
    text.lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim()
        .to_string()
}

/// The tool calls of a sub-agent, its own sub-agents' included.
fn tool_calls(conv: &Conversation) -> usize {
    let own = conv
        .events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::ToolCallRequest { .. }))
        .count();
    own + conv.subagents.values().map(tool_calls).sum::<usize>()
}

/// How long the sub-agent worked: from its first stored time to its last.
fn span(conv: &Conversation) -> Option<u64> {
    let mut times = conv.events.iter().filter_map(|e| e.timestamp.as_deref());
    let first = times.next()?;
    let last = times.next_back()?;
    duration::between(first, last).filter(|&ms| ms > 0)
}
