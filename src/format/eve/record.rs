//! Classifying one parsed line (eve-format §0): transport record, generation A
//! event, v27 commit or v27 progress record.

use serde_json::Value;

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
