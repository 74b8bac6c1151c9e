//! Claude Code session transcripts (JSON Lines) → canonical events.
//!
//! [`ClaudeCodeReader`] is fed a transcript's bytes as they arrive (a partial
//! last line waits for its newline) and maps each record as spec
//! agent-transcripts §2 says: a prompt opens a turn (`turn_start` +
//! `chat_request`), each assistant content block becomes speech, reasoning or
//! a tool call (one line per block; a response spread over lines keeps its
//! file order), each `tool_result` a tool response with its `is_error`.
//! Harness text, snapshots, modes, titles and records of unknown types are
//! kept as `unknown` events (raw view only); interruptions, API errors and
//! compactions become notices ([`super::transcript::NOTICE`]). Token usage is
//! counted once per `message.id` (its last line) and summed per turn into the
//! turn's `overhear.turn` facts. docs/agents.md lists every decision.

#[cfg(feature = "cli")]
mod figures;
mod hooks;
mod user;

#[cfg(feature = "cli")]
pub(super) use figures::figures;

// The maps a record is looked up in (foldhash: seeded per process like the
// standard hasher, so ids from a hostile file cannot be made to collide,
// and several times faster on short ids; see `model::pairing`).
use foldhash::{HashMap, HashSet};

use serde_json::Value;

use super::reader::SubAgentSource;
use super::transcript::{
    CallIds, Records, Sink, TranscriptReader, TurnProgress, image_placeholder, str_at, timestamp,
};
use crate::model::facts;
use crate::model::{ChatResponse, Content, EventKind};

/// The marker shown for reasoning the transcript does not hold (signed or
/// redacted thinking with no text).
pub const REASONING_HIDDEN: &str = "[reasoning hidden]";

/// Reads a Claude Code transcript incrementally.
pub type ClaudeCodeReader = TranscriptReader<State>;

/// What a Claude Code transcript's records said so far: what later records resolve against.
#[derive(Debug, Default)]
pub struct State {
    /// Whether the file is a sub-agent's own transcript (its first
    /// conversation record is a sidechain): then its sidechain is its main chain.
    sidechain_file: Option<bool>,
    seen_uuids: HashSet<String>,
    /// Tool calls by id, for their results to enrich.
    pub(super) calls: CallIds,
    /// The current turn's `turn_start` event.
    turn: Option<usize>,
    /// Usage of the current turn's responses, by `message.id` (last line
    /// wins): input (all of it), output, cache read, cache write.
    usage: HashMap<String, [u64; 4]>,
    /// The sum of `usage`, kept as it changes: a turn of many responses
    /// costs one addition each, not a sum of all of them each.
    usage_sum: [u64; 4],
    model: Option<String>,
    /// Title candidates: custom, ai, summary.
    titles: [Option<String>; 3],
    /// Whether the current turn has settled.
    pub(super) progress: TurnProgress,
    /// Sub-agent calls (`Task`, `Agent`) by id: their prompt, which links an
    /// inline sidechain to its call (spec §2.8).
    agent_calls: HashMap<String, String>,
    /// Inline sidechain records by `uuid`: the call their chain is linked
    /// to (`None`: an unlinked chain).
    chains: HashMap<String, Option<String>>,
    /// The session id, which names the 2.1.x sub-agents' folder.
    session: Option<String>,
}

impl Records for State {
    fn record(&mut self, sink: &mut Sink, value: &mut Value) {
        self.read(sink, value);
    }

    fn title(&self) -> Option<&str> {
        self.titles.iter().flatten().next().map(String::as_str)
    }

    fn settled(&self) -> bool {
        self.progress.settled()
    }

    fn end_settled_turn(&mut self, sink: &mut Sink) {
        self.end_turn(sink, facts::TurnEnd::Completed);
    }
}

impl State {
    /// Reads one record and notes what its events say of the turn's progress.
    fn read(&mut self, sink: &mut Sink, value: &mut Value) {
        let before = sink.events.len();
        self.record(sink, value);
        self.progress.observe(&sink.events[before..]);
    }

    /// Marks the current turn ended `how`, unless it was already.
    pub(super) fn end_turn(&mut self, sink: &mut Sink, how: facts::TurnEnd) {
        let Some(turn) = self.turn.filter(|_| !self.progress.ended) else {
            return;
        };
        self.progress.ended = true;
        sink.update(turn, |event| {
            let mut info = facts::turn_info(event).unwrap_or_default();
            if info.ended.is_some() {
                return false;
            }
            info.ended = Some(how);
            facts::set_value(event, facts::TURN, &info)
        });
    }

