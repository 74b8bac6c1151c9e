//! send_channel_update in eve streams (generation A): one update per call id,
//! in the RFD 094 shape, with its delivery outcome, and the final reply kept
//! apart from it (display-policy §4, eve-format §13).

use crate::common::eve_support;

use eve_support::{describe_all, find_call, read};
use overhear::model::{Audience, ChatResponse, Content, EventKind, facts};

const DELIVERED: &str = "Update delivered. Continue working; your final response will still be delivered automatically.";

#[test]
fn delivered_update_then_final_reply() {
    let r = read("update-then-final.ndjson");
    assert!(r.diagnostics().is_empty());
    assert_eq!(
        describe_all(&r),
        [
            "turn_start".to_string(),
            "request \"Export the report and update the wiki 🚀\"".into(),
            "call upd-1 send_channel_update {\"message\":\"The export is ready. I’m updating the project wiki now.\"}".into(),
            format!("result upd-1 [user text/markdown: \"The export is ready. I’m updating the project wiki now.\"] [assistant: {DELIVERED:?}]"),
            "reasoning \"Wiki updated; summarize.\"".into(),
            "message \"Done — the wiki links the export.\" [final]".into(),
        ]
    );
    let response = find_call(&r, "tool_call_response", "upd-1");
    assert_eq!(facts::outcome(response), Some("completed"));
    // Exactly the stored RFD 094 shape.
    assert_eq!(
        response.to_json()["content"],
        serde_json::json!([
            {"type": "text", "text": "The export is ready. I’m updating the project wiki now.",
             "mimeType": "text/markdown", "annotations": {"audience": ["user"]}},
            {"type": "text", "text": DELIVERED, "annotations": {"audience": ["assistant"]}}
        ])
    );
    assert!(
        r.in_progress().is_none(),
        "completed events replace streamed text"
    );
}

#[test]
fn user_view_is_the_updates_and_the_final_reply() {
    let r = read("update-then-final.ndjson");
    let user = overhear::model::views::apply(overhear::model::View::User, r.events());
    let said: Vec<String> = user
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ToolCallResponse { content, .. } => Some(
                content
                    .views()
                    .iter()
                    .map(|b| {
                        assert_ne!(
                            b.audience,
                            Audience::Assistant,
                            "assistant-only block in the user view"
                        );
                        b.text.unwrap_or_default().to_string()
                    })
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
            EventKind::ChatResponse(ChatResponse::Message(Some(text))) => Some(text.clone()),
            EventKind::ChatResponse(ChatResponse::Reasoning(_)) => {
                panic!("reasoning in the user view")
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        said,
        [
            "The export is ready. I’m updating the project wiki now.",
            "Done — the wiki links the export."
        ]
    );
    let finals: Vec<_> = r
        .events()
        .iter()
        .filter(|e| facts::final_reply(e))
        .collect();
    assert_eq!(finals.len(), 1);
}

#[test]
fn failed_update_is_an_error_with_the_message_kept() {
    let r = read("update-failed.ndjson");
    let response = find_call(&r, "tool_call_response", "upd-f");
    assert_eq!(
        eve_support::describe(response),
        "result upd-f error [user text/markdown: \"Status: all green ✅\"] [assistant: \"CHANNEL_UNAVAILABLE: Slack returned 503\"]"
    );
    assert_eq!(facts::outcome(response), Some("failed"));
    let last = r.events().last().unwrap();
    assert!(facts::final_reply(last));
}

#[test]
fn pending_update_has_a_request_and_no_response() {
    let r = read("update-pending.ndjson");
    assert_eq!(
        describe_all(&r),
        [
            "turn_start",
            "request \"Tell the team the build is starting.\"",
            "call upd-p send_channel_update {\"message\":\"The build is starting.\"}",
        ]
    );
    assert!(!r.finished());
    assert_eq!(eve_support::turns(&r)[0].ended, None);
}

#[test]
fn three_attempts_of_one_call_id_are_one_update() {
    let r = read("update-retried.ndjson");
    assert_eq!(
        describe_all(&r),
        [
            "turn_start".to_string(),
            "request \"Announce the deploy.\"".into(),
            "call upd-r send_channel_update {\"message\":\"Deploying v2 now.\"} [attempts 3]"
                .into(),
            format!(
                "result upd-r [user text/markdown: \"Deploying v2 now.\"] [assistant: {DELIVERED:?}] [attempts 3]"
            ),
            "message \"v2 is deployed.\" [final]".into(),
        ]
    );
    let request = find_call(&r, "tool_call_request", "upd-r");
    assert_eq!(facts::attempts(request), 3);
    assert_eq!(
        request.to_json()["metadata"]["overhear.attempts"],
        serde_json::json!(3)
    );
}

#[test]
fn updates_without_a_final_reply_leave_the_turn_unmarked() {
    let r = read("updates-no-final.ndjson");
    let events = r.events();
    let second_turn = events
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e.kind, EventKind::TurnStart))
        .nth(1)
        .map(|(i, _)| i)
        .unwrap();
    assert!(
        events[..second_turn].iter().all(|e| !facts::final_reply(e)),
        "turn_0 has updates but no final reply"
    );
    let updates: Vec<_> = events[..second_turn]
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ToolCallResponse {
                content: Content::Blocks(b),
                ..
            } => b.first().and_then(|b| b.display_text()).map(str::to_string),
            _ => None,
        })
        .collect();
    assert_eq!(
        updates,
        ["Starting the migration.", "Half of the pages are moved."]
    );
    // The narration before the last tool call is speech, not the reply.
    assert!(describe_all(&r).contains(&"message \"Moving the rest.\"".to_string()));
    assert!(facts::final_reply(events.last().unwrap()));
    assert_eq!(
        eve_support::turns(&r)[0].ended,
        Some(facts::TurnEnd::Completed)
    );
}
