//! Laying out one document block into styled lines at a width.
//!
//! This is where conversation text is sanitized (display-policy §5) before it
//! is parsed or measured, and where the markdown bridge, the highlighter and
//! the result presenter are applied. Every line returned fits the width.

use std::borrow::Cow;

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use serde_json::Value;

use super::document::{
    BlockKind, DocBlock, Piece, ToolCard, ToolSpeech, audience_label, message_parts, shown_result,
    speech_text,
};
use super::duration;
use super::highlight::highlight;
use super::markdown::markdown_to_lines_wide_code;
use super::result::{Presentation, classify_result, present};
use super::split::slice_of_parts;
use super::theme::Theme;
use crate::format::{ChatResponse, Content, EventKind, ext};
use crate::model::{Conversation, InquiryPair};
use crate::policy::{BlockDisplay, Parameters, ReasoningDisplay};
use crate::text::sanitize::{SanitizeMode, sanitize, sanitize_keep_sgr};
use crate::text::truncate::cut_to_width;
use crate::text::width::{display_width, line_width};
use crate::text::wrap::{child_width, prefix_lines, wrap_spans};

#[path = "layout_stream.rs"]
mod stream;

/// Everything a block needs to be laid out.
#[derive(Clone, Copy)]
pub struct LayoutContext<'a> {
    /// The conversation the document was built from.
    pub conv: &'a Conversation,
    /// Colours.
    pub theme: &'a Theme,
    /// Columns available.
    pub width: usize,
    /// Columns a line of code (never wrapped) may take: `None` cuts code at
    /// `width` like everything else (`overhear render`); the viewer, which
    /// scrolls sideways, passes more so that `h`/`l` can reveal long lines.
    pub code_width: Option<usize>,
    /// How to treat escape sequences in conversation text.
    pub sanitize: SanitizeMode,
}

impl LayoutContext<'_> {
    /// Columns code may take beyond the width of the part it is in.
    fn code_slack(&self) -> usize {
        self.code_width.map_or(0, |c| c.saturating_sub(self.width))
    }

    /// The widest a code line may be (at least [`LayoutContext::width`]).
    fn code_limit(&self) -> usize {
        self.width + self.code_slack()
    }
}

/// Indent of speech and card bodies.
const BODY_INDENT: &str = "  ";
/// Gutter in front of result lines.
const RESULT_GUTTER: &str = "  │ ";

/// Lays out `block`; `folded` collapses foldable blocks to one line. The last
/// line is always blank, separating blocks. A [`Piece`] of a block lays out
/// its part of the block's lines (the last line blank only in the last
/// piece; nothing but in the first piece when the block is folded): the
/// pieces one after another are the whole block's lines.
pub fn layout(block: &DocBlock, folded: bool, ctx: &LayoutContext<'_>) -> Vec<Line<'static>> {
    let fold = if folded { Fold::Folded } else { Fold::Policy };
    layout_with(block, fold, false, ctx)
}

/// How much of a block is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fold {
    /// What the display policy shows.
    Policy,
    /// Folded to its header.
    Folded,
    /// A tool card with every result in full, those the policy cuts or
    /// hides included (the viewer's `Enter` on such a card).
    Expanded,
}

/// [`layout`] for the viewer: `fold` may be [`Fold::Expanded`], and what the
/// policy cuts or hides says that `Enter` shows it.
pub fn layout_in_viewer(
    block: &DocBlock,
    fold: Fold,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    layout_with(block, fold, true, ctx)
}

/// Whether the policy shows only part of `block`'s results (cuts them to
/// lines or hides them) and the card has a header to say so: the viewer
/// then treats the policy's form as the card's folded form, and unfolding
/// shows everything. Cards cut into pieces are not (`o` shows them whole).
pub fn is_limited(block: &DocBlock, conv: &Conversation) -> bool {
    let BlockKind::ToolCard(card) = &block.kind else {
        return false;
    };
    if block.piece.is_some() || !(card.style.header || card.label_audience) {
        return false;
    }
    let Some(EventKind::ToolCallResponse { content, .. }) =
        card.call.response.map(|r| &conv.events[r].kind)
    else {
        return false;
    };
    let views = content.views();
    card.results.iter().any(|&(b, display)| {
        let Some(text) = views.get(b).and_then(|v| v.text) else {
            return false;
        };
        match display {
            BlockDisplay::Hidden => !text.is_empty(),
            BlockDisplay::Lines(n) => {
                let mime = views.get(b).and_then(|v| v.mime_type);
                classify_result(text, mime).1.lines().count() > n
            }
            _ => false,
        }
    })
}

