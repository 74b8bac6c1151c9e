use serde_json::json;

use super::*;
use crate::format::detect::{LineFormat, line_format};
use crate::format::StreamReader;
use crate::format::ndjson::NdjsonReader;
use crate::model::Event;

fn read(bytes: &[u8], piece: usize) -> (NdjsonReader, Vec<Event>) {
    let mut reader = NdjsonReader::new();
    let mut events = Vec::new();
    for chunk in bytes.chunks(piece) {
        reader.feed(chunk, &mut events);
    }
    StreamReader::finish(&mut reader, &mut events);
    (reader, events)
}

fn record(uuid: &str, kind: &str, extra: Value) -> Value {
    let mut value = json!({"uuid": uuid, "parentUuid": null, "sessionId": "s", "type": kind,
        "timestamp": "2026-08-05T18:35:16.048Z", "cwd": "/work", "version": "0.21.6"});
    if let (Value::Object(map), Value::Object(more)) = (&mut value, extra) {
        map.extend(more);
    }
    value
}

fn prompt() -> Value {
    record(
        "u1",
        "user",
        json!({"message": {"role": "user", "parts": [{"text": "explain"}]}}),
    )
}

fn telemetry(uuid: &str, event: Value) -> Value {
    record(
        uuid,
        "system",
        json!({"subtype": "ui_telemetry", "systemPayload": {"uiEvent": event}}),
    )
}

fn shown_speech(events: &[Event]) -> Vec<&str> {
    events
        .iter()
        .filter(|e| !facts::superseded(e))
        .filter_map(|e| match &e.kind {
            EventKind::ChatResponse(ChatResponse::Message(Some(text))) => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

fn jsonl(records: &[Value]) -> String {
    records.iter().map(|r| format!("{r}\n")).collect()
}

#[test]
fn telemetry_text_is_shown_only_when_no_record_carries_it() {
    let bytes = jsonl(&[
        prompt(),
        telemetry(
            "t1",
            json!({"event.name": "qwen-code.api_response", "response_text": "It averages.",
            "input_token_count": 100, "output_token_count": 7, "cached_content_token_count": 0}),
        ),
        record(
            "a1",
            "assistant",
            json!({"message": {"role": "model", "parts": [
            {"text": "thinking", "thought": true}, {"text": "It averages."}]}}),
        ),
        telemetry(
            "t2",
            json!({"event.name": "qwen-code.api_response", "response_text": "Only here.",
            "input_token_count": 50, "output_token_count": 3}),
        ),
    ]);
    let (_, events) = read(bytes.as_bytes(), bytes.len());
    assert_eq!(
        shown_speech(&events),
        ["It averages.", "[from telemetry] Only here."]
    );
    let info = events.iter().find_map(facts::turn_info).expect("usage");
    assert_eq!((info.input_tokens, info.output_tokens), (Some(150), Some(10)));
}

#[test]
fn a_call_only_telemetry_saw_is_shown_and_a_known_one_once() {
    let bytes = jsonl(&[
        prompt(),
        record(
            "a1",
            "assistant",
            json!({"message": {"role": "model", "parts": [
            {"functionCall": {"id": "c1", "name": "write_file", "args": {"file_path": "/a"}}}]}}),
        ),
        telemetry(
            "t1",
            json!({"event.name": "qwen-code.tool_call", "call_id": "c1",
            "function_name": "write_file", "success": false}),
        ),
        record(
            "r1",
            "tool_result",
            json!({"message": {"role": "user", "parts": [{"functionResponse":
            {"id": "c1", "name": "write_file", "response": {"error": "EACCES"}}}]},
            "toolCallResult": {"callId": "c1", "status": "error", "resultDisplay": "EACCES"}}),
        ),
        telemetry(
            "t2",
            json!({"event.name": "qwen-code.tool_call", "call_id": "c2",
            "function_name": "list_directory", "function_args": {"directory": "/x"},
            "success": false, "error": "params must have required property 'path'"}),
        ),
    ]);
    let (_, events) = read(bytes.as_bytes(), 5);
    let calls: Vec<&str> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ToolCallRequest { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(calls, ["write_file", "list_directory"]);
    let errors: Vec<String> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ToolCallResponse {
                content,
                is_error: true,
                ..
            } => Some(format!("{content:?}")),
            _ => None,
        })
        .collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[1].contains("[from telemetry]"));
}

#[test]
fn glued_records_are_split_and_not_a_problem() {
    let mut bytes = prompt().to_string();
    bytes.push_str(
        &record(
            "a1",
            "assistant",
            json!({"message": {"role": "model", "parts": [{"text": "a {brace} \"}{\" inside"}]}}),
        )
        .to_string(),
    );
    bytes.push_str("\n{\"uuid\":\"x\",\"sessionId\"\n");
    let (reader, events) = read(bytes.as_bytes(), bytes.len());
    assert_eq!(reader.format(), Some(LineFormat::Qwen));
    assert_eq!(shown_speech(&events), ["a {brace} \"}{\" inside"]);
    assert_eq!(reader.problems().len(), 1, "only the cut line is bad");
    assert_eq!(reader.problems()[0].line, 2);
}

#[test]
fn sidechain_records_go_to_the_agent_call_not_the_parent() {
    let bytes = jsonl(&[
        prompt(),
        record(
            "a1",
            "assistant",
            json!({"message": {"role": "model", "parts": [
            {"functionCall": {"id": "c1", "name": "agent", "args": {"prompt": "look"}}}]}}),
        ),
        record(
            "s1",
            "user",
            json!({"isSidechain": true, "agentId": "explore-1",
            "message": {"role": "user", "parts": [{"text": "look"}]}}),
        ),
    ]);
    let (mut reader, events) = read(bytes.as_bytes(), bytes.len());
    let turns = events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::TurnStart))
        .count();
    assert_eq!(turns, 1);
    let links = StreamReader::take_subagents(&mut reader);
    assert_eq!(links.len(), 1);
    assert_eq!(links[0].call, "c1");
}

#[test]
fn qwen_lines_are_told_from_claude_code_lines() {
    assert_eq!(line_format(&prompt()), Some(LineFormat::Qwen));
    let claude = json!({"uuid": "u", "sessionId": "s", "type": "user",
        "message": {"role": "user", "content": "hi"}});
    assert_eq!(line_format(&claude), Some(LineFormat::ClaudeCode));
}
