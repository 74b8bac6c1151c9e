//! Laying out one document block into styled lines at a width.
//!
//! This is where conversation text is sanitized (display-policy §5) before it
//! is parsed or measured, and where the markdown bridge, the highlighter and
//! the result presenter are applied. Every line returned fits the width.
//!
//! This file dispatches on the block kind; the kinds are laid out in
//! `message` (messages, speech, data, questions), `card` (tool cards),
//! `reasoning` and `rules` (turn rules and labels), on the line-building
//! they share in `lines`.

#[cfg(feature = "cli")]
use std::borrow::Cow;

use ratatui::text::{Line, Span};
#[cfg(feature = "cli")]
use serde_json::Value;

#[cfg(feature = "cli")]
use super::document::{Piece, message_parts, shown_result, speech_text};
use super::document::{BlockKind, DocBlock};
use super::duration;
use super::lazy_highlight::Highlighting;
#[cfg(feature = "cli")]
use super::result::classify_result;
#[cfg(feature = "cli")]
use super::split::slice_of_parts;
use super::theme::Theme;
use crate::model::Conversation;
#[cfg(feature = "cli")]
use crate::model::{ChatResponse, EventKind};
#[cfg(feature = "cli")]
use crate::policy::BlockDisplay;
use crate::text::sanitize::SanitizeMode;
use crate::text::wrap::wrap_spans;

mod call_view;
mod card;
mod lines;
mod message;
mod reasoning;
mod rules;
mod stream_blocks;
mod subagent;

use self::card::tool_card;
use self::lines::{clean, fit, indent, inner_width, json_text_lines, pane, raw_json_block};
use self::message::{assistant_message, data, inquiry_lines, tool_speech, user_message};
use self::reasoning::reasoning;
pub use self::rules::display_timestamp;
use self::rules::turn_rule;

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
    /// Whether code is highlighted whole or only as far as the viewer shows it.
    pub highlighting: Highlighting<'a>,
    /// Whether plain result text is wrapped at the width: a terminal needs
    /// it; the HTML export lays each result line out whole, behind its
    /// gutter ([`result_gutter_spans`]), and lets the browser wrap it, so that a
    /// line copied from the page comes back whole.
    pub wrap_results: bool,
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

/// How many of `line`'s first spans are gutters when it is a line of a
/// result — behind a result's gutter (`  │ `), itself behind as many
/// sub-agents' (`  ┆ `) as it is nested in — and 0 for any other line: a
/// result's line is laid out whole when [`LayoutContext::wrap_results`] is
/// off, and the HTML export hangs it from its gutters, which a copy of
/// the line leaves out.
#[cfg(feature = "cli")]
pub fn result_gutter_spans(line: &Line<'_>) -> usize {
    // The gutter, or the gutter without its closing space (a blank line's).
    let is = |span: &Span<'_>, gutter: &str| {
        let text = span.content.as_ref();
        text == gutter || gutter.strip_suffix(' ') == Some(text)
    };
    let nested = line
        .spans
        .iter()
        .take_while(|span| is(span, subagent::GUTTER))
        .count();
    match line.spans.get(nested) {
        Some(span) if is(span, RESULT_GUTTER) => nested + 1,
        _ => 0,
    }
}

/// Lays out `block`; `folded` collapses foldable blocks to one line. The last
/// line is always blank, separating blocks. A [`Piece`] of a block lays out
/// its part of the block's lines (the last line blank only in the last
/// piece; nothing but in the first piece when the block is folded): the
/// pieces one after another are the whole block's lines.
pub fn layout(block: &DocBlock, folded: bool, ctx: &LayoutContext<'_>) -> Vec<Line<'static>> {
    let fold = if folded { Fold::Folded } else { Fold::Policy };
    layout_with(block, fold, Reader::Print, ctx)
}

/// Who a block is laid out for, as far as a tool card is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reader {
    /// `render`, the exports: the card whole, with no keys to name.
    Print,
    /// The viewer: what the policy cuts or hides says that `Enter` shows it.
    Viewer,
    /// The HTML export's folded card: its body, without the header the
    /// page's summary stands for.
    CardBody,
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
    /// What the policy shows, with nothing cut to a terminal's line budget:
    /// results the policy cuts to lines and diffs are whole, up to
    /// [`WHOLE_RESULT_LINES`] lines or [`WHOLE_RESULT_BYTES`] bytes each,
    /// past which a note says exactly what was left out (the exports).
    Whole,
}

