//! The JP reader: `events.json` (+ `base_config.json`) into canonical events.
//!
//! Handles all three stored generations (jp-format §1.9), JP's marker-less
//! base64 (§2: STANDARD, then URL_SAFE, else the raw string), both content
//! shapes of `tool_call_response`, and malformed events (reported, kept as
//! unknown, reading goes on). It also follows JP's whole-file rewrites
//! incrementally: when a new file starts with the bytes already parsed, only
//! the new tail of the array is parsed ([`JpStream::update`]).

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use serde::de::{DeserializeSeed, SeqAccess, Visitor};
use serde_json::{Map, Value};

use super::surrogates;
use crate::model::facts::Facts;
use crate::model::{Block, ChatResponse, Content, Event, EventKind, JsonText};
use crate::problem::json_kind;
use entry::{Entry, Member, Slot};

#[cfg(feature = "cli")]
mod count;
mod entries;
mod entry;
mod members;
#[cfg(feature = "cli")]
mod outline;
mod follow;
#[cfg(feature = "cli")]
mod sparse;

pub use super::whole_file::{Diagnostic, LoadError, SyntaxError};
#[cfg(feature = "cli")]
pub use count::count_events;
#[cfg(feature = "cli")]
pub use outline::{JpOutline, hollow};
pub use follow::{Ahead, Delta, JpStream};
#[cfg(feature = "cli")]
pub use sparse::JpSparse;

/// Which of JP's storage generations a conversation is in (jp-format §1.9).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Generation {
    /// `base_config.json` beside the events (RFD 054).
    Current,
    /// A leading `config_delta` whose `delta` holds the base config.
    LegacyWrapped,
    /// A leading `config_delta` with the config keys inline.
    LegacyFlattened,
    /// No base config anywhere (an empty or delta-less legacy stream).
    NoBase,
}

/// What was read from one conversation.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct JpLoad {
    /// The conversation's base configuration, if it has one.
    pub base_config: Option<Value>,
    /// The storage generation found.
    pub generation: Option<Generation>,
    /// The stored events, decoded (the base config is not an event).
    pub events: Vec<Event>,
    /// Events that were malformed and kept as unknown.
    pub diagnostics: Vec<Diagnostic>,
}

impl JpLoad {
    /// Where conversation event 0 sits in the stored array: 1 when a legacy
    /// base configuration entry comes first, to name events as they are stored.
    pub fn stored_offset(&self) -> usize {
        match self.generation {
            Some(Generation::LegacyWrapped | Generation::LegacyFlattened) => 1,
            _ => 0,
        }
    }
}

/// Reads a whole conversation from the bytes of its files.
pub fn load(events_json: &[u8], base_config_json: Option<&[u8]>) -> Result<JpLoad, LoadError> {
    let base_from_file = match base_config_json {
        Some(bytes) => Some(
            serde_json::from_slice::<Value>(&surrogates::repaired(strip_bom(bytes)).0)
                .map_err(|e| LoadError::BaseConfig(SyntaxError::from_serde(&e)))?,
        ),
        None => None,
    };
    let mut reader = Reader::new(base_from_file.is_some(), 0);
    let stored = strip_bom(events_json);
    let (events_json, lone) = surrogates::repaired(stored);
    let mut de = serde_json::Deserializer::from_slice(&events_json);
    de.deserialize_seq_with(&mut reader)?;
    if let Some(at) = lone {
        reader.note_lone_at(entry_index_at(stored, at), &stored[at..at + 6]);
    }
    let mut out = reader.finish();
    if let Some(base) = base_from_file {
        out.base_config = Some(base);
        out.generation = Some(Generation::Current);
    }
    Ok(out)
}

/// The stored index of the entry of the JSON array `bytes` that holds
/// offset `at` (0 when the array is too unusual for the scanner to follow:
/// the whole-file parse read it all the same).
fn entry_index_at(bytes: &[u8], at: usize) -> usize {
    let mut scanner = entries::ArrayScanner::new(0);
    let mut index = 0;
    while let entries::Scan::Entry(range) = scanner.scan(bytes) {
        if range.contains(&at) {
            return index;
        }
        index += 1;
    }
    0
}

/// The `title` of a conversation's `metadata.json`, if it is readable (a
/// UTF-8 byte order mark is skipped, as for the other files).
pub fn title(metadata: &[u8]) -> Option<String> {
    let value: Value = serde_json::from_slice(&surrogates::repaired(strip_bom(metadata)).0).ok()?;
    value.get("title")?.as_str().map(String::from)
}

