//! JSON output that is safe to print on a terminal.
//!
//! `serde_json` escapes C0 controls inside strings but writes DEL, C1 controls
//! (U+0080–U+009F, which terminals may read as CSI, OSC, DCS…) and bidirectional
//! overrides as they are. Conversation text is untrusted, so `overhear events`
//! writes those as `\u` escapes too: the JSON means the same, and nothing in it
//! can act on the terminal. It is not a sanitizer: no character is dropped.

use std::io::{self, Write};

use serde::Serialize;
#[cfg(feature = "cli")]
use serde_json::ser::CompactFormatter;
use serde_json::ser::{Formatter, PrettyFormatter};

/// Writes `value` as pretty JSON (two-space indent), terminal-safe.
pub fn to_writer_pretty<W: Write, T: Serialize + ?Sized>(out: W, value: &T) -> io::Result<()> {
    write(out, value, TerminalSafe(PrettyFormatter::new()))
}

/// Writes `value` as compact JSON on one line, terminal-safe.
#[cfg(feature = "cli")]
pub fn to_writer<W: Write, T: Serialize + ?Sized>(out: W, value: &T) -> io::Result<()> {
    write(out, value, TerminalSafe(CompactFormatter))
}

fn write<W: Write, T: Serialize + ?Sized, F: Formatter>(
    out: W,
    value: &T,
    formatter: TerminalSafe<F>,
) -> io::Result<()> {
    let mut serializer = serde_json::Serializer::with_formatter(out, formatter);
    value.serialize(&mut serializer).map_err(io::Error::from)
}

/// Whether a character that JSON allows raw must be escaped for a terminal.
fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// A formatter that writes like `F`, escaping what [`needs_escape`] names.
struct TerminalSafe<F>(F);

impl<F: Formatter> Formatter for TerminalSafe<F> {
    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let mut start = 0;
        for (at, c) in fragment.char_indices() {
            if needs_escape(c) {
                writer.write_all(&fragment.as_bytes()[start..at])?;
                write!(writer, "\\u{:04x}", u32::from(c))?;
                start = at + c.len_utf8();
            }
        }
        writer.write_all(&fragment.as_bytes()[start..])
    }

    fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_array(writer)
    }

    fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_array(writer)
    }

    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_array_value(writer, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_array_value(writer)
    }

    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_object(writer)
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object(writer)
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_object_key(writer, first)
    }

    fn end_object_key<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object_key(writer)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_object_value(writer)
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object_value(writer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn pretty(value: &Value) -> String {
        let mut out = Vec::new();
        to_writer_pretty(&mut out, value).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn del_c1_and_bidi_overrides_are_escaped_and_the_json_means_the_same() {
        let value = json!({"k\u{9b}": ["a\u{7f}b\u{9d}0;x\u{9c}c\u{202e}d\u{1b}e"]});
        let text = pretty(&value);
        assert!(
            !text.chars().any(|c| needs_escape(c) && c != '\n'),
            "{text:?}"
        );
        assert!(
            text.contains("a\\u007fb\\u009d0;x\\u009cc\\u202ed\\u001be"),
            "{text}"
        );
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), value);
    }

    #[test]
    fn layout_is_serde_json_s_own() {
        let value = json!([{"a": 1, "b": [true, null, "é"]}, {}]);
        assert_eq!(
            pretty(&value),
            serde_json::to_string_pretty(&value).unwrap()
        );
        let mut compact = Vec::new();
        to_writer(&mut compact, &value).unwrap();
        assert_eq!(String::from_utf8(compact).unwrap(), value.to_string());
    }
}
