//! Qwen Code chats (`~/.qwen/projects/<folder slug>/chats/<id>.jsonl`) →
//! canonical events, as spec agent-transcripts-2 §4 says.
//!
//! uuid-chained records with Gemini's parts (`format::gemini_parts`): a
//! `user` record without `subtype` opens a turn, an `assistant` record's
//! parts are reasoning (`thought: true`), speech and calls, a `tool_result`
//! record answers its call. Telemetry (`system`/`ui_telemetry`) is never
//! speech of its own: an `api_response`'s `response_text` is shown only
//! when no `assistant` record carries that text (it is written first, and
//! superseded when the record follows), and a `qwen-code.tool_call` only
//! when no record shows that call (both marked "from telemetry"); its token
//! counts are the turn's usage. Glued lines (`…}{…`) are split (§1.2).
//! Sub-agent (`isSidechain`) records never open turns of the parent: they
//! are handed to the latest agent call's card.

mod system;

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::gemini_parts::{Part, parts, response_text, result_display, speech};
use super::reader::SubAgentSource;
use super::transcript::{
    CallIds, Records, Sink, TranscriptReader, TurnProgress, str_at, timestamp,
};
use crate::model::{ChatResponse, Content, EventKind, facts};

/// Reads a Qwen Code chat incrementally.
pub type QwenReader = TranscriptReader<State>;

/// Tool names that start a sub-agent (§8).
const AGENT_TOOLS: [&str; 2] = ["agent", "task"];

/// The prefix of what only telemetry recorded.
pub const FROM_TELEMETRY: &str = "[from telemetry]";

/// What a Qwen chat's records said so far.
#[derive(Debug, Default)]
pub struct State {
    /// Whether the file is a sub-agent's own (its first record is a sidechain).
    sidechain_file: Option<bool>,
    seen: HashSet<String>,
    calls: CallIds,
    /// Call ids seen in any record, so telemetry shows only the others.
    known_calls: HashSet<String>,
    /// The current turn's `turn_start`.
    turn: Option<usize>,
    progress: TurnProgress,
    /// Usage of the current turn from telemetry (input, output, cached) and
    /// from `usageMetadata` (the fallback when telemetry is off).
    telemetry_usage: Option<[u64; 3]>,
    record_usage: Option<[u64; 3]>,
    model: Option<String>,
    title: Option<String>,
    /// The speech made from telemetry's `response_text` not yet matched by
    /// an `assistant` record: its event and text.
    telemetry_speech: Option<(usize, String)>,
    /// The latest sub-agent call, for the sidechain records that follow.
    agent_call: Option<String>,
    /// Sidechain agents already linked, by `agentId`: their call.
    agents: HashMap<String, String>,
}

impl Records for State {
    const GLUED: bool = true;

    fn record(&mut self, sink: &mut Sink, value: &mut Value) {
        let before = sink.events.len();
        self.read(sink, value);
        self.progress.observe(&sink.events[before..]);
    }

    fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    fn settled(&self) -> bool {
        self.progress.settled()
    }

