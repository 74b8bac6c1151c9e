//! The layering of docs/architecture.md, checked against the code: every
//! `crate::…` and `super::…` path in every file of `src/` names a module its
//! own layer may use. Data flows one way; a later stage never reaches back.
//!
//! The table below is the one in docs/architecture.md ("What each folder may
//! import"): change both together.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Each layer, by module path, and the layers it may import besides itself.
/// A file belongs to the longest layer that is a prefix of its module path;
/// an imported path to the longest layer that is a prefix of it.
const LAYERS: &[(&str, &[&str])] = &[
    // The vocabulary at the bottom: imports nothing.
    ("model", &[]),
    // Errors and warnings several layers share: imports nothing.
    ("problem", &[]),
    // Opening files for reading (the registry of what a run read) and the
    // one way a file is written: every layer that opens a file uses it.
    ("files", &["problem"]),
    // Sanitizing, measuring, wrapping: every byte bound for a terminal.
    ("text", &["model", "problem"]),
    // What a turn or a session cost: the price table and the sums.
    ("usage", &["model", "problem"]),
    // Telling a format from an input's first bytes: a pure function of
    // those bytes, which `source` asks to know what a path holds.
    ("format::detect", &["model", "problem"]),
    // Opening paths, reading bytes, watching for change.
    (
        "source",
        &["model", "problem", "files", "text", "format::detect"],
    ),
    // One seam, one submodule per input format: bytes in, model events out.
    ("format", &["model", "problem", "text"]),
    // Tool styles and the decisions per block.
    ("policy", &["model", "problem", "files"]),
    // Secrets masked in a conversation before it is shown.
    ("redact", &["model", "problem", "text"]),
    // Reading a conversation whole: source + format + redaction.
    (
        "load",
        &[
            "model", "problem", "files", "text", "source", "format", "policy", "redact",
        ],
    ),
    // A conversation as it was after N steps or at a moment (time travel).
    (
        "travel",
        &[
            "model", "problem", "files", "text", "source", "format", "policy", "redact", "load",
        ],
    ),
    // Finding a text in every session: which sessions, a prefilter over
    // their bytes, their readers for the ones that may match.
    (
        "search",
        &[
            "model", "problem", "files", "text", "source", "format", "load", "usage",
        ],
    ),
    // The document stage: the blocks to show, each with its decision. It
    // reads the few helpers that say how a text would be cut, never layout.
    (
        "render::document",
        &[
            "model",
            "problem",
            "text",
            "policy",
            "render::split",
            "render::result",
            "render::duration",
        ],
    ),
    // Layout and output: styled lines at a width, from the document.
    (
        "render",
        &["model", "problem", "files", "text", "policy", "usage"],
    ),
    // On top: the bundled demo, the library's API for tool authors, export,
    // the viewer and the command line.
    (
        "demo",
        &["model", "problem", "text", "source", "format", "load"],
    ),
    (
        "api",
        &[
            "model", "problem", "files", "text", "source", "format", "policy", "render", "redact",
            "load", "travel",
        ],
    ),
    (
        "export",
        &[
            "model", "problem", "files", "text", "policy", "render", "redact", "load", "usage",
        ],
    ),
    (
        "tui",
        &[
            "model", "problem", "files", "text", "source", "format", "policy", "render", "redact",
            "load", "travel", "export", "search", "usage",
        ],
    ),
    (
        "cli",
        &[
            "model", "problem", "files", "text", "source", "format", "policy", "render", "redact",
            "load", "travel", "export", "tui", "demo", "api", "search", "usage",
        ],
    ),
];

/// What a unit-test file (`*_tests.rs`, `tests.rs`, `test_support.rs`) may
/// import besides its layer's own: the real readers, to build the
/// conversations it tests from stored bytes.
const TESTS_MAY_ALSO_IMPORT: &[&str] = &["source", "format", "load"];

