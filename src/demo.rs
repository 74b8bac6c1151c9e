//! The bundled conversation of `overhear demo`, stored as JP stores it.
//!
//! The conversation lives in `demo/` as readable JSON (plain strings, no
//! base64). [`stored`] gives it as JP would have written it, which the demo
//! replays through the JP reader like any `events.json`. For tests,
//! `Player` writes it into a folder exactly the way JP persists a live
//! conversation (`spec/jp-format.md` §2–§3), so the viewer can follow it
//! through the same locate → watch → read path as a real `jp query`:
//!
//! * strings are stored as JP stores them: STANDARD base64 of every string
//!   leaf of `tool_call_request.arguments` and of every event's `metadata`, of
//!   a string `tool_call_response.content` (block arrays are left as they
//!   are), and `rendered_arguments` encoded twice;
//! * every write is a full rewrite of `metadata.json`, `base_config.json` and
//!   `events.json`, in that order, each pretty-printed with two-space indent
//!   and a trailing newline, written to `<file>.tmp` and renamed over the
//!   target, and skipped when the bytes are unchanged;
//! * events land in JP's bursts: turn start (`turn_start` + `chat_request`),
//!   end of a model response (its `chat_response`s and `tool_call_request`s),
//!   end of a tool batch (its `tool_call_response`s); the generated title
//!   arrives in `metadata.json` after the first burst.
//!
//! It is a writer for the demo only; overhear itself never writes to the
//! conversations it reads.

use std::io;
#[cfg(test)]
use std::path::{Path, PathBuf};
#[cfg(test)]
use std::time::Duration;
#[cfg(test)]
use std::{fs, thread};

use base64_simd::STANDARD;
use serde_json::Value;

#[cfg(test)]
use crate::source::conversation::{BASE_CONFIG, EVENTS, METADATA};

/// The demo events, readable (strings decoded).
const EVENTS_JSON: &str = include_str!("../demo/events.json");
/// The demo's `base_config.json`: tool styles for `"*"` and a few tools.
const BASE_CONFIG_JSON: &str = include_str!("../demo/base_config.json");
/// The demo's final `metadata.json` (with the title).
const METADATA_JSON: &str = include_str!("../demo/metadata.json");

/// Folder name JP would give the demo conversation (its id), for callers
/// that make a conversations folder around it.
pub const DIR_NAME: &str = "17803916431";

/// Event kinds whose fields JP base64-encodes on save.
const KNOWN_KINDS: [&str; 7] = [
    "turn_start",
    "chat_request",
    "chat_response",
    "tool_call_request",
    "tool_call_response",
    "inquiry_request",
    "inquiry_response",
];

/// The bundled conversation as JP stores it.
#[derive(Debug, Clone)]
pub struct Bundled {
    /// `events.json`: every string JP encodes, encoded.
    pub events: Vec<u8>,
    /// `base_config.json`.
    pub base_config: &'static str,
    /// The title of its `metadata.json`.
    pub title: Option<String>,
}

/// The bundled conversation as JP would have stored it.
pub fn stored() -> io::Result<Bundled> {
    let events: Vec<Value> = parse_bundled("events.json", EVENTS_JSON)?;
    let stored = Value::Array(events.into_iter().map(encode_event).collect());
    let metadata: Value = parse_bundled("metadata.json", METADATA_JSON)?;
    Ok(Bundled {
        events: serde_json::to_vec_pretty(&stored).map_err(io::Error::other)?,
        base_config: BASE_CONFIG_JSON,
        title: metadata
            .get("title")
            .and_then(Value::as_str)
            .map(String::from),
    })
}

/// Writes the demo conversation into a folder, one JP burst per step.
#[cfg(test)]
#[derive(Debug)]
pub struct Player {
    dir: PathBuf,
    /// Events as JP stores them (encoded).
    stored: Vec<Value>,
    /// End (exclusive) of each burst in `stored`.
    bursts: Vec<usize>,
    base_config: Value,
    /// `metadata.json` before the title arrives.
    untitled: Value,
    metadata: Value,
    next: usize,
}

#[cfg(test)]
impl Player {
    /// A player that will write into `dest` (made if missing). Writes nothing
    /// yet: call [`Player::step`] once before pointing a viewer at `dest`, so
    /// there is a conversation to open.
    pub fn new(dest: &Path) -> io::Result<Player> {
        let events: Vec<Value> = parse_bundled("events.json", EVENTS_JSON)?;
        let base_config: Value = parse_bundled("base_config.json", BASE_CONFIG_JSON)?;
        let metadata: Value = parse_bundled("metadata.json", METADATA_JSON)?;
        let mut untitled = metadata.clone();
        if let Some(object) = untitled.as_object_mut() {
            object.remove("title");
        }
        fs::create_dir_all(dest)?;
        Ok(Player {
            dir: dest.to_path_buf(),
            bursts: bursts(&events),
            stored: events.into_iter().map(encode_event).collect(),
            base_config,
            untitled,
            metadata,
            next: 0,
        })
    }

