//! Character classes of the highlighting grammars match exactly the code
//! points they name, checked over every Unicode scalar value.
//!
//! overhear carries a patched Oniguruma (`vendor/onig_sys`, docs/architecture.md,
//! "Patched dependencies") that builds a class's Unicode ranges (`\w`, `\d`,
//! `\s`, `\p{…}`, `[:alpha:]` inside brackets) in one go instead of range by
//! range. A wrong range there would colour a word of a code block differently
//! (a grammar's identifier rule stopping at an accented letter, say), so each
//! class is compared, code point by code point, against an oracle that builds
//! no range list the patched way: the same class with the range
//! U+10FFFE–U+10FFFF put in first, so that every later range is inserted
//! before it by Oniguruma's original search-and-insert path rather than
//! appended, and the text searched stops short of U+10FFFE. (The range, not a
//! single code point: Oniguruma holds a single one back until the next item of
//! the class, and so would add it after a following `\w`.) (`\w` outside brackets, which Oniguruma matches by
//! looking the code point up rather than through a class, is no oracle: it
//! also matches ², ³, ¹, ¼, ½ and ¾, which `[\w]` does not, in the published
//! Oniguruma as in the patched one.)

use syntect::parsing::{Regex, Region};

/// Every Unicode scalar value below U+10FFFE (the oracles' marker), in order.
fn every_code_point() -> Vec<char> {
    (0..0x10_FFFE).filter_map(char::from_u32).collect()
}

/// The class of `items` with U+10FFFE–U+10FFFF put in first: built by
/// inserting each later range before that one, not by appending.
fn seeded(items: &str) -> String {
    format!(r"[\x{{10FFFE}}-\x{{10FFFF}}{items}]")
}

/// Which code points of `chars` (joined as `text`) the pattern `class`
/// matches on its own: the runs of `class+`, found by searching from the end
/// of the previous run.
fn members(class: &str, chars: &[char], text: &str) -> Vec<bool> {
    let runs = Regex::new(format!("(?:{class})+"));
    let mut offsets: Vec<usize> = text.char_indices().map(|(offset, _)| offset).collect();
    offsets.push(text.len());
    let mut member = vec![false; chars.len()];
    let mut region = Region::new();
    let mut from = 0;
    while from < text.len() && runs.search(text, from, text.len(), Some(&mut region)) {
        let (start, end) = region.pos(0).expect("a match has a whole-match group");
        assert!(end > start, "{class}: an empty run at byte {start}");
        let first = offsets
            .binary_search(&start)
            .expect("runs start on a code point");
        let last = offsets
            .binary_search(&end)
            .expect("runs end on a code point");
        member[first..last].iter_mut().for_each(|is| *is = true);
        from = end;
    }
    member
}

/// Asserts that `class` and `oracle` match the same code points, naming the
/// first that differs, and that the class is neither empty nor everything.
fn same_members(class: &str, oracle: &str) {
    let chars = every_code_point();
    let text: String = chars.iter().collect();
    let got = members(class, &chars, &text);
    let expected = members(oracle, &chars, &text);
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
    let count = got.iter().filter(|is| **is).count();
    assert!(
        count > 0 && count < chars.len(),
        "{class} matches {count} of {} code points",
        chars.len()
    );
}

/// Any code point but those of `items`, built without the patched path.
fn none_of(items: &str) -> String {
    format!(r"(?!{})(?:.|\n)", seeded(items))
}

#[test]
fn word_with_a_hyphen() {
    same_members(r"[\w-]", &format!("{}|-", seeded(r"\w")));
}

#[test]
fn not_a_word_character() {
    same_members(r"[^\w]", &none_of(r"\w"));
}

#[test]
fn the_word_complement_inside_brackets() {
    same_members(r"[\W]", &none_of(r"\w"));
    same_members(r"[\W\d]", &format!("{}|{}", none_of(r"\w"), seeded(r"\d")));
}

#[test]
fn ascii_letters_and_word() {
    same_members(r"[a-z\w]", &format!("[a-z]|{}", seeded(r"\w")));
}

#[test]
fn digits_then_word() {
    same_members(r"[\d\w]", &format!("{}|{}", seeded(r"\d"), seeded(r"\w")));
}

#[test]
fn letters_then_space() {
    same_members(
        r"[\p{L}\s]",
        &format!("{}|{}", seeded(r"\p{L}"), seeded(r"\s")),
    );
}

#[test]
fn not_a_letter() {
    same_members(r"[\P{L}]", &none_of(r"\p{L}"));
    same_members(r"\P{L}", &none_of(r"\p{L}"));
}

#[test]
fn alphabetic_but_not_ascii_lowercase() {
    same_members(
        r"[[:alpha:]&&[^a-z]]",
        &format!("(?![a-z]){}", seeded("[:alpha:]")),
    );
}

#[test]
fn properties_outside_brackets() {
    same_members(r"\p{Greek}", &seeded(r"\p{Greek}"));
    same_members(r"\d", &seeded(r"\d"));
    same_members(r"\s", &seeded(r"\s"));
}