    fn record(&mut self, sink: &mut Sink, value: &mut Value) {
        if let Some(uuid) = str_at(value, "uuid")
            && !self.seen_uuids.insert(uuid.to_string())
        {
            return; // written twice (a resumed session repeats records)
        }
        let kind = str_at(value, "type").unwrap_or("");
        if matches!(kind, "user" | "assistant") {
            let sidechain = value.get("isSidechain").and_then(Value::as_bool) == Some(true);
            let own = *self.sidechain_file.get_or_insert(sidechain);
            if sidechain && !own {
                // An inline sub-agent's record: counted for the sub-agent, not
                // here; kept for the raw view and handed to its call's card.
                self.inline_sidechain(sink, value, kind);
                sink.opaque(timestamp(value), value);
                return;
            }
        }
        if self.session.is_none() {
            self.session = str_at(value, "sessionId").map(str::to_string);
        }
        if let Some(cwd) = str_at(value, "cwd") {
            sink.set_cwd(cwd);
        }
        let time = timestamp(value);
        match kind {
            "user" => user::record(self, sink, value, time),
            "assistant" => self.assistant(sink, value, time),
            "system" => {
                if str_at(value, "subtype") == Some("turn_duration") {
                    // Written when a turn is over (Claude Code 2.x).
                    self.end_turn(sink, facts::TurnEnd::Completed);
                }
                match hooks::system(value) {
                    Some(Some((level, text))) => sink.notice(time, level, text),
                    Some(None) => sink.opaque(time, value),
                    None => system(sink, value, time),
                }
            }
            "attachment" => {
                let attachment = value.get("attachment").unwrap_or(&Value::Null);
                match hooks::attachment(attachment) {
                    Some((level, text)) => sink.notice(time, level, text),
                    None => sink.opaque(time, value),
                }
            }
            _ => {
                if let Some((slot, key)) = title_slot(kind)
                    && let Some(title) = str_at(value, key)
                {
                    self.titles[slot] = Some(title.to_string());
                }
                sink.opaque(time, value);
            }
        }
    }

    /// Links an inline sidechain record (1.0.x) to the `Task` call whose
    /// prompt its chain's first user text is; a chain no call matches
    /// shows as an "unlinked sub-agent" notice (spec §2.8).
    fn inline_sidechain(&mut self, sink: &mut Sink, value: &Value, kind: &str) {
        let uuid = str_at(value, "uuid").unwrap_or("").to_string();
        let call = match str_at(value, "parentUuid") {
            Some(parent) => match self.chains.get(parent) {
                Some(call) => call.clone(),
                None => return, // its chain's start was never read
            },
            None if kind == "user" => {
                let content = value.get("message").and_then(|m| m.get("content"));
                let prompt = user::text_of(content.unwrap_or(&Value::Null));
                let linked: HashSet<&String> = self.chains.values().flatten().collect();
                let call = self
                    .agent_calls
                    .iter()
                    .filter(|(id, _)| !linked.contains(id))
                    .find(|(_, asked)| asked.trim() == prompt.trim())
                    .map(|(id, _)| id.clone());
                if call.is_none() {
                    let first = prompt.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
                    sink.notice(
                        timestamp(value),
                        "info",
                        format!(
                            "unlinked sub-agent: {} (its records are in the raw view)",
                            first.trim()
                        ),
                    );
                }
                call
            }
            None => None,
        };
        if let Some(call) = &call {
            let mut line = serde_json::to_vec(value).unwrap_or_default();
            line.push(b'\n');
            sink.link(call, SubAgentSource::Lines(line));
        }
        self.chains.insert(uuid, call);
    }

    /// Links the sub-agent of a finished `Task`/`Agent` call to its own file
    /// (2.0.x: `agent-<id>.jsonl` beside the transcript; 2.1.x:
    /// `<session>/subagents/agent-<id>.jsonl`). Ids that could name another
    /// folder are not followed.
    pub(super) fn link_agent_file(&self, sink: &mut Sink, call: &str, result: &Value) {
        let Some(agent) = str_at(result, "agentId").filter(|id| plain_name(id)) else {
            return;
        };
        if !self.agent_calls.contains_key(call) {
            return;
        }
        let mut paths = vec![format!("agent-{agent}.jsonl")];
        if let Some(session) = self.session.as_deref().filter(|s| plain_name(s)) {
            paths.push(format!("{session}/subagents/agent-{agent}.jsonl"));
        }
        sink.link(call, SubAgentSource::File(paths));
    }

