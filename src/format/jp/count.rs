//! Counting the events of an `events.json` without parsing it, for the
//! conversation picker: it shows how long each conversation is, and parsing
//! every file of a workspace for that would cost a full load each.
//!
//! The entries are found by the same scanner the reader uses; only the first
//! one is parsed, to tell a legacy base config (jp-format §1.9: not an event)
//! from an event, by the rule the reader applies.

use std::io::{self, Read};

use serde::Deserialize;

use super::entries::{ArrayReader, Next};

/// How much of the file is read at a time.
const CHUNK: usize = 64 * 1024;

/// The number of events in the JP events array `events` holds, as the reader
/// would load them; `None` if it is not a plain JSON array of entries.
/// `has_base_file`: `base_config.json` lies beside it (then a leading
/// `config_delta` is an event).
pub fn count_events(events: impl Read, has_base_file: bool) -> io::Result<Option<usize>> {
    let mut entries = ArrayReader::new(events, CHUNK)?;
    let (mut stored, mut base) = (0, 0);
    loop {
        match entries.next(|_| {})? {
            Next::Entry(bytes, _) => {
                // A legacy base config is the first entry, and not an event.
                if stored == 0 && !has_base_file && is_config_delta(bytes) {
                    base = 1;
                }
                stored += 1;
            }
            Next::End => return Ok(Some(stored - base)),
            Next::Unusual => return Ok(None),
        }
    }
}

/// Whether an entry is an object whose `type` is `config_delta` (the test
/// [`super::legacy_base`] applies to the first entry), reading nothing else.
fn is_config_delta(entry: &[u8]) -> bool {
    #[derive(Deserialize)]
    struct Typed<'a> {
        #[serde(rename = "type", borrow)]
        kind: Option<std::borrow::Cow<'a, str>>,
    }
    // serde would take `["config_delta"]` for the struct too: objects only.
    entry.first() == Some(&b'{')
        && serde_json::from_slice::<Typed>(entry)
            .is_ok_and(|t| t.kind.as_deref() == Some("config_delta"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(text: &str, has_base_file: bool) -> Option<usize> {
        count_events(text.as_bytes(), has_base_file).unwrap()
    }

    #[test]
    fn counts_top_level_entries_only() {
        assert_eq!(count("[]", true), Some(0));
        assert_eq!(count("\u{feff}[\n]\n", true), Some(0));
        assert_eq!(count(r#"[{"a":[1,2,3]},{"b":{"c":[]}}]"#, true), Some(2));
        let text = r#"[{"content":"a, b ] [ { \" , \\"}, {"x":"\\\"]"}]"#;
        assert_eq!(count(text, true), Some(2));
    }

    #[test]
    fn not_an_array_or_cut_short_is_no_count() {
        assert_eq!(count(r#"{"type":"x"}"#, true), None);
        assert_eq!(count(r#"[{"a":1},"#, true), None);
        assert_eq!(count("", true), None);
    }

    #[test]
    fn a_legacy_base_config_is_not_an_event() {
        let legacy = r#"[{"type":"config_delta","delta":{}},
            {"type":"turn_start"},
            {"type":"chat_request","content":"hi"}]"#;
        assert_eq!(count(legacy, false), Some(2));
        // With base_config.json beside it, a leading config_delta is an event.
        assert_eq!(count(legacy, true), Some(3));
        // Only an object, and only the first entry, can be the base.
        assert_eq!(count(r#"[["config_delta"]]"#, false), Some(1));
        let later = r#"[{"type":"turn_start"},{"type":"config_delta","delta":{}}]"#;
        assert_eq!(count(later, false), Some(2));
    }

    #[test]
    fn counts_what_the_reader_loads() {
        let events: Vec<serde_json::Value> = (0..40)
            .map(|i| serde_json::json!({"type": "chat_request", "content": format!("q{i}, [x]"), "n": [i, {"k": "}"}]}))
            .collect();
        let text = serde_json::to_string_pretty(&events).unwrap();
        let loaded = super::super::load(text.as_bytes(), None).unwrap();
        assert_eq!(count(&text, false), Some(loaded.events.len()));
    }
}
