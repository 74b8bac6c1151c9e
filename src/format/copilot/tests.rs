use serde_json::json;

use super::*;
use crate::format::SubAgentSource;
use crate::model::Event;

/// A log of `(type, data, envelope extras)` events, chained by `parentId`.
fn log(events: &[(&str, Value, Value)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut parent = Value::Null;
    for (n, (kind, data, extra)) in events.iter().enumerate() {
        let id = format!("e{n}");
        let mut line = json!({"type": kind, "data": data, "id": id,
            "timestamp": format!("2026-11-20T10:00:{:02}.000Z", n % 60), "parentId": parent});
        if let (Some(line), Some(extra)) = (line.as_object_mut(), extra.as_object()) {
            line.extend(extra.clone());
        }
        out.extend_from_slice(line.to_string().as_bytes());
        out.push(b'\n');
        parent = Value::from(id);
    }
    out
}

fn shown(reader: &CopilotReader) -> Vec<String> {
    reader
        .events()
        .iter()
        .filter_map(|event| match &event.kind {
            EventKind::TurnStart => Some("turn".to_string()),
            EventKind::ChatRequest { content, .. } => Some(format!("prompt: {content}")),
            EventKind::ChatResponse(ChatResponse::Message(Some(t))) => Some(format!("say: {t}")),
            EventKind::ChatResponse(ChatResponse::Reasoning(t)) => Some(format!("think: {t}")),
            EventKind::ToolCallRequest { id, name, .. } => Some(format!("call {id}: {name}")),
            EventKind::ToolCallResponse {
                id,
                content: Content::Text(t),
                is_error,
            } => Some(format!("result {id} (error: {is_error}): {t}")),
            EventKind::Unknown(v) if v["type"] == facts::NOTICE => {
                Some(format!("notice {}: {}", v["level"], v["text"].as_str().unwrap_or("")))
            }
            _ => None,
        })
        .collect()
}

/// The facts of the first turn.
fn first_turn(reader: &CopilotReader) -> facts::TurnInfo {
    let start = reader.events().iter().find(|e| e.kind == EventKind::TurnStart);
    start.and_then(facts::turn_info).expect("turn facts")
}

/// The events of `kind` (`chat_request`, …).
fn of_kind<'r>(reader: &'r CopilotReader, kind: &str) -> Vec<&'r Event> {
    reader
        .events()
        .iter()
        .filter(|e| e.type_name() == kind)
        .collect()
}

fn start() -> (&'static str, Value, Value) {
    (
        "session.start",
        json!({"sessionId": "s", "version": 1, "context": {"cwd": "/w"}, "selectedModel": "m1"}),
        json!({}),
    )
}

fn none() -> Value {
    json!({})
}

#[test]
fn the_prompt_is_shown_as_typed_and_the_system_prompt_never() {
    let bytes = log(&[
        start(),
        ("system.message", json!({"role": "system", "content": "SECRET PROMPT"}), none()),
        (
            "user.message",
            json!({"content": "Fix it", "transformedContent": "<current_datetime>x</current_datetime>\nFix it\n<system_reminder>HIDDEN</system_reminder>",
                   "attachments": [{"type": "file", "path": "/w/a.rs", "displayName": "a.rs"}]}),
            none(),
        ),
        (
            "assistant.message",
            json!({"messageId": "m", "content": "Done.", "toolRequests": [], "outputTokens": 7}),
            none(),
        ),
    ]);
    let reader = CopilotReader::read_all(&bytes);
    assert_eq!(
        shown(&reader),
        ["turn", "prompt: Fix it\n\n[attached file: a.rs]", "say: Done."]
    );
    let all = format!("{:?}", reader.events());
    assert!(!all.contains("SECRET") && !all.contains("HIDDEN"), "{all}");
    let info = first_turn(&reader);
    assert_eq!((info.model.as_deref(), info.output_tokens), (Some("m1"), Some(7)));
    assert_eq!(info.ended, Some(facts::TurnEnd::Completed), "read whole, settled");
}

