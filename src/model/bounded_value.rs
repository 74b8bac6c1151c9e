//! One record parsed into a JSON value within a budget of values.
//!
//! A `serde_json::Value` costs about 200 bytes a value, more for an
//! object's member: a transcript line of 19.5 MB holding 700,000 small
//! objects (an MCP tool's structured result in a Claude Code line) cost
//! 400 MB while it was read, past the memory rule (docs/hardening.md,
//! "Bounded work"). Here a record is parsed as serde_json parses it,
//! counting the values made. When it would make more than its budget
//! ([`budget`]), the innermost array or object that made a quarter of
//! the budget or more is not kept: the rest of it is read without being
//! made, and it stands as the string [`NOT_READ`]; the rest of the record
//! is read as before. Readers
//! take from a record what they show, so the values a cut array held are
//! missing only where a reader would have read them, and the raw view of a
//! line-based transcript keeps the line's text.

use std::cell::Cell;
use std::fmt;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// What stands for an array or object that was not kept.
pub const NOT_READ: &str = "(not read: more values than overhear holds of one record)";

/// About what one value costs once made, in bytes.
const VALUE_BYTES: usize = 200;

/// How many values a record of `len` bytes may make: about twice its
/// size in memory, plus 16 MiB, so that ordinary records (mostly text,
/// a few thousand values) are never cut.
fn budget(len: usize) -> usize {
    (2 * len + (16 << 20)) / VALUE_BYTES
}

/// A record's value, and how many arrays or objects in it were not kept.
#[derive(Debug)]
pub struct Bounded {
    /// The value, with [`NOT_READ`] where a container was not kept.
    pub value: Value,
    /// How many containers were not kept (0 for almost every record).
    pub cut: usize,
}

/// Parses `bytes` (one JSON text) as `serde_json::from_slice` would, but
/// within [`budget`] values (see the module's text). The errors are
/// serde_json's, with their places.
pub fn from_slice(bytes: &[u8]) -> serde_json::Result<Bounded> {
    from_slice_within(bytes, budget(bytes.len()))
}

fn from_slice_within(bytes: &[u8], total: usize) -> serde_json::Result<Bounded> {
    let state = State {
        left: Cell::new(total),
        total,
        exhausted: Cell::new(false),
        cut: Cell::new(0),
    };
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = Node(&state).deserialize(&mut deserializer)?;
    deserializer.end()?;
    // A cut that reached the record itself without enough made on the way.
    let whole = usize::from(state.exhausted.get());
    Ok(Bounded {
        value,
        cut: state.cut.get() + whole,
    })
}

/// The warning for a record in which `cut` containers were not kept (the
/// caller puts the place before it).
pub fn warning(cut: usize) -> String {
    let what = match cut {
        1 => "an array or object".to_string(),
        n => format!("{n} arrays or objects"),
    };
    format!("more values than overhear holds of one record: {what} not read")
}

/// The budget of one parse.
struct State {
    /// Values that may still be made.
    left: Cell<usize>,
    /// The budget at the start.
    total: usize,
    /// Set when a value could not be made: the containers it is in drop
    /// what they made, from the innermost out, until one that made at
    /// least a quarter of the budget has (and clears it).
    exhausted: Cell<bool>,
    /// Containers not kept.
    cut: Cell<usize>,
}

impl State {
    /// Counts one value made; marks the budget exhausted when none was left.
    fn take(&self) {
        match self.left.get() {
            0 => self.exhausted.set(true),
            left => self.left.set(left - 1),
        }
    }

    /// A container that started with `left_at_start` values left is not
    /// kept: what it made goes back to the budget, and the cut stops here
    /// when that was enough.
    fn drop_container(&self, left_at_start: usize) -> Value {
        let made = left_at_start.saturating_sub(self.left.get());
        self.left.set(left_at_start);
        if made >= self.total / 4 {
            self.exhausted.set(false);
            self.cut.set(self.cut.get() + 1);
        }
        Value::String(NOT_READ.to_string())
    }
}

/// A value within the budget.
struct Node<'s>(&'s State);

