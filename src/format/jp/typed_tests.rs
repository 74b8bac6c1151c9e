//! The typed reader against the `Value` reader it replaced:
//! for any stored entry — any JSON value, objects with JP's keys and
//! repeated keys, base64 leaves of text and of binary, strings with escapes
//! — both make the same event, the same warning, and a first entry the same
//! legacy base configuration. `reference` is the decoding as it stood before
//! the typed reader (`a61a9b0`), kept here only as the yardstick.

use proptest::prelude::*;
use serde_json::{Map, Value, json};

use super::entries::{ArrayScanner, Scan};
use super::entry::{self, Entry};
use super::{Generation, event_of, legacy_base};

/// The `Value`-based decoding as it was, word for word but for names.
#[allow(dead_code)]
mod reference {
    use std::sync::Arc;

    use serde_json::{Map, Value};

    use crate::model::{Block, ChatResponse, Content, Event, EventKind};
    use crate::problem::json_kind;

    use super::super::Generation;

    /// The base config held by a legacy leading `config_delta`, if `value` is
    /// one; `value` back if it is not. Taken apart, not copied: a configuration
    /// is a large value.
    pub(super) fn legacy_base(value: Value) -> Result<(Value, Generation), Value> {
        let is_delta = value.get("type").and_then(Value::as_str) == Some("config_delta");
        let Value::Object(mut map) = value else {
            return Err(value);
        };
        if !is_delta {
            return Err(Value::Object(map));
        }
        if let Some(delta) = map.remove("delta") {
            return Ok((delta, Generation::LegacyWrapped));
        }
        map.remove("type");
        map.remove("timestamp");
        Ok((Value::Object(map), Generation::LegacyFlattened))
    }

    /// Decodes one of JP's base64 strings: STANDARD, then URL_SAFE, else raw.
    ///
    /// Decoding happens in the string's own buffer: most of a conversation's
    /// bytes are base64, and a second buffer per string was a fifth of loading.
    /// Both alphabets accept exactly what the `base64` crate's strict engines
    /// accept (canonical padding and trailing bits; `tests/base64_agreement.rs`).
    pub fn decode_base64(text: String) -> String {
        if text.is_empty() || !text.len().is_multiple_of(4) {
            return text;
        }
        for engine in [&base64_simd::STANDARD, &base64_simd::URL_SAFE] {
            if engine.check(text.as_bytes()).is_err() {
                continue;
            }
            let mut bytes = text.into_bytes();
            let decoded = match engine.decode_inplace(&mut bytes) {
                Ok(decoded) => decoded.len(),
                Err(_) => unreachable!("checked just before"),
            };
            bytes.truncate(decoded);
            bytes.shrink_to_fit();
            return match String::from_utf8(bytes) {
                Ok(decoded) => decoded,
                // Not text, so JP stored the string itself. What `check` accepts
                // decodes one to one, so encoding gives the stored string back
                // (and the other alphabet would decode it to the same bytes, or
                // not at all).
                Err(binary) => engine.encode_to_string(binary.as_bytes()),
            };
        }
        text
    }

    /// Decodes every string leaf of a JSON value in place (arguments, metadata).
    pub fn decode_leaves(value: &mut Value) {
        match value {
            Value::String(s) => *s = decode_base64(std::mem::take(s)),
            Value::Array(items) => items.iter_mut().for_each(decode_leaves),
            Value::Object(map) => {
                map.values_mut().for_each(decode_leaves);
                // Parsed, a map has room for more keys than it holds (three for
                // one): rebuilt at its size, the argument and metadata maps of
                // a 1 GB conversation hold tens of MB less.
                *map = std::mem::take(map).into_iter().collect();
            }
            _ => {}
        }
    }

    type Malformed = (Value, String);

    /// The event of one stored entry; a malformed one is kept as unknown, and
    /// what is wrong with it comes beside.
    pub(super) fn event_of(value: Value) -> (Event, Option<String>) {
        match decode_event(value) {
            Ok(event) => (event, None),
            Err((value, message)) => {
                let timestamp = value
                    .get("timestamp")
                    .and_then(Value::as_str)
                    .map(String::from);
                (
                    Event::new(timestamp, EventKind::Unknown(Box::new(value))),
                    Some(message),
                )
            }
        }
    }

