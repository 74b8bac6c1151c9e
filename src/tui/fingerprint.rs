//! Fingerprints of what a block shows, for the layout cache: a block is
//! laid out again only when its fingerprint changed (the viewer's revisions,
//! `tui/live.rs`).

use std::fmt::{self, Write as _};

use std::hash::Hasher as _;

use twox_hash::XxHash3_64;

use crate::model::{ChatResponse, Content, Conversation, Event, EventKind};
use crate::render::document::{BlockKind, DocBlock};

/// A hash of what a block shows: its description and the events it draws
/// from. Equal fingerprints lay out equally.
pub(super) fn of_block(block: &DocBlock, conv: &Conversation) -> u64 {
    let mut hasher = HashWriter(XxHash3_64::new());
    let _ = write!(hasher, "{:?}\u{0}{:?}", block.kind, block.piece);
    // Blocks that draw from the stream rather than from events.
    match &block.kind {
        BlockKind::InProgress { .. } => {
            let _ = write!(hasher, "\u{0}{:?}", conv.in_progress);
        }
        BlockKind::Original { index } => {
            let _ = write!(hasher, "\u{0}{:?}", conv.originals.get(*index));
        }
        // A sub-agent's card draws from the sub-agent's events too.
        BlockKind::ToolCard(card) => {
            if let Some(sub) = card.subagent.as_ref()
                && let Some(sub) = conv.subagents.get(&sub.call)
            {
                for event in &sub.events {
                    hash_event(&mut hasher, event);
                }
            }
        }
        _ => {}
    }
    for e in events_of(&block.kind) {
        if let Some(event) = conv.events.get(e) {
            hash_event(&mut hasher, event);
        }
    }
    hasher.0.finish()
}

/// Writes what `event` shows into `hasher`: its texts and a call's
/// arguments as they are (a reply of 300 KB formatted with `{:?}` had every
/// character escaped one by one: 7% of a search's first count of a large
/// conversation), the rest as `{:?}` writes it. The event and the variants
/// taken apart are named field by field, so a field added to one does not
/// compile until it is hashed here.
fn hash_event(hasher: &mut HashWriter, event: &Event) {
    let Event {
        timestamp,
        kind,
        metadata,
        event_id,
        facts,
    } = event;
    let _ = write!(
        hasher,
        "\u{0}{timestamp:?}\u{0}{metadata:?}\u{0}{event_id:?}\u{0}{facts:?}\u{0}"
    );
    match kind {
        EventKind::ChatRequest {
            content,
            author,
            schema,
        } => {
            hasher.text("request", content);
            let _ = write!(hasher, "{author:?}\u{0}{schema:?}");
        }
        EventKind::ChatResponse(ChatResponse::Message(Some(text))) => hasher.text("message", text),
        EventKind::ChatResponse(ChatResponse::Reasoning(text)) => hasher.text("reasoning", text),
        EventKind::ToolCallRequest {
            id,
            name,
            arguments,
        } => {
            hasher.text("call", id);
            hasher.text("name", name);
            let _ = serde_json::to_writer(&mut *hasher, &**arguments);
        }
        EventKind::ToolCallResponse {
            id,
            content: Content::Text(text),
            is_error,
        } => {
            hasher.text("result", id);
            hasher.text(if *is_error { "error" } else { "text" }, text);
        }
        other => {
            let _ = write!(hasher, "{other:?}");
        }
    }
}

/// A fingerprint of `content` (a fingerprint) with `more` shown beside it:
/// a running turn's clock, a piece of a block.
pub(super) fn with(content: u64, more: &str) -> u64 {
    let mut hasher = HashWriter(XxHash3_64::new());
    let _ = write!(hasher, "{content}\u{0}{more}");
    hasher.0.finish()
}

/// Whether a block's layout reads events (a turn's rule and a notice hold
/// what they show).
pub(super) fn reads_events(kind: &BlockKind) -> bool {
    !events_of(kind).is_empty()
}

/// The events a block's layout reads.
fn events_of(kind: &BlockKind) -> Vec<usize> {
    match kind {
        BlockKind::TurnRule { .. }
        | BlockKind::Notice { .. }
        | BlockKind::InProgress { .. }
        | BlockKind::Original { .. } => Vec::new(),
        BlockKind::UserMessage { event }
        | BlockKind::Data { event }
        | BlockKind::ConfigDelta { event }
        | BlockKind::Unknown { event } => vec![*event],
        BlockKind::AssistantMessage { events, .. } | BlockKind::Reasoning { events, .. } => {
            events.clone()
        }
        BlockKind::ToolSpeech(speech) => [Some(speech.request), speech.response]
            .into_iter()
            .flatten()
            .collect(),
        BlockKind::ToolCard(card) => {
            let mut events: Vec<usize> = [Some(card.call.request), card.call.response]
                .into_iter()
                .flatten()
                .collect();
            for pair in &card.call.inquiries {
                events.push(pair.request);
                events.extend(pair.response);
            }
            events
        }
        BlockKind::Inquiry(pair) => [Some(pair.request), pair.response]
            .into_iter()
            .flatten()
            .collect(),
    }
}

/// Feeds formatted text to a hash without building the string.
struct HashWriter(XxHash3_64);

impl HashWriter {
    /// A text as it is, after what it is and how long (no two texts
    /// run together alike).
    fn text(&mut self, what: &str, text: &str) {
        self.0.write(what.as_bytes());
        self.0.write(&(text.len() as u64).to_le_bytes());
        self.0.write(text.as_bytes());
    }
}

impl fmt::Write for HashWriter {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.write(s.as_bytes());
        Ok(())
    }
}

impl std::io::Write for HashWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.write(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;

    use super::*;

    fn of(event: &Event) -> u64 {
        let mut hasher = HashWriter(XxHash3_64::new());
        hash_event(&mut hasher, event);
        hasher.0.finish()
    }

    fn reply(text: &str) -> Event {
        Event::new(None, EventKind::ChatResponse(ChatResponse::Message(Some(text.into()))))
    }

    fn call(id: &str, name: &str, arguments: serde_json::Value) -> Event {
        Event::new(
            None,
            EventKind::ToolCallRequest {
                id: id.into(),
                name: name.into(),
                arguments: Arc::new(arguments),
            },
        )
    }

    fn result(text: &str, is_error: bool) -> Event {
        Event::new(
            None,
            EventKind::ToolCallResponse {
                id: "t1".into(),
                content: Content::Text(text.into()),
                is_error,
            },
        )
    }

    #[test]
    fn what_an_event_shows_changes_its_fingerprint_and_nothing_else_does() {
        assert_eq!(of(&reply("the parser")), of(&reply("the parser")));
        let mut stamped = reply("the parser");
        stamped.timestamp = Some("2026-05-01 10:00:00.1".into());
        let events = [
            reply("the parser"),
            reply("the parsers"),
            stamped,
            Event::new(None, EventKind::ChatResponse(ChatResponse::Reasoning("the parser".into()))),
            call("t1", "fs_read", json!({"path": "a"})),
            call("t1", "fs_read", json!({"path": "b"})),
            call("t1", "fs_rea", json!({"path": "a"})),
            call("t", "1fs_read", json!({"path": "a"})),
            call("t2", "fs_read", json!({"path": "a"})),
            result("ok", false),
            result("ok", true),
            result("ok!", false),
        ];
        let prints: Vec<u64> = events.iter().map(of).collect();
        for (i, a) in prints.iter().enumerate() {
            for (j, b) in prints.iter().enumerate().skip(i + 1) {
                assert_ne!(a, b, "{:?} and {:?}", events[i], events[j]);
            }
        }
    }
}
