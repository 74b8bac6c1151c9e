//! The row records `source::opencode` makes of an OpenCode store, one JSON
//! object per line, and what this reader takes from each.
//!
//! Every record names its table under [`ROW_KEY`]:
//!
//! * `{"opencode": "session", "id", "parent_id", "title", "directory",
//!   "version", "time_created", "time_updated", "parent_title"}`
//!   from the `session` table (columns as stored), or `{"opencode":
//!   "session", "id", "data"}` from a legacy `storage/session/…/<id>.json`
//!   file, whose text is `data`. `parent_title` is the parent's title, for a
//!   sub-agent's session opened alone.
//! * `{"opencode": "message", "id", "session_id", "time_created",
//!   "time_updated", "timestamp", "data"}`: a `message` row, `data` its JSON
//!   text as stored (spec §5.3).
//! * `{"opencode": "part", "id", "message_id", "session_id", …, "data"}`: a
//!   `part` row (spec §5.4).
//!
//! `data` stays a string, parsed here: the source copies stored text and
//! never parses it, and a row whose text is not JSON is one skipped row, not
//! a broken line. Legacy rows carry no times of their own; a record's time is
//! then read from its `data` (`time.created`, `time.start`).

use serde_json::Value;

use super::super::transcript::{Sink, str_at};
use crate::model::bounded_value;

/// The key every row record carries: the table it comes from (`session`,
/// `message` or `part`; `format::detect::line_format` tells the format by it).
pub const ROW_KEY: &str = "opencode";


/// The row's `data`, parsed; a row without it, or whose text is not JSON,
/// is reported as skipped.
pub(super) fn data(sink: &mut Sink, value: &Value) -> Option<Value> {
    let table = str_at(value, ROW_KEY).unwrap_or("row");
    let id = str_at(value, "id").unwrap_or("?");
    let Some(text) = str_at(value, "data") else {
        sink.skipped(format!("{table} {id}: no data"));
        return None;
    };
    match bounded_value::from_slice(text.as_bytes()) {
        Ok(bounded) if bounded.value.is_object() => {
            if bounded.cut > 0 {
                let warning = bounded_value::warning(bounded.cut);
                sink.skipped(format!("{table} {id}: its data: {warning}"));
            }
            Some(bounded.value)
        }
        Ok(_) => {
            sink.skipped(format!("{table} {id}: data is not a JSON object"));
            None
        }
        Err(error) => {
            let problem = crate::problem::json_problem(&error, "its data");
            sink.skipped(format!("{table} {id}: {problem}"));
            None
        }
    }
}

/// Milliseconds since the epoch as RFC 3339.
pub(super) fn millis(ms: i64) -> Option<String> {
    jiff::Timestamp::from_millisecond(ms)
        .ok()
        .map(|t| t.to_string())
}

/// A record's time: the row's `time_created`, else its data's
/// `time.created` or `time.start`.
pub(super) fn time(value: &Value, data: &Value) -> Option<String> {
    let stored = value.get("time_created").and_then(Value::as_i64);
    let inner = || {
        let time = data.get("time")?;
        time.get("created")
            .or_else(|| time.get("start"))
            .and_then(Value::as_i64)
    };
    stored.or_else(inner).and_then(millis)
}

/// What a session record says.
#[derive(Debug, Default)]
pub(super) struct Session {
    pub(super) id: Option<String>,
    pub(super) parent: Option<String>,
    pub(super) title: Option<String>,
    pub(super) parent_title: Option<String>,
}

impl Session {
    /// Reads a session record: columns, or a legacy file's text.
    pub(super) fn read(sink: &mut Sink, value: &Value) -> Session {
        let text = |v: &Value, key: &str| str_at(v, key).map(str::to_string);
        let mut session = Session {
            id: text(value, "id"),
            parent: text(value, "parent_id"),
            title: text(value, "title"),
            parent_title: text(value, "parent_title"),
        };
        if value.get("data").is_some()
            && let Some(data) = data(sink, value)
        {
            session.id = session.id.or_else(|| text(&data, "id"));
            session.parent = session.parent.or_else(|| text(&data, "parentID"));
            session.title = session.title.or_else(|| text(&data, "title"));
        }
        session
    }
}

/// An assistant message's `error` (`{name, data}`) as a notice: its level
/// and text. An abort is a warning; anything else an error.
pub(super) fn error_text(error: &Value) -> (&'static str, String) {
    let name = str_at(error, "name").unwrap_or("error");
    let message = error
        .get("data")
        .and_then(|d| str_at(d, "message"))
        .or_else(|| str_at(error, "message"));
    let level = if name == "MessageAbortedError" {
        "warning"
    } else {
        "error"
    };
    let text = match message {
        Some(message) if !message.trim().is_empty() => format!("{name}: {message}"),
        _ => name.to_string(),
    };
    (level, text)
}
