//! GitHub Copilot CLI event logs (`session-state/<id>/events.jsonl`) →
//! canonical events.
//!
//! [`CopilotReader`] is fed a log's bytes as they arrive and maps each typed
//! event as spec agent-transcripts-2 §3 says: a main-agent `user.message`
//! opens a turn with the text as typed (`content`; the `transformedContent`
//! the model got and every `system.message` are never shown), an
//! `assistant.message` becomes reasoning, speech and tool calls (in that
//! order, each `messageId` once), `tool.execution_complete` answers its call
//! by `toolCallId` (`success: false` is an error). Aborts, errors, warnings,
//! compaction, truncation, rewinds, clears, model changes, resumes and the
//! usage of `session.shutdown` become notices; everything else (deltas,
//! hooks, permissions, telemetry, events of unknown types) is kept as an
//! opaque event for the raw view. Events of a sub-agent (envelope `agentId`)
//! never start the parent's turns: they are handed, as lines, to the
//! `task` call that started the agent ([`subagents`]). docs/agents.md,
//! "GitHub Copilot CLI", lists every decision.

pub mod head;
mod notices;
mod subagents;
pub mod tools;

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::transcript::{Records, Sink, TranscriptReader, TurnProgress, str_at, timestamp};
use crate::model::{call_view, facts};
use crate::model::{ChatResponse, Content, EventKind};

/// The placeholder for reasoning stored only encrypted.
pub const REASONING_HIDDEN: &str = "[reasoning hidden]";

/// Reads a Copilot CLI event log incrementally.
pub type CopilotReader = TranscriptReader<State>;

/// What a Copilot CLI log's events said so far: what later events resolve against.
#[derive(Debug, Default)]
pub struct State {
    /// Whose conversation this is, from the first event: `None` the main
    /// agent's (a whole log), `Some(id)` a sub-agent's (its lines, handed
    /// over by the parent's reader).
    own: Option<Option<String>>,
    /// The current turn's `turn_start`.
    turn: Option<usize>,
    /// The model of the latest step.
    model: Option<String>,
    /// The folder the session runs in: paths under it are shown relative.
    cwd: Option<String>,
    /// Output tokens of the current turn's messages (the only per-turn usage
    /// a log holds, spec §3.9).
    output_tokens: u64,
    /// Every call id announced so far (a request, or a start no request
    /// announced), with its tool's name: a call is made once per id (spec §9).
    calls: HashMap<String, String>,
    /// `assistant.message` ids already read: speech once per `messageId`.
    messages: HashSet<String>,
    /// Reasoning texts of the current turn (`reasoningText` and
    /// `assistant.reasoning` may say the same).
    reasoning: HashSet<String>,
    /// Prompts by event id, for a rewind's notice to name.
    prompts: Vec<(String, String)>,
    title: Option<String>,
    /// The sub-agents' bookkeeping: which agent id is which call's.
    agents: subagents::Agents,
    /// The session ended (`session.shutdown`) and was not resumed since.
    shut_down: bool,
    /// Whether the current turn has settled.
    progress: TurnProgress,
}

impl Records for State {
    fn record(&mut self, sink: &mut Sink, value: &mut Value) {
        let before = sink.events.len();
        self.event(sink, value);
        self.progress.observe(&sink.events[before..]);
    }

    fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    fn settled(&self) -> bool {
        self.shut_down || self.progress.settled()
    }

    fn end_settled_turn(&mut self, sink: &mut Sink) {
        self.end_turn(sink, facts::TurnEnd::Completed, None);
    }
}

