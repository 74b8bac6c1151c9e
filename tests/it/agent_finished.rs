//! When an agent transcript counts as finished (docs/agents.md, "When a
//! transcript is finished"): `render` of a file whose last turn answered the
//! user shows that turn's duration at every width, a file that ends mid-turn
//! keeps it running; the viewer shows `○ finished` once a settled transcript
//! has not been written for a minute, keeps `● following` for one quiet
//! mid-turn, and follows again when the file grows; a transcript copied
//! long after its agent stopped (a new file time, old content) is finished.

use crate::common;

use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, SystemTime};

use common::agents::{fixtures_dir, stated_ago};
use common::pty::Viewer;

const PROMPT: &str = r#"{"parentUuid":null,"isSidechain":false,"type":"user","sessionId":"s","uuid":"u1","timestamp":"2025-10-21T20:04:22.000Z","message":{"role":"user","content":"List the files please"}}"#;
const CALL: &str = r#"{"type":"assistant","sessionId":"s","uuid":"a1","parentUuid":"u1","timestamp":"2025-10-21T20:04:25.000Z","message":{"id":"msg_1","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls -1 /srv/data"}}]}}"#;
const RESULT: &str = r#"{"type":"user","sessionId":"s","uuid":"u2","parentUuid":"a1","timestamp":"2025-10-21T20:04:27.000Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"alpha.csv\nbeta.csv","is_error":false}]}}"#;
const ANSWER: &str = r#"{"type":"assistant","sessionId":"s","uuid":"a2","parentUuid":"u2","timestamp":"2025-10-21T20:06:34.000Z","message":{"id":"msg_2","role":"assistant","content":[{"type":"text","text":"Two files: alpha.csv and beta.csv."}]}}"#;

fn write_transcript(dir: &Path, lines: &[&str]) -> std::path::PathBuf {
    let path = dir.join("0d3a8e6f-1111-2222-3333-444455556666.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").expect("written");
    path
}

fn first_rule(text: &str) -> &str {
    text.lines()
        .find(|l| l.starts_with("── turn"))
        .unwrap_or("")
}

#[test]
fn render_shows_the_duration_of_a_last_turn_that_answered_the_user() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let done = write_transcript(tmp.path(), &[PROMPT, CALL, RESULT, ANSWER]);
    for width in [40, 80, 200] {
        let text = common::render_plain(&done, width);
        assert!(
            first_rule(&text).ends_with("· 2m12s ──"),
            "{width} columns: {}",
            first_rule(&text)
        );
        for line in text.lines() {
            assert!(
                overhear::text::width::display_width(line) <= width,
                "{width} columns: {line:?}"
            );
        }
    }
}

#[test]
fn render_keeps_a_last_turn_that_ends_mid_call_running() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let cut = write_transcript(tmp.path(), &[PROMPT, CALL]);
    let text = common::render_plain(&cut, 80);
    assert!(
        first_rule(&text).ends_with("2025-10-21 20:04:22 UTC ──"),
        "{}",
        first_rule(&text)
    );
    assert!(text.contains("running"), "{text}");
}

#[test]
fn the_fixtures_last_turns_end_unless_the_file_stops_mid_turn() {
    let Some(dir) = fixtures_dir() else { return };
    let last_rule = |path: &Path| {
        let text = common::render_plain(path, 80);
        text.lines()
            .rfind(|l| l.starts_with("── turn"))
            .unwrap_or("")
            .to_string()
    };
    let ended = [
        "claude-code/v2.0.24-thinking/claude-code-pomodoro-timer.jsonl",
        "claude-code/v2.0.55-agent-file/agent-c8d9b115.jsonl",
        "codex/v0.47.0-apply-patch/codex-pomodor-timer.jsonl",
    ];
    for name in ended {
        let rule = last_rule(&dir.join(name));
        assert!(rule.contains("UTC · "), "{name}: {rule}");
    }
    let unfinished = dir.join(
        "codex/v0.58.0-unfinished-turn/rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl",
    );
    let rule = last_rule(&unfinished);
    assert!(rule.ends_with("UTC ──"), "{rule}");
}

/// Dates the file's last write `ago` back, as if the agent had stopped then.
fn written_ago(path: &Path, ago: Duration) {
    let file = OpenOptions::new()
        .append(true)
        .open(path)
        .expect("openable");
    file.set_modified(SystemTime::now() - ago)
        .expect("the time is set");
}

fn open(path: &Path, cols: u16) -> Viewer {
    let dir = path.parent().expect("a folder");
    Viewer::spawn(&[path], dir, dir, 30, cols)
}

#[test]
fn the_viewer_shows_finished_once_a_settled_transcript_is_quiet_and_follows_again_when_it_grows() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let path = write_transcript(tmp.path(), &[PROMPT, CALL, RESULT, ANSWER]);
    written_ago(&path, Duration::from_secs(120));
    let mut viewer = open(&path, 80);
    viewer.wait_for_text("○ finished");
    viewer.wait_for_text("· 2m12s");

    let next = r#"{"type":"user","sessionId":"s","uuid":"u3","parentUuid":"a2","timestamp":"2025-10-21T20:09:00.000Z","message":{"role":"user","content":"And their sizes?"}}"#;
    let mut file = OpenOptions::new()
        .append(true)
        .open(&path)
        .expect("appendable");
    file.write_all(format!("{next}\n").as_bytes())
        .expect("written");
    file.flush().expect("flushed");
    viewer.wait_for_text("And their sizes?");
    viewer.wait_for_text("● following");
    viewer.quit();
}

#[test]
fn the_viewer_keeps_following_a_transcript_quiet_for_minutes_mid_turn() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let two_minutes = Duration::from_secs(120);
    let (prompt, call) = (
        stated_ago(PROMPT, two_minutes),
        stated_ago(CALL, two_minutes),
    );
    let path = write_transcript(tmp.path(), &[&prompt, &call]);
    written_ago(&path, two_minutes);
    // Both widths watch the same quiet stretch side by side.
    let viewers: Vec<_> = [40, 200]
        .into_iter()
        .map(|cols| {
            let viewer = open(&path, cols);
            viewer.wait_for_text("ls -1 /srv/data");
            viewer.wait_for_text("following");
            (cols, viewer)
        })
        .collect();
    // Past two ticks: a quiet file mid-turn is not taken as finished.
    std::thread::sleep(Duration::from_millis(2500));
    for (cols, mut viewer) in viewers {
        let screen = viewer.screen().contents();
        assert!(screen.contains("following"), "{cols} columns:\n{screen}");
        assert!(!screen.contains("finished"), "{cols} columns:\n{screen}");
        viewer.quit();
    }
}

#[test]
fn a_copied_transcript_left_mid_turn_long_ago_is_finished_not_running() {
    // `cp` without `-p`: the file's time is now, its content a year old.
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let path = write_transcript(tmp.path(), &[PROMPT, CALL]);
    for cols in [40, 80, 200] {
        let mut viewer = open(&path, cols);
        viewer.wait_for_text("○ finished");
        viewer.send(b"g");
        viewer.wait_for_text("ls -1 /srv/data");
        let screen = viewer.screen().contents();
        assert!(!screen.contains("running"), "{cols} columns:\n{screen}");
        assert!(!screen.contains("following"), "{cols} columns:\n{screen}");
        viewer.quit();
    }
}
