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
    let syntaxes: SyntaxSet = syntax_set(Holding::Everything);
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
    let ours = syntax_set(Holding::Everything);
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

#[test]
fn sets_holding_less_keep_every_grammar_and_its_metadata_where_held() {
    let whole = syntax_set(Holding::Everything);
    let metadata = syntax_set(Holding::Metadata);
    let reach = syntax_set(Holding::Reach(&[2, 7]));
    assert_eq!(metadata.syntaxes().len(), whole.syntaxes().len());
    assert_eq!(reach.syntaxes().len(), whole.syntaxes().len());
    for (index, grammar) in whole.syntaxes().iter().enumerate() {
        for (held, set) in [(true, &metadata), ([2, 7].contains(&index), &reach)] {
            let other = &set.syntaxes()[index];
            assert_eq!(other.hidden, grammar.hidden);
            assert!(other.variables.is_empty());
            if held {
                assert_eq!(other.name, grammar.name);
                assert_eq!(other.file_extensions, grammar.file_extensions);
                assert_eq!(other.scope, grammar.scope);
                assert_eq!(other.first_line_match, grammar.first_line_match);
            } else {
                assert_eq!(other.name, "");
                assert!(other.file_extensions.is_empty());
            }
        }
    }
    // Finding by token, name and extension answers as the whole set does.
    for token in [
        "rs", "Rust", "sh", "bash", "json", "diff", "py", "html", "no such",
    ] {
        assert_eq!(
            metadata.find_syntax_by_token(token).map(|s| &s.name),
            whole.find_syntax_by_token(token).map(|s| &s.name),
            "{token}"
        );
    }
}

/// The parts of a grammar in the dump, as written (`SyntaxReference`'s fields).
#[derive(serde::Deserialize)]
struct DumpedGrammar<'a> {
    name: String,
    _file_extensions: Vec<String>,
    _scope: String,
    _first_line_match: Option<String>,
    _hidden: bool,
    _variables: Vec<(String, String)>,
    serialized_lazy_contexts: &'a [u8],
}

/// A grammar's packed contexts, unpacked (syntect's `LazyContexts`).
#[derive(serde::Deserialize)]
struct Contexts {
    context_ids: std::collections::HashMap<String, ContextId>,
    contexts: Vec<Context>,
}

use syntect::parsing::syntax_definition::{Context, ContextId, MatchOperation, Pattern};

/// A context's grammar index and its index in that grammar (`ContextId`'s fields, private
/// to syntect but written by its `Serialize`).
fn indexes(id: ContextId) -> (usize, usize) {
    let fields = serde_json::to_value(id).unwrap();
    let field = |name: &str| usize::try_from(fields[name].as_u64().unwrap()).unwrap();
    (field("syntax_index"), field("context_index"))
}

/// Every context parsing can enter from `context`: the contexts it includes, pushes or
/// sets (with their `with_prototype`), and its prototype.
fn next_contexts(context: &Context) -> Vec<ContextId> {
    let mut next: Vec<ContextId> = context.prototype.into_iter().collect();
    for pattern in &context.patterns {
        let references = match pattern {
            Pattern::Include(reference) => vec![reference],
            Pattern::Match(pattern) => {
                let mut references: Vec<_> = pattern.with_prototype.iter().collect();
                if let MatchOperation::Push(pushed) | MatchOperation::Set(pushed) =
                    &pattern.operation
                {
                    references.extend(pushed);
                }
                references
            }
        };
        // A reference linking left unresolved is an error when parsing meets it.
        next.extend(
            references
                .into_iter()
                .filter_map(|reference| reference.id().ok()),
        );
    }
    next
}