impl<'de> DeserializeSeed<'de> for Node<'_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Node<'_> {
    type Value = Value;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        self.0.take();
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        self.0.take();
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        self.0.take();
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        self.0.take();
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        self.0.take();
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        self.0.take();
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        self.0.take();
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let state = self.0;
        state.take();
        let left_at_start = state.left.get();
        let mut items = Vec::new();
        while !state.exhausted.get() {
            match seq.next_element_seed(Node(state))? {
                Some(item) => items.push(item),
                None => return Ok(Value::Array(items)),
            }
        }
        drop(items);
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(state.drop_container(left_at_start))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let state = self.0;
        state.take();
        let left_at_start = state.left.get();
        let mut members = Map::new();
        while !state.exhausted.get() {
            match map.next_key::<String>()? {
                Some(key) => {
                    let value = map.next_value_seed(Node(state))?;
                    members.insert(key, value);
                }
                None => return Ok(Value::Object(members)),
            }
        }
        drop(members);
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(state.drop_container(left_at_start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_record_within_its_budget_is_the_value_serde_json_reads() {
        let texts = [
            r#"{"type":"user","n":[1,-2,3.5,1e300,18446744073709551615],"s":"é\n\"\ud83d\ude00","o":{},"a":[],"z":null,"t":true}"#,
            r#"[[[[]]],{"a":{"b":{"c":[{"d":1}]}}}]"#,
            r#""just a string""#,
            "  42  ",
        ];
        for text in texts {
            let bounded = from_slice(text.as_bytes()).expect("JSON");
            let plain: Value = serde_json::from_str(text).expect("JSON");
            assert_eq!(bounded.value, plain, "{text}");
            assert_eq!(bounded.cut, 0);
            assert_eq!(bounded.value.to_string(), plain.to_string(), "order kept");
        }
    }

    #[test]
    fn errors_are_serde_jsons_with_their_places() {
        for text in ["{\"a\": }", "[1, 2", "[] []", "{\"a\":1,}", "nul"] {
            let ours = from_slice(text.as_bytes()).expect_err("not JSON").to_string();
            let theirs = serde_json::from_str::<Value>(text)
                .expect_err("not JSON")
                .to_string();
            assert_eq!(ours, theirs, "{text}");
        }
        let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
        let ours = from_slice(deep.as_bytes()).expect_err("too deep").to_string();
        assert!(ours.starts_with("recursion limit exceeded"), "{ours}");
    }

    /// The line of a Claude Code tool result whose structured content is a
    /// long array: the array is cut, what the reader reads is kept.
    #[test]
    fn the_array_that_takes_the_budget_is_cut_and_the_rest_of_the_record_kept() {
        let rows: Vec<Value> = (0..2_000).map(|i| json!({"id": i, "ok": true})).collect();
        let line = json!({
            "type": "user",
            "message": {"content": [{"type": "tool_result", "tool_use_id": "t1", "content": "2000 rows"}]},
            "toolUseResult": {"structuredContent": {"rows": rows, "count": 2000}},
            "uuid": "u3",
        })
        .to_string();
        let bounded = from_slice_within(line.as_bytes(), 1_000).expect("JSON");
        assert_eq!(bounded.cut, 1);
        let value = bounded.value;
        assert_eq!(value["toolUseResult"]["structuredContent"]["rows"], NOT_READ);
        assert_eq!(value["toolUseResult"]["structuredContent"]["count"], 2000);
        assert_eq!(value["message"]["content"][0]["content"], "2000 rows");
        assert_eq!(value["uuid"], "u3", "members after the cut are read");
    }

    #[test]
    fn two_long_arrays_are_cut_each_and_a_short_one_beside_them_kept() {
        let long = |n: usize| -> Vec<Value> { (0..n).map(|i| json!([i])).collect() };
        let record = json!({"a": long(3_000), "b": [1, 2, 3], "c": long(3_000), "d": "end"});
        let bounded = from_slice_within(record.to_string().as_bytes(), 1_000).expect("JSON");
        assert_eq!(bounded.cut, 2);
        assert_eq!(
            bounded.value,
            json!({"a": NOT_READ, "b": [1, 2, 3], "c": NOT_READ, "d": "end"})
        );
    }

    #[test]
    fn an_object_of_many_members_is_cut_like_an_array() {
        let wide: Map<String, Value> = (0..5_000).map(|i| (format!("k{i}"), json!(i))).collect();
        let record = json!({"id": "x", "wide": wide});
        let bounded = from_slice_within(record.to_string().as_bytes(), 1_000).expect("JSON");
        assert_eq!(bounded.value, json!({"id": "x", "wide": NOT_READ}));
    }

    #[test]
    fn a_record_that_is_one_long_array_stands_as_the_note() {
        let record = Value::Array((0..5_000).map(|i| json!(i)).collect());
        let bounded = from_slice_within(record.to_string().as_bytes(), 1_000).expect("JSON");
        assert_eq!(bounded.value, NOT_READ);
        assert_eq!(bounded.cut, 1);
    }

    #[test]
    fn the_budget_of_a_record_keeps_ordinary_records_whole() {
        // A 2 KB line may make 84,000 values; 20 MB of small objects may not.
        assert!(budget(2_000) > 80_000);
        assert!(budget(20 << 20) < 700_000 * 3);
    }
}
