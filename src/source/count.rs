//! Counting the events in an `events.json` without parsing it.
//!
//! A conversation picker shows how long each conversation is; parsing every
//! file with a JSON library for that would cost a full parse per entry. This
//! byte scanner counts the elements of the top-level array instead: it tracks
//! string state (so brackets and commas inside strings do not count), escapes
//! inside strings and the nesting depth, and counts each value that begins at
//! depth 1. It does not validate the JSON; a file that does not start with `[`
//! or that ends inside the array gives `None`.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

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

/// Counts the events in an `events.json` file; `None` if unreadable or not an array.
pub fn count_events(path: &Path) -> Option<usize> {
    let file = File::open(path).ok()?;
    count_elements(file).ok().flatten()
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
            let parsed: Vec<serde_json::Value> =
                serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
            assert_eq!(
                count_events(&file),
                Some(parsed.len()),
                "{}",
                file.display()
            );
        }
    }
}
