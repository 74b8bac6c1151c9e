//! What the document reads from the conversation to decide its blocks and
//! their pieces, and what the layers below it read back from a block: a
//! message's parts, a card's shown result, a speech block's text.

use std::borrow::Cow;

use serde_json::Value;

use super::{BlockKind, DocBlock, ToolCard, ToolSpeech};
use crate::model::{Audience, ChatResponse, Content, Event, EventKind, facts};
use crate::model::{Conversation, Item, Turn};
use crate::policy::BlockDisplay;
use crate::render::result::{Presentation, classify_result};
use crate::text::sanitize::is_clean;

/// Whether the format records that `turn` ended (eve's `turn.completed`,
/// `turn.failed`, `turn.cancelled`).
pub(super) fn turn_ended(conv: &Conversation, turn: &Turn) -> bool {
    turn.items.iter().any(|item| {
        matches!(item, Item::TurnStart(i)
            if facts::turn_info(&conv.events[*i]).is_some_and(|t| t.ended.is_some()))
    })
}

/// Whether the format says `turn` was aborted (Codex `turn_aborted`, a
/// Claude Code interruption): its unanswered calls never will be.
pub(super) fn turn_cancelled(conv: &Conversation, turn: &Turn) -> bool {
    turn.items.iter().any(|item| {
        matches!(item, Item::TurnStart(i)
            if facts::turn_info(&conv.events[*i]).is_some_and(|t| t.ended == Some(facts::TurnEnd::Cancelled)))
    })
}

/// How many turns of `conv` have ended: every turn but the last, and the last
/// too when the format says it ended or `finished` (no one writes any more).
#[cfg(feature = "cli")]
pub fn ended_turns(conv: &Conversation, finished: bool) -> usize {
    let n = conv.turns.len();
    match conv.turns.last() {
        Some(last) if finished || turn_ended(conv, last) => n,
        _ => n.saturating_sub(1),
    }
}

/// The text a block may be cut in, and how.
pub(super) enum SplitText<'c> {
    /// Markdown speech, cut between top-level blocks.
    Markdown(Cow<'c, str>),
    /// A plain result, cut between lines.
    Lines(&'c str),
}

/// The text of `block` that pieces would cut, when it is longer than
/// `above` bytes: a message's, or the result of a card that shows one plain,
/// clean result in full.
pub(super) fn split_text<'c>(
    block: &DocBlock,
    conv: &'c Conversation,
    above: usize,
) -> Option<SplitText<'c>> {
    match &block.kind {
        BlockKind::UserMessage { event } => match &conv.events[*event].kind {
            EventKind::ChatRequest { content, .. } if content.len() > above => {
                Some(SplitText::Markdown(Cow::Borrowed(content)))
            }
            _ => None,
        },
        BlockKind::AssistantMessage { events, .. } => {
            let parts = message_parts(conv, events);
            if parts.iter().map(|p| p.len()).sum::<usize>() <= above {
                return None;
            }
            let text = match parts.as_slice() {
                [one] => Cow::Borrowed(*one),
                many => Cow::Owned(many.concat()),
            };
            Some(SplitText::Markdown(text))
        }
        BlockKind::ToolCard(card) => {
            let text = shown_result(card, conv).filter(|t| t.len() > above)?;
            // Cleaned or classified as a whole, the pieces could differ.
            let plain = is_clean(text) && classify_result(text, None).0 == Presentation::Plain;
            plain.then_some(SplitText::Lines(text))
        }
        _ => None,
    }
}

/// The text of a card's only result when it is shown in full, unlabelled
/// and without a mime type: the one result pieces of a card can cut.
pub fn shown_result<'c>(card: &ToolCard, conv: &'c Conversation) -> Option<&'c str> {
    let mut shown = card
        .results
        .iter()
        .filter(|(_, d)| !matches!(d, BlockDisplay::Hidden));
    let (Some((b, BlockDisplay::Full)), None) = (shown.next(), shown.next()) else {
        return None;
    };
    if card.label_audience {
        return None;
    }
    match &conv.events[card.call.response?].kind {
        EventKind::ToolCallResponse { content, .. } => {
            let view = content.views().into_iter().nth(*b)?;
            view.mime_type.is_none().then_some(view.text?)
        }
        _ => None,
    }
}

