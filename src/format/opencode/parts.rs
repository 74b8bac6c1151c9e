//! Parts (`part.data`, spec §5.4): what each makes, and how a part row sent
//! again (it streams, a tool call changes state) changes what it made.

use std::sync::Arc;

use serde_json::Value;

use super::super::transcript::{Sink, str_at};
use super::{Role, State, rows};
use serde_json::json;

use super::super::agent_args;
use crate::model::{ChatResponse, Content, Event, EventKind, call_view, facts};

/// The events one part made, by kind.
#[derive(Debug, Clone, Copy)]
pub(super) enum Made {
    /// Its text went into the turn's prompt.
    Prompt,
    /// Speech or reasoning: the event's index.
    Text(usize),
    /// A tool call: the request's index, and the result's once there is one.
    Tool {
        request: usize,
        response: Option<usize>,
    },
    /// A notice, an opaque item, or nothing shown: made once, never changed.
    Once,
}

impl State {
    pub(super) fn part(&mut self, sink: &mut Sink, value: &Value, data: &mut Value) {
        let Some(id) = str_at(value, "id").map(str::to_string) else {
            sink.opaque(None, value);
            return;
        };
        let message = str_at(value, "message_id").unwrap_or("");
        let role = self.messages.get(message).map_or(Role::Assistant, |m| m.role);
        let time = rows::time(value, data);
        let made = self.parts.get(&id).copied();
        let kind = str_at(data, "type").unwrap_or("");
        let made = match (kind, made) {
            ("text", _) if role == Role::User => {
                let message = message.to_string();
                return self.prompt_part(sink, id, &message, time, data);
            }
            ("text", made) => text(sink, time, data, made, |t| ChatResponse::Message(Some(t))),
            ("reasoning", made) => text(sink, time, data, made, ChatResponse::Reasoning),
            ("tool", made) => self.tool(sink, time, data, made),
            (_, Some(made)) => Some(made),
            ("patch", None) => {
                let files: Vec<&str> = data
                    .get("files")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                if !files.is_empty() {
                    sink.notice(time, "info", format!("changed: {}", files.join(", ")));
                }
                Some(Made::Once)
            }
            ("file", None) => {
                let name = str_at(data, "filename").unwrap_or("a file");
                let mime = str_at(data, "mime").unwrap_or("");
                sink.notice(time, "info", format!("attached: {name} {mime}").trim_end().into());
                Some(Made::Once)
            }
            ("agent", None) => {
                let name = str_at(data, "name").unwrap_or("agent");
                sink.notice(time, "info", format!("@{name}"));
                Some(Made::Once)
            }
            ("subtask", None) => {
                let agent = str_at(data, "agent").unwrap_or("agent");
                let description = str_at(data, "description").unwrap_or("");
                sink.notice(
                    time,
                    "info",
                    format!("sub-agent @{agent} asked for: {description}"),
                );
                Some(Made::Once)
            }
            ("retry", None) => {
                let attempt = data.get("attempt").and_then(Value::as_u64).unwrap_or(0);
                let error = data.get("error").map(|e| rows::error_text(e).1);
                let text = match error {
                    Some(error) => format!("retrying ({attempt}): {error}"),
                    None => format!("retrying ({attempt})"),
                };
                sink.notice(time, "warning", text);
                Some(Made::Once)
            }
            ("compaction", None) => {
                let auto = data.get("auto").and_then(Value::as_bool) == Some(true);
                let text = if auto {
                    "context compacted (automatically)"
                } else {
                    "context compacted"
                };
                sink.notice(time, "info", text.to_string());
                Some(Made::Once)
            }
            // step-start, step-finish, snapshot and any unknown part: kept
            // as stored, for the raw view.
            (_, None) => {
                sink.opaque(time, data);
                Some(Made::Once)
            }
        };
        if let Some(made) = made {
            self.parts.insert(id, made);
        }
    }

    /// A user text part: the prompt (its first opens the turn, later ones
    /// add to it); `synthetic` and `ignored` text is context, not typed.
    fn prompt_part(
        &mut self,
        sink: &mut Sink,
        part: String,
        message: &str,
        time: Option<String>,
        data: &Value,
    ) {
        let hidden = ["synthetic", "ignored"]
            .iter()
            .any(|key| data.get(*key).and_then(Value::as_bool) == Some(true));
        let text = str_at(data, "text").unwrap_or("");
        if hidden || text.trim().is_empty() {
            // Context the agent added, not typed: its row stays in the raw view.
            self.parts.insert(part, Made::Once);
            return;
        }
        let texts = self.prompts.entry(message.to_string()).or_default();
        match texts.iter_mut().find(|(id, _)| *id == part) {
            Some((_, old)) => *old = text.to_string(),
            None => texts.push((part.clone(), text.to_string())),
        }
        let joined = texts
            .iter()
            .map(|(_, text)| text.as_str())
            .collect::<Vec<_>>()
            .join("\n\n");
        self.parts.insert(part, Made::Prompt);
        match self.turns.get(message).and_then(|turn| turn.request) {
            Some(request) => sink.update(request, |event| match &mut event.kind {
                EventKind::ChatRequest { content, .. } if *content != joined => {
                    *content = joined;
                    true
                }
                _ => false,
            }),
            None => self.open_turn(sink, message, time, &joined),
        }
    }

