use super::*;

fn strip(s: &str) -> String {
    sanitize(s, SanitizeMode::Strip).into_owned()
}

fn vis(s: &str) -> String {
    sanitize(s, SanitizeMode::Visualize).into_owned()
}

fn keep(s: &str) -> String {
    sanitize_keep_sgr(s, SanitizeMode::Strip).into_owned()
}

#[test]
fn clean_text_is_borrowed() {
    let text = "plain\ttext\nwith ünïcödé 中文 and 🦀";
    assert!(matches!(
        sanitize(text, SanitizeMode::Strip),
        Cow::Borrowed(_)
    ));
    assert!(matches!(
        sanitize_keep_sgr(text, SanitizeMode::Visualize),
        Cow::Borrowed(_)
    ));
}

#[test]
fn csi_sequences_are_removed_with_their_parameters() {
    assert_eq!(strip("a\x1b[2Jb\x1b[10;20Hc\x1b[?1049hd\x1b[31me"), "abcde");
    assert_eq!(vis("a\x1b[2Jb\x1b[31mc"), "a␛b␛c");
}

#[test]
fn osc_sequences_are_removed_with_payload_for_both_terminators() {
    // OSC 0/2 title, OSC 8 hyperlink, OSC 52 clipboard; BEL and ST terminated.
    assert_eq!(strip("x\x1b]0;evil title\x07y"), "xy");
    assert_eq!(strip("x\x1b]2;title\x1b\\y"), "xy");
    assert_eq!(
        strip("\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\"),
        "click"
    );
    assert_eq!(strip("a\x1b]52;c;ZWNobyBwd25lZA==\x07b"), "ab");
    assert_eq!(vis("x\x1b]2;title\x1b\\y"), "x␛y");
    assert_eq!(vis("\x1b]8;;u\x1b\\t\x1b]8;;\x07"), "␛t␛");
}

#[test]
fn dcs_sos_pm_apc_strings_are_removed() {
    assert_eq!(strip("a\x1bP1$qm\x1b\\b"), "ab");
    assert_eq!(strip("a\x1bXsos payload\x1b\\b"), "ab");
    assert_eq!(strip("a\x1b^pm payload\x1b\\b"), "ab");
    assert_eq!(strip("a\x1b_Gf=100;AAAA\x1b\\b"), "ab");
    assert_eq!(vis("a\x1bPq#0;2;0;0;0\x1b\\b\x1b_apc\x1b\\c"), "a␛b␛c");
}

#[test]
fn lone_escape_and_two_byte_escapes_are_removed() {
    assert_eq!(strip("a\x1bcb\x1b7c\x1b8d"), "abcd");
    assert_eq!(strip("end\x1b"), "end");
    assert_eq!(vis("end\x1b"), "end␛");
    assert_eq!(vis("half \x1b[12"), "half ␛");
    assert_eq!(vis("open \x1b]0;never closed"), "open ␛");
}

#[test]
fn c0_del_and_c1_controls_are_removed() {
    assert_eq!(strip("a\x00b\x07c\x08d\x7fe\rf"), "abcdef");
    assert_eq!(vis("a\x07b\x7fc\rd"), "a␛b␛c␛d");
    assert_eq!(strip("a\u{85}b\u{9c}c"), "abc");
    // 8-bit CSI takes its parameters with it, 8-bit OSC its payload.
    assert_eq!(strip("a\u{9b}31mb"), "ab");
    assert_eq!(strip("a\u{9d}0;title\u{9c}b"), "ab");
    assert_eq!(vis("a\u{9b}2Jb"), "a␛b");
}

#[test]
fn newline_tab_and_crlf_line_endings_pass() {
    assert_eq!(strip("a\tb\r\nc\n"), "a\tb\nc\n");
    assert_eq!(vis("a\r\nb"), "a\nb");
    // A carriage return that is not a line ending is the overwrite spoof.
    assert_eq!(vis("safe\rEVIL\n"), "safe␛EVIL\n");
}

#[test]
fn sequences_split_by_controls_still_parse_as_one() {
    // A newline inside a CSI is executed, the CSI still swallows its parameters.
    assert_eq!(strip("a\x1b[3\n1mb"), "a\nb");
    // CAN cancels a sequence; nothing of it survives.
    assert_eq!(strip("a\x1b[31\x18b"), "ab");
    assert_eq!(vis("a\x1b[31\x18b"), "a␛␛b");
}

#[test]
fn one_mark_per_sequence_in_visualize_mode() {
    assert_eq!(vis("\x1b[1m\x1b[2J\x1b]0;t\x07"), "␛␛␛");
    assert_eq!(vis("\x1b]0;t\x1b\\\x1b[H"), "␛␛");
}

#[test]
fn keep_sgr_keeps_colours_and_drops_everything_else() {
    assert_eq!(keep("\x1b[1;31mred\x1b[0m\x1b[2J"), "\x1b[1;31mred\x1b[0m");
    assert_eq!(keep("\x1b[38;2;1;2;3mx\x1b[m"), "\x1b[38;2;1;2;3mx\x1b[0m");
    assert_eq!(keep("\x1b[38:5:8mx"), "\x1b[38:5:8mx");
    assert_eq!(keep("\x1b]8;;u\x07l"), "l");
}

#[test]
fn keep_sgr_drops_a_colour_without_its_payload_so_nothing_shifts_into_conceal() {
    // Found by the `sanitizer` fuzz target (2026-12-01).
    let kept = keep("\x1b[38;8;5;8;38;5;8;8mx");
    assert_eq!(kept, "\x1b[5;38;5;8mx");
    assert_eq!(keep("\x1b[1;38;5mx"), "\x1b[1mx");
}

#[test]
fn keep_sgr_drops_conceal_but_not_colour_eight() {
    assert_eq!(keep("\x1b[8msecret"), "secret");
    assert_eq!(keep("\x1b[1;8;4mx"), "\x1b[1;4mx");
    assert_eq!(keep("\x1b[38;5;8mgrey"), "\x1b[38;5;8mgrey");
    assert_eq!(keep("\x1b[48;2;8;8;8mbg"), "\x1b[48;2;8;8;8mbg");
    assert_eq!(keep("\x1b[38;5;8;8mx"), "\x1b[38;5;8mx");
    assert_eq!(
        sanitize_keep_sgr("\x1b[8mx", SanitizeMode::Visualize).into_owned(),
        "␛x"
    );
}

#[test]
fn bidi_controls_are_stripped_or_shown_by_code() {
    // Trojan Source: an override makes `txt.exe` read as `exe.txt`.
    assert_eq!(strip("a\u{202E}txt.exe\u{202C}b"), "atxt.exeb");
    assert_eq!(
        vis("a\u{202E}txt.exe\u{202C}b"),
        "a<U+202E>txt.exe<U+202C>b"
    );
    for c in [
        '\u{202A}', '\u{202D}', '\u{2066}', '\u{2069}', '\u{200E}', '\u{200F}', '\u{061C}',
    ] {
        assert_eq!(strip(&format!("x{c}y")), "xy", "{c:?}");
        assert!(!is_clean(&format!("x{c}y")), "{c:?}");
    }
    // Right-to-left text itself is text.
    assert_eq!(strip("שלום عربي"), "שלום عربي");
}

#[test]
fn line_separators_become_line_feeds() {
    assert_eq!(strip("a\u{2028}b\u{2029}c"), "a\nb\nc");
}

#[test]
fn tag_characters_are_dropped_except_in_a_flag() {
    let smuggled: String = "hi"
        .chars()
        .map(|c| char::from_u32(0xE0000 + u32::from(c)).unwrap())
        .collect();
    assert_eq!(strip(&format!("ok{smuggled}")), "ok");
    assert_eq!(vis(&format!("ok{smuggled}")), "ok<U+E0068><U+E0069>");
    let england = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}";
    assert_eq!(strip(england), england);
}

