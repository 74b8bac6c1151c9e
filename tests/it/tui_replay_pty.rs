//! `overhear replay` through the real binary in a pseudo-terminal:
//! it plays the conversation event by event, Space pauses and resumes,
//! `.` `,` and the arrows step, `+` `-` change the speed, the status bar says
//! `replay · event 2/6 · 0.25× · 17:04:02`, and `q` gives the terminal back.
//! An eve stream plays line by line. Not on a terminal it prints like
//! `render --at-event N`. The decisions are
//! in `docs/time-travel.md`.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Stdio;

use common::pty::{TIMEOUT, Viewer};
use serde_json::{Value, json};

/// Six events two seconds apart (the longest wait at speed 1) in two turns;
/// each message names its place.
fn conversation(tmp: &Path) -> PathBuf {
    let dir = tmp.join("17760760747-replayed");
    std::fs::create_dir_all(&dir).unwrap();
    let at = |s: usize| format!("2026-04-10 17:04:{s:02}.0");
    let events: Vec<Value> = vec![
        json!({"timestamp": at(0), "type": "turn_start"}),
        json!({"timestamp": at(2), "type": "chat_request", "content": "question-alpha?"}),
        json!({"timestamp": at(4), "type": "chat_response", "message": "answer-bravo"}),
        json!({"timestamp": at(6), "type": "turn_start"}),
        json!({"timestamp": at(8), "type": "chat_request", "content": "question-charlie?"}),
        json!({"timestamp": at(10), "type": "chat_response", "message": "answer-delta"}),
    ];
    std::fs::write(
        dir.join("events.json"),
        serde_json::to_vec_pretty(&events).unwrap(),
    )
    .unwrap();
    std::fs::write(dir.join("metadata.json"), r#"{"title": "Replayed"}"#).unwrap();
    dir
}

/// `overhear replay DIR ARGS…` on a `rows`×`cols` terminal.
fn replay(dir: &Path, rows: u16, cols: u16, args: &[&str], no_color: bool) -> Viewer {
    let mut cmd = Viewer::command(dir, &dir.join("no-user-data"));
    cmd.arg("replay");
    cmd.arg(dir);
    for arg in args {
        cmd.arg(arg);
    }
    if no_color {
        cmd.env("NO_COLOR", "1");
    }
    Viewer::start(cmd, rows, cols)
}

/// The status bar: the screen's last row.
fn status(screen: &vt100::Screen) -> String {
    common::pty::rows(screen)
        .last()
        .cloned()
        .unwrap_or_default()
}

/// Waits until the status bar holds every one of `parts`.
fn wait_status(viewer: &Viewer, parts: &[&str]) {
    viewer.wait_until(&format!("a status bar with {parts:?}"), TIMEOUT, |s| {
        let bar = status(s);
        parts.iter().all(|p| bar.contains(p))
    });
}

/// Pauses with Space at `step`, where the replay starts: a machine slow
/// enough to let the 8 s to the next event pass has shown more, and steps
/// back to it.
fn pause_at(viewer: &mut Viewer, step: &str) {
    viewer.send(b" ");
    wait_status(viewer, &["replay ‖ paused"]);
    for _ in 0..5 {
        if status(&viewer.settled_screen()).contains(step) {
            break;
        }
        viewer.send(b",");
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    wait_status(viewer, &["replay ‖ paused", step]);
}

#[test]
fn space_pauses_dot_and_comma_step_plus_and_minus_change_the_speed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = conversation(tmp.path());
    // At a quarter of the pace each event waits 8 s: the first shows at once.
    let mut viewer = replay(&dir, 24, 80, &["--speed", "0.25"], false);
    wait_status(&viewer, &["replay · event 1/6 · 0.25× · 17:04:00"]);
    pause_at(&mut viewer, "event 1/6");
    assert!(!viewer.screen().contents().contains("question-alpha"));
    viewer.send(b".");
    wait_status(&viewer, &["event 2/6 · 0.25× · 17:04:02"]);
    viewer.wait_for_text("question-alpha?");
    viewer.send(b".");
    viewer.wait_for_text("answer-bravo");
    viewer.send(b",");
    wait_status(&viewer, &["replay ‖ paused · event 2/6"]);
    viewer.wait_until("the answer taken back", TIMEOUT, |s| {
        !s.contents().contains("answer-bravo")
    });
    // The arrows step too (h and l still scroll sideways).
    viewer.send(b"\x1b[C");
    wait_status(&viewer, &["event 3/6"]);
    viewer.send(b"\x1b[D");
    wait_status(&viewer, &["event 2/6"]);
    // Speeds go up and down a ladder; the slowest stays the slowest.
    viewer.send(b"+");
    wait_status(&viewer, &["event 2/6 · 0.5×"]);
    viewer.wait_for_text("speed 0.5×");
    viewer.send(b"--");
    wait_status(&viewer, &["event 2/6 · 0.25×"]);
    for _ in 0..8 {
        viewer.send(b"+");
    }
    wait_status(&viewer, &["· max ·"]);
    // Played on at full speed it reaches the end, shown as the file is now.
    viewer.send(b" ");
    wait_status(&viewer, &["replay ○ end · event 6/6 · max · 17:04:10"]);
    let screen = viewer.screen().contents();
    assert!(screen.contains("answer-delta"), "{screen}");
    assert!(screen.contains("── turn 2"), "{screen}");
    // Space at the end plays it again from the start.
    viewer.send(b"--------");
    wait_status(&viewer, &["replay ○ end · event 6/6 · 0.25×"]);
    viewer.send(b" ");
    wait_status(&viewer, &["replay · event 1/6 · 0.25× · 17:04:00"]);
    assert!(!viewer.screen().contents().contains("answer-delta"));
    viewer.quit();
    let screen = viewer.settled_screen();
    assert!(!screen.alternate_screen(), "the normal screen is back");
    assert!(viewer.cooked(), "the terminal is back in cooked mode");
}

#[test]
fn it_plays_at_the_recorded_pace_and_follows_the_end() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = conversation(tmp.path());
    // At speed 4 the whole conversation takes 2.5 s.
    let start = std::time::Instant::now();
    let mut viewer = replay(&dir, 24, 80, &["--speed", "4"], false);
    wait_status(&viewer, &["replay · event 1/6 · 4×"]);
    wait_status(&viewer, &["replay ○ end · event 6/6"]);
    assert!(
        start.elapsed() >= std::time::Duration::from_millis(2_000),
        "played too fast: {:?}",
        start.elapsed()
    );
    // The view followed the end: the last answer is on screen.
    viewer.wait_for_text("answer-delta");
    viewer.quit();
}

