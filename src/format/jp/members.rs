//! The top-level members of one stored entry — each key and the JSON type of
//! its value — found without building any value, so that the entries a
//! `render --turn` does not show cost a scan, not a parse (issue 13 §1).
//!
//! The scan jumps over string contents with `memchr` and follows escapes;
//! it checks the entry's top level (keys, `:`, `,`, literals) but not what
//! lies inside strings, arrays and objects. Anything it does not follow —
//! a key or a needed value with an escape, a misplaced byte — is `None`:
//! the caller parses that entry with serde_json instead, which decides.

use std::ops::Range;

use serde_json::{Map, Value};

use super::entries::is_json_space;

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
    pub fn empty_value(self) -> Value {
        match self {
            Shape::String => Value::String(String::new()),
            Shape::Number => Value::from(0),
            Shape::Bool(b) => Value::Bool(b),
            Shape::Null => Value::Null,
            Shape::Array => Value::Array(Vec::new()),
            Shape::Object => Value::Object(Map::new()),
        }
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
pub struct Member<'a> {
    /// The key (it held no escape).
    pub key: &'a str,
    /// The type of its value.
    pub shape: Shape,
    /// A string value's bytes between the quotes, escapes as stored.
    pub text: Range<usize>,
}

/// The members of the object `entry` (one whole entry, as the array scanner
/// hands it out) in stored order, into `out`; `None` when the entry is not
/// an object or the scan does not follow it (see the module's text).
pub fn members<'a>(entry: &'a [u8], out: &mut Vec<Member<'a>>) -> Option<()> {
    out.clear();
    let mut pos = skip_space(entry, 0);
    if entry.get(pos) != Some(&b'{') {
        return None;
    }
    pos = skip_space(entry, pos + 1);
    if entry.get(pos) == Some(&b'}') {
        return (skip_space(entry, pos + 1) == entry.len()).then_some(());
    }
    loop {
        if entry.get(pos) != Some(&b'"') {
            return None;
        }
        let key_end = string_end(entry, pos + 1)?;
        let key = &entry[pos + 1..key_end - 1];
        if memchr::memchr(b'\\', key).is_some() {
            return None;
        }
        let key = std::str::from_utf8(key).ok()?;
        pos = skip_space(entry, key_end);
        if entry.get(pos) != Some(&b':') {
            return None;
        }
        pos = skip_space(entry, pos + 1);
        let shape = Shape::of_first_byte(*entry.get(pos)?)?;
        let start = pos;
        pos = value_end(entry, pos, shape)?;
        let text = match shape {
            Shape::String => start + 1..pos - 1,
            _ => start..start,
        };
        out.push(Member { key, shape, text });
        pos = skip_space(entry, pos);
        match entry.get(pos) {
            Some(b',') => pos = skip_space(entry, pos + 1),
            Some(b'}') => return (skip_space(entry, pos + 1) == entry.len()).then_some(()),
            _ => return None,
        }
    }
}

fn skip_space(bytes: &[u8], mut pos: usize) -> usize {
    while bytes.get(pos).is_some_and(is_json_space) {
        pos += 1;
    }
    pos
}

/// Just past the closing quote of the string whose contents start at `pos`.
fn string_end(bytes: &[u8], mut pos: usize) -> Option<usize> {
    loop {
        pos += memchr::memchr2(b'"', b'\\', &bytes[pos..])?;
        if bytes[pos] == b'"' {
            return Some(pos + 1);
        }
        pos += 2;
        if pos > bytes.len() {
            return None;
        }
    }
}

/// Just past the value of `shape` that starts at `pos`.
fn value_end(bytes: &[u8], pos: usize, shape: Shape) -> Option<usize> {
    let literal = |word: &[u8]| bytes[pos..].starts_with(word).then_some(pos + word.len());
    match shape {
        Shape::String => string_end(bytes, pos + 1),
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
        Shape::Array | Shape::Object => nested_end(bytes, pos),
    }
}

/// Just past the array or object that starts at `pos`.
fn nested_end(bytes: &[u8], mut pos: usize) -> Option<usize> {
    let mut depth = 0usize;
    loop {
        match *bytes.get(pos)? {
            b'"' => {
                pos = string_end(bytes, pos + 1)?;
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(pos + 1);
                }
            }
            _ => {}
        }
        pos += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(text: &str) -> Option<Vec<(String, Shape, String)>> {
        let mut out = Vec::new();
        members(text.as_bytes(), &mut out)?;
        Some(
            out.iter()
                .map(|m| (m.key.to_string(), m.shape, text[m.text.clone()].to_string()))
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
            r#"{"k\u0065y": 1}"#,
            r#"{"a": "open}"#,
            r#"{"a": {"b": 1}"#,
            r#"{"a": 1} x"#,
        ] {
            assert_eq!(scan(text), None, "{text}");
        }
    }
}