/// The most lines of one result (or of one diff) that [`Fold::Whole`] lays
/// out: a page holds a 2,000-line build log, not a million-line dump.
pub const WHOLE_RESULT_LINES: usize = crate::model::call_view::DIFF_KEPT_LINES;

/// The most bytes of one result that [`Fold::Whole`] lays out.
pub const WHOLE_RESULT_BYTES: usize = 1 << 20;

/// [`layout`] with any [`Fold`], for a reader of the whole document rather
/// than a terminal (the exports lay blocks out with [`Fold::Whole`]).
#[cfg(feature = "cli")]
pub fn layout_as(block: &DocBlock, fold: Fold, ctx: &LayoutContext<'_>) -> Vec<Line<'static>> {
    layout_with(block, fold, Reader::Print, ctx)
}

/// [`layout_as`] without a tool card's header (any other block whole): the
/// HTML export folds a card under a summary of its own, which says what the
/// header says, and so never lays the header out only to drop it.
#[cfg(feature = "cli")]
pub fn layout_headless(
    block: &DocBlock,
    fold: Fold,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    layout_with(block, fold, Reader::CardBody, ctx)
}

/// [`layout`] for the viewer: `fold` may be [`Fold::Expanded`], and what the
/// policy cuts or hides says that `Enter` shows it.
#[cfg(feature = "cli")]
pub fn layout_in_viewer(
    block: &DocBlock,
    fold: Fold,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    layout_with(block, fold, Reader::Viewer, ctx)
}

/// What the viewer shows in place of a block whose text it could not read
/// again from the file (a turn emptied to keep a large conversation's memory
/// down, then the file changed in place or cut short): the problem, not
/// the block's emptied events, which would pass for empty speech.
#[cfg(feature = "cli")]
pub fn unreadable(problem: &str, ctx: &LayoutContext<'_>) -> Vec<Line<'static>> {
    let text = format!("⚠ not readable again: {}", clean(problem, ctx));
    let mut lines = wrap_spans(
        &[Span::styled(text, ctx.theme.styles.warning)],
        ctx.width,
        &[],
        &[Span::raw(BODY_INDENT)],
    );
    lines.push(Line::default());
    lines
}

/// Whether the policy shows only part of `block`'s results (cuts them to
/// lines or hides them) and the card has a header to say so: the viewer
/// then treats the policy's form as the card's folded form, and unfolding
/// shows everything. Cards cut into pieces are not (`o` shows them whole).
#[cfg(feature = "cli")]
pub fn is_limited(block: &DocBlock, conv: &Conversation) -> bool {
    let BlockKind::ToolCard(card) = &block.kind else {
        return false;
    };
    if block.piece.is_some() || !(card.style.header || card.label_audience) {
        return false;
    }
    // A sub-agent's card is one line until unfolded.
    if card
        .subagent
        .as_ref()
        .is_some_and(|sub| conv.subagents.contains_key(&sub.call))
    {
        return true;
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
                lines::line_count(&classify_result(text, mime).1) > n
            }
            _ => false,
        }
    })
}

/// How many of the first lines of `block`, laid out open, are its head: a
/// tool card's header (which may wrap), or the one line of any other
/// foldable block; 0 for a card shown without one.
#[cfg(feature = "cli")]
pub fn head_height(block: &DocBlock, ctx: &LayoutContext<'_>) -> usize {
    match &block.kind {
        BlockKind::ToolCard(card) => card::head_height(card, ctx),
        _ => 1,
    }
}

/// The name of the sub-agent `card`'s call started, for the status bar:
/// `agent "Research plan mode"`.
#[cfg(feature = "cli")]
pub fn subagent_name(card: &super::document::ToolCard, conv: &Conversation) -> String {
    subagent::name(card, conv)
}

