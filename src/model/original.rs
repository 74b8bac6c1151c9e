//! A stored record as read, for the raw view: the line of an NDJSON stream
//! (eve's records, malformed ones included) when the format's records are
//! not the events themselves.

use serde_json::Value;

/// One stored line of a stream as read, for the raw view.
///
/// The line is kept as its text and parsed again when it is drawn
/// ([`Original::fields`]): parsed, a short line takes about ten times its
/// size, and a followed stream keeps every line it reads.
#[derive(Debug, Clone, PartialEq)]
pub struct Original {
    /// 1-based line number in the stream.
    pub line: usize,
    /// The line's JSON text (surrounding whitespace trimmed), when it parsed.
    pub json: Option<Box<str>>,
    /// Why the line could not be read, for a malformed line.
    pub error: Option<Box<str>>,
    /// The turn the line names, found when it was read.
    turn: TurnOf,
}

/// Where an [`Original`]'s turn id is: a byte range of its text holding the
/// id as is (no allocation), or the id itself when the text escapes it.
#[derive(Debug, Clone, PartialEq)]
enum TurnOf {
    None,
    Within(u32, u32),
    Own(Box<str>),
}

impl Original {
    /// Line `line` as read: `raw` is its trimmed text, kept when `parsed`
    /// (it was JSON); `turn_id` is the turn the reader found it names;
    /// `error` says why it was skipped.
    pub fn new(
        line: usize,
        raw: &[u8],
        parsed: bool,
        turn_id: Option<&str>,
        error: Option<String>,
    ) -> Self {
        // A line that parsed as JSON is UTF-8: the fast check first
        // (`from_utf8_lossy` walks every byte), the lossy copy only for a
        // caller that says `parsed` of bytes that are not.
        let json: Option<Box<str>> = parsed.then(|| match std::str::from_utf8(raw) {
            Ok(text) => Box::from(text),
            Err(_) => String::from_utf8_lossy(raw).into(),
        });
        let turn = match (turn_id, &json) {
            (Some(id), Some(text)) => match text.find(id) {
                Some(start) => match (u32::try_from(start), u32::try_from(start + id.len())) {
                    (Ok(start), Ok(end)) => TurnOf::Within(start, end),
                    _ => TurnOf::Own(id.into()),
                },
                None => TurnOf::Own(id.into()),
            },
            (Some(id), None) => TurnOf::Own(id.into()),
            _ => TurnOf::None,
        };
        Original {
            line,
            json,
            error: error.map(String::into_boxed_str),
            turn,
        }
    }

    /// The line parsed within a budget of values
    /// ([`super::bounded_value`]), to read a few of its fields however long
    /// it is: an array or object too large to hold stands as a note.
    pub fn fields(&self) -> Option<Value> {
        let json = self.json.as_deref()?;
        super::bounded_value::from_slice(json.as_bytes())
            .ok()
            .map(|bounded| bounded.value)
    }

    /// Edits the stored line through its parsed value (redaction): when
    /// `change` says it changed the value, the line is stored again as that
    /// value's JSON (keeping the turn it names). A line that did not parse is left.
    /// The line is parsed within a budget of values ([`Original::fields`]):
    /// one holding more is stored again as what was read of it, whatever
    /// `change` says, its arrays not read left out as their note, so that
    /// nothing unread (and so unredacted) stays in it.
    pub fn rewrite(&mut self, change: impl FnOnce(&mut Value) -> bool) {
        let Some(json) = self.json.as_deref() else {
            return;
        };
        let Ok(super::bounded_value::Bounded { mut value, cut }) =
            super::bounded_value::from_slice(json.as_bytes())
        else {
            return;
        };
        if !change(&mut value) && cut == 0 {
            return;
        }
        let Ok(text) = serde_json::to_string(&value) else {
            return;
        };
        let error = self.error.take().map(String::from);
        let turn = self.turn_id().map(str::to_string);
        *self = Original::new(self.line, text.as_bytes(), true, turn.as_deref(), error);
    }

    /// The turn the line belongs to, if it names one.
    pub fn turn_id(&self) -> Option<&str> {
        match &self.turn {
            TurnOf::None => None,
            TurnOf::Within(start, end) => self.json.as_deref()?.get(*start as usize..*end as usize),
            TurnOf::Own(id) => Some(id),
        }
    }
}

/// Where a stored line holds one piece of a text streamed in pieces (an
/// eve delta): which text, and the string that is the piece. Redaction
/// joins a text's pieces, so a secret split across two lines is found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamPiece {
    /// The streamed text it belongs to (pieces of one text share it).
    pub key: String,
    /// The JSON pointer of the piece's string within the line.
    pub pointer: &'static str,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::bounded_value::NOT_READ;

    /// Redaction goes through `rewrite`: a line holding more values than a
    /// record's budget is stored again as what was read of it, so an array
    /// that was not read (a secret in it unredacted) does not stay.
    #[test]
    fn a_line_too_large_to_hold_is_stored_again_without_what_was_not_read() {
        let mut items = vec!["1"; 120_000];
        items[60_000] = "\"ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789\"";
        let line = format!(
            r#"{{"type":"user","turnId":"t1","items":[{}],"text":"kept"}}"#,
            items.join(",")
        );
        let mut original = Original::new(4, line.as_bytes(), true, Some("t1"), None);
        original.rewrite(|_| false);
        let json = original.json.as_deref().expect("still JSON");
        assert!(!json.contains("ghp_"), "nothing unread stays");
        let value: Value = serde_json::from_str(json).expect("JSON");
        assert_eq!(value["items"], NOT_READ);
        assert_eq!(value["text"], "kept");
        assert_eq!(original.turn_id(), Some("t1"));

        let short = r#"{"type":"user","items":[1,2,3]}"#;
        let mut original = Original::new(5, short.as_bytes(), true, None, None);
        original.rewrite(|_| false);
        assert_eq!(original.json.as_deref(), Some(short), "a line within budget is left as it is");
    }
}
