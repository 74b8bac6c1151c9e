//! What a Copilot CLI log's first line says without reading the log: the
//! folder the session ran in (`session.start.data.context.cwd`), for
//! finding the sessions of a folder (spec agent-transcripts-2 §3.1).

#[cfg(feature = "cli")]
use serde_json::Value;

/// The `cwd` of the `session.start` event on the first line of `head` (a
/// log's first bytes); `None` when the first line is not one, or is cut
/// short by the head's end (it does not parse).
#[cfg(feature = "cli")]
pub fn session_cwd(head: &[u8]) -> Option<String> {
    let start = head.iter().position(|b| !b.is_ascii_whitespace())?;
    let line = &head[start..];
    let line = match line.iter().position(|&b| b == b'\n') {
        Some(end) => &line[..end],
        None => line,
    };
    let record: Value =
        serde_json::from_slice(&super::super::surrogates::repaired(line).0).ok()?;
    if record.get("type").and_then(Value::as_str) != Some("session.start") {
        return None;
    }
    record
        .get("data")?
        .get("context")?
        .get("cwd")?
        .as_str()
        .map(str::to_owned)
}
