use super::*;
use crate::format::PrefixHasher;
use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, URL_SAFE};
use serde_json::json;

fn b64(s: &str) -> String {
    STANDARD.encode(s)
}

fn events(value: Value) -> Vec<u8> {
    serde_json::to_vec_pretty(&value).unwrap()
}

#[test]
fn base64_standard_then_url_safe_then_raw() {
    assert_eq!(
        decode_base64(b64("crates/jp_cli/build.rs")),
        "crates/jp_cli/build.rs"
    );
    // ">>>?" encodes to "Pj4-Pw==" in URL_SAFE, which STANDARD rejects.
    let url_safe = URL_SAFE.encode(">>>?");
    assert!(url_safe.contains('-'));
    assert_eq!(decode_base64(url_safe), ">>>?");
    assert_eq!(decode_base64("hello world".into()), "hello world");
    // Valid base64 of bytes that are not UTF-8 stays as stored.
    let binary = STANDARD.encode([0xff, 0xfe, 0x00]);
    assert_eq!(decode_base64(binary.clone()), binary);
}

#[test]
fn current_generation_uses_base_config_file() {
    let stored = events(json!([{"timestamp": "2026-04-10 17:04:20.531233", "type": "turn_start"}]));
    let load = load(&stored, Some(br#"{"conversation": {}}"#)).unwrap();
    assert_eq!(load.generation, Some(Generation::Current));
    assert_eq!(load.base_config, Some(json!({"conversation": {}})));
    assert_eq!(load.events.len(), 1);
}

#[test]
fn legacy_wrapped_base_is_not_an_event() {
    let stored = events(json!([
        {"type": "config_delta", "timestamp": "2025-12-20 10:00:00.0", "delta": {"style": {"x": 1}}},
        {"timestamp": "2025-12-20 10:00:01.0", "type": "chat_request", "content": "hi"},
        {"type": "config_delta", "timestamp": "2025-12-20 10:00:02.0", "delta": {"style": {"x": 2}}}
    ]));
    let load = load(&stored, None).unwrap();
    assert_eq!(load.generation, Some(Generation::LegacyWrapped));
    assert_eq!(load.base_config, Some(json!({"style": {"x": 1}})));
    assert_eq!(load.events.len(), 2);
    assert!(matches!(load.events[1].kind, EventKind::ConfigDelta { .. }));
}

#[test]
fn legacy_flattened_base_keeps_inline_keys() {
    let stored = events(json!([
        {"type": "config_delta", "timestamp": "2025-12-01 10:00:00.0", "conversation": {"tools": {}}, "style": {}},
        {"timestamp": "2025-12-01 10:00:01.0", "type": "chat_request", "content": "hi"}
    ]));
    let load = load(&stored, None).unwrap();
    assert_eq!(load.generation, Some(Generation::LegacyFlattened));
    assert_eq!(
        load.base_config,
        Some(json!({"conversation": {"tools": {}}, "style": {}}))
    );
    assert_eq!(load.events.len(), 1);
}

#[test]
fn tool_arguments_content_and_metadata_are_decoded() {
    let rendered = b64(&b64("\u{1b}[32m+1\u{1b}[39m"));
    let stored = events(json!([
        {"timestamp": "t", "type": "tool_call_request", "id": "a", "name": "fs_read_file",
         "arguments": {"path": b64("src/lib.rs"), "n": 3, "list": [b64("x")]},
         "metadata": {"rendered_arguments": rendered}},
        {"timestamp": "t", "type": "tool_call_response", "id": "a", "content": b64("fn main() {}"), "is_error": false}
    ]));
    let load = load(&stored, Some(b"{}")).unwrap();
    let EventKind::ToolCallRequest { arguments, .. } = &load.events[0].kind else {
        panic!()
    };
    assert_eq!(
        &**arguments,
        &json!({"path": "src/lib.rs", "n": 3, "list": ["x"]})
    );
    assert_eq!(
        load.events[0].metadata["rendered_arguments"],
        json!("\u{1b}[32m+1\u{1b}[39m")
    );
    let EventKind::ToolCallResponse { content, .. } = &load.events[1].kind else {
        panic!()
    };
    assert_eq!(content, &Content::Text("fn main() {}".into()));
}

#[test]
fn block_content_and_is_error_spelling() {
    let stored = events(json!([
        {"timestamp": "t", "type": "tool_call_response", "id": "a", "isError": true,
         "content": [{"type": "text", "text": "Phase 1 done.", "mimeType": "text/markdown",
                      "annotations": {"audience": ["user"]}}]}
    ]));
    let load = load(&stored, Some(b"{}")).unwrap();
    let EventKind::ToolCallResponse {
        content: Content::Blocks(blocks),
        is_error,
        ..
    } = &load.events[0].kind
    else {
        panic!()
    };
    assert!(is_error);
    assert_eq!(blocks[0].audience(), crate::model::Audience::User);
    assert_eq!(blocks[0].display_text(), Some("Phase 1 done."));
}

#[test]
fn malformed_event_is_reported_and_kept_as_unknown() {
    let stored = events(json!([
        {"timestamp": "t", "type": "chat_request", "content": "first"},
        {"timestamp": "t", "type": "tool_call_request", "name": "x"},
        {"timestamp": "t", "type": "chat_request", "content": "third"}
    ]));
    let load = load(&stored, Some(b"{}")).unwrap();
    assert_eq!(load.events.len(), 3);
    assert!(matches!(load.events[1].kind, EventKind::Unknown(_)));
    assert_eq!(load.diagnostics.len(), 1);
    assert_eq!(
        load.diagnostics[0].to_string(),
        "event 1: tool_call_request: missing key `id`"
    );
}

#[test]
fn an_entry_that_fails_late_is_kept_exactly_as_stored() {
    // The mistyped key comes after the content and metadata were decoded:
    // the entry shown in the raw view must still be the stored one.
    let entry = json!({"timestamp": "t", "type": "tool_call_response", "id": "c1",
                       "content": "Zm9v", "metadata": {"note": "YmFy"}, "is_error": "yes"});
    let load = load(&events(json!([entry.clone()])), Some(b"{}")).unwrap();
    assert_eq!(load.events[0].kind, EventKind::Unknown(Box::new(entry)));
    assert_eq!(
        load.diagnostics[0].to_string(),
        "event 0: tool_call_response: key `is_error` must be a boolean, found a string"
    );
}

#[test]
fn unknown_types_are_kept_verbatim() {
    let stored = events(json!([{"type": "future_thing", "x": "Zm9v"}]));
    let load = load(&stored, Some(b"{}")).unwrap();
    assert_eq!(
        load.events[0].kind,
        EventKind::Unknown(Box::new(json!({"type": "future_thing", "x": "Zm9v"})))
    );
    assert!(load.diagnostics.is_empty());
}

#[test]
fn syntax_error_names_line_and_column() {
    let err = load(b"[\n  {\"type\": \"turn_start\"}\n  {}\n]", None).unwrap_err();
    let LoadError::Events(err) = err else {
        panic!()
    };
    assert_eq!((err.line, err.column), (3, 3));
    assert_eq!(err.to_string(), "line 3, column 3: expected `,` or `]`");
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!("[{}{}]", "[".repeat(10_000), "]".repeat(10_000));
    assert!(load(deep.as_bytes(), None).is_err());
}

fn appended(delta: Delta) -> Vec<Event> {
    match delta {
        Delta::Appended(load) => load.events,
        other => panic!("expected an append, got {other:?}"),
    }
}

#[test]
fn stream_appends_only_the_new_tail() {
    let first = json!([
        {"timestamp": "t1", "type": "turn_start"},
        {"timestamp": "t2", "type": "chat_request", "content": "hi"}
    ]);
    let (mut stream, loaded) = JpStream::open(&events(first.clone()), Some(b"{}")).unwrap();
    let mut all = loaded.events;
    assert_eq!(
        stream.update(&events(first), Some(b"{}")).unwrap(),
        Delta::Unchanged
    );

    let second = json!([
        {"timestamp": "t1", "type": "turn_start"},
        {"timestamp": "t2", "type": "chat_request", "content": "hi"},
        {"timestamp": "t3", "type": "chat_response", "message": "hello"}
    ]);
    let added = appended(stream.update(&events(second), Some(b"{}")).unwrap());
    assert_eq!(added.len(), 1);
    all.extend(added);
    let third = json!([
        {"timestamp": "t1", "type": "turn_start"},
        {"timestamp": "t2", "type": "chat_request", "content": "hi"},
        {"timestamp": "t3", "type": "chat_response", "message": "hello"},
        {"timestamp": "t4", "type": "turn_start"},
        {"timestamp": "t5", "type": "chat_request", "content": "again"}
    ]);
    let third_bytes = events(third);
    let added = appended(stream.update(&third_bytes, Some(b"{}")).unwrap());
    assert_eq!(added.len(), 2);
    all.extend(added);
    assert_eq!(all, load(&third_bytes, Some(b"{}")).unwrap().events);

    // A rewrite in the middle re-reads everything.
    let changed = json!([{"timestamp": "t1", "type": "turn_start"}]);
    match stream.update(&events(changed), Some(b"{}")).unwrap() {
        Delta::Reloaded(load) => assert_eq!(load.events.len(), 1),
        other => panic!("expected a reload, got {other:?}"),
    }
}

#[test]
fn stream_from_empty_array_and_legacy_base() {
    let (mut stream, _) = JpStream::open(b"[]\n", None).unwrap();
    let one = events(json!([
        {"type": "config_delta", "timestamp": "t0", "delta": {}},
        {"timestamp": "t1", "type": "chat_request", "content": "hi"}
    ]));
    // The first entry of a legacy file is the base, so this re-reads.
    assert!(matches!(
        stream.update(&one, None).unwrap(),
        Delta::Reloaded(_)
    ));
    let two = events(json!([
        {"type": "config_delta", "timestamp": "t0", "delta": {}},
        {"timestamp": "t1", "type": "chat_request", "content": "hi"},
        {"timestamp": "t2", "type": "chat_response", "message": "yo"}
    ]));
    let added = appended(stream.update(&two, None).unwrap());
    assert_eq!(added, load(&two, None).unwrap().events[1..].to_vec());
}

/// `update_rest` of `bytes`, hashing the prefix the way a reader does.
fn update_rest(stream: &mut JpStream, bytes: &[u8]) -> Option<Delta> {
    let mut hasher = PrefixHasher::new();
    let at = stream.prefix_len().min(bytes.len());
    hasher.update(&bytes[..at]);
    stream.update_rest(hasher, &bytes[at..], Some(b"{}"))
}

#[test]
fn a_file_read_in_two_parts_updates_like_a_whole_one() {
    let first = json!([
        {"timestamp": "t1", "type": "turn_start"},
        {"timestamp": "t2", "type": "chat_request", "content": "hi"}
    ]);
    let second = json!([
        {"timestamp": "t1", "type": "turn_start"},
        {"timestamp": "t2", "type": "chat_request", "content": "hi"},
        {"timestamp": "t3", "type": "chat_response", "message": "hello"}
    ]);
    let (mut stream, _) = JpStream::open(&events(first.clone()), Some(b"{}")).unwrap();
    let mut whole = stream.clone();
    assert_eq!(
        update_rest(&mut stream, &events(first)),
        Some(Delta::Unchanged)
    );
    let added = update_rest(&mut stream, &events(second.clone()));
    assert_eq!(
        added,
        Some(whole.update(&events(second), Some(b"{}")).unwrap())
    );
    assert_eq!(stream.prefix_len(), whole.prefix_len());

    let edited = json!([
        {"timestamp": "t1", "type": "turn_start"},
        {"timestamp": "t2", "type": "chat_request", "content": "HI"},
        {"timestamp": "t3", "type": "chat_response", "message": "hello"},
        {"timestamp": "t4", "type": "chat_response", "message": "again"}
    ]);
    assert_eq!(
        update_rest(&mut stream, &events(edited)),
        None,
        "an earlier entry changed: the whole file must be read"
    );
}

/// The hasher of the first `len` bytes of `bytes`, as a reader hashes them.
fn hashed(bytes: &[u8], len: usize) -> PrefixHasher {
    let mut hasher = PrefixHasher::new();
    hasher.update(&bytes[..len]);
    hasher
}

#[test]
fn a_rewrite_read_before_its_prefix_is_proven_is_taken_only_once_it_is() {
    let first = events(json!([
        {"timestamp": "t1", "type": "turn_start"},
        {"timestamp": "t2", "type": "chat_request", "content": "hi"}
    ]));
    let second = events(json!([
        {"timestamp": "t1", "type": "turn_start"},
        {"timestamp": "t2", "type": "chat_request", "content": "hi"},
        {"timestamp": "t3", "type": "chat_response", "message": "hello"}
    ]));
    let (mut stream, _) = JpStream::open(&first, Some(b"{}")).unwrap();
    let before = stream.clone();
    let at = stream.prefix_len();
    let (delta, ahead) = stream.read_rest(&second[at..], Some(b"{}")).unwrap();
    assert_eq!(
        delta,
        JpStream::open(&first, Some(b"{}"))
            .unwrap()
            .0
            .update(&second, Some(b"{}"))
            .unwrap(),
        "what the rest holds is read as a whole update reads it"
    );
    assert_eq!(stream, before, "nothing is taken before the proof");
    assert!(stream.prove(hashed(&second, at), &second[at..], ahead));
    assert_eq!(
        stream,
        JpStream::open(&second, Some(b"{}")).unwrap().0,
        "once proven, the follower is the one a first read of the new file makes"
    );

    // The same new entry after an earlier one that changed (same length).
    let edited = events(json!([
        {"timestamp": "t1", "type": "turn_start"},
        {"timestamp": "t2", "type": "chat_request", "content": "HI"},
        {"timestamp": "t3", "type": "chat_response", "message": "hello"}
    ]));
    let (mut stream, _) = JpStream::open(&first, Some(b"{}")).unwrap();
    let (delta, ahead) = stream.read_rest(&edited[at..], Some(b"{}")).unwrap();
    assert!(matches!(delta, Delta::Appended(_)), "read before the proof");
    assert!(
        !stream.prove(hashed(&edited, at), &edited[at..], ahead),
        "the earlier entry changed: not proven"
    );
    assert_eq!(stream, before, "a change not proven is not taken");
}
