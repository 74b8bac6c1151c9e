//! Codex CLI rollouts (JSON Lines, optionally zstd-compressed) → canonical events.
//!
//! [`CodexReader`] is fed a rollout's bytes as they arrive and maps each line
//! as spec agent-transcripts §3 says, with one source of truth per thing
//! (§3.6): prompts from `event_msg/user_message` (or, in files that have none,
//! from the `response_item` user messages that are not injected context),
//! speech, reasoning and tool calls from `response_item`s; the event mirrors
//! are dropped, the extended-mode events only enrich a call's error flag.
//! Calls pair with their outputs by `call_id`; errors follow §3.8 (see
//! `output`). Both generations are read: the envelope
//! (`{timestamp, type, payload}`) and the legacy one (a first line
//! `{id, timestamp}`, then bare items). docs/agents.md lists every decision.

#[cfg(feature = "cli")]
mod figures;
mod output;

#[cfg(feature = "cli")]
pub(super) use figures::figures;

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::agent_args;
use super::reader::SubAgentSource;
use super::surrogates;
use super::transcript::{
    CallIds, Records, Sink, TranscriptReader, TurnProgress, image_placeholder, str_at, timestamp,
};
use crate::model::{call_view, facts};
use crate::model::{ChatResponse, Content, Event, EventKind};

/// The placeholder for reasoning stored only encrypted.
pub const REASONING_HIDDEN: &str = "[reasoning hidden]";

/// The line that separates an IDE prompt's editor context from the request.
const IDE_REQUEST: &str = "## My request for Codex:";

/// Reads a Codex rollout incrementally.
pub type CodexReader = TranscriptReader<State>;

/// What a Codex rollout's lines said so far: what later lines resolve against.
#[derive(Debug, Default)]
pub struct State {
    /// The current turn's `turn_start`.
    turn: Option<usize>,
    /// The current turn's prompt text and whether `user_message` gave it.
    prompt: Option<(String, bool)>,
    /// Assistant texts shown this turn.
    spoken: Spoken,
    /// Tool responses by call id (to enrich them).
    responses: HashMap<String, usize>,
    /// The calls requested so far by id, enriched by id.
    calls: CallIds,
    /// Error verdicts of extended-mode events that came before the output.
    verdicts: HashMap<String, bool>,
    /// `total_token_usage` (input, output, cached input) when the current
    /// turn started, and now.
    usage_at_start: (u64, u64, u64),
    usage_now: (u64, u64, u64),
    model: Option<String>,
    title: Option<String>,
    /// `spawn_agent` calls whose child is not linked yet (spec §3.9).
    spawns: HashSet<String>,
    /// Whether the current turn has settled (ended by `task_complete` or
    /// `turn_aborted`, or its latest step is speech with no call pending).
    progress: TurnProgress,
}

impl Records for State {
    fn record(&mut self, sink: &mut Sink, value: &mut Value) {
        self.read(sink, value);
    }

    fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    fn settled(&self) -> bool {
        self.progress.settled()
    }

    fn end_settled_turn(&mut self, sink: &mut Sink) {
        if !self.progress.ended {
            // Read whole, the last turn answered the user: older rollouts
            // write no `task_complete` (docs/agents.md).
            self.progress.ended = true;
            self.update_turn(sink, |info| {
                info.ended.get_or_insert(facts::TurnEnd::Completed);
            });
        }
    }
}

impl State {
    /// Reads one line and notes what its events say of the turn's progress.
    fn read(&mut self, sink: &mut Sink, value: &Value) {
        let before = sink.events.len();
        self.line(sink, value);
        self.progress.observe(&sink.events[before..]);
    }

