//! One stored entry of `events.json`, deserialized typed and borrowing
//!: its top-level members in stored order, each string
//! borrowed from the file's bytes when it holds no escape, each other value
//! a `serde_json::Value`. No JSON map is built for the entry itself and no
//! string is copied before the reader knows what it is for: a tool result's
//! base64 is decoded straight from the file's bytes.
//!
//! Why not `#[derive(Deserialize)]` over the envelope: an entry must come
//! out exactly as serde_json's `Value` would have read it whenever it is
//! kept as unknown (an unknown `type`, a malformed known one: the raw view
//! shows it as stored), and a repeated key must mean what it means to a
//! `Value` (the last value, at the first key's place). A derived struct
//! rejects repeated fields and drops the members it does not name. The
//! members kept here rebuild that `Value` exactly ([`Entry::into_value`]).
//!
//! Why not `RawValue` for the values decoded later or never: the model keeps
//! a tool call's arguments, metadata and configuration as `Value`s, built
//! when the entry is read, so a raw value would be walked twice; and
//! serde_json's `raw_value` feature changes how every `Value` reads an
//! object whose first key is its private marker. The one large value that
//! is never needed as JSON, a tool result's base64, is a borrowed string.

use std::borrow::Cow;
use std::fmt;

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use super::members::{self, Shape};
use crate::problem::json_kind;

/// A top-level member's value.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Slot<'de> {
    /// A string, borrowed from the stored bytes when it holds no escape.
    Text(Cow<'de, str>),
    /// Any other JSON value, as serde_json's `Value` reads it.
    Value(Value),
}

impl Slot<'_> {
    /// The value as a `Value`.
    pub(super) fn into_value(self) -> Value {
        match self {
            Slot::Text(text) => Value::String(text.into_owned()),
            Slot::Value(value) => value,
        }
    }

    /// The JSON type, as messages name it ("a string", "an object").
    pub(super) fn kind(&self) -> &'static str {
        match self {
            Slot::Text(_) => "a string",
            Slot::Value(value) => json_kind(value),
        }
    }

    /// An empty value of the same JSON type (a dry run decides on these as
    /// on the real values: decoding goes by presence and type only).
    pub(super) fn shape(&self) -> Slot<'static> {
        match self {
            Slot::Text(_) => Slot::Text(Cow::Borrowed("")),
            Slot::Value(Value::Array(_)) => Slot::Value(Value::Array(Vec::new())),
            Slot::Value(Value::Object(_)) => Slot::Value(Value::Object(Map::new())),
            Slot::Value(scalar) => Slot::Value(scalar.clone()),
        }
    }
}

/// One stored entry.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Entry<'de> {
    /// An object: its members in stored order, repeated keys included
    /// (a member taken out is `None`).
    Object(Vec<Member<'de>>),
    /// Anything else, as serde_json's `Value` reads it.
    Other(Value),
}

/// One member of an entry: its key and its value (`None` once taken).
pub(super) type Member<'de> = (Cow<'de, str>, Option<Slot<'de>>);

impl<'de> Entry<'de> {
    /// Reads one entry from its bytes.
    pub(super) fn parse(bytes: &'de [u8]) -> Result<Entry<'de>, serde_json::Error> {
        serde_json::from_slice(bytes)
    }

    /// The entry as serde_json's `Value` reads it.
    #[cfg(test)]
    pub(super) fn into_value(self) -> Value {
        match self {
            Entry::Object(members) => Value::Object(object_of(members)),
            Entry::Other(value) => value,
        }
    }
}

/// Reads one entry the array scanner found, with the `ends` it noted in it
/// (see [`from_members`]); `found` is where its members go (one vector for
/// all entries).
pub(super) fn read<'de>(
    bytes: &'de [u8],
    ends: &[usize],
    found: &mut Vec<members::Member>,
) -> Result<Entry<'de>, serde_json::Error> {
    let read = members::members(bytes, ends, found)
        .filter(|()| members::plain_keys(bytes, found))
        .and_then(|()| from_members(bytes, found));
    match read {
        Some(entry) => Ok(entry),
        None => Entry::parse(bytes),
    }
}