/// For each grammar of the dump, the grammars whose contexts parsing can enter from the
/// grammar's start (`ParseState::new` starts at its `__start` context), ascending.
fn reaches() -> (Vec<String>, Vec<Vec<u16>>) {
    #[derive(serde::Deserialize)]
    struct Dumped<'a> {
        #[serde(borrow)]
        syntaxes: Vec<DumpedGrammar<'a>>,
    }
    let dumped: Dumped = from_slice(SYNTAXES).unwrap();
    let unpacked: Vec<Contexts> = dumped
        .syntaxes
        .iter()
        .map(|grammar| syntect::dumps::from_binary(grammar.serialized_lazy_contexts))
        .collect();
    let reaches = unpacked
        .iter()
        .map(|grammar| {
            let mut seen = std::collections::HashSet::new();
            let mut to_visit = vec![grammar.context_ids["__start"]];
            while let Some(id) = to_visit.pop() {
                if seen.insert(id) {
                    let (syntax, context) = indexes(id);
                    to_visit.extend(next_contexts(&unpacked[syntax].contexts[context]));
                }
            }
            let grammars: std::collections::BTreeSet<u16> = seen
                .into_iter()
                .map(|id| u16::try_from(indexes(id).0).unwrap())
                .collect();
            grammars.into_iter().collect()
        })
        .collect();
    let names = dumped.syntaxes.into_iter().map(|g| g.name).collect();
    (names, reaches)
}

/// `dumps/reach.rs` for these reaches.
fn reach_table(names: &[String], reaches: &[Vec<u16>]) -> String {
    let mut distinct: Vec<&Vec<u16>> = Vec::new();
    let mut reach_of = Vec::new();
    for reach in reaches {
        let at = distinct
            .iter()
            .position(|known| *known == reach)
            .unwrap_or_else(|| {
                distinct.push(reach);
                distinct.len() - 1
            });
        reach_of.push(at);
    }
    let mut out = String::from(
        "//! Which grammars of `syntaxes-onig-newlines.bin` highlighting each grammar can reach:\n\
         //! the grammars whose contexts parsing can enter from the grammar's start (its\n\
         //! includes, pushes, sets, `with_prototype`s and prototypes, followed through every\n\
         //! grammar). Written by `dump_tests.rs` (`the_reach_table_is_the_dumps`, run with\n\
         //! `OVERHEAR_WRITE_REACH=1` after copying new dumps), not by hand.\n\n\
         /// Each distinct reach: the indexes of its grammars in the dump, ascending.\n\
         pub(super) const REACHES: &[&[u16]] = &[\n",
    );
    for (at, reach) in distinct.iter().enumerate() {
        let members: Vec<&str> = reach
            .iter()
            .map(|&i| names[usize::from(i)].as_str())
            .collect();
        let indexes: Vec<String> = reach.iter().map(u16::to_string).collect();
        out += &format!(
            "    // {at}: {}\n    &[{}],\n",
            members.join(", "),
            indexes.join(", ")
        );
    }
    out += "];\n\n/// The reach of each grammar of the dump, in its order: an index into [`REACHES`].\n\
            pub(super) const REACH_OF: &[u16] = &[\n";
    for (index, at) in reach_of.iter().enumerate() {
        out += &format!("    {at}, // {index}: {}\n", names[index]);
    }
    out + "];\n"
}

#[test]
fn the_reach_table_is_the_dumps() {
    // Fails when the dumps change (a two-face upgrade): run this test with
    // OVERHEAR_WRITE_REACH=1 to write `dumps/reach.rs` again.
    let (names, reaches) = reaches();
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/render/highlight/dumps/reach.rs"
    );
    if std::env::var_os("OVERHEAR_WRITE_REACH").is_some() {
        std::fs::write(path, reach_table(&names, &reaches)).unwrap();
    }
    let table: Vec<&[u16]> = super::super::reach::REACH_OF
        .iter()
        .map(|&at| super::super::reach::REACHES[usize::from(at)])
        .collect();
    assert_eq!(table.len(), reaches.len());
    for (index, reach) in reaches.iter().enumerate() {
        assert_eq!(table[index], reach, "{}: {}", index, names[index]);
    }
}