/// Lays out `block` as `fold` says, for `reader`.
fn layout_with(
    block: &DocBlock,
    fold: Fold,
    reader: Reader,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    let folded = fold == Fold::Folded;
    let piece = block.piece.as_deref();
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
        BlockKind::ToolCard(card) => {
            let viewer = reader == Reader::Viewer;
            let header = reader != Reader::CardBody;
            tool_card(card, fold, viewer, header, piece, ctx)
        }
        BlockKind::Data { event } => data(*event, ctx),
        BlockKind::Inquiry(pair) => {
            let mut lines = inquiry_lines(pair, "", ctx);
            lines.push(Line::default());
            lines
        }
        BlockKind::Notice { text, note: true } => {
            let style = ctx.theme.styles.note;
            let spans = [Span::styled(clean(text, ctx), style)];
            let mark = [Span::styled("· ", style)];
            let mut lines = wrap_spans(&spans, ctx.width, &mark, &[Span::raw("  ")]);
            lines.push(Line::default());
            lines
        }
        BlockKind::Notice { text, .. } => {
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
        BlockKind::InProgress { kind, live } => stream_blocks::in_progress(*kind, *live, ctx),
        BlockKind::Original { index } => stream_blocks::original(*index, ctx),
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
#[cfg(feature = "cli")]
pub fn is_foldable(block: &DocBlock) -> bool {
    matches!(
        block.kind,
        BlockKind::ToolCard(_) | BlockKind::Reasoning { .. }
    )
}

/// Every piece of text of the block, folded parts included, for search. A
/// [`Piece`] has the text it shows (the first piece of a card also its name
/// and arguments).
#[cfg(feature = "cli")]
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
        BlockKind::Notice { text, .. } => add(text),
        BlockKind::ConfigDelta { event } | BlockKind::Unknown { event } => {
            add(&conv.events[*event].to_json().to_string())
        }
        BlockKind::InProgress { .. } | BlockKind::Original { .. } => {
            add(&stream_blocks::text(&block.kind, conv).unwrap_or_default())
        }
    }
    out
}

/// The complete result of a tool card (for the pager and copying), or the
/// block's own text for speech.
#[cfg(feature = "cli")]
pub fn full_text<'c>(block: &DocBlock, conv: &'c Conversation) -> Option<Cow<'c, str>> {
    match &block.kind {
        BlockKind::ToolCard(card) => {
            let response = card.call.response?;
            match &conv.events[response].kind {
                EventKind::ToolCallResponse { content, .. } => Some(content.plain_text()),
                _ => None,
            }
        }
        BlockKind::ToolSpeech(speech) => speech_text(conv, speech),
        BlockKind::UserMessage { event } => Some(event_text(conv, *event)),
        BlockKind::AssistantMessage { events, .. } | BlockKind::Reasoning { events, .. } => {
            match events.as_slice() {
                [event] => Some(event_text(conv, *event)),
                events => Some(Cow::Owned(events.iter().map(|&e| event_text(conv, e)).collect())),
            }
        }
        BlockKind::InProgress { .. } | BlockKind::Original { .. } => {
            stream_blocks::text(&block.kind, conv).map(Cow::Owned)
        }
        _ => None,
    }
}

/// The text a piece of a speech block shows.
#[cfg(feature = "cli")]
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

#[cfg(feature = "cli")]
fn event_text(conv: &Conversation, event: usize) -> Cow<'_, str> {
    match &conv.events[event].kind {
        EventKind::ChatRequest { content, .. } => Cow::Borrowed(content),
        EventKind::ChatResponse(ChatResponse::Message(text)) => {
            Cow::Borrowed(text.as_deref().unwrap_or_default())
        }
        EventKind::ChatResponse(ChatResponse::Reasoning(text)) => Cow::Borrowed(text),
        EventKind::ChatResponse(ChatResponse::Data(data)) => Cow::Owned(lines::pretty(data)),
        EventKind::InquiryRequest { question, .. } => {
            Cow::Borrowed(question.get("text").and_then(Value::as_str).unwrap_or_default())
        }
        other => Cow::Owned(format!("{other:?}")),
    }
}

#[cfg(test)]
mod tests;
