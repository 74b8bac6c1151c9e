//! The sanitizer on arbitrary text (display-policy §5).
//!
//! Whatever comes in, what comes out holds no control character but `\n` and
//! `\t`; with SGR kept, every escape left is a plain SGR without conceal. Clean
//! text passes unchanged, sanitizing twice changes nothing more, and the
//! visualize mode differs from strip only by its marks.

#![no_main]

use libfuzzer_sys::fuzz_target;
use overhear::text::sanitize::{SanitizeMode, VISIBLE_ESCAPE, sanitize, sanitize_keep_sgr};

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
    if !text.chars().any(|c| c.is_control() && c != '\n' && c != '\t') {
        assert_eq!(sanitize(&text, SanitizeMode::Strip), text, "clean text was changed");
    }
    if !text.contains(VISIBLE_ESCAPE) {
        // Visualizing only adds marks where stripping removes.
        let visible = sanitize(&text, SanitizeMode::Visualize);
        let unmarked: String = visible.chars().filter(|c| *c != VISIBLE_ESCAPE).collect();
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