#[test]
fn zero_width_characters_stay_in_content_and_show_when_echoed() {
    let family = "\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}";
    assert_eq!(strip("a\u{200B}b"), "a\u{200B}b");
    assert_eq!(
        echo("a\u{200B}b\u{FEFF}c\u{00AD}"),
        "a<U+200B>b<U+FEFF>c<U+00AD>"
    );
    assert_eq!(echo("x\u{200D}y"), "x<U+200D>y");
    assert_eq!(echo(family), family);
    assert_eq!(
        echo("\u{2764}\u{FE0F}\u{200D}\u{1F525}"),
        "\u{2764}\u{FE0F}\u{200D}\u{1F525}"
    );
}

#[test]
fn echoed_names_show_every_sequence() {
    assert_eq!(echo("evil\x1b]0;PWNED\x07.json"), "evil␛]0;PWNED␇.json");
    assert_eq!(echo("a\u{9b}31mb\nc\r"), "a<U+009B>31mb\nc␍");
    assert_eq!(echo("\x1bP1$q\x1b\\ \x7f"), "␛P1$q␛\\ ␡");
    assert_eq!(echo_line("a\nb\tc"), "a␊b c");
    assert_eq!(
        echo_line("evil\x1b]0;PWNED\x07 t\u{202e}\u{200b}"),
        "evil␛ t<U+202E><U+200B>"
    );
    assert_eq!(echo("plain"), "plain");
}

#[test]
fn private_mode_csi_ending_in_m_is_not_sgr() {
    assert_eq!(keep("a\x1b[?1000mb\x1b[>4;2mc"), "abc");
}

#[test]
fn linear_on_long_hostile_input() {
    let unit = "word \x1b[31mred\x1b[0m \x1b]0;t\x07\r\u{9b}2J ";
    let text = unit.repeat(20_000);
    let out = strip(&text);
    assert_eq!(out, "word red  ".repeat(20_000));
}

use proptest::prelude::*;

