//! Lone surrogate escapes, made readable. JavaScript writes `"…\ud83d"`
//! when it cuts a string inside an emoji (half of a UTF-16 pair); serde_json
//! refuses such a string, and with it the line or the whole JP file that
//! holds it. Every reader of conversation JSON first repairs its bytes here:
//! a lone `\uD800`–`\uDFFF` escape becomes `\uFFFD` (the replacement
//! character), six bytes for six bytes, so every line, column and offset
//! stays where it was — the readers' places, prefix lengths and hashes
//! included. A reader warns once per file, naming where the first one was
//! ([`warning`]).

use std::borrow::Cow;

use crate::problem::SkippedLine;

/// The replacement character's escape, as long as the escape it replaces.
const REPLACEMENT: &[u8; 6] = b"\\ufffd";

/// The unit a `\uXXXX` escape starting at `at` (at its backslash) writes.
fn unit_at(bytes: &[u8], at: usize) -> Option<u16> {
    let hex = bytes.get(at + 2..at + 6)?;
    if bytes.get(at + 1) != Some(&b'u') {
        return None;
    }
    let text = std::str::from_utf8(hex).ok()?;
    u16::from_str_radix(text, 16).ok()
}

fn is_lead(unit: u16) -> bool {
    (0xD800..0xDC00).contains(&unit)
}

fn is_trail(unit: u16) -> bool {
    (0xDC00..0xE000).contains(&unit)
}

/// Where each lone surrogate escape of `bytes` starts (at its backslash),
/// first to last. `bytes` must start outside any escape (a line, an array
/// entry, a file). A lead escape at the very end, whose pair may still
/// arrive, is not lone.
fn lone(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    let mut from = 0;
    std::iter::from_fn(move || {
        while let Some(found) = memchr::memchr(b'\\', bytes.get(from..)?) {
            let at = from + found;
            let Some(unit) = unit_at(bytes, at) else {
                // Another escape (`\\`, `\"`, `\n`): its second byte is not
                // the start of one.
                from = at + 2;
                continue;
            };
            from = at + 6;
            if is_lead(unit) {
                if unit_at(bytes, at + 6).is_some_and(is_trail) {
                    from = at + 12;
                    continue;
                }
                let after = &bytes[at + 6..];
                if after.len() < 6 && after.iter().zip(b"\\u").all(|(a, b)| a == b) {
                    return None;
                }
                return Some(at);
            }
            if is_trail(unit) {
                return Some(at);
            }
        }
        None
    })
}

/// Where the first lone surrogate escape of `bytes` starts, if any. Bytes
/// without a `\ud` or `\uD` hold none: one fast search says so.
pub fn first_lone(bytes: &[u8]) -> Option<usize> {
    let maybe = memchr::memmem::find(bytes, b"\\ud").is_some()
        || memchr::memmem::find(bytes, b"\\uD").is_some();
    if !maybe {
        return None;
    }
    lone(bytes).next()
}

/// Replaces every lone surrogate escape of `bytes` by `\ufffd`, in place.
pub fn repair(bytes: &mut [u8]) {
    let Some(first) = first_lone(bytes) else {
        return;
    };
    let found: Vec<usize> = lone(&bytes[first..]).map(|at| first + at).collect();
    for at in found {
        bytes[at..at + 6].copy_from_slice(REPLACEMENT);
    }
}

/// `bytes` with every lone surrogate escape replaced by `\ufffd` (borrowed
/// when there is none), and where the first one was.
pub fn repaired(bytes: &[u8]) -> (Cow<'_, [u8]>, Option<usize>) {
    match first_lone(bytes) {
        None => (Cow::Borrowed(bytes), None),
        Some(at) => {
            let mut owned = bytes.to_vec();
            repair(&mut owned);
            (Cow::Owned(owned), Some(at))
        }
    }
}

/// Parses JSON text held inside a JSON string (a Codex call's arguments,
/// a tool's output), its lone surrogate escapes read as U+FFFD.
pub fn parse_inner<T: serde::de::DeserializeOwned>(text: &str) -> serde_json::Result<T> {
    serde_json::from_slice(&repaired(text.as_bytes()).0)
}

/// Repairs the lines of one line-delimited file (an eve stream, a Claude
/// Code transcript, a Codex rollout), warning of its first lone surrogate
/// escape only.
#[derive(Debug, Default)]
pub struct LineRepair {
    warned: bool,
}

impl LineRepair {
    /// Line `number`, `trimmed` of `lead` bytes of leading space, repaired;
    /// the warning to report, for the file's first lone surrogate escape.
    pub fn line<'a>(
        &mut self,
        number: usize,
        lead: usize,
        trimmed: &'a [u8],
    ) -> (Cow<'a, [u8]>, Option<SkippedLine>) {
        let (repaired, lone) = repaired(trimmed);
        let warning = lone
            .filter(|_| !std::mem::replace(&mut self.warned, true))
            .map(|at| SkippedLine {
                line: number,
                reason: format!("column {}: {}", at + 1 + lead, warning(trimmed, at)),
            });
        (repaired, warning)
    }
}

/// The warning for the lone surrogate escape at `at` of `bytes` (the same
/// in every format; the caller puts the place before it).
pub fn warning(bytes: &[u8], at: usize) -> String {
    warning_for(bytes.get(at..at + 6).unwrap_or_default())
}

/// The warning for the lone surrogate escape `escape` (`\ud83d`).
pub fn warning_for(escape: &[u8]) -> String {
    let escape = String::from_utf8_lossy(escape);
    format!(
        "a lone surrogate escape {escape} (a character cut in two), read as U+FFFD; \
         later ones are read the same way"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed(text: &str) -> String {
        String::from_utf8(repaired(text.as_bytes()).0.into_owned()).unwrap()
    }

    #[test]
    fn a_lone_lead_or_trail_becomes_the_replacement_character() {
        assert_eq!(fixed(r#"["a\ud83d"]"#), r#"["a\ufffd"]"#);
        assert_eq!(fixed(r#"["\ude00b"]"#), r#"["\ufffdb"]"#);
        assert_eq!(fixed(r#"["\ud83d\u0041"]"#), r#"["\ufffd\u0041"]"#);
        let value: serde_json::Value = serde_json::from_str(&fixed(r#"["a\uD83Dz"]"#)).unwrap();
        assert_eq!(value[0], "a\u{fffd}z");
    }

    #[test]
    fn pairs_and_escaped_backslashes_are_left_alone() {
        for text in [
            r#"["\ud83d\ude00"]"#,
            r#"["\\ud83d"]"#,
            r#"["\\\\ud83d"]"#,
            r#"["\u00e9\n\"\\"]"#,
        ] {
            assert_eq!(first_lone(text.as_bytes()), None, "{text}");
        }
        assert_eq!(first_lone(br#"["\\\ud83d"]"#), Some(4));
    }

    #[test]
    fn a_lead_at_the_end_may_still_be_completed() {
        assert_eq!(first_lone(br#"["\ud83d"#), None);
        assert_eq!(first_lone(br#"["\ud83d\u"#), None);
        assert_eq!(first_lone(br#"["\ud83dxx"#), Some(2));
    }
}
