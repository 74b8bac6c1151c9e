//! Generation A stream edge cases: held turns, retried steps, reconnect
//! replays, malformed and partial lines, silence, legacy appends, failures
//! and questions (eve-format §5–§7, §13).

use crate::common::eve_support;

use eve_support::{describe_all, find_call, fixture, read, turns};
use overhear::format::eve::EveReader;
use overhear::model::facts::{self, SessionOutcome, TaskState, TurnEnd};
use overhear::model::{ChatResponse, EventKind, InProgressKind};

#[test]
fn null_final_message_is_intentional_silence() {
    let r = read("null-final.ndjson");
    assert_eq!(
        describe_all(&r),
        [
            "turn_start",
            "request \"Thanks!\"",
            "message <silence> [final]",
            "turn_start",
            "request \"👍\"",
            "message <silence> [final]",
        ]
    );
    assert_eq!(
        r.events()[2].to_json()["message"],
        serde_json::Value::Null,
        "stored as JP's null message"
    );
}

#[test]
fn held_turn_continues_and_text_before_the_hold_is_not_the_reply() {
    let bytes = fixture("held-resumed.ndjson");
    let text = String::from_utf8(bytes.clone()).unwrap();
    let held_at = text.find("\"held\":true").unwrap();
    let cut = held_at + text[held_at..].find('\n').unwrap() + 1;

    let mut r = EveReader::new();
    r.push(&bytes[..cut - 200]); // before the turn.completed{held} line ends
    let message = r
        .events()
        .iter()
        .position(|e| {
            e.kind
                == EventKind::ChatResponse(ChatResponse::Message(Some(
                    "Deploy started; I will report back.".into(),
                )))
        })
        .unwrap();
    assert!(
        facts::final_reply(&r.events()[message]),
        "looks final until the hold"
    );
    let before = r.revision();
    r.push(&bytes[cut - 200..cut]);
    assert!(!facts::final_reply(&r.events()[message]), "held: narration");
    assert!(turns(&r)[0].held, "the turn is shown as continuing");
    assert!(r.revision() > before);

    r.push(&bytes[cut..]);
    r.finish();
    assert_eq!(
        describe_all(&r),
        [
            "turn_start",
            "request \"Deploy v3 and tell me when it is live.\"",
            "call deploy-call deploy {\"version\":\"v3\"}",
            "result deploy-call \"{\\n  \\\"status\\\": \\\"working\\\",\\n  \\\"taskId\\\": \\\"deploy-000001\\\"\\n}\"",
            "message \"Deploy started; I will report back.\"",
            "message \"Deploy finished: v3 is live.\" [final]",
        ],
        "the task.result input is not a user message"
    );
    let info = &turns(&r)[0];
    assert!(!info.held);
    assert_eq!(info.ended, Some(TurnEnd::Completed));
    let task = facts::task(find_call(&r, "tool_call_request", "deploy-call")).unwrap();
    assert_eq!(task.status, Some(TaskState::Completed));
    assert_eq!(task.output, Some(serde_json::json!("v3 is live.")));
    assert!(task.delivered && task.ended);
    assert_eq!(task.result_message.as_deref(), Some("v3 is live."));
    assert!(r.finished());
    let session = facts::session_end(&r.events()[0]).unwrap();
    assert_eq!(session.outcome, SessionOutcome::Completed);
}

#[test]
fn retried_step_replaces_its_blocks_instead_of_repeating_them() {
    let r = read("retried-step.ndjson");
    assert_eq!(
        describe_all(&r),
        [
            "turn_start",
            "request \"Summarize the incident.\"",
            "reasoning \"Plan B\"",
            "message \"The incident lasted 4 minutes.\" [final]",
        ]
    );
    assert!(r.in_progress().is_none());
}

#[test]
fn retried_step_marks_the_first_attempt_superseded_until_replaced() {
    let bytes = fixture("retried-step.ndjson");
    let text = std::str::from_utf8(&bytes).unwrap();
    // Up to and including the retry's step.started (the second one).
    let second = text.match_indices("\"step.started\"").nth(1).unwrap().0;
    let cut = second + text[second..].find('\n').unwrap() + 1;
    let mut r = EveReader::new();
    r.push(&bytes[..cut]);
    assert_eq!(
        describe_all(&r),
        [
            "turn_start",
            "request \"Summarize the incident.\"",
            "reasoning \"Plan A\" [superseded]",
            "message \"The incident was short (attempt 1).\" [final] [superseded]",
        ]
    );
    assert!(
        r.in_progress().is_none(),
        "the interrupted attempt's deltas are orphans"
    );
}

#[test]
fn replayed_ids_after_a_reconnect_are_dropped() {
    let r = read("reconnect-duplicates.ndjson");
    assert_eq!(
        describe_all(&r),
        [
            "turn_start",
            "request \"Count the open issues.\"",
            "call count-1 issues_count {\"state\":\"open\"}",
            "result count-1 \"42\"",
            "message \"There are 42 open issues.\" [final]",
        ]
    );
    assert!(r.diagnostics().is_empty());
    // The raw view still has every line.
    assert_eq!(
        r.originals().len(),
        fixture("reconnect-duplicates.ndjson")
            .split(|b| *b == b'\n')
            .filter(|l| !l.is_empty())
            .count()
    );
}