#[test]
fn the_status_bar_fits_at_40_80_and_200_columns_without_colour() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = conversation(tmp.path());
    for cols in [40u16, 80, 200] {
        let mut viewer = replay(
            &dir,
            20,
            cols,
            &["--from-event", "4", "--speed", "0.25"],
            true,
        );
        pause_at(&mut viewer, "event 4/6");
        let screen = viewer.screen();
        let bar = status(&screen);
        assert!(
            overhear::text::width::display_width(&bar) <= usize::from(cols),
            "{cols}: {bar}"
        );
        if cols >= 80 {
            assert!(bar.contains("0.25× · 17:04:06"), "{cols}: {bar}");
        }
        // Started at event 4: the first turn is there whole, the second begun.
        let text = screen.contents();
        assert!(text.contains("answer-bravo"), "{cols}: {text}");
        assert!(!text.contains("question-charlie"), "{cols}: {text}");
        viewer.quit();
    }
}

#[test]
fn not_on_a_terminal_it_prints_how_the_replay_ends() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = conversation(tmp.path());
    let run = |args: &[&str]| {
        let output = crate::common::overhear()
            .args(args)
            .env("TERM", "xterm-256color")
            .env_remove("COLUMNS")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(output.status.success(), "{args:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    let dir = dir.display().to_string();
    let printed = run(&["replay", &dir, "--color", "never"]);
    assert_eq!(
        printed,
        run(&["render", &dir, "--at-event", "6", "--color", "never"])
    );
    assert!(printed.contains("answer-delta"));
    // The demo is the replay of the bundled conversation.
    let demo = run(&["demo"]);
    assert!(demo.contains("── turn 1"), "{demo}");
    assert!(demo.contains("ConfigError"), "{demo}");
}

#[test]
fn an_eve_stream_is_replayed_line_by_line() {
    let stream = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/eve/streaming.ndjson");
    let lines = std::fs::read_to_string(&stream).unwrap().lines().count();
    let tmp = tempfile::tempdir().unwrap();
    let mut cmd = Viewer::command(tmp.path(), &tmp.path().join("no-user-data"));
    cmd.arg("replay");
    cmd.arg(&stream);
    cmd.args(["--speed", "max"]);
    let mut viewer = Viewer::start(cmd, 24, 100);
    wait_status(
        &viewer,
        &[&format!("replay ○ end · line {lines}/{lines} · max")],
    );
    // One line back: the stream's last line taken back, as `head -n` would.
    viewer.send(b",");
    wait_status(
        &viewer,
        &[&format!("replay ‖ paused · line {}/{lines}", lines - 1)],
    );
    viewer.quit();
}