impl State {
    fn event(&mut self, sink: &mut Sink, value: &mut Value) {
        let agent = str_at(value, "agentId").map(str::to_string);
        let own = self.own.get_or_insert_with(|| agent.clone()).clone();
        let time = timestamp(value);
        if value.get("ephemeral").and_then(Value::as_bool) == Some(true) {
            // Not meant to be on disk (spec §3.2): kept for the raw view only.
            sink.opaque(time, value);
            return;
        }
        let data = value.get("data").unwrap_or(&Value::Null);
        let kind = str_at(value, "type").unwrap_or("");
        if let Some(owner) = self.agents.owner(kind, data, agent.as_deref(), own.as_deref()) {
            // Another agent's event: its sub-agent's conversation, not this one.
            self.agents.hand_over(sink, value, kind, data, &owner, &self.calls);
            sink.opaque(time, value);
            return;
        }
        match kind {
            "user.message" => self.user(sink, value, data, time),
            "assistant.message" => self.assistant(sink, value, time),
            "assistant.reasoning" => {
                let text = str_at(data, "content").unwrap_or("");
                self.reason(sink, time, text);
            }
            "assistant.turn_start" => {
                if let Some(model) = str_at(data, "model") {
                    self.model = Some(model.to_string());
                    self.update_turn(sink, |_| {});
                }
                sink.opaque(time, value);
            }
            "session.start" | "session.resume" => {
                if let Some(model) = str_at(data, "selectedModel") {
                    self.model = Some(model.to_string());
                }
                if let Some(cwd) = data.get("context").and_then(|c| str_at(c, "cwd")) {
                    self.cwd = Some(cwd.to_string());
                }
                if kind == "session.resume" {
                    self.shut_down = false;
                    sink.notice(time, "info", "session resumed".into());
                } else {
                    sink.opaque(time, value);
                }
            }
            "tool.execution_start" => {
                let id = str_at(data, "toolCallId").unwrap_or("");
                if self.calls.contains_key(id) {
                    sink.opaque(time, value); // announced by its request
                } else {
                    let (id, name) = (id.to_string(), str_at(data, "toolName").unwrap_or("tool"));
                    let name = name.to_string();
                    // Moved out, not copied: the record is dropped after.
                    let arguments = value
                        .pointer_mut("/data/arguments")
                        .map_or(Value::Null, Value::take);
                    self.call(sink, time, &id, &name, arguments);
                }
            }
            "tool.execution_complete" => self.result(sink, data, time),
            "session.title_changed" => {
                self.title = str_at(data, "title").map(str::to_string);
                sink.opaque(time, value);
            }
            "session.model_change" => {
                let model = str_at(data, "newModel").unwrap_or("?");
                self.model = Some(model.to_string());
                sink.notice(time, "info", format!("model: {model}"));
            }
            "abort" => {
                let reason = str_at(data, "reason").unwrap_or("user_initiated");
                sink.notice(time, "warning", format!("interrupted ({reason})"));
                self.end_turn(sink, facts::TurnEnd::Cancelled, None);
            }
            "session.error" => {
                let text = notices::error(data);
                sink.notice(time, "error", text.clone());
                self.end_turn(sink, facts::TurnEnd::Failed, Some(text));
            }
            "session.shutdown" => {
                for text in notices::usage(data) {
                    sink.notice(time.clone(), facts::NOTE, text);
                }
                self.end_turn(sink, facts::TurnEnd::Completed, None);
                self.shut_down = true;
            }
            "session.snapshot_rewind" => {
                let upto = str_at(data, "upToEventId").unwrap_or("");
                let prompt = self
                    .prompts
                    .iter()
                    .find(|(id, _)| id == upto)
                    .map(|(_, text)| text.as_str());
                sink.notice(time, "warning", notices::rewind(data, prompt));
            }
            "subagent.started" => {
                if let Some(call) = str_at(data, "toolCallId") {
                    self.agents.started(call);
                }
                sink.opaque(time, value);
            }
            _ => match notices::notice(kind, data) {
                Some((level, text)) => sink.notice(time, level, text),
                None => {
                    sink.opaque(time, value);
                }
            },
        }
    }

    /// A `user.message` of this agent: a typed prompt opens a turn; a
    /// message typed while the agent works (`delivery: steering`) joins the
    /// running turn; an injected one (`source`, autopilot) opens a turn with
    /// a compact "auto" note instead of a prompt (spec §3.3, §9).
    fn user(&mut self, sink: &mut Sink, value: &Value, data: &Value, time: Option<String>) {
        let content = str_at(data, "content").unwrap_or("");
        let source = str_at(data, "source").filter(|s| !s.is_empty());
        let autopilot = data.get("isAutopilotContinuation").and_then(Value::as_bool) == Some(true);
        if source.is_some() || autopilot {
            self.open_turn(sink, time.clone());
            let from = source.unwrap_or("autopilot");
            let first = content.lines().map(str::trim).find(|l| !l.is_empty());
            let text = match first {
                Some(line) => format!("auto ({from}): {}", notices::cut(line, 120)),
                None => format!("auto ({from})"),
            };
            sink.notice(time, "info", text);
            return;
        }
        let steering = str_at(data, "delivery") == Some("steering")
            && self.turn.is_some()
            && !self.progress.settled();
        if !steering {
            self.open_turn(sink, time.clone());
        }
        let mut text = content.to_string();
        for chip in data
            .get("attachments")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(notices::attachment)
        {
            text.push_str("\n\n");
            text.push_str(&chip);
        }
        if let Some(id) = str_at(value, "id") {
            self.prompts.push((id.to_string(), content.to_string()));
        }
        let index = sink.push_kind(
            time,
            EventKind::ChatRequest {
                content: text,
                author: None,
                schema: None,
            },
        );
        if steering {
            sink.update(index, |event| facts::set_flag(event, facts::STEERING, true));
        }
    }

