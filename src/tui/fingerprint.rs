//! Fingerprints of what a block shows, for the layout cache: a block is
//! laid out again only when its fingerprint changed (the viewer's revisions,
//! `tui/live.rs`).

use std::fmt::{self, Write as _};

use std::hash::Hasher as _;

use twox_hash::XxHash3_64;

use crate::model::Conversation;
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
                    let _ = write!(hasher, "\u{0}{event:?}");
                }
            }
        }
        _ => {}
    }
    for e in events_of(&block.kind) {
        if let Some(event) = conv.events.get(e) {
            let _ = write!(hasher, "\u{0}{event:?}");
        }
    }
    hasher.0.finish()
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

impl fmt::Write for HashWriter {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.write(s.as_bytes());
        Ok(())
    }
}
