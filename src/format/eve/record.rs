//! Classifying one parsed line (eve-format §0): transport record, generation A
//! event, v27 commit or v27 progress record.

use serde_json::Value;

use crate::model::StreamPiece;

/// What one stored line is.
pub(super) enum Record<'a> {
    /// `{"$eve": …}`: never stored; `next` is a position marker's next line.
    Transport { next: Option<usize> },
    /// Generation A (v16–v26): one event `{type, data?, meta}`.
    Event,
    /// v27 commit: `{at, facts: […]}`.
    Commit { at: &'a str, facts: &'a [Value] },
    /// v27 progress record: `{progress: {…}}`.
    Progress(&'a Value),
    /// Anything else, with the reason.
    Invalid(&'static str),
}

/// Tells the kinds of line apart by key, as eve's `classifyRecord` does.
pub(super) fn classify(value: &Value) -> Record<'_> {
    let Some(map) = value.as_object() else {
        return Record::Invalid("not a JSON object");
    };
    if map.get("$eve").is_some_and(Value::is_string) {
        let next = map
            .get("next")
            .and_then(Value::as_u64)
            .and_then(|n| usize::try_from(n).ok());
        return Record::Transport { next };
    }
    if let (Some(Value::Array(facts)), Some(Value::String(at))) = (map.get("facts"), map.get("at"))
    {
        return Record::Commit { at, facts };
    }
    if let Some(progress @ Value::Object(_)) = map.get("progress") {
        return Record::Progress(progress);
    }
    if map.get("type").is_some_and(Value::is_string) {
        return Record::Event;
    }
    Record::Invalid("not an eve event (no type, facts or progress)")
}

/// The piece of streamed text a stored line holds, if any: a generation A
/// `message.appended` / `reasoning.appended` / `action.input.appended`
/// delta (on its own or inside a v27 progress record), a v27
/// `content.delta` or `call.input`. Pieces of one text share a key (its
/// kind, turn and step, its part or its call), as the builder joins them.
pub(super) fn stream_piece(value: &Value) -> Option<StreamPiece> {
    let (record, inside) = match value.get("progress") {
        Some(progress @ Value::Object(_)) => (progress, true),
        _ => (value, false),
    };
    let kind = record.get("type")?.as_str()?;
    let data = record.get("data")?;
    let str_of = |key: &str| data.get(key).and_then(Value::as_str);
    let (key, field) = match kind {
        "message.appended" | "reasoning.appended" => {
            let field = if kind == "message.appended" {
                "messageDelta"
            } else {
                "reasoningDelta"
            };
            str_of(field)?;
            let step = data.get("stepIndex").and_then(Value::as_i64);
            let key = format!("{kind}/{}/{step:?}", str_of("turnId").unwrap_or(""));
            (key, field)
        }
        "action.input.appended" => (format!("input:{}", str_of("callId")?), "inputTextDelta"),
        "content.delta" => (format!("part:{}", str_of("partId")?), "delta"),
        "call.input" => (format!("input:{}", str_of("callId")?), "delta"),
        _ => return None,
    };
    let pointer = match (inside, field) {
        (false, "messageDelta") => "/data/messageDelta",
        (false, "reasoningDelta") => "/data/reasoningDelta",
        (false, "inputTextDelta") => "/data/inputTextDelta",
        (false, _) => "/data/delta",
        (true, "messageDelta") => "/progress/data/messageDelta",
        (true, "reasoningDelta") => "/progress/data/reasoningDelta",
        (true, "inputTextDelta") => "/progress/data/inputTextDelta",
        (true, _) => "/progress/data/delta",
    };
    Some(StreamPiece { key, pointer })
}

/// Fact and progress types of the v27 vocabulary that the v26 vocabulary does
/// not also use (`session.started`, `turn.started`, `task.started` and
/// `task.ended` exist in both and are read by one handler that takes either shape).
pub(super) fn is_v27_only(kind: &str) -> bool {
    matches!(
        kind,
        "session.ended"
            | "delivery.admitted"
            | "delivery.consumed"
            | "delivery.settled"
            | "turn.paused"
            | "turn.resumed"
            | "turn.settled"
            | "model.requested"
            | "model.started"
            | "model.settled"
            | "content.completed"
            | "content.delta"
            | "call.requested"
            | "call.started"
            | "call.settled"
            | "call.input"
            | "call.progress"
            | "interaction.opened"
            | "interaction.settled"
            | "response.submitted"
            | "response.admitted"
            | "response.settled"
            | "child.opened"
            | "context.started"
            | "context.settled"
            | "usage.recorded"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn classifies_every_shape() {
        assert!(matches!(
            classify(&json!({"$eve": "position", "next": 7})),
            Record::Transport { next: Some(7) }
        ));
        assert!(matches!(
            classify(&json!({"$eve": "heartbeat"})),
            Record::Transport { next: None }
        ));
        assert!(matches!(
            classify(&json!({"at": "t", "facts": []})),
            Record::Commit { at: "t", .. }
        ));
        assert!(matches!(
            classify(&json!({"progress": {"type": "content.delta"}})),
            Record::Progress(_)
        ));
        assert!(matches!(
            classify(&json!({"type": "turn.started", "meta": {}})),
            Record::Event
        ));
        assert!(matches!(classify(&json!([1])), Record::Invalid(_)));
        assert!(matches!(classify(&json!({"x": 1})), Record::Invalid(_)));
    }
}
