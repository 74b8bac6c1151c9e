//! The picker (`p`) lists the Claude Code and Codex sessions of the current
//! folder beside the JP workspace's conversations, newest first, each with
//! its agent, its first prompt as its title, its time and a live marker; Enter
//! opens one in the same viewer, Esc goes back (docs/agents.md "Finding
//! sessions", docs/tui.md "The picker"). HOME points at a temporary folder
//! holding generated sessions.

use crate::common;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use common::pty::{Viewer, rows};

const TIMEOUT: Duration = Duration::from_secs(10);

/// A project folder with a JP workspace, a home with a Claude Code session
/// of the project (written just now, its prompt carrying an escape
/// sequence), a Codex session of the project (of June 2026) and a Codex
/// session of another folder.
struct Setup {
    _dir: tempfile::TempDir,
    home: PathBuf,
    project: PathBuf,
}

impl Setup {
    fn new() -> Setup {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().canonicalize().expect("real path");
        let project = root.join("work/my.app");
        let home = root.join("home");
        std::fs::create_dir_all(&project).expect("project");

        let conversations = common::pty::jp_workspace(&project);
        let jp = conversations.join("17758406187");
        std::fs::create_dir_all(&jp).expect("conversation folder");
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/jp/current");
        for file in ["events.json", "base_config.json"] {
            std::fs::copy(fixture.join(file), jp.join(file)).expect("copied");
        }
        std::fs::write(
            jp.join("metadata.json"),
            r#"{"title": "The JP one", "last_activated_at": "2026-01-01 10:00:00.0"}"#,
        )
        .expect("metadata");
        aged(&jp.join("events.json"), 2 * 86_400);

        let slug = project.to_string_lossy().replace(['/', '.'], "-");
        let claude = home.join(".claude/projects").join(slug);
        std::fs::create_dir_all(&claude).expect("claude folder");
        let lines = [
            serde_json::json!({"type": "user", "uuid": "u0", "sessionId": "s", "isMeta": true,
                "message": {"role": "user", "content": "Caveat: not a prompt"}}),
            serde_json::json!({"type": "user", "uuid": "u1", "sessionId": "s",
                "message": {"role": "user",
                    "content": "Fix \u{1b}]0;PWNED\u{7} the parser\nand its tests"}}),
            serde_json::json!({"type": "assistant", "uuid": "a1", "sessionId": "s",
                "message": {"id": "m1", "role": "assistant", "model": "claude-x",
                    "content": [{"type": "text", "text": "Claude answers here."}]}}),
        ];
        write_lines(&claude.join("0d3a8e6f.jsonl"), &lines, 0);

        let codex = home.join(".codex/sessions/2026/11/30");
        std::fs::create_dir_all(&codex).expect("codex folder");
        let codex_session = |cwd: &Path, prompt: &str, answer: &str| {
            [
                serde_json::json!({"timestamp": "2026-11-30T10:00:00Z", "type": "session_meta",
                    "payload": {"id": "x", "timestamp": "2026-11-30T10:00:00Z",
                        "cwd": cwd.to_string_lossy(), "originator": "codex_cli_rs",
                        "cli_version": "0.80.0", "instructions": "x".repeat(20_000)}}),
                serde_json::json!({"timestamp": "2026-11-30T10:00:01Z", "type": "response_item",
                    "payload": {"type": "message", "role": "user", "content": [{"type": "input_text",
                        "text": "<environment_context>\n  <cwd>/w</cwd>\n</environment_context>"}]}}),
                serde_json::json!({"timestamp": "2026-11-30T10:00:01Z", "type": "event_msg",
                    "payload": {"type": "user_message", "message": prompt, "kind": "plain"}}),
                serde_json::json!({"timestamp": "2026-11-30T10:00:05Z", "type": "response_item",
                    "payload": {"type": "message", "role": "assistant",
                        "content": [{"type": "output_text", "text": answer}]}}),
            ]
        };
        write_lines(
            &codex.join("rollout-mine.jsonl"),
            &codex_session(&project, "Add a timer", "Codex answers here."),
            0,
        );
        // 2026-06-01 12:34:56 UTC: older than the Claude Code session, newer
        // than the JP conversation's last activity.
        date(
            &codex.join("rollout-mine.jsonl"),
            SystemTime::UNIX_EPOCH + Duration::from_secs(1_780_317_296),
        );
        write_lines(
            &codex.join("rollout-other.jsonl"),
            &codex_session(&home, "Not this folder", "Elsewhere."),
            10,
        );
        Setup {
            _dir: dir,
            home,
            project,
        }
    }