    /// An `assistant.message`, once per `messageId`: its reasoning, its
    /// speech, then its tool calls (spec §3.4).
    fn assistant(&mut self, sink: &mut Sink, value: &mut Value, time: Option<String>) {
        let data = value.get("data").unwrap_or(&Value::Null);
        if let Some(id) = str_at(data, "messageId")
            && !self.messages.insert(id.to_string())
        {
            sink.opaque(time, value); // the same message written again
            return;
        }
        if let Some(model) = str_at(data, "model") {
            self.model = Some(model.to_string());
        }
        match str_at(data, "reasoningText").filter(|t| !t.trim().is_empty()) {
            Some(text) => self.reason(sink, time.clone(), text),
            None if ["reasoningOpaque", "encryptedContent"]
                .iter()
                .any(|k| str_at(data, k).is_some_and(|t| !t.is_empty())) =>
            {
                self.reason(sink, time.clone(), REASONING_HIDDEN);
            }
            None => {}
        }
        let speech = str_at(data, "content").unwrap_or("").trim();
        if !speech.is_empty() {
            sink.push_kind(
                time.clone(),
                EventKind::ChatResponse(ChatResponse::Message(Some(speech.to_string()))),
            );
        }
        if let Some(tokens) = data.get("outputTokens").and_then(Value::as_u64) {
            self.output_tokens += tokens;
        }
        // Each request's arguments are moved out, not copied: the record is
        // dropped after.
        for request in value
            .pointer_mut("/data/toolRequests")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            let id = str_at(request, "toolCallId").unwrap_or("").to_string();
            if self.calls.contains_key(&id) {
                continue;
            }
            let name = str_at(request, "name").unwrap_or("tool").to_string();
            let arguments = request.get_mut("arguments").map_or(Value::Null, Value::take);
            self.call(sink, time.clone(), &id, &name, arguments);
        }
        self.update_turn(sink, |_| {});
    }

    /// Reasoning, once per text in a turn.
    fn reason(&mut self, sink: &mut Sink, time: Option<String>, text: &str) {
        if text.trim().is_empty() || !self.reasoning.insert(text.to_string()) {
            return;
        }
        sink.push_kind(
            time,
            EventKind::ChatResponse(ChatResponse::Reasoning(text.to_string())),
        );
    }

    /// A tool call, made once per id; the well-known tools get their view
    /// and subject ([`tools::facts`]).
    fn call(&mut self, sink: &mut Sink, time: Option<String>, id: &str, name: &str, args: Value) {
        self.calls.insert(id.to_string(), name.to_string());
        let (view, subject) = tools::facts(name, &args, self.cwd.as_deref());
        let index = sink.push_call(time, id.to_string(), name.to_string(), args);
        sink.update(index, |event| {
            let mut changed = false;
            if let Some(view) = &view {
                changed |= call_view::set(event, view);
            }
            if let Some(subject) = &subject {
                changed |= facts::set_subject(event, subject);
            }
            changed
        });
    }

    /// `tool.execution_complete`: the call's result, an error iff
    /// `success == false` (spec §3.5). An edit's card already shows its
    /// diff, so its result is what the model saw, not the diff again.
    fn result(&mut self, sink: &mut Sink, data: &Value, time: Option<String>) {
        let id = str_at(data, "toolCallId").unwrap_or("").to_string();
        let diffed = self
            .calls
            .get(&id)
            .is_some_and(|name| tools::shows_diff(name));
        let failed = data.get("success").and_then(Value::as_bool) == Some(false);
        let text = if failed {
            let error = data.get("error").unwrap_or(&Value::Null);
            match error {
                Value::String(text) => text.clone(),
                _ => str_at(error, "message").unwrap_or("failed").to_string(),
            }
        } else {
            notices::result_text(data.get("result").unwrap_or(&Value::Null), diffed)
        };
        sink.push_kind(
            time,
            EventKind::ToolCallResponse {
                id,
                content: Content::Text(text),
                is_error: failed,
            },
        );
    }

    /// Opens a turn: its `turn_start` carries the turn's model and tokens.
    fn open_turn(&mut self, sink: &mut Sink, time: Option<String>) {
        self.turn = Some(sink.push_kind(time, EventKind::TurnStart));
        self.output_tokens = 0;
        self.reasoning.clear();
        self.update_turn(sink, |_| {});
    }

    /// Changes the current turn's facts (model and output tokens are always set).
    fn update_turn(&mut self, sink: &mut Sink, change: impl FnOnce(&mut facts::TurnInfo)) {
        let Some(turn) = self.turn else { return };
        let model = self.model.clone();
        let output = self.output_tokens;
        sink.update(turn, |event| {
            let mut info = facts::turn_info(event).unwrap_or_default();
            info.model = model;
            if output > 0 {
                info.output_tokens = Some(output);
            }
            change(&mut info);
            facts::set_value(event, facts::TURN, &info)
        });
    }

    /// Marks the current turn ended `how` (with `error`), unless it was already.
    fn end_turn(&mut self, sink: &mut Sink, how: facts::TurnEnd, error: Option<String>) {
        if self.turn.is_none() || self.progress.ended {
            return;
        }
        self.progress.ended = true;
        self.update_turn(sink, |info| {
            info.ended.get_or_insert(how);
            if let Some(message) = error {
                info.error = Some(facts::ErrorInfo {
                    code: String::new(),
                    message,
                });
            }
        });
    }
}

#[cfg(test)]
mod tests;
