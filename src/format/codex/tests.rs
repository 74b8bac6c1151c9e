use serde_json::json;

use super::*;
use crate::model::Event;

fn rollout(records: &[(&str, Value)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (kind, payload) in records {
        let line =
            json!({"timestamp": "2025-09-25T02:12:23.966Z", "type": kind, "payload": payload});
        out.extend_from_slice(line.to_string().as_bytes());
        out.push(b'\n');
    }
    out
}

fn kinds(reader: &CodexReader) -> Vec<&str> {
    reader
        .events()
        .iter()
        .map(Event::type_name)
        .filter(|k| {
            !matches!(
                *k,
                "turn_context" | "event_msg" | "response_item" | "session_meta"
            )
        })
        .collect()
}

#[test]
fn each_thing_is_shown_once_and_calls_pair_by_call_id() {
    let bytes = rollout(&[
        ("session_meta", json!({"id": "x", "cwd": "/r"})),
        (
            "response_item",
            json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "<environment_context>x</environment_context>"}]}),
        ),
        (
            "response_item",
            json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "# Context from my IDE setup:\n\n## My request for Codex:\nlist files"}]}),
        ),
        (
            "event_msg",
            json!({"type": "user_message", "message": "# Context from my IDE setup:\n\n## My request for Codex:\nlist files", "kind": "plain"}),
        ),
        ("turn_context", json!({"model": "gpt-5", "cwd": "/r"})),
        (
            "response_item",
            json!({"type": "reasoning", "summary": [], "encrypted_content": "x"}),
        ),
        (
            "event_msg",
            json!({"type": "agent_reasoning", "text": "thinking"}),
        ),
        (
            "response_item",
            json!({"type": "function_call", "name": "shell", "arguments": "{\"command\":[\"false\"]}", "call_id": "c1"}),
        ),
        (
            "response_item",
            json!({"type": "function_call_output", "call_id": "c1", "output": "{\"output\":\"no\",\"metadata\":{\"exit_code\":1}}"}),
        ),
        (
            "event_msg",
            json!({"type": "token_count", "info": {"total_token_usage": {"input_tokens": 100, "output_tokens": 7}}}),
        ),
        (
            "response_item",
            json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Done."}]}),
        ),
        (
            "event_msg",
            json!({"type": "agent_message", "message": "Done."}),
        ),
        (
            "event_msg",
            json!({"type": "task_complete", "last_agent_message": "Done."}),
        ),
    ]);
    let reader = CodexReader::read_all(&bytes);
    assert_eq!(
        kinds(&reader),
        [
            "turn_start",
            "chat_request",
            "chat_response",
            "tool_call_request",
            "tool_call_response",
            "chat_response"
        ]
    );
    let prompt = reader.events().iter().find_map(|e| match &e.kind {
        EventKind::ChatRequest { content, .. } => Some(content.clone()),
        _ => None,
    });
    assert_eq!(prompt.as_deref(), Some("list files"));
    let response = reader.events().iter().find_map(|e| match &e.kind {
        EventKind::ToolCallResponse {
            content: Content::Text(t),
            is_error,
            ..
        } => Some((t.clone(), *is_error)),
        _ => None,
    });
    assert_eq!(response, Some(("no".to_string(), true)));
    let turn = reader
        .events()
        .iter()
        .find_map(facts::turn_info)
        .expect("turn facts");
    assert_eq!(
        (turn.input_tokens, turn.output_tokens),
        (Some(100), Some(7))
    );
    assert_eq!(turn.model.as_deref(), Some("gpt-5"));
    assert_eq!(turn.ended, Some(facts::TurnEnd::Completed));
}

#[test]
fn an_extended_event_decides_the_error_even_after_the_output() {
    let bytes = rollout(&[
        (
            "event_msg",
            json!({"type": "user_message", "message": "go"}),
        ),
        (
            "response_item",
            json!({"type": "custom_tool_call", "name": "apply_patch", "input": "*** Begin Patch", "call_id": "p"}),
        ),
        (
            "response_item",
            json!({"type": "custom_tool_call_output", "call_id": "p", "output": "Success."}),
        ),
        (
            "event_msg",
            json!({"type": "patch_apply_end", "call_id": "p", "success": false}),
        ),
    ]);
    let mut reader = CodexReader::new();
    let cut = bytes.len() - 20;
    reader.push(&bytes[..cut]);
    let before = reader.revision();
    reader.push(&bytes[cut..]);
    assert!(reader.revision() > before);
    assert!(
        reader
            .events()
            .iter()
            .any(|e| matches!(e.kind, EventKind::ToolCallResponse { is_error: true, .. }))
    );
}