/// Why a `metadata.json` is not JSON (its title cannot be shown then).
pub fn metadata_problem(metadata: &[u8]) -> Option<SyntaxError> {
    let error =
        serde_json::from_slice::<Value>(&surrogates::repaired(strip_bom(metadata)).0).err()?;
    Some(SyntaxError::from_serde(&error))
}

fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

/// The streaming readers' view of `base_config.json`: `Some(None)` when there
/// is none, `None` when it is not JSON (a whole read then reports exactly
/// what is wrong).
fn parsed_base(base_config_json: Option<&[u8]>) -> Option<Option<Value>> {
    match base_config_json {
        Some(bytes) => serde_json::from_slice::<Value>(&surrogates::repaired(strip_bom(bytes)).0)
            .ok()
            .map(Some),
        None => Some(None),
    }
}

trait DeserializeSeqWith<'de> {
    fn deserialize_seq_with(&mut self, reader: &mut Reader) -> Result<(), serde_json::Error>;
}

impl<'de, R: serde_json::de::Read<'de>> DeserializeSeqWith<'de> for serde_json::Deserializer<R> {
    fn deserialize_seq_with(&mut self, reader: &mut Reader) -> Result<(), serde_json::Error> {
        reader.deserialize(&mut *self)?;
        self.end()
    }
}

/// Turns stored entries into events one at a time, so a parsed entry's JSON
/// tree is dropped as soon as its event is built.
struct Reader {
    has_base_file: bool,
    next_index: usize,
    out: JpLoad,
    /// Whether a lone surrogate escape was warned of: once a read.
    lone_warned: bool,
}

impl Reader {
    fn new(has_base_file: bool, first_index: usize) -> Self {
        Reader {
            has_base_file,
            next_index: first_index,
            out: JpLoad::default(),
            lone_warned: false,
        }
    }

    /// Notes that the entry just read held the lone surrogate escape
    /// `escape`, read as U+FFFD: the first one read is warned of.
    fn note_lone(&mut self, escape: &[u8]) {
        self.note_lone_at(self.next_index.saturating_sub(1), escape);
    }

    fn note_lone_at(&mut self, index: usize, escape: &[u8]) {
        if !std::mem::replace(&mut self.lone_warned, true) {
            let message = surrogates::warning_for(escape);
            let diagnostics = &mut self.out.diagnostics;
            let at = diagnostics.partition_point(|d| d.index <= index);
            diagnostics.insert(at, Diagnostic { index, message });
        }
    }

    fn push(&mut self, entry: Entry<'_>) {
        let index = self.next_index;
        self.next_index += 1;
        let entry = if index == 0 && !self.has_base_file {
            match legacy_base(entry) {
                Ok((base, generation)) => {
                    self.out.base_config = Some(base);
                    self.out.generation = Some(generation);
                    return;
                }
                Err(entry) => {
                    self.out.generation = Some(Generation::NoBase);
                    entry
                }
            }
        } else {
            entry
        };
        let (event, problem) = event_of(entry);
        self.push_event(index, event, problem);
    }

    /// Takes the event of the next stored entry, made without parsing it
    /// (see `outline`), with what is wrong with the entry if anything.
    /// Not for a first entry that may be a legacy base configuration.
    #[cfg(feature = "cli")]
    fn push_sketch(&mut self, event: Event, problem: Option<String>) {
        let index = self.next_index;
        debug_assert!(index > 0 || self.has_base_file);
        self.next_index += 1;
        self.push_event(index, event, problem);
    }

    /// Counts the next stored entry, sketched, without keeping an event
    /// for it (a sparse read's entry inside a run, `sparse.rs`): only what
    /// is wrong with it is kept.
    #[cfg(feature = "cli")]
    fn count_sketch(&mut self, problem: Option<String>) {
        let index = self.next_index;
        debug_assert!(index > 0 || self.has_base_file);
        self.next_index += 1;
        if let Some(message) = problem {
            self.out.diagnostics.push(Diagnostic { index, message });
        }
    }

    fn push_event(&mut self, index: usize, event: Event, problem: Option<String>) {
        if let Some(message) = problem {
            self.out.diagnostics.push(Diagnostic { index, message });
        }
        self.out.events.push(event);
    }

    /// How many stored entries were read, a legacy base entry included.
    fn entries_read(&self) -> usize {
        self.next_index
    }

    fn finish(self) -> JpLoad {
        self.out
    }
}

