//! Signals a user (or a tool around them) may send the viewer, in a real
//! pseudo-terminal: whatever ends it, the terminal is given back — the
//! alternate screen left, mouse reporting off, the cursor shown, raw mode
//! off — and a read error's note stays in the status bar until the file
//! reads again; the fatal signals (SIGABRT, SIGSEGV, SIGBUS) give the
//! terminal back too.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::pty::{TIMEOUT, Viewer};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/jp/current");

/// A copy of the `current` fixture in a conversation folder under `tmp`.
fn conversation(tmp: &Path) -> PathBuf {
    let dir = tmp.join("17760760747-signals");
    std::fs::create_dir_all(&dir).unwrap();
    for file in ["events.json", "base_config.json", "metadata.json"] {
        std::fs::copy(Path::new(FIXTURE).join(file), dir.join(file)).unwrap();
    }
    dir
}

/// The viewer on a fresh copy of the fixture, its first screen drawn.
fn viewer_on(tmp: &Path) -> (Viewer, PathBuf) {
    let dir = conversation(tmp);
    let viewer = Viewer::spawn(&[&dir], &dir, &tmp.join("no-user-data"), 24, 80);
    viewer.wait_until("the status bar", TIMEOUT, |s| {
        s.alternate_screen() && s.contents().contains("events")
    });
    (viewer, dir)
}

// Signalling the child is a bare kill(2): std can only send SIGKILL.
#[allow(unsafe_code)]
fn kill(viewer: &Viewer, signal: libc::c_int) {
    let pid = libc::pid_t::try_from(viewer.pid()).unwrap();
    // SAFETY: signalling our own child process.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
}

/// Every mode the viewer changes is back as it was.
fn assert_restored(viewer: &Viewer, what: &str) {
    let screen = viewer.settled_screen();
    assert!(
        !screen.alternate_screen(),
        "{what}: alternate screen left on"
    );
    assert_eq!(
        screen.mouse_protocol_mode(),
        vt100::MouseProtocolMode::None,
        "{what}: mouse reporting left on"
    );
    assert!(!screen.hide_cursor(), "{what}: cursor left hidden");
    assert!(viewer.cooked(), "{what}: raw mode left on");
}

#[test]
fn signals_that_end_the_viewer_restore_the_terminal() {
    for (name, signal) in [
        ("SIGQUIT", libc::SIGQUIT),
        ("SIGUSR1", libc::SIGUSR1),
        ("SIGUSR2", libc::SIGUSR2),
        ("SIGALRM", libc::SIGALRM),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let (mut viewer, _dir) = viewer_on(tmp.path());
        kill(&viewer, signal);
        assert_eq!(
            viewer.exit_code(),
            128 + signal as u32,
            "{name}: exits as the signal would"
        );
        assert_restored(&viewer, name);
    }
}

/// The signals that end a process without running any of its code — an
/// allocation failure or a stack overflow aborts (SIGABRT), a bad memory
/// access faults (SIGSEGV, SIGBUS) — still give the terminal back, the
/// mouse capture of `--mouse` included, and the process still ends by the
/// signal.
#[test]
fn fatal_signals_restore_the_terminal_and_still_end_the_viewer() {
    for (name, signal) in [
        ("SIGABRT", libc::SIGABRT),
        ("SIGSEGV", libc::SIGSEGV),
        ("SIGBUS", libc::SIGBUS),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let dir = conversation(tmp.path());
        let viewer = Viewer::spawn(
            &[Path::new("--mouse"), &dir],
            &dir,
            &tmp.path().join("no-user-data"),
            24,
            80,
        );
        let screen = viewer.wait_until("the status bar", TIMEOUT, |s| {
            s.alternate_screen() && s.contents().contains("events")
        });
        assert_ne!(
            screen.mouse_protocol_mode(),
            vt100::MouseProtocolMode::None,
            "--mouse captures the mouse"
        );
        let mut viewer = viewer;
        kill(&viewer, signal);
        assert_ne!(viewer.exit_code(), 0, "{name}: the viewer goes on");
        assert_restored(&viewer, name);
    }
}

#[test]
fn sigpipe_is_ignored_and_quitting_afterwards_restores_the_terminal() {
    let tmp = tempfile::tempdir().unwrap();
    let (mut viewer, _dir) = viewer_on(tmp.path());
    kill(&viewer, libc::SIGPIPE);
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        viewer.screen().alternate_screen(),
        "still running after SIGPIPE"
    );
    viewer.quit();
    assert_restored(&viewer, "q after SIGPIPE");
}

/// The status bar: the screen's last row.
fn status_bar(screen: &vt100::Screen) -> String {
    common::pty::rows(screen).pop().unwrap_or_default()
}

#[test]
fn a_read_error_stays_in_the_status_bar_until_the_file_reads_again() {
    let tmp = tempfile::tempdir().unwrap();
    let (mut viewer, dir) = viewer_on(tmp.path());
    let good = std::fs::read(dir.join("events.json")).unwrap();
    let replace = |bytes: &[u8]| {
        let staging = tmp.path().join("events.json.tmp");
        std::fs::write(&staging, bytes).unwrap();
        std::fs::rename(&staging, dir.join("events.json")).unwrap();
    };
    replace(b"[{\"type\": oops}]");
    viewer.wait_until("the read error", TIMEOUT, |s| {
        status_bar(s).contains("events.json: line 1")
    });
    // Keys that move, and one that shows a note of its own.
    for key in [&b"k"[..], b"g", b"G", b"j", b"\x1b"] {
        viewer.send(key);
        let screen = viewer.settled_screen();
        assert!(
            status_bar(&screen).contains("events.json: line 1"),
            "after {key:?} the note is gone while the file is still broken: {}",
            status_bar(&screen)
        );
    }
    replace(&good);
    viewer.wait_until("the note to go", TIMEOUT, |s| {
        !status_bar(s).contains("events.json: line 1")
    });
    viewer.quit();
}
