use serde_json::json;

use super::*;
use crate::format::detect::{LineFormat, line_format};
use crate::format::{StreamReader, SubAgentSource};
use crate::format::ndjson::NdjsonReader;
use crate::model::{ChatResponse, Event, EventKind};

const MAIN: &[u8] =
    include_bytes!("../../../tests/fixtures/gemini/chats/session-2026-11-30T10-00-5e55a0b1.jsonl");
const COMPRESSED: &[u8] =
    include_bytes!("../../../tests/fixtures/gemini/chats/session-2026-11-30T11-00-c0c0a0b1.jsonl");
const LEGACY: &[u8] =
    include_bytes!("../../../tests/fixtures/gemini/chats/session-2026-01-15T09-30-1e9ac100.json");

/// `bytes` read by the seam's reader, fed in pieces of `piece` bytes.
fn read(bytes: &[u8], piece: usize) -> (NdjsonReader, Vec<Event>) {
    let mut reader = NdjsonReader::new();
    let mut events = Vec::new();
    for chunk in bytes.chunks(piece) {
        reader.feed(chunk, &mut events);
    }
    StreamReader::finish(&mut reader, &mut events);
    (reader, events)
}

/// The events a replay leaves: none superseded.
fn current(events: &[Event]) -> Vec<&Event> {
    events.iter().filter(|e| !facts::superseded(e)).collect()
}

fn prompts(events: &[Event]) -> Vec<&str> {
    current(events)
        .into_iter()
        .filter_map(|e| match &e.kind {
            EventKind::ChatRequest { content, .. } => Some(content.as_str()),
            _ => None,
        })
        .collect()
}