/// Text rich in escape introducers, terminators and controls.
fn hostile() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            Just("\x1b".to_string()),
            Just("\x1b[".to_string()),
            Just("\x1b]".to_string()),
            Just("\x1bP".to_string()),
            Just("\x1b_".to_string()),
            Just("\x1b\\".to_string()),
            Just("\x07".to_string()),
            Just("\u{9b}".to_string()),
            Just("\u{9c}".to_string()),
            Just("\r".to_string()),
            Just("\x7f".to_string()),
            Just("\u{202E}".to_string()),
            Just("\u{2067}".to_string()),
            Just("\u{200D}".to_string()),
            Just("\u{200B}".to_string()),
            Just("\u{E0041}".to_string()),
            Just("\u{1F469}".to_string()),
            Just("\u{1F3F4}".to_string()),
            "[0-9;:?m]{1,6}",
            "[a-z \n\t中]{1,6}",
            any::<char>().prop_map(String::from),
        ],
        0..40,
    )
    .prop_map(|parts| parts.concat())
}

fn only_allowed_controls(text: &str) -> bool {
    text.chars()
        .all(|c| (!c.is_control() || c == '\n' || c == '\t') && !is_bidi_control(c))
}

proptest! {
    #[test]
    fn no_control_survives(text in hostile()) {
        prop_assert!(only_allowed_controls(&strip(&text)));
        prop_assert!(only_allowed_controls(&vis(&text)));
    }

    #[test]
    fn kept_sgr_is_the_only_escape_and_never_conceals(text in hostile()) {
        let out = keep(&text);
        for (i, _) in out.match_indices('\x1b') {
            let rest = &out[i + 1..];
            let end = rest.find('m').expect("SGR ends in m");
            let params = &rest[..end];
            prop_assert!(params.starts_with('['));
            prop_assert!(params[1..].chars().all(|c| c.is_ascii_digit() || c == ';' || c == ':'));
            prop_assert!(!params[1..].split(';').any(|p| p == "8"), "{params}");
        }
        let without_sgr: String = out.split('\x1b').enumerate().map(|(n, part)| {
            if n == 0 { part } else { &part[part.find('m').map_or(0, |e| e + 1)..] }
        }).collect();
        prop_assert!(only_allowed_controls(&without_sgr));
    }

    #[test]
    fn sanitizing_twice_changes_nothing(text in hostile()) {
        let stripped = strip(&text);
        prop_assert_eq!(strip(&stripped), stripped);
        let shown = vis(&text);
        prop_assert_eq!(vis(&shown), shown);
    }

    #[test]
    fn echoed_text_shows_no_control_and_no_invisible_character(text in hostile()) {
        let echoed = echo_line(&text);
        prop_assert!(echoed.chars().all(|c| !c.is_control() && !is_bidi_control(c)));
        // A tag character is only ever part of a flag (🏴 then tags).
        let chars: Vec<char> = echoed.chars().collect();
        let mut in_flag = false;
        for (i, &c) in chars.iter().enumerate() {
            in_flag = is_tag(c) && i > 0 && (chars[i - 1] == '\u{1F3F4}' || in_flag);
            prop_assert!(!is_tag(c) || in_flag, "{echoed:?}");
        }
        let joiner = '\u{200D}';
        prop_assert!(echoed.chars().all(|c| c == joiner || !is_invisible(c)), "{echoed:?}");
    }

    #[test]
    fn text_without_controls_is_untouched(text in "[^\\p{Cc}\u{202A}-\u{202E}\u{2066}-\u{2069}\u{200E}\u{200F}\u{061C}\u{2028}\u{2029}\u{E0000}-\u{E007F}]{0,80}") {
        prop_assert_eq!(strip(&text), text.clone());
        prop_assert_eq!(vis(&text), text);
    }
}

proptest! {
    /// `needs_work` skips printable ASCII eight bytes at a time: it answers as
    /// looking at every byte does, with the characters it acts on at any
    /// place of a word and split across two.
    #[test]
    fn the_quick_look_finds_what_a_look_at_every_byte_finds(
        text in prop::collection::vec(
            prop_oneof![
                6 => "[ -~]{1,12}",
                1 => hostile(),
                1 => "[\n\t\u{80}-\u{9f}\u{a0}\u{61c}\u{600}\u{2000}-\u{206f}\u{e0000}-\u{e0081}\u{f0000}]{1,3}",
            ],
            0..12,
        ).prop_map(|parts| parts.concat()),
    ) {
        let bytes = text.as_bytes();
        let anywhere = (0..bytes.len()).any(|i| acts_at(bytes, i));
        prop_assert_eq!(needs_work(&text), anywhere);
    }
}

#[cfg(feature = "cli")]
#[test]
fn sanitize_cow_keeps_a_clean_text_as_it_is_and_cleans_the_rest() {
    let owned = String::from("plain words\n\tand a tab");
    let at = owned.as_ptr();
    let kept = sanitize_cow(Cow::Owned(owned), SanitizeMode::Strip);
    assert!(matches!(&kept, Cow::Owned(text) if text.as_ptr() == at), "not copied");
    let borrowed = sanitize_cow(Cow::Borrowed("clean"), SanitizeMode::Strip);
    assert!(matches!(borrowed, Cow::Borrowed("clean")));
    let dirty = sanitize_cow(Cow::Owned("a\x1b[2Jb\u{202e}c".to_string()), SanitizeMode::Strip);
    assert_eq!(dirty, "abc");
}