impl<'de> DeserializeSeed<'de> for &mut Reader {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for &mut Reader {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON array of conversation events")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(entry) = seq.next_element::<Entry<'de>>()? {
            self.push(entry);
        }
        Ok(())
    }
}

/// The base config held by a legacy leading `config_delta`, if `entry` is
/// one; `entry` back if it is not. Taken apart, not copied: a configuration
/// is a large value.
fn legacy_base(entry: Entry<'_>) -> Result<(Value, Generation), Entry<'_>> {
    let Entry::Object(mut members) = entry else {
        return Err(entry);
    };
    if !matches!(entry::last(&members, "type"), Some(Slot::Text(t)) if t == "config_delta") {
        return Err(Entry::Object(members));
    }
    if let Some(delta) = entry::take(&mut members, "delta") {
        return Ok((delta.into_value(), Generation::LegacyWrapped));
    }
    // Removed as a `Value`'s map removes (the last key takes the removed
    // one's place), so the base keeps the order it always had.
    let mut map = entry::object_of(members);
    map.remove("type");
    map.remove("timestamp");
    Ok((Value::Object(map), Generation::LegacyFlattened))
}

/// Decodes one of JP's base64 strings: STANDARD, then URL_SAFE, else raw.
pub fn decode_base64(text: String) -> String {
    decoded(&text).unwrap_or(text)
}

/// [`decode_base64`] of a string that may be borrowed from the file's
/// bytes: decoded straight from them, copied only when kept as stored.
fn decode_base64_text(text: Cow<'_, str>) -> String {
    match text {
        Cow::Borrowed(text) => decoded(text).unwrap_or_else(|| text.to_owned()),
        Cow::Owned(text) => decode_base64(text),
    }
}

/// The text `text` is the base64 of (STANDARD, then URL_SAFE), if it is
/// that of a text. Both alphabets accept exactly what the `base64` crate's
/// strict engines accept (canonical padding and trailing bits;
/// `tests/base64_agreement.rs`). Bytes that are not text mean JP stored the
/// string itself: it is kept, not decoded and encoded back (an Anthropic
/// thinking signature is the base64 of binary, and a fifth of a
/// conversation's metadata).
fn decoded(text: &str) -> Option<String> {
    if text.is_empty() || !text.len().is_multiple_of(4) {
        return None;
    }
    for engine in [&base64_simd::STANDARD, &base64_simd::URL_SAFE] {
        if engine.check(text.as_bytes()).is_err() {
            continue;
        }
        // What `check` accepts decodes one to one, and the other alphabet
        // would decode it to the same bytes or not at all.
        let bytes = engine.decode_to_vec(text.as_bytes()).ok()?;
        return String::from_utf8(bytes).ok();
    }
    None
}

/// Decodes every string leaf of a JSON value in place (arguments, metadata).
pub fn decode_leaves(value: &mut Value) {
    match value {
        Value::String(s) => {
            if let Some(text) = decoded(s) {
                *s = text;
            }
        }
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

/// What is wrong with a stored entry that is kept as an unknown event; the
/// diagnostic that names the entry says it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum Malformed {
    /// The entry is not a JSON object.
    #[error("expected an object, found {0}")]
    NotAnObject(&'static str),
    /// An entry of a type JP stores lacks a key or holds one of another type.
    #[error("{type_name}: {problem}")]
    Entry {
        /// The entry's `type`.
        type_name: &'static str,
        /// What is missing or mistyped.
        problem: EntryProblem,
    },
}

/// A key of an entry JP stores that is missing or holds the wrong type.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum EntryProblem {
    /// A key the type requires is absent.
    #[error("missing key `{0}`")]
    Missing(&'static str),
    /// A key holds a value of another JSON type.
    #[error("key `{key}` must be {expected}, found {found}")]
    Mistyped {
        /// The key.
        key: &'static str,
        /// What it must hold (`a string`, `an object`, …).
        expected: &'static str,
        /// The JSON type it holds.
        found: &'static str,
    },
    /// A `chat_response` with none of its three forms.
    #[error("missing key `message`, `reasoning` or `data`")]
    NoReply,
}

impl EntryProblem {
    fn mistyped(key: &'static str, expected: &'static str, found: &Slot<'_>) -> EntryProblem {
        EntryProblem::Mistyped {
            key,
            expected,
            found: found.kind(),
        }
    }
}

/// The event of one stored entry; a malformed one is kept as unknown, and
/// what is wrong with it comes beside.
fn event_of(entry: Entry<'_>) -> (Event, Option<String>) {
    match decode_event(entry) {
        Ok(event) => (event, None),
        Err(malformed) => {
            let (value, problem) = *malformed;
            let timestamp = value
                .get("timestamp")
                .and_then(Value::as_str)
                .map(String::from);
            (
                Event::new(timestamp, EventKind::Unknown(Box::new(value))),
                Some(problem.to_string()),
            )
        }
    }
}

/// The entry type `type_name` names, if it is one JP stores (jp-format
/// §1.6); any other is kept as an unknown event. Given as bytes: the
/// outline matches a type as stored, before checking it is text (a known
/// name is).
fn known_type(type_name: &[u8]) -> Option<&'static str> {
    [
        "turn_start",
        "chat_request",
        "chat_response",
        "tool_call_request",
        "tool_call_response",
        "inquiry_request",
        "inquiry_response",
        "config_delta",
        "compaction",
    ]
    .into_iter()
    .find(|known| known.as_bytes() == type_name)
}

/// Builds an event from one stored entry; on a missing or mistyped key the
/// entry is handed back whole, as stored, with the reason.
fn decode_event(entry: Entry<'_>) -> Result<Event, Box<(Value, Malformed)>> {
    let mut members = match entry {
        Entry::Object(members) => members,
        Entry::Other(value) => {
            let what = json_kind(&value);
            return Err(Box::new((value, Malformed::NotAnObject(what))));
        }
    };
    let type_name = match entry::last(&members, "type") {
        Some(Slot::Text(name)) => known_type(name.as_bytes()),
        _ => None,
    };
    let Some(type_name) = type_name else {
        return Ok(unknown(entry::object_of(members)));
    };
    // A dry run on the shapes of the values finds a malformed entry without
    // touching it (it is then kept whole); only a sound entry is taken apart.
    let decoded = match decode_known(type_name, &mut Shapes(&members)) {
        Ok(_) => decode_known(type_name, &mut Members(&mut members)),
        Err(problem) => Err(problem),
    };
    match decoded {
        Ok(event) => Ok(event),
        Err(problem) => Err(Box::new((
            Value::Object(entry::object_of(members)),
            Malformed::Entry { type_name, problem },
        ))),
    }
}

/// Where [`decode_known`] takes an entry's values from.
trait Fields<'de> {
    /// Takes the value of `key` out, if present.
    fn take(&mut self, key: &str) -> Option<Slot<'de>>;
    /// Takes everything left.
    fn rest(&mut self) -> Map<String, Value>;
}

/// An entry's members, taken out as they are decoded.
struct Members<'a, 'de>(&'a mut Vec<Member<'de>>);

impl<'de> Fields<'de> for Members<'_, 'de> {
    fn take(&mut self, key: &str) -> Option<Slot<'de>> {
        entry::take(self.0, key)
    }

    fn rest(&mut self) -> Map<String, Value> {
        entry::object_of(std::mem::take(self.0))
    }
}

