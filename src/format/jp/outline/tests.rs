use std::io::Cursor;
use std::sync::Arc;

use proptest::prelude::*;

use super::*;
use crate::format::jp::follow::tests::fixtures;
use crate::model::Conversation;

/// The outline of `events` read `chunk` bytes at a time, and every event
/// decoded back from it.
fn outlined(
    events: &[u8],
    base: Option<&[u8]>,
    chunk: usize,
) -> Option<(JpStream, JpLoad, Option<Vec<Event>>)> {
    let (stream, load, outline) =
        JpOutline::read_in_chunks(&mut &events[..], base, chunk).unwrap()?;
    let all = 0..load.events.len();
    let decoded = outline
        .decode(&mut Cursor::new(events), all, &load.events)
        .unwrap();
    Some((stream, load, decoded))
}

/// Checks that the outline of `events` is the whole read in all but the
/// text of the events, that grouping makes the same turns and items of
/// both, and that decoding every event from the outline gives the whole
/// read's events.
fn outline_matches_the_whole_read(name: &str, events: &[u8], base: Option<&[u8]>, chunk: usize) {
    let Ok((stream, whole)) = JpStream::open(events, base) else {
        // Not JSON: the outline checks only what it reads (see the
        // module's text); `render --turn` of such a file is a separate test.
        return;
    };
    let (outline_stream, load, decoded) =
        outlined(events, base, chunk).unwrap_or_else(|| panic!("{name}: no outline"));
    assert_eq!(outline_stream, stream, "{name}: the follower");
    assert_eq!(load.base_config, whole.base_config, "{name}: base config");
    assert_eq!(load.generation, whole.generation, "{name}: generation");
    assert_eq!(load.diagnostics, whole.diagnostics, "{name}: problems");
    assert_eq!(load.events.len(), whole.events.len(), "{name}: events");
    for (i, (sketch, event)) in load.events.iter().zip(&whole.events).enumerate() {
        assert!(
            same_outline(sketch, event),
            "{name}: event {i}: {sketch:?} outlines {event:?}"
        );
    }
    let outlined = Conversation::new(load.events, None, None);
    let grouped = Conversation::new(whole.events.clone(), None, None);
    assert_eq!(outlined.turns, grouped.turns, "{name}: turns and items");
    assert_eq!(
        decoded,
        Some(whole.events),
        "{name}: decoded from the outline"
    );
}

/// Checks that every event of `events` read whole, emptied again by
/// [`hollow`], still says what its outline says, groups into the same turns
/// and items, and decodes from the outline back into the whole read's.
fn hollowed_events_decode_back(name: &str, events: &[u8], base: Option<&[u8]>) {
    let Ok((_, whole)) = JpStream::open(events, base) else {
        return;
    };
    let (_, load, outline) = JpOutline::read_in_chunks(&mut &events[..], base, 1 << 20)
        .unwrap()
        .unwrap_or_else(|| panic!("{name}: no outline"));
    let mut hollowed = whole.events.clone();
    hollowed.iter_mut().for_each(hollow);
    for (i, ((empty, event), sketch)) in hollowed.iter().zip(&whole.events).zip(&load.events).enumerate() {
        assert!(same_outline(empty, event), "{name}: event {i}: {empty:?} empties {event:?}");
        assert!(same_outline(sketch, empty), "{name}: event {i}: {sketch:?} outlines {empty:?}");
    }
    let grouped = Conversation::new(whole.events.clone(), None, None);
    let emptied = Conversation::new(hollowed.clone(), None, None);
    assert_eq!(emptied.turns, grouped.turns, "{name}: turns and items, emptied");
    let decoded = outline
        .decode(&mut Cursor::new(events), 0..hollowed.len(), &hollowed)
        .unwrap();
    assert_eq!(decoded, Some(whole.events), "{name}: decoded back");
}