/// An entry read from its top-level members as the array scanner and
/// [`members`](super::members::members) found them: a string without an
/// escape is taken as it lies in `entry` (the scanner already found its end
/// in one search, where serde_json would walk it again a word at a time),
/// the other values are parsed each on its own. `None` when a key or a
/// value is not what JSON allows (a control character, bytes that are not
/// UTF-8, a number that is not one): the caller parses the entry whole then,
/// which decides.
fn from_members<'de>(entry: &'de [u8], found: &[members::Member]) -> Option<Entry<'de>> {
    let mut out = Vec::with_capacity(found.len());
    for member in found {
        let key = plain_text(&entry[member.key.clone()])?;
        let slot = match member.shape {
            Shape::String => {
                let raw = &entry[member.text.clone()];
                if memchr::memchr(b'\\', raw).is_some() {
                    Slot::Text(Cow::Owned(
                        serde_json::from_slice(&entry[member.value.clone()]).ok()?,
                    ))
                } else {
                    Slot::Text(Cow::Borrowed(plain_text(raw)?))
                }
            }
            Shape::Bool(b) => Slot::Value(Value::Bool(b)),
            Shape::Null => Slot::Value(Value::Null),
            Shape::Number | Shape::Array | Shape::Object => {
                Slot::Value(serde_json::from_slice(&entry[member.value.clone()]).ok()?)
            }
        };
        out.push((Cow::Borrowed(key), Some(slot)));
    }
    Some(Entry::Object(out))
}

/// The text of a string's bytes between its quotes, when it holds no escape
/// and JSON allows it as it is: no control character, valid UTF-8.
fn plain_text(raw: &[u8]) -> Option<&str> {
    // No early exit: the compiler checks many bytes at once (a string is
    // seldom wrong, and then the whole entry is parsed again anyway).
    let controls = raw.iter().fold(0u8, |found, &b| found | u8::from(b < 0x20));
    if controls != 0 {
        return None;
    }
    std::str::from_utf8(raw).ok()
}

/// A JSON object of `members`, as a `Value` reads it: a repeated key keeps
/// its first place and its last value (`Map::insert`).
pub(super) fn object_of(members: Vec<Member<'_>>) -> Map<String, Value> {
    let mut map = Map::with_capacity(members.len());
    for (key, slot) in members {
        if let Some(slot) = slot {
            map.insert(key.into_owned(), slot.into_value());
        }
    }
    map
}

/// The member that counts for `key` in `members`: the last one, as for a
/// `Value`, which keeps the last of repeated keys.
pub(super) fn last<'a, 'de>(members: &'a [Member<'de>], key: &str) -> Option<&'a Slot<'de>> {
    members
        .iter()
        .rev()
        .find(|(k, _)| k == key)
        .and_then(|(_, slot)| slot.as_ref())
}

/// Takes the value that counts for `key` out of `members`, dropping the
/// repeated ones before it (a `Value` would not have kept them).
pub(super) fn take<'de>(members: &mut [Member<'de>], key: &str) -> Option<Slot<'de>> {
    let mut found = None;
    for (k, slot) in members.iter_mut() {
        if k == key && slot.is_some() {
            found = slot.take();
        }
    }
    found
}

impl<'de> Deserialize<'de> for Entry<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(EntryVisitor)
    }
}

impl<'de> Deserialize<'de> for Slot<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(SlotVisitor)
    }
}

/// A key, borrowed when it holds no escape.
struct Key<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string key")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

