//! Counting the events in an `events.json` without parsing it.
//!
//! A conversation picker shows how long each conversation is; parsing every
//! file with a JSON library for that would cost a full parse per entry. This
//! byte scanner counts the elements of the top-level array instead: it tracks
//! string state (so brackets and commas inside strings do not count), escapes
//! inside strings and the nesting depth, and counts each value that begins at
//! depth 1. It does not validate the JSON; a file that does not start with `[`
//! or that ends inside the array gives `None`.

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, Read};
use std::path::Path;

use serde::Deserialize;
use serde::de::{self, Deserializer as _, SeqAccess, Visitor};

use super::conversation::BASE_CONFIG;

/// Streaming state of the element counter.
#[derive(Debug, Default)]
struct Scanner {
    /// Nesting depth: 1 inside the top-level array.
    depth: u32,
    in_string: bool,
    escaped: bool,
    /// At depth 1, the next non-blank byte starts an element.
    expecting: bool,
    /// Saw the opening `[`.
    started: bool,
    /// The top-level array closed.
    finished: bool,
    /// The input is not an array (or is broken).
    invalid: bool,
    count: usize,
}

impl Scanner {
    fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if self.finished || self.invalid {
                return;
            }
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b'"' {
                    self.in_string = false;
                }
                continue;
            }
            if b.is_ascii_whitespace() {
                continue;
            }
            if !self.started {
                // A UTF-8 byte order mark may precede the array.
                if matches!(b, 0xEF | 0xBB | 0xBF) {
                    continue;
                }
                if b != b'[' {
                    self.invalid = true;
                    return;
                }
                self.started = true;
                self.depth = 1;
                self.expecting = true;
                continue;
            }
            if self.depth == 1 && self.expecting && b != b']' {
                self.count += 1;
                self.expecting = false;
            }
            match b {
                b'"' => self.in_string = true,
                b'[' | b'{' => self.depth += 1,
                b']' | b'}' => {
                    self.depth -= 1;
                    if self.depth == 0 {
                        self.finished = true;
                    }
                }
                b',' if self.depth == 1 => self.expecting = true,
                _ => {}
            }
        }
    }

    fn result(&self) -> Option<usize> {
        (self.finished && !self.invalid).then_some(self.count)
    }
}

/// Counts the elements of the JSON array `reader` holds, reading it in chunks.
pub fn count_elements(mut reader: impl Read) -> io::Result<Option<usize>> {
    let mut scanner = Scanner::default();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        scanner.feed(&buf[..n]);
        if scanner.finished || scanner.invalid {
            break;
        }
    }
    Ok(scanner.result())
}

/// Counts the events in an `events.json` file; `None` if unreadable or not an
/// array. Like the reader, a leading `config_delta` with no `base_config.json`
/// beside the file is the legacy base config, not an event, so the picker and
/// the viewer's status bar give the same number.
pub fn count_events(path: &Path) -> Option<usize> {
    let file = File::open(path).ok()?;
    let count = count_elements(file).ok().flatten()?;
    let has_base_file = path
        .parent()
        .is_some_and(|dir| dir.join(BASE_CONFIG).is_file());
    if count > 0 && !has_base_file && first_is_config_delta(path) {
        Some(count - 1)
    } else {
        Some(count)
    }
}