    /// Whether `type_name` is one of the entry types JP stores (jp-format §1.6);
    /// any other is kept as an unknown event.
    fn is_known(type_name: &str) -> bool {
        matches!(
            type_name,
            "turn_start"
                | "chat_request"
                | "chat_response"
                | "tool_call_request"
                | "tool_call_response"
                | "inquiry_request"
                | "inquiry_response"
                | "config_delta"
                | "compaction"
        )
    }

    /// Builds an event from one stored entry; on a missing or mistyped key the
    /// entry is handed back with the reason.
    fn decode_event(value: Value) -> Result<Event, Malformed> {
        let Value::Object(map) = value else {
            let what = json_kind(&value);
            return Err((value, format!("expected an object, found {what}")));
        };
        let mut entries = Entries::new(map);
        let Some(type_name) = entries
            .get("type")
            .and_then(Value::as_str)
            .map(String::from)
        else {
            return Ok(unknown(entries.into_map()));
        };
        if !is_known(&type_name) {
            return Ok(unknown(entries.into_map()));
        }
        // A dry run on the shapes of the values finds a malformed entry without
        // touching it (it is then kept whole); only a sound entry is taken apart.
        let decoded = match decode_known(&type_name, &mut Shapes(&entries)) {
            Ok(_) => decode_known(&type_name, &mut entries),
            Err(message) => Err(message),
        };
        match decoded {
            Ok(event) => Ok(event),
            Err(message) => Err((
                Value::Object(entries.into_map()),
                format!("{type_name}: {message}"),
            )),
        }
    }

    /// An entry's fields in stored order. An entry has a handful of keys: finding
    /// one by comparing strings is cheaper than hashing it, and hashing keys (the
    /// JSON map's SipHash, two or three lookups per key) was a tenth of loading.
    struct Entries(Vec<(String, Option<Value>)>);

    impl Entries {
        fn new(map: Map<String, Value>) -> Entries {
            Entries(
                map.into_iter()
                    .map(|(key, value)| (key, Some(value)))
                    .collect(),
            )
        }

        fn get(&self, key: &str) -> Option<&Value> {
            self.0
                .iter()
                .find(|(k, _)| k == key)
                .and_then(|(_, value)| value.as_ref())
        }

        /// What is left, as a JSON object in the stored order.
        fn into_map(self) -> Map<String, Value> {
            self.0
                .into_iter()
                .filter_map(|(key, value)| Some((key, value?)))
                .collect()
        }
    }

    /// Where [`decode_known`] takes an entry's values from.
    trait Fields {
        /// Takes the value of `key` out, if present.
        fn take(&mut self, key: &str) -> Option<Value>;
        /// Takes everything left.
        fn rest(&mut self) -> Map<String, Value>;
    }

    impl Fields for Entries {
        fn take(&mut self, key: &str) -> Option<Value> {
            self.0
                .iter_mut()
                .find(|(k, _)| k == key)
                .and_then(|(_, value)| value.take())
        }

        fn rest(&mut self) -> Map<String, Value> {
            std::mem::replace(self, Entries(Vec::new())).into_map()
        }
    }