    fn end_settled_turn(&mut self, sink: &mut Sink) {
        let Some(turn) = self.turn.filter(|_| !self.progress.ended) else {
            return;
        };
        self.progress.ended = true;
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
    fn read(&mut self, sink: &mut Sink, value: &Value) {
        if let Some(uuid) = str_at(value, "uuid")
            && !self.seen.insert(uuid.to_string())
        {
            return; // written twice
        }
        let sidechain = value.get("isSidechain").and_then(Value::as_bool) == Some(true);
        let own = *self.sidechain_file.get_or_insert(sidechain);
        let time = timestamp(value);
        if sidechain && !own {
            self.sidechain(sink, value);
            sink.opaque(time, value);
            return;
        }
        let message = value.get("message").unwrap_or(&Value::Null);
        let content = parts(message.get("parts").unwrap_or(&Value::Null));
        match (str_at(value, "type").unwrap_or(""), str_at(value, "subtype")) {
            ("user", None) => self.user(sink, value, &content, time),
            ("assistant", _) => self.assistant(sink, value, &content, time),
            ("tool_result", _) => self.tool_result(sink, value, &content, time),
            ("system", Some(subtype)) => self.system(sink, value, subtype, time),
            _ => sink.opaque(time, value),
        }
    }

    /// A prompt opens a turn; a `user` record with no text is kept for the raw view.
    fn user(&mut self, sink: &mut Sink, value: &Value, content: &[Part<'_>], time: Option<String>) {
        let display = value
            .get("systemPayload")
            .and_then(|p| str_at(p, "displayText"));
        let text = display.map_or_else(|| speech(content), str::to_string);
        if text.trim().is_empty() {
            sink.opaque(time, value);
            return;
        }
        self.turn = Some(sink.push_kind(time.clone(), EventKind::TurnStart));
        self.telemetry_usage = None;
        self.record_usage = None;
        self.telemetry_speech = None;
        sink.push_kind(
            time,
            EventKind::ChatRequest {
                content: text,
                author: None,
                schema: None,
            },
        );
    }

    fn assistant(
        &mut self,
        sink: &mut Sink,
        value: &Value,
        content: &[Part<'_>],
        time: Option<String>,
    ) {
        for part in content {
            match part {
                Part::Text {
                    text,
                    thought: true,
                } if !text.trim().is_empty() => {
                    sink.push_kind(
                        time.clone(),
                        EventKind::ChatResponse(ChatResponse::Reasoning((*text).to_string())),
                    );
                }
                Part::HiddenThought => {
                    sink.push_kind(
                        time.clone(),
                        EventKind::ChatResponse(ChatResponse::Reasoning(
                            super::claude_code::REASONING_HIDDEN.to_string(),
                        )),
                    );
                }
                _ => {}
            }
        }
        let said = speech(content);
        if !said.trim().is_empty() {
            // The telemetry copy written just before is this text: the
            // record's is the one shown.
            if let Some((at, text)) = self.telemetry_speech.take() {
                if text.trim() == said.trim() {
                    sink.update(at, |event| facts::set_flag(event, facts::SUPERSEDED, true));
                } else {
                    self.telemetry_speech = Some((at, text));
                }
            }
            sink.push_kind(
                time.clone(),
                EventKind::ChatResponse(ChatResponse::Message(Some(said))),
            );
        }
        for part in content {
            if let Part::Call { id, name, args } = part {
                let id = id.unwrap_or("").to_string();
                if self.known_calls.contains(&id) {
                    continue;
                }
                self.call(sink, time.clone(), id, name, (*args).clone());
            }
        }
        if let Some(model) = str_at(value, "model") {
            self.model = Some(model.to_string());
        }
        if let Some(usage) = value.get("usageMetadata") {
            let count = |key: &str| usage.get(key).and_then(Value::as_u64).unwrap_or(0);
            let add = [
                count("promptTokenCount"),
                count("candidatesTokenCount"),
                count("cachedContentTokenCount"),
            ];
            let sum = self.record_usage.get_or_insert([0; 3]);
            sum.iter_mut().zip(add).for_each(|(s, a)| *s += a);
            self.store_usage(sink);
        }
    }

    /// A tool call: its request (and, for an agent tool, the sidechain
    /// records that follow belong to it).
    fn call(&mut self, sink: &mut Sink, time: Option<String>, id: String, name: &str, args: Value) {
        self.known_calls.insert(id.clone());
        self.calls.request(&id, sink.events.len());
        if AGENT_TOOLS.contains(&name) {
            self.agent_call = Some(id.clone());
        }
        sink.push_call(time, id, name.to_string(), args);
    }

    /// A `tool_result` record: the result of its call (§4.4); a call no
    /// record asked for is made from the result.
    fn tool_result(
        &mut self,
        sink: &mut Sink,
        value: &Value,
        content: &[Part<'_>],
        time: Option<String>,
    ) {
        let result = value.get("toolCallResult").unwrap_or(&Value::Null);
        let response = content.iter().find_map(|part| match part {
            Part::Response { id, name, response } => Some((*id, *name, *response)),
            _ => None,
        });
        let Some(id) = str_at(result, "callId").or(response.and_then(|r| r.0)) else {
            sink.opaque(time, value);
            return;
        };
        let id = id.to_string();
        if !self.known_calls.contains(&id) {
            let name = response.map_or("tool", |r| r.1);
            self.call(sink, time.clone(), id.clone(), name, Value::Null);
        }
        let (output, response_error) = response.map_or((String::new(), false), |r| response_text(r.2));
        let status_error = str_at(result, "status") == Some("error");
        let display = result.get("resultDisplay").and_then(result_display);
        let text = match (response_error, display) {
            (true, _) if !output.trim().is_empty() && output != "{}" => output,
            (_, Some(display)) => display,
            _ => output,
        };
        self.calls.answer(&id);
        sink.push_kind(
            time,
            EventKind::ToolCallResponse {
                id,
                content: Content::Text(text),
                is_error: status_error || response_error,
            },
        );
    }

    /// A sidechain record of an inline sub-agent: its lines go to the card
    /// of the agent call it belongs to (§4.6).
    fn sidechain(&mut self, sink: &mut Sink, value: &Value) {
        let agent = str_at(value, "agentId").unwrap_or("").to_string();
        let call = match self.agents.get(&agent) {
            Some(call) => Some(call.clone()),
            None => self.agent_call.take().inspect(|call| {
                self.agents.insert(agent.clone(), call.clone());
            }),
        };
        if let Some(call) = call {
            let mut line = serde_json::to_vec(value).unwrap_or_default();
            line.push(b'\n');
            sink.link(&call, SubAgentSource::Lines(line));
        }
    }

    /// Stores the current turn's usage: telemetry's when there is any, else
    /// the records' (§4.8).
    fn store_usage(&mut self, sink: &mut Sink) {
        let (Some(turn), Some(sum)) = (self.turn, self.telemetry_usage.or(self.record_usage))
        else {
            return;
        };
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

#[cfg(test)]
mod tests;
