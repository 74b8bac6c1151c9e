use std::sync::Arc;

use super::*;
use crate::model::{Audience, facts};
use serde_json::{Value, json};

fn ev(kind: EventKind) -> Event {
    Event::new(Some("2026-01-01 00:00:00.0".into()), kind)
}

fn response(blocks: Vec<Block>, is_error: bool) -> Event {
    ev(EventKind::ToolCallResponse {
        id: "call_1".into(),
        content: Content::Blocks(blocks),
        is_error,
    })
}

fn tell_user_response() -> Event {
    response(
        vec![
            Block::text("Phase 1 done.", Some("text/markdown"), Some(Audience::User)),
            Block::text("Message shown to user.", None, Some(Audience::Assistant)),
        ],
        false,
    )
}

fn all_kinds() -> Vec<Event> {
    vec![
        ev(EventKind::ConfigDelta {
            delta: json!({}).into(),
        }),
        ev(EventKind::TurnStart),
        ev(EventKind::ChatRequest {
            content: "hi".into(),
            author: None,
            schema: None,
        }),
        ev(EventKind::ChatResponse(ChatResponse::Reasoning(
            "hmm".into(),
        ))),
        ev(EventKind::ChatResponse(ChatResponse::Message(Some(
            "hello".into(),
        )))),
        ev(EventKind::ChatResponse(ChatResponse::Data(Box::new(
            json!({"a": 1}),
        )))),
        ev(EventKind::ToolCallRequest {
            id: "call_1".into(),
            name: "tell_user".into(),
            arguments: Arc::new(json!({"message": "Phase 1 done."})),
        }),
        ev(EventKind::InquiryRequest {
            id: "call_1.q".into(),
            source: Box::new(json!({"source": "tool", "name": "x"})),
            question: Box::new(json!({"text": "ok?"})),
        }),
        ev(EventKind::InquiryResponse {
            id: "call_1.q".into(),
            answer: Box::new(json!(true)),
        }),
        tell_user_response(),
        ev(EventKind::Compaction(Default::default())),
        ev(EventKind::Unknown(Box::new(json!({"type": "future"})))),
    ]
}

fn types(events: &[Event]) -> Vec<&str> {
    events.iter().map(Event::type_name).collect()
}

#[test]
fn raw_view_keeps_everything() {
    let events = all_kinds();
    assert_eq!(apply(View::Raw, &events).into_owned(), events);
}

#[test]
fn user_view_keeps_turns_requests_messages_data_and_user_blocks() {
    let out = apply(View::User, &all_kinds()).into_owned();
    assert_eq!(
        types(&out),
        [
            "turn_start",
            "chat_request",
            "chat_response",
            "chat_response",
            "tool_call_response"
        ]
    );
    let EventKind::ToolCallResponse {
        content: Content::Blocks(blocks),
        ..
    } = &out[4].kind
    else {
        panic!("expected blocks")
    };
    assert_eq!(blocks.len(), 1);
    assert_eq!(blocks[0].display_text(), Some("Phase 1 done."));
}

#[test]
fn user_view_drops_reasoning() {
    let out = apply(View::User, &all_kinds()).into_owned();
    assert!(
        out.iter()
            .all(|e| !matches!(e.kind, EventKind::ChatResponse(ChatResponse::Reasoning(_))))
    );
}

#[test]
fn user_view_drops_response_left_without_blocks() {
    let only_assistant = response(
        vec![Block::text("ack", None, Some(Audience::Assistant))],
        false,
    );
    assert!(apply(View::User, &[only_assistant]).is_empty());
}

#[test]
fn user_view_passes_string_content_unchanged() {
    let stored = ev(EventKind::ToolCallResponse {
        id: "a".into(),
        content: Content::Text("output".into()),
        is_error: false,
    });
    assert_eq!(
        apply(View::User, std::slice::from_ref(&stored)).into_owned(),
        vec![stored]
    );
}

#[test]
fn user_view_is_a_projection_responses_lose_requests() {
    let out = apply(View::User, &all_kinds()).into_owned();
    assert!(out.iter().any(|e| e.type_name() == "tool_call_response"));
    assert!(!out.iter().any(|e| e.type_name() == "tool_call_request"));
}

#[test]
fn provider_view_reduces_to_assistant_blocks() {
    let out = apply(View::Provider, &all_kinds()).into_owned();
    assert_eq!(out.len(), all_kinds().len());
    let EventKind::ToolCallResponse {
        content: Content::Blocks(blocks),
        ..
    } = &out[9].kind
    else {
        panic!("expected blocks")
    };
    assert_eq!(blocks.len(), 1);
    assert_eq!(blocks[0].display_text(), Some("Message shown to user."));
}

#[test]
fn provider_view_placeholder_for_success() {
    let only_user = response(
        vec![Block::text("secret", None, Some(Audience::User))],
        false,
    );
    let out = apply(View::Provider, &[only_user]).into_owned();
    assert_eq!(
        out[0].to_json()["content"],
        json!([{"type": "text", "text": "Tool executed successfully."}])
    );
}

#[test]
fn provider_view_placeholder_for_failure_keeps_is_error() {
    let only_user = response(
        vec![Block::text("secret", None, Some(Audience::User))],
        true,
    );
    let out = apply(View::Provider, &[only_user]).into_owned();
    let json = out[0].to_json();
    assert_eq!(json["is_error"], Value::Bool(true));
    assert_eq!(
        json["content"],
        json!([{"type": "text", "text": "Tool failed."}])
    );
    assert!(!json.to_string().contains("secret"));
}

#[test]
fn unannotated_blocks_go_to_both() {
    let both = response(vec![Block::text("shared", None, None)], false);
    assert_eq!(
        apply(View::User, std::slice::from_ref(&both)).into_owned(),
        vec![both.clone()]
    );
    assert_eq!(
        apply(View::Provider, std::slice::from_ref(&both)).into_owned(),
        vec![both]
    );
}

#[test]
fn superseded_attempts_are_in_raw_only() {
    let mut old = ev(EventKind::ChatResponse(ChatResponse::Message(Some(
        "first try".into(),
    ))));
    facts::set_flag(&mut old, facts::SUPERSEDED, true);
    let new = ev(EventKind::ChatResponse(ChatResponse::Message(Some(
        "retry".into(),
    ))));
    let events = vec![old, new.clone()];
    assert_eq!(apply(View::Raw, &events).len(), 2);
    assert_eq!(apply(View::User, &events).into_owned(), vec![new.clone()]);
    assert_eq!(apply(View::Provider, &events).into_owned(), vec![new]);
}
