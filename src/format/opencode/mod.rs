//! OpenCode sessions → canonical events (spec agent-transcripts-2 §5).
//!
//! OpenCode keeps its sessions in an SQLite database (`opencode.db`, since
//! 1.2) or, before that, in a tree of JSON files (`storage/`). Neither is a
//! byte stream, so the store is read by `source` (`source::opencode`), which
//! turns the rows of one session — and of its sub-agents' sessions — into
//! **row records**, one JSON object per line, and hands them to this reader
//! like any appended stream. A row changed in place (a part streaming, a
//! tool call moving from `running` to `completed`) is sent again; this
//! reader changes the events it made of it in place. The row records are
//! this crate's own, documented in `rows.rs`.
//!
//! Mapping (spec §5.3–§5.8, §7): a turn opens at a `user` message with a
//! text part that is neither `synthetic` nor `ignored`; assistant `text`
//! parts are speech, `reasoning` parts reasoning, a `tool` part is a call
//! and, once its `state` is `completed` or `error`, its result; an
//! assistant message's `tokens` and `cost` add up to the turn's usage. A
//! `task` call's child session (`state.metadata.sessionId`) is its
//! sub-agent: the child's rows are handed over as lines of their own
//! (`SubAgentSource::Lines`), read by a fresh reader of this format.

mod parts;
mod rows;

use std::collections::HashMap;

use serde_json::Value;

use super::reader::SubAgentSource;
use super::transcript::{Records, Sink, TranscriptReader, TurnProgress, str_at};
use crate::model::EventKind;
use crate::model::facts;

pub use rows::ROW_KEY;

/// Reads OpenCode row records incrementally.
pub type OpenCodeReader = TranscriptReader<State>;

/// What the rows said so far: what later rows resolve against.
#[derive(Debug, Default)]
pub struct State {
    /// The session this stream shows: the first session row's id.
    main: Option<String>,
    /// Its title.
    title: Option<String>,
    /// Every other session seen, by id: its parent's id.
    parents: HashMap<String, String>,
    /// The main session's messages by id.
    messages: HashMap<String, Message>,
    /// The events each part made, by part id.
    parts: HashMap<String, parts::Made>,
    /// The prompt's text parts by user message id: (part id, text).
    prompts: HashMap<String, Vec<(String, String)>>,
    /// The turns by the id of the user message that opened them.
    turns: HashMap<String, Turn>,
    /// The latest turn's user message id.
    current: Option<String>,
    /// The direct child sessions linked to the call that started them.
    child_calls: HashMap<String, String>,
    /// A child session's rows while no call names it yet.
    unlinked: HashMap<String, Vec<u8>>,
    /// Whether the latest turn has settled.
    progress: TurnProgress,
}

/// What a message row said.
#[derive(Debug, Default)]
struct Message {
    /// `user` or `assistant` (else unknown).
    role: Role,
    /// Whether its `error` was shown.
    error_shown: bool,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Role {
    User,
    Assistant,
    #[default]
    Other,
}

/// A turn: its `turn_start` and the usage of its assistant messages.
#[derive(Debug, Default)]
struct Turn {
    start: usize,
    /// The prompt's `chat_request`, once a text part gave it.
    request: Option<usize>,
    /// Usage by assistant message id.
    usage: HashMap<String, Usage>,
    model: Option<String>,
    ended: Option<facts::TurnEnd>,
    error: Option<facts::ErrorInfo>,
}

/// One assistant message's usage (spec §5.8).
#[derive(Debug, Default, Clone, Copy)]
struct Usage {
    input: u64,
    output: u64,
    cache_read: u64,
    cache_write: u64,
    cost: f64,
}

impl Records for State {
    fn record(&mut self, sink: &mut Sink, value: &mut Value) {
        let before = sink.events.len();
        self.row(sink, value);
        self.progress.observe(&sink.events[before..]);
    }

    fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    fn settled(&self) -> bool {
        self.progress.settled()
    }