#[test]
fn requests_and_executions_pair_by_call_id_each_call_once() {
    let bytes = log(&[
        start(),
        ("user.message", json!({"content": "go"}), none()),
        (
            "assistant.message",
            json!({"messageId": "m", "content": "Looking.", "reasoningText": "why",
                   "toolRequests": [{"toolCallId": "a", "name": "view", "arguments": {"path": "x"}},
                                    {"toolCallId": "b", "name": "edit", "arguments": {}}]}),
            none(),
        ),
        ("tool.execution_start", json!({"toolCallId": "b", "toolName": "edit"}), none()),
        ("tool.execution_start", json!({"toolCallId": "a", "toolName": "view"}), none()),
        (
            "tool.execution_complete",
            json!({"toolCallId": "b", "success": false, "error": {"message": "\"path\": Required", "code": "failure"}}),
            none(),
        ),
        (
            "tool.execution_complete",
            json!({"toolCallId": "a", "success": true, "result": {"content": "short", "detailedContent": "full"}}),
            none(),
        ),
        ("tool.execution_start", json!({"toolCallId": "u", "toolName": "bash", "arguments": {"command": "ls"}}), none()),
        ("tool.execution_complete", json!({"toolCallId": "u", "success": true, "isUserRequested": true, "result": {"content": "x"}}), none()),
        (
            "assistant.message",
            json!({"messageId": "m", "content": "Looking.", "toolRequests": [{"toolCallId": "a", "name": "view"}]}),
            none(),
        ),
    ]);
    let reader = CopilotReader::read_all(&bytes);
    assert_eq!(
        shown(&reader),
        [
            "turn",
            "prompt: go",
            "think: why",
            "say: Looking.",
            "call a: view",
            "call b: edit",
            "result b (error: true): \"path\": Required",
            "result a (error: false): full",
            "call u: bash",
            "result u (error: false): x",
        ]
    );
}

#[test]
fn an_abort_cancels_the_turn_and_notices_are_shown() {
    let bytes = log(&[
        start(),
        ("user.message", json!({"content": "test"}), none()),
        (
            "assistant.message",
            json!({"messageId": "m", "content": "", "encryptedContent": "xx",
                   "toolRequests": [{"toolCallId": "t", "name": "bash", "arguments": {"command": "cargo test"}}]}),
            none(),
        ),
        ("abort", json!({"reason": "user_initiated"}), none()),
        ("session.compaction_complete", json!({"success": true, "preCompactionTokens": 91000, "postCompactionTokens": 12000, "trigger": "threshold"}), none()),
        ("session.truncation", json!({"messagesRemovedDuringTruncation": 2, "tokensRemovedDuringTruncation": 300}), none()),
        ("session.context_cleared", json!({"messagesCleared": 4}), none()),
        ("session.mystery", json!({"x": 1}), none()),
        ("assistant.message_delta", json!({"messageId": "q", "deltaContent": "DELTA"}), none()),
    ]);
    let reader = CopilotReader::read_all(&bytes);
    let turn = first_turn(&reader);
    assert_eq!(turn.ended, Some(facts::TurnEnd::Cancelled));
    assert_eq!(
        shown(&reader)[2..],
        [
            format!("think: {REASONING_HIDDEN}"),
            "call t: bash".into(),
            "notice \"warning\": interrupted (user_initiated)".into(),
            "notice \"info\": context compacted (threshold, 91k → 12k tokens)".into(),
            "notice \"info\": older messages dropped from the model's context (2 messages, 300 tokens)".into(),
            "notice \"info\": context cleared (4 messages): what follows starts afresh".into(),
        ]
    );
    assert!(!format!("{:?}", reader.events()).contains("DELTA"));
}

#[test]
fn injected_messages_are_auto_entries_and_steering_joins_the_running_turn() {
    let bytes = log(&[
        start(),
        ("user.message", json!({"content": "one"}), none()),
        (
            "assistant.message",
            json!({"messageId": "m", "content": "", "toolRequests": [{"toolCallId": "v", "name": "view"}]}),
            none(),
        ),
        ("user.message", json!({"content": "and two", "delivery": "steering"}), none()),
        ("tool.execution_complete", json!({"toolCallId": "v", "success": true, "result": {"content": "ok"}}), none()),
        ("user.message", json!({"content": "SKILL BODY\nmore", "source": "skill-x"}), none()),
        ("user.message", json!({"content": "Continue", "isAutopilotContinuation": true}), none()),
    ]);
    let reader = CopilotReader::read_all(&bytes);
    assert_eq!(
        shown(&reader),
        [
            "turn",
            "prompt: one",
            "call v: view",
            "prompt: and two",
            "result v (error: false): ok",
            "turn",
            "notice \"info\": auto (skill-x): SKILL BODY",
            "turn",
            "notice \"info\": auto (autopilot): Continue",
        ]
    );
    let prompts = of_kind(&reader, "chat_request");
    assert!(!facts::steering(prompts[0]) && facts::steering(prompts[1]));
}

