use std::collections::BTreeSet;

use base64::Engine as _;

use super::*;
use crate::source::ConversationDir;
use crate::source::watch::{self, Change};

/// Undoes JP's storage encoding, written independently of the encoder.
fn decode(text: &str) -> String {
    String::from_utf8(
        base64::engine::general_purpose::STANDARD
            .decode(text)
            .expect("stored string is base64"),
    )
    .unwrap()
}

fn decode_leaves(value: &mut Value) {
    match value {
        Value::String(text) => *text = decode(text),
        Value::Array(items) => items.iter_mut().for_each(decode_leaves),
        Value::Object(map) => map.values_mut().for_each(decode_leaves),
        _ => {}
    }
}

fn decode_event(mut event: Value) -> Value {
    match event["type"].as_str().unwrap() {
        "tool_call_request" => decode_leaves(&mut event["arguments"]),
        "tool_call_response" => {
            if let Value::String(content) = &event["content"] {
                event["content"] = Value::String(decode(content));
            }
        }
        _ => {}
    }
    if let Some(metadata) = event.get_mut("metadata") {
        decode_leaves(metadata);
        if let Some(Value::String(rendered)) = metadata.get_mut("rendered_arguments") {
            *rendered = decode(rendered);
        }
    }
    event
}

fn bundled_events() -> Vec<Value> {
    serde_json::from_str(EVENTS_JSON).unwrap()
}

#[test]
fn playing_writes_jp_bursts_that_decode_to_the_bundled_conversation() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(DIR_NAME);
    let mut player = Player::new(&dir).unwrap();
    let mut snapshots: Vec<Vec<u8>> = Vec::new();
    while player.step().unwrap() {
        snapshots.push(fs::read(dir.join("events.json")).unwrap());
        // JP leaves no temp file behind once a write is done.
        assert!(!dir.join("events.json.tmp").exists());
    }
    assert!(player.is_finished());
    assert_eq!(snapshots.len(), player.burst_count());
    assert!(snapshots.len() >= 15, "only {} bursts", snapshots.len());

    let last = snapshots.last().unwrap();
    let stored: Vec<Value> = serde_json::from_slice(last).unwrap();
    let decoded: Vec<Value> = stored.iter().cloned().map(decode_event).collect();
    assert_eq!(decoded, bundled_events());

    // Pretty-printed with two spaces and a trailing newline, like JP.
    let mut expected = serde_json::to_vec_pretty(&stored).unwrap();
    expected.push(b'\n');
    assert_eq!(last, &expected);
    assert!(last.starts_with(b"[\n  {\n    \"timestamp\""));

    // Every intermediate file is a valid array and a prefix of the final one,
    // and each burst adds events.
    let mut previous = 0;
    for bytes in &snapshots {
        let events: Vec<Value> = serde_json::from_slice(bytes).unwrap();
        assert!(events.len() > previous);
        assert_eq!(events[..], stored[..events.len()]);
        previous = events.len();
    }
}

#[test]
fn bursts_follow_jp_write_points() {
    let events = bundled_events();
    let ends = bursts(&events);
    let kinds = |range: std::ops::Range<usize>| -> BTreeSet<&str> {
        events[range]
            .iter()
            .map(|e| e["type"].as_str().unwrap())
            .collect()
    };
    let mut start = 0;
    for &end in &ends {
        let set = kinds(start..end);
        let allowed: &[&[&str]] = &[
            &["turn_start", "chat_request"],
            &["chat_response", "tool_call_request"],
            &["tool_call_response"],
        ];
        assert!(
            allowed
                .iter()
                .any(|group| set.iter().all(|kind| group.contains(kind))),
            "burst {start}..{end} mixes {set:?}"
        );
        start = end;
    }
    // The first burst is the turn start; a parallel tool batch lands together.
    assert_eq!(
        kinds(0..ends[0]),
        BTreeSet::from(["turn_start", "chat_request"])
    );
    assert!(ends.windows(2).any(|w| {
        w[1] - w[0] == 2
            && events[w[0]..w[1]]
                .iter()
                .all(|e| e["type"] == "tool_call_response")
    }));
}

#[test]
fn encoding_matches_what_jp_stores() {
    let stored: Vec<Value> = bundled_events().into_iter().map(encode_event).collect();
    let read = stored.iter().find(|e| e["name"] == "fs_read_file").unwrap();
    // "src/config.rs"
    assert_eq!(read["arguments"]["path"], "c3JjL2NvbmZpZy5ycw==");
    let modify = stored
        .iter()
        .find(|e| e["name"] == "fs_modify_file")
        .unwrap();
    assert_eq!(modify["arguments"]["replace_using_regex"], false);
    let rendered = modify["metadata"]["rendered_arguments"].as_str().unwrap();
    assert!(decode(&decode(rendered)).starts_with("\u{1b}[38;5;10m+"));
    // Plain fields stay plain; block arrays are not encoded.
    assert!(
        stored[1]["content"]
            .as_str()
            .unwrap()
            .starts_with("Can you refactor")
    );
    let tell = stored
        .iter()
        .find(|e| e["type"] == "tool_call_response" && e["content"].is_array())
        .unwrap();
    assert_eq!(tell["content"][1]["text"], "Message shown to user.");
}