#[test]
fn malformed_lines_are_reported_and_reading_goes_on() {
    let r = read("malformed-line.ndjson");
    let diagnostics: Vec<String> = r.diagnostics().iter().map(ToString::to_string).collect();
    assert_eq!(diagnostics.len(), 3);
    assert_eq!(
        diagnostics[0],
        "line 4, column 63: not JSON: the line ends inside a string; it is cut short"
    );
    assert_eq!(diagnostics[1], "line 5: not a JSON object");
    assert_eq!(
        diagnostics[2],
        "line 6: not an eve event (no type, facts or progress)"
    );
    assert_eq!(
        describe_all(&r),
        [
            "turn_start",
            "request \"Hello?\"",
            "message \"Hello! ¿Qué tal?\" [final]",
        ]
    );
    let bad = r.originals().iter().find(|o| o.line == 4).unwrap();
    assert!(bad.json.is_none() && bad.error.is_some());
    // Blank lines and transport records are not stored lines.
    assert!(r.originals().iter().all(|o| o.line != 7 && o.line != 8));
}

#[test]
fn partial_last_line_is_read_at_the_end_of_the_stream() {
    let bytes = fixture("partial-last-line.ndjson");
    assert_ne!(bytes.last(), Some(&b'\n'));
    let mut r = EveReader::new();
    r.push(&bytes);
    assert!(
        !describe_all(&r).iter().any(|d| d.contains("Ünïcödé")),
        "a line without its newline may still be growing"
    );
    r.finish();
    assert_eq!(
        describe_all(&r).last().unwrap(),
        "message \"Ünïcödé at the very end.\" [final]"
    );
}

#[test]
fn legacy_cumulative_appends_become_deltas() {
    let r = read("legacy-appends.ndjson");
    let p = r.in_progress().expect("still streaming");
    assert_eq!(p.kind, InProgressKind::Message);
    assert_eq!(p.text, "Hello, wörld");
    assert_eq!(p.turn_id.as_deref(), Some("turn_0"));
}

#[test]
fn streaming_tool_input_is_in_progress_until_the_request() {
    let bytes = fixture("update-then-final.ndjson");
    let text = std::str::from_utf8(&bytes).unwrap();
    let at = text.find("action.input.appended").unwrap();
    let cut = at + text[at..].find('\n').unwrap() + 1;
    let mut r = EveReader::new();
    r.push(&bytes[..cut]);
    let p = r.in_progress().unwrap();
    assert_eq!(p.kind, InProgressKind::ToolInput);
    assert_eq!(p.call_id.as_deref(), Some("upd-1"));
    assert_eq!(p.tool_name.as_deref(), Some("send_channel_update"));
    assert_eq!(p.text, "{\"message\":\"The export");
}

#[test]
fn failures_are_errors_of_the_turn_and_the_session() {
    let r = read("failures.ndjson");
    assert_eq!(
        describe_all(&r),
        [
            "turn_start",
            "request \"Write something risky.\"",
            "message \"Here is a par\" [interrupted]",
        ],
        "a content-filtered step keeps what streamed"
    );
    let info = &turns(&r)[0];
    assert_eq!(info.ended, Some(TurnEnd::Failed));
    let error = info.error.as_ref().unwrap();
    assert_eq!(error.code, "MODEL_CALL_FAILED");
    assert_eq!(error.message, "The model stopped: content-filter");
    let session = facts::session_end(&r.events()[0]).unwrap();
    assert_eq!(session.outcome, SessionOutcome::Failed);
    assert_eq!(session.error.unwrap().code, "MODEL_CALL_FAILED");
    assert!(r.finished());
}

#[test]
fn session_failing_before_any_turn_gets_a_turn_to_carry_it() {
    let line = br#"{"type":"session.failed","data":{"code":"BOOT","message":"no model"},"meta":{"id":"x","at":"t"}}"#;
    let r = EveReader::read_all(line);
    assert_eq!(describe_all(&r), ["turn_start"]);
    let session = facts::session_end(&r.events()[0]).unwrap();
    assert_eq!(session.outcome, SessionOutcome::Failed);
    assert_eq!(turns(&r)[0].error.as_ref().unwrap().message, "no model");
}

#[test]
fn questions_become_inquiries_answered_by_option() {
    let r = read("input-question.ndjson");
    assert_eq!(
        describe_all(&r),
        [
            "turn_start",
            "request \"Pick a region for the cluster.\"",
            "call ask-1 ask_question {\"question\":\"Which region?\"}",
            "inquiry q-1 \"Which region?\"",
            "answer q-1 \"eu\"",
            "result ask-1 \"eu\"",
            "message \"Creating the cluster in Europe.\" [final]",
        ]
    );
    let EventKind::InquiryRequest {
        source, question, ..
    } = &r.events()[3].kind
    else {
        unreachable!()
    };
    assert_eq!(&**source, &serde_json::json!({"source": "assistant"}));
    assert_eq!(
        question["answer_type"],
        serde_json::json!({"type": "select", "options": [
            {"value": "eu", "description": "Europe"},
            {"value": "us", "description": "United States"}]})
    );
    assert_eq!(facts::call_id(&r.events()[3]), Some("ask-1"));
    assert_eq!(facts::outcome(&r.events()[4]), Some("answered"));
}

#[test]
fn turn_facts_sum_usage_and_name_the_model() {
    let r = read("update-then-final.ndjson");
    let info = &turns(&r)[0];
    assert_eq!(info.turn_id.as_deref(), Some("turn_0"));
    assert_eq!(info.model.as_deref(), Some("eve-mock/model"));
    assert_eq!(info.input_tokens, Some(200));
    assert_eq!(info.output_tokens, Some(20));
    assert!((info.cost.unwrap() - 0.004).abs() < 1e-12);
    assert_eq!(info.ended, Some(TurnEnd::Completed));
}
