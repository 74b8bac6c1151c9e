//! Loose ends of the agent transcripts: calls left unanswered by
//! an aborted turn read "aborted", never "running…" or "no response", in
//! `render` and in the viewer; a local command that printed nothing reads
//! `⚠ (no output)`, not a bare `⚠`; a turn whose times are all one (a slash
//! command) shows no `· 0ms` duration; a Codex `patch_apply_end` with
//! `changes` shows them as the `apply_patch` card's diff, once, and a failed
//! apply is a failed card with its message.

use crate::common;

use std::path::{Path, PathBuf};

use common::pty::{Viewer, rows};

fn write(dir: &Path, name: &str, lines: &[serde_json::Value]) -> PathBuf {
    let path = dir.join(name);
    let text: String = lines.iter().map(|line| format!("{line}\n")).collect();
    std::fs::write(&path, text).expect("written");
    path
}

/// A Codex rollout whose turn is aborted while a shell call runs.
fn codex_aborted(dir: &Path) -> PathBuf {
    let at = |s: u32| format!("2026-08-03T10:48:{s:02}.000Z");
    write(
        dir,
        "rollout-aborted.jsonl",
        &[
            serde_json::json!({"timestamp": at(0), "type": "session_meta",
                "payload": {"id": "x", "timestamp": at(0), "cwd": "/w", "originator": "codex_cli_rs",
                    "cli_version": "0.80.0"}}),
            serde_json::json!({"timestamp": at(1), "type": "event_msg",
                "payload": {"type": "user_message", "message": "Run the slow tests", "kind": "plain"}}),
            serde_json::json!({"timestamp": at(2), "type": "response_item",
                "payload": {"type": "function_call", "name": "shell", "call_id": "call-1",
                    "arguments": "{\"command\":[\"cargo\",\"test\",\"--slow\"]}"}}),
            serde_json::json!({"timestamp": at(9), "type": "event_msg",
                "payload": {"type": "turn_aborted", "reason": "interrupted"}}),
        ],
    )
}

/// A Claude Code transcript interrupted while a `Bash` call runs.
fn claude_interrupted(dir: &Path) -> PathBuf {
    let at = |s: u32| format!("2026-08-03T10:48:{s:02}.000Z");
    write(
        dir,
        "interrupted.jsonl",
        &[
            serde_json::json!({"type": "user", "uuid": "u1", "sessionId": "s", "timestamp": at(0),
                "message": {"role": "user", "content": "Run the slow tests"}}),
            serde_json::json!({"type": "assistant", "uuid": "a1", "sessionId": "s", "timestamp": at(2),
                "message": {"id": "m1", "role": "assistant", "content": [{"type": "tool_use",
                    "id": "toolu_1", "name": "Bash", "input": {"command": "cargo test --slow"}}]}}),
            serde_json::json!({"type": "user", "uuid": "u2", "sessionId": "s", "timestamp": at(9),
                "message": {"role": "user",
                    "content": [{"type": "text", "text": "[Request interrupted by user]"}]}}),
        ],
    )
}

/// The header line of the card of the shell call in `text`.
fn card_line(text: &str) -> &str {
    text.lines()
        .find(|line| line.contains("Bash") || line.contains("shell"))
        .unwrap_or("")
}

#[test]
fn calls_of_an_aborted_turn_read_aborted_in_render() {
    let tmp = tempfile::tempdir().expect("temp dir");
    for path in [codex_aborted(tmp.path()), claude_interrupted(tmp.path())] {
        for width in [40, 80, 200] {
            let text = common::render_plain(&path, width);
            let card = card_line(&text);
            assert!(card.contains("aborted"), "{width}: {card}\n{text}");
            assert!(card.starts_with("✗"), "{width}: {card}");
            assert!(
                !text.contains("running…") && !text.contains("no response"),
                "{width}:\n{text}"
            );
        }
    }
}