    /// Links a `Task`/`Agent` call just made to the file its sub-agent will
    /// write (2.x), found by its prompt while the call runs: the result that
    /// names the file comes only when the sub-agent is done (spec §2.8).
    fn link_running_agent(&self, sink: &mut Sink, call: &str, prompt: &str) {
        if prompt.trim().is_empty() {
            return;
        }
        let mut folders = vec![".".to_string()];
        if let Some(session) = self.session.as_deref().filter(|s| plain_name(s)) {
            folders.push(format!("{session}/subagents"));
        }
        sink.link(
            call,
            SubAgentSource::Prompt {
                folders,
                prompt: prompt.to_string(),
            },
        );
    }

    /// Opens a turn: its `turn_start` carries the turn's usage once known.
    fn open_turn(&mut self, sink: &mut Sink, time: Option<String>) {
        self.turn = Some(sink.push_kind(time, EventKind::TurnStart));
        self.usage.clear();
        self.usage_sum = [0; 4];
    }

    fn assistant(&mut self, sink: &mut Sink, value: &mut Value, time: Option<String>) {
        if value.get("isApiErrorMessage").and_then(Value::as_bool) == Some(true) {
            let content = value.get("message").and_then(|m| m.get("content"));
            let text = user::text_of(content.unwrap_or(&Value::Null));
            sink.notice(time, "error", text);
            return;
        }
        match value.get_mut("message").and_then(|m| m.get_mut("content")) {
            Some(Value::String(text)) => {
                sink.push_kind(time, speech(text));
            }
            Some(Value::Array(blocks)) => {
                for block in blocks {
                    self.block(sink, block, time.clone());
                }
            }
            _ => {
                sink.opaque(time, value);
            }
        }
        self.count_usage(sink, value.get("message").unwrap_or(&Value::Null));
    }

    /// Reads one block of an assistant's message; a call's input is moved
    /// out of it (the record is dropped after: [`Records::record`]).
    fn block(&mut self, sink: &mut Sink, block: &mut Value, time: Option<String>) {
        let kind = match block {
            Value::String(text) => speech(text),
            _ => match str_at(block, "type").unwrap_or("") {
                "text" => speech(str_at(block, "text").unwrap_or("")),
                "thinking" => match str_at(block, "thinking") {
                    Some(text) if !text.trim().is_empty() => {
                        EventKind::ChatResponse(ChatResponse::Reasoning(text.to_string()))
                    }
                    _ => EventKind::ChatResponse(ChatResponse::Reasoning(REASONING_HIDDEN.into())),
                },
                "redacted_thinking" => {
                    EventKind::ChatResponse(ChatResponse::Reasoning(REASONING_HIDDEN.into()))
                }
                "tool_use" | "server_tool_use" => {
                    let id = str_at(block, "id").unwrap_or("").to_string();
                    let name = str_at(block, "name").unwrap_or("tool").to_string();
                    let arguments = block.get_mut("input").map_or(Value::Null, Value::take);
                    if self.calls.is_repeat(&sink.events, &id, &name, &arguments) {
                        return; // the same call written again
                    }
                    self.calls.request(&id, sink.events.len());
                    if matches!(name.as_str(), "Task" | "Agent") {
                        let prompt = str_at(&arguments, "prompt").unwrap_or("");
                        self.agent_calls.insert(id.clone(), prompt.to_string());
                        self.link_running_agent(sink, &id, prompt);
                    }
                    sink.push_call(time, id, name, arguments);
                    return;
                }
                "image" => speech(&image_of(block)),
                other => speech(&format!("[unsupported block: {other}]")),
            },
        };
        if matches!(&kind, EventKind::ChatResponse(ChatResponse::Message(Some(t))) if t.is_empty())
        {
            return;
        }
        sink.push_kind(time, kind);
    }