    fn line(&mut self, sink: &mut Sink, value: &Value) {
        let time = timestamp(value);
        let payload = value.get("payload");
        if matches!(str_at(value, "type"), Some("session_meta" | "turn_context"))
            && let Some(cwd) = payload.and_then(|p| str_at(p, "cwd"))
        {
            sink.set_cwd(cwd);
        }
        match (str_at(value, "type"), payload) {
            (Some("response_item"), Some(item)) => self.item(sink, item, value, time),
            (Some("event_msg"), Some(event)) => self.event(sink, event, value, time),
            (Some("turn_context"), Some(context)) => {
                if let Some(model) = str_at(context, "model") {
                    if self.model.as_deref().is_some_and(|m| m != model) {
                        sink.notice(time, "info", format!("model: {model}"));
                    }
                    self.model = Some(model.to_string());
                    self.update_turn(sink, |_| {});
                }
                sink.opaque(timestamp(value), value);
            }
            (Some("compacted"), Some(_)) => {
                // The summary the model continues from stays in the raw view.
                sink.notice(time, "info", "context compacted".to_string());
            }
            // A legacy rollout: bare response items after a `{id, timestamp}` line.
            (Some(_), None) if value.get("record_type").is_none() => {
                self.item(sink, value, value, time)
            }
            _ => {
                sink.opaque(time, value);
            }
        }
    }

    /// Opens a turn with its prompt.
    fn prompt(&mut self, sink: &mut Sink, time: Option<String>, text: &str, from_event: bool) {
        self.turn = Some(sink.push_kind(time.clone(), EventKind::TurnStart));
        self.prompt = Some((text.trim().to_string(), from_event));
        self.spoken.clear();
        self.usage_at_start = self.usage_now;
        self.update_turn(sink, |_| {});
        sink.push_kind(
            time,
            EventKind::ChatRequest {
                content: request(text),
                author: None,
                schema: None,
            },
        );
    }

    /// Changes the current turn's facts (tokens and model are always set).
    fn update_turn(&mut self, sink: &mut Sink, change: impl FnOnce(&mut facts::TurnInfo)) {
        let Some(turn) = self.turn else { return };
        let (input, output, cached) = (
            self.usage_now.0.saturating_sub(self.usage_at_start.0),
            self.usage_now.1.saturating_sub(self.usage_at_start.1),
            self.usage_now.2.saturating_sub(self.usage_at_start.2),
        );
        let model = self.model.clone();
        sink.update(turn, |event| {
            let mut info = facts::turn_info(event).unwrap_or_default();
            if input > 0 || output > 0 {
                info.input_tokens = Some(input);
                info.output_tokens = Some(output);
                info.cache_read_tokens = Some(cached);
            }
            info.model = model;
            change(&mut info);
            facts::set_value(event, facts::TURN, &info)
        });
    }

    /// Shows assistant text once, whichever of its two copies comes first.
    fn speak(&mut self, sink: &mut Sink, time: Option<String>, text: &str, original: bool) {
        let Some(text) = self.spoken.shown(text, original) else {
            return;
        };
        sink.push_kind(
            time,
            EventKind::ChatResponse(ChatResponse::Message(Some(text.to_string()))),
        );
    }

    fn item(&mut self, sink: &mut Sink, item: &Value, line: &Value, time: Option<String>) {
        let call_id = str_at(item, "call_id").unwrap_or("").to_string();
        match str_at(item, "type").unwrap_or("") {
            "message" => self.message(sink, item, line, time),
            "reasoning" => {
                let texts: Vec<&str> = ["summary", "content"]
                    .iter()
                    .filter_map(|k| item.get(*k).and_then(Value::as_array))
                    .flatten()
                    .filter_map(|part| str_at(part, "text"))
                    .filter(|t| !t.trim().is_empty())
                    .collect();
                let text = if texts.is_empty() {
                    REASONING_HIDDEN.to_string()
                } else {
                    texts.join("\n\n")
                };
                sink.push_kind(time, EventKind::ChatResponse(ChatResponse::Reasoning(text)));
            }
            "function_call" => {
                let raw = str_at(item, "arguments").unwrap_or("");
                let arguments = surrogates::parse_inner(raw).unwrap_or_else(|_| Value::from(raw));
                let name = str_at(item, "name").unwrap_or("tool").to_string();
                self.call(sink, time, call_id, name, arguments);
            }
            "custom_tool_call" => {
                let input = str_at(item, "input").unwrap_or("");
                let arguments = match surrogates::parse_inner::<Value>(input) {
                    Ok(object @ Value::Object(_)) => object,
                    _ => Value::Object(Map::from_iter([("input".into(), Value::from(input))])),
                };
                let name = str_at(item, "name").unwrap_or("tool").to_string();
                self.call(sink, time, call_id, name, arguments);
            }
            "local_shell_call" => {
                let action = item.get("action").cloned().unwrap_or(Value::Null);
                self.call(sink, time, call_id, "local_shell".into(), action);
            }
            "function_call_output" | "custom_tool_call_output" => {
                let (text, mut error) = output::judge(output::text(item.get("output")));
                if let Some(verdict) = self.verdicts.remove(&call_id) {
                    error = verdict;
                }
                if self.spawns.contains(&call_id)
                    && let Ok(result) = surrogates::parse_inner::<Value>(&text)
                    && let Some(child) = str_at(&result, "agent_id")
                {
                    self.link_child(sink, &call_id, child);
                }
                // An approval the user denied: not a failure of the tool.
                let refused = output::refused(&text);
                let mut response = Event::new(
                    time,
                    EventKind::ToolCallResponse {
                        id: call_id.clone(),
                        content: Content::Text(text),
                        is_error: error || refused,
                    },
                );
                if refused {
                    facts::set_refused(&mut response, None);
                }
                let index = sink.push(response);
                sink.note_images(line, "/payload/output");
                self.calls.answer(&call_id);
                self.responses.insert(call_id, index);
            }
            _ => {
                sink.opaque(time, line);
            }
        }
    }

