//! The library builds without the program: the core takes plain enums, and
//! only the modules behind the `cli` feature name the terminal crates (clap,
//! crossterm, notify, signal-hook), so `default-features = false` builds none
//! of them. `.ci/run` checks the dependency tree itself; these tests say
//! which file broke the rule.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The files under `src/` that contain `needle`, outside the folders and
/// files (relative to `src/`) that may.
fn naming_outside(needle: &str, allowed: &[&str]) -> Vec<String> {
    let src = src();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 20, "found the sources");
    files
        .iter()
        .filter(|path| {
            let relative = path.strip_prefix(&src).expect("under src/");
            !allowed.iter().any(|allowed| relative.starts_with(allowed))
        })
        .filter(|path| {
            std::fs::read_to_string(path)
                .expect("a source file is UTF-8")
                .contains(needle)
        })
        .map(|path| path.display().to_string())
        .collect()
}

#[test]
fn clap_is_named_only_by_the_command_line() {
    let offenders = naming_outside("clap", &["cli", "main.rs"]);
    assert!(
        offenders.is_empty(),
        "clap named outside src/cli/ and src/main.rs: {offenders:?}"
    );
}

#[test]
fn terminal_crates_are_named_only_by_the_program() {
    // The viewer, the command line and the file watcher are built only with
    // the `cli` feature; nothing else may need a terminal crate.
    let program = ["cli", "tui", "main.rs", "source/watch.rs", "source/watch/"];
    for needle in [
        "crossterm",
        "notify::",
        "signal_hook",
        "anyhow",
        "source::watch",
    ] {
        let offenders = naming_outside(needle, &program);
        assert!(
            offenders.is_empty(),
            "{needle} named outside the program's modules: {offenders:?}"
        );
    }
}

#[test]
fn the_program_modules_are_built_only_with_the_cli_feature() {
    let gated = |file: &str, declaration: &str| {
        let text = std::fs::read_to_string(src().join(file)).expect("readable");
        let at = text
            .find(declaration)
            .unwrap_or_else(|| panic!("{file} declares `{declaration}`"));
        let before: Vec<&str> = text[..at].lines().rev().take(3).collect();
        assert!(
            before
                .iter()
                .any(|line| line.trim() == "#[cfg(feature = \"cli\")]"),
            "{file}: `{declaration}` is not behind #[cfg(feature = \"cli\")]"
        );
    };
    gated("lib.rs", "pub mod cli;");
    for module in ["    demo;", "    export;", "    tui;"] {
        gated("lib.rs", module);
    }
    gated("source/mod.rs", "mod watch;");
}
