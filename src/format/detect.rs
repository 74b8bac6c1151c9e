//! Telling the formats apart from their first bytes, before anything is
//! parsed: a JP events file is a JSON array (`[`), an eve stream holds JSON
//! objects one per line (`{`). Anything else is not an input overhear reads,
//! and says so at once — a 3 GB file of NUL bytes is rejected from its first
//! byte, not after being read whole.

/// How far into the input [`detect`] looks for its first character: a file
/// that starts with more whitespace than this is not one a writer made.
pub const HEAD: usize = 64 * 1024;

/// What the first bytes of an input say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detected {
    /// Only whitespace so far (or nothing): more bytes must tell.
    Blank,
    /// A JSON array: a JP `events.json`.
    Jp,
    /// A JSON object: an eve NDJSON stream.
    Eve,
    /// Something else, at this place.
    Other {
        /// 1-based line of the first character that is not whitespace.
        line: usize,
        /// 1-based column (in bytes) of that character.
        column: usize,
        /// The character (U+FFFD when it is not UTF-8).
        found: char,
    },
}

/// The format of an input that starts with `head` (a UTF-8 byte order mark
/// and JSON whitespace are skipped). Looks at most [`HEAD`] bytes in: a
/// longer blank start is reported as [`Detected::Other`] at that place.
pub fn detect(head: &[u8]) -> Detected {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let within = &head[..head.len().min(HEAD)];
    let at = match within.iter().position(|b| !is_space(*b)) {
        Some(at) => at,
        None if head.len() > HEAD => HEAD,
        None => return Detected::Blank,
    };
    match head[at] {
        b'[' => Detected::Jp,
        b'{' => Detected::Eve,
        _ => {
            let before = &head[..at];
            let line_start = before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            let rest = &head[at..head.len().min(at + 4)];
            let found = String::from_utf8_lossy(rest)
                .chars()
                .next()
                .unwrap_or(char::REPLACEMENT_CHARACTER);
            Detected::Other {
                line: before.iter().filter(|&&b| b == b'\n').count() + 1,
                column: at - line_start + 1,
                found,
            }
        }
    }
}

/// JSON's four whitespace bytes (a form feed is not one).
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
}

#[cfg(test)]
mod tests {
    use crate::format::detect::*;

    #[test]
    fn the_first_character_tells_the_format() {
        assert_eq!(detect(b"\xEF\xBB\xBF \n [{}]"), Detected::Jp);
        assert_eq!(detect(b"\r\n{\"type\":\"x\"}\n"), Detected::Eve);
        assert_eq!(detect(b""), Detected::Blank);
        assert_eq!(detect(b" \n\t"), Detected::Blank);
    }

    #[test]
    fn anything_else_is_named_with_its_place() {
        assert_eq!(
            detect(b"\n  x"),
            Detected::Other {
                line: 2,
                column: 3,
                found: 'x'
            }
        );
        assert_eq!(
            detect(&[0u8; 16]),
            Detected::Other {
                line: 1,
                column: 1,
                found: '\0'
            }
        );
        assert_eq!(
            detect(b"\xff\xfe"),
            Detected::Other {
                line: 1,
                column: 1,
                found: char::REPLACEMENT_CHARACTER
            }
        );
    }

    #[test]
    fn a_start_blank_for_longer_than_the_head_is_not_an_input() {
        let mut bytes = vec![b' '; HEAD];
        assert_eq!(detect(&bytes), Detected::Blank);
        bytes.push(b' ');
        assert!(matches!(detect(&bytes), Detected::Other { .. }));
    }
}
