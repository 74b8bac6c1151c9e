//! The bundled conversation of `overhear demo`, stored as JP stores it.
//!
//! The conversation lives in `demo/` as readable JSON (plain strings, no
//! base64). [`stored`] gives it as JP would have written it
//! (`spec/jp-format.md` §2), which the demo replays through the JP reader
//! like any `events.json` (`travel::Recording::from_jp`): strings are
//! stored as JP stores them, STANDARD base64 of every string leaf of
//! `tool_call_request.arguments` and of every event's `metadata`, of a
//! string `tool_call_response.content` (block arrays are left as they are),
//! and `rendered_arguments` encoded twice; the array is pretty-printed with
//! two-space indent, as JP writes it.
//!
//! Nothing is written to disk: overhear never writes to the conversations it
//! reads.

use std::io;

use base64_simd::STANDARD;
use serde_json::Value;

/// The demo events, readable (strings decoded).
const EVENTS_JSON: &str = include_str!("../demo/events.json");
/// The demo's `base_config.json`: tool styles for `"*"` and a few tools.
const BASE_CONFIG_JSON: &str = include_str!("../demo/base_config.json");
/// The demo's final `metadata.json` (with the title).
const METADATA_JSON: &str = include_str!("../demo/metadata.json");

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

fn parse_bundled<T: serde::de::DeserializeOwned>(name: &str, text: &str) -> io::Result<T> {
    serde_json::from_str(text).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("bundled demo/{name}: {e}"),
        )
    })
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

#[cfg(test)]
mod tests;
