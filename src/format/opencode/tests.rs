use serde_json::{Value, json};

use super::*;
use crate::format::SubAgentSource;
use crate::model::{ChatResponse, Content, EventKind};

fn session(id: &str, parent: Option<&str>, title: &str) -> Value {
    json!({"opencode": "session", "id": id, "parent_id": parent, "title": title,
           "directory": "/w", "version": "1.18.13", "time_created": 1000, "time_updated": 1000})
}

fn message(id: &str, session: &str, data: Value) -> Value {
    json!({"opencode": "message", "id": id, "session_id": session, "time_created": 2000,
           "time_updated": 2000, "data": data.to_string()})
}

fn part(id: &str, message: &str, session: &str, data: Value) -> Value {
    json!({"opencode": "part", "id": id, "message_id": message, "session_id": session,
           "time_created": 3000, "time_updated": 3000, "data": data.to_string()})
}

fn lines(rows: &[Value]) -> Vec<u8> {
    let mut bytes = Vec::new();
    for row in rows {
        bytes.extend(serde_json::to_vec(row).unwrap());
        bytes.push(b'\n');
    }
    bytes
}

fn user(id: &str) -> Value {
    message(id, "ses_a", json!({"role": "user", "time": {"created": 2000}}))
}

fn assistant(id: &str, parent: &str, finish: &str) -> Value {
    message(
        id,
        "ses_a",
        json!({"role": "assistant", "parentID": parent, "modelID": "m1", "cost": 0.25,
               "tokens": {"input": 100, "output": 20, "reasoning": 5, "cache": {"read": 7, "write": 1}},
               "time": {"created": 2100, "completed": 2200}, "finish": finish}),
    )
}

fn tool(id: &str, state: Value) -> Value {
    part(
        id,
        "msg_2",
        "ses_a",
        json!({"type": "tool", "tool": "bash", "callID": "call_1", "state": state}),
    )
}

/// The rows of a session with one prompt, reasoning, a failed call and a reply.
fn conversation() -> Vec<Value> {
    vec![
        session("ses_a", None, "Fix it"),
        user("msg_1"),
        part("prt_1", "msg_1", "ses_a", json!({"type": "text", "text": "context", "synthetic": true})),
        part("prt_2", "msg_1", "ses_a", json!({"type": "text", "text": "fix the bug"})),
        assistant("msg_2", "msg_1", "tool-calls"),
        part("prt_3", "msg_2", "ses_a", json!({"type": "step-start"})),
        part("prt_4", "msg_2", "ses_a", json!({"type": "reasoning", "text": "thinking"})),
        tool("prt_5", json!({"status": "error", "input": {"command": "make"}, "error": "exit 2",
                              "time": {"start": 2150, "end": 2160}})),
        assistant("msg_3", "msg_1", "stop"),
        part("prt_6", "msg_3", "ses_a", json!({"type": "text", "text": "done"})),
    ]
}

fn read(bytes: &[u8]) -> OpenCodeReader {
    OpenCodeReader::read_all(bytes)
}

#[test]
fn a_session_is_one_turn_with_its_prompt_call_error_and_reply() {
    let reader = read(&lines(&conversation()));
    let events = reader.events();
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| match &e.kind {
            EventKind::TurnStart => "turn",
            EventKind::ChatRequest { .. } => "prompt",
            EventKind::ChatResponse(ChatResponse::Reasoning(_)) => "reasoning",
            EventKind::ChatResponse(ChatResponse::Message(_)) => "speech",
            EventKind::ToolCallRequest { .. } => "call",
            EventKind::ToolCallResponse { .. } => "result",
            _ => "other",
        })
        .collect();
    assert_eq!(
        kinds,
        ["turn", "prompt", "other", "reasoning", "call", "result", "speech"]
    );
    assert!(matches!(&events[1].kind, EventKind::ChatRequest { content, .. } if content == "fix the bug"));
    assert!(matches!(&events[5].kind, EventKind::ToolCallResponse { is_error: true, content: Content::Text(t), .. } if t == "exit 2"));
    let info = facts::turn_info(&events[0]).unwrap();
    assert_eq!(info.input_tokens, Some(200));
    assert_eq!(info.output_tokens, Some(50));
    assert_eq!(info.cache_read_tokens, Some(14));
    assert_eq!(info.cost, Some(0.5));
    assert_eq!(info.model.as_deref(), Some("m1"));
    assert_eq!(info.ended, Some(facts::TurnEnd::Completed));
    assert_eq!(reader.title(), Some("Fix it"));
    assert!(reader.finished());
}

