//! The HTML export lays a conversation out a turn at a time and forgets the
//! texts of the events no later turn reads (`export::forget`). A text read
//! after it was forgotten would be lost from the page: in a debug build (as
//! `cargo test` builds the binary) a forgotten text is a marker, so every
//! real conversation of every agent is exported here, in both views, and no
//! page may hold the marker.

use crate::common;

use std::path::{Path, PathBuf};

/// What a forgotten text reads in a debug build (`model::FORGOTTEN`).
const MARKER: &str = "[overhear: forgotten text]";

/// Every `*.jsonl` and `*.json` file under `dir`.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_under(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e == "jsonl" || e == "json")
        {
            out.push(path);
        }
    }
}

/// The conversations: JP's and eve's corpora, Claude Code and Codex
/// transcripts (sub-agents' files too), Qwen Code's chats, and the
/// repository's Gemini CLI and Copilot CLI sessions.
fn conversations() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = common::corpus::jp_conversations()
        .into_iter()
        .chain(common::corpus::eve_streams())
        .flatten()
        .collect();
    paths.extend(
        common::agents::transcripts()
            .into_iter()
            .flatten()
            .map(|(_, path)| path),
    );
    if let Some(dir) = common::agents::fixtures_dir() {
        files_under(&dir.join("qwen"), &mut paths);
    }
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    files_under(&here.join("gemini"), &mut paths);
    files_under(&here.join("copilot"), &mut paths);
    paths
}

#[test]
fn no_page_of_any_conversation_shows_a_text_the_export_forgot() {
    let paths = conversations();
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut exported = 0;
    for path in &paths {
        for view in ["terminal", "user"] {
            let out = dir.path().join(format!("e{exported}-{view}.html"));
            let run = crate::common::overhear()
                .args(["export", "--format", "html", "--view", view, "-o"])
                .arg(&out)
                .arg(path)
                .output()
                .expect("the binary runs");
            if !run.status.success() {
                // A file that is not a conversation (a session index, a
                // settings file) is refused; every other one is counted.
                continue;
            }
            exported += 1;
            let name = out.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            let stem = name.trim_end_matches(".html");
            for page in std::fs::read_dir(dir.path()).expect("the pages").flatten() {
                let page_name = page.file_name();
                let page_name = page_name.to_string_lossy();
                if page_name != name && !page_name.starts_with(&format!("{stem}-")) {
                    continue;
                }
                let html = std::fs::read_to_string(page.path()).expect("a page");
                assert!(
                    !html.contains(MARKER),
                    "{} ({view}): {page_name} shows a forgotten text",
                    path.display()
                );
            }
        }
    }
    // Not passed for want of exports: nearly every file is a conversation
    // (whichever corpora are present: the agents' fixtures alone are 32
    // files, all four with JP's and eve's 56), in both views.
    if paths.len() > 20 {
        assert!(
            exported * 10 >= paths.len() * 2 * 9,
            "only {exported} exports of {} conversations",
            paths.len()
        );
    }
}
