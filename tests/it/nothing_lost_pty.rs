//! The viewer following a Claude Code transcript that is rewritten in place
//! (same inode, new content), in a real pseudo-terminal: the new version replaces the old one, never spliced onto it; a
//! version that cannot be read (not JSON, another format, an emptied file)
//! leaves the last one that could on screen, with a note saying why; and a
//! turn whose records are a year old shows no running clock, however new
//! its file is.

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::agents::stated_ago;
use common::pty::Viewer;
use serde_json::json;

const ROWS: u16 = 40;
const COLS: u16 = 200;
/// How long a change may take to reach the screen.
const PROMPT: Duration = Duration::from_secs(10);

/// A Claude Code transcript of one answered prompt, its records stated now.
fn transcript(prompt: &str, answer: &str) -> String {
    let lines = [
        json!({"type": "user", "uuid": "u1", "sessionId": "s",
            "timestamp": "2025-10-21T20:04:22.000Z",
            "message": {"role": "user", "content": prompt}}),
        json!({"type": "assistant", "uuid": "a1", "parentUuid": "u1", "sessionId": "s",
            "timestamp": "2025-10-21T20:04:25.000Z",
            "message": {"id": "m1", "role": "assistant",
                "content": [{"type": "text", "text": answer}]}}),
    ];
    lines
        .iter()
        .map(|line| stated_ago(&line.to_string(), Duration::ZERO) + "\n")
        .collect()
}

/// Writes `text` over the file at `path`: the same inode, truncated first.
fn rewrite(path: &Path, text: &str) {
    std::fs::write(path, text).expect("rewritten in place");
}

fn follow(path: &Path) -> Viewer {
    let dir = path.parent().expect("a folder");
    Viewer::spawn(&[path], dir, dir, ROWS, COLS)
}

fn wait_for(viewer: &Viewer, what: &str, pred: impl Fn(&str) -> bool) -> String {
    viewer
        .wait_until(what, PROMPT, |s| pred(&s.contents()))
        .contents()
}

#[test]
fn a_transcript_rewritten_in_place_is_read_again_or_kept_with_a_note() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let path = tmp
        .path()
        .join("0d3a8e6f-1111-2222-3333-444455556666.jsonl");
    rewrite(&path, &transcript("First question", "First answer"));
    let mut viewer = follow(&path);
    viewer.wait_for_text("First answer");

    // A longer version, written over the same file: the new one alone.
    let second = transcript(
        "Second question, a longer one",
        "Second answer, longer than the first",
    );
    rewrite(&path, &second);
    let screen = wait_for(&viewer, "the second version", |s| {
        s.contains("Second answer, longer than the first")
    });
    assert!(
        !screen.contains("First") && !screen.contains("not JSON"),
        "nothing of the first version, nothing spliced:\n{screen}"
    );

    // Garbage over it: the second version stays, with a note.
    rewrite(&path, "garbage, not a transcript\nnor is this\n");
    let screen = wait_for(&viewer, "a note", |s| {
        s.contains(
            "line 1, column 1: not JSON: expected value; no line of the rewritten file reads",
        )
    });
    assert!(
        screen.contains("Second answer, longer than the first"),
        "the last version read stays:\n{screen}"
    );

    // Another format over it: the same.
    let codex = json!({"timestamp": "2026-08-03T10:48:00.000Z", "type": "session_meta",
        "payload": {"id": "x", "cwd": "/w", "originator": "codex_cli_rs", "cli_version": "0.80.0"}});
    rewrite(&path, &format!("{codex}\n"));
    let screen = wait_for(&viewer, "a note", |s| {
        s.contains("rewritten as a Codex rollout, not a Claude Code transcript")
    });
    assert!(
        screen.contains("Second answer, longer than the first"),
        "the last version read stays:\n{screen}"
    );

    // Emptied: a note, not an empty screen.
    rewrite(&path, "");
    let screen = wait_for(&viewer, "a note", |s| s.contains("the file was emptied"));
    assert!(
        screen.contains("Second answer, longer than the first"),
        "the last version read stays:\n{screen}"
    );

    // A readable version again: shown, the note gone.
    rewrite(&path, &transcript("Third question", "Third answer"));
    let screen = wait_for(&viewer, "the third version", |s| {
        s.contains("Third answer") && !s.contains("emptied")
    });
    assert!(!screen.contains("Second"), "{screen}");
    viewer.quit();
}

#[test]
fn a_turn_refilled_from_a_year_ago_shows_no_running_clock() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let path = tmp
        .path()
        .join("0d3a8e6f-1111-2222-3333-444455556666.jsonl");
    rewrite(
        &path,
        &transcript("A question of today", "An answer of today"),
    );
    let mut viewer = follow(&path);
    viewer.wait_for_text("● following");

    // Truncated, then refilled with a turn written a year ago that stopped
    // mid-call: its file is new, its records are not.
    rewrite(&path, "");
    std::thread::sleep(Duration::from_millis(500));
    let year = Duration::from_secs(366 * 24 * 3600);
    let old = [
        json!({"type": "user", "uuid": "u1", "sessionId": "s",
            "timestamp": "2025-10-21T20:04:22.000Z",
            "message": {"role": "user", "content": "A question of last year"}}),
        json!({"type": "assistant", "uuid": "a1", "parentUuid": "u1", "sessionId": "s",
            "timestamp": "2025-10-21T20:04:25.000Z",
            "message": {"id": "m1", "role": "assistant", "content": [{"type": "tool_use",
                "id": "toolu_1", "name": "Bash", "input": {"command": "ls -1 /srv/data"}}]}}),
    ];
    let old: String = old
        .iter()
        .map(|line| stated_ago(&line.to_string(), year) + "\n")
        .collect();
    rewrite(&path, &old);
    viewer.wait_for_text("ls -1 /srv/data");
    // Past two ticks of the clock.
    std::thread::sleep(Duration::from_millis(2500));
    let screen = viewer.screen().contents();
    let rule = screen
        .lines()
        .find(|line| line.starts_with("── turn"))
        .unwrap_or("");
    assert!(!rule.contains("running"), "{rule}\n{screen}");
    viewer.quit();
}