/// Lays out `block` as `fold` says; `viewer` adds the viewer's hints.
fn layout_with(
    block: &DocBlock,
    fold: Fold,
    viewer: bool,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    let folded = fold == Fold::Folded;
    let piece = block.piece.as_ref();
    let mut lines = match &block.kind {
        BlockKind::TurnRule {
            number,
            timestamp,
            info,
            duration,
        } => {
            let took = duration.map(duration::human);
            turn_rule(*number, timestamp.as_deref(), info.as_deref(), took, ctx)
        }
        BlockKind::UserMessage { event } => user_message(*event, piece, ctx),
        BlockKind::AssistantMessage {
            events,
            final_reply,
        } => assistant_message(events, *final_reply, piece, ctx),
        BlockKind::ToolSpeech(speech) => tool_speech(speech, ctx),
        BlockKind::Reasoning { events, display } => reasoning(events, *display, folded, ctx),
        BlockKind::ToolCard(card) => tool_card(card, fold, viewer, piece, ctx),
        BlockKind::Data { event } => data(*event, ctx),
        BlockKind::Inquiry(pair) => {
            let mut lines = inquiry_lines(pair, "", ctx);
            lines.push(Line::default());
            lines
        }
        BlockKind::Notice { text } => {
            let style = ctx.theme.styles.warning;
            // A notice may quote the conversation (a result's id).
            let spans = [Span::styled(clean(text, ctx), style)];
            let mark = [Span::styled("⚠ ", style)];
            let mut lines = wrap_spans(&spans, ctx.width, &mark, &[Span::raw("  ")]);
            lines.push(Line::default());
            lines
        }
        BlockKind::ConfigDelta { event } => raw_json_block("⚙ config_delta", *event, ctx),
        BlockKind::Unknown { event } => {
            let name = ctx.conv.events[*event].type_name().to_string();
            raw_json_block(
                &format!("? unknown event `{}`", clean(&name, ctx)),
                *event,
                ctx,
            )
        }
        BlockKind::InProgress { kind, live } => stream::in_progress(*kind, *live, ctx),
        BlockKind::Original { index } => stream::original(*index, ctx),
    };
    fit(&mut lines, ctx.code_limit());
    lines
}

/// The rule of a turn still running, `elapsed` milliseconds after its first
/// stored time, for the viewer: `… · running 4m12s`. `None` when `block` is
/// not the rule of a turn that has not ended.
pub fn running_turn_rule(
    block: &DocBlock,
    elapsed: u64,
    ctx: &LayoutContext<'_>,
) -> Option<Vec<Line<'static>>> {
    let BlockKind::TurnRule {
        number,
        timestamp,
        info,
        duration: None,
    } = &block.kind
    else {
        return None;
    };
    let took = running_label(elapsed);
    let mut lines = turn_rule(
        *number,
        timestamp.as_deref(),
        info.as_deref(),
        Some(took),
        ctx,
    );
    fit(&mut lines, ctx.code_limit());
    Some(lines)
}

/// `running 4m12s` for a turn running `elapsed` milliseconds, in whole
/// seconds: the rule changes at most once a second.
pub fn running_label(elapsed: u64) -> String {
    match elapsed / 1_000 {
        0 => "running 0s".to_string(),
        s => format!("running {}", duration::human(s * 1_000)),
    }
}

/// Whether `block` can be folded to one line.
pub fn is_foldable(block: &DocBlock) -> bool {
    matches!(
        block.kind,
        BlockKind::ToolCard(_) | BlockKind::Reasoning { .. }
    )
}

/// Every piece of text of the block, folded parts included, for search. A
/// [`Piece`] has the text it shows (the first piece of a card also its name
/// and arguments).
pub fn search_text(block: &DocBlock, conv: &Conversation) -> String {
    let mut out = String::new();
    let mut add = |s: &str| {
        out.push_str(s);
        out.push('\n');
    };
    if let Some(piece) = &block.piece {
        if let BlockKind::ToolCard(card) = &block.kind {
            if piece.is_first()
                && let EventKind::ToolCallRequest {
                    name, arguments, ..
                } = &conv.events[card.call.request].kind
            {
                add(name);
                add(&arguments.to_string());
            }
            add(shown_result(card, conv).map_or("", |t| &t[piece.range.clone()]));
        } else if let Some(text) = piece_text(block, piece, conv) {
            add(&text);
        }
        return out;
    }
    match &block.kind {
        BlockKind::TurnRule { number, .. } => add(&format!("turn {number}")),
        BlockKind::UserMessage { event } | BlockKind::Data { event } => {
            add(&event_text(conv, *event))
        }
        BlockKind::AssistantMessage { events, .. } | BlockKind::Reasoning { events, .. } => {
            for &e in events {
                add(&event_text(conv, e));
            }
        }
        BlockKind::ToolSpeech(speech) => add(&speech_text(conv, speech).unwrap_or_default()),
        BlockKind::ToolCard(card) => {
            if let EventKind::ToolCallRequest {
                name, arguments, ..
            } = &conv.events[card.call.request].kind
            {
                add(name);
                add(&arguments.to_string());
            }
            if let Some(text) = full_text(block, conv) {
                add(&text);
            }
        }
        BlockKind::Inquiry(pair) => add(&event_text(conv, pair.request)),
        BlockKind::Notice { text } => add(text),
        BlockKind::ConfigDelta { event } | BlockKind::Unknown { event } => {
            add(&conv.events[*event].to_json().to_string())
        }
        BlockKind::InProgress { .. } | BlockKind::Original { .. } => {
            add(&stream::text(&block.kind, conv).unwrap_or_default())
        }
    }
    out
}