    fn end_settled_turn(&mut self, sink: &mut Sink) {
        if self.progress.ended {
            return;
        }
        self.progress.ended = true;
        if let Some(id) = self.current.clone() {
            self.update_turn(sink, &id, |turn| {
                turn.ended.get_or_insert(facts::TurnEnd::Completed);
            });
        }
    }
}

impl State {
    fn row(&mut self, sink: &mut Sink, value: &Value) {
        let table = str_at(value, ROW_KEY).unwrap_or("");
        if table == "session" {
            return self.session(sink, value);
        }
        let session = str_at(value, "session_id");
        if let (Some(main), Some(session)) = (self.main.as_deref(), session)
            && main != session
        {
            let session = session.to_string();
            return self.forward(sink, &session, value);
        }
        let Some(mut data) = rows::data(sink, value) else {
            return;
        };
        match table {
            "message" => self.message(sink, value, &data),
            "part" => self.part(sink, value, &mut data),
            _ => sink.opaque(rows::time(value, &data), value),
        }
    }

    fn session(&mut self, sink: &mut Sink, value: &Value) {
        let session = rows::Session::read(sink, value);
        let Some(id) = session.id.clone() else {
            sink.opaque(None, value);
            return;
        };
        match self.main.as_deref() {
            None => {
                self.main = Some(id);
                self.title = session.title.clone();
                if let Some(parent) = &session.parent_title {
                    sink.notice(None, "info", format!("sub-agent of {parent}"));
                }
            }
            Some(main) if main == id => {
                if session.title.is_some() {
                    self.title = session.title.clone();
                }
            }
            Some(_) => {
                if let Some(parent) = session.parent {
                    self.parents.insert(id.clone(), parent);
                }
                self.forward(sink, &id, value);
            }
        }
    }

    /// Hands a row of another session to the sub-agent it belongs to: the
    /// direct child of the main session it descends from.
    fn forward(&mut self, sink: &mut Sink, session: &str, value: &Value) {
        let Some(child) = self.direct_child(session) else {
            // A session this stream has no link to: kept for the raw view.
            sink.opaque(None, value);
            return;
        };
        let mut line = serde_json::to_vec(value).unwrap_or_default();
        line.push(b'\n');
        match self.child_calls.get(&child) {
            Some(call) => sink.link(call, SubAgentSource::Lines(line)),
            None => self.unlinked.entry(child).or_default().extend(line),
        }
    }

    /// The direct child of the main session that `session` is or descends from.
    fn direct_child(&self, session: &str) -> Option<String> {
        let main = self.main.as_deref()?;
        let mut at = session;
        for _ in 0..64 {
            let parent = self.parents.get(at)?;
            if parent == main {
                return Some(at.to_string());
            }
            at = parent;
        }
        None
    }

    /// Links the child session `child` to the `task` call `call`, handing
    /// over its rows read so far.
    fn link_child(&mut self, sink: &mut Sink, child: &str, call: &str) {
        if self.child_calls.contains_key(child) {
            return;
        }
        self.child_calls.insert(child.to_string(), call.to_string());
        if let Some(lines) = self.unlinked.remove(child) {
            sink.link(call, SubAgentSource::Lines(lines));
        }
    }

    fn message(&mut self, sink: &mut Sink, value: &Value, data: &Value) {
        let Some(id) = str_at(value, "id").map(str::to_string) else {
            sink.opaque(None, value);
            return;
        };
        let role = match str_at(data, "role") {
            Some("user") => Role::User,
            Some("assistant") => Role::Assistant,
            _ => Role::Other,
        };
        let time = rows::time(value, data);
        let message = self.messages.entry(id.clone()).or_default();
        message.role = role;
        match role {
            Role::User => {}
            Role::Assistant => {
                let turn = str_at(data, "parentID")
                    .filter(|parent| self.turns.contains_key(*parent))
                    .map(str::to_string)
                    .or_else(|| self.current.clone());
                let error = data.get("error").filter(|e| !e.is_null());
                if let Some(error) = error
                    && !message.error_shown
                {
                    message.error_shown = true;
                    let (level, text) = rows::error_text(error);
                    sink.notice(time, level, text);
                }
                if let Some(turn) = turn {
                    self.assistant_usage(sink, &turn, &id, data);
                }
            }
            Role::Other => {
                // An unknown shape (the typed `storage/` files): kept as stored.
                sink.opaque(time, value);
            }
        }
    }