    /// An entry seen only through the JSON type of each value (strings, arrays
    /// and objects empty), so decoding it is a cheap check that leaves it as is.
    /// Decoding decides by presence and type only, so a dry run fails exactly
    /// when the real one would, with the same message.
    struct Shapes<'a>(&'a Entries);

    impl Fields for Shapes<'_> {
        fn take(&mut self, key: &str) -> Option<Value> {
            self.0.get(key).map(|value| match value {
                Value::String(_) => Value::String(String::new()),
                Value::Array(_) => Value::Array(Vec::new()),
                Value::Object(_) => Value::Object(Map::new()),
                scalar => scalar.clone(),
            })
        }

        fn rest(&mut self) -> Map<String, Value> {
            Map::new()
        }
    }

    fn unknown(map: Map<String, Value>) -> Event {
        let timestamp = map
            .get("timestamp")
            .and_then(Value::as_str)
            .map(String::from);
        let mut event = Event::new(timestamp, EventKind::Unknown(Box::new(Value::Object(map))));
        if let EventKind::Unknown(v) = &event.kind {
            event.event_id = v.get("event_id").and_then(Value::as_str).map(Into::into);
        }
        event
    }

    fn take_string(map: &mut impl Fields, key: &str) -> Result<String, String> {
        match map.take(key) {
            Some(Value::String(s)) => Ok(s),
            Some(other) => Err(format!(
                "key `{key}` must be a string, found {}",
                json_kind(&other)
            )),
            None => Err(format!("missing key `{key}`")),
        }
    }

    fn take_opt_string(map: &mut impl Fields, key: &str) -> Result<Option<String>, String> {
        match map.take(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(format!(
                "key `{key}` must be a string, found {}",
                json_kind(&other)
            )),
        }
    }

    fn take_required(map: &mut impl Fields, key: &str) -> Result<Value, String> {
        map.take(key).ok_or_else(|| format!("missing key `{key}`"))
    }

    fn decode_known(type_name: &str, map: &mut impl Fields) -> Result<Event, String> {
        let timestamp = take_opt_string(map, "timestamp")?;
        let event_id = take_opt_string(map, "event_id")?;
        let request_id = take_opt_string(map, "request_id")?;
        let decodes_metadata = !matches!(type_name, "config_delta" | "compaction");
        let metadata = match map.take("metadata") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(mut meta)) => {
                if decodes_metadata {
                    meta.values_mut().for_each(decode_leaves);
                    if let Some(Value::String(rendered)) = meta.get_mut("rendered_arguments") {
                        *rendered = decode_base64(std::mem::take(rendered));
                    }
                }
                meta
            }
            Some(other) => {
                return Err(format!(
                    "key `metadata` must be an object, found {}",
                    json_kind(&other)
                ));
            }
        };
        let kind = match type_name {
            "turn_start" => EventKind::TurnStart,
            "chat_request" => EventKind::ChatRequest {
                content: take_string(map, "content")?,
                author: take_opt_string(map, "author")?,
                schema: map.take("schema").filter(|v| !v.is_null()).map(Box::new),
            },
            "chat_response" => EventKind::ChatResponse(decode_chat_response(map)?),
            "tool_call_request" => {
                let id = take_string(map, "id")?;
                let name = take_string(map, "name")?;
                let mut arguments = match map.take("arguments") {
                    None | Some(Value::Null) => Value::Object(Map::new()),
                    Some(v @ Value::Object(_)) => v,
                    Some(other) => {
                        return Err(format!(
                            "key `arguments` must be an object, found {}",
                            json_kind(&other)
                        ));
                    }
                };
                decode_leaves(&mut arguments);
                EventKind::ToolCallRequest {
                    id,
                    name,
                    arguments: Arc::new(arguments),
                }
            }
            "tool_call_response" => {
                let id = take_string(map, "id")?;
                let content = match take_required(map, "content")? {
                    Value::String(s) => Content::Text(decode_base64(s)),
                    Value::Array(items) => Content::Blocks(items.into_iter().map(Block).collect()),
                    other => {
                        return Err(format!(
                            "key `content` must be a string or an array of blocks, found {}",
                            json_kind(&other)
                        ));
                    }
                };
                let flag = map.take("is_error").or_else(|| map.take("isError"));
                let is_error = match flag {
                    None | Some(Value::Null) => false,
                    Some(Value::Bool(b)) => b,
                    Some(other) => {
                        return Err(format!(
                            "key `is_error` must be a boolean, found {}",
                            json_kind(&other)
                        ));
                    }
                };
                EventKind::ToolCallResponse {
                    id,
                    content,
                    is_error,
                }
            }
            "inquiry_request" => EventKind::InquiryRequest {
                id: take_string(map, "id")?,
                source: Box::new(take_required(map, "source")?),
                question: Box::new(take_required(map, "question")?),
            },
            "inquiry_response" => EventKind::InquiryResponse {
                id: take_string(map, "id")?,
                answer: Box::new(map.take("answer").unwrap_or(Value::Null)),
            },
            "config_delta" => EventKind::ConfigDelta {
                // JP is lenient here: a missing or invalid delta is an empty one.
                delta: match map.take("delta") {
                    Some(v @ Value::Object(_)) => v,
                    _ => Value::Object(Map::new()),
                }
                .into(),
            },
            _ => {
                map.take("type");
                EventKind::Compaction(Box::new(map.rest()))
            }
        };
        Ok(Event {
            timestamp: timestamp.map(Into::into),
            kind,
            // Not in the reference: the facts a saved `overhear events`
            // output names, read by the typed reader as by any reader.
            facts: crate::model::facts::Facts::from_metadata(&metadata),
            metadata: crate::model::Metadata::stored(metadata, request_id.map(Into::into)),
            event_id: event_id.map(Into::into),
        })
    }

    fn decode_chat_response(map: &mut impl Fields) -> Result<ChatResponse, String> {
        if let Some(message) = map.take("message") {
            return match message {
                Value::String(s) => Ok(ChatResponse::Message(Some(s))),
                Value::Null => Ok(ChatResponse::Message(None)),
                other => Err(format!(
                    "key `message` must be a string, found {}",
                    json_kind(&other)
                )),
            };
        }
        if let Some(reasoning) = map.take("reasoning") {
            return match reasoning {
                Value::String(s) => Ok(ChatResponse::Reasoning(s)),
                other => Err(format!(
                    "key `reasoning` must be a string, found {}",
                    json_kind(&other)
                )),
            };
        }
        if let Some(data) = map.take("data") {
            return Ok(ChatResponse::Data(Box::new(data)));
        }
        if let Some(data) = map.take("structured") {
            return Ok(ChatResponse::Data(Box::new(data)));
        }
        Err("missing key `message`, `reasoning` or `data`".into())
    }
}

