//! The sanitizer on arbitrary text (display-policy §5).
//!
//! Whatever comes in, what comes out holds no control character but `\n` and
//! `\t`; with SGR kept, every escape left is a plain SGR without conceal. Clean
//! text passes unchanged, sanitizing twice changes nothing more, the
//! visualize mode differs from strip only by its marks, and echoed text (names,
//! values) shows no control and no bidi control.

#![no_main]

use libfuzzer_sys::fuzz_target;
use overhear::text::sanitize::{
    SanitizeMode, VISIBLE_ESCAPE, echo, echo_line, is_bidi_control, is_clean, sanitize,
    sanitize_keep_sgr,
};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for mode in [SanitizeMode::Strip, SanitizeMode::Visualize] {
        let clean = sanitize(&text, mode);
        assert_no_controls(&clean, false);
        assert_eq!(sanitize(&clean, mode), clean, "sanitizing twice changed the text");
        let kept = sanitize_keep_sgr(&text, mode);
        assert_no_controls(&kept, true);
        if mode == SanitizeMode::Strip {
            // Removing the kept SGR leaves exactly the fully sanitized text.
            assert_eq!(sanitize(&kept, mode), clean, "SGR kept more than SGR");
        }
    }
    if is_clean(&text) {
        assert_eq!(sanitize(&text, SanitizeMode::Strip), text, "clean text was changed");
    }
    // Echoed text (names, values) keeps no control but `\n` and `\t`, no bidi control;
    // on one line, not even those.
    let echoed = echo(&text);
    assert_no_controls(&echoed, false);
    assert!(!echoed.contains(is_bidi_control), "bidi control echoed: {echoed:?}");
    let line = echo_line(&text);
    assert!(
        !line.contains(|c: char| c.is_control() || is_bidi_control(c)),
        "control on an echoed line: {line:?}"
    );
    if !text.contains(VISIBLE_ESCAPE) && !text.contains("<U+") {
        // Visualizing only adds marks (`␛`, `<U+202E>`) where stripping removes.
        let visible = sanitize(&text, SanitizeMode::Visualize);
        let unmarked: String = without_code_marks(&visible)
            .chars()
            .filter(|c| *c != VISIBLE_ESCAPE)
            .collect();
        assert_eq!(unmarked, sanitize(&text, SanitizeMode::Strip), "modes disagree on text");
    }
});

/// Fails when `text` could do anything to a terminal but print.
fn assert_no_controls(text: &str, sgr_allowed: bool) {
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '\u{1b}' && sgr_allowed {
            let body = rest[1..].strip_prefix('[').unwrap_or_else(|| panic!("escape kept: {rest:?}"));
            let end = body
                .find(|c: char| !(c.is_ascii_digit() || c == ';' || c == ':'))
                .unwrap_or(body.len());
            assert!(body[end..].starts_with('m'), "CSI other than SGR kept: {rest:?}");
            assert!(!conceals(&body[..end]), "SGR 8 kept: {rest:?}");
            rest = &body[end + 1..];
            continue;
        }
        assert!(
            !c.is_control() || c == '\n' || c == '\t',
            "control {c:?} kept in {text:?}"
        );
        rest = &rest[c.len_utf8()..];
    }
}

/// A standalone `8` among SGR parameters (colour payloads of 38/48/58 excepted).
fn conceals(params: &str) -> bool {
    let groups: Vec<&str> = params.split(';').collect();
    let mut i = 0;
    while i < groups.len() {
        let first = groups[i].split(':').next().unwrap_or("");
        match (first, groups[i].contains(':')) {
            ("38" | "48" | "58", false) => {
                i += match groups.get(i + 1) {
                    Some(&"5") => 3,
                    Some(&"2") => 5,
                    _ => 1,
                };
                continue;
            }
            ("8", _) => return true,
            _ => {}
        }
        i += 1;
    }
    false
}

/// `text` without the `<U+XXXX>` marks of visualized format characters.
fn without_code_marks(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("<U+") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 3..];
        let hex = after.find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(after.len());
        if hex >= 4 && after[hex..].starts_with('>') {
            rest = &after[hex + 1..];
        } else {
            out.push_str("<U+");
            rest = after;
        }
    }
    out.push_str(rest);
    out
}
