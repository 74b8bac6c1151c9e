//! Unit tests of the eve reader's less common paths, on tiny inline streams.

use serde_json::{Value, json};

use super::EveReader;
use crate::model::{ChatResponse, Content, EventKind, facts};

/// One gen A line.
fn a(n: u32, kind: &str, data: Value) -> String {
    format!(
        "{}\n",
        json!({"type": kind, "data": data, "meta": {"id": format!("e{n}"), "at": format!("t{n}")}})
    )
}

/// One v27 commit line.
fn commit(at: &str, facts: Value) -> String {
    format!("{}\n", json!({"at": at, "facts": facts}))
}

fn read(lines: &[String]) -> EveReader {
    EveReader::read_all(lines.concat().as_bytes())
}

fn turn() -> Vec<String> {
    vec![
        a(1, "turn.started", json!({"sequence": 0, "turnId": "t"})),
        a(
            2,
            "message.received",
            json!({"message": "go", "sequence": 0, "turnId": "t"}),
        ),
        a(
            3,
            "step.started",
            json!({"sequence": 0, "stepIndex": 0, "turnId": "t"}),
        ),
    ]
}

fn step(extra: Value) -> Value {
    let mut d = json!({"sequence": 0, "stepIndex": 0, "turnId": "t"});
    if let (Some(d), Some(extra)) = (d.as_object_mut(), extra.as_object()) {
        d.extend(extra.clone());
    }
    d
}

#[test]
fn rejected_call_says_so_and_is_an_error() {
    let mut lines = turn();
    lines.push(a(
        4,
        "actions.requested",
        step(json!({"actions": [
        {"callId": "c", "input": {"path": "/"}, "kind": "tool-call", "toolName": "rm"}]})),
    ));
    lines.push(a(
        5,
        "action.result",
        step(json!({"status": "rejected",
        "error": {"code": "DENIED", "message": "the user said no"},
        "result": {"callId": "c", "kind": "tool-result", "output": null, "toolName": "rm"}})),
    ));
    let r = read(&lines);
    let last = r.events().last().unwrap();
    assert_eq!(
        last.kind,
        EventKind::ToolCallResponse {
            id: "c".into(),
            content: Content::Text("Rejected: DENIED: the user said no".into()),
            is_error: true,
        }
    );
    assert_eq!(facts::outcome(last), Some("rejected"));
}

#[test]
fn several_actions_of_one_event_get_distinct_ids() {
    let mut lines = turn();
    lines.push(a(
        4,
        "actions.requested",
        step(json!({"actions": [
        {"callId": "x", "input": {}, "kind": "tool-call", "toolName": "a"},
        {"callId": "y", "input": {}, "kind": "load-skill"}]})),
    ));
    let r = read(&lines);
    let ids: Vec<_> = r.events()[2..]
        .iter()
        .map(|e| e.event_id.clone().unwrap())
        .collect();
    assert_eq!(ids, ["e4", "e4.1"]);
    assert!(
        matches!(&r.events()[3].kind, EventKind::ToolCallRequest { name, .. } if name == "load_skill")
    );
}

#[test]
fn update_result_before_its_request_gets_the_message_when_it_arrives() {
    let mut lines = turn();
    lines.push(a(4, "action.result", step(json!({"status": "completed",
        "result": {"callId": "u", "kind": "tool-result", "output": "ok", "toolName": "send_channel_update"}}))));
    lines.push(a(5, "actions.requested", step(json!({"actions": [
        {"callId": "u", "input": {"message": "hi all"}, "kind": "tool-call", "toolName": "send_channel_update"}]}))));
    let r = read(&lines);
    let EventKind::ToolCallResponse { content, .. } = &r.events()[2].kind else {
        panic!("response first");
    };
    assert_eq!(content.plain_text(), "hi all\nok");
    assert!(r.revision() > 0);
}

#[test]
fn appends_alone_do_not_bump_the_revision() {
    let r = read(&turn()[..2]);
    assert_eq!(r.events().len(), 2);
    assert_eq!(r.revision(), 0);
}

#[test]
fn turn_waiting_holds_the_turn_and_unmarks_its_reply() {
    let mut lines = turn();
    lines.push(a(
        4,
        "message.completed",
        step(json!({"finishReason": "stop", "message": "waiting on you"})),
    ));
    lines.push(a(
        5,
        "turn.waiting",
        json!({"on": "input", "sequence": 0, "turnId": "t"}),
    ));
    let r = read(&lines);
    assert!(!facts::final_reply(r.events().last().unwrap()));
    assert!(facts::turn_info(&r.events()[0]).unwrap().held);
}

#[test]
fn task_status_waits_for_its_call_and_keeps_the_first_outcome_after_detach() {
    let mut lines = turn();
    lines.push(a(
        4,
        "task.started",
        json!({"callId": "c", "kind": "agent", "name": "w", "taskId": "w-1", "turnId": "t"}),
    ));
    lines.push(a(
        5,
        "actions.requested",
        step(json!({"actions": [
        {"callId": "c", "input": {}, "kind": "tool-call", "toolName": "w"}]})),
    ));
    lines.push(a(
        6,
        "task.settled",
        json!({"callId": "c", "status": "completed", "taskId": "w-1", "output": 1}),
    ));
    lines.push(a(
        7,
        "task.detached",
        json!({"callId": "c", "reason": "timeout", "taskId": "w-1"}),
    ));
    let r = read(&lines);
    let task = facts::task(r.events().last().unwrap()).unwrap();
    assert_eq!(task.status, Some(facts::TaskState::Completed));
    assert_eq!(task.reason.as_deref(), Some("timeout"));
}