#[test]
fn title_arrives_after_the_first_burst_and_config_is_written_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let mut player = Player::new(tmp.path()).unwrap();
    player.step().unwrap();
    let meta: Value =
        serde_json::from_slice(&fs::read(tmp.path().join("metadata.json")).unwrap()).unwrap();
    assert_eq!(meta.get("title"), None);
    assert!(meta["last_activated_at"].is_string());
    let base: Value =
        serde_json::from_slice(&fs::read(tmp.path().join("base_config.json")).unwrap()).unwrap();
    assert_eq!(
        base,
        serde_json::from_str::<Value>(BASE_CONFIG_JSON).unwrap()
    );
    player.step().unwrap();
    let meta: Value =
        serde_json::from_slice(&fs::read(tmp.path().join("metadata.json")).unwrap()).unwrap();
    assert_eq!(meta, serde_json::from_str::<Value>(METADATA_JSON).unwrap());
}

#[test]
fn unchanged_files_are_not_rewritten() {
    let tmp = tempfile::tempdir().unwrap();
    let mut player = Player::new(tmp.path()).unwrap();
    player.step().unwrap();
    player.step().unwrap();
    let base = tmp.path().join("base_config.json");
    let before = fs::metadata(&base).unwrap();
    player.step().unwrap();
    let after = fs::metadata(&base).unwrap();
    use std::os::unix::fs::MetadataExt;
    assert_eq!(before.ino(), after.ino(), "base_config.json was replaced");
}

#[test]
fn the_viewer_sees_the_demo_through_the_watcher() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(DIR_NAME);
    let mut player = Player::new(&dir).unwrap();
    player.step().unwrap();
    let conv = ConversationDir::new(&dir);
    assert_eq!(conv.id.as_deref(), Some(DIR_NAME));
    let (_watch, rx) = watch::conversation(&conv).unwrap();
    player.run(Duration::ZERO).unwrap();
    let mut seen = Vec::new();
    while let Ok(change) = rx.recv_timeout(Duration::from_millis(300)) {
        seen.push(change);
    }
    assert!(seen.contains(&Change::Metadata), "{seen:?}");
    assert_eq!(seen.last(), Some(&Change::Events), "{seen:?}");
    let files = conv.read().unwrap();
    let stored: Vec<Value> = serde_json::from_slice(&files.events).unwrap();
    assert_eq!(stored.len(), bundled_events().len());
}

#[test]
fn the_bundled_conversation_shows_what_the_viewer_must_handle() {
    let events = bundled_events();
    assert!((25..=40).contains(&events.len()), "{} events", events.len());
    let count = |pred: &dyn Fn(&Value) -> bool| events.iter().filter(|e| pred(e)).count();
    let named = |name: &'static str| move |e: &Value| e["name"] == name;
    assert_eq!(count(&named("tell_user")), 2);
    assert_eq!(count(&named("send_channel_update")), 1);
    assert!(count(&|e| e["is_error"] == true) >= 1);
    assert!(count(&|e| e["reasoning"].is_string()) >= 3);
    assert!(count(&|e| e["metadata"]["rendered_arguments"].is_string()) >= 1);
    assert!(count(&|e| e["type"] == "turn_start") >= 2);
    assert!(
        count(&|e| e["content"]
            .as_str()
            .is_some_and(|c| c.starts_with("```rs\n")))
            >= 1
    );
    assert!(
        count(&|e| e["content"]
            .as_str()
            .is_some_and(
                |c| serde_json::from_str::<serde_json::Map<String, Value>>(c).is_ok()
                    && e["is_error"] == false
            ))
            >= 1
    );
    let table_reply = events
        .iter()
        .filter_map(|e| e["message"].as_str())
        .any(|m| m.contains("\n|---|"));
    assert!(table_reply, "a reply with a markdown table");
    // Tool styles: defaults plus per-tool styles, one with a custom formatter.
    let base: Value = serde_json::from_str(BASE_CONFIG_JSON).unwrap();
    let tools = &base["conversation"]["tools"];
    assert!(tools["*"]["style"].is_object());
    assert!(
        tools["fs_modify_file"]["style"]["parameters"]
            .as_str()
            .is_some_and(|p| p.contains("{{tool}}"))
    );
    assert_eq!(
        tools["tell_user"]["style"]["inline_results"]["user"],
        "chat"
    );
}