    /// The viewer with no PATH in the project, on a `cols`-wide terminal.
    fn viewer(&self, cols: u16, no_color: bool) -> Viewer {
        let mut cmd = Viewer::command(&self.project, &self.home.join("jp"));
        cmd.env("HOME", &self.home);
        cmd.env_remove("CODEX_HOME");
        cmd.env_remove("CLAUDE_CONFIG_DIR");
        cmd.env_remove("XDG_CONFIG_HOME");
        if no_color {
            cmd.env("NO_COLOR", "1");
        }
        Viewer::start(cmd, 24, cols)
    }
}

/// Writes `lines` as JSON lines to `path`, dated `age` seconds ago.
fn write_lines(path: &Path, lines: &[serde_json::Value], age: u64) {
    let text: String = lines.iter().map(|line| format!("{line}\n")).collect();
    std::fs::write(path, text).expect("written");
    aged(path, age);
}

fn aged(path: &Path, age: u64) {
    date(path, SystemTime::now() - Duration::from_secs(age));
}

fn date(path: &Path, when: SystemTime) {
    File::options()
        .write(true)
        .open(path)
        .and_then(|file| file.set_modified(when))
        .expect("dated");
}

/// The picker's rows (below its header and filter line) that list something.
fn listed(screen: &vt100::Screen) -> Vec<String> {
    rows(screen)
        .into_iter()
        .skip(2)
        .filter(|row| !row.trim().is_empty())
        .collect()
}

#[test]
fn the_picker_lists_the_folders_sessions_and_opens_them_at_every_width() {
    let setup = Setup::new();
    for (cols, no_color) in [(40, false), (200, false), (80, true)] {
        let mut viewer = setup.viewer(cols, no_color);
        // With no PATH the newest of the folder opens: the Claude Code session.
        viewer.wait_for_text("Claude answers here.");
        viewer.send(b"p");
        let screen = viewer.wait_until("the picker", TIMEOUT, |s| {
            s.contents().contains("Conversations (3)")
        });
        let list = listed(&screen);
        assert_eq!(list.len(), 3, "{cols}: {list:#?}");
        // Newest first: the live Claude Code session (its marker), the
        // older Codex session, the JP conversation; never the Codex
        // session of another folder.
        assert!(
            list[0].starts_with(" ● claude  Fix ␛ the parser"),
            "{cols}: {list:#?}"
        );
        assert!(
            list[1].starts_with("   codex   Add a timer"),
            "{cols}: {list:#?}"
        );
        assert!(
            list[2].starts_with("   jp      The JP one"),
            "{cols}: {list:#?}"
        );
        let text = screen.contents();
        assert!(!text.contains("PWNED") && !text.contains("Not this folder"));
        for row in rows(&screen) {
            assert!(row.chars().count() <= usize::from(cols), "{cols}: {row}");
        }
        if cols == 200 {
            // The time of each; the JP conversation's id.
            assert!(
                list[2].contains("17758406187  2026-01-01 10:00"),
                "{list:#?}"
            );
            assert!(list[1].contains("2026-06-01 12:34"), "{list:#?}");
        }
        if no_color {
            let cell = screen.cell(2, 1).expect("the marker's cell");
            assert_eq!(cell.contents(), "●");
            assert_eq!(cell.fgcolor(), vt100::Color::Default, "NO_COLOR");
        }

        // Esc goes back to the session shown.
        viewer.send(b"\x1b");
        viewer.wait_until("the conversation again", TIMEOUT, |s| {
            !s.contents().contains("Conversations (")
                && s.contents().contains("Claude answers here.")
        });

        // Enter opens the Codex session in the same viewer.
        viewer.send(b"p");
        viewer.wait_for_text("Conversations (3)");
        viewer.send(b"\x1b[B");
        viewer.send(b"\r");
        viewer.wait_until("the Codex session", TIMEOUT, |s| {
            s.contents().contains("Codex answers here.")
                && !s.contents().contains("Conversations (")
        });

        // And the JP conversation, by its title; then back to the Claude
        // Code session, selected by typing its agent.
        viewer.send(b"p");
        viewer.wait_for_text("Conversations (3)");
        viewer.send(b"The JP\r");
        viewer.wait_until("the JP conversation", TIMEOUT, |s| {
            !s.contents().contains("Conversations (") && !s.contents().contains("Codex answers")
        });
        viewer.send(b"p");
        viewer.wait_for_text("Conversations (3)");
        viewer.send(b"claude\r");
        viewer.wait_until("the Claude Code session", TIMEOUT, |s| {
            s.contents().contains("Claude answers here.")
                && !s.contents().contains("Conversations (")
        });
        viewer.quit();
    }
}