#[test]
fn a_row_sent_again_changes_its_events_in_place() {
    let mut rows = conversation();
    rows.truncate(7);
    rows.push(tool("prt_5", json!({"status": "running", "input": {"command": "make"}})));
    let mut reader = OpenCodeReader::new();
    reader.push(&lines(&rows));
    let count = reader.events().len();
    assert!(!reader.events().iter().any(|e| matches!(e.kind, EventKind::ToolCallResponse { .. })));
    reader.take_changed_from();
    reader.push(&lines(&[tool(
        "prt_5",
        json!({"status": "completed", "input": {"command": "make"}, "output": "ok"}),
    )]));
    assert_eq!(reader.events().len(), count + 1);
    reader.push(&lines(&[part(
        "prt_4",
        "msg_2",
        "ses_a",
        json!({"type": "reasoning", "text": "thinking harder"}),
    )]));
    assert_eq!(reader.events().len(), count + 1);
    assert_eq!(reader.take_changed_from(), Some(3));
    assert!(matches!(&reader.events()[3].kind,
        EventKind::ChatResponse(ChatResponse::Reasoning(t)) if t == "thinking harder"));
}

#[test]
fn a_child_sessions_rows_go_to_the_task_call_that_started_it() {
    let rows = vec![
        session("ses_a", None, "Main"),
        session("ses_b", Some("ses_a"), "Look (@explore subagent)"),
        user("msg_1"),
        part("prt_1", "msg_1", "ses_a", json!({"type": "text", "text": "go"})),
        assistant("msg_2", "msg_1", "stop"),
        message("msg_9", "ses_b", json!({"role": "user"})),
        part(
            "prt_2",
            "msg_2",
            "ses_a",
            json!({"type": "tool", "tool": "task", "callID": "call_t",
                   "state": {"status": "running", "input": {}, "metadata": {"sessionId": "ses_b"}}}),
        ),
        part("prt_9", "msg_9", "ses_b", json!({"type": "text", "text": "look"})),
    ];
    let mut reader = read(&lines(&rows));
    let links = reader.take_subagents();
    assert_eq!(links.len(), 2);
    assert!(links.iter().all(|l| l.call == "call_t"));
    let SubAgentSource::Lines(first) = &links[0].source else {
        panic!("not lines")
    };
    let child = read(first);
    assert_eq!(child.title(), Some("Look (@explore subagent)"));
    let SubAgentSource::Lines(second) = &links[1].source else {
        panic!("not lines")
    };
    let mut both = first.clone();
    both.extend(second);
    let child = read(&both);
    assert!(child
        .events()
        .iter()
        .any(|e| matches!(&e.kind, EventKind::ChatRequest { content, .. } if content == "look")));
}

#[test]
fn a_row_whose_data_is_not_json_is_skipped_and_reading_goes_on() {
    let mut rows = conversation();
    rows.insert(
        3,
        json!({"opencode": "part", "id": "prt_x", "message_id": "msg_1", "session_id": "ses_a", "data": "{\"type\":"}),
    );
    let reader = read(&lines(&rows));
    assert_eq!(reader.diagnostics().len(), 1);
    assert_eq!(reader.diagnostics()[0].line, 4);
    assert!(reader.events().iter().any(|e| matches!(&e.kind,
        EventKind::ChatResponse(ChatResponse::Message(Some(t))) if t == "done")));
}

/// A row whose data holds more values than one record may make (a call's
/// input of 100,000 small objects): the array is not read, a warning names
/// the part, and the call and the rest of the session are read.
#[test]
fn a_row_whose_data_holds_too_many_values_reads_all_but_that_array() {
    let mut rows = conversation();
    let items: Vec<Value> = (0..100_000).map(|_| json!({"a": 1})).collect();
    rows[7] = tool(
        "prt_5",
        json!({"status": "completed", "input": {"command": "make", "items": items},
               "output": "built", "time": {"start": 2150, "end": 2160}}),
    );
    let reader = read(&lines(&rows));
    let warnings: Vec<&str> = reader.diagnostics().iter().map(|d| d.reason.as_str()).collect();
    assert_eq!(
        warnings,
        ["part prt_5: its data: more values than overhear holds of one record: an array or object not read"]
    );
    let arguments = reader.events().iter().find_map(|e| match &e.kind {
        EventKind::ToolCallRequest { arguments, .. } => Some(arguments.clone()),
        _ => None,
    });
    let arguments = arguments.expect("the call");
    assert_eq!(arguments["command"], "make");
    assert_eq!(arguments["items"], crate::model::bounded_value::NOT_READ);
    assert!(reader.events().iter().any(|e| matches!(&e.kind,
        EventKind::ChatResponse(ChatResponse::Message(Some(t))) if t == "done")));
}