/// The crate root (`lib.rs`, `main.rs`) only declares the layers.
const ROOT_MAY_IMPORT_ALL: &str = "";

#[test]
fn no_file_in_src_imports_a_layer_above_its_own() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 50, "src/ has {} Rust files", files.len());
    let mut crossings = BTreeSet::new();
    for file in &files {
        let relative = file.strip_prefix(&src).unwrap();
        let module = module_path(relative);
        let own = layer_of(&module).unwrap_or_else(|| {
            panic!(
                "src/{}: module {} is in no layer of the table: add it here and to \
                 docs/architecture.md",
                relative.display(),
                module.join("::")
            )
        });
        let allowed = allowed_for(own);
        let text = std::fs::read_to_string(file).unwrap();
        for target in imported_paths(&code_only(&text), &module) {
            if target.is_empty() {
                continue;
            }
            let Some(theirs) = layer_of(&target) else {
                // A dependency's path (`crate` only names ours) or a module
                // the table does not know: the latter is caught as a file.
                continue;
            };
            let target_path = target.join("::");
            let is_test = module.iter().any(|m| m == "tests" || m == "test_support");
            if may_import(own, allowed, &target_path, theirs)
                || is_test && may_import(own, TESTS_MAY_ALSO_IMPORT, &target_path, theirs)
            {
                continue;
            }
            crossings.insert(format!(
                "src/{} ({own}) imports {} ({theirs})",
                relative.display(),
                target.join("::")
            ));
        }
    }
    assert!(
        crossings.is_empty(),
        "imports against the layering of docs/architecture.md:\n{}",
        crossings.into_iter().collect::<Vec<_>>().join("\n")
    );
}

/// Nothing outside `format/` names a format: the rest of the crate sees the
/// seam (`format::{StreamFormat, StreamReader, DocumentFormat, …}`, the
/// items `format/mod.rs` exports), `format::detect` and
/// `format::session_head` (what an input's first bytes say, for locating and
/// discovery), never a format's
/// module (`format::jp`, `format::eve`, …). Unit tests may build their
/// conversations with a format's own reader.
#[test]
fn nothing_outside_format_names_a_format() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut named = BTreeSet::new();
    for file in &files {
        let relative = file.strip_prefix(&src).unwrap();
        let module = module_path(relative);
        let is_test = module.iter().any(|m| m == "tests" || m == "test_support");
        if module.first().is_some_and(|m| m == "format") || is_test {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        for target in imported_paths(&code_only(&text), &module) {
            let [first, second, ..] = target.as_slice() else {
                continue;
            };
            // A format's module is what has a file under `src/format/`;
            // a function or type the seam exports (`format::PrefixHasher`,
            // a test's `format::sample_bytes`) is not, whatever its case.
            let format_dir = src.join("format");
            let is_module = format_dir.join(format!("{second}.rs")).is_file()
                || format_dir.join(second).is_dir();
            if first == "format"
                && is_module
                && !["detect", "session_head"].contains(&second.as_str())
            {
                named.insert(format!(
                    "src/{} names {}",
                    relative.display(),
                    target.join("::")
                ));
            }
        }
    }
    assert!(
        named.is_empty(),
        "formats named outside format/ (use the seam of format/mod.rs):\n{}",
        named.into_iter().collect::<Vec<_>>().join("\n")
    );
}