    /// The conversation folder being written.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// How many bursts the whole conversation takes.
    pub fn burst_count(&self) -> usize {
        self.bursts.len()
    }

    /// Whether every burst has been written.
    pub fn is_finished(&self) -> bool {
        self.next >= self.bursts.len()
    }

    /// Writes the next burst; `false` when there was none left.
    pub fn step(&mut self) -> io::Result<bool> {
        let Some(&end) = self.bursts.get(self.next) else {
            return Ok(false);
        };
        let metadata = if self.next == 0 {
            &self.untitled
        } else {
            &self.metadata
        };
        write_json(&self.dir.join(METADATA), metadata)?;
        write_json(&self.dir.join(BASE_CONFIG), &self.base_config)?;
        write_json(
            &self.dir.join(EVENTS),
            &Value::Array(self.stored[..end].to_vec()),
        )?;
        self.next += 1;
        Ok(true)
    }

    /// Writes the remaining bursts, `pace` apart (the first one at once).
    pub fn run(mut self, pace: Duration) -> io::Result<()> {
        let mut first = true;
        while !self.is_finished() {
            if !first {
                thread::sleep(pace);
            }
            first = false;
            self.step()?;
        }
        Ok(())
    }
}

/// Plays the whole demo into `dest`, `pace` between bursts.
#[cfg(test)]
pub fn play(dest: &Path, pace: Duration) -> io::Result<()> {
    Player::new(dest)?.run(pace)
}

fn parse_bundled<T: serde::de::DeserializeOwned>(name: &str, text: &str) -> io::Result<T> {
    serde_json::from_str(text).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("bundled demo/{name}: {e}"),
        )
    })
}

/// Which write of a live turn an event lands in.
#[cfg(test)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// `turn_start` + `chat_request` (and config deltas just before).
    TurnStart,
    /// A provider response: its text, reasoning and tool calls.
    ModelResponse,
    /// A tool batch: its responses and the inquiries asked meanwhile.
    ToolBatch,
}

#[cfg(test)]
fn phase(event: &Value) -> Phase {
    match event.get("type").and_then(Value::as_str) {
        Some("config_delta" | "turn_start" | "chat_request") => Phase::TurnStart,
        Some("chat_response" | "tool_call_request") => Phase::ModelResponse,
        _ => Phase::ToolBatch,
    }
}

/// End (exclusive) of each maximal run of events in the same phase.
#[cfg(test)]
fn bursts(events: &[Value]) -> Vec<usize> {
    let mut ends = Vec::new();
    for i in 1..=events.len() {
        if i == events.len() || phase(&events[i]) != phase(&events[i - 1]) {
            ends.push(i);
        }
    }
    ends
}

/// An event as JP stores it (`encode_event`): base64 on the fields JP encodes.
fn encode_event(mut event: Value) -> Value {
    let kind = event
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    if !KNOWN_KINDS.contains(&kind.as_str()) {
        return event;
    }
    if kind == "tool_call_request"
        && let Some(arguments) = event.get_mut("arguments")
    {
        encode_leaves(arguments);
    }
    if kind == "tool_call_response"
        && let Some(Value::String(content)) = event.get_mut("content")
    {
        *content = STANDARD.encode_to_string(content.as_bytes());
    }
    if let Some(metadata) = event.get_mut("metadata") {
        // JP base64s the formatter output in memory before storage encodes it again.
        if let Some(Value::String(rendered)) = metadata.get_mut("rendered_arguments") {
            *rendered = STANDARD.encode_to_string(rendered.as_bytes());
        }
        encode_leaves(metadata);
    }
    event
}

/// Base64-encodes every string leaf; keys, numbers, bools and null stay.
fn encode_leaves(value: &mut Value) {
    match value {
        Value::String(text) => *text = STANDARD.encode_to_string(text.as_bytes()),
        Value::Array(items) => items.iter_mut().for_each(encode_leaves),
        Value::Object(map) => map.values_mut().for_each(encode_leaves),
        _ => {}
    }
}

/// JP's `write_json`: pretty JSON plus a newline, skipped when unchanged,
/// else written to `<file>.tmp` and renamed over `<file>`.
#[cfg(test)]
fn write_json(path: &Path, value: &Value) -> io::Result<()> {
    let mut bytes = serde_json::to_vec_pretty(value).map_err(io::Error::other)?;
    bytes.push(b'\n');
    if fs::read(path).is_ok_and(|existing| existing == bytes) {
        return Ok(());
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    fs::write(&tmp, &bytes)?;
    fs::rename(&tmp, path)
}

#[cfg(test)]
#[path = "demo_tests.rs"]
mod tests;