/// An entry seen only through the JSON type of each value (strings, arrays
/// and objects empty), so decoding it is a cheap check that leaves it as is.
/// Decoding decides by presence and type only, so a dry run fails exactly
/// when the real one would, with the same message.
struct Shapes<'a, 'de>(&'a [Member<'de>]);

impl<'de> Fields<'de> for Shapes<'_, '_> {
    fn take(&mut self, key: &str) -> Option<Slot<'de>> {
        entry::last(self.0, key).map(Slot::shape)
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

fn not_a_string(key: &'static str, found: &Slot<'_>) -> EntryProblem {
    EntryProblem::mistyped(key, "a string", found)
}

fn take_string<'de>(map: &mut impl Fields<'de>, key: &'static str) -> Result<String, EntryProblem> {
    match map.take(key) {
        Some(Slot::Text(s)) => Ok(s.into_owned()),
        Some(other) => Err(not_a_string(key, &other)),
        None => Err(EntryProblem::Missing(key)),
    }
}

fn take_opt_string<'de>(
    map: &mut impl Fields<'de>,
    key: &'static str,
) -> Result<Option<String>, EntryProblem> {
    match map.take(key) {
        None | Some(Slot::Value(Value::Null)) => Ok(None),
        Some(Slot::Text(s)) => Ok(Some(s.into_owned())),
        Some(other) => Err(not_a_string(key, &other)),
    }
}

fn take_required<'de>(
    map: &mut impl Fields<'de>,
    key: &'static str,
) -> Result<Slot<'de>, EntryProblem> {
    map.take(key).ok_or(EntryProblem::Missing(key))
}