    fn call(
        &mut self,
        sink: &mut Sink,
        time: Option<String>,
        id: String,
        name: String,
        arguments: Value,
    ) {
        if self.calls.is_repeat(&sink.events, &id, &name, &arguments) {
            return; // the same call written again
        }
        if name == "spawn_agent" {
            self.spawns.insert(id.clone());
        }
        // A new call of a reused id: the earlier call's response is not its.
        self.responses.remove(&id);
        self.verdicts.remove(&id);
        let index = sink.push_call(time, id.clone(), name, arguments);
        self.calls.request(&id, index);
    }

    /// Links a `spawn_agent` call to its child's rollout, once: the rollout
    /// beside this one whose name ends with the child's thread id. An id
    /// that could name another folder is not followed.
    fn link_child(&mut self, sink: &mut Sink, call: &str, child: &str) {
        let plain = !child.is_empty()
            && child
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if plain && self.spawns.remove(call) {
            sink.link(call, SubAgentSource::Ending(format!("{child}.jsonl")));
        }
    }

    fn message(&mut self, sink: &mut Sink, item: &Value, line: &Value, time: Option<String>) {
        let texts = message_texts(item.get("content"));
        match str_at(item, "role") {
            Some("assistant") => self.speak(sink, time, &spoken_text(&texts), true),
            Some("user") => match user_item(&texts) {
                UserItem::Shell(command) => sink.notice(time, "info", format!("! {command}")),
                UserItem::Context => sink.opaque(time, line),
                UserItem::Typed(typed) if self.prompt_pending_event(&typed) => {
                    // The `user_message` of this turn came first: this is its mirror.
                    sink.opaque(time, line);
                }
                UserItem::Typed(typed) => {
                    self.prompt(sink, time, &typed, false);
                    sink.note_images(line, "/payload/content");
                }
            },
            _ => {
                sink.opaque(time, line);
            }
        }
    }

    /// Whether the current turn's prompt, given by `user_message`, is `text`
    /// (so a `response_item` copy of it is a mirror).
    fn prompt_pending_event(&self, text: &str) -> bool {
        matches!(&self.prompt, Some((prompt, true)) if same_prompt(prompt, text))
    }