#[test]
fn shutdown_usage_is_shown_per_model_and_the_session_is_over() {
    let bytes = log(&[
        start(),
        ("user.message", json!({"content": "hi"}), none()),
        (
            "assistant.message",
            json!({"messageId": "m", "content": "", "toolRequests": [{"toolCallId": "v", "name": "view"}]}),
            none(),
        ),
        (
            "session.shutdown",
            json!({"shutdownType": "routine", "modelMetrics": {"m1": {"requests": {"count": 3, "cost": 3},
                "usage": {"inputTokens": 1000, "outputTokens": 50, "cacheReadTokens": 600, "cacheWriteTokens": 0}}}}),
            none(),
        ),
    ]);
    let mut reader = CopilotReader::new();
    reader.push(&bytes);
    assert!(reader.last_turn_settled(), "a session shut down waits for nothing");
    assert_eq!(
        shown(&reader).last().map(String::as_str),
        Some("notice \"note\": session usage, m1: 3 requests · 1000 in (600 cache read) / 50 out tokens")
    );
}

#[test]
fn a_sub_agents_events_go_to_its_task_call_not_to_the_parent() {
    let agent = json!({"agentId": "sub-1"});
    let bytes = log(&[
        start(),
        ("user.message", json!({"content": "explore"}), none()),
        (
            "assistant.message",
            json!({"messageId": "m", "content": "", "toolRequests": [{"toolCallId": "task1", "name": "task", "arguments": {"prompt": "look"}}]}),
            none(),
        ),
        ("subagent.started", json!({"toolCallId": "task1", "agentName": "explore"}), none()),
        ("user.message", json!({"content": "look"}), agent.clone()),
        (
            "assistant.message",
            json!({"messageId": "s", "content": "", "toolRequests": [{"toolCallId": "g", "name": "grep"}]}),
            agent.clone(),
        ),
        ("tool.execution_complete", json!({"toolCallId": "g", "success": false, "error": {"message": "bad"}}), agent.clone()),
        ("assistant.message", json!({"messageId": "s2", "content": "found it"}), agent.clone()),
        ("subagent.completed", json!({"toolCallId": "task1"}), none()),
        ("tool.execution_complete", json!({"toolCallId": "task1", "success": true, "result": {"content": "found it"}}), none()),
        ("user.message", json!({"content": "stray"}), json!({"agentId": "nobody"})),
    ]);
    let mut reader = CopilotReader::read_all(&bytes);
    assert_eq!(
        shown(&reader),
        [
            "turn",
            "prompt: explore",
            "call task1: task",
            "result task1 (error: false): found it",
            "notice \"info\": unlinked sub-agent nobody (its events are in the raw view)",
        ]
    );
    let links = reader.take_subagents();
    assert!(links.iter().all(|l| l.call == "task1"), "{links:?}");
    let lines: Vec<u8> = links
        .into_iter()
        .flat_map(|l| match l.source {
            SubAgentSource::Lines(bytes) => bytes,
            other => panic!("{other:?}"),
        })
        .collect();
    // The sub-agent's reader reads its lines as its own conversation.
    let child = CopilotReader::read_all(&lines);
    assert_eq!(
        shown(&child),
        [
            "turn",
            "prompt: look",
            "call g: grep",
            "result g (error: true): bad",
            "say: found it",
        ]
    );
}

#[test]
fn fed_in_pieces_it_reads_as_fed_whole() {
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/copilot/session-state/5d1f0c3e-7a42-4e8b-9c61-2f0a8b7d4e10/events.jsonl"
    ))
    .expect("the fixture");
    let whole = CopilotReader::read_all(&bytes);
    for size in [1, 7, 64, 1000] {
        let mut pieces = CopilotReader::new();
        let mut events: Vec<Event> = Vec::new();
        for piece in bytes.chunks(size) {
            pieces.with_events(&mut events, |r| r.push(piece));
        }
        pieces.with_events(&mut events, |r| r.finish());
        assert_eq!(events, whole.events(), "pieces of {size} bytes");
    }
}

#[test]
fn the_cwd_is_read_from_the_first_line() {
    let bytes = log(&[start(), ("user.message", json!({"content": "x"}), none())]);
    assert_eq!(head::session_cwd(&bytes).as_deref(), Some("/w"));
    assert_eq!(head::session_cwd(&bytes[..20]), None);
    assert_eq!(head::session_cwd(b"{\"type\":\"user.message\"}\n"), None);
}