/// Base64 of `bytes` in JP's STANDARD alphabet.
fn standard(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// Base64 of `bytes` in the URL_SAFE alphabet JP once used for results.
fn url_safe(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::URL_SAFE.encode(bytes)
}

/// Strings as JP stores them and as hands type them: base64 of text and of
/// binary in both alphabets, plain text, text with escapes, text that only
/// looks like base64.
fn string() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z0-9_ .]{0,12}",
        "[a-zA-Z0-9+/]{4,16}",
        "(\\\"|é|\n|\t|\u{1b}|[a-z]){0,10}",
        "[a-z\n>?]{0,12}".prop_map(|s| standard(s.as_bytes())),
        "[a-z\n>?]{0,12}".prop_map(|s| url_safe(s.as_bytes())),
        prop::collection::vec(any::<u8>(), 0..12).prop_map(|b| standard(&b)),
        // Longer than the 64 characters whose decoding says "not text":
        // text with characters of several bytes across that point, binary,
        // and text that turns binary after it.
        "[a-z\u{e9}\u{20ac}\n]{40,90}".prop_map(|s| standard(s.as_bytes())),
        prop::collection::vec(any::<u8>(), 40..120).prop_map(|b| standard(&b)),
        ("[a-z]{40,60}", prop::collection::vec(any::<u8>(), 1..8)).prop_map(|(s, b)| {
            let mut bytes = s.into_bytes();
            bytes.extend(b);
            standard(&bytes)
        }),
        Just(">>>?".to_string()).prop_map(|s| url_safe(s.as_bytes())),
    ]
}

/// Any JSON value, strings drawn from [`string`].
fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        string().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..4)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}

/// The keys JP's entries have (and a few they do not).
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("type"),
        Just("timestamp"),
        Just("event_id"),
        Just("request_id"),
        Just("metadata"),
        Just("content"),
        Just("message"),
        Just("reasoning"),
        Just("data"),
        Just("structured"),
        Just("id"),
        Just("name"),
        Just("arguments"),
        Just("is_error"),
        Just("isError"),
        Just("source"),
        Just("question"),
        Just("answer"),
        Just("delta"),
        Just("author"),
        Just("schema"),
        Just("rendered_arguments"),
        Just("x"),
        Just("k\u{e9}y"),
        Just("a\"b"),
    ]
    .prop_map(String::from)
}

/// A `type`: one JP stores, one it does not, or not a string.
fn type_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        8 => prop_oneof![
            Just("turn_start"), Just("chat_request"), Just("chat_response"),
            Just("tool_call_request"), Just("tool_call_response"),
            Just("inquiry_request"), Just("inquiry_response"),
            Just("config_delta"), Just("compaction"), Just("future_thing"),
        ]
        .prop_map(Value::from),
        1 => value(),
    ]
}

/// One stored entry as text: mostly an object with a `type` among its
/// members (repeated keys written as they come), sometimes any value.
fn entry_text() -> impl Strategy<Value = String> {
    let member = prop_oneof![
        3 => (key(), value()),
        1 => type_value().prop_map(|v| ("type".to_string(), v)),
    ];
    let object = (type_value(), 0..6usize, prop::collection::vec(member, 0..8)).prop_map(
        |(kind, at, mut members)| {
            members.insert(at.min(members.len()), ("type".to_string(), kind));
            let members: Vec<String> = members
                .iter()
                .map(|(k, v)| format!("{}: {}", json!(k), v))
                .collect();
            format!("{{{}}}", members.join(", "))
        },
    );
    prop_oneof![
        9 => object,
        1 => value().prop_map(|v| v.to_string()),
    ]
}