#[test]
fn v27_approval_is_a_boolean_inquiry_about_its_call() {
    let lines = [
        commit(
            "t0",
            json!([{"type": "turn.started", "data": {"turnId": "t", "cause": {}, "follows": null}}]),
        ),
        commit(
            "t1",
            json!([{"type": "call.requested", "scope": {"turnId": "t"},
            "data": {"callId": "c", "owner": {"runId": "r"}, "capability": {"kind": "tool", "name": "deploy"}, "input": {}}}]),
        ),
        commit(
            "t2",
            json!([{"type": "interaction.opened", "data": {"interactionId": "i",
            "subject": {"callId": "c"}, "request": {"kind": "approval", "prompt": "Deploy?"}}}]),
        ),
        commit(
            "t3",
            json!([{"type": "interaction.settled", "data": {"interactionId": "i", "outcome": "declined"}}]),
        ),
    ];
    let r = read(&lines);
    let EventKind::InquiryRequest {
        source, question, ..
    } = &r.events()[2].kind
    else {
        panic!("inquiry");
    };
    assert_eq!(&**source, &json!({"source": "tool", "name": "deploy"}));
    assert_eq!(question["answer_type"], json!({"type": "boolean"}));
    assert_eq!(facts::call_id(&r.events()[2]), Some("c"));
    assert_eq!(
        r.events()[3].kind,
        EventKind::InquiryResponse {
            id: "i".into(),
            answer: Box::new(Value::Bool(false))
        }
    );
}

#[test]
fn v27_reply_list_marks_parts_final_and_failure_ends_the_session() {
    let lines = [
        commit(
            "t0",
            json!([{"type": "turn.started", "data": {"turnId": "t", "cause": {}, "follows": null}},
            {"type": "model.requested", "data": {"runId": "r", "owner": {"turnId": "t"}}}]),
        ),
        commit(
            "t1",
            json!([{"type": "content.completed", "data": {"partId": "p", "runId": "r",
            "kind": "result", "value": {"ok": true}, "phase": "narration"}}]),
        ),
        commit(
            "t2",
            json!([{"type": "turn.settled", "data": {"turnId": "t", "outcome": "failed",
            "reply": ["p"], "error": {"code": "E", "message": "boom"}}},
            {"type": "session.ended", "data": {"outcome": "failed", "error": {"code": "E", "message": "boom"}}}]),
        ),
    ];
    let r = read(&lines);
    let data = &r.events()[1];
    assert_eq!(
        data.kind,
        EventKind::ChatResponse(ChatResponse::Data(Box::new(json!({"ok": true}))))
    );
    assert!(facts::final_reply(data));
    let info = facts::turn_info(&r.events()[0]).unwrap();
    assert_eq!(info.ended, Some(facts::TurnEnd::Failed));
    assert_eq!(info.error.unwrap().message, "boom");
    assert_eq!(
        facts::session_end(&r.events()[0]).unwrap().outcome,
        facts::SessionOutcome::Failed
    );
    assert!(r.finished());
}

#[test]
fn session_end_without_a_started_turn_still_shows() {
    let lines = [
        a(
            1,
            "message.received",
            json!({"message": "late join", "sequence": 3, "turnId": "t3"}),
        ),
        a(2, "session.completed", Value::Null),
    ];
    let r = read(&lines);
    let last = r.events().last().unwrap();
    assert!(matches!(last.kind, EventKind::TurnStart));
    assert!(facts::session_end(last).is_some());
}

#[test]
fn stored_lines_keep_their_text_and_give_back_the_value_and_turn_they_named() {
    let escaped = r#"  {"type":"message.received","data":{"message":"hi","turnId":"turn\u005f2"},"meta":{"id":"e2"}}"#;
    let lines = [
        a(
            1,
            "turn.started",
            json!({"sequence": 0, "turnId": "turn_1"}),
        ),
        format!("{escaped}\n"),
        commit(
            "t3",
            json!([{"type": "turn.completed", "scope": {"turnId": "turn_3"}}]),
        ),
        "{\"type\": 7}\n".to_string(),
        "not json\n".to_string(),
    ];
    let r = read(&lines);
    let stored = r.originals();
    assert_eq!(stored.len(), 5);
    let turns: Vec<Option<&str>> = stored.iter().map(|o| o.turn_id()).collect();
    assert_eq!(
        turns,
        [Some("turn_1"), Some("turn_2"), Some("turn_3"), None, None]
    );
    // The text as read (trimmed), parsed again on demand.
    assert_eq!(stored[1].json.as_deref(), Some(escaped.trim()));
    assert_eq!(stored[1].fields().unwrap()["data"]["turnId"], "turn_2");
    // A line that is JSON but not an event keeps its text; one that is not
    // JSON has none.
    assert!(stored[3].error.is_some() && stored[3].fields().is_some());
    assert!(stored[4].error.is_some() && stored[4].json.is_none() && stored[4].fields().is_none());
}

/// A flood keeps every event: an eve event's time (RFC 3339 with
/// milliseconds, as eve writes it) and a short id are held in the event
/// itself, without an allocation each (docs/hardening.md, the flood).
#[test]
fn an_eve_time_and_a_short_id_take_no_allocation_of_their_own() {
    let line = r#"{"type":"message.received","data":{"message":"hi","turnId":"t"},"meta":{"id":"evt-0001","at":"2026-02-01T12:34:56.789Z"}}"#;
    let reader = EveReader::read_all(format!("{line}\n").as_bytes());
    let event = reader.events().last().expect("the user message");
    let at = event.timestamp.as_ref().expect("the time");
    let id = event.event_id.as_ref().expect("the id");
    assert_eq!(
        (at.as_str(), id.as_str()),
        ("2026-02-01T12:34:56.789Z", "evt-0001")
    );
    assert!(!at.is_heap_allocated(), "the time is allocated");
    assert!(!id.is_heap_allocated(), "the id is allocated");
}
