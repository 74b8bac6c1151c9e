//! Properties over the real JP conversations named by `$OVERHEAR_CORPUS`
//! (`.ci/run` sets it to `../shared/fixtures/jp`). Without it the tests say
//! they skipped and pass: `cargo test` on a fresh clone needs nothing else.

use crate::common;

use std::collections::BTreeMap;

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, URL_SAFE};
use overhear::format::jp;
use overhear::model::{Content, Conversation, EventKind, Item};
use serde_json::Value;

fn read(dir: &std::path::Path) -> (Vec<u8>, Option<Vec<u8>>) {
    let events = std::fs::read(dir.join("events.json")).unwrap();
    let base = std::fs::read(dir.join("base_config.json")).ok();
    (events, base)
}

#[test]
fn every_conversation_loads_without_diagnostics() {
    let Some(dirs) = common::corpus::jp_conversations() else {
        return;
    };
    for dir in dirs {
        let (events, base) = read(&dir);
        let load = jp::load(&events, base.as_deref()).unwrap_or_else(|e| panic!("{dir:?}: {e}"));
        assert!(
            load.diagnostics.is_empty(),
            "{dir:?}: {:?}",
            load.diagnostics
        );
        assert!(load.base_config.is_some(), "{dir:?}: no base config found");
    }
}

#[test]
fn event_counts_per_type_match_an_independent_count() {
    let Some(dirs) = common::corpus::jp_conversations() else {
        return;
    };
    for dir in dirs {
        let (events, base) = read(&dir);
        let raw: Vec<Value> = serde_json::from_slice(&events).unwrap();
        let mut expected: BTreeMap<String, usize> = BTreeMap::new();
        for (i, e) in raw.iter().enumerate() {
            // The leading base config of a legacy file is not an event.
            if i == 0 && base.is_none() && e["type"] == "config_delta" {
                continue;
            }
            *expected
                .entry(e["type"].as_str().unwrap_or("").to_string())
                .or_default() += 1;
        }
        let load = jp::load(&events, base.as_deref()).unwrap();
        let mut actual: BTreeMap<String, usize> = BTreeMap::new();
        for e in &load.events {
            *actual.entry(e.type_name().to_string()).or_default() += 1;
        }
        assert_eq!(actual, expected, "{dir:?}");
    }
}

#[test]
fn every_tool_response_pairs_with_a_request() {
    let Some(dirs) = common::corpus::jp_conversations() else {
        return;
    };
    for dir in dirs {
        let (events, base) = read(&dir);
        let load = jp::load(&events, base.as_deref()).unwrap();
        let responses = load
            .events
            .iter()
            .filter(|e| matches!(e.kind, EventKind::ToolCallResponse { .. }))
            .count();
        let conv = Conversation::new(load.events, load.base_config, None);
        let mut paired = 0;
        for turn in &conv.turns {
            for item in &turn.items {
                assert!(
                    !matches!(item, Item::OrphanResponse(_)),
                    "{dir:?}: orphan response"
                );
                if let Item::ToolCall(call) = item {
                    paired += usize::from(call.response.is_some());
                }
            }
        }
        assert_eq!(paired, responses, "{dir:?}");
    }
}

fn decodes_to_text(s: &str) -> bool {
    [&STANDARD, &URL_SAFE].iter().any(|engine| {
        engine
            .decode(s)
            .ok()
            .is_some_and(|bytes| String::from_utf8(bytes).is_ok())
    })
}

#[test]
fn no_decoded_tool_content_still_looks_like_base64() {
    let Some(dirs) = common::corpus::jp_conversations() else {
        return;
    };
    let mut checked = 0;
    for dir in dirs {
        let (events, base) = read(&dir);
        let raw: Vec<Value> = serde_json::from_slice(&events).unwrap();
        let load = jp::load(&events, base.as_deref()).unwrap();
        let responses = load.events.iter().filter_map(|e| match &e.kind {
            EventKind::ToolCallResponse {
                id,
                content: Content::Text(text),
                ..
            } => Some((id, text)),
            _ => None,
        });
        let stored = raw.iter().filter(|e| e["type"] == "tool_call_response");
        for ((id, decoded), stored) in responses.zip(stored) {
            assert_eq!(stored["id"].as_str(), Some(id.as_str()));
            let stored = stored["content"].as_str().unwrap_or("");
            if decodes_to_text(stored) && !stored.is_empty() {
                checked += 1;
                assert_ne!(decoded, stored, "{dir:?}: {id} was left encoded");
            }
        }
    }
    assert!(checked > 100, "only {checked} encoded results found");
}

#[test]
fn reading_while_streaming_the_file_equals_reading_it_whole() {
    let Some(dirs) = common::corpus::jp_conversations() else {
        return;
    };
    for dir in dirs {
        let (events, base) = read(&dir);
        let whole = jp::JpStream::open(&events, base.as_deref()).unwrap();
        let mut file = std::fs::File::open(dir.join("events.json")).unwrap();
        let streamed = jp::JpStream::read_from(&mut file, base.as_deref()).unwrap();
        assert_eq!(streamed, Some(whole), "{dir:?}");
    }
}

#[test]
fn the_pickers_count_equals_the_loaded_events() {
    let Some(dirs) = common::corpus::jp_conversations() else {
        return;
    };
    for dir in dirs {
        let (events, base) = read(&dir);
        let loaded = jp::load(&events, base.as_deref()).unwrap();
        assert_eq!(
            jp::count_events(&events[..], base.is_some()).unwrap(),
            Some(loaded.events.len()),
            "{dir:?}"
        );
    }
}
