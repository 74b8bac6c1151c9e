//! The forms a searched text takes in the bytes of a session file, so a file
//! that cannot hold a match is skipped without being decoded: the text as
//! written, JSON-escaped (`"` → `\"`, a newline → `\n`, non-ASCII as
//! `\uXXXX` as Python writes it), and inside base64 (JP stores tool results
//! and some metadata base64-encoded, standard or URL-safe alphabet, at any of
//! the three byte alignments).
//!
//! A file none of whose bytes contain any form holds no match once decoded;
//! the converse is not needed (a candidate is decoded and matched exactly).

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};

/// The byte forms of a literal, found together by one automaton.
pub(crate) struct Forms {
    automaton: AhoCorasick,
    /// Whether the base64 forms are among them.
    base64: bool,
    /// The longest form, in bytes: how much of a chunk's end is kept to find
    /// a form split across two reads.
    longest: usize,
}

impl Forms {
    /// The forms of `literal`; with `ignore_ascii_case` (only for a literal
    /// whose letters are all ASCII) the plain and escaped forms match in any
    /// case, and the base64 forms are left out: a JP file is then always
    /// decoded ([`Forms::covers_base64`]).
    pub(crate) fn new(literal: &str, ignore_ascii_case: bool) -> Option<Forms> {
        if literal.is_empty() {
            return None;
        }
        let mut forms: Vec<Vec<u8>> = vec![literal.as_bytes().to_vec()];
        forms.push(json_escaped(literal, false));
        forms.push(json_escaped(literal, true));
        let encoded = if ignore_ascii_case {
            Vec::new()
        } else {
            base64_forms(literal.as_bytes())
        };
        let base64 = !encoded.is_empty();
        forms.extend(encoded);
        forms.retain(|form| !form.is_empty());
        forms.sort();
        forms.dedup();
        let longest = forms.iter().map(Vec::len).max().unwrap_or(0);
        let automaton = AhoCorasickBuilder::new()
            .ascii_case_insensitive(ignore_ascii_case)
            .match_kind(MatchKind::LeftmostFirst)
            .build(&forms)
            .ok()?;
        Some(Forms {
            automaton,
            base64,
            longest,
        })
    }

    /// Whether `bytes` contain one of the forms.
    pub(crate) fn found_in(&self, bytes: &[u8]) -> bool {
        self.automaton.is_match(bytes)
    }

    /// Whether a base64-encoded match is found too; if not, a file that may
    /// hold base64 text (JP's) must be decoded to be searched.
    pub(crate) fn covers_base64(&self) -> bool {
        self.base64
    }

    /// How many bytes of a chunk's end to carry into the next read.
    pub(crate) fn overlap(&self) -> usize {
        self.longest.saturating_sub(1)
    }
}

/// `text` as a JSON string's body: `"`, `\` and control characters escaped
/// (`\n`, `\t`, `\u001b`, …); with `ascii_only`, every non-ASCII character
/// as `\uXXXX` (a surrogate pair past the BMP), lowercase hex as Python's
/// `json.dumps` writes it.
fn json_escaped(text: &str, ascii_only: bool) -> Vec<u8> {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c if ascii_only && !c.is_ascii() => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.into_bytes()
}

/// The base64 characters that `bytes` fix wherever they sit in an encoded
/// string: for each of the three alignments, the characters whose six bits
/// all come from `bytes`, in the standard and the URL-safe alphabet. Too
/// short a text (under three bytes) fixes too few characters to be told
/// apart from noise, and gives none: a JP file is then decoded.
fn base64_forms(bytes: &[u8]) -> Vec<Vec<u8>> {
    if bytes.len() < 3 {
        return Vec::new();
    }
    let mut forms = Vec::new();
    for align in 0..3usize {
        let mut padded = vec![0u8; align];
        padded.extend_from_slice(bytes);
        let encoded = base64_simd::STANDARD.encode_to_string(&padded);
        // Character i covers bits [6i, 6i + 6) of the padded bytes; keep the
        // ones inside the text's bits [8 align, 8 (align + len)).
        let first = (8 * align).div_ceil(6);
        let end = (8 * (align + bytes.len())) / 6;
        if end <= first {
            continue;
        }
        let fixed = encoded.as_bytes()[first..end].to_vec();
        let url_safe: Vec<u8> = fixed
            .iter()
            .map(|&b| match b {
                b'+' => b'-',
                b'/' => b'_',
                b => b,
            })
            .collect();
        forms.push(fixed);
        forms.push(url_safe);
    }
    forms
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b64(bytes: &[u8]) -> String {
        base64_simd::STANDARD.encode_to_string(bytes)
    }

    #[test]
    fn a_text_is_found_inside_base64_at_every_alignment() {
        let forms = Forms::new("needle in a haystack", false).unwrap();
        for prefix in ["", "a", "ab", "abc", "abcd"] {
            let stored = b64(format!("{prefix}the needle in a haystack is here").as_bytes());
            assert!(forms.found_in(stored.as_bytes()), "prefix {prefix:?}");
        }
        let other = b64(b"nothing to see in this one at all");
        assert!(!forms.found_in(other.as_bytes()));
    }

    #[test]
    fn the_url_safe_alphabet_is_found_too() {
        // Bytes whose encoding holds `+` and `/` in the standard alphabet.
        let text = "\u{fb}\u{ff}\u{fe}>>>???";
        let forms = Forms::new(text, false).unwrap();
        let standard = b64(format!("x{text}y").as_bytes());
        let url_safe = standard.replace('+', "-").replace('/', "_");
        assert!(standard.contains('+') || standard.contains('/'));
        assert!(forms.found_in(standard.as_bytes()));
        assert!(forms.found_in(url_safe.as_bytes()));
    }

    #[test]
    fn a_text_is_found_json_escaped() {
        let forms = Forms::new("say \"hi\"\n\tthen é", false).unwrap();
        assert!(forms.found_in(br#"{"text":"we say \"hi\"\n\tthen \u00e9 and go"}"#));
        assert!(forms.found_in("{\"text\":\"say \\\"hi\\\"\\n\\tthen é\"}".as_bytes()));
        assert!(!forms.found_in(br#"{"text":"say hi then e"}"#));
    }

    #[test]
    fn ignoring_case_finds_any_case_of_the_plain_and_escaped_forms() {
        let forms = Forms::new("login \"bug\"", true).unwrap();
        assert!(forms.found_in(br#"{"t":"The LOGIN \"Bug\" again"}"#));
        assert!(!forms.found_in(br#"{"t":"logout"}"#));
    }

    #[test]
    fn the_overlap_keeps_a_form_split_across_two_reads() {
        let forms = Forms::new("abcdef", false).unwrap();
        assert!(forms.overlap() >= "abcdef".len() - 1);
        assert!(Forms::new("", false).is_none());
    }
}