/// The complete result of a tool card (for the pager and copying), or the
/// block's own text for speech.
pub fn full_text(block: &DocBlock, conv: &Conversation) -> Option<String> {
    match &block.kind {
        BlockKind::ToolCard(card) => {
            let response = card.call.response?;
            match &conv.events[response].kind {
                EventKind::ToolCallResponse { content, .. } => Some(content.plain_text()),
                _ => None,
            }
        }
        BlockKind::ToolSpeech(speech) => speech_text(conv, speech).map(Cow::into_owned),
        BlockKind::UserMessage { event } => Some(event_text(conv, *event)),
        BlockKind::AssistantMessage { events, .. } | BlockKind::Reasoning { events, .. } => {
            Some(events.iter().map(|&e| event_text(conv, e)).collect())
        }
        BlockKind::InProgress { .. } | BlockKind::Original { .. } => {
            stream::text(&block.kind, conv)
        }
        _ => None,
    }
}

/// The text a piece of a speech block shows.
fn piece_text<'c>(block: &DocBlock, piece: &Piece, conv: &'c Conversation) -> Option<Cow<'c, str>> {
    match &block.kind {
        BlockKind::UserMessage { event } => match &conv.events[*event].kind {
            EventKind::ChatRequest { content, .. } => {
                Some(Cow::Borrowed(&content[piece.range.clone()]))
            }
            _ => None,
        },
        BlockKind::AssistantMessage { events, .. } => Some(slice_of_parts(
            &message_parts(conv, events),
            piece.range.clone(),
        )),
        _ => None,
    }
}

fn event_text(conv: &Conversation, event: usize) -> String {
    match &conv.events[event].kind {
        EventKind::ChatRequest { content, .. } => content.clone(),
        EventKind::ChatResponse(ChatResponse::Message(text)) => text.clone().unwrap_or_default(),
        EventKind::ChatResponse(ChatResponse::Reasoning(text)) => text.clone(),
        EventKind::ChatResponse(ChatResponse::Data(data)) => pretty(data),
        EventKind::InquiryRequest { question, .. } => question
            .get("text")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        other => format!("{other:?}"),
    }
}

