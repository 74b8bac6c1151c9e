//! Character classes of the highlighting grammars match exactly the code
//! points they name, checked over every Unicode scalar value.
//!
//! overhear carries a patched Oniguruma (`vendor/onig_sys`, docs/architecture.md,
//! "Patched dependencies") that builds a class's Unicode ranges (`\w`, `\d`,
//! `\s`, `\p{…}`, `[:alpha:]` inside brackets) in one go instead of range by
//! range, merging them into what the class holds. A wrong range there would colour a word of a code block differently
//! (a grammar's identifier rule stopping at an accented letter, say), so each
//! class is compared, code point by code point, with two oracles:
//!
//! * the same class in the `regex` crate, whose Unicode tables are its own
//!   (Unicode 16, as Oniguruma 6.9.10's): no Oniguruma code at all. Its `\w`
//!   also holds the two join controls U+200C and U+200D, which Oniguruma's
//!   does not, so they are taken out;
//! * the same class in Oniguruma with the range U+10FFFE–U+10FFFF put in
//!   first, so that its other ranges are never simply appended but merged in
//!   before that one (a range, not a single code point: Oniguruma holds a
//!   single one back until the next item of the class, and would add it after
//!   a following `\w`). The text searched stops short of U+10FFFE.
//!
//! The merge (patch 05) was also checked during development against
//! Oniguruma's original one-range-at-a-time insertion, buffer for buffer: the
//! two agreed on all 1,978 merges of rendering the real conversations and the
//! fixtures (docs/benchmarks.md, "Oniguruma, patched").
//!
//! (`\w` outside brackets, which Oniguruma matches by looking the code point up
//! rather than through a class, is no oracle: it also matches ², ³, ¹, ¼, ½
//! and ¾, which `[\w]` does not, in the published Oniguruma as in the patched
//! one.)

use syntect::parsing::{Regex, Region};

/// Oniguruma's `\w` in the `regex` crate's syntax: without the join controls.
const WORD: &str = r"[\w&&[^\x{200C}\x{200D}]]";

/// Any code point but Oniguruma's `\w`, in the `regex` crate's syntax.
const NOT_WORD: &str = r"[[^\w]\x{200C}\x{200D}]";

/// Every Unicode scalar value below U+10FFFE (the seeded oracle's marker).
fn every_code_point() -> Vec<char> {
    (0..0x10_FFFE).filter_map(char::from_u32).collect()
}

/// The byte offset of each code point of `text`, and the text's end.
fn offsets(text: &str) -> Vec<usize> {
    let mut offsets: Vec<usize> = text.char_indices().map(|(offset, _)| offset).collect();
    offsets.push(text.len());
    offsets
}

/// Marks the code points of the byte range `start..end` in `member`.
fn mark(member: &mut [bool], offsets: &[usize], start: usize, end: usize) {
    let first = offsets
        .binary_search(&start)
        .expect("runs start on a code point");
    let last = offsets
        .binary_search(&end)
        .expect("runs end on a code point");
    member[first..last].iter_mut().for_each(|is| *is = true);
}

/// Which code points of `text` Oniguruma's `class` matches on its own: the
/// runs of `class+`, found by searching from the end of the previous run.
fn oniguruma_members(class: &str, text: &str) -> Vec<bool> {
    let runs = Regex::new(format!("(?:{class})+"));
    let offsets = offsets(text);
    let mut member = vec![false; offsets.len() - 1];
    let mut region = Region::new();
    let mut from = 0;
    while from < text.len() && runs.search(text, from, text.len(), Some(&mut region)) {
        let (start, end) = region.pos(0).expect("a match has a whole-match group");
        assert!(end > start, "{class}: an empty run at byte {start}");
        mark(&mut member, &offsets, start, end);
        from = end;
    }
    member
}

/// Which code points of `text` the `regex` crate's `class` matches.
fn regex_crate_members(class: &str, text: &str) -> Vec<bool> {
    let runs = regex::Regex::new(&format!("(?:{class})+")).expect("a valid class");
    let offsets = offsets(text);
    let mut member = vec![false; offsets.len() - 1];
    for run in runs.find_iter(text) {
        mark(&mut member, &offsets, run.start(), run.end());
    }
    member
}

/// The class of `items` with U+10FFFE–U+10FFFF put in first: its ranges are
/// merged in before that one, not appended.
fn seeded(items: &str) -> String {
    format!(r"[\x{{10FFFE}}-\x{{10FFFF}}{items}]")
}

