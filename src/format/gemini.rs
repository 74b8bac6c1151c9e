//! Gemini CLI chats (`~/.gemini/tmp/<project>/chats/session-*.jsonl`, and
//! the older whole-JSON `session-*.json`) → canonical events, as spec
//! agent-transcripts-2 §2 says.
//!
//! A Gemini file is a **replay**, not a log: a line may replace an earlier
//! message (same `id`), `$rewindTo` deletes a message and all after it, and
//! `$set.messages` replaces the whole list (a checkpoint). The format seam
//! lets a reader change earlier events in place but never remove them, so
//! the replay is shown this way (docs/agents.md, "Gemini CLI"):
//!
//! * each message's events are kept with its id and a fingerprint of the
//!   record that made them ([`replay`]); a record written again unchanged
//!   changes nothing;
//! * a message written again with more in it (its tokens, its tool calls
//!   and their results) marks its earlier events superseded
//!   (`overhear.superseded`: hidden in the terminal, user and provider views,
//!   kept in the raw view) and appends the new ones;
//! * a rewind or a checkpoint marks the events of the messages it removes
//!   superseded — a rewound prompt's `turn_start` too, so the turn goes —
//!   and leaves a notice where it happened ("rewound: 3 messages",
//!   "context compacted: …").
//!
//! What a user would count (turns, calls, errors, replies) is therefore
//! what the replayed file holds, each once.

mod legacy;
mod record;
mod replay;

use std::collections::HashMap;

use serde_json::Value;

use super::transcript::{Records, Sink, str_at};
use crate::model::facts;

pub use legacy::GeminiReader;

/// The `gemini` record state of a tool call that has its result.
const DONE: [&str; 3] = ["success", "error", "cancelled"];

/// What a Gemini chat's lines said so far: the replayed message list (ids,
/// fingerprints and the events each made), the current turn and its usage.
#[derive(Debug, Default)]
pub struct State {
    /// The metadata line's `sessionId` (later `$set`s may change it).
    session: Option<String>,
    /// `summary` from the metadata or a `$set`: the title.
    summary: Option<String>,
    /// The messages after replay, in order.
    order: Vec<replay::Message>,
    /// Position in `order` by message id.
    by_id: HashMap<String, usize>,
    /// The current turn's `turn_start`.
    turn: Option<usize>,
    /// Usage by turn (`turn_start` index), then by message id: input,
    /// output (thoughts included), cached input.
    usage: HashMap<usize, HashMap<String, [u64; 3]>>,
    /// The latest `model` a `gemini` record named.
    model: Option<String>,
    /// Tool call ids of `gemini` records: a `functionResponse` of none of
    /// them is an orphan result.
    calls: std::collections::HashSet<String>,
    /// Whether the last message answers the user with every call done.
    settled: bool,
    /// Whether the latest `gemini` record read answers the user (speech,
    /// every call done).
    last_answers: bool,
    /// Whether the current turn was marked ended.
    ended: bool,
}

impl Records for State {
    fn record(&mut self, sink: &mut Sink, value: &mut Value) {
        if value.get("sessionId").is_some() && value.get("projectHash").is_some() {
            self.metadata(value);
            // A legacy whole file: its messages, replayed in order.
            if let Some(Value::Array(messages)) = value.get("messages") {
                for message in messages {
                    self.upsert(sink, message, false);
                }
            }
            return;
        }
        if let Some(id) = str_at(value, "$rewindTo") {
            self.rewind(sink, id, super::transcript::timestamp(value));
            return;
        }
        if let Some(set) = value.get("$set").filter(|s| s.is_object()) {
            self.metadata(set);
            if let Some(Value::Array(messages)) = set.get("messages") {
                self.checkpoint(sink, messages, super::transcript::timestamp(value));
            }
            sink.opaque(None, value);
            return;
        }
        if str_at(value, "id").is_some() {
            self.upsert(sink, value, false);
            return;
        }
        sink.opaque(None, value);
    }

    fn title(&self) -> Option<&str> {
        self.summary.as_deref()
    }

    fn settled(&self) -> bool {
        self.settled || self.ended
    }

    fn end_settled_turn(&mut self, sink: &mut Sink) {
        let Some(turn) = self.turn.filter(|_| !self.ended) else {
            return;
        };
        self.ended = true;
        sink.update(turn, |event| {
            let mut info = facts::turn_info(event).unwrap_or_default();
            if info.ended.is_some() {
                return false;
            }
            info.ended = Some(facts::TurnEnd::Completed);
            facts::set_value(event, facts::TURN, &info)
        });
    }
}

impl State {
    /// Merges a metadata line or a `$set` into what is known of the session.
    fn metadata(&mut self, value: &Value) {
        if let Some(session) = str_at(value, "sessionId") {
            self.session = Some(session.to_string());
        }
        if let Some(summary) = str_at(value, "summary").filter(|s| !s.trim().is_empty()) {
            self.summary = Some(summary.to_string());
        }
    }

    /// Sums the usage of `turn`'s messages into its `turn_start`.
    fn store_usage(&mut self, sink: &mut Sink, turn: usize) {
        let sum = self.usage.get(&turn).map_or([0; 3], |by_message| {
            by_message.values().fold([0; 3], |mut sum, counts| {
                sum.iter_mut().zip(counts).for_each(|(s, c)| *s += c);
                sum
            })
        });
        let model = self.model.clone();
        sink.update(turn, |event| {
            let mut info = facts::turn_info(event).unwrap_or_default();
            info.input_tokens = Some(sum[0]);
            info.output_tokens = Some(sum[1]);
            info.cache_read_tokens = Some(sum[2]);
            info.model = model;
            facts::set_value(event, facts::TURN, &info)
        });
    }
}

/// Whether the input starting with `held` is a legacy whole-JSON chat: its
/// first line is `{` alone and its first bytes name `sessionId` and
/// `projectHash`. `None` while more bytes must tell (`end`: none will come).
pub fn legacy_head(held: &[u8], end: bool) -> Option<bool> {
    /// How far into a legacy file its two keys are looked for.
    const LOOK: usize = 64 * 1024;
    let start = held.iter().position(|b| !b.is_ascii_whitespace());
    let line_end = start.and_then(|s| held[s..].iter().position(|&b| b == b'\n'));
    let (Some(start), Some(length)) = (start, line_end) else {
        return if end { Some(false) } else { None };
    };
    if held[start..start + length].trim_ascii() != b"{" {
        return Some(false);
    }
    let head = &held[..held.len().min(LOOK)];
    let names = |key: &[u8]| memchr::memmem::find(head, key).is_some();
    if names(b"\"sessionId\"") && names(b"\"projectHash\"") {
        Some(true)
    } else if end || held.len() >= LOOK {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests;
