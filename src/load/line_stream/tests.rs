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

/// An eve reply streamed in two deltas read at two different
/// times (the viewer following stdin), a secret cut between them: the raw
/// view's first delta, already stored, is rewritten when the second arrives.
#[test]
fn a_secret_split_across_deltas_read_apart_is_redacted_in_both() {
    let mut live = Live::stream(PathBuf::from("-"));
    live.redact_with(Arc::new(Redactor::builtin().unwrap()));
    let (first, second) = SECRET.split_at(15);
    let line = |n: u32, kind: &str, data: &str| {
        format!(
            r#"{{"type":"{kind}","data":{{"turnId":"t1","stepIndex":0{data}}},"meta":{{"id":"e{n}","at":"2026-01-01T00:00:0{n}Z"}}}}"#
        ) + "\n"
    };
    let head = line(0, "session.started", "")
        + &line(1, "turn.started", "")
        + &line(2, "step.started", "")
        + &line(
            3,
            "message.appended",
            &format!(r#","messageDelta":"token {first}""#),
        );
    live.push_stream(head.as_bytes(), false).unwrap();
    let raw = |live: &Live| -> String {
        let lines = live.conversation.originals.iter();
        lines.filter_map(|o| o.json.map(String::from)).collect()
    };
    // Alone, the first piece is no secret yet.
    assert!(raw(&live).contains(first), "{}", raw(&live));
    let tail = line(
        4,
        "message.appended",
        &format!(r#","messageDelta":"{second} ok""#),
    );
    live.push_stream(tail.as_bytes(), false).unwrap();
    let text = raw(&live);
    assert!(!text.contains(first), "{text}");
    assert!(!text.contains(second), "{text}");
    assert_eq!(text.matches("[redacted github-pat]").count(), 2, "{text}");
}

/// A transcript longer than a read step, a line cut at each step's end: read
/// from its file a step at a time, it is what its bytes read at once are.
#[test]
fn a_file_read_in_steps_reads_as_its_bytes_at_once() {
    use crate::source::tail::READ_STEP;
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("session.jsonl");
    let mut bytes = String::new();
    let mut n = 0;
    while bytes.len() < READ_STEP + READ_STEP / 2 {
        let at = format!("2026-11-01T10:{:02}:{:02}.000Z", n / 60 % 60, n % 60);
        bytes.push_str(&format!(
            r#"{{"type":"user","uuid":"u{n}","sessionId":"s","timestamp":"{at}","message":{{"role":"user","content":"question {n} {}"}}}}"#,
            "words ".repeat(n % 300)
        ));
        bytes.push('\n');
        bytes.push_str(&format!(
            r#"{{"type":"assistant","uuid":"a{n}","sessionId":"s","timestamp":"{at}","message":{{"id":"m{n}","role":"assistant","model":"claude-sonnet-4-5","content":[{{"type":"text","text":"answer {n}"}}]}}}}"#
        ));
        bytes.push('\n');
        n += 1;
    }
    std::fs::write(&path, &bytes).unwrap();
    let mut stepped = Live::open_eve(path.clone()).unwrap();
    // A one-shot read: the file's end is the session's end, as for the cut.
    stepped.finish_stream();
    let whole = Live::stream_cut(path, bytes.as_bytes());
    assert!(stepped.warnings.is_empty(), "{:?}", stepped.warnings);
    assert_eq!(stepped.conversation.turns.len(), n);
    let (stepped, whole) = (events_text(&stepped), events_text(&whole));
    let differ = stepped.bytes().zip(whole.bytes()).position(|(a, b)| a != b);
    assert!(
        differ.is_none() && stepped.len() == whole.len(),
        "the events differ from byte {differ:?} on"
    );
}

#[test]
fn a_stream_read_for_an_export_keeps_the_texts_of_its_image_lines_only() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("session.jsonl");
    let at = "2026-11-01T10:00:00.000Z";
    let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    let lines = [
        format!(
            r#"{{"type":"user","uuid":"u0","sessionId":"s","timestamp":"{at}","message":{{"role":"user","content":"first"}}}}"#
        ),
        format!(
            r#"{{"type":"user","uuid":"u1","sessionId":"s","timestamp":"{at}","message":{{"role":"user","content":[{{"type":"text","text":"look"}},{{"type":"image","source":{{"type":"base64","media_type":"image/png","data":"{png}"}}}}]}}}}"#
        ),
        format!(
            r#"{{"type":"assistant","uuid":"a1","sessionId":"s","timestamp":"{at}","message":{{"id":"m1","role":"assistant","model":"claude-sonnet-4-5","content":[{{"type":"text","text":"a red pixel"}}]}}}}"#
        ),
    ];
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let arg = path.to_str().unwrap();
    let all = Live::read_once_keeping(Some(arg), StoredTexts::All).unwrap();
    let images = Live::read_once_keeping(Some(arg), StoredTexts::OfImages).unwrap();
    let texts = |live: &Live| -> Vec<bool> {
        live.conversation
            .originals
            .iter()
            .map(|line| line.json.is_some())
            .collect()
    };
    assert_eq!(texts(&all), [true, true, true]);
    assert_eq!(texts(&images), [false, true, false], "only the image's line");
    let numbers = |live: &Live| -> Vec<usize> {
        live.conversation.originals.iter().map(|line| line.line).collect()
    };
    assert_eq!(numbers(&images), numbers(&all), "every line keeps its place");
    assert_eq!(events_text(&images), events_text(&all), "the same events");
}
