use serde::Serialize;
use syntect::parsing::SyntaxSet;
use two_face::theme::{EmbeddedLazyThemeSet, LazyThemeSet};

use super::*;

/// `value` as syntect writes an uncompressed dump (bincode 1, as two-face's dumps are made).
fn written<T: Serialize>(value: &T) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dump.bin");
    syntect::dumps::dump_to_uncompressed_file(value, &path).unwrap();
    std::fs::read(path).unwrap()
}

#[test]
fn the_copied_dumps_are_the_ones_two_face_loads() {
    // Fails when two-face is upgraded with other grammars or themes: copy its
    // `generated/syntaxes-onig-newlines.bin` and `generated/themes.bin` here again.
    assert!(written(&two_face::syntax::extra_newlines()) == SYNTAXES);
    assert!(written(&LazyThemeSet::from(two_face::theme::extra())) == THEMES);
}

#[test]
fn the_sets_read_here_are_written_back_byte_for_byte() {
    // Every field of every grammar (names, extensions, scope, first-line match, variables,
    // the packed contexts), exactly as bincode reads them.
    let syntaxes: SyntaxSet = syntax_set();
    assert!(written(&syntaxes) == SYNTAXES);
}

#[test]
fn every_theme_read_here_is_two_faces() {
    let ours = theme_set();
    let theirs = two_face::theme::extra();
    assert_eq!(ours.themes.len(), EmbeddedLazyThemeSet::theme_names().len());
    for &name in EmbeddedLazyThemeSet::theme_names() {
        let theme = ours.get(name.as_name()).unwrap();
        assert!(written(theme) == written(theirs.get(name)), "{name:?}");
    }
    assert!(ours.get("no such theme").is_none());
}

#[test]
fn grammars_read_here_highlight_as_two_faces_do() {
    let ours = syntax_set();
    let theirs = two_face::syntax::extra_newlines();
    assert_eq!(ours.syntaxes().len(), theirs.syntaxes().len());
    let code = "fn main() {\n    let s = \"<b>\"; // x\n}\n";
    for token in ["rs", "html", "json", "sh", "diff", "csv"] {
        let parse = |set: &SyntaxSet| {
            let syntax = set.find_syntax_by_token(token).unwrap();
            let mut state = syntect::parsing::ParseState::new(syntax);
            code.lines()
                .map(|line| state.parse_line(line, set).unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(parse(&ours), parse(&theirs), "{token}");
    }
}

#[test]
fn a_broken_dump_is_an_error_not_a_panic() {
    let cut = from_slice::<SyntaxSet>(&SYNTAXES[..SYNTAXES.len() - 1]).unwrap_err();
    assert!(cut.to_string().contains("cut short"), "{cut}");
    let huge = from_slice::<Vec<String>>(&u64::MAX.to_le_bytes()).unwrap_err();
    assert!(huge.to_string().contains("a length of"), "{huge}");
    let bool_tag = from_slice::<bool>(&[2]).unwrap_err();
    assert!(bool_tag.to_string().contains("not a bool"), "{bool_tag}");
    let option_tag = from_slice::<Option<u8>>(&[7, 0]).unwrap_err();
    assert!(
        option_tag.to_string().contains("Option tag"),
        "{option_tag}"
    );
    let not_utf8 = from_slice::<String>(&[1, 0, 0, 0, 0, 0, 0, 0, 0xff]).unwrap_err();
    assert!(not_utf8.to_string().contains("utf-8"), "{not_utf8}");
    assert_eq!(
        from_slice::<(u16, Option<String>, bool)>(&[
            1, 2, 1, 2, 0, 0, 0, 0, 0, 0, 0, b'h', b'i', 1
        ])
        .unwrap(),
        (0x0201, Some("hi".to_owned()), true)
    );
}