/// Whether the array's first element is an object of type `config_delta`.
/// Reads that element only.
fn first_is_config_delta(path: &Path) -> bool {
    #[derive(Deserialize)]
    struct Typed {
        #[serde(rename = "type")]
        kind: Option<String>,
    }
    struct First(Option<String>);
    impl<'de> Visitor<'de> for &mut First {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an array")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            if let Ok(Some(Typed { kind })) = seq.next_element::<Typed>() {
                self.0 = kind;
            }
            // Stop here: the rest of the file is not read.
            Err(de::Error::custom("first element read"))
        }
    }
    let Ok(file) = File::open(path) else {
        return false;
    };
    let mut reader = io::BufReader::new(file);
    // A byte order mark may precede the array.
    if reader
        .fill_buf()
        .is_ok_and(|b| b.starts_with(b"\xEF\xBB\xBF"))
    {
        reader.consume(3);
    }
    let mut first = First(None);
    let _ = serde_json::Deserializer::from_reader(reader).deserialize_seq(&mut first);
    first.0.as_deref() == Some("config_delta")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(text: &str) -> Option<usize> {
        count_elements(text.as_bytes()).unwrap()
    }

    #[test]
    fn counts_top_level_elements_only() {
        assert_eq!(count("[]"), Some(0));
        assert_eq!(count("[\n]\n"), Some(0));
        assert_eq!(count(r#"[{"a":[1,2,3]},{"b":{"c":[]}}]"#), Some(2));
        assert_eq!(count("[1, 2, 3]"), Some(3));
    }

    #[test]
    fn ignores_brackets_commas_and_escaped_quotes_in_strings() {
        let text = r#"[{"content":"a, b ] [ { \" , \\"}, {"x":"\\\"]"}]"#;
        assert_eq!(count(text), Some(2));
    }

    #[test]
    fn not_an_array_or_unterminated_gives_none() {
        assert_eq!(count(r#"{"type":"x"}"#), None);
        assert_eq!(count(r#"[{"a":1},"#), None);
        assert_eq!(count(""), None);
    }

    #[test]
    fn agrees_with_a_json_parser_on_pretty_printed_events() {
        let events: Vec<serde_json::Value> = (0..40)
            .map(|i| serde_json::json!({"type": "chat_request", "content": format!("q{i}, [x]"), "n": [i, {"k": "}"}]}))
            .collect();
        let text = serde_json::to_string_pretty(&events).unwrap();
        // Hand the bytes over 7 at a time to exercise chunk boundaries.
        struct Trickle<'a>(&'a [u8]);
        impl Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = self.0.len().min(buf.len()).min(7);
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        assert_eq!(count_elements(Trickle(text.as_bytes())).unwrap(), Some(40));
    }

    #[test]
    fn a_legacy_base_config_is_not_counted_as_an_event() {
        let dir = tempfile::tempdir().unwrap();
        let events = dir.path().join("events.json");
        let legacy = r#"[{"type":"config_delta","timestamp":"2026-01-01 00:00:00.0","delta":{}},
            {"type":"turn_start","timestamp":"2026-01-01 00:00:00.0"},
            {"type":"chat_request","timestamp":"2026-01-01 00:00:00.0","content":"hi"}]"#;
        std::fs::write(&events, format!("\u{feff}{legacy}")).unwrap();
        assert_eq!(count_events(&events), Some(2));
        // With base_config.json beside it, a leading config_delta is an event.
        std::fs::write(dir.path().join(BASE_CONFIG), "{}").unwrap();
        assert_eq!(count_events(&events), Some(3));
    }

    /// Every `events.json` under `$OVERHEAR_CORPUS` (real JP data) counts the
    /// same as a JSON parser. Without the corpus this says so and passes.
    #[test]
    fn corpus_counts_agree_with_a_json_parser() {
        let Some(root) = std::env::var_os("OVERHEAR_CORPUS") else {
            eprintln!("OVERHEAR_CORPUS not set: skipping the real-data check");
            return;
        };
        let mut files = Vec::new();
        let mut folders = vec![std::path::PathBuf::from(root)];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    folders.push(path);
                } else if path.file_name().is_some_and(|n| n == "events.json") {
                    files.push(path);
                }
            }
        }
        assert!(!files.is_empty(), "no events.json in the corpus");
        for file in files {
            let bytes = std::fs::read(&file).unwrap();
            let parsed: Vec<serde_json::Value> = serde_json::from_slice(&bytes).unwrap();
            assert_eq!(
                count_elements(bytes.as_slice()).unwrap(),
                Some(parsed.len()),
                "{}",
                file.display()
            );
            // And the events as the reader sees them (a legacy base is none).
            let base = std::fs::read(file.with_file_name(BASE_CONFIG)).ok();
            let loaded = crate::format::jp::load(&bytes, base.as_deref()).unwrap();
            assert_eq!(
                count_events(&file),
                Some(loaded.events.len()),
                "{}",
                file.display()
            );
        }
    }
}