    fn event(&mut self, sink: &mut Sink, event: &Value, line: &Value, time: Option<String>) {
        let call_id = str_at(event, "call_id").unwrap_or("").to_string();
        match str_at(event, "type").unwrap_or("") {
            "user_message" => {
                let kind = str_at(event, "kind");
                let message = str_at(event, "message").unwrap_or("");
                if kind.is_some_and(|k| k != "plain") {
                    sink.opaque(time, line);
                    return;
                }
                let images = ["images", "local_images"]
                    .iter()
                    .filter_map(|k| event.get(*k).and_then(Value::as_array))
                    .map(Vec::len)
                    .sum::<usize>();
                let text = with_images(message, images);
                match &mut self.prompt {
                    // The response_item copy came first and opened the turn.
                    Some((prompt, from_event @ false)) if same_prompt(prompt, message) => {
                        *from_event = true;
                        sink.opaque(time, line);
                    }
                    _ => {
                        self.prompt(sink, time, &text, true);
                        sink.note_images(line, "/payload/images");
                    }
                }
            }
            "agent_message" => {
                let message = str_at(event, "message").unwrap_or("").to_string();
                self.speak(sink, time, &message, false);
            }
            "token_count" => {
                if let Some(total) = total_usage(event.get("info")) {
                    self.usage_now = total;
                    self.update_turn(sink, |_| {});
                }
                sink.opaque(time, line);
            }
            "task_complete" | "turn_complete" => {
                self.progress.ended = self.turn.is_some();
                let error = event.get("error").filter(|e| !e.is_null());
                let message = error
                    .map(|e| str_at(e, "message").map_or_else(|| e.to_string(), str::to_string));
                let ended_at = time.clone();
                self.update_turn(sink, |info| {
                    info.ended_at = ended_at;
                    info.ended = Some(if message.is_some() {
                        facts::TurnEnd::Failed
                    } else {
                        facts::TurnEnd::Completed
                    });
                    info.error = message.map(|message| facts::ErrorInfo {
                        code: String::new(),
                        message,
                    });
                });
                sink.opaque(time, line);
            }
            "turn_aborted" => {
                let reason = str_at(event, "reason").unwrap_or("interrupted");
                self.progress.ended = self.turn.is_some();
                self.update_turn(sink, |info| info.ended = Some(facts::TurnEnd::Cancelled));
                sink.notice(time, "warning", format!("turn aborted: {reason}"));
            }
            "error" => {
                let message = str_at(event, "message").unwrap_or("error");
                sink.notice(time, "error", message.to_string());
            }
            "thread_rolled_back" => {
                let turns = event.get("num_turns").and_then(Value::as_u64).unwrap_or(0);
                sink.notice(
                    time,
                    "warning",
                    format!("the last {turns} turns were rolled back"),
                );
            }
            "entered_review_mode" => sink.notice(time, "info", "review started".into()),
            "exited_review_mode" => sink.notice(time, "info", "review finished".into()),
            "undo_completed" => {
                let text = str_at(event, "message").unwrap_or("undo completed");
                sink.notice(time, "info", text.to_string());
            }
            "thread_name_updated" => {
                self.title = str_at(event, "thread_name").map(str::to_string);
                sink.opaque(time, line);
            }
            "collab_agent_spawn_end" => {
                if let Some(child) = str_at(event, "new_thread_id") {
                    self.link_child(sink, &call_id, child);
                }
                sink.opaque(time, line);
            }
            kind @ ("exec_command_end" | "patch_apply_end" | "mcp_tool_call_end") => {
                // The changes an `apply_patch` made replace the call's own
                // patch as its diff: one diff, never two (§3.6).
                if let (Some(changes), Some(request)) = (
                    event.get("changes").filter(|_| kind == "patch_apply_end"),
                    self.calls.latest(&call_id),
                ) && let Some(diff) = agent_args::patch_changes(changes)
                {
                    sink.update(request, |event| call_view::set(event, &diff));
                }
                if let Some(error) = verdict(kind, event) {
                    match self.responses.get(&call_id) {
                        Some(&index) => sink.update(index, |response| match &mut response.kind {
                            EventKind::ToolCallResponse { is_error, .. } if *is_error != error => {
                                *is_error = error;
                                true
                            }
                            _ => false,
                        }),
                        None => {
                            self.verdicts.insert(call_id, error);
                        }
                    }
                }
                sink.opaque(time, line);
            }
            _ => {
                sink.opaque(time, line);
            }
        }
    }
}

/// The texts of a `message` item's `content` parts, an image as its
/// placeholder.
fn message_texts(content: Option<&Value>) -> Vec<String> {
    content
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|part| match str_at(part, "type") {
            Some("input_text" | "output_text" | "text") => str_at(part, "text").map(str::to_string),
            Some("input_image") => Some(image_placeholder(None, None)),
            _ => None,
        })
        .collect()
}

/// What an assistant `message` says: its texts, images left out.
fn spoken_text(texts: &[String]) -> String {
    let text: Vec<&str> = texts
        .iter()
        .map(String::as_str)
        .filter(|t| !t.starts_with("[image"))
        .collect();
    text.join("\n\n")
}