fn decode_known<'de>(
    type_name: &str,
    map: &mut impl Fields<'de>,
) -> Result<Event, EntryProblem> {
    let timestamp = take_opt_string(map, "timestamp")?;
    let event_id = take_opt_string(map, "event_id")?;
    let request_id = take_opt_string(map, "request_id")?;
    let decodes_metadata = !matches!(type_name, "config_delta" | "compaction");
    let metadata = match map.take("metadata") {
        None | Some(Slot::Value(Value::Null)) => Map::new(),
        Some(Slot::Value(Value::Object(mut meta))) => {
            if decodes_metadata {
                meta.values_mut().for_each(decode_leaves);
                if let Some(Value::String(rendered)) = meta.get_mut("rendered_arguments") {
                    *rendered = decode_base64(std::mem::take(rendered));
                }
            }
            meta
        }
        Some(other) => {
            return Err(EntryProblem::mistyped("metadata", "an object", &other));
        }
    };
    let kind = match type_name {
        "turn_start" => EventKind::TurnStart,
        "chat_request" => EventKind::ChatRequest {
            content: take_string(map, "content")?,
            author: take_opt_string(map, "author")?,
            schema: map
                .take("schema")
                .map(Slot::into_value)
                .filter(|v| !v.is_null())
                .map(Box::new),
        },
        "chat_response" => EventKind::ChatResponse(decode_chat_response(map)?),
        "tool_call_request" => {
            let id = take_string(map, "id")?;
            let name = take_string(map, "name")?;
            let mut arguments = match map.take("arguments") {
                None | Some(Slot::Value(Value::Null)) => Value::Object(Map::new()),
                Some(Slot::Value(v @ Value::Object(_))) => v,
                Some(other) => {
                    return Err(EntryProblem::mistyped("arguments", "an object", &other));
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
                Slot::Text(s) => Content::Text(decode_base64_text(s)),
                Slot::Value(Value::Array(items)) => {
                    Content::Blocks(items.into_iter().map(Block).collect())
                }
                other => {
                    return Err(EntryProblem::mistyped(
                        "content",
                        "a string or an array of blocks",
                        &other,
                    ));
                }
            };
            let flag = map.take("is_error").or_else(|| map.take("isError"));
            let is_error = match flag {
                None | Some(Slot::Value(Value::Null)) => false,
                Some(Slot::Value(Value::Bool(b))) => b,
                Some(other) => {
                    return Err(EntryProblem::mistyped("is_error", "a boolean", &other));
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
            source: Box::new(take_required(map, "source")?.into_value()),
            question: Box::new(take_required(map, "question")?.into_value()),
        },
        "inquiry_response" => EventKind::InquiryResponse {
            id: take_string(map, "id")?,
            answer: Box::new(map.take("answer").map_or(Value::Null, Slot::into_value)),
        },
        "config_delta" => EventKind::ConfigDelta {
            // JP is lenient here: a missing or invalid delta is an empty one.
            delta: match map.take("delta") {
                Some(Slot::Value(v @ Value::Object(_))) => JsonText::of(&v),
                _ => JsonText::of(&Value::Object(Map::new())),
            },
        },
        _ => {
            map.take("type");
            EventKind::Compaction(Box::new(map.rest()))
        }
    };
    Ok(Event {
        timestamp: timestamp.map(Into::into),
        kind,
        facts: Facts::from_metadata(&metadata),
        metadata: crate::model::Metadata::stored(metadata, request_id.map(Into::into)),
        event_id: event_id.map(Into::into),
    })
}

fn decode_chat_response<'de>(map: &mut impl Fields<'de>) -> Result<ChatResponse, EntryProblem> {
    if let Some(message) = map.take("message") {
        return match message {
            Slot::Text(s) => Ok(ChatResponse::Message(Some(s.into_owned()))),
            Slot::Value(Value::Null) => Ok(ChatResponse::Message(None)),
            other => Err(not_a_string("message", &other)),
        };
    }
    if let Some(reasoning) = map.take("reasoning") {
        return match reasoning {
            Slot::Text(s) => Ok(ChatResponse::Reasoning(s.into_owned())),
            other => Err(not_a_string("reasoning", &other)),
        };
    }
    if let Some(data) = map.take("data") {
        return Ok(ChatResponse::Data(Box::new(data.into_value())));
    }
    if let Some(data) = map.take("structured") {
        return Ok(ChatResponse::Data(Box::new(data.into_value())));
    }
    Err(EntryProblem::NoReply)
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod typed_tests;