#[test]
fn a_legacy_rollout_takes_its_prompts_from_user_messages() {
    let lines = [
        json!({"id": "s", "timestamp": "2025-05-01T10:00:00.000Z", "instructions": null}),
        json!({"record_type": "state"}),
        json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hello"}]}),
        json!({"type": "local_shell_call", "call_id": "l", "status": "completed", "action": {"type": "exec", "command": ["ls"]}}),
        json!({"type": "function_call_output", "call_id": "l", "output": "Exit code: 0\na"}),
    ];
    let bytes: Vec<u8> = lines
        .iter()
        .flat_map(|l| format!("{l}\n").into_bytes())
        .collect();
    let reader = CodexReader::read_all(&bytes);
    let names: Vec<&str> = reader
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ToolCallRequest { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(names, ["local_shell"]);
    assert_eq!(
        reader
            .events()
            .iter()
            .filter(|e| e.type_name() == "turn_start")
            .count(),
        1
    );
}

#[test]
fn an_interrupted_turn_is_cancelled_with_a_notice() {
    let bytes = rollout(&[
        (
            "event_msg",
            json!({"type": "user_message", "message": "go"}),
        ),
        (
            "event_msg",
            json!({"type": "turn_aborted", "reason": "interrupted"}),
        ),
    ]);
    let reader = CodexReader::read_all(&bytes);
    let turn = reader
        .events()
        .iter()
        .find_map(facts::turn_info)
        .expect("turn facts");
    assert_eq!(turn.ended, Some(facts::TurnEnd::Cancelled));
    assert_eq!(reader.events().last().map(Event::type_name), Some("notice"));
}

#[test]
fn a_rollout_read_whole_ends_its_last_turn_once_it_answered_the_user() {
    let turn_end = |reader: &CodexReader| {
        reader
            .events()
            .iter()
            .find(|e| matches!(e.kind, EventKind::TurnStart))
            .and_then(facts::turn_info)
            .and_then(|info| info.ended)
    };
    let prompt = (
        "event_msg",
        json!({"type": "user_message", "message": "count lines"}),
    );
    let call = (
        "response_item",
        json!({"type": "function_call", "name": "shell", "arguments": "{\"command\":[\"wc\"]}", "call_id": "c1"}),
    );
    let output = (
        "response_item",
        json!({"type": "function_call_output", "call_id": "c1", "output": "3"}),
    );
    let speech = (
        "response_item",
        json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Three."}]}),
    );
    let reasoning = (
        "response_item",
        json!({"type": "reasoning", "summary": [{"type": "summary_text", "text": "**Counting**"}]}),
    );

    // No `task_complete` (older rollouts): speech, then reasoning written after it.
    let whole = CodexReader::read_all(&rollout(&[
        prompt.clone(),
        call.clone(),
        output.clone(),
        speech,
        reasoning,
    ]));
    assert!(whole.finished());
    assert_eq!(turn_end(&whole), Some(facts::TurnEnd::Completed));

    // Ending with a call's output: mid-turn, still running.
    let cut = CodexReader::read_all(&rollout(&[prompt.clone(), call, output]));
    assert!(!cut.last_turn_settled() && !cut.finished());
    assert_eq!(turn_end(&cut), None);

    // `task_complete` ends the turn while it is followed.
    let mut followed = CodexReader::new();
    followed.push(&rollout(&[
        prompt,
        ("event_msg", json!({"type": "task_complete"})),
    ]));
    assert!(followed.last_turn_settled() && !followed.finished());
    assert_eq!(turn_end(&followed), Some(facts::TurnEnd::Completed));
}

#[test]
fn a_spawn_agent_call_names_its_childs_rollout_by_thread_id() {
    let mut reader = CodexReader::read_all(&rollout(&[
        ("session_meta", json!({"id": "parent", "cwd": "/w"})),
        (
            "event_msg",
            json!({"type": "user_message", "message": "split it"}),
        ),
        (
            "response_item",
            json!({"type": "function_call", "name": "spawn_agent", "call_id": "c1", "arguments": "{\"message\":\"look\"}"}),
        ),
        (
            "response_item",
            json!({"type": "function_call_output", "call_id": "c1", "output": "{\"agent_id\":\"0199-child\"}"}),
        ),
        (
            "response_item",
            json!({"type": "function_call", "name": "spawn_agent", "call_id": "c2", "arguments": "{}"}),
        ),
        (
            "response_item",
            json!({"type": "function_call_output", "call_id": "c2", "output": "{\"agent_id\":\"../x\"}"}),
        ),
    ]));
    let links = reader.take_subagents();
    assert_eq!(links.len(), 1, "{links:?}");
    assert_eq!(links[0].call, "c1");
    assert_eq!(
        links[0].source,
        SubAgentSource::Ending("0199-child.jsonl".into())
    );
}