/// Asserts that `got` and `expected` agree on every code point, naming the
/// first that differs.
fn agree(chars: &[char], class: &str, got: &[bool], oracle: &str, expected: &[bool]) {
    if let Some(index) = (0..chars.len()).find(|&index| got[index] != expected[index]) {
        panic!(
            "{class} {} U+{:04X} but {oracle} {}",
            if got[index] {
                "matches"
            } else {
                "does not match"
            },
            u32::from(chars[index]),
            if expected[index] { "does" } else { "does not" },
        );
    }
}

/// Asserts that Oniguruma's `class` matches the same code points as the
/// `regex` crate's `in_regex_crate` and as Oniguruma's `seeded_oracle`, and
/// that it is neither empty nor everything.
fn same_members(class: &str, in_regex_crate: &str, seeded_oracle: &str) {
    let chars = every_code_point();
    let text: String = chars.iter().collect();
    let got = oniguruma_members(class, &text);
    let by_regex_crate = regex_crate_members(in_regex_crate, &text);
    agree(&chars, class, &got, in_regex_crate, &by_regex_crate);
    let by_seeded = oniguruma_members(seeded_oracle, &text);
    agree(&chars, class, &got, seeded_oracle, &by_seeded);
    let count = got.iter().filter(|is| **is).count();
    assert!(
        count > 0 && count < chars.len(),
        "{class} matches {count} of {} code points",
        chars.len()
    );
}

/// Any code point but those of `items`, in Oniguruma, built seeded.
fn seeded_none_of(items: &str) -> String {
    format!(r"(?!{})(?:.|\n)", seeded(items))
}

#[test]
fn word_with_a_hyphen() {
    same_members(
        r"[\w-]",
        &format!(r"[{WORD}\-]"),
        &format!("{}|-", seeded(r"\w")),
    );
}

#[test]
fn not_a_word_character() {
    same_members(r"[^\w]", NOT_WORD, &seeded_none_of(r"\w"));
}

#[test]
fn the_word_complement_inside_brackets() {
    same_members(r"[\W]", NOT_WORD, &seeded_none_of(r"\w"));
    same_members(
        r"[\W\d]",
        &format!(r"[{NOT_WORD}\d]"),
        &format!("{}|{}", seeded_none_of(r"\w"), seeded(r"\d")),
    );
}

#[test]
fn ascii_letters_and_word() {
    same_members(
        r"[a-z\w]",
        &format!("[a-z{WORD}]"),
        &format!("[a-z]|{}", seeded(r"\w")),
    );
}

#[test]
fn digits_then_word() {
    same_members(
        r"[\d\w]",
        &format!(r"[\d{WORD}]"),
        &format!("{}|{}", seeded(r"\d"), seeded(r"\w")),
    );
}

#[test]
fn space_then_word() {
    same_members(
        r"[\s\w]",
        &format!(r"[\s{WORD}]"),
        &format!("{}|{}", seeded(r"\s"), seeded(r"\w")),
    );
}

#[test]
fn letters_then_space() {
    same_members(
        r"[\p{L}\s]",
        r"[\p{L}\s]",
        &format!("{}|{}", seeded(r"\p{L}"), seeded(r"\s")),
    );
}

#[test]
fn interleaved_categories() {
    same_members(
        r"[\p{Lu}\p{Ll}\p{Nd}]",
        r"[\p{Lu}\p{Ll}\p{Nd}]",
        &format!(
            "{}|{}|{}",
            seeded(r"\p{Lu}"),
            seeded(r"\p{Ll}"),
            seeded(r"\p{Nd}")
        ),
    );
}

#[test]
fn not_a_letter() {
    same_members(r"[\P{L}]", r"\P{L}", &seeded_none_of(r"\p{L}"));
    same_members(r"\P{L}", r"\P{L}", &seeded_none_of(r"\p{L}"));
}

#[test]
fn alphabetic_but_not_ascii_lowercase() {
    same_members(
        r"[[:alpha:]&&[^a-z]]",
        r"[\p{Alphabetic}&&[^a-z]]",
        &format!("(?![a-z]){}", seeded("[:alpha:]")),
    );
}

#[test]
fn properties_outside_brackets() {
    same_members(r"\p{Greek}", r"\p{Greek}", &seeded(r"\p{Greek}"));
    same_members(r"\d", r"\d", &seeded(r"\d"));
    same_members(r"\s", r"\s", &seeded(r"\s"));
}