/// Makes what serde_json's `Value` makes of a scalar, a string or an array
/// (objects are the caller's: an entry's members, a member's `Value`).
macro_rules! value_visits {
    () => {
        fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
            Ok(self.value(Value::Bool(v)))
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            Ok(self.value(Value::from(v)))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Ok(self.value(Value::from(v)))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
            Ok(self.value(Value::from(v)))
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(self.value(Value::Null))
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(self.value(Value::Null))
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            Ok(self.value(Value::deserialize(d)?))
        }
        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
            Ok(self.value(Value::deserialize(SeqAccessDeserializer::new(seq))?))
        }
    };
}

struct EntryVisitor;

impl EntryVisitor {
    fn value<'de>(&self, value: Value) -> Entry<'de> {
        Entry::Other(value)
    }
}

impl<'de> Visitor<'de> for EntryVisitor {
    type Value = Entry<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    value_visits!();

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Entry<'de>, E> {
        Ok(Entry::Other(Value::String(v.to_owned())))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Entry<'de>, E> {
        Ok(Entry::Other(Value::String(v)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entry<'de>, A::Error> {
        // JP's entries have a handful of members.
        let mut members = Vec::with_capacity(8);
        while let Some(Key(key)) = map.next_key()? {
            let slot: Slot<'de> = map.next_value()?;
            members.push((key, Some(slot)));
        }
        Ok(Entry::Object(members))
    }
}

struct SlotVisitor;

impl SlotVisitor {
    fn value<'de>(&self, value: Value) -> Slot<'de> {
        Slot::Value(value)
    }
}

impl<'de> Visitor<'de> for SlotVisitor {
    type Value = Slot<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    value_visits!();

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Slot<'de>, E> {
        Ok(Slot::Text(Cow::Borrowed(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Slot<'de>, E> {
        Ok(Slot::Text(Cow::Owned(v.to_owned())))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Slot<'de>, E> {
        Ok(Slot::Text(Cow::Owned(v)))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Slot<'de>, A::Error> {
        Ok(Slot::Value(Value::deserialize(
            MapAccessDeserializer::new(map),
        )?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_without_escapes_are_borrowed() {
        let bytes = br#"{"type": "x", "content": "Zm9v", "text": "a\nb", "n": [1]}"#;
        let Entry::Object(members) = Entry::parse(bytes).unwrap() else {
            panic!("an object")
        };
        assert!(matches!(
            last(&members, "content"),
            Some(Slot::Text(Cow::Borrowed("Zm9v")))
        ));
        assert!(matches!(
            last(&members, "text"),
            Some(Slot::Text(Cow::Owned(s))) if s == "a\nb"
        ));
        assert_eq!(
            last(&members, "n"),
            Some(&Slot::Value(serde_json::json!([1])))
        );
    }

    #[test]
    fn an_entry_rebuilds_the_value_serde_json_reads() {
        for text in [
            r#"{"a": 1, "b": "x", "a": "y", "c": {"d": [1.5, null, true]}}"#,
            r#"{"k\u0065y": "v\"", "": -0, "big": 18446744073709551615, "f": 1e300}"#,
            r#"[{"a": 1}, "s", 2]"#,
            r#""just a string""#,
            "12",
            "null",
            "{}",
        ] {
            let value: Value = serde_json::from_str(text).unwrap();
            let entry = Entry::parse(text.as_bytes()).unwrap();
            assert_eq!(entry.into_value(), value, "{text}");
        }
    }

    #[test]
    fn repeated_keys_count_as_a_value_counts_them() {
        let text = br#"{"a": 1, "b": 2, "a": 3}"#;
        let Entry::Object(mut members) = Entry::parse(text).unwrap() else {
            panic!("an object")
        };
        assert_eq!(
            last(&members, "a"),
            Some(&Slot::Value(serde_json::json!(3)))
        );
        assert_eq!(
            take(&mut members, "a"),
            Some(Slot::Value(serde_json::json!(3)))
        );
        assert_eq!(
            object_of(members),
            serde_json::json!({"b": 2}).as_object().cloned().unwrap()
        );
    }
}
