//! The top-level members of one stored entry — each key and the JSON type of
//! its value — found without building any value, so that the entries a
//! `render --turn` does not show cost a scan, not a parse.
//!
//! The scan reads no byte inside a string, array or object: the array
//! scanner that found the entry noted where each of its top-level strings
//! and nested values ends ([`ArrayScanner::top_level_ends`]), so the bytes
//! of an entry are walked once, not once to find it and again for its
//! members. It checks the entry's top level (keys, `:`, `,`, literals) but
//! not what lies inside strings, arrays and objects. Anything it does not
//! follow — a misplaced byte, ends that do not fit — is `None`, and so is a
//! key with an escape by [`plain_keys`], which a caller meeting the same
//! keys entry after entry asks once: the caller parses that entry with
//! serde_json instead, which decides.
//!
//! [`ArrayScanner::top_level_ends`]: super::entries::ArrayScanner::top_level_ends

use std::ops::Range;

#[cfg(feature = "cli")]
use serde_json::{Map, Value};

use super::entries::after_space;
#[cfg(feature = "cli")]
use super::entry::Slot;

/// The JSON type of a member's value, from its first byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A string (its bytes, quotes excluded, are in [`Member::text`]).
    String,
    /// A number.
    Number,
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl Shape {
    /// An empty value of this type: decoding decides by presence and type
    /// only, so it decides on these as on the real values.
    #[cfg(feature = "cli")]
    pub(super) fn empty_slot(self) -> Slot<'static> {
        Slot::Value(match self {
            Shape::String => return Slot::Text("".into()),
            Shape::Number => Value::from(0),
            Shape::Bool(b) => Value::Bool(b),
            Shape::Null => Value::Null,
            Shape::Array => Value::Array(Vec::new()),
            Shape::Object => Value::Object(Map::new()),
        })
    }

    /// The type of the value that starts with `byte`, if one can.
    pub fn of_first_byte(byte: u8) -> Option<Shape> {
        Some(match byte {
            b'"' => Shape::String,
            b'{' => Shape::Object,
            b'[' => Shape::Array,
            b't' => Shape::Bool(true),
            b'f' => Shape::Bool(false),
            b'n' => Shape::Null,
            b'-' | b'0'..=b'9' => Shape::Number,
            _ => return None,
        })
    }
}

/// One top-level member of an entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// The key's bytes between the quotes, as stored ([`plain_keys`] tells
    /// whether they are the key's text).
    pub key: Range<usize>,
    /// The type of its value.
    pub shape: Shape,
    /// A string value's bytes between the quotes, escapes as stored.
    pub text: Range<usize>,
    /// The value's bytes (a string's with its quotes).
    pub value: Range<usize>,
}

/// Whether every key of `members` (found in `entry`) is as it reads: UTF-8
/// without an escape. [`members`] does not look: a caller that meets the
/// same keys entry after entry checks them once.
pub fn plain_keys(entry: &[u8], members: &[Member]) -> bool {
    members.iter().all(|member| {
        let key = &entry[member.key.clone()];
        // A key is a short ASCII name: looked at once, byte by byte, and
        // searched and validated only when it is not.
        key.iter().all(|&b| b != b'\\' && b.is_ascii())
            || (memchr::memchr(b'\\', key).is_none() && std::str::from_utf8(key).is_ok())
    })
}

/// The members of the object `entry` (one whole entry, as the array scanner
/// hands it out, with the `ends` of its top-level strings and nested values
/// it noted) in stored order, into `out`; `None` when the entry is not an
/// object or the scan does not follow it (see the module's text).
pub fn members(entry: &[u8], ends: &[usize], out: &mut Vec<Member>) -> Option<()> {
    out.clear();
    let mut ends = Ends {
        ends: ends.iter(),
        len: entry.len(),
    };
    let mut pos = after_space(entry, 0);
    if entry.get(pos) != Some(&b'{') {
        return None;
    }
    pos = after_space(entry, pos + 1);
    if entry.get(pos) == Some(&b'}') {
        return (after_space(entry, pos + 1) == entry.len()).then_some(());
    }
    loop {
        if entry.get(pos) != Some(&b'"') {
            return None;
        }
        let key_end = ends.after(pos)?;
        let key = pos + 1..key_end - 1;
        pos = after_space(entry, key_end);
        if entry.get(pos) != Some(&b':') {
            return None;
        }
        pos = after_space(entry, pos + 1);
        let shape = Shape::of_first_byte(*entry.get(pos)?)?;
        let start = pos;
        pos = value_end(entry, pos, shape, &mut ends)?;
        let text = match shape {
            Shape::String => start + 1..pos - 1,
            _ => start..start,
        };
        out.push(Member {
            key,
            shape,
            text,
            value: start..pos,
        });
        pos = after_space(entry, pos);
        match entry.get(pos) {
            Some(b',') => pos = after_space(entry, pos + 1),
            Some(b'}') => return (after_space(entry, pos + 1) == entry.len()).then_some(()),
            _ => return None,
        }
    }
}

