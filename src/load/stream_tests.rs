use std::sync::Arc;

use super::*;
use crate::redact::Redactor;

const SECRET: &str = "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789";

/// The events as text, to look for a string anywhere in them.
fn events_text(live: &Live) -> String {
    format!("{:?}", live.conversation.events)
}

#[test]
fn a_jp_array_arriving_on_a_stream_after_redact_is_redacted() {
    // The viewer sets the redactor first, then pushes stdin's bytes as they come.
    let mut live = Live::stream(PathBuf::from("-"));
    live.redact_with(Arc::new(Redactor::builtin().unwrap()));
    let events = format!(
        r#"[{{"timestamp":"2025-01-01T00:00:00Z","type":"chat_request","content":"my token is {SECRET}"}}]"#
    );
    let (head, tail) = events.as_bytes().split_at(20);
    assert_eq!(live.push_stream(head, false).unwrap(), Refresh::Unchanged);
    assert_eq!(live.push_stream(tail, true).unwrap(), Refresh::Reloaded);
    assert!(live.is_jp());
    let text = events_text(&live);
    assert!(text.contains("my token is"), "{text}");
    assert!(!text.contains(SECRET), "{text}");
    assert!(text.contains("[redacted"), "{text}");
}

#[test]
fn an_eve_stream_cut_reads_like_the_stream_up_to_there() {
    let lines = [
        r#"{"type":"session.started","sessionId":"s","at":"2025-01-01T00:00:00Z"}"#,
        r#"not json"#,
    ];
    let bytes = format!("{}\n{}\n", lines[0], lines[1]);
    let first = Live::stream_cut(
        PathBuf::from("s.jsonl"),
        &bytes.as_bytes()[..lines[0].len() + 1],
    );
    assert!(first.warnings.is_empty(), "{:?}", first.warnings);
    let whole = Live::stream_cut(PathBuf::from("s.jsonl"), bytes.as_bytes());
    assert_eq!(whole.warnings.len(), 1, "{:?}", whole.warnings);
    assert!(
        whole.warnings[0].starts_with("s.jsonl: line 2"),
        "{:?}",
        whole.warnings
    );
}