/// `format/` hands over facts and never decides how they look: no escape
/// sequence (a colour, a bold line), no terminal crate, no style of the
/// render stage's theme. A reader says a diff line is added; the theme says
/// green (docs/architecture.md, "What each folder owns").
#[test]
fn format_names_no_colour_or_style() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src.join("format"), &mut files);
    assert!(!files.is_empty(), "src/format/ has Rust files");
    let mut found = BTreeSet::new();
    for file in &files {
        let relative = file.strip_prefix(&src).unwrap();
        let module = module_path(relative);
        if module
            .iter()
            .any(|m| m == "tests" || m == "test_support" || m.ends_with("_tests"))
        {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        // Unit tests at the end of a file feed readers hostile bytes.
        let code = code_only(text.split("#[cfg(test)]").next().unwrap_or(""));
        for styling in [
            "\\u{1b}[",
            "\\x1b[",
            "\\033[",
            "ratatui",
            "crossterm",
            "Style::",
            "Color::",
            "Modifier::",
            "theme",
        ] {
            if code.contains(styling) {
                found.insert(format!("src/{} names {styling}", relative.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "presentation in format/ (hand the render stage facts, model::call_view):\n{}",
        found.into_iter().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn the_table_matches_the_documented_one() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md"))
            .unwrap();
    for (layer, allowed) in LAYERS {
        let row = format!("| `{layer}` |");
        let line = doc
            .lines()
            .find(|l| l.starts_with(&row))
            .unwrap_or_else(|| panic!("docs/architecture.md has no row for `{layer}`"));
        let documented: BTreeSet<&str> = line[row.len()..].split('`').skip(1).step_by(2).collect();
        let tested: BTreeSet<&str> = allowed.iter().copied().collect();
        assert_eq!(documented, tested, "the row of `{layer}`: {line}");
    }
}

#[test]
fn imports_are_read_through_groups_and_relative_paths() {
    let module = ["render", "document", "build"].map(String::from);
    let code = "use super::read::{a, b};\nuse crate::{model::Turn, policy::{X, Y}};\n\
                fn f() { crate::text::width::display_width(\"\"); super::super::layout::f(); }";
    let paths: Vec<String> = imported_paths(code, &module)
        .into_iter()
        .map(|p| p.join("::"))
        .collect();
    for expected in [
        "render::document::read",
        "model::Turn",
        "policy",
        "text::width::display_width",
        "render::layout::f",
    ] {
        assert!(
            paths.iter().any(|p| p.starts_with(expected)),
            "{expected} not in {paths:?}"
        );
    }
    assert_eq!(layer_of(&module), Some("render::document"));
    assert_eq!(
        layer_of(&["render", "layout", "stream_blocks"].map(String::from)),
        Some("render")
    );
    // Layout reads the document; the document stage never reads layout.
    let render = allowed_for("render");
    assert!(may_import(
        "render",
        render,
        "render::document::Document",
        "render::document"
    ));
    let document = allowed_for("render::document");
    assert!(!may_import(
        "render::document",
        document,
        "render::layout",
        "render"
    ));
    assert!(may_import(
        "render::document",
        document,
        "render::split::X",
        "render"
    ));
    assert!(!may_import(
        "model",
        allowed_for("model"),
        "format::Event",
        "format"
    ));
}

/// Every file is opened and written through `files`: a file opened anywhere
/// else would be missing from the registry of files read, and an export
/// could then write over it; a file written anywhere
/// else would not be replaced atomically.
#[test]
fn files_are_opened_and_written_only_through_files() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut found = BTreeSet::new();
    for file in &files {
        let relative = file.strip_prefix(&src).unwrap();
        let module = module_path(relative);
        let is_test = module
            .iter()
            .any(|m| m == "tests" || m == "test_support" || m.ends_with("_tests"));
        if is_test || module.first().is_some_and(|m| m == "files") {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        // Unit tests at the end of a file build their inputs as they like.
        let code = code_only(text.split("#[cfg(test)]").next().unwrap_or(""));
        for call in [
            "File::open(",
            "File::create(",
            "fs::read(",
            "fs::read_to_string(",
            "fs::write(",
            "OpenOptions::new(",
            // SQLite opens its files by path: only `files::sqlite` may ask
            // it to, after recording the database as read.
            "Connection::open",
        ] {
            if code.contains(call) {
                found.insert(format!("src/{} calls {call}", relative.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "files opened or written outside src/files/ (use files::open, files::read, \
         files::read_setting or files::write::write_file):\n{}",
        found.into_iter().collect::<Vec<_>>().join("\n")
    );
}

/// Whether layer `own`, allowed `allowed`, may import `target` (in layer
/// `theirs`): its own layer or a sublayer of it (`render` may import
/// `render::document`; `render::document` may not import `render`), or
/// anything within what it is allowed.
fn may_import(own: &str, allowed: &[&str], target: &str, theirs: &str) -> bool {
    own == ROOT_MAY_IMPORT_ALL
        || within(theirs, own)
        || allowed
            .iter()
            .any(|a| within(target, a) || within(theirs, a))
}

/// Whether module path `inner` is `outer` or inside it.
fn within(inner: &str, outer: &str) -> bool {
    inner == outer || inner.starts_with(&format!("{outer}::"))
}

/// The layers `layer` may import.
fn allowed_for(layer: &str) -> &'static [&'static str] {
    LAYERS
        .iter()
        .find(|(name, _)| *name == layer)
        .map_or(&[], |(_, allowed)| *allowed)
}

/// The longest layer of the table that `path` is in.
fn layer_of(path: &[String]) -> Option<&'static str> {
    if path.is_empty() {
        return Some(ROOT_MAY_IMPORT_ALL);
    }
    LAYERS
        .iter()
        .map(|(name, _)| *name)
        .filter(|name| {
            let parts: Vec<&str> = name.split("::").collect();
            parts.len() <= path.len() && parts.iter().zip(path).all(|(a, b)| a == b)
        })
        .max_by_key(|name| name.len())
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a file is: `render/document/build.rs` → `render::document::build`,
/// `render/mod.rs` → `render`, a test file `layout/tests.rs` →
/// `render::layout::tests` (and `live/highlight_tests.rs` →
/// `tui::live::highlight::tests`), `lib.rs` and `main.rs` → the crate root.
fn module_path(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    match stem {
        "mod" => {}
        "lib" | "main" if parts.is_empty() => {}
        _ => match stem.strip_suffix("_tests") {
            Some(tested) => {
                parts.push(tested.to_owned());
                parts.push("tests".to_owned());
            }
            None => parts.push(stem.to_owned()),
        },
    }
    parts
}

/// The text with comments removed (doc links are not imports).
fn code_only(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) if !line[..at].contains('"') => &line[..at],
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every module path that `code`, in `module`, names through `crate::` or
/// `super::`, as absolute paths; `use` groups are opened one level deep
/// (`crate::{a::X, b}` names `a::X` and `b`).
fn imported_paths(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while at < code.len() {
        let rest = &code[at..];
        let starts_word = at == 0 || !is_ident(bytes[at - 1]) && bytes[at - 1] != b':';
        let base: Option<(Vec<String>, usize)> = if !starts_word {
            None
        } else if rest.starts_with("crate::") {
            Some((Vec::new(), "crate::".len()))
        } else if rest.starts_with("super::") {
            let mut base = module.to_vec();
            let mut len = 0;
            while code[at + len..].starts_with("super::") {
                base.pop();
                len += "super::".len();
            }
            Some((base, len))
        } else {
            None
        };
        let Some((base, len)) = base else {
            at += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        };
        let after = &code[at + len..];
        if let Some(group) = after.strip_prefix('{') {
            for item in top_level_items(group) {
                let mut path = base.clone();
                path.extend(segments(item));
                out.push(path);
            }
        } else {
            let mut path = base;
            path.extend(segments(after));
            out.push(path);
        }
        at += len;
    }
    out
}

/// The comma-separated items of a `{…}` group up to its closing brace.
fn top_level_items(group: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&group[start..i]);
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items
}

/// The leading `a::b::c` of `text`, as segments (a group or `*` ends it).
fn segments(text: &str) -> Vec<String> {
    let text = text.trim_start();
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(text.len());
    text[..end]
        .split("::")
        .filter(|s| !s.is_empty() && *s != "self")
        .map(str::to_owned)
        .collect()
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}