/// The ends the array scanner noted, taken in order: one for each key,
/// string value and nested value at the entry's top level.
struct Ends<'e> {
    ends: std::slice::Iter<'e, usize>,
    /// The entry's length: no end lies past it.
    len: usize,
}

impl Ends<'_> {
    /// Just past the string or nested value that starts at `pos` (two bytes
    /// at least: `""`, `[]`, `{}`); `None` when the next end noted does not
    /// fit it.
    fn after(&mut self, pos: usize) -> Option<usize> {
        let end = *self.ends.next()?;
        (end >= pos + 2 && end <= self.len).then_some(end)
    }
}

/// Just past the value of `shape` that starts at `pos`.
fn value_end(bytes: &[u8], pos: usize, shape: Shape, ends: &mut Ends<'_>) -> Option<usize> {
    let literal = |word: &[u8]| bytes[pos..].starts_with(word).then_some(pos + word.len());
    match shape {
        Shape::String | Shape::Array | Shape::Object => ends.after(pos),
        Shape::Bool(true) => literal(b"true"),
        Shape::Bool(false) => literal(b"false"),
        Shape::Null => literal(b"null"),
        Shape::Number => {
            let len = bytes[pos..]
                .iter()
                .position(|b| !matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                .unwrap_or(bytes.len() - pos);
            Some(pos + len)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::entries::{ArrayScanner, is_json_space};
    use super::*;

    /// The members of `text` (from its first byte that is not a space, as
    /// entries start), with the ends the array scanner notes reading it as
    /// the first entry of an array — as far as it gets, for texts that are
    /// not whole entries.
    fn scan(text: &str) -> Option<Vec<(String, Shape, String)>> {
        let entry = text.trim_start_matches(|c| is_json_space(&(c as u8)));
        let mut scanner = ArrayScanner::new(0);
        scanner.scan(format!("[{entry}]").as_bytes());
        let mut out = Vec::new();
        members(entry.as_bytes(), scanner.top_level_ends(), &mut out)?;
        Some(
            out.iter()
                .map(|m| {
                    (
                        entry[m.key.clone()].to_string(),
                        m.shape,
                        entry[m.text.clone()].to_string(),
                    )
                })
                .collect(),
        )
    }

    #[test]
    fn finds_each_top_level_key_and_the_type_of_its_value() {
        let text = r#"{
  "timestamp": "2026-04-10 17:04:20.5",
  "type": "tool_call_request",
  "id": "a\"b",
  "arguments": {"path": "x}\"]", "n": [1, {"k": "{"}]},
  "n": -1.5e3, "t": true, "f": false, "z": null, "l": []
}"#;
        let found = scan(text).unwrap();
        let shapes: Vec<(&str, Shape)> = found.iter().map(|(k, s, _)| (k.as_str(), *s)).collect();
        assert_eq!(
            shapes,
            [
                ("timestamp", Shape::String),
                ("type", Shape::String),
                ("id", Shape::String),
                ("arguments", Shape::Object),
                ("n", Shape::Number),
                ("t", Shape::Bool(true)),
                ("f", Shape::Bool(false)),
                ("z", Shape::Null),
                ("l", Shape::Array),
            ]
        );
        assert_eq!(found[1].2, "tool_call_request");
        assert_eq!(found[2].2, r#"a\"b"#, "the text is as stored");
        assert_eq!(scan("{}"), Some(vec![]));
        assert_eq!(scan(" { } "), Some(vec![]));
    }

    #[test]
    fn leaves_what_it_does_not_follow_to_serde_json() {
        for text in [
            "[1]",
            r#""s""#,
            r#"{"a" 1}"#,
            r#"{"a": 1 "b": 2}"#,
            r#"{"a": 1,}"#,
            r#"{"a": tru}"#,
            r#"{"a": x}"#,
            r#"{"a": "open}"#,
            r#"{"a": {"b": 1}"#,
            r#"{"a": 1} x"#,
        ] {
            assert_eq!(scan(text), None, "{text}");
        }
    }

    #[test]
    fn keys_with_an_escape_or_not_utf8_are_not_plain() {
        let plain = |entry: &[u8], ends: &[usize]| {
            let mut found = Vec::new();
            members(entry, ends, &mut found).expect("followed");
            plain_keys(entry, &found)
        };
        assert!(!plain(br#"{"k\u0065y": 1}"#, &[11]));
        assert!(!plain(b"{\"\xff\": 1}", &[4]));
        assert!(plain("{\"é\": 1}".as_bytes(), &[5]));
        assert!(plain(br#"{"key": 1, "type": "x"}"#, &[6, 17, 22]));
    }

    #[test]
    fn ends_that_do_not_fit_the_entry_are_not_followed() {
        let entry = br#"{"ab": "cd", "e": [1]}"#;
        let mut out = Vec::new();
        assert_eq!(members(entry, &[5, 11, 16, 21], &mut out), Some(()));
        assert_eq!(out.len(), 2);
        for ends in [
            &[][..],
            &[5, 11, 16],
            &[1, 11, 16, 21],
            &[5, 8, 16, 21],
            &[5, 11, 16, 99],
        ] {
            assert_eq!(members(entry, ends, &mut out), None, "{ends:?}");
        }
    }
}
