//! Replaying a Gemini chat (spec agent-transcripts-2 §2.3): messages upserted
//! by id, `$rewindTo`, and `$set.messages` checkpoints, shown through
//! events that are only ever appended or marked superseded (see the module
//! above).

use serde_json::Value;

use super::State;
use super::record::Placement;
use crate::format::transcript::{Sink, str_at};
use crate::model::facts;

/// One message of the replayed list.
#[derive(Debug)]
pub(super) struct Message {
    /// Its id.
    pub(super) id: String,
    /// A hash of the record that made its events.
    fingerprint: u64,
    /// The events it made (its `turn_start` apart).
    pub(super) events: Vec<usize>,
    /// The `turn_start` it opened, when it is a prompt.
    turn_start: Option<usize>,
    /// The turn it belongs to (its usage is summed there).
    pub(super) turn: Option<usize>,
}

/// A record's fingerprint: XXH3 of its JSON.
fn fingerprint(value: &Value) -> u64 {
    twox_hash::XxHash3_64::oneshot(&serde_json::to_vec(value).unwrap_or_default())
}

/// Marks the events at `indexes` superseded.
fn supersede(sink: &mut Sink, indexes: impl IntoIterator<Item = usize>) {
    for index in indexes {
        sink.update(index, |event| facts::set_flag(event, facts::SUPERSEDED, true));
    }
}

impl State {
    /// A message record: a new id is appended; a known id written again
    /// with other content replaces the earlier one (its events superseded,
    /// the new ones appended); written again unchanged, nothing.
    pub(super) fn upsert(&mut self, sink: &mut Sink, value: &Value, from_checkpoint: bool) {
        let Some(id) = str_at(value, "id") else {
            return;
        };
        let print = fingerprint(value);
        match self.by_id.get(id).copied() {
            Some(at) if self.order[at].fingerprint == print => {}
            Some(at) => {
                let old = std::mem::take(&mut self.order[at].events);
                supersede(sink, old);
                let turn = self.order[at].turn;
                let placement = Placement::Again { turn };
                let (events, _) = self.render(sink, value, placement);
                let message = &mut self.order[at];
                message.events = events;
                message.fingerprint = print;
                self.after(at);
            }
            None => {
                let placement = if from_checkpoint {
                    Placement::Checkpoint
                } else {
                    Placement::New
                };
                let (events, turn_start) = self.render(sink, value, placement);
                self.by_id.insert(id.to_string(), self.order.len());
                self.order.push(Message {
                    id: id.to_string(),
                    fingerprint: print,
                    events,
                    turn_start,
                    turn: self.turn,
                });
                self.after(self.order.len() - 1);
            }
        }
    }

    /// After the message at `at` was (re)made: whether the turn has settled
    /// (the last message answers with every call done).
    fn after(&mut self, at: usize) {
        if at + 1 == self.order.len() {
            self.settled = self.last_answers;
        }
    }

    /// `$rewindTo`: the message `id` and every one after it are gone (all
    /// of them when `id` is unknown); a notice says how many.
    pub(super) fn rewind(&mut self, sink: &mut Sink, id: &str, time: Option<String>) {
        let from = self.by_id.get(id).copied().unwrap_or(0);
        let removed: Vec<Message> = self.order.drain(from..).collect();
        self.drop_messages(sink, &removed);
        self.reindex();
        if !removed.is_empty() {
            let n = removed.len();
            let s = if n == 1 { "" } else { "s" };
            sink.notice(
                time,
                "info",
                format!("rewound: {n} message{s} removed (the raw view keeps them)"),
            );
        }
        self.turn = self.order.iter().rev().find_map(|m| m.turn);
        self.settled = false;
    }

    /// `$set.messages`: the list is now exactly these messages, in this
    /// order. Known ids keep their events (a checkpoint may rewrite a
    /// message's content into parts; it is not shown twice); new ids are
    /// read; the messages left out are superseded, with a notice.
    pub(super) fn checkpoint(&mut self, sink: &mut Sink, messages: &[Value], time: Option<String>) {
        let ids: std::collections::HashSet<&str> =
            messages.iter().filter_map(|m| str_at(m, "id")).collect();
        let added = ids.iter().filter(|id| !self.by_id.contains_key(**id)).count();
        let left = self.order.iter().filter(|m| !ids.contains(m.id.as_str())).count();
        if left > 0 || added > 0 {
            let s = if left == 1 { "" } else { "s" };
            sink.notice(
                time,
                "info",
                format!(
                    "context compacted: {left} earlier message{s} left the model's context, \
                     {added} added (the raw view keeps them)"
                ),
            );
        }
        let mut kept: Vec<Option<Message>> = self.order.drain(..).map(Some).collect();
        let old: std::collections::HashMap<String, usize> = std::mem::take(&mut self.by_id);
        for message in messages {
            let Some(id) = str_at(message, "id") else {
                continue;
            };
            if self.by_id.contains_key(id) {
                continue;
            }
            match old.get(id).and_then(|&at| kept[at].take()) {
                Some(message) => {
                    self.by_id.insert(id.to_string(), self.order.len());
                    self.order.push(message);
                }
                None => self.upsert(sink, message, true),
            }
        }
        let removed: Vec<Message> = kept.into_iter().flatten().collect();
        self.drop_messages(sink, &removed);
    }

    /// Supersedes the events of `removed` (a prompt's `turn_start` too)
    /// and takes their usage out of their turns.
    fn drop_messages(&mut self, sink: &mut Sink, removed: &[Message]) {
        let mut turns = Vec::new();
        for message in removed {
            supersede(sink, message.events.iter().copied().chain(message.turn_start));
            if let Some(turn) = message.turn
                && let Some(usage) = self.usage.get_mut(&turn)
                && usage.remove(&message.id).is_some()
            {
                turns.push(turn);
            }
        }
        turns.dedup();
        for turn in turns {
            self.store_usage(sink, turn);
        }
    }

    /// Rebuilds the position index after messages were removed.
    fn reindex(&mut self) {
        self.by_id = self
            .order
            .iter()
            .enumerate()
            .map(|(at, m)| (m.id.clone(), at))
            .collect();
    }
}