    /// A tool part: the call, and its result once it has one (spec §5.4).
    fn tool(
        &mut self,
        sink: &mut Sink,
        time: Option<String>,
        data: &mut Value,
        made: Option<Made>,
    ) -> Option<Made> {
        let call = str_at(data, "callID").unwrap_or("").to_string();
        let name = str_at(data, "tool").unwrap_or("tool").to_string();
        // Moved out, not copied: the row's data is dropped after.
        let input = data.pointer_mut("/state/input").map_or(Value::Null, Value::take);
        let state = data.get("state").unwrap_or(&Value::Null);
        let (request, response) = match made {
            Some(Made::Tool { request, response }) => {
                sink.update(request, |event| {
                    let EventKind::ToolCallRequest { arguments, .. } = &mut event.kind else {
                        return false;
                    };
                    if **arguments == input {
                        return false;
                    }
                    let input = Arc::new(input);
                    *arguments = Arc::clone(&input);
                    describe(event, &name, &input);
                    true
                });
                (request, response)
            }
            Some(other) => return Some(other),
            None => {
                let request = sink.push_call(time.clone(), call.clone(), name.clone(), input);
                if let Some(event) = sink.events.get_mut(request)
                    && let EventKind::ToolCallRequest { arguments, .. } = &event.kind
                {
                    let arguments = Arc::clone(arguments);
                    describe(event, &name, &arguments);
                }
                (request, None)
            }
        };
        if name == "task"
            && let Some(child) = state
                .get("metadata")
                .and_then(|m| str_at(m, "sessionId"))
        {
            let child = child.to_string();
            self.link_child(sink, &child, &call);
        }
        let Some((content, is_error)) = result(state) else {
            return Some(Made::Tool { request, response });
        };
        let end = state
            .get("time")
            .and_then(|t| t.get("end"))
            .and_then(Value::as_i64)
            .and_then(rows::millis)
            .or(time);
        let response = match response {
            Some(index) => {
                sink.update(index, |event| match &mut event.kind {
                    EventKind::ToolCallResponse {
                        content: Content::Text(text),
                        is_error: error,
                        ..
                    } if (*text != content || *error != is_error) => {
                        *text = content;
                        *error = is_error;
                        true
                    }
                    _ => false,
                });
                index
            }
            None => sink.push_kind(
                end,
                EventKind::ToolCallResponse {
                    id: call,
                    content: Content::Text(content),
                    is_error,
                },
            ),
        };
        Some(Made::Tool {
            request,
            response: Some(response),
        })
    }
}

/// A call's view and subject (its card's body and header), for the tools
/// whose arguments are a Claude Code tool's under other names: a shell
/// command, a file read, written or edited, a search, a checklist, a
/// sub-agent.
fn describe(event: &mut Event, name: &str, input: &Value) -> bool {
    let get = |key: &str| input.get(key).cloned().unwrap_or(Value::Null);
    let (as_name, arguments) = match name {
        "bash" => (
            "Bash",
            json!({"command": get("command"), "description": get("description")}),
        ),
        "read" => ("Read", json!({"file_path": get("filePath")})),
        "write" => (
            "Write",
            json!({"file_path": get("filePath"), "content": get("content")}),
        ),
        "edit" => (
            "Edit",
            json!({"file_path": get("filePath"), "old_string": get("oldString"),
                   "new_string": get("newString")}),
        ),
        "glob" => ("Glob", json!({"pattern": get("pattern"), "path": get("path")})),
        "grep" => ("Grep", json!({"pattern": get("pattern"), "path": get("path")})),
        "webfetch" => ("WebFetch", json!({"url": get("url")})),
        "task" => ("Task", json!({"description": get("description")})),
        "todowrite" => ("TodoWrite", json!({"todos": get("todos")})),
        "apply_patch" | "patch" => (
            "apply_patch",
            json!({"input": input.get("patchText").or(input.get("patch")).cloned()}),
        ),
        _ => return false,
    };
    let mut changed = false;
    if let Some(view) = agent_args::view(as_name, &arguments) {
        changed |= call_view::set(event, &view);
    }
    if let Some(subject) = agent_args::subject(as_name, &arguments, None) {
        changed |= facts::set_subject(event, &subject);
    }
    changed
}

/// A speech or reasoning part: made once it has text, changed in place as
/// it streams.
fn text(
    sink: &mut Sink,
    time: Option<String>,
    data: &Value,
    made: Option<Made>,
    kind: fn(String) -> ChatResponse,
) -> Option<Made> {
    let text = str_at(data, "text").unwrap_or("");
    match made {
        Some(Made::Text(index)) => {
            let new = kind(text.to_string());
            sink.update(index, |event| match &mut event.kind {
                EventKind::ChatResponse(old) if *old != new => {
                    *old = new;
                    true
                }
                _ => false,
            });
            Some(Made::Text(index))
        }
        Some(other) => Some(other),
        None if text.trim().is_empty() => None,
        None => Some(Made::Text(sink.push_kind(
            time,
            EventKind::ChatResponse(kind(text.to_string())),
        ))),
    }
}

/// A tool state's result, once it has one: `completed` → its output,
/// `error` → its error (and, when interrupted, what it produced).
fn result(state: &Value) -> Option<(String, bool)> {
    let as_text = |value: Option<&Value>| match value {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    };
    match str_at(state, "status")? {
        "completed" => Some((as_text(state.get("output")), false)),
        "error" => {
            let error = as_text(state.get("error"));
            let produced = state
                .get("metadata")
                .filter(|m| m.get("interrupted").and_then(Value::as_bool) == Some(true))
                .and_then(|m| str_at(m, "output"))
                .filter(|out| !out.is_empty());
            Some(match produced {
                Some(output) => (format!("{output}\n\n{error}"), true),
                None => (error, true),
            })
        }
        _ => None,
    }
}
