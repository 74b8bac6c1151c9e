//! One Gemini message record → events (spec agent-transcripts-2 §2.4–§2.6,
//! §2.8, §2.10): what a `user` record is, a `gemini` record's reasoning,
//! speech, tool calls with their results and token counts, and the notices.

use serde_json::Value;

use super::{DONE, State};
use crate::format::claude_code::REASONING_HIDDEN;
use crate::format::gemini_parts::{Part, parts, response_text, result_display, speech};
use crate::format::reader::SubAgentSource;
use crate::format::transcript::{Sink, str_at, timestamp};
use crate::model::{ChatResponse, Content, EventKind};

/// Where a record is being read.
#[derive(Debug, Clone, Copy)]
pub(super) enum Placement {
    /// A message first seen on its own line: a prompt opens a turn.
    New,
    /// A message written again: it stays in the turn it was read in.
    Again {
        /// That turn.
        turn: Option<usize>,
    },
    /// A message a checkpoint brought in (a compression summary): context,
    /// never a turn of its own.
    Checkpoint,
}

/// What a `user` record is (§2.5), first match wins.
enum UserKind {
    /// Only `functionResponse`s: the mirror of a `gemini` record's results.
    Mirror,
    /// `<session_context>` / `<hook_context>`: injected, hidden.
    Context,
    /// A command the user ran with `!`.
    Shell,
    /// A prompt (a slash command too).
    Prompt,
}