/// What a user `message` item is, told by its texts.
enum UserItem {
    /// A shell command the user ran (`<user_shell_command>`): its text.
    Shell(String),
    /// Injected context or images only: no prompt.
    Context,
    /// What the user typed.
    Typed(String),
}

fn user_item(texts: &[String]) -> UserItem {
    let typed: Vec<&str> = texts
        .iter()
        .map(String::as_str)
        .filter(|t| !injected(t))
        .collect();
    if let Some(shell) = texts.iter().find(|t| t.starts_with("<user_shell_command>")) {
        UserItem::Shell(strip_tag(shell))
    } else if typed.is_empty() || typed.iter().all(|t| t.starts_with("[image")) {
        UserItem::Context
    } else {
        UserItem::Typed(typed.join("\n\n"))
    }
}

/// A `user_message`'s prompt text: its message, then a placeholder per
/// image.
fn with_images(message: &str, images: usize) -> String {
    let mut text = message.to_string();
    for _ in 0..images {
        text.push_str("\n\n");
        text.push_str(&image_placeholder(None, None));
    }
    text
}

/// The request a prompt shows: an IDE prompt's request without its
/// editor context.
fn request(text: &str) -> String {
    match text.split_once(IDE_REQUEST) {
        Some((_, request)) => request.trim().to_string(),
        None => text.to_string(),
    }
}

/// A `token_count`'s `info.total_token_usage` as (input, output, cached
/// input), when it is an object.
fn total_usage(info: Option<&Value>) -> Option<(u64, u64, u64)> {
    let total = info
        .and_then(|i| i.get("total_token_usage"))
        .filter(|t| t.is_object())?;
    let count = |k: &str| total.get(k).and_then(Value::as_u64).unwrap_or(0);
    Some((
        count("input_tokens"),
        count("output_tokens"),
        count("cached_input_tokens"),
    ))
}

/// The assistant texts shown in a turn, each with where it came from
/// (`response_item`: true, `agent_message`: false). Codex writes a reply
/// twice, once each way: the first copy is shown, the second is not.
#[derive(Debug, Default)]
struct Spoken(Vec<(String, bool)>);

impl Spoken {
    /// `text` trimmed when it is to be shown: not empty, and not the other
    /// copy of a text shown this turn (that copy is then forgotten).
    fn shown<'t>(&mut self, text: &'t str, original: bool) -> Option<&'t str> {
        let text = text.trim();
        if text.is_empty() {
            return None;
        }
        if let Some(at) = self
            .0
            .iter()
            .position(|(t, from)| t == text && *from != original)
        {
            self.0.remove(at); // the other copy of text already shown
            return None;
        }
        self.0.push((text.to_string(), original));
        Some(text)
    }

    /// A new turn: nothing shown yet.
    fn clear(&mut self) {
        self.0.clear();
    }
}

/// Rule 1 of §3.8: what an extended-mode event says of its call's outcome.
fn verdict(kind: &str, event: &Value) -> Option<bool> {
    match kind {
        "exec_command_end" => Some(event.get("exit_code")?.as_i64()? != 0),
        "patch_apply_end" => Some(!event.get("success")?.as_bool()?),
        _ => {
            let result = event.get("result")?;
            if result.get("Err").is_some() {
                return Some(true);
            }
            Some(result.get("Ok")?.get("isError").and_then(Value::as_bool) == Some(true))
        }
    }
}

/// Whether a user message's text is context the harness injected (§3.4).
fn injected(text: &str) -> bool {
    let text = text.trim_start();
    text.starts_with('<') || text.starts_with("# AGENTS.md instructions for")
}

/// Whether two prompt texts are the same prompt (its two copies).
fn same_prompt(a: &str, b: &str) -> bool {
    let (a, b) = (a.trim(), b.trim());
    !b.is_empty() && (a == b || a.contains(b) || b.contains(a))
}

/// A `<tag>…</tag>` block's inside.
fn strip_tag(text: &str) -> String {
    let inner = text.split_once('>').map_or(text, |(_, rest)| rest);
    let inner = inner.rsplit_once("</").map_or(inner, |(body, _)| body);
    inner.trim().to_string()
}

#[cfg(test)]
mod tests;
