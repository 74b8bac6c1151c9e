//! The library on the real corpora: `overhear::card` on the tool results of
//! the JP corpus (`$OVERHEAR_CORPUS`) is, line for line, the card the same
//! call gets in its conversation under the same style — the card shares the
//! conversation's rendering path rather than imitating it — and
//! `overhear::render` prints what `overhear render` prints, for every JP
//! conversation and eve stream (`$OVERHEAR_EVE_CORPUS`).

use crate::common;

use common::corpus;

use std::path::Path;

use serde_json::{Value, json};

/// Calls per conversation compared (the first ones that qualify).
const SAMPLE: usize = 15;

/// The conversation's events, decoded, as `overhear events` prints them.
fn events(conversation: &Path) -> Vec<Value> {
    let out = crate::common::overhear()
        .arg("events")
        .arg(conversation)
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "{}", conversation.display());
    match serde_json::from_slice(&out.stdout).expect("events prints JSON") {
        Value::Array(events) => events,
        other => panic!("events prints an array, not {other}"),
    }
}

/// Successful calls of ordinary tools with no inquiry: (name, arguments, content).
fn calls(events: &[Value]) -> Vec<(String, Value, Value)> {
    let mut calls = Vec::new();
    for (at, request) in events.iter().enumerate() {
        if request["type"] != "tool_call_request" {
            continue;
        }
        let id = &request["id"];
        let name = request["name"].as_str().unwrap_or_default();
        if matches!(name, "tell_user" | "send_channel_update") || name.contains('"') {
            continue;
        }
        let later = &events[at + 1..];
        let asked = later.iter().any(|e| {
            e["type"] == "inquiry_request"
                && e["id"]
                    .as_str()
                    .zip(id.as_str())
                    .is_some_and(|(q, id)| q.starts_with(&format!("{id}.")))
        });
        let response = later
            .iter()
            .find(|e| e["type"] == "tool_call_response" && &e["id"] == id);
        if let Some(response) = response
            && !asked
            && response["is_error"] == false
            && request["arguments"].is_object()
        {
            calls.push((
                name.to_string(),
                request["arguments"].clone(),
                response["content"].clone(),
            ));
        }
        if calls.len() == SAMPLE {
            break;
        }
    }
    calls
}

/// The same style for `tool` in the card and in the conversation, whatever
/// the conversation's own configuration says.
fn pin(styles: &mut overhear::Styles, tool: &str) {
    for key in [
        "hidden=false",
        "header=true",
        "parameters=json",
        "inline_results=10",
        "results_file_link=off",
    ] {
        styles.set_tool(tool, key).expect("a valid style key");
    }
}

#[test]
fn every_sampled_card_is_the_card_of_its_call_in_the_conversation() {
    let Some(conversations) = corpus::jp_conversations() else {
        return;
    };
    let mut compared = 0;
    for conversation in &conversations {
        let calls = calls(&events(conversation));
        let mut styles = overhear::Styles::default();
        styles.set("style.tool_call.show=true").unwrap();
        for (name, _, _) in &calls {
            pin(&mut styles, name);
        }
        let opened = overhear::Conversation::open(conversation).unwrap();
        for width in [40, 80, 200] {
            let rendered = overhear::render(
                &opened,
                &overhear::RenderOptions::default()
                    .with_width(width)
                    .with_styles(styles.clone()),
            );
            let options = overhear::CardOptions::default()
                .with_width(width)
                .with_styles(styles.clone());
            for (name, arguments, content) in &calls {
                let result = match content {
                    Value::String(text) => overhear::ToolResult::text(text.clone()),
                    blocks => overhear::ToolResult::from_value(json!({"content": blocks}))
                        .unwrap_or_else(|e| panic!("{}: {name}: {e}", conversation.display())),
                };
                let card = overhear::card(name, arguments, &result, &options);
                // The header line carries the call's duration in a
                // conversation (a card has no timestamps): compare the rest.
                let (header, body) = card.split_once('\n').expect("a card has lines");
                assert!(header.starts_with("● "), "{name}: {card}");
                let body = body.trim_end_matches('\n');
                assert!(
                    body.is_empty() || rendered.contains(body),
                    "{} at {width}: the card of {name} is not in the conversation:\n{card}",
                    conversation.display()
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 0, "the corpus has tool calls");
    eprintln!("compared {compared} cards with their conversations");
}

/// `overhear render PATH --width N` as the binary prints it.
fn rendered_by_the_binary(path: &Path, width: usize) -> String {
    let out = crate::common::overhear()
        .arg("render")
        .arg(path)
        .args(["--width", &width.to_string(), "--color", "never"])
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "{}", path.display());
    String::from_utf8(out.stdout).expect("render prints UTF-8")
}

#[test]
fn render_prints_what_the_binary_prints_for_every_real_conversation() {
    let jp = corpus::jp_conversations().unwrap_or_default();
    let eve = corpus::eve_streams().unwrap_or_default();
    for path in jp.iter().chain(&eve) {
        let conversation = overhear::Conversation::open(path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for width in [40, 120] {
            let options = overhear::RenderOptions::default().with_width(width);
            assert_eq!(
                overhear::render(&conversation, &options),
                rendered_by_the_binary(path, width),
                "{} at {width}",
                path.display()
            );
        }
    }
}