#[test]
fn calls_of_an_aborted_turn_read_aborted_in_the_viewer() {
    let tmp = tempfile::tempdir().expect("temp dir");
    for path in [codex_aborted(tmp.path()), claude_interrupted(tmp.path())] {
        let mut viewer = Viewer::spawn(&[&path], tmp.path(), &tmp.path().join("jp"), 24, 80);
        viewer.wait_for_text("aborted");
        let screen = rows(&viewer.settled_screen()).join("\n");
        assert!(!screen.contains("running…"), "{screen}");
        viewer.quit();
    }
}

#[test]
fn an_empty_command_output_says_so_and_a_slash_command_turn_shows_no_zero_duration() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let at = |s: u32| format!("2026-08-03T10:48:{s:02}.000Z");
    let path = write(
        tmp.path(),
        "slash.jsonl",
        &[
            serde_json::json!({"type": "user", "uuid": "u1", "sessionId": "s", "timestamp": at(0),
                "message": {"role": "user", "content":
                    "<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>"}}),
            serde_json::json!({"type": "user", "uuid": "u2", "sessionId": "s", "timestamp": at(0),
                "message": {"role": "user",
                    "content": "<local-command-stdout></local-command-stdout>"}}),
            serde_json::json!({"type": "user", "uuid": "u3", "sessionId": "s", "timestamp": at(10),
                "message": {"role": "user", "content": "And now?"}}),
            serde_json::json!({"type": "assistant", "uuid": "a1", "sessionId": "s", "timestamp": at(15),
                "message": {"id": "m1", "role": "assistant",
                    "content": [{"type": "text", "text": "A fresh start."}]}}),
        ],
    );
    for width in [40, 80, 200] {
        let text = common::render_plain(&path, width);
        assert!(text.contains("⚠ (no output)"), "{width}:\n{text}");
        assert!(
            text.lines().all(|line| line.trim_end() != "⚠"),
            "{width}:\n{text}"
        );
        let rules: Vec<&str> = text.lines().filter(|l| l.starts_with("── turn")).collect();
        assert_eq!(rules.len(), 2, "{width}:\n{text}");
        assert!(!rules[0].contains("0ms"), "{width}: {}", rules[0]);
        if width >= 80 {
            assert!(rules[1].contains("· 5s"), "{width}: {}", rules[1]);
        }
    }
}

#[test]
fn patch_apply_end_changes_are_the_apply_patch_diff_shown_once() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/codex/patch-apply-end.jsonl");
    for width in [40, 80, 200] {
        let text = common::render_plain(&path, width);
        // The changes, with their line numbers, replace the call's own patch.
        for line in [
            "--- /w/hello.py",
            "@@ -1,2 +1,2 @@",
            "+print('hello')",
            "--- /dev/null",
            "+++ /w/new.txt",
            "+fresh",
        ] {
            assert_eq!(text.matches(line).count(), 1, "{width}: {line}\n{text}");
        }
        assert_eq!(
            text.matches("*** Begin Patch").count(),
            1,
            "{width}:\n{text}"
        );
        // The failed apply keeps its own patch, is failed, and says why.
        let failed = text
            .lines()
            .filter(|l| l.starts_with("✗ apply_patch"))
            .count();
        assert_eq!(failed, 1, "{width}:\n{text}");
        assert!(
            text.contains("Failed to find expected lines"),
            "{width}:\n{text}"
        );
    }
    let out = crate::common::overhear()
        .args(["render", "--color", "always", "--width", "80"])
        .arg(&path)
        .output()
        .expect("overhear runs");
    let coloured = String::from_utf8_lossy(&out.stdout);
    assert!(coloured.contains("+print('hello')"), "{coloured}");
    let line = coloured
        .lines()
        .find(|l| l.contains("+print('hello')"))
        .unwrap_or("");
    assert!(line.contains("\u{1b}["), "the diff is coloured: {line:?}");
}
