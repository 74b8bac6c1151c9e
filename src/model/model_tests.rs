use super::*;
use crate::format::Content;
use serde_json::json;

fn ev(kind: EventKind) -> Event {
    Event::new(None, kind)
}

fn request(id: &str) -> Event {
    ev(EventKind::ToolCallRequest {
        id: id.into(),
        name: "fs_modify_file".into(),
        arguments: json!({}),
    })
}

fn response(id: &str) -> Event {
    ev(EventKind::ToolCallResponse {
        id: id.into(),
        content: Content::Text("ok".into()),
        is_error: false,
    })
}

fn user(text: &str) -> Event {
    ev(EventKind::ChatRequest {
        content: text.into(),
        author: None,
        schema: None,
    })
}

fn message(text: &str) -> Event {
    ev(EventKind::ChatResponse(ChatResponse::Message(Some(
        text.into(),
    ))))
}

#[test]
fn turn_start_opens_a_turn_only_after_an_event() {
    let events = vec![
        ev(EventKind::TurnStart),
        ev(EventKind::TurnStart),
        user("a"),
        ev(EventKind::ConfigDelta { delta: json!({}) }),
        ev(EventKind::TurnStart),
        user("b"),
    ];
    let conv = Conversation::new(events, None, None);
    let ranges: Vec<_> = conv.turns.iter().map(|t| t.events.clone()).collect();
    // The delta before the second turn's start belongs to that turn.
    assert_eq!(ranges, vec![0..3, 3..6]);
    assert_eq!(conv.turns[1].number, 2);
}

#[test]
fn events_before_first_turn_start_are_turn_one() {
    let conv = Conversation::new(vec![user("a"), message("b")], None, None);
    assert_eq!(conv.turns.len(), 1);
    assert_eq!(conv.turns[0].events, 0..2);
}

#[test]
fn reused_ids_pair_with_nearest_unanswered_request() {
    let events = vec![
        request("fs_modify_file_0"),
        response("fs_modify_file_0"),
        message("again"),
        request("fs_modify_file_0"),
        response("fs_modify_file_0"),
    ];
    let conv = Conversation::new(events, None, None);
    let calls: Vec<_> = conv.turns[0]
        .items
        .iter()
        .filter_map(|i| match i {
            Item::ToolCall(c) => Some((c.request, c.response)),
            _ => None,
        })
        .collect();
    assert_eq!(calls, vec![(0, Some(1)), (3, Some(4))]);
}

#[test]
fn parallel_calls_pair_by_id_not_adjacency() {
    let events = vec![request("a"), request("b"), response("b"), response("a")];
    let conv = Conversation::new(events, None, None);
    let calls: Vec<_> = conv.turns[0]
        .items
        .iter()
        .filter_map(|i| match i {
            Item::ToolCall(c) => Some((c.request, c.response)),
            _ => None,
        })
        .collect();
    assert_eq!(calls, vec![(0, Some(3)), (1, Some(2))]);
}

#[test]
fn request_without_response_is_pending() {
    let conv = Conversation::new(vec![request("a")], None, None);
    assert_eq!(
        conv.turns[0].items,
        vec![Item::ToolCall(ToolCall {
            request: 0,
            response: None,
            inquiries: vec![]
        })]
    );
}

#[test]
fn adjacent_speech_is_joined() {
    let events = vec![message("Hel"), message("lo"), request("a"), message("bye")];
    let conv = Conversation::new(events, None, None);
    assert_eq!(conv.turns[0].items[0], Item::Speech(vec![0, 1]));
    assert_eq!(conv.turns[0].items[2], Item::Speech(vec![3]));
}

#[test]
fn inquiries_attach_to_their_call() {
    let events = vec![
        request("toolu_1"),
        ev(EventKind::InquiryRequest {
            id: "toolu_1.apply_changes".into(),
            source: json!({"source": "tool", "name": "fs_modify_file"}),
            question: json!({"text": "Apply?"}),
        }),
        ev(EventKind::InquiryResponse {
            id: "toolu_1.apply_changes".into(),
            answer: json!(true),
        }),
        response("toolu_1"),
    ];
    let conv = Conversation::new(events, None, None);
    let Item::ToolCall(call) = &conv.turns[0].items[0] else {
        panic!()
    };
    assert_eq!(
        call.inquiries,
        vec![InquiryPair {
            request: 1,
            response: Some(2)
        }]
    );
    assert_eq!(call.response, Some(3));
    assert_eq!(conv.turns[0].items.len(), 1);
}

#[test]
fn inquiries_naming_their_call_attach_to_it() {
    // eve's ids say nothing of the call; the reader names it in the metadata.
    let mut question = ev(EventKind::InquiryRequest {
        id: "approve-1".into(),
        source: json!({"source": "tool", "name": "deploy"}),
        question: json!({"text": "Approve tool call: deploy"}),
    });
    question
        .metadata
        .insert(ext::CALL_ID.into(), json!("deploy-call"));
    let events = vec![
        request("other-call"),
        request("deploy-call"),
        question,
        ev(EventKind::InquiryResponse {
            id: "approve-1".into(),
            answer: json!(true),
        }),
    ];
    let conv = Conversation::new(events, None, None);
    let items = &conv.turns[0].items;
    assert_eq!(items.len(), 2, "{items:?}");
    let Item::ToolCall(call) = &items[1] else {
        panic!("{items:?}")
    };
    assert_eq!(call.request, 1);
    assert_eq!(
        call.inquiries,
        vec![InquiryPair {
            request: 2,
            response: Some(3)
        }]
    );
}

#[test]
fn orphan_response_is_kept() {
    let conv = Conversation::new(vec![response("ghost")], None, None);
    assert_eq!(conv.turns[0].items, vec![Item::OrphanResponse(0)]);
}
