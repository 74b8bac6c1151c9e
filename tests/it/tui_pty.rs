//! The viewer in a real pseudo-terminal: it takes the terminal over, follows
//! the file, and gives the terminal back however it ends.

// This test drives the real binary through system calls that have no safe
// wrapper (signals, FIFOs, ptys, locks, process groups); every unsafe block
// says why it is sound (clippy's undocumented_unsafe_blocks).
#![allow(unsafe_code)]

use crate::common;

use std::path::{Path, PathBuf};

use common::pty::{TIMEOUT, Viewer};
use serde_json::Value;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/jp/current");

/// The `current` fixture with its first `events` events, in a conversation folder.
fn conversation(tmp: &Path, events: usize) -> PathBuf {
    let dir = tmp.join("17760760747-pty");
    std::fs::create_dir_all(&dir).unwrap();
    for file in ["base_config.json", "metadata.json"] {
        std::fs::copy(Path::new(FIXTURE).join(file), dir.join(file)).unwrap();
    }
    write_events(&dir, events);
    dir
}

/// Replaces `events.json` the way JP does: write a temp file, rename it over.
fn write_events(dir: &Path, events: usize) {
    let all: Vec<Value> =
        serde_json::from_slice(&std::fs::read(Path::new(FIXTURE).join("events.json")).unwrap())
            .unwrap();
    let some: Vec<&Value> = all.iter().take(events).collect();
    let tmp = dir.join("events.json.tmp");
    std::fs::write(&tmp, serde_json::to_vec_pretty(&some).unwrap()).unwrap();
    std::fs::rename(tmp, dir.join("events.json")).unwrap();
}

/// The viewer on `dir`, with a pager that swallows its input.
fn start(dir: &Path) -> Viewer {
    start_with(dir, "cat >/dev/null")
}

/// The viewer on `dir` with `pager` as `$PAGER`.
fn start_with(dir: &Path, pager: &str) -> Viewer {
    spawn_env(Some(dir), dir, pager, &[])
}

/// Runs `overhear [ARG]` in `cwd` with `pager` and more environment variables,
/// on a 24×80 terminal.
fn spawn_env(arg: Option<&Path>, cwd: &Path, pager: &str, env: &[(&str, &str)]) -> Viewer {
    let mut cmd = Viewer::command(cwd, &cwd.join("no-user-data"));
    if let Some(arg) = arg {
        cmd.arg(arg);
    }
    cmd.env("PAGER", pager);
    for (key, value) in env {
        cmd.env(key, value);
    }
    Viewer::start(cmd, 24, 80)
}

/// The process id of `viewer`, for `kill`.
fn pid(viewer: &Viewer) -> libc::pid_t {
    libc::pid_t::try_from(viewer.pid()).unwrap()
}

#[test]
fn q_quits_and_leaves_the_alternate_screen() {
    let tmp = tempfile::tempdir().unwrap();
    let mut viewer = start(&conversation(tmp.path(), 100));
    viewer.wait_until("the status bar", TIMEOUT, |s| {
        s.alternate_screen() && s.contents().contains("24 events")
    });
    assert!(!viewer.cooked(), "raw mode while running");
    viewer.quit();
    assert!(!viewer.settled_screen().alternate_screen());
    assert!(viewer.cooked());
}

#[test]
fn sigterm_restores_the_terminal() {
    let tmp = tempfile::tempdir().unwrap();
    let mut viewer = start(&conversation(tmp.path(), 100));
    viewer.wait_until("the status bar", TIMEOUT, |s| {
        s.alternate_screen() && s.contents().contains("24 events")
    });
    // SAFETY: signalling our own child process.
    assert_eq!(unsafe { libc::kill(pid(&viewer), libc::SIGTERM) }, 0);
    assert_eq!(viewer.exit_code(), 128 + libc::SIGTERM as u32);
    assert!(!viewer.settled_screen().alternate_screen());
    assert!(viewer.cooked());
}

#[test]
fn new_events_scroll_into_view() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = conversation(tmp.path(), 20);
    let mut viewer = start(&dir);
    viewer.wait_for_text("20 events");
    write_events(&dir, 100);
    viewer.wait_for_text("24 events");
    viewer.wait_for_text("Run the checks again.");
    viewer.quit();
}

#[test]
fn a_new_turn_drawn_before_its_proof_gives_way_to_an_earlier_entry_rewritten() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = conversation(tmp.path(), 23);
    let mut viewer = start(&dir);
    viewer.wait_for_text("hard-codes");
    // JP rewrites the reply above with the same length and adds a call: the
    // viewer draws the call first, then finds the reply changed when it
    // proves what it had read before, with no further write to wake it.
    let mut events: Vec<Value> =
        serde_json::from_slice(&std::fs::read(Path::new(FIXTURE).join("events.json")).unwrap())
            .unwrap();
    let reply = events[20]["message"]
        .as_str()
        .unwrap()
        .replace("hard-codes", "HARD-CODES");
    events[20]["message"] = Value::from(reply);
    let tmp_file = dir.join("events.json.tmp");
    std::fs::write(&tmp_file, serde_json::to_vec_pretty(&events[..24]).unwrap()).unwrap();
    std::fs::rename(tmp_file, dir.join("events.json")).unwrap();
    viewer.wait_until("the rewritten reply", TIMEOUT, |s| {
        let text = s.contents();
        text.contains("HARD-CODES") && text.contains("24 events")
    });
    viewer.quit();
}

