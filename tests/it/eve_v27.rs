//! Generation B (v27) streams and v26 events riding inside v27 lines
//! (eve-format §0, §3, §7, §13).

use crate::common::eve_support;

use eve_support::{describe_all, find_call, fixture, read, turns};
use overhear::format::eve::EveReader;
use overhear::model::InProgressKind;
use overhear::model::facts::{self, SessionOutcome, TurnEnd};

const DELIVERED: &str = "Update delivered. Continue working; your final response will still be delivered automatically.";

#[test]
fn v27_update_narration_and_reply() {
    let r = read("v27-update-reply.ndjson");
    assert!(r.diagnostics().is_empty());
    assert_eq!(
        describe_all(&r),
        [
            "turn_start".to_string(),
            "request \"Ship the release notes ✨\"".into(),
            "message \"Posting an update first.\"".into(),
            "call c1 send_channel_update {\"message\":\"Release notes are drafted; publishing now.\"}".into(),
            format!("result c1 [user text/markdown: \"Release notes are drafted; publishing now.\"] [assistant: {DELIVERED:?}]"),
            "reasoning \"Check the links.\"".into(),
            "message \"Release notes are live.\" [final]".into(),
        ],
        "narration is speech, phase reply is the final reply; nothing after session.ended"
    );
    let info = &turns(&r)[0];
    assert_eq!(info.turn_id.as_deref(), Some("t1"));
    assert_eq!(info.model.as_deref(), Some("eve-mock/v27"));
    assert_eq!(
        (info.input_tokens, info.output_tokens),
        (Some(100), Some(10))
    );
    assert_eq!(info.ended, Some(TurnEnd::Completed));
    assert!(r.finished());
    assert_eq!(
        facts::session_end(&r.events()[0]).unwrap().outcome,
        SessionOutcome::Completed
    );
    // Identity is position: the commit on stored line 1 (0-based), fact 1.
    assert_eq!(r.events()[0].event_id.as_deref(), Some("evt_1_1"));
    assert_eq!(
        r.events()[0].timestamp.as_deref(),
        Some("2026-03-01T09:00:02.000Z")
    );
}

#[test]
fn v27_content_deltas_stream_until_the_part_completes() {
    let bytes = fixture("v27-update-reply.ndjson");
    let text = std::str::from_utf8(&bytes).unwrap();
    let at = text.find("update first.").unwrap();
    let cut = at + text[at..].find('\n').unwrap() + 1;
    let mut r = EveReader::new();
    r.push(&bytes[..cut]);
    let p = r.in_progress().unwrap();
    assert_eq!(p.kind, InProgressKind::Message);
    assert_eq!(p.text, "Posting an update first.");
    assert_eq!(p.turn_id.as_deref(), Some("t1"));
    let next = cut + text[cut..].find('\n').unwrap() + 1;
    r.push(&bytes[cut..next]);
    assert!(r.in_progress().is_none(), "content.completed replaces it");
}

#[test]
fn v27_abandoned_run_is_replaced_and_the_update_counts_attempts() {
    let r = read("v27-abandoned-retry.ndjson");
    assert_eq!(
        describe_all(&r),
        [
            "turn_start".to_string(),
            "request \"Tell the channel, then answer.\"".into(),
            "message \"Letting the channel know.\"".into(),
            "call u1 send_channel_update {\"message\":\"Working on it.\"} [attempts 2]".into(),
            format!(
                "result u1 [user text/markdown: \"Working on it.\"] [assistant: {DELIVERED:?}] [attempts 2]"
            ),
            "message \"Here is the answer.\" [final]".into(),
        ],
        "one narration, one update; a late duplicate settle does not override the first terminal"
    );
    let response = find_call(&r, "tool_call_response", "u1");
    assert_eq!(facts::outcome(response), Some("completed"));
    assert!(
        r.in_progress().is_none(),
        "an abandoned run's progress is dropped"
    );
}

#[test]
fn v27_abandoned_run_is_superseded_before_the_retry() {
    let bytes = fixture("v27-abandoned-retry.ndjson");
    let text = std::str::from_utf8(&bytes).unwrap();
    let at = text.find("\"abandoned\"").unwrap();
    let cut = at + text[at..].find('\n').unwrap() + 1;
    let mut r = EveReader::new();
    r.push(&bytes[..cut]);
    let described = describe_all(&r);
    assert_eq!(
        described[2],
        "message \"Letting the channel know (attempt 1).\" [superseded]"
    );
    assert!(
        described[3].starts_with("call u1 send_channel_update")
            && described[3].ends_with("[superseded]")
    );
    assert!(described[4].starts_with("result u1 error"), "{described:?}");
}

#[test]
fn v26_events_inside_v27_lines_get_position_ids() {
    let r = read("v26-in-v27.ndjson");
    assert!(r.diagnostics().is_empty());
    assert_eq!(
        describe_all(&r),
        [
            "turn_start",
            "request \"Hi 👋\"",
            "message \"Hello!\" [final]"
        ],
        "the replay after the position marker is dropped"
    );
    let ids: Vec<_> = r
        .events()
        .iter()
        .map(|e| {
            let (id, at) = (e.event_id.as_deref(), e.timestamp.as_deref());
            (id.unwrap().to_string(), at.unwrap().to_string())
        })
        .collect();
    assert_eq!(
        ids,
        [
            (
                "evt_0_1".to_string(),
                "2026-03-01T09:00:01.000Z".to_string()
            ),
            ("evt_0_2".into(), "2026-03-01T09:00:01.000Z".into()),
            ("evt_4_0".into(), "2026-03-01T09:00:03.000Z".into()),
        ]
    );
    assert_eq!(turns(&r)[0].ended, Some(TurnEnd::Completed));
}

#[test]
fn v26_progress_inside_v27_lines_streams() {
    let bytes = fixture("v26-in-v27.ndjson");
    let lines: Vec<&[u8]> = bytes.split_inclusive(|b| *b == b'\n').collect();
    let mut r = EveReader::new();
    for line in &lines[..4] {
        r.push(line);
    }
    let p = r.in_progress().unwrap();
    assert_eq!(p.text, "Hello!");
    assert_eq!(p.kind, InProgressKind::Message);
}