fn user_kind(content: &[Part<'_>], text: &str) -> UserKind {
    let all_responses = !content.is_empty()
        && content
            .iter()
            .all(|part| matches!(part, Part::Response { .. }));
    let trimmed = text.trim_start();
    if all_responses {
        UserKind::Mirror
    } else if trimmed.starts_with("<session_context>") || trimmed.starts_with("<hook_context>") {
        UserKind::Context
    } else if trimmed.starts_with("I ran the following shell command:") {
        UserKind::Shell
    } else {
        UserKind::Prompt
    }
}

impl State {
    /// Makes the events of one message record; returns them and the
    /// `turn_start` it opened.
    pub(super) fn render(
        &mut self,
        sink: &mut Sink,
        value: &Value,
        placement: Placement,
    ) -> (Vec<usize>, Option<usize>) {
        let first = sink.events.len();
        let time = timestamp(value);
        let mut turn_start = None;
        let content = value.get("content").unwrap_or(&Value::Null);
        match str_at(value, "type").unwrap_or("") {
            "user" => {
                let content_parts = parts(content);
                let text = speech(&content_parts);
                match user_kind(&content_parts, &text) {
                    UserKind::Mirror => self.orphans(sink, &content_parts, time.clone(), value),
                    UserKind::Context => sink.opaque(time, value),
                    UserKind::Shell => sink.notice(time, "info", shell_entry(&text)),
                    UserKind::Prompt => {
                        let shown = match value.get("displayContent") {
                            Some(display) if !display.is_null() => speech(&parts(display)),
                            _ => text,
                        };
                        match placement {
                            Placement::Checkpoint => {
                                sink.notice(time, "info", format!("context summary: {shown}"));
                            }
                            Placement::New => {
                                let at = sink.push_kind(time.clone(), EventKind::TurnStart);
                                turn_start = Some(at);
                                self.turn = Some(at);
                                self.ended = false;
                                self.last_answers = false;
                                self.push_prompt(sink, time, shown);
                            }
                            Placement::Again { .. } => self.push_prompt(sink, time, shown),
                        }
                    }
                }
            }
            "gemini" => self.gemini(sink, value, time, placement),
            kind @ ("info" | "warning" | "error") => {
                let text = speech(&parts(content));
                sink.notice(time, kind, text);
            }
            _ => sink.opaque(time, value),
        }
        let made = (first..sink.events.len())
            .filter(|&i| Some(i) != turn_start)
            .collect();
        (made, turn_start)
    }

    fn push_prompt(&mut self, sink: &mut Sink, time: Option<String>, content: String) {
        sink.push_kind(
            time,
            EventKind::ChatRequest {
                content,
                author: None,
                schema: None,
            },
        );
    }

    /// A mirror of results is hidden; a result no call asked for is shown
    /// as an orphan (§2.5 rule 1).
    fn orphans(&mut self, sink: &mut Sink, content: &[Part<'_>], time: Option<String>, v: &Value) {
        let mut any = false;
        for part in content {
            if let Part::Response {
                id: Some(id),
                response,
                ..
            } = part
                && !self.calls.contains(*id)
            {
                let (text, is_error) = response_text(response);
                sink.push_kind(
                    time.clone(),
                    EventKind::ToolCallResponse {
                        id: (*id).to_string(),
                        content: Content::Text(text),
                        is_error,
                    },
                );
                any = true;
            }
        }
        if !any {
            sink.opaque(time, v);
        }
    }

    /// A `gemini` record: reasoning, speech, tool calls, usage (§2.6).
    fn gemini(&mut self, sink: &mut Sink, value: &Value, time: Option<String>, at: Placement) {
        let content = parts(value.get("content").unwrap_or(&Value::Null));
        let thoughts = value.get("thoughts").and_then(Value::as_array);
        match thoughts.filter(|t| !t.is_empty()) {
            Some(thoughts) => {
                for thought in thoughts {
                    let subject = str_at(thought, "subject").unwrap_or("").trim();
                    let description = str_at(thought, "description").unwrap_or("").trim();
                    let text = match (subject.is_empty(), description.is_empty()) {
                        (true, _) => description.to_string(),
                        (false, true) => format!("**{subject}**"),
                        (false, false) => format!("**{subject}**\n\n{description}"),
                    };
                    reasoning(sink, time.clone(), text);
                }
            }
            None => {
                for part in &content {
                    match part {
                        Part::Text {
                            text,
                            thought: true,
                        } if !text.trim().is_empty() => {
                            reasoning(sink, time.clone(), (*text).to_string());
                        }
                        Part::HiddenThought => {
                            reasoning(sink, time.clone(), REASONING_HIDDEN.to_string())
                        }
                        _ => {}
                    }
                }
            }
        }
        let said = speech(&content);
        if !said.trim().is_empty() {
            sink.push_kind(
                time.clone(),
                EventKind::ChatResponse(ChatResponse::Message(Some(said.clone()))),
            );
        }
        let mut all_done = true;
        match value.get("toolCalls").and_then(Value::as_array) {
            Some(calls) if !calls.is_empty() => {
                for call in calls {
                    all_done &= self.tool_call(sink, call, time.clone());
                }
            }
            _ => {
                // A checkpointed record holds its calls as parts.
                for part in &content {
                    if let Part::Call { id, name, args } = part {
                        let id = id.unwrap_or("").to_string();
                        self.calls.insert(id.clone());
                        sink.push_call(time.clone(), id, (*name).to_string(), (*args).clone());
                    }
                }
            }
        }
        self.last_answers = !said.trim().is_empty() && all_done;
        if let Some(model) = str_at(value, "model") {
            self.model = Some(model.to_string());
        }
        self.count_tokens(sink, value, at);
    }

    /// One `toolCalls[]` entry: the call, and its result once it has one;
    /// returns whether it has.
    fn tool_call(&mut self, sink: &mut Sink, call: &Value, time: Option<String>) -> bool {
        let id = str_at(call, "id").unwrap_or("").to_string();
        let name = str_at(call, "name").unwrap_or("tool").to_string();
        let args = call.get("args").cloned().unwrap_or(Value::Null);
        self.calls.insert(id.clone());
        let time = str_at(call, "timestamp").map(str::to_string).or(time);
        if let Some(agent) = str_at(call, "agentId").filter(|a| plain_name(a)) {
            let mut paths = Vec::new();
            if let Some(session) = self.session.as_deref().filter(|s| plain_name(s)) {
                paths.push(format!("{session}/{agent}.jsonl"));
            }
            paths.push(format!("{agent}.jsonl"));
            sink.link(&id, SubAgentSource::File(paths));
        }
        sink.push_call(time.clone(), id.clone(), name, args);
        let status = str_at(call, "status").unwrap_or("");
        if !DONE.contains(&status) {
            return false;
        }
        let output = result_of(call, &id);
        let shown = call
            .get("resultDisplay")
            .and_then(result_display)
            .unwrap_or(output);
        let text = if status == "cancelled" && shown.trim().is_empty() {
            "[cancelled]".to_string()
        } else {
            shown
        };
        // Failed iff the status says so (§2.6); cancelled is not a failure.
        let is_error = status == "error";
        sink.push_kind(
            time,
            EventKind::ToolCallResponse {
                id,
                content: Content::Text(text),
                is_error,
            },
        );
        true
    }

    /// A record's final `tokens`, summed into its turn (§2.10).
    fn count_tokens(&mut self, sink: &mut Sink, value: &Value, at: Placement) {
        let turn = match at {
            Placement::Again { turn } => turn,
            _ => self.turn,
        };
        let (Some(turn), Some(tokens), Some(id)) = (
            turn,
            value.get("tokens").filter(|t| t.is_object()),
            str_at(value, "id"),
        ) else {
            return;
        };
        let count = |key: &str| tokens.get(key).and_then(Value::as_u64).unwrap_or(0);
        let counts = [
            count("input"),
            count("output") + count("thoughts"),
            count("cached"),
        ];
        self.usage
            .entry(turn)
            .or_default()
            .insert(id.to_string(), counts);
        self.store_usage(sink, turn);
    }
}

/// A call's model-facing result: the `functionResponse` with the call's
/// id, else every one of `result` (§2.6).
fn result_of(call: &Value, id: &str) -> String {
    let result = call.get("result").unwrap_or(&Value::Null);
    let responses: Vec<(Option<&str>, &Value)> = parts(result)
        .into_iter()
        .filter_map(|part| match part {
            Part::Response { id, response, .. } => Some((id, response)),
            _ => None,
        })
        .collect();
    let own: Vec<&Value> = responses
        .iter()
        .filter(|(of, _)| *of == Some(id))
        .map(|(_, r)| *r)
        .collect();
    let chosen: Vec<&Value> = if own.is_empty() {
        responses.iter().map(|(_, r)| *r).collect()
    } else {
        own
    };
    let texts: Vec<String> = chosen
        .into_iter()
        .map(|response| response_text(response).0)
        .collect();
    texts.join("\n")
}

/// A `!command` the user ran: `! command` and what it printed.
fn shell_entry(text: &str) -> String {
    let mut blocks = text.split("```").skip(1).step_by(2).map(|block| {
        let block = block.split_once('\n').map_or(block, |(first, rest)| {
            if first.trim().chars().all(|c| c.is_ascii_alphanumeric()) {
                rest
            } else {
                block
            }
        });
        block.trim()
    });
    let command = blocks.next().unwrap_or("").to_string();
    match blocks.next() {
        Some(output) if !output.is_empty() => format!("! {command}\n{output}"),
        _ => format!("! {command}"),
    }
}

fn reasoning(sink: &mut Sink, time: Option<String>, text: String) {
    sink.push_kind(time, EventKind::ChatResponse(ChatResponse::Reasoning(text)));
}

/// Whether `name` is a plain file-name part (letters, digits, `-`, `_`):
/// an id from the chat that may be put in a path.
fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}