fn speech(events: &[Event]) -> Vec<&str> {
    current(events)
        .into_iter()
        .filter_map(|e| match &e.kind {
            EventKind::ChatResponse(ChatResponse::Message(Some(text))) => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

fn calls(events: &[Event]) -> Vec<&str> {
    current(events)
        .into_iter()
        .filter_map(|e| match &e.kind {
            EventKind::ToolCallRequest { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect()
}

#[test]
fn the_replayed_chat_holds_each_prompt_call_and_reply_once() {
    let (mut reader, events) = read(MAIN, MAIN.len());
    assert_eq!(reader.format(), Some(LineFormat::Gemini));
    assert!(reader.problems().is_empty(), "{:?}", reader.problems());
    assert_eq!(
        prompts(&events),
        [
            "Fix the failing test in @src/app.ts",
            "Run the tests",
            "Ask a helper agent to review the change",
            "Thanks, that's all"
        ],
        "displayContent, not the @file expansion; the rewound prompt is gone"
    );
    assert_eq!(
        calls(&events),
        ["read_file", "replace", "run_shell_command", "glob", "invoke_agent"]
    );
    let failed = current(&events)
        .into_iter()
        .filter(|e| matches!(e.kind, EventKind::ToolCallResponse { is_error: true, .. }))
        .count();
    assert_eq!(failed, 1, "only the shell call failed; cancelled is not failed");
    assert_eq!(speech(&events).len(), 5, "{:?}", speech(&events));
    assert_eq!(reader.title(), Some("Fix the add() bug in app.ts"));
    let links = StreamReader::take_subagents(&mut reader);
    assert_eq!(links.len(), 1);
    assert_eq!(links[0].call, "invoke_agent-5");
    let SubAgentSource::File(paths) = &links[0].source else {
        panic!("a file of its own: {links:?}");
    };
    assert_eq!(
        paths[0],
        "5e55a0b1-1111-4222-8333-944455556666/9a8b7c6d-aaaa-4bbb-8ccc-ddddeeeeffff.jsonl"
    );
}

#[test]
fn a_chat_fed_in_pieces_reads_as_fed_whole() {
    for bytes in [MAIN, COMPRESSED, LEGACY] {
        let whole = read(bytes, bytes.len()).1;
        for piece in [1, 7, 64] {
            assert_eq!(read(bytes, piece).1, whole, "pieces of {piece}");
        }
    }
}

#[test]
fn a_rewind_takes_back_its_messages_and_says_so() {
    let (_, events) = read(MAIN, MAIN.len());
    let rewound: Vec<&Event> = events
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::ChatRequest { content, .. } if content.starts_with("Actually")))
        .collect();
    assert_eq!(rewound.len(), 1);
    assert!(facts::superseded(rewound[0]), "kept for the raw view only");
    let turn_starts = current(&events)
        .into_iter()
        .filter(|e| matches!(e.kind, EventKind::TurnStart))
        .count();
    assert_eq!(turn_starts, 4, "the rewound prompt's turn is gone too");
    let notice = events.iter().any(|e| {
        matches!(&e.kind, EventKind::Unknown(v) if v["text"].as_str().is_some_and(|t| t.starts_with("rewound: 2 messages")))
    });
    assert!(notice);
}

#[test]
fn a_checkpoint_replaces_the_list_and_nothing_is_shown_twice() {
    let (_, events) = read(COMPRESSED, COMPRESSED.len());
    assert_eq!(prompts(&events), ["List the scripts", "And the linter?"]);
    assert_eq!(
        speech(&events),
        [
            "build, test and lint.",
            "Got it. Thanks for the additional context!",
            "eslint, with the recommended rules."
        ],
        "the surviving reply once, though the checkpoint rewrote it into parts"
    );
}

#[test]
fn a_message_written_again_replaces_its_events() {
    let meta = json!({"sessionId": "s", "projectHash": "h"});
    let prompt = json!({"id": "u1", "type": "user", "content": "go"});
    let first = json!({"id": "g1", "type": "gemini", "content": "",
        "toolCalls": [{"id": "c1", "name": "read_file", "args": {}, "status": "executing"}]});
    let second = json!({"id": "g1", "type": "gemini", "content": "Done.",
        "toolCalls": [{"id": "c1", "name": "read_file", "args": {"path": "a"}, "status": "success",
            "result": [{"functionResponse": {"id": "c1", "name": "read_file", "response": {"output": "text"}}}]}],
        "tokens": {"input": 10, "output": 2, "cached": 4, "thoughts": 1, "total": 13}});
    let bytes = [meta, prompt, first, second.clone(), second]
        .iter()
        .map(|v| format!("{v}\n"))
        .collect::<String>();
    let (reader, events) = read(bytes.as_bytes(), bytes.len());
    assert_eq!(calls(&events), ["read_file"]);
    assert_eq!(speech(&events), ["Done."]);
    assert!(reader.finished(), "the last message answers with its call done");
    let info = events.iter().find_map(facts::turn_info).expect("usage");
    assert_eq!(
        (info.input_tokens, info.output_tokens, info.cache_read_tokens),
        (Some(10), Some(3), Some(4))
    );
}

#[test]
fn a_legacy_whole_file_reads_like_lines() {
    let (reader, events) = read(LEGACY, LEGACY.len());
    assert_eq!(reader.format(), Some(LineFormat::Gemini));
    assert!(reader.problems().is_empty(), "{:?}", reader.problems());
    assert_eq!(prompts(&events), ["What is in this folder?"]);
    assert_eq!(calls(&events), ["list_directory"]);
    assert_eq!(speech(&events), ["A package.json and a src folder."]);
    let (cut, _) = read(&LEGACY[..LEGACY.len() / 2], LEGACY.len());
    assert_eq!(cut.problems().len(), 1, "a cut legacy file is one problem");
}

#[test]
fn lines_of_other_formats_are_not_gemini() {
    assert_eq!(
        line_format(&json!({"sessionId": "s", "projectHash": "h"})),
        Some(LineFormat::Gemini)
    );
    assert_eq!(line_format(&json!({"$rewindTo": "x"})), Some(LineFormat::Gemini));
    assert_eq!(
        line_format(&json!({"type": "user", "sessionId": "s", "uuid": "u"})),
        Some(LineFormat::ClaudeCode)
    );
    assert_eq!(legacy_head(b"{\n  \"sessionId\": \"s\",\n  \"projectHash\": \"h\"", false), Some(true));
    assert_eq!(legacy_head(b"{\"a\":1}\n", false), Some(false));
    assert_eq!(legacy_head(b"{\n  \"a\": 1", false), None);
    assert_eq!(legacy_head(b"{\n  \"a\": 1", true), Some(false));
}
