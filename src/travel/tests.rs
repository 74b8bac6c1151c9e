use super::*;

/// A recording of the eve stream `text`, written to a temporary file.
fn eve(text: &str) -> (tempfile::TempDir, Recording) {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("s.ndjson");
    std::fs::write(&path, text).unwrap();
    let recording = Recording::open(Some(path.to_str().unwrap())).unwrap();
    (tmp, recording)
}

fn line(id: u32, at: Option<&str>, kind: &str, data: &str) -> String {
    let meta = match at {
        Some(at) => format!(r#"{{"id":"evt-{id}","at":"{at}"}}"#),
        None => format!(r#"{{"id":"evt-{id}"}}"#),
    };
    format!(r#"{{"type":"{kind}","data":{data},"meta":{meta}}}"#)
}

fn stream() -> String {
    [
        line(1, Some("2026-02-01T10:00:01Z"), "session.started", "{}"),
        line(
            2,
            Some("2026-02-01T10:00:02Z"),
            "turn.started",
            r#"{"sequence":0,"turnId":"t"}"#,
        ),
        String::new(),
        line(
            3,
            None,
            "message.received",
            r#"{"message":"hello","sequence":0,"turnId":"t"}"#,
        ),
        line(
            4,
            Some("2026-02-01T10:00:05Z"),
            "message.received",
            r#"{"message":"again","sequence":0,"turnId":"t"}"#,
        ),
    ]
    .join("\n")
}

#[test]
fn eve_steps_are_lines_blank_ones_and_an_unterminated_last_one_included() {
    let (_tmp, recording) = eve(&stream());
    assert_eq!(recording.len(), 5);
    assert_eq!(recording.unit(), "line");
    // The blank line and the line without a time take the time before them.
    let t = |n| recording.time(n);
    assert_eq!(t(3), t(2));
    assert_eq!(t(4), t(2));
    assert!(t(5) > t(4));
    assert_eq!(recording.state(0).conversation.events.len(), 0);
    let said = |n: usize| {
        let state = recording.state(n);
        serde_json::to_string(
            &state
                .conversation
                .view(crate::model::View::Raw)
                .to_vec()
                .iter()
                .map(Event::to_json)
                .collect::<Vec<_>>(),
        )
        .unwrap()
    };
    assert!(!said(3).contains("hello"));
    assert!(said(4).contains("hello"));
    assert!(!said(4).contains("again"));
    assert!(said(5).contains("again"));
}

#[test]
fn a_time_keeps_the_steps_up_to_the_first_later_one() {
    let (_tmp, recording) = eve(&stream());
    let at = |text: &str| recording.steps_at(&At::time(text).unwrap());
    assert_eq!(at("2026-02-01T10:00:01Z").unwrap(), 1);
    // Lines 3 and 4 carry no later time: they go with line 2.
    assert_eq!(at("2026-02-01T10:00:02Z").unwrap(), 4);
    assert_eq!(at("2026-02-01T10:00:04.999Z").unwrap(), 4);
    assert_eq!(at("2026-02-01T12:00:05+02:00").unwrap(), 5);
    assert_eq!(at("2030-01-01T00:00:00Z").unwrap(), 5);
    let before = at("2026-02-01T10:00:00Z").unwrap_err().to_string();
    assert!(
        before.ends_with(
            "--at 2026-02-01T10:00:00Z is before the conversation's first line (2026-02-01T10:00:01Z)"
        ),
        "{before}"
    );
    let past = recording.steps_at(&At::Event(6)).unwrap_err().to_string();
    assert!(
        past.ends_with("stream has 5 lines; --at-event 6 is out of range (1..=5)"),
        "{past}"
    );
}

#[test]
fn a_stream_without_times_cannot_be_cut_at_one() {
    let (_tmp, recording) = eve(&format!("{}\n", line(1, None, "session.started", "{}")));
    let error = recording
        .steps_at(&At::time("2026-02-01T10:00:00Z").unwrap())
        .unwrap_err()
        .to_string();
    assert!(error.contains("no line has a time"), "{error}");
    assert!(At::time("tomorrow").is_err());
}