    /// Counts a response's usage once per `message.id`: its last line's
    /// counts replace the earlier (partial, streaming) ones.
    fn count_usage(&mut self, sink: &mut Sink, message: &Value) {
        let (Some(turn), Some(id), Some(usage)) =
            (self.turn, str_at(message, "id"), message.get("usage"))
        else {
            return;
        };
        let count = |key: &str| usage.get(key).and_then(Value::as_u64).unwrap_or(0);
        let input = count("input_tokens")
            + count("cache_creation_input_tokens")
            + count("cache_read_input_tokens");
        let cache = (
            count("cache_read_input_tokens"),
            count("cache_creation_input_tokens"),
        );
        let counts = [input, count("output_tokens"), cache.0, cache.1];
        let before = match self.usage.get_mut(id) {
            Some(slot) => std::mem::replace(slot, counts),
            None => {
                self.usage.insert(id.to_string(), counts);
                [0; 4]
            }
        };
        for ((sum, count), before) in self.usage_sum.iter_mut().zip(counts).zip(before) {
            // A response's last line counts, not its first: what the
            // earlier line added is taken back. Wrapping, as a sum of
            // absurd counts in a hostile file is: never a panic.
            *sum = sum.wrapping_sub(before).wrapping_add(count);
        }
        if let Some(model) = str_at(message, "model").filter(|m| *m != "<synthetic>") {
            self.model = Some(model.to_string());
        }
        let sum = self.usage_sum;
        let model = &self.model;
        sink.update(turn, |event| {
            facts::edit_turn(event, |info| {
                let counts = sum.map(Some);
                let now = [
                    info.input_tokens,
                    info.output_tokens,
                    info.cache_read_tokens,
                    info.cache_write_tokens,
                ];
                if now == counts && info.model == *model {
                    return false;
                }
                [
                    info.input_tokens,
                    info.output_tokens,
                    info.cache_read_tokens,
                    info.cache_write_tokens,
                ] = counts;
                info.model.clone_from(model);
                true
            })
        });
    }
}

/// The title a record of `kind` gives, as its place among the title
/// candidates (the first that is set wins: custom, ai, summary) and the key
/// that holds it; `None` for a record that gives no title.
fn title_slot(kind: &str) -> Option<(usize, &'static str)> {
    match kind {
        "custom-title" => Some((0, "customTitle")),
        "ai-title" => Some((1, "aiTitle")),
        "summary" => Some((2, "summary")),
        _ => None,
    }
}

/// Whether `name` is a plain file-name part (letters, digits, `-`, `_`):
/// an id from the transcript that may be put in a path.
fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Assistant speech.
fn speech(text: &str) -> EventKind {
    EventKind::ChatResponse(ChatResponse::Message(Some(text.to_string())))
}

/// An image block's placeholder (its base64 is never kept in an event).
fn image_of(block: &Value) -> String {
    let source = block.get("source").unwrap_or(&Value::Null);
    image_placeholder(
        str_at(source, "media_type"),
        str_at(source, "data").map(str::len),
    )
}

/// A `system` record: the ones a user should see become notices (spec §2.2),
/// the rest stay for the raw view.
fn system(sink: &mut Sink, value: &Value, time: Option<String>) {
    let content = str_at(value, "content").unwrap_or("");
    let level = str_at(value, "level").unwrap_or("");
    match str_at(value, "subtype") {
        Some("api_error") => {
            let error = value.get("error").map_or(String::new(), |e| match e {
                Value::String(s) => s.clone(),
                other => str_at(other, "message")
                    .map(str::to_string)
                    .unwrap_or_else(|| other.to_string()),
            });
            let retry = match (
                value.get("retryAttempt").and_then(Value::as_u64),
                value.get("maxRetries").and_then(Value::as_u64),
            ) {
                (Some(n), Some(max)) => format!(" (retry {n} of {max})"),
                _ => String::new(),
            };
            sink.notice(time, "error", format!("API error: {error}{retry}"));
        }
        Some("compact_boundary") => {
            let meta = value.get("compactMetadata").unwrap_or(&Value::Null);
            let trigger = str_at(meta, "trigger").unwrap_or("manual");
            let text = match meta.get("preTokens").and_then(Value::as_u64) {
                Some(tokens) => format!("context compacted ({trigger}, {}k tokens)", tokens / 1000),
                None => format!("context compacted ({trigger})"),
            };
            sink.notice(time, "info", text);
        }
        // Written when the user comes back: a recap, not a step of the turn.
        Some("away_summary") => sink.notice(time, facts::NOTE, content.to_string()),
        _ if matches!(level, "warning" | "error") && !content.is_empty() => {
            sink.notice(time, level, content.to_string());
        }
        _ => {
            sink.opaque(time, value);
        }
    }
}

/// A tool result's content: its text parts joined, images as placeholders.
fn result_content(content: Option<&Value>) -> Content {
    match content {
        Some(Value::String(text)) => Content::Text(text.clone()),
        Some(Value::Array(parts)) => {
            let texts: Vec<String> = parts
                .iter()
                .map(|part| match part {
                    Value::String(text) => text.clone(),
                    _ => match str_at(part, "type") {
                        Some("text") => str_at(part, "text").unwrap_or("").to_string(),
                        Some("image") => image_of(part),
                        Some(other) => format!("[{other}]"),
                        None => part.to_string(),
                    },
                })
                .collect();
            Content::Text(texts.join("\n"))
        }
        Some(Value::Null) | None => Content::Text(String::new()),
        Some(other) => Content::Text(other.to_string()),
    }
}

#[cfg(test)]
mod tests;
