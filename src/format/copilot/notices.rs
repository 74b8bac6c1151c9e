//! The texts a Copilot CLI log's events show as: notices (errors, warnings,
//! compaction, truncation, rewinds, clears, failed hooks, sub-agent
//! failures, the usage of `session.shutdown`), attachment chips and tool
//! results (spec agent-transcripts-2 §3.3, §3.5, §3.8, §3.9).

use serde_json::Value;

use super::super::transcript::{image_placeholder, str_at};

/// The notice an event of `kind` shows as (level, text), when it shows as one.
pub(super) fn notice(kind: &str, data: &Value) -> Option<(&'static str, String)> {
    let count = |key: &str| data.get(key).and_then(Value::as_u64);
    let text = match kind {
        "session.warning" => {
            let message = str_at(data, "message").unwrap_or("warning");
            return Some(("warning", message.to_string()));
        }
        "session.compaction_complete" => {
            if data.get("success").and_then(Value::as_bool) == Some(false) {
                let why = str_at(data, "error").unwrap_or("no reason given");
                return Some(("warning", format!("context compaction failed: {why}")));
            }
            let mut parts = Vec::new();
            if let Some(trigger) = str_at(data, "trigger") {
                parts.push(trigger.to_string());
            }
            if let (Some(before), Some(after)) =
                (count("preCompactionTokens"), count("postCompactionTokens"))
            {
                parts.push(format!("{}k → {}k tokens", before / 1000, after / 1000));
            }
            if parts.is_empty() {
                "context compacted".to_string()
            } else {
                format!("context compacted ({})", parts.join(", "))
            }
        }
        "session.truncation" => {
            let messages = count("messagesRemovedDuringTruncation").unwrap_or(0);
            let tokens = count("tokensRemovedDuringTruncation").unwrap_or(0);
            format!(
                "older messages dropped from the model's context ({messages} messages, {tokens} tokens)"
            )
        }
        "session.context_cleared" => {
            let messages = count("messagesCleared").unwrap_or(0);
            format!("context cleared ({messages} messages): what follows starts afresh")
        }
        "hook.end" if data.get("success").and_then(Value::as_bool) == Some(false) => {
            let hook = str_at(data, "hookType").unwrap_or("hook");
            let why = data
                .get("error")
                .and_then(|e| str_at(e, "message").or_else(|| e.as_str()))
                .unwrap_or("failed");
            return Some(("warning", format!("hook {hook} failed: {why}")));
        }
        "subagent.failed" => {
            let name = str_at(data, "agentDisplayName")
                .or_else(|| str_at(data, "agentName"))
                .unwrap_or("sub-agent");
            let why = str_at(data, "error").unwrap_or("failed");
            return Some(("warning", format!("sub-agent {name} failed: {why}")));
        }
        _ => return None,
    };
    Some(("info", text))
}

/// A `session.error`'s notice: its message, with its HTTP status.
pub(super) fn error(data: &Value) -> String {
    let message = str_at(data, "message").unwrap_or("error");
    match data.get("statusCode").and_then(Value::as_u64) {
        Some(code) if !message.contains(&code.to_string()) => format!("{message} (HTTP {code})"),
        _ => message.to_string(),
    }
}

/// A `session.snapshot_rewind`'s notice, naming the prompt it went back
/// before when the log holds it.
pub(super) fn rewind(data: &Value, prompt: Option<&str>) -> String {
    let removed = data.get("eventsRemoved").and_then(Value::as_u64).unwrap_or(0);
    let first = prompt.and_then(|p| p.lines().map(str::trim).find(|l| !l.is_empty()));
    match first {
        Some(line) => format!(
            "rewound to before \"{}\": {removed} events undone (they stay shown above)",
            cut(line, 80)
        ),
        None => format!("rewound: {removed} events undone (they stay shown above)"),
    }
}

/// The usage a `session.shutdown` rolls up, one line per model: requests,
/// input (with cache reads and writes) and output tokens. No cost: Copilot
/// bills premium requests, not currency (spec §3.9).
pub(super) fn usage(data: &Value) -> Vec<String> {
    let Some(models) = data.get("modelMetrics").and_then(Value::as_object) else {
        return Vec::new();
    };
    models
        .iter()
        .map(|(model, metrics)| {
            let usage = metrics.get("usage").unwrap_or(&Value::Null);
            let count = |key: &str| usage.get(key).and_then(Value::as_u64).unwrap_or(0);
            let requests = metrics
                .get("requests")
                .and_then(|r| r.get("count"))
                .and_then(Value::as_u64)
                .unwrap_or(0);
            let (read, write) = (count("cacheReadTokens"), count("cacheWriteTokens"));
            let cache = match (read, write) {
                (0, 0) => String::new(),
                (r, 0) => format!(" ({r} cache read)"),
                (r, w) => format!(" ({r} cache read, {w} cache write)"),
            };
            format!(
                "session usage, {model}: {requests} requests · {} in{cache} / {} out tokens",
                count("inputTokens"),
                count("outputTokens")
            )
        })
        .collect()
}

/// An attachment of a prompt as a compact chip: `[attached: main.rs]`.
pub(super) fn attachment(value: &Value) -> String {
    let kind = str_at(value, "type").unwrap_or("attachment");
    let name = ["displayName", "path", "url", "title", "number"]
        .iter()
        .find_map(|key| match value.get(*key) {
            Some(Value::String(text)) if !text.is_empty() => Some(text.clone()),
            Some(Value::Number(n)) => Some(format!("#{n}")),
            _ => None,
        });
    match (kind, name) {
        ("blob", _) => image_placeholder(str_at(value, "mimeType"), None),
        (_, Some(name)) => format!("[attached {kind}: {name}]"),
        (_, None) => format!("[attached {kind}]"),
    }
}

/// A successful call's result as shown: the full display form
/// (`detailedContent`, diffs) when there is one — unless `diffed`, the card
/// showing the diff already — else what the model saw (`content`), else its
/// typed blocks, binary ones as placeholders.
pub(super) fn result_text(result: &Value, diffed: bool) -> String {
    let keys: &[&str] = if diffed {
        &["content", "detailedContent"]
    } else {
        &["detailedContent", "content"]
    };
    for key in keys {
        if let Some(text) = str_at(result, key).filter(|t| !t.is_empty()) {
            return text.to_string();
        }
    }
    let blocks = result.get("contents").and_then(Value::as_array);
    let texts: Vec<String> = blocks
        .into_iter()
        .flatten()
        .map(|block| match str_at(block, "type") {
            Some("text" | "terminal") => str_at(block, "text").unwrap_or("").to_string(),
            Some("image") => image_placeholder(
                str_at(block, "mimeType"),
                str_at(block, "data").map(str::len),
            ),
            Some(other) => format!("[{other}]"),
            None => String::new(),
        })
        .filter(|t| !t.is_empty())
        .collect();
    match (texts.is_empty(), result) {
        (false, _) => texts.join("\n"),
        (true, Value::String(text)) => text.clone(),
        _ => String::new(),
    }
}

/// `text` cut to at most `max` characters, with `…` when cut.
pub(super) fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}