/// Everything an event or a base shows, maps in their stored order.
fn shown<T: std::fmt::Debug>(thing: &T) -> String {
    format!("{thing:?}")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn the_typed_reader_makes_what_the_value_reader_made(text in entry_text()) {
        let value: Value = serde_json::from_str(&text).unwrap();
        let typed = event_of(Entry::parse(text.as_bytes()).unwrap());
        let before = reference::event_of(value);
        prop_assert_eq!(shown(&typed), shown(&before), "{}", text);
    }

    #[test]
    fn a_first_entry_is_the_same_legacy_base(text in entry_text()) {
        let value: Value = serde_json::from_str(&text).unwrap();
        let typed = legacy_base(Entry::parse(text.as_bytes()).unwrap());
        let before = reference::legacy_base(value);
        match (typed, before) {
            (Ok(typed), Ok(before)) => prop_assert_eq!(shown(&typed), shown(&before)),
            (Err(typed), Err(before)) => {
                prop_assert_eq!(shown(&event_of(typed)), shown(&reference::event_of(before)));
            }
            (typed, before) => prop_assert!(false, "{:?} vs {:?}", typed.is_ok(), before.is_ok()),
        }
    }
}

/// An entry as the streaming read reads it: found by the array scanner,
/// its strings taken where they lie ([`entry::read`]).
fn read_as_found(text: &str) -> Result<Entry<'_>, serde_json::Error> {
    let mut scanner = ArrayScanner::new(0);
    let Scan::Entry(range) = scanner.scan(format!("[{text}]").as_bytes()) else {
        panic!("one entry: {text}")
    };
    let bytes = &text.as_bytes()[range.start - 1..range.end - 1];
    entry::read(bytes, scanner.top_level_ends(), &mut Vec::new())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn an_entry_read_where_it_lies_is_the_entry_parsed_whole(text in entry_text()) {
        let whole = Entry::parse(text.as_bytes()).unwrap();
        prop_assert_eq!(shown(&read_as_found(&text).unwrap()), shown(&whole), "{}", text);
    }
}

#[test]
fn what_serde_json_rejects_is_not_read_where_it_lies() {
    for text in [
        "{\"k\u{1}\": 1}",
        "{\"k\": \"a\tb\"}",
        "{\"k\": \"a\u{1f}\"}",
        "{\"k\": 01}",
        "{\"k\": 1.}",
        "{\"k\": -}",
        "{\"k\": 1e}",
        "{\"k\": 1-2}",
        "{\"k\": \"\\x\"}",
        "{\"k\": [1,]}",
        "{\"k\": {\"a\": }}",
    ] {
        assert!(Entry::parse(text.as_bytes()).is_err(), "{text:?}");
        assert!(read_as_found(text).is_err(), "{text:?}");
    }
    let not_utf8 = b"{\"k\": \"\xff\"}";
    let mut scanner = ArrayScanner::new(0);
    let mut array = b"[".to_vec();
    array.extend_from_slice(not_utf8);
    array.push(b']');
    assert!(matches!(scanner.scan(&array), Scan::Entry(_)));
    assert!(entry::read(not_utf8, scanner.top_level_ends(), &mut Vec::new()).is_err());
}

#[test]
fn the_generated_entries_reach_every_outcome() {
    // The yardstick is only as good as what it is shown: known, unknown and
    // malformed entries, decoded base64 and kept binary all come up.
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut known, mut unknown, mut malformed) = (0, 0, 0);
    for _ in 0..2000 {
        let text = entry_text().new_tree(&mut runner).unwrap().current();
        let (event, problem) = event_of(Entry::parse(text.as_bytes()).unwrap());
        match (&event.kind, problem) {
            (_, Some(_)) => malformed += 1,
            (crate::model::EventKind::Unknown(_), None) => unknown += 1,
            _ => known += 1,
        }
    }
    assert!(
        known > 100 && unknown > 100 && malformed > 100,
        "{known} {unknown} {malformed}"
    );
    let _ = (Generation::NoBase, Map::new());
}
