use serde_json::json;

use super::*;
use crate::model::Event;
use crate::model::call_view;

fn lines(records: &[Value]) -> Vec<u8> {
    let mut out = Vec::new();
    for record in records {
        out.extend_from_slice(record.to_string().as_bytes());
        out.push(b'\n');
    }
    out
}

fn assistant(uuid: &str, id: &str, block: Value, output_tokens: u64) -> Value {
    json!({"type": "assistant", "uuid": uuid, "sessionId": "s", "timestamp": "2025-10-01T10:00:00.000Z",
        "message": {"id": id, "model": "claude-x", "content": [block],
            "usage": {"input_tokens": 10, "output_tokens": output_tokens, "cache_read_input_tokens": 5}}})
}

fn kinds(reader: &ClaudeCodeReader) -> Vec<&str> {
    reader.events().iter().map(Event::type_name).collect()
}

/// The texts of the notices `reader` wrote, in order.
fn notices(reader: &ClaudeCodeReader) -> Vec<&str> {
    reader
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Unknown(v) if e.type_name() == "notice" => v["text"].as_str(),
            _ => None,
        })
        .collect()
}

#[test]
fn a_response_split_over_lines_keeps_its_blocks_and_counts_usage_once() {
    let bytes = lines(&[
        json!({"type": "user", "uuid": "u1", "sessionId": "s", "message": {"role": "user", "content": "fix it"}}),
        assistant(
            "a1",
            "m1",
            json!({"type": "thinking", "thinking": "", "signature": "sig"}),
            1,
        ),
        assistant("a2", "m1", json!({"type": "text", "text": "Looking."}), 2),
        assistant(
            "a3",
            "m1",
            json!({"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}}),
            30,
        ),
        json!({"type": "user", "uuid": "u2", "sessionId": "s", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "boom", "is_error": true}]}}),
        assistant(
            "a3",
            "m1",
            json!({"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}),
            30,
        ),
    ]);
    let reader = ClaudeCodeReader::read_all(&bytes);
    assert_eq!(
        kinds(&reader),
        [
            "turn_start",
            "chat_request",
            "chat_response",
            "chat_response",
            "tool_call_request",
            "tool_call_response"
        ]
    );
    assert_eq!(
        reader.events()[2].kind,
        EventKind::ChatResponse(ChatResponse::Reasoning(REASONING_HIDDEN.into()))
    );
    assert!(matches!(
        reader.events()[5].kind,
        EventKind::ToolCallResponse { is_error: true, .. }
    ));
    let info = facts::turn_info(&reader.events()[0]).expect("usage on the turn");
    assert_eq!(
        (info.input_tokens, info.output_tokens),
        (Some(15), Some(30))
    );
    assert_eq!(info.model.as_deref(), Some("claude-x"));
}

#[test]
fn each_turn_sums_the_last_usage_of_each_of_its_responses() {
    let prompt = |uuid: &str| {
        json!({"type": "user", "uuid": uuid, "sessionId": "s", "message": {"role": "user", "content": "go"}})
    };
    let text = |t: &str| json!({"type": "text", "text": t});
    let bytes = lines(&[
        prompt("u1"),
        assistant("a1", "m1", text("one"), 1),
        assistant("a2", "m2", text("two"), 7),
        assistant("a3", "m1", text("one, more"), 30),
        prompt("u2"),
        assistant("a4", "m3", text("three"), 4),
    ]);
    let reader = ClaudeCodeReader::read_all(&bytes);
    let turns: Vec<_> = (reader.events().iter())
        .filter(|e| matches!(e.kind, EventKind::TurnStart))
        .map(|e| facts::turn_info(e).expect("usage on the turn"))
        .map(|info| (info.input_tokens, info.output_tokens))
        .collect();
    // m1's last line (30) and m2 (7); the second turn its own response only.
    assert_eq!(turns, [(Some(30), Some(37)), (Some(15), Some(4))]);
}

#[test]
fn user_records_are_told_apart_in_the_spec_order() {
    let user = |uuid: &str, content: Value, extra: Value| {
        let mut v = json!({"type": "user", "uuid": uuid, "sessionId": "s", "message": {"role": "user", "content": content}});
        if let (Some(m), Some(e)) = (v.as_object_mut(), extra.as_object()) {
            m.extend(e.clone());
        }
        v
    };
    let bytes = lines(&[
        user(
            "1",
            json!("Caveat: local commands"),
            json!({"isMeta": true}),
        ),
        user(
            "2",
            json!("<command-name>/exit</command-name>\n<command-args></command-args>"),
            json!({}),
        ),
        user(
            "3",
            json!("<local-command-stdout>Bye!</local-command-stdout>"),
            json!({}),
        ),
        user(
            "4",
            json!([{"type": "text", "text": "[Request interrupted by user]"}]),
            json!({}),
        ),
        user(
            "5",
            json!([{"type": "text", "text": "look"}, {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"}}]),
            json!({}),
        ),
        user(
            "6",
            json!("summary of before"),
            json!({"isCompactSummary": true, "isVisibleInTranscriptOnly": true}),
        ),
    ]);
    let reader = ClaudeCodeReader::read_all(&bytes);
    let prompts: Vec<&str> = reader
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ChatRequest { content, .. } => Some(content.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(prompts, ["/exit", "look\n\n[image: image/png, 3 B]"]);
    let notices = notices(&reader);
    assert_eq!(notices, ["Bye!", "[Request interrupted by user]"]);
}

#[test]
fn inline_sidechains_do_not_start_turns_but_a_sub_agent_file_does() {
    let side = json!({"type": "user", "uuid": "s1", "isSidechain": true, "sessionId": "s", "message": {"role": "user", "content": "research"}});
    let main = json!({"type": "user", "uuid": "m1", "isSidechain": false, "sessionId": "s", "message": {"role": "user", "content": "go"}});
    let mixed = ClaudeCodeReader::read_all(&lines(&[main.clone(), side.clone()]));
    assert_eq!(
        mixed
            .events()
            .iter()
            .filter(|e| e.type_name() == "turn_start")
            .count(),
        1
    );
    let notice = notices(&mixed).first().copied();
    assert_eq!(
        notice,
        Some("unlinked sub-agent: research (its records are in the raw view)")
    );
    let own = ClaudeCodeReader::read_all(&lines(&[side]));
    assert_eq!(kinds(&own), ["turn_start", "chat_request"]);
}

#[test]
fn an_inline_sidechain_is_handed_to_the_task_call_whose_prompt_it_starts_with() {
    let main = json!({"type": "user", "uuid": "m1", "sessionId": "s", "message": {"role": "user", "content": "go"}});
    let task = json!({"type": "assistant", "uuid": "m2", "parentUuid": "m1", "sessionId": "s", "message": {"id": "a", "role": "assistant", "content": [
        {"type": "tool_use", "id": "t1", "name": "Task", "input": {"description": "look", "prompt": "research"}}]}});
    let root = json!({"type": "user", "uuid": "s1", "parentUuid": null, "isSidechain": true, "sessionId": "s", "message": {"role": "user", "content": "research"}});
    let step = json!({"type": "assistant", "uuid": "s2", "parentUuid": "s1", "isSidechain": true, "sessionId": "s", "message": {"id": "b", "role": "assistant", "content": "found it"}});
    let other = json!({"type": "user", "uuid": "x1", "parentUuid": null, "isSidechain": true, "sessionId": "s", "message": {"role": "user", "content": "something else"}});
    let mut reader = ClaudeCodeReader::read_all(&lines(&[main, task, root, step, other]));
    // A running call is first looked for by its prompt; its records then come inline.
    let links = reader.take_subagents();
    assert!(matches!(links[0].source, SubAgentSource::Prompt { .. }));
    let links: Vec<_> = links.into_iter().skip(1).collect();
    assert_eq!(links.len(), 2, "{links:?}");
    assert!(links.iter().all(|l| l.call == "t1"));
    let mut bytes = Vec::new();
    for link in links {
        let SubAgentSource::Lines(line) = link.source else {
            panic!("inline records come as lines");
        };
        bytes.extend(line);
    }
    // Read on their own, the lines are the sub-agent's conversation.
    let sub = ClaudeCodeReader::read_all(&bytes);
    assert_eq!(kinds(&sub), ["turn_start", "chat_request", "chat_response"]);
    // The parent keeps its one turn and notes only the chain no call asked for.
    let notices = notices(&reader);
    assert_eq!(
        notices,
        ["unlinked sub-agent: something else (its records are in the raw view)"]
    );
}

#[test]
fn a_finished_agent_call_names_its_file_and_an_id_with_a_slash_names_none() {
    let call = |id: &str| {
        json!({"type": "assistant", "uuid": format!("c{id}"), "sessionId": "sess-1", "message": {"id": id, "role": "assistant", "content": [
        {"type": "tool_use", "id": id, "name": "Agent", "input": {"description": "d", "prompt": "p"}}]}})
    };
    let result = |id: &str, agent: &str| {
        json!({"type": "user", "uuid": format!("r{id}"), "sessionId": "sess-1", "toolUseResult": {"status": "completed", "agentId": agent},
        "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": "done"}]}})
    };
    let mut reader = ClaudeCodeReader::read_all(&lines(&[
        call("t1"),
        result("t1", "a36e"),
        call("t2"),
        result("t2", "../../etc/x"),
    ]));
    let links: Vec<_> = reader
        .take_subagents()
        .into_iter()
        .filter(|l| !matches!(l.source, SubAgentSource::Prompt { .. }))
        .collect();
    assert_eq!(links.len(), 1, "{links:?}");
    assert_eq!(links[0].call, "t1");
    assert_eq!(
        links[0].source,
        SubAgentSource::File(vec![
            "agent-a36e.jsonl".into(),
            "sess-1/subagents/agent-a36e.jsonl".into()
        ])
    );
}

#[test]
fn titles_prefer_custom_over_ai_over_summary_and_bad_lines_are_counted() {
    let bytes = lines(&[
        json!({"type": "summary", "summary": "Old", "leafUuid": "x"}),
        json!({"type": "ai-title", "aiTitle": "Ai"}),
    ]);
    let mut bytes = bytes;
    bytes.extend_from_slice(b"{\"type\":\"attachment\",\"attach\n");
    bytes.extend_from_slice(
        json!({"type": "mystery-record", "x": 1})
            .to_string()
            .as_bytes(),
    );
    let reader = ClaudeCodeReader::read_all(&bytes);
    assert_eq!(reader.title(), Some("Ai"));
    assert_eq!(reader.diagnostics().len(), 1);
    assert_eq!(reader.diagnostics()[0].line, 3);
    assert_eq!(
        reader.events().last().map(Event::type_name),
        Some("mystery-record")
    );
}

#[test]
fn an_edit_gets_its_line_numbers_when_its_result_arrives() {
    let call = assistant(
        "a1",
        "m1",
        json!({"type": "tool_use", "id": "t1", "name": "Edit",
            "input": {"file_path": "a.css", "old_string": "x\n", "new_string": "y\n"}}),
        1,
    );
    let result = json!({"type": "user", "uuid": "u2", "sessionId": "s",
        "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]},
        "toolUseResult": {"filePath": "a.css", "structuredPatch": [
            {"oldStart": 7, "oldLines": 1, "newStart": 7, "newLines": 1, "lines": ["-x", "+y"]}]}});
    let mut reader = ClaudeCodeReader::new();
    reader.push(&lines(&[call]));
    let hunk_headers = |reader: &ClaudeCodeReader| -> Vec<String> {
        match call_view::of(&reader.events()[0]) {
            Some(call_view::CallView::Diff { lines, .. }) => lines
                .into_iter()
                .filter(|l| l.kind == call_view::DiffLineKind::Hunk)
                .map(|l| l.text)
                .collect(),
            other => panic!("not a diff: {other:?}"),
        }
    };
    assert_eq!(hunk_headers(&reader), ["@@"]);
    reader.push(&lines(&[result]));
    assert_eq!(reader.take_changed_from(), Some(0));
    assert_eq!(hunk_headers(&reader), ["@@ -7,1 +7,1 @@"]);
}

/// How the first turn ended, as its `turn_start` says.
fn first_turn_end(reader: &ClaudeCodeReader) -> Option<facts::TurnEnd> {
    reader
        .events()
        .iter()
        .find(|e| matches!(e.kind, EventKind::TurnStart))
        .and_then(facts::turn_info)
        .and_then(|info| info.ended)
}

#[test]
fn a_transcript_read_whole_ends_its_last_turn_once_it_answered_the_user() {
    let prompt = json!({"type": "user", "uuid": "u1", "sessionId": "s", "message": {"role": "user", "content": "list"}});
    let call = assistant(
        "a1",
        "m1",
        json!({"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}}),
        1,
    );
    let result = json!({"type": "user", "uuid": "u2", "sessionId": "s", "message": {"role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "a.txt"}]}});
    let answer = assistant("a2", "m2", json!({"type": "text", "text": "One file."}), 1);

    // Speech after every call has its result: settled, ended, finished.
    let whole = ClaudeCodeReader::read_all(&lines(&[
        prompt.clone(),
        call.clone(),
        result.clone(),
        answer.clone(),
    ]));
    assert!(whole.last_turn_settled() && whole.finished());
    assert_eq!(first_turn_end(&whole), Some(facts::TurnEnd::Completed));

    // Followed, not read to its end: settled, but neither ended nor finished.
    let mut followed = ClaudeCodeReader::new();
    followed.push(&lines(&[
        prompt.clone(),
        call.clone(),
        result.clone(),
        answer,
    ]));
    assert!(followed.last_turn_settled() && !followed.finished());
    assert_eq!(first_turn_end(&followed), None);

    // Ending on a call with no result, or on its result: still running.
    for cut in [
        vec![prompt.clone(), call.clone()],
        vec![prompt, call, result],
    ] {
        let running = ClaudeCodeReader::read_all(&lines(&cut));
        assert!(!running.last_turn_settled() && !running.finished());
        assert_eq!(first_turn_end(&running), None);
    }
}

#[test]
fn turn_duration_and_interruptions_end_a_turn_while_it_is_followed() {
    let prompt = json!({"type": "user", "uuid": "u1", "sessionId": "s", "message": {"role": "user", "content": "go"}});
    let call = assistant(
        "a1",
        "m1",
        json!({"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "make"}}),
        1,
    );
    let mut reader = ClaudeCodeReader::new();
    reader.push(&lines(&[
        prompt.clone(),
        call.clone(),
        json!({"type": "user", "uuid": "u2", "sessionId": "s", "message": {"role": "user",
            "content": [{"type": "text", "text": "[Request interrupted by user for tool use]"}]}}),
    ]));
    assert_eq!(first_turn_end(&reader), Some(facts::TurnEnd::Cancelled));
    assert!(reader.last_turn_settled());

    let mut reader = ClaudeCodeReader::new();
    reader.push(&lines(&[
        prompt,
        call,
        json!({"type": "system", "subtype": "turn_duration", "uuid": "s1", "durationMs": 4200}),
    ]));
    assert_eq!(first_turn_end(&reader), Some(facts::TurnEnd::Completed));
}

#[test]
fn a_local_command_s_output_answers_its_prompt() {
    let reader = ClaudeCodeReader::read_all(&lines(&[
        json!({"type": "user", "uuid": "u1", "sessionId": "s", "message": {"role": "user",
            "content": "<command-name>/status</command-name>"}}),
        json!({"type": "user", "uuid": "u2", "sessionId": "s", "message": {"role": "user",
            "content": "<local-command-stdout>ok</local-command-stdout>"}}),
    ]));
    assert!(reader.finished());
    assert_eq!(first_turn_end(&reader), Some(facts::TurnEnd::Completed));
}