#[test]
fn ctrl_z_suspends_and_the_viewer_comes_back() {
    let tmp = tempfile::tempdir().unwrap();
    let mut viewer = start(&conversation(tmp.path(), 100));
    viewer.wait_until("the status bar", TIMEOUT, |s| {
        s.alternate_screen() && s.contents().contains("24 events")
    });
    viewer.send(b"\x1a");
    viewer.wait_until("the normal screen", TIMEOUT, |s| !s.alternate_screen());
    assert!(viewer.cooked(), "the shell gets a cooked terminal");
    // SAFETY: signalling our own child process.
    assert_eq!(unsafe { libc::kill(pid(&viewer), libc::SIGCONT) }, 0);
    viewer.wait_until("the viewer again", TIMEOUT, |s| {
        s.alternate_screen() && s.contents().contains("24 events")
    });
    viewer.quit();
}

#[test]
fn the_pager_gets_the_card_text_and_the_viewer_returns() {
    let tmp = tempfile::tempdir().unwrap();
    let paged = tmp.path().join("paged");
    let pager = format!("cat > '{}'", paged.display());
    let mut viewer = start_with(&conversation(tmp.path(), 100), &pager);
    viewer.wait_for_text("24 events");
    // The first card's result is the build script, cut to 3 lines on screen.
    viewer.send(b"g}o");
    // The pager returned at once: the viewer waits for a key on the normal
    // screen, so that what such a pager printed can be read.
    viewer.wait_until("the prompt after a quick pager", TIMEOUT, |s| {
        !s.alternate_screen() && s.contents().contains("press any key to return")
    });
    viewer.send(b"x");
    viewer.wait_until("the viewer after the pager", TIMEOUT, |s| {
        s.alternate_screen() && s.contents().contains("fs_read_file")
    });
    viewer.quit();
    let text = std::fs::read_to_string(&paged).unwrap();
    assert!(text.contains("use std::process::Command;"), "{text}");
    assert!(
        text.lines().count() > 3,
        "the whole result, not what the card shows"
    );
}

#[test]
fn sighup_ends_the_viewer() {
    let tmp = tempfile::tempdir().unwrap();
    let mut viewer = start(&conversation(tmp.path(), 100));
    viewer.wait_for_text("24 events");
    // SAFETY: signalling our own child process.
    assert_eq!(unsafe { libc::kill(pid(&viewer), libc::SIGHUP) }, 0);
    assert_eq!(viewer.exit_code(), 128 + libc::SIGHUP as u32);
    assert!(viewer.cooked());
}

#[test]
fn a_resized_terminal_is_redrawn_to_its_new_size() {
    let tmp = tempfile::tempdir().unwrap();
    let mut viewer = start(&conversation(tmp.path(), 100));
    viewer.wait_for_text("24 events");
    viewer.resize(12, 60);
    viewer.wait_until("the status bar on row 12", TIMEOUT, |s| {
        s.contents_between(11, 0, 11, 60).contains("following")
            || s.contents_between(11, 0, 11, 60).contains("finished")
    });
    viewer.quit();
}

#[test]
fn the_picker_opens_another_conversation_of_the_workspace() {
    let tmp = tempfile::tempdir().unwrap();
    let conversations = common::pty::jp_workspace(tmp.path());
    let older = conversation(&conversations, 100);
    std::fs::rename(&older, conversations.join("17653152345-older")).unwrap();
    std::fs::write(
        conversations.join("17653152345-older/metadata.json"),
        r#"{"title": "The older one", "last_activated_at": "2026-01-01 10:00:00.0"}"#,
    )
    .unwrap();
    let newer = conversation(&conversations, 20);
    std::fs::write(
        newer.join("metadata.json"),
        r#"{"title": "The newer one", "last_activated_at": "2026-02-01 10:00:00.0"}"#,
    )
    .unwrap();

    let mut viewer = spawn_env(None, tmp.path(), "cat >/dev/null", &[]);
    viewer.wait_for_text("The newer one");
    viewer.send(b"p");
    viewer.wait_for_text("Conversations (2)");
    viewer.send(b"older");
    viewer.wait_until("the filtered list", TIMEOUT, |s| {
        !s.contents().contains("The newer one")
    });
    viewer.send(b"\r");
    viewer.wait_until("the older conversation", TIMEOUT, |s| {
        s.contents().contains("The older one") && s.contents().contains("24 events")
    });
    viewer.quit();
}

#[test]
fn a_panic_restores_the_terminal_and_prints_its_message_on_a_clean_screen() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = conversation(tmp.path(), 100);
    let mut viewer = spawn_env(
        Some(&dir),
        &dir,
        "cat >/dev/null",
        &[("OVERHEAR_TEST_PANIC", "1"), ("RUST_BACKTRACE", "0")],
    );
    assert_eq!(viewer.exit_code(), 101, "a panic's exit status");
    let screen = viewer.settled_screen();
    assert!(!screen.alternate_screen(), "left the alternate screen");
    assert!(viewer.cooked(), "left raw mode");
    assert!(!screen.hide_cursor(), "the cursor is shown again");
    let text = screen.contents();
    assert!(
        text.contains("a panic on purpose, to test that the terminal is restored"),
        "{text}"
    );
    assert!(!text.contains("24 events"), "nothing of the viewer: {text}");
    // Written after raw mode ended: every line starts at the left edge.
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    assert!(lines.len() >= 2, "{text}");
    for line in lines {
        assert!(!line.starts_with(' '), "a staircase of lines: {text}");
    }
}
