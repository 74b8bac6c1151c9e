//! The redactor on arbitrary text with a known secret planted in it.
//!
//! The first byte picks one of the planted secrets (synthetic, of every kind
//! the rules promise) and the next two (little-endian) where in the text it
//! goes, on a line of its own. Redaction must be idempotent (redacting the
//! redacted text changes nothing), and the planted secret must not survive
//! (unless the text around it already held it glued to other characters,
//! where no rule may see it: then only idempotence is checked). libFuzzer's
//! `-timeout=1` makes any input slower than a second a finding.

#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use overhear::redact::Redactor;

static REDACTOR: LazyLock<Redactor> =
    LazyLock::new(|| Redactor::builtin().expect("the built-in rules compile"));

/// Secrets as users' text holds them, each with the part that must go.
const PLANTED: &[(&str, &str)] = &[
    (
        "sk-ant-api03-ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdeAA.",
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij",
    ),
    ("[AKIAQWERTYUIOPASDFGH, x]", "AKIAQWERTYUIOPASDFGH"),
    (
        "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789",
        "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789",
    ),
    ("glpat-xYz0123456789AbCdEfG", "glpat-xYz0123456789AbCdEfG"),
    (
        "xoxb-1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
        "AbCdEfGhIjKlMnOpQrStUvWx",
    ),
    (
        "?key=AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW&q=1",
        "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW",
    ),
    ("-u sk_live_4eC39HqLyjWDarjtT1zdp7dc:", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"),
    (
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c.",
        "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    ),
    (
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw",
        "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw",
    ),
    (
        r#"{"SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzFAKEKEY0"}"#,
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzFAKEKEY0",
    ),
    ("PASSWORD=plantedPw4ssw0rd", "plantedPw4ssw0rd"),
    (r#"{"password": "plantedJsonPw"}"#, "plantedJsonPw"),
];

fuzz_target!(|data: &[u8]| {
    let [pick, a, b, rest @ ..] = data else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let once = REDACTOR.redact(&text).into_owned();
    assert_eq!(REDACTOR.redact(&once), once, "not idempotent on {text:?}");

    let (secret, part) = PLANTED[usize::from(*pick) % PLANTED.len()];
    let mut at = usize::from(u16::from_le_bytes([*a, *b])) % (text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let planted = format!("{}\n{secret}\n{}", &text[..at], &text[at..]);
    let out = REDACTOR.redact(&planted).into_owned();
    assert_eq!(REDACTOR.redact(&out), out, "not idempotent on {planted:?}");
    if !text.contains(part) {
        assert!(!out.contains(part), "{part} survived in {out:?}");
    }
});