    /// Takes an assistant message's usage, model and outcome into its turn.
    fn assistant_usage(&mut self, sink: &mut Sink, turn: &str, message: &str, data: &Value) {
        let tokens = data.get("tokens");
        let count = |path: &[&str]| {
            tokens
                .and_then(|t| path.iter().try_fold(t, |v, key| v.get(key)))
                .and_then(Value::as_u64)
                .unwrap_or(0)
        };
        let usage = Usage {
            input: count(&["input"]),
            output: count(&["output"]) + count(&["reasoning"]),
            cache_read: count(&["cache", "read"]),
            cache_write: count(&["cache", "write"]),
            cost: data.get("cost").and_then(Value::as_f64).unwrap_or(0.0),
        };
        let model = str_at(data, "modelID").map(str::to_string);
        let finish = str_at(data, "finish");
        let completed = data.get("time").and_then(|t| t.get("completed")).is_some();
        let error = data.get("error").filter(|e| !e.is_null());
        let ended = match (error, finish) {
            (Some(error), _) if str_at(error, "name") == Some("MessageAbortedError") => {
                Some(facts::TurnEnd::Cancelled)
            }
            (Some(_), _) => Some(facts::TurnEnd::Failed),
            (None, Some(finish)) if finish != "tool-calls" && completed => {
                Some(facts::TurnEnd::Completed)
            }
            _ => None,
        };
        let error_info = error.map(|error| facts::ErrorInfo {
            code: str_at(error, "name").unwrap_or("").to_string(),
            message: rows::error_text(error).1,
        });
        if ended.is_some() && self.current.as_deref() == Some(turn) {
            self.progress.ended = true;
        }
        self.update_turn(sink, turn, |t| {
            t.usage.insert(message.to_string(), usage);
            if model.is_some() {
                t.model = model;
            }
            if ended.is_some() {
                t.ended = ended;
                t.error = error_info;
            }
        });
    }

    /// Changes a turn's facts and writes them on its `turn_start`.
    fn update_turn(&mut self, sink: &mut Sink, id: &str, change: impl FnOnce(&mut Turn)) {
        let Some(turn) = self.turns.get_mut(id) else {
            return;
        };
        change(turn);
        let sum = turn.usage.values().fold(Usage::default(), |a, u| Usage {
            input: a.input + u.input,
            output: a.output + u.output,
            cache_read: a.cache_read + u.cache_read,
            cache_write: a.cache_write + u.cache_write,
            cost: a.cost + u.cost,
        });
        let (model, ended, error) = (turn.model.clone(), turn.ended, turn.error.clone());
        let any = !turn.usage.is_empty();
        sink.update(turn.start, |event| {
            let mut info = facts::turn_info(event).unwrap_or_default();
            if any {
                info.input_tokens = Some(sum.input);
                info.output_tokens = Some(sum.output);
                info.cache_read_tokens = Some(sum.cache_read);
                info.cache_write_tokens = Some(sum.cache_write);
                info.cost = Some(sum.cost);
            }
            info.model = model;
            info.ended = ended;
            info.error = error;
            facts::set_value(event, facts::TURN, &info)
        });
    }

    /// Opens the turn of the user message `message` with its prompt.
    fn open_turn(&mut self, sink: &mut Sink, message: &str, time: Option<String>, text: &str) {
        let start = sink.push_kind(time.clone(), EventKind::TurnStart);
        let request = sink.push_kind(
            time,
            EventKind::ChatRequest {
                content: text.to_string(),
                author: None,
                schema: None,
            },
        );
        self.turns.insert(
            message.to_string(),
            Turn {
                start,
                request: Some(request),
                ..Turn::default()
            },
        );
        self.current = Some(message.to_string());
        self.update_turn(sink, message, |_| {});
    }
}

#[cfg(test)]
mod tests;
