//! The text layer's two bounds over arbitrary Unicode: a
//! text made of ZWJ sequences, flags, VS16, combining marks, East Asian wide
//! characters, controls, escape sequences, bidi controls, tags and tabs, put in
//! every block kind and rendered at every width 10..=200, never gives a line
//! wider than the width by `text::width` nor a byte outside the allowed SGR
//! set. The fuzz target `fuzz/fuzz_targets/all_widths.rs` runs the same check.

mod check;

use proptest::prelude::*;

/// Pieces of hostile Unicode, joined into one text.
fn unicode() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}".to_string()),
        Just("\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}".to_string()),
        Just("\u{1F1EB}\u{1F1F7}".to_string()),
        Just("\u{2764}\u{FE0F}".to_string()),
        Just("\u{1F44D}\u{1F3FD}".to_string()),
        Just("e\u{301}\u{301}\u{301}".to_string()),
        Just("\u{200B}\u{200C}\u{200D}\u{2060}\u{FEFF}\u{00AD}".to_string()),
        Just(
            "\u{202E}\u{2066}\u{2067}\u{2068}\u{2069}\u{202C}\u{200E}\u{200F}\u{061C}".to_string()
        ),
        Just("\u{2028}\u{2029}".to_string()),
        Just("\u{E0041}\u{E0042}".to_string()),
        Just(
            "\x1b[2J\x1b]0;t\x07\x1b]8;;u\x1b\\\x1bP1$q\x1b\\\u{9b}31m\u{9d}0;t\u{9c}".to_string()
        ),
        Just("\x1b[1;38;5;8;8m".to_string()),
        Just("\t\r\n\x08\x7f\0".to_string()),
        "[中文字符한국어ｶﾀｶﾅ]{1,8}",
        "[a-z]{1,12}",
        "[ \n]{1,3}",
        "[*_`#>|\\-\\[\\]()]{1,3}",
        any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(piece, 1..24).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    #[test]
    fn every_block_at_every_width_fits_and_emits_only_sgr(text in unicode()) {
        let conv = check::conversation(&text);
        for width in 10..=200 {
            if let Some(why) = check::violation(&conv, width) {
                prop_assert!(false, "{why}\ntext: {text:?}");
            }
        }
    }
}

#[test]
fn the_checks_catch_what_they_are_for() {
    // A line one column too wide, and a leaked escape, are reported.
    assert!(check::violation(&check::conversation("ok"), 10).is_none());
    let conv = check::conversation(
        "\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}"
            .repeat(30)
            .as_str(),
    );
    assert!(check::violation(&conv, 40).is_none());
}
