//! Shared helpers of the eve reader tests: reading fixtures and describing
//! canonical events in one line each, so a test states exactly what a user
//! would rely on.

#![allow(dead_code)]

use std::path::PathBuf;

use overhear::format::eve::EveReader;
use overhear::model::{ChatResponse, Content, Event, EventKind, facts};

/// The folder of the hand-written eve streams.
pub fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/eve")
}

/// The bytes of one hand-written stream.
pub fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(fixtures_dir().join(name)).expect("fixture exists")
}

/// Reads one hand-written stream whole.
pub fn read(name: &str) -> EveReader {
    EveReader::read_all(&fixture(name))
}

fn blocks(content: &Content) -> String {
    match content {
        Content::Text(t) => format!("{t:?}"),
        Content::Blocks(blocks) => blocks
            .iter()
            .map(|b| {
                let who = match b.audience() {
                    overhear::model::Audience::User => "user",
                    overhear::model::Audience::Assistant => "assistant",
                    overhear::model::Audience::Both => "both",
                };
                let mime = b.mime_type().map(|m| format!(" {m}")).unwrap_or_default();
                format!("[{who}{mime}: {:?}]", b.display_text().unwrap_or(""))
            })
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// One line per event: type, key fields, and the overhear.* marks.
pub fn describe(event: &Event) -> String {
    let mut s = match &event.kind {
        EventKind::TurnStart => "turn_start".to_string(),
        EventKind::ChatRequest { content, .. } => format!("request {content:?}"),
        EventKind::ChatResponse(ChatResponse::Message(Some(m))) => format!("message {m:?}"),
        EventKind::ChatResponse(ChatResponse::Message(None)) => "message <silence>".to_string(),
        EventKind::ChatResponse(ChatResponse::Reasoning(r)) => format!("reasoning {r:?}"),
        EventKind::ChatResponse(ChatResponse::Data(d)) => format!("data {d}"),
        EventKind::ToolCallRequest {
            id,
            name,
            arguments,
        } => format!("call {id} {name} {arguments}"),
        EventKind::ToolCallResponse {
            id,
            content,
            is_error,
        } => format!(
            "result {id}{} {}",
            if *is_error { " error" } else { "" },
            blocks(content)
        ),
        EventKind::InquiryRequest { id, question, .. } => {
            format!("inquiry {id} {}", question["text"])
        }
        EventKind::InquiryResponse { id, answer } => format!("answer {id} {answer}"),
        other => format!("{other:?}"),
    };
    if facts::final_reply(event) {
        s.push_str(" [final]");
    }
    if facts::steering(event) {
        s.push_str(" [steering]");
    }
    if facts::superseded(event) {
        s.push_str(" [superseded]");
    }
    if facts::interrupted(event) {
        s.push_str(" [interrupted]");
    }
    if facts::attempts(event) > 1 {
        s.push_str(&format!(" [attempts {}]", facts::attempts(event)));
    }
    s
}

/// Every event described.
pub fn describe_all(reader: &EveReader) -> Vec<String> {
    reader.events().iter().map(describe).collect()
}

/// The event of a given type with a given call id.
pub fn find_call<'a>(reader: &'a EveReader, type_name: &str, call: &str) -> &'a Event {
    reader
        .events()
        .iter()
        .find(|e| {
            e.type_name() == type_name
                && match &e.kind {
                    EventKind::ToolCallRequest { id, .. }
                    | EventKind::ToolCallResponse { id, .. } => id == call,
                    _ => false,
                }
        })
        .unwrap_or_else(|| panic!("no {type_name} for {call}"))
}

/// The `overhear.turn` facts of every `turn_start`, in order.
pub fn turns(reader: &EveReader) -> Vec<facts::TurnInfo> {
    reader
        .events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::TurnStart))
        .map(|e| facts::turn_info(e).expect("turn_start carries overhear.turn"))
        .collect()
}