fn clean<'t>(text: &'t str, ctx: &LayoutContext<'_>) -> Cow<'t, str> {
    sanitize(text, ctx.sanitize)
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// Cuts any line that is still too wide (the last guard of the width rule):
/// wider than the width, or than the code width when the caller scrolls
/// sideways (then only code is laid out that wide).
fn fit(lines: &mut [Line<'static>], width: usize) {
    for line in lines.iter_mut() {
        if line_width(line) > width {
            *line = cut_to_width(line, width);
        }
    }
}

/// `── label ───────── detail ──`, shortened to fit.
fn rule(
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

fn turn_rule(
    number: usize,
    timestamp: Option<&str>,
    info: Option<&ext::TurnInfo>,
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
fn turn_summary(info: &ext::TurnInfo) -> String {
    let mut parts = Vec::new();
    if let Some(model) = &info.model {
        parts.push(model.clone());
    }
    let cache = match (info.cache_read_tokens, info.cache_write_tokens) {
        (Some(r), Some(w)) if r > 0 || w > 0 => format!(" ({r} cache read, {w} cache write)"),
        (Some(r), None) if r > 0 => format!(" ({r} cache read)"),
        _ => String::new(),
    };
    match (info.input_tokens, info.output_tokens) {
        (Some(i), Some(o)) => parts.push(format!("{i} in{cache} / {o} out tokens")),
        (Some(i), None) => parts.push(format!("{i} in tokens")),
        (None, Some(o)) => parts.push(format!("{o} out tokens")),
        (None, None) => {}
    }
    if let Some(cost) = info.cost {
        parts.push(format!("${cost:.4}"));
    }
    if info.held {
        parts.push("held — continues later".into());
    }
    match info.ended {
        Some(ext::TurnEnd::Failed) => parts.push("failed".into()),
        Some(ext::TurnEnd::Cancelled) => parts.push("cancelled".into()),
        _ => {}
    }
    parts.join(" · ")
}

fn error_text(error: &ext::ErrorInfo) -> String {
    match (error.code.is_empty(), error.message.is_empty()) {
        (false, false) => format!("{}: {}", error.code, error.message),
        (false, true) => error.code.clone(),
        _ => error.message.clone(),
    }
}

/// The state of a background task, as shown on its call's header.
fn task_label(task: &ext::TaskStatus) -> String {
    let state = match task.status {
        Some(ext::TaskState::Working) | None => "working…",
        Some(ext::TaskState::Completed) => "completed",
        Some(ext::TaskState::Failed) => "failed",
        Some(ext::TaskState::Cancelled) => "cancelled",
        Some(ext::TaskState::Detached) => "detached, still working",
    };
    let mut label = format!("task {state}");
    let explains = matches!(
        task.status,
        Some(ext::TaskState::Detached | ext::TaskState::Cancelled)
    );
    if let Some(reason) = task.reason.as_ref().filter(|_| explains) {
        label.push_str(&format!(" ({reason})"));
    }
    label
}

/// What a settled task produced: its output, or its error.
fn task_detail(task: &ext::TaskStatus) -> Option<String> {
    match task.status {
        Some(ext::TaskState::Failed) => {
            let code = task.code.clone().unwrap_or_default();
            let message = task.message.clone().unwrap_or_default();
            Some(error_text(&ext::ErrorInfo { code, message }))
        }
        Some(ext::TaskState::Completed) => {
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

fn speech_body(text: &str, ctx: &LayoutContext<'_>) -> Vec<Line<'static>> {
    let text = clean(text, ctx);
    let inner = inner_width(ctx.width, BODY_INDENT);
    let code = inner + ctx.code_slack();
    indent(
        markdown_to_lines_wide_code(&text, inner, code, ctx.theme, Style::new()),
        BODY_INDENT,
        ctx.width,
    )
}

/// Puts `prefix` before lines laid out at [`child_width`] columns.
fn indent(lines: Vec<Line<'static>>, prefix: &'static str, width: usize) -> Vec<Line<'static>> {
    let child = child_width(width, prefix.len());
    let spans = [Span::raw(prefix)];
    prefix_lines(lines, &spans, &spans, width, child)
}

/// Columns left for content behind `prefix`.
fn inner_width(width: usize, prefix: &str) -> usize {
    child_width(width, display_width(prefix))
}

fn pane(
    label: Vec<Span<'static>>,
    detail: Option<Span<'static>>,
    body: Vec<Line<'static>>,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    pane_part(label, detail, body, None, ctx)
}

/// A pane, or the part of it `piece` shows: the rule only in the first piece,
/// the closing blank line only in the last; between two pieces, the blank
/// line markdown puts between two blocks.
fn pane_part(
    label: Vec<Span<'static>>,
    detail: Option<Span<'static>>,
    body: Vec<Line<'static>>,
    piece: Option<&Piece>,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    let mut lines = if piece.is_none_or(Piece::is_first) {
        vec![rule(label, detail, ctx), Line::default()]
    } else {
        indent(vec![Line::default()], BODY_INDENT, ctx.width)
    };
    lines.extend(body);
    if piece.is_none_or(|p| p.last) {
        lines.push(Line::default());
    }
    lines
}

fn user_message(
    event: usize,
    piece: Option<&Piece>,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    let e = &ctx.conv.events[event];
    let EventKind::ChatRequest {
        content, author, ..
    } = &e.kind
    else {
        return Vec::new();
    };
    let name = author
        .as_deref()
        .map_or(Cow::Borrowed("user"), |a| clean(a, ctx))
        .into_owned();
    let mut label = vec![Span::styled(name, ctx.theme.styles.user_label)];
    if ext::steering(e) {
        label.push(Span::styled(
            " · steering (sent mid-turn)",
            ctx.theme.styles.turn_rule,
        ));
    }
    let text = piece.map_or(content.as_str(), |p| &content[p.range.clone()]);
    pane_part(label, None, speech_body(text, ctx), piece, ctx)
}

fn assistant_message(
    events: &[usize],
    final_reply: bool,
    piece: Option<&Piece>,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    let mut label = vec![Span::styled("assistant", ctx.theme.styles.assistant_label)];
    if final_reply {
        label.push(Span::styled(" · final reply", ctx.theme.styles.final_label));
    }
    let parts = message_parts(ctx.conv, events);
    let body = if parts.is_empty() {
        vec![Line::from(vec![
            Span::raw(BODY_INDENT),
            Span::styled(
                "(no message — the assistant chose to stay silent)",
                ctx.theme.styles.turn_rule,
            ),
        ])]
    } else {
        let whole = 0..parts.iter().map(|p| p.len()).sum();
        let range = piece.map_or(whole, |p| p.range.clone());
        speech_body(&slice_of_parts(&parts, range), ctx)
    };
    pane_part(label, None, body, piece, ctx)
}

fn tool_speech(speech: &ToolSpeech, ctx: &LayoutContext<'_>) -> Vec<Line<'static>> {
    // An update says so before the tool's name (issue 3: `assistant · update
    // (send_channel_update)`); any other speaking tool is named alone
    // (`assistant · tell_user`).
    let tool = clean(&speech.tool, ctx);
    let kind = if speech.tool == "send_channel_update" {
        format!(" · update ({tool})")
    } else {
        format!(" · {tool}")
    };
    let label = vec![
        Span::styled("assistant", ctx.theme.styles.assistant_label),
        Span::styled(kind, ctx.theme.styles.update_label),
    ];
    let (outcome, error) = delivery(speech, ctx);
    let mut detail = outcome.to_string();
    if speech.attempts > 1 {
        detail.push_str(&format!(" · attempts: {}", speech.attempts));
    }
    let detail_style = if error.is_some() {
        ctx.theme.styles.error
    } else {
        ctx.theme.styles.turn_rule
    };
    let text = speech_text(ctx.conv, speech).unwrap_or_default();
    let mut body = speech_body(&text, ctx);
    if let Some(error) = error {
        let spans = [Span::styled(
            format!("✗ not delivered: {}", clean(&error, ctx)),
            ctx.theme.styles.error,
        )];
        body.push(Line::default());
        body.extend(indent(
            wrap_spans(&spans, ctx.width.saturating_sub(2).max(1), &[], &[]),
            BODY_INDENT,
            ctx.width,
        ));
    }
    pane(label, Some(Span::styled(detail, detail_style)), body, ctx)
}

/// Delivered, failed (with the error text), pending, or without a reply
/// in a conversation that ended.
fn delivery(speech: &ToolSpeech, ctx: &LayoutContext<'_>) -> (&'static str, Option<String>) {
    match speech.response.map(|r| &ctx.conv.events[r].kind) {
        Some(EventKind::ToolCallResponse {
            content,
            is_error: true,
            ..
        }) => {
            let error = match content {
                Content::Text(text) => text.clone(),
                Content::Blocks(blocks) => blocks
                    .iter()
                    .filter(|b| !b.audience().includes_user() || b.audience().includes_assistant())
                    .filter_map(|b| b.display_text())
                    .collect::<Vec<_>>()
                    .join(" "),
            };
            ("failed", Some(error))
        }
        Some(_) => ("delivered", None),
        None if speech.live => ("pending", None),
        // The conversation ended without the tool's reply.
        None => ("no reply", None),
    }
}

fn reasoning(
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
    let body = markdown_to_lines_wide_code(
        &shown,
        inner,
        inner + ctx.code_slack(),
        ctx.theme,
        ctx.theme.styles.reasoning,
    );
    lines.extend(indent(body, BODY_INDENT, ctx.width));
    lines.push(Line::default());
    lines
}

fn dim_line(line: Line<'static>, style: Style) -> Line<'static> {
    let spans = line
        .spans
        .into_iter()
        .map(|s| {
            let patched = s.style.patch(style);
            Span::styled(s.content, patched)
        })
        .collect::<Vec<_>>();
    Line::from(spans)
}

fn data(event: usize, ctx: &LayoutContext<'_>) -> Vec<Line<'static>> {
    let EventKind::ChatResponse(ChatResponse::Data(data)) = &ctx.conv.events[event].kind else {
        return Vec::new();
    };
    let label = vec![Span::styled(
        "assistant · structured output",
        ctx.theme.styles.assistant_label,
    )];
    let code = clean(&pretty(data), ctx).into_owned();
    let body = code_lines(&code, Some("json"), ctx);
    pane(label, None, body, ctx)
}

/// Highlighted code behind the body indent, cut at the code width.
fn code_lines(code: &str, lang: Option<&str>, ctx: &LayoutContext<'_>) -> Vec<Line<'static>> {
    let limit = inner_width(ctx.width, BODY_INDENT) + ctx.code_slack();
    let lines = highlight(code, lang, ctx.theme)
        .into_iter()
        .map(|l| {
            if line_width(&l) > limit {
                cut_to_width(&l, limit)
            } else {
                l
            }
        })
        .collect();
    indent(lines, BODY_INDENT, ctx.width)
}

fn raw_json_block(title: &str, event: usize, ctx: &LayoutContext<'_>) -> Vec<Line<'static>> {
    let e = &ctx.conv.events[event];
    let mut header = title.to_string();
    if let Some(ts) = &e.timestamp {
        header.push_str(&format!("  {}", display_timestamp(&clean(ts, ctx))));
    }
    let mut lines = wrap_spans(
        &[Span::styled(header, ctx.theme.styles.tool_header)],
        ctx.width,
        &[],
        &[],
    );
    let json = clean(&pretty(&e.to_json()), ctx).into_owned();
    lines.extend(code_lines(&json, Some("json"), ctx));
    lines.push(Line::default());
    lines
}

fn inquiry_lines(
    pair: &InquiryPair,
    prefix: &'static str,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    let conv = ctx.conv;
    let question = match &conv.events[pair.request].kind {
        EventKind::InquiryRequest { question, .. } => question
            .get("text")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        _ => String::new(),
    };
    let first = clean(question.lines().next().unwrap_or(""), ctx).into_owned();
    let answer = match pair.response.map(|r| &conv.events[r]) {
        Some(response) => match &response.kind {
            EventKind::InquiryResponse { answer, .. } => {
                let options = match &conv.events[pair.request].kind {
                    EventKind::InquiryRequest { question, .. } => question
                        .get("answer_type")
                        .and_then(|t| t.get("options"))
                        .and_then(Value::as_array)
                        .map(Vec::as_slice),
                    _ => None,
                };
                clean(
                    &answer_text(answer, ext::outcome(response), options.unwrap_or(&[])),
                    ctx,
                )
                .into_owned()
            }
            _ => String::new(),
        },
        None => "(no answer yet)".to_string(),
    };
    let spans = [
        Span::styled(format!("? {first}"), ctx.theme.styles.tool_header),
        Span::styled(format!(" → {answer}"), ctx.theme.styles.result_text),
    ];
    wrap_spans(
        &spans,
        ctx.width,
        &[Span::raw(prefix)],
        &[Span::raw(prefix), Span::raw("  ")],
    )
}

/// An answer as a person reads it: an approval's outcome as stated, yes or
/// no, a chosen option by its description, or why there is no answer.
fn answer_text(answer: &Value, outcome: Option<&str>, options: &[Value]) -> String {
    match answer {
        Value::Bool(yes) => match outcome {
            Some(o @ ("approved" | "denied" | "accepted" | "declined")) => o.to_string(),
            _ => if *yes { "yes" } else { "no" }.to_string(),
        },
        Value::Null => match outcome {
            Some(o) => format!("({o})"),
            None => "(no answer)".to_string(),
        },
        chosen => {
            let value = match chosen {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let description = options
                .iter()
                .find(|o| o.get("value") == Some(chosen))
                .and_then(|o| o.get("description"))
                .and_then(Value::as_str)
                .filter(|d| *d != value);
            match description {
                Some(d) => format!("{d} ({value})"),
                None => value,
            }
        }
    }
}

fn tool_card(
    card: &ToolCard,
    fold: Fold,
    viewer: bool,
    piece: Option<&Piece>,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    let folded = fold == Fold::Folded;
    let hint = CardHint {
        viewer,
        expanded: fold == Fold::Expanded,
    };
    let conv = ctx.conv;
    let request = &conv.events[card.call.request];
    let EventKind::ToolCallRequest {
        name, arguments, ..
    } = &request.kind
    else {
        return Vec::new();
    };
    let response = card.call.response.map(|r| &conv.events[r].kind);
    let is_error = matches!(
        response,
        Some(EventKind::ToolCallResponse { is_error: true, .. })
    );
    let first = piece.is_none_or(Piece::is_first);
    let show_header = card.style.header || card.label_audience;
    if folded && show_header && !first {
        return Vec::new();
    }
    let name = clean(name, ctx).into_owned();
    let mut lines = Vec::new();
    if first {
        if show_header {
            lines.extend(card_header(
                card, &name, arguments, is_error, folded, hint, ctx,
            ));
        }
        if folded && show_header {
            lines.push(Line::default());
            return lines;
        }
        if show_header || card.label_audience {
            lines.extend(arguments_lines(card, request, arguments, ctx));
        }
        for pair in &card.call.inquiries {
            lines.extend(inquiry_lines(pair, BODY_INDENT, ctx));
        }
    }
    if let Some(piece) = piece {
        let text = shown_result(card, conv).map_or("", |t| &t[piece.range.clone()]);
        // Every piece but the last ends with the newline before the next.
        let text = if piece.last {
            text
        } else {
            text.strip_suffix('\n').unwrap_or(text)
        };
        lines.extend(presented(&Presentation::Plain, text, is_error, ctx));
    } else if let Some(EventKind::ToolCallResponse {
        content, is_error, ..
    }) = response
    {
        let blocks = content.views();
        for &(b, display) in &card.results {
            let display = match display {
                _ if hint.expanded => BlockDisplay::Full,
                BlockDisplay::Hidden => continue,
                display => display,
            };
            let Some(block) = blocks.get(b) else { continue };
            if card.label_audience {
                let label = format!("[audience: {}]", audience_label(block.audience));
                lines.push(Line::from(vec![
                    Span::raw(RESULT_GUTTER),
                    Span::styled(label, ctx.theme.styles.turn_rule),
                ]));
            }
            let text: Cow<'_, str> = match block.text {
                Some(text) => Cow::Borrowed(text),
                None => Cow::Owned(format!("[unsupported block: {}]", block.kind)),
            };
            lines.extend(result_lines(
                &text,
                block.mime_type,
                display,
                *is_error,
                hint.viewer,
                ctx,
            ));
        }
    }
    if !piece.is_none_or(|p| p.last) {
        return lines;
    }
    if let Some(task) = &card.task {
        let result_text = match response {
            Some(EventKind::ToolCallResponse { content, .. }) => content.plain_text(),
            _ => String::new(),
        };
        // The output is shown once: a foreground call's result already is it.
        if let Some(output) = task_detail(task).filter(|o| !result_text.contains(o.trim())) {
            let spans = [Span::styled(
                clean(&output, ctx).into_owned(),
                ctx.theme.styles.result_text,
            )];
            let gutter = [Span::styled(RESULT_GUTTER, ctx.theme.styles.turn_rule)];
            lines.extend(wrap_spans(&spans, ctx.width, &gutter, &gutter));
        }
    }
    lines.push(Line::default());
    lines
}

/// What the viewer adds to a card: that `Enter` shows what the policy cuts
/// or hides, and whether it is showing it.
#[derive(Debug, Clone, Copy)]
struct CardHint {
    /// Laid out for the viewer (`render` has no keys to name).
    viewer: bool,
    /// Every result shown in full.
    expanded: bool,
}

fn card_header(
    card: &ToolCard,
    name: &str,
    arguments: &Value,
    is_error: bool,
    folded: bool,
    hint: CardHint,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    let theme = ctx.theme;
    let (marker, style) = match (card.call.response.is_some(), is_error) {
        (_, true) => ("✗", theme.styles.error),
        (true, false) => ("●", theme.styles.tool_header),
        (false, _) => ("◌", theme.styles.pending),
    };
    // Results the policy hides entirely: the card says how many lines, and
    // in the viewer it is drawn folded, `Enter` showing them.
    let hidden = if hint.expanded || folded {
        0
    } else {
        hidden_result_lines(card, ctx)
    };
    let marker = if folded || (hidden > 0 && hint.viewer) {
        "▸"
    } else {
        marker
    };
    let mut spans = vec![
        Span::styled(format!("{marker} "), style),
        Span::styled(name.to_string(), theme.styles.tool_header),
    ];
    if matches!(card.style.parameters, Parameters::FunctionCall) && !card.label_audience {
        spans.extend(function_call_spans(arguments, ctx));
    }
    let status = if is_error {
        // A call the user (or a policy) refused is not a tool failure.
        let rejected = card
            .call
            .response
            .and_then(|r| ext::outcome(&ctx.conv.events[r]))
            == Some("rejected");
        let word = if rejected { "rejected" } else { "failed" };
        Some((word.to_string(), theme.styles.error))
    } else if card.call.response.is_none() {
        Some((
            if card.live {
                "running…"
            } else {
                "no response"
            }
            .to_string(),
            theme.styles.pending,
        ))
    } else {
        None
    };
    if let Some((text, style)) = status {
        spans.push(Span::styled(format!(" · {text}"), style));
    }
    if let Some(task) = &card.task {
        spans.push(Span::styled(
            format!(" · {}", task_label(task)),
            theme.styles.pending,
        ));
    }
    if let Some(took) = call_duration(card, ctx) {
        spans.push(Span::styled(
            format!(" · {}", duration::human(took)),
            theme.styles.turn_rule,
        ));
    }
    if hidden > 0 {
        let lines = if hidden == 1 { "line" } else { "lines" };
        let enter = if hint.viewer { " (Enter shows)" } else { "" };
        spans.push(Span::styled(
            format!(" · {hidden} {lines} hidden by policy{enter}"),
            theme.styles.turn_rule,
        ));
    }
    if folded {
        let n = card_result_lines(card, ctx);
        let lines = if n == 1 { "line" } else { "lines" };
        spans.push(Span::styled(
            format!(" · {n} {lines} folded"),
            theme.styles.turn_rule,
        ));
    }
    wrap_spans(&spans, ctx.width, &[], &[Span::raw("    ")])
}

/// How long a call took, from its request's stored time to its response's,
/// when both are stored and differ (equal times record no duration).
fn call_duration(card: &ToolCard, ctx: &LayoutContext<'_>) -> Option<u64> {
    let events = &ctx.conv.events;
    let start = events[card.call.request].timestamp.as_deref()?;
    let end = events.get(card.call.response?)?.timestamp.as_deref()?;
    duration::between(start, end).filter(|&ms| ms > 0)
}

/// Lines of the results the policy hides on `card` (none when it shows
/// any result: then the cut notes say what is missing).
fn hidden_result_lines(card: &ToolCard, ctx: &LayoutContext<'_>) -> usize {
    let Some(EventKind::ToolCallResponse { content, .. }) =
        card.call.response.map(|r| &ctx.conv.events[r].kind)
    else {
        return 0;
    };
    let views = content.views();
    card.results
        .iter()
        .filter(|(_, d)| *d == BlockDisplay::Hidden)
        .filter_map(|&(b, _)| views.get(b).and_then(|v| v.text))
        .map(|t| t.lines().count())
        .sum()
}

fn card_result_lines(card: &ToolCard, ctx: &LayoutContext<'_>) -> usize {
    match card.call.response.map(|r| &ctx.conv.events[r].kind) {
        Some(EventKind::ToolCallResponse { content, .. }) => content.plain_text().lines().count(),
        _ => 0,
    }
}

fn function_call_spans(arguments: &Value, ctx: &LayoutContext<'_>) -> Vec<Span<'static>> {
    let Some(map) = arguments.as_object().filter(|m| !m.is_empty()) else {
        return Vec::new();
    };
    let mut spans = vec![Span::styled("(", ctx.theme.styles.turn_rule)];
    for (i, (key, value)) in map.iter().enumerate() {
        if i > 0 {
            spans.push(Span::styled(", ", ctx.theme.styles.turn_rule));
        }
        spans.push(Span::styled(
            format!("{}: ", clean(key, ctx)),
            ctx.theme.styles.tool_arg_key,
        ));
        spans.push(Span::styled(
            clean(&value.to_string(), ctx).into_owned(),
            ctx.theme.styles.result_text,
        ));
    }
    spans.push(Span::styled(")", ctx.theme.styles.turn_rule));
    spans
}

fn arguments_lines(
    card: &ToolCard,
    request: &crate::format::Event,
    arguments: &Value,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    let empty = match arguments {
        Value::Null => true,
        Value::Object(m) => m.is_empty(),
        Value::Array(a) => a.is_empty(),
        _ => false,
    };
    let parameters = if card.label_audience {
        &Parameters::Json
    } else {
        &card.style.parameters
    };
    match parameters {
        _ if empty => Vec::new(),
        Parameters::Json => {
            let json = clean(&pretty(arguments), ctx).into_owned();
            code_lines(&json, Some("json"), ctx)
                .into_iter()
                .map(|l| {
                    let mut spans = vec![Span::raw("  ")];
                    spans.extend(l.spans);
                    let line = Line::from(spans);
                    if line_width(&line) > ctx.code_limit() {
                        cut_to_width(&line, ctx.code_limit())
                    } else {
                        line
                    }
                })
                .collect()
        }
        Parameters::Custom(_) => match request
            .metadata
            .get("rendered_arguments")
            .and_then(Value::as_str)
        {
            Some(rendered) => {
                let limit = inner_width(ctx.width, "    ") + ctx.code_slack();
                let lines = super::ansi::ansi_to_lines(rendered.trim_end(), ctx.sanitize)
                    .into_iter()
                    .map(|l| {
                        if line_width(&l) > limit {
                            cut_to_width(&l, limit)
                        } else {
                            l
                        }
                    })
                    .collect();
                indent(lines, "    ", ctx.width)
            }
            None => Vec::new(),
        },
        Parameters::FunctionCall | Parameters::Off => Vec::new(),
    }
}

/// One result block: sanitized, presented by its mime type, cut to its line
/// budget with a visible note.
fn result_lines(
    text: &str,
    mime: Option<&str>,
    display: BlockDisplay,
    is_error: bool,
    viewer: bool,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    let limit = match display {
        BlockDisplay::Lines(n) => Some(n),
        _ => None,
    };
    // Colour in plain tool output becomes styles (never raw escapes).
    let text = if mime.is_none() && text.contains('\u{1b}') {
        sanitize_keep_sgr(text, ctx.sanitize)
    } else {
        clean(text, ctx)
    };
    let (presentation, normalized) = classify_result(&text, mime);
    let total = normalized.lines().count();
    let shown: Cow<'_, str> = match limit {
        Some(n) if total > n => {
            Cow::Owned(normalized.lines().take(n).collect::<Vec<_>>().join("\n"))
        }
        _ => normalized,
    };
    let mut lines = presented(&presentation, &shown, is_error, ctx);
    if let Some(n) = limit
        && total > n
    {
        let cut = total - n;
        let note = format!(
            "… {cut} more line{} not shown{}",
            if cut == 1 { "" } else { "s" },
            if viewer { " (Enter shows)" } else { "" }
        );
        let gutter = [Span::styled(RESULT_GUTTER, gutter_style(is_error, ctx))];
        lines.extend(wrap_spans(
            &[Span::styled(note, ctx.theme.styles.truncation_note)],
            ctx.width,
            &gutter,
            &gutter,
        ));
    }
    lines
}

/// Result text laid out as `presentation` behind the result gutter, line by
/// line for plain text (so a result can be laid out a piece at a time).
fn presented(
    presentation: &Presentation,
    text: &str,
    is_error: bool,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    let gutter = [Span::styled(RESULT_GUTTER, gutter_style(is_error, ctx))];
    let inner = inner_width(ctx.width, RESULT_GUTTER);
    let code = inner + ctx.code_slack();
    let mut body = present(presentation, text, inner, code, ctx.theme);
    if is_error && matches!(presentation, Presentation::Plain) {
        body = body
            .into_iter()
            .map(|l| dim_line(l, ctx.theme.styles.error))
            .collect();
    }
    prefix_lines(body, &gutter, &gutter, ctx.width, inner)
}

fn gutter_style(is_error: bool, ctx: &LayoutContext<'_>) -> Style {
    if is_error {
        ctx.theme.styles.error
    } else {
        ctx.theme.styles.turn_rule
    }
}

#[cfg(test)]
#[path = "layout_tests.rs"]
mod tests;