/// The texts of an assistant message's events, in order (empty: silent).
pub fn message_parts<'c>(conv: &'c Conversation, events: &[usize]) -> Vec<&'c str> {
    events
        .iter()
        .filter_map(|&e| match &conv.events[e].kind {
            EventKind::ChatResponse(ChatResponse::Message(Some(part))) => Some(part.as_str()),
            _ => None,
        })
        .collect()
}

/// The first event of the turn's final reply: the format's own marker when it
/// has one (eve), else the last assistant speech with no tool call after it.
pub(super) fn final_reply_item(conv: &Conversation, items: &[Item]) -> Option<usize> {
    let speeches = items.iter().filter_map(|item| match item {
        Item::Speech(events) => Some(events),
        _ => None,
    });
    // A format that marks final replies (eve) is taken at its word.
    let marks_final = items.iter().any(
        |item| matches!(item, Item::TurnStart(i) if facts::turn_info(&conv.events[*i]).is_some()),
    );
    if marks_final {
        return speeches
            .clone()
            .find(|&events| events.clone().any(|i| facts::final_reply(&conv.events[i])))
            .map(|events| events.start);
    }
    let last_call = items.iter().rposition(|i| matches!(i, Item::ToolCall(_)));
    let last_speech = items.iter().rposition(
        |i| matches!(i, Item::Speech(events) if events.clone().any(|e| has_text(&conv.events[e]))),
    )?;
    match last_call {
        Some(call) if call > last_speech => None,
        _ => match &items[last_speech] {
            Item::Speech(events) => Some(events.start),
            _ => None,
        },
    }
}

/// The eve turn id a stored line names: a gen A event's `data.turnId`, or
/// the first one among a v27 line's facts (or its progress record), in
/// `scope` or `data`.
fn has_text(event: &Event) -> bool {
    matches!(&event.kind, EventKind::ChatResponse(ChatResponse::Message(Some(t))) if !t.trim().is_empty())
}

/// Whether the format says this turn is over (eve's `turn.completed` etc.) or
/// a later turn exists.
pub(super) fn turn_has_ended(conv: &Conversation, turn: &Turn) -> bool {
    turn.number < conv.turn_count()
        || turn
            .items
            .iter()
            .find_map(|item| match item {
                Item::TurnStart(i) => facts::turn_info(&conv.events[*i]),
                _ => None,
            })
            .is_some_and(|info| info.ended.is_some())
}

/// The text of a source's notice (an interruption, an API error, a
/// compaction: an unknown event of type [`facts::NOTICE`]), shown as a one-line notice.
pub(super) fn notice_text(event: &Event) -> Option<(&str, bool)> {
    match &event.kind {
        EventKind::Unknown(value) if event.type_name() == facts::NOTICE => {
            let text = value.get("text").and_then(serde_json::Value::as_str)?;
            let note = value.get("level").and_then(serde_json::Value::as_str) == Some(facts::NOTE);
            Some((text, note))
        }
        _ => None,
    }
}

pub(super) fn response_id(event: &Event) -> &str {
    match &event.kind {
        EventKind::ToolCallResponse { id, .. } => id,
        _ => "",
    }
}

/// The audience label used in the raw view.
pub fn audience_label(audience: Audience) -> &'static str {
    match audience {
        Audience::User => "user",
        Audience::Assistant => "assistant",
        Audience::Both => "user, assistant",
    }
}

/// The text of a tool-speech block, from its response or (pending) the arguments.
pub fn speech_text<'c>(conv: &'c Conversation, speech: &ToolSpeech) -> Option<Cow<'c, str>> {
    match speech.response.map(|r| &conv.events[r].kind) {
        Some(EventKind::ToolCallResponse { content, .. }) => match content {
            Content::Text(text) => Some(Cow::Borrowed(text.as_str())),
            Content::Blocks(blocks) => blocks
                .get(speech.block)
                .and_then(|b| b.display_text())
                .map(Cow::Borrowed),
        },
        _ => match &conv.events[speech.request].kind {
            EventKind::ToolCallRequest { arguments, .. } => arguments
                .get("message")
                .and_then(Value::as_str)
                .map(Cow::Borrowed),
            _ => None,
        },
    }
}
