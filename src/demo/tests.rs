use base64::Engine as _;

use super::*;

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
fn the_stored_conversation_decodes_to_the_bundled_one_as_jp_writes_it() {
    let bundled = stored().unwrap();
    let stored: Vec<Value> = serde_json::from_slice(&bundled.events).unwrap();
    let decoded: Vec<Value> = stored.iter().cloned().map(decode_event).collect();
    assert_eq!(decoded, bundled_events());
    // Pretty-printed with two spaces, like JP.
    assert_eq!(bundled.events, serde_json::to_vec_pretty(&stored).unwrap());
    assert!(bundled.events.starts_with(b"[\n  {\n    \"timestamp\""));
    assert_eq!(bundled.base_config, BASE_CONFIG_JSON);
    let metadata: Value = serde_json::from_str(METADATA_JSON).unwrap();
    assert_eq!(bundled.title.as_deref(), metadata["title"].as_str());
    assert!(bundled.title.is_some());
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
