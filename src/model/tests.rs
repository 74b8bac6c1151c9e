use std::sync::Arc;

use super::*;
use crate::model::Content;
use serde_json::json;

fn ev(kind: EventKind) -> Event {
    Event::new(None, kind)
}

fn request(id: &str) -> Event {
    ev(EventKind::ToolCallRequest {
        id: id.into(),
        name: "fs_modify_file".into(),
        arguments: Arc::new(json!({})),
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
        ev(EventKind::ConfigDelta {
            delta: json!({}).into(),
        }),
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
        vec![Item::ToolCall(Box::new(ToolCall {
            request: 0,
            response: None,
            inquiries: Box::default()
        }))]
    );
}

#[test]
fn adjacent_speech_is_joined() {
    let events = vec![message("Hel"), message("lo"), request("a"), message("bye")];
    let conv = Conversation::new(events, None, None);
    assert_eq!(conv.turns[0].items[0], Item::Speech(0..2));
    assert_eq!(conv.turns[0].items[2], Item::Speech(3..4));
}

#[test]
fn inquiries_attach_to_their_call() {
    let events = vec![
        request("toolu_1"),
        ev(EventKind::InquiryRequest {
            id: "toolu_1.apply_changes".into(),
            source: Box::new(json!({"source": "tool", "name": "fs_modify_file"})),
            question: Box::new(json!({"text": "Apply?"})),
        }),
        ev(EventKind::InquiryResponse {
            id: "toolu_1.apply_changes".into(),
            answer: Box::new(json!(true)),
        }),
        response("toolu_1"),
    ];
    let conv = Conversation::new(events, None, None);
    let Item::ToolCall(call) = &conv.turns[0].items[0] else {
        panic!()
    };
    assert_eq!(
        *call.inquiries,
        [InquiryPair {
            request: 1,
            response: Some(2)
        }]
    );
    assert_eq!(call.response, Some(3));
    assert_eq!(conv.turns[0].items.len(), 1);
}

/// Adjacent messages are joined into one speech, but for a turn that
/// records turn facts (eve: whole messages, one per step), wherever in the
/// turn its facts are.
#[test]
fn adjacent_messages_stay_apart_in_a_turn_with_turn_facts() {
    let info = facts::TurnInfo {
        model: Some("m".into()),
        ..facts::TurnInfo::default()
    };
    let mut start = ev(EventKind::TurnStart);
    facts::set_value(&mut start, facts::TURN, &info);
    let plain = vec![ev(EventKind::TurnStart), message("a"), message("b")];
    let conv = Conversation::new(plain, None, None);
    assert_eq!(conv.turns[0].items[1..], [Item::Speech(1..3)]);
    let apart = [Item::Speech(1..2), Item::Speech(2..3)];
    let whole = vec![start, message("a"), message("b")];
    let conv = Conversation::new(whole, None, None);
    assert_eq!(conv.turns[0].items[1..], apart);
    // The facts on the last message of the turn.
    let mut last = message("b");
    facts::set_value(&mut last, facts::TURN, &info);
    let whole = vec![ev(EventKind::TurnStart), message("a"), last];
    let conv = Conversation::new(whole, None, None);
    assert_eq!(conv.turns[0].items[1..], apart);
}

/// An inquiry attaches to the latest call of its id in its turn, whether
/// that call came before the turn's first inquiry or after it.
#[test]
fn an_inquiry_attaches_to_the_latest_call_of_its_id() {
    let events = vec![
        request("a"),
        request("a"),
        inquiry("a.first", false),
        request("b"),
        inquiry("b.q", false),
        request("a"),
        inquiry("a.second", false),
    ];
    let conv = Conversation::new(events, None, None);
    let asked = |slot: usize| match &conv.turns[0].items[slot] {
        Item::ToolCall(call) => (call.request, call.inquiries.to_vec()),
        other => panic!("{other:?}"),
    };
    let pair = |request| InquiryPair {
        request,
        response: None,
    };
    assert_eq!(conv.turns[0].items.len(), 4);
    assert_eq!(asked(0), (0, vec![]));
    assert_eq!(asked(1), (1, vec![pair(2)]));
    assert_eq!(asked(2), (3, vec![pair(4)]));
    assert_eq!(asked(3), (5, vec![pair(6)]));
}

#[test]
fn inquiries_naming_their_call_attach_to_it() {
    // eve's ids say nothing of the call; the reader names it in the metadata.
    let mut question = ev(EventKind::InquiryRequest {
        id: "approve-1".into(),
        source: Box::new(json!({"source": "tool", "name": "deploy"})),
        question: Box::new(json!({"text": "Approve tool call: deploy"})),
    });
    facts::set_value(&mut question, facts::CALL_ID, "deploy-call");
    let events = vec![
        request("other-call"),
        request("deploy-call"),
        question,
        ev(EventKind::InquiryResponse {
            id: "approve-1".into(),
            answer: Box::new(json!(true)),
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
        *call.inquiries,
        [InquiryPair {
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

fn inquiry(id: &str, answered: bool) -> Event {
    if answered {
        ev(EventKind::InquiryResponse {
            id: id.into(),
            answer: Box::new(json!(true)),
        })
    } else {
        ev(EventKind::InquiryRequest {
            id: id.into(),
            source: Box::new(json!({"source": "tool", "name": "fs_modify_file"})),
            question: Box::new(json!({"text": "Apply?"})),
        })
    }
}

fn delta() -> Event {
    ev(EventKind::ConfigDelta {
        delta: json!({}).into(),
    })
}

/// Turns with config deltas before their start, a response answering a call
/// of an earlier turn, reused ids, inquiries, orphans and unknown entries.
fn mixed() -> Vec<Event> {
    vec![
        delta(),
        ev(EventKind::TurnStart),
        user("a"),
        request("x"),
        message("m"),
        delta(),
        ev(EventKind::TurnStart),
        user("b"),
        response("x"),
        request("x"),
        inquiry("x.q", false),
        inquiry("x.q", true),
        response("x"),
        response("ghost"),
        inquiry("lone", true),
        ev(EventKind::TurnStart),
        ev(EventKind::TurnStart),
        user("c"),
        request("y"),
        ev(EventKind::Unknown(Box::new(json!({"type": "future"})))),
        delta(),
        ev(EventKind::TurnStart),
        message("Hel"),
        message("lo"),
        response("y"),
        request("y"),
        response("y"),
    ]
}

#[test]
fn appending_groups_like_reading_everything_at_once() {
    let events = mixed();
    let whole = Conversation::new(events.clone(), None, None);
    for from in 0..=events.len() {
        for to in from..=events.len() {
            let old = Conversation::new(events[..from].to_vec(), None, None);
            let mut conv = old.clone();
            let first = conv.extend(events[from..to].to_vec());
            let untouched = first.min(conv.extend(events[to..].to_vec()));
            assert_eq!(conv.events, whole.events);
            assert_eq!(
                conv.turns, whole.turns,
                "appended {from}..{to}, then the rest"
            );
            assert_eq!(
                conv.turns[..untouched],
                old.turns[..untouched],
                "appended after {from}: a turn reported untouched changed"
            );
        }
    }
}

#[test]
fn appending_a_turn_leaves_the_earlier_turns_untouched() {
    let mut conv = Conversation::new(mixed(), None, None);
    let before = conv.turns.len();
    let untouched = conv.extend(vec![ev(EventKind::TurnStart), user("next")]);
    assert_eq!(conv.turns.len(), before + 1);
    assert_eq!(untouched, before - 1, "only the last turn is split again");
    assert_eq!(conv.extend(Vec::new()), conv.turns.len(), "nothing new");
}

#[test]
fn a_late_answer_to_an_earlier_turns_call_regroups_that_turn() {
    let mut conv = Conversation::new(
        vec![
            user("a"),
            request("slow"),
            ev(EventKind::TurnStart),
            user("b"),
            ev(EventKind::TurnStart),
            user("c"),
        ],
        None,
        None,
    );
    let untouched = conv.extend(vec![response("slow")]);
    assert_eq!(untouched, 0);
    assert_eq!(
        conv.turns[0].items[1],
        Item::ToolCall(Box::new(ToolCall {
            request: 1,
            response: Some(6),
            inquiries: Box::default()
        }))
    );
}

#[test]
fn replacing_the_end_groups_like_reading_everything_at_once() {
    let events = mixed();
    let whole = Conversation::new(events.clone(), None, None);
    let tails: Vec<Vec<Event>> = vec![
        vec![],
        vec![message("other")],
        vec![response("x"), response("y")],
        vec![ev(EventKind::TurnStart), user("z"), request("x")],
        vec![delta(), ev(EventKind::TurnStart)],
    ];
    for from in 0..=events.len() {
        for tail in &tails {
            let mut old_events = events[..from].to_vec();
            old_events.extend(tail.iter().cloned());
            let old = Conversation::new(old_events, None, None);
            let mut conv = old.clone();
            let untouched = conv.replace_from(from, events[from..].to_vec());
            assert_eq!(conv.events, whole.events);
            assert_eq!(conv.turns, whole.turns, "from {from}, tail {tail:?}");
            assert_eq!(
                conv.turns[..untouched],
                old.turns[..untouched],
                "from {from}: a turn reported untouched changed"
            );
            assert!(
                conv.turns[..untouched].iter().all(|t| t.events.end <= from),
                "from {from}: an untouched turn holds a replaced event"
            );
        }
    }
}

/// A followed stream keeps an item per event: a tool call (the largest
/// kind) is boxed, so an item is as small as a run of speech (it was 56
/// bytes).
#[test]
fn an_item_stays_small() {
    let size = std::mem::size_of::<Item>();
    assert!(size <= 24, "Item is {size} bytes");
}

/// The raw view reads a turn's id in place; it is the one of its facts.
#[test]
fn a_turn_id_read_in_place_is_the_one_of_the_facts() {
    let mut start = Event::new(None, EventKind::TurnStart);
    assert_eq!(facts::turn_id(&start), None);
    let info = facts::TurnInfo {
        turn_id: Some("turn_7".into()),
        ..facts::TurnInfo::default()
    };
    facts::set_value(&mut start, facts::TURN, &info);
    assert_eq!(facts::turn_id(&start), Some("turn_7"));
    assert_eq!(
        facts::turn_info(&start).and_then(|t| t.turn_id).as_deref(),
        Some("turn_7")
    );
}

/// Four turns: a call answered in the next turn, one not answered yet, a
/// question about a call, speech.
#[cfg(feature = "cli")]
fn turns_with_calls_across() -> Vec<Event> {
    vec![
        ev(EventKind::TurnStart),
        user("first"),
        request("a"),
        request("z"),
        message("calling"),
        ev(EventKind::TurnStart),
        user("second"),
        response("a"),
        request("b"),
        inquiry("b.sure", false),
        inquiry("b.sure", true),
        response("b"),
        ev(EventKind::TurnStart),
        user("third"),
        message("one"),
        message("two"),
        ev(EventKind::TurnStart),
        user("fourth"),
        request("c"),
    ]
}

#[cfg(feature = "cli")]
#[test]
fn items_grouped_later_in_outline_are_the_items_grouped_at_once() {
    let events = turns_with_calls_across();
    let whole = Conversation::new(events.clone(), None, None);
    let mut outline = Conversation::in_outline(events, None, None);
    assert_eq!(outline.turns.len(), whole.turns.len());
    for (turn, full) in outline.turns.iter().zip(&whole.turns) {
        assert_eq!(turn.events, full.events, "the same turns");
        assert!(turn.items.is_empty(), "no items before a turn is decoded");
    }
    // The viewer decodes the last turns first.
    outline.group_items_from(2);
    assert_eq!(outline.turns[2..], whole.turns[2..]);
    assert!(outline.turns[1].items.is_empty());
    // Answers appended to a call of the last turn and to one of the first,
    // still in outline: that turn stays without items until decoded.
    let more = || vec![response("c"), response("z"), message("done")];
    let untouched = outline.extend(more());
    let mut grown = turns_with_calls_across();
    grown.extend(more());
    let whole = Conversation::new(grown, None, None);
    assert_eq!(untouched, 0, "the first turn's call is answered");
    assert_eq!(outline.turns[2..], whole.turns[2..]);
    assert!(outline.turns[0].items.is_empty() && outline.turns[1].items.is_empty());
    outline.group_items_from(0);
    assert_eq!(outline.turns, whole.turns);
}