#[test]
fn a_lone_surrogate_is_read_the_same_in_outline_and_whole() {
    let events = br#"[
  {"timestamp": "2026-01-01 00:00:00.0", "type": "turn_start"},
  {"timestamp": "2026-01-01 00:00:01.0", "type": "chat_request", "content": "cut \ud83d"},
  {"timestamp": "2026-01-01 00:00:02.0", "type": "chat_response", "message": "\ude00 and \ud83d"}
]"#;
    for chunk in [7, 64, 4096] {
        outline_matches_the_whole_read("lone surrogates", events, None, chunk);
    }
    let (_, load, decoded) = outlined(events, None, 64).expect("an outline");
    assert_eq!(
        load.diagnostics.len(),
        1,
        "one warning: {:?}",
        load.diagnostics
    );
    assert_eq!(load.diagnostics[0].index, 1);
    let decoded = decoded.expect("decoded");
    assert!(
        matches!(&decoded[1].kind, EventKind::ChatRequest { content, .. } if content == "cut \u{fffd}"),
        "{:?}",
        decoded[1]
    );
}

/// Entries of one shape are sketched once (`SketchMemo`): each still gets
/// its own id, a boolean's value and a mistyped key still tell shapes
/// apart, and past the memo's room (a new shape per entry) entries are
/// sketched one by one, alike.
#[test]
fn entries_of_one_shape_keep_their_own_ids_and_problems() {
    let mut entries = vec![r#"{"type": "turn_start"}"#.to_string()];
    for i in 0..40 {
        entries.push(format!(
            r#"{{"type": "tool_call_request", "id": "call-{i}", "name": "t{i}", "arguments": {{"n": {i}}}}}"#
        ));
        let flag = ["true", "false", "\"yes\"", "null"][i % 4];
        entries.push(format!(
            r#"{{"type": "tool_call_response", "id": "call-{i}", "content": "b2s=", "is_error": {flag}}}"#
        ));
    }
    // More shapes than the memo keeps: a key of its own each.
    for i in 0..(MEMO_SHAPES + 50) {
        entries.push(format!(
            r#"{{"type": "chat_response", "message": "m", "k{i}": {i}}}"#
        ));
        entries.push(format!(r#"{{"type": "tool_call_request", "id": "late-{i}", "k{i}": 1}}"#));
    }
    let events = format!("[\n  {}\n]\n", entries.join(",\n  "));
    outline_matches_the_whole_read("shapes", events.as_bytes(), None, 1 << 20);
    let (_, load, _) = outlined(events.as_bytes(), None, 1 << 20).expect("an outline");
    let ids: Vec<&str> = load
        .events
        .iter()
        .filter_map(|event| match &event.kind {
            EventKind::ToolCallResponse { id, .. } => Some(id.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(ids.len(), 30, "a quarter mistyped (is_error a string)");
    assert_eq!(ids[..3], ["call-0", "call-1", "call-3"]);
    assert_eq!(load.diagnostics.len(), 10 + MEMO_SHAPES + 50, "{:?}", load.diagnostics);
}

/// Entries whose keys or ids hold escapes, in each place the outline
/// decides an entry without them: a shape met plain before (the memo's),
/// an escaped key naming the type again, entries of no type or of a type
/// it does not know, and, past the memo's room, shapes sketched one by one.
pub(in crate::format::jp) fn escaped_keys_and_ids() -> String {
    let mut entries: Vec<String> = [
        r#"{"type": "turn_start"}"#,
        r#"{"type": "chat_request", "content": "plain first"}"#,
        r#"{"typ\u0065": "chat_request", "content": "the same keys, one escaped"}"#,
        r#"{"type": "chat_response", "message": "m", "typ\u0065": "tool_call_request"}"#,
        r#"{"type": "tool_call_request", "id": "c1", "name": "t", "arguments": {}}"#,
        r#"{"type": "tool_call_request", "id": "c\u0032", "name": "t", "arguments": {}}"#,
        r#"{"type": "tool_call_response", "id": "c2", "content": "ok"}"#,
        r#"{"type": "made_up", "k\u0065y": 1}"#,
        r#"{"k\u0065y": 1}"#,
        r#"{"\u0074ype": "tool_call_response", "id": "c1", "content": "late"}"#,
    ]
    .map(str::to_string)
    .to_vec();
    for i in 0..MEMO_SHAPES {
        entries.push(format!(r#"{{"type": "chat_response", "message": "m", "k{i}": {i}}}"#));
    }
    entries.extend(
        [
            r#"{"type": "tool_call_request", "id": "c\u0033", "name": "t", "new": 1}"#,
            r#"{"type": "tool_call_response", "id": "c3", "content": "ok", "n\u0065w": 1}"#,
            r#"{"type": "made_up", "n\u0065wer": 1}"#,
        ]
        .map(str::to_string),
    );
    format!("[\n  {}\n]\n", entries.join(",\n  "))
}

#[test]
fn keys_and_ids_with_escapes_are_read_as_a_whole_read_reads_them() {
    let events = escaped_keys_and_ids();
    for chunk in [7, 1 << 20] {
        outline_matches_the_whole_read("escapes", events.as_bytes(), None, chunk);
    }
    let (_, load, _) = outlined(events.as_bytes(), None, 1 << 20).expect("an outline");
    let ids: Vec<&str> = load
        .events
        .iter()
        .filter_map(|event| match &event.kind {
            EventKind::ToolCallRequest { id, .. } => Some(id.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(ids, ["c1", "c2", "c3"]);
}

/// Calls of one shape share one empty value for their arguments in outline:
/// opening 100 MB costs no allocation per call for them (2.3 MB at 28,663
/// calls, docs/benchmarks.md, "Issue 30").
#[test]
fn calls_of_one_shape_share_their_arguments_in_outline() {
    let mut entries = vec![r#"{"type": "turn_start"}"#.to_string()];
    for i in 0..3 {
        entries.push(format!(
            r#"{{"type": "tool_call_request", "id": "call-{i}", "name": "t", "arguments": {{"n": {i}}}}}"#
        ));
    }
    let events = format!("[\n  {}\n]\n", entries.join(",\n  "));
    let (_, load, decoded) = outlined(events.as_bytes(), None, 1 << 20).expect("an outline");
    let arguments: Vec<&Arc<Value>> = load
        .events
        .iter()
        .filter_map(|event| match &event.kind {
            EventKind::ToolCallRequest { arguments, .. } => Some(arguments),
            _ => None,
        })
        .collect();
    assert_eq!(arguments.len(), 3);
    assert!(Arc::ptr_eq(arguments[0], arguments[2]));
    // Decoded, each has its own.
    let decoded = decoded.expect("decoded");
    let values: Vec<String> = decoded
        .iter()
        .filter_map(|event| match &event.kind {
            EventKind::ToolCallRequest { arguments, .. } => Some(arguments.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(values, [r#"{"n":0}"#, r#"{"n":1}"#, r#"{"n":2}"#]);
}

#[test]
fn every_fixture_in_outline_is_the_whole_read_and_emptied_again_decodes_back() {
    for (name, events, base) in fixtures() {
        for chunk in [1, 7, 4096, 1 << 20] {
            outline_matches_the_whole_read(&name, &events, base.as_deref(), chunk);
        }
        hollowed_events_decode_back(&name, &events, base.as_deref());
    }
}

/// The real conversations (`OVERHEAR_CORPUS`), when named.
#[test]
fn every_corpus_conversation_in_outline_is_the_whole_read_and_emptied_again_decodes_back() {
    let Some(dir) = std::env::var_os("OVERHEAR_CORPUS") else {
        eprintln!("skipped: OVERHEAR_CORPUS is not set (it names the real JP conversations)");
        return;
    };
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let Ok(events) = std::fs::read(entry.path().join("events.json")) else {
            continue;
        };
        let base = std::fs::read(entry.path().join("base_config.json")).ok();
        let name = entry.path().display().to_string();
        outline_matches_the_whole_read(&name, &events, base.as_deref(), 1 << 20);
        hollowed_events_decode_back(&name, &events, base.as_deref());
        seen += 1;
    }
    assert!(seen > 0, "the corpus holds conversations");
}

#[test]
fn an_entry_the_outline_was_wrong_about_is_not_decoded() {
    let events = br#"[{"type": "turn_start"}, {"type": "chat_request", "content": "hi"}]"#;
    let (_, load, outline) = JpOutline::read_from(&mut &events[..], Some(b"{}"))
        .unwrap()
        .unwrap();
    let wrong = [load.events[1].clone(), load.events[0].clone()];
    let decoded = outline.decode(&mut Cursor::new(&events[..]), 0..2, &wrong);
    assert_eq!(decoded.unwrap(), None);
}

/// One stored entry, written the way a hand edit or a future JP might:
/// each known type with its keys present, missing or of the wrong type,
/// escapes in keys, types and ids, a key that is not ASCII, repeated keys,
/// unknown types and entries that are not objects.
pub(in crate::format::jp) fn entry() -> impl Strategy<Value = String> {
    let text = prop_oneof![
        Just(r#""plain""#.to_string()),
        Just(r#""with \"quotes\" and \\ and \n""#.to_string()),
        Just(r#""brackets ] } [ { , :""#.to_string()),
        Just(r#""aGVsbG8=""#.to_string()),
        Just(r#""\u00e9t\u00e9""#.to_string()),
        Just("\"caf\u{e9}\"".to_string()),
    ];
    let value = prop_oneof![
        text.clone(),
        Just("12".to_string()),
        Just("-1.5e3".to_string()),
        Just("true".to_string()),
        Just("null".to_string()),
        Just("[]".to_string()),
        Just(r#"{"a": [1, {"b": "]"}]}"#.to_string()),
        Just(r#"{"style": {"x": 1}}"#.to_string()),
    ];
    let kind = prop_oneof![
        Just(r#""turn_start""#.to_string()),
        Just(r#""chat_request""#.to_string()),
        Just(r#""chat_response""#.to_string()),
        Just(r#""tool_call_request""#.to_string()),
        Just(r#""tool_call_response""#.to_string()),
        Just(r#""inquiry_request""#.to_string()),
        Just(r#""inquiry_response""#.to_string()),
        Just(r#""config_delta""#.to_string()),
        Just(r#""compaction""#.to_string()),
        Just(r#""something_new""#.to_string()),
        Just(r#""turn\u005fstart""#.to_string()),
        Just("7".to_string()),
    ];
    let id = prop_oneof![
        Just(r#""call_1""#.to_string()),
        Just(r#""call_2""#.to_string()),
        Just(r#""call_1.q""#.to_string()),
        Just(r#""call\u005f1""#.to_string()),
        Just("3".to_string()),
    ];
    let key = prop_oneof![
        Just("timestamp"),
        Just("content"),
        Just("message"),
        Just("reasoning"),
        Just("data"),
        Just("name"),
        Just("arguments"),
        Just("is_error"),
        Just("source"),
        Just("question"),
        Just("answer"),
        Just("delta"),
        Just("metadata"),
        Just("event_id"),
        Just("i\\u0064"),
        Just("cl\u{e9}"),
        Just("id"),
        Just("type"),
    ];
    let member = (key, value).prop_map(|(k, v)| format!("\"{k}\": {v}"));
    let object = (
        kind,
        proptest::option::of(id),
        proptest::collection::vec(member, 0..6),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(kind, id, members, type_first, pretty)| {
            let mut all = members;
            let typed = format!("\"type\": {kind}");
            if type_first {
                all.insert(0, typed);
            } else {
                all.push(typed);
            }
            if let Some(id) = id {
                all.insert(all.len() / 2, format!("\"id\": {id}"));
            }
            let (open, sep, close) = if pretty {
                ("{\n    ", ",\n    ", "\n  }")
            } else {
                ("{", ",", "}")
            };
            format!("{open}{}{close}", all.join(sep))
        });
    prop_oneof![
        8 => object,
        1 => Just("12".to_string()),
        1 => Just(r#""a string""#.to_string()),
        1 => Just("[1, 2]".to_string()),
        1 => Just("null".to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn generated_conversations_in_outline_are_the_whole_read(
        entries in proptest::collection::vec(entry(), 0..30),
        has_base in any::<bool>(),
        chunk in prop_oneof![Just(3usize), Just(64), Just(1 << 20)],
    ) {
        let events = format!("[\n  {}\n]\n", entries.join(",\n  "));
        let base = has_base.then_some(&b"{\"style\": {}}"[..]);
        outline_matches_the_whole_read(&events, events.as_bytes(), base, chunk);
    }
}
