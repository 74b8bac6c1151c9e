//! The viewer following an eve stream in a real pseudo-terminal, as an agent
//! writes it: a growing file appended in pieces (split inside JSON objects
//! and inside UTF-8 characters), and a stream piped into `overhear -` while
//! the keys still come from the terminal. Each event shows once, within a
//! second of its line being complete, and a half-written line shows nothing.

// This test drives the real binary through system calls that have no safe
// wrapper (signals, FIFOs, ptys, locks, process groups); every unsafe block
// says why it is sound (clippy's undocumented_unsafe_blocks).
#![allow(unsafe_code)]

use crate::common;

use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

use portable_pty::CommandBuilder;

const STREAM: &str = include_str!("../fixtures/eve/streaming.ndjson");
const ROWS: u16 = 40;
const COLS: u16 = 80;
/// How long a complete line may take to reach the screen.
const PROMPT: Duration = Duration::from_secs(1);
/// How long to watch a half-written line for anything showing.
const QUIET: Duration = Duration::from_millis(150);
/// Generous bound for starting and quitting.
const TIMEOUT: Duration = Duration::from_secs(20);

/// The viewer of [`common::pty::Viewer`] started through a shell script (which
/// feeds its stdin or its stream file), with the screen read as document
/// area and status bar.
struct Viewer(common::pty::Viewer);

impl Viewer {
    /// Runs `sh -c SCRIPT overhear ARG` in a new pty (the script execs the viewer).
    fn spawn(script: &str, arg: &Path) -> Viewer {
        let mut cmd = CommandBuilder::new("sh");
        cmd.args(["-c", script, common::pty::OVERHEAR]);
        cmd.arg(arg);
        cmd.env("TERM", "xterm-256color");
        cmd.env("PAGER", "cat >/dev/null");
        common::pty::without_user_config(&mut cmd);
        cmd.cwd(arg.parent().unwrap());
        Viewer(common::pty::Viewer::start(cmd, ROWS, COLS))
    }

    fn screen(&self) -> vt100::Screen {
        self.0.screen()
    }

    /// The document area: every row but the status bar.
    fn document(&self) -> String {
        self.screen().contents_between(0, 0, ROWS - 1, 0)
    }

    /// Waits until the document area has not changed for [`QUIET`] (a
    /// fixed pause lets a loaded machine's late redraw land inside the next
    /// line's half-written check).
    fn settle(&self) {
        let started = std::time::Instant::now();
        let mut seen = self.document();
        let mut since = std::time::Instant::now();
        while since.elapsed() < QUIET {
            assert!(
                started.elapsed() < TIMEOUT,
                "the screen never settled:\n{seen}"
            );
            std::thread::sleep(Duration::from_millis(10));
            let now = self.document();
            if now != seen {
                seen = now;
                since = std::time::Instant::now();
            }
        }
    }

    fn status(&self) -> String {
        self.screen().contents_between(ROWS - 1, 0, ROWS - 1, COLS)
    }

    /// Waits up to `limit` for `pred` to hold of the document area.
    fn wait_within(&self, limit: Duration, what: &str, pred: impl Fn(&str) -> bool) {
        let document = |s: &vt100::Screen| s.contents_between(0, 0, ROWS - 1, 0);
        self.0
            .wait_until(what, limit, |screen| pred(&document(screen)));
    }

    fn wait_status(&self, what: &str, pred: impl Fn(&str) -> bool) {
        let status = |s: &vt100::Screen| s.contents_between(ROWS - 1, 0, ROWS - 1, COLS);
        self.0
            .wait_until(what, TIMEOUT, |screen| pred(&status(screen)));
    }

    fn key(&mut self, bytes: &[u8]) {
        self.0.send(bytes);
    }

    /// Quits with `q`: the viewer exits cleanly and the terminal is cooked again.
    fn quit(mut self) {
        self.0.quit();
        assert!(self.0.cooked(), "cooked again");
    }
}

/// A line cut inside its JSON object, and inside its first multi-byte
/// character when it has one.
fn pieces(line: &str) -> Vec<&[u8]> {
    let bytes = line.as_bytes();
    let mut cuts = vec![bytes.len() / 2];
    if let Some(at) = bytes.iter().position(|&b| b >= 0xC0) {
        cuts.push(at + 1);
    }
    cuts.sort_unstable();
    cuts.dedup();
    let mut out = Vec::new();
    let mut start = 0;
    for cut in cuts {
        out.push(&bytes[start..cut]);
        start = cut;
    }
    out.push(&bytes[start..]);
    out
}

fn occurrences(screen: &str, text: &str) -> usize {
    screen.matches(text).count()
}

/// A check of the document area.
type Shows = fn(&str) -> bool;

/// What the screen shows once line `n` (1-based) of `streaming.ndjson` is
/// complete; `None` for lines that change nothing visible.
fn expectation(n: usize) -> Option<(&'static str, Shows)> {
    Some(match n {
        2 => ("the first turn", |s| s.contains("turn 1")),
        3 => ("the user's message", |s| {
            occurrences(s, "Summarize the build and tell the team.") == 1
        }),
        4 => ("the model", |s| s.contains("eve-mock/model")),
        5 => ("reasoning being written", |s| {
            s.contains("▾ thinking…") && occurrences(s, "The build log▍") == 1
        }),
        6 => ("more reasoning", |s| {
            occurrences(s, "The build log shows two warnings.▍") == 1
        }),
        7 => ("the completed reasoning", |s| {
            occurrences(s, "The build log shows two warnings.") == 1
                && !s.contains("thinking…")
                && !s.contains('▍')
        }),
        8 => ("the assistant typing", |s| {
            s.contains("assistant · typing…") && occurrences(s, "Checking the▍") == 1
        }),
        9 => ("more typing", |s| {
            occurrences(s, "Checking the log first.▍") == 1
        }),
        10 => ("the completed narration", |s| {
            occurrences(s, "Checking the log first.") == 1 && !s.contains("typing…")
        }),
        11 => ("arguments being written", |s| {
            s.contains("preparing send_channel_update arguments…")
        }),
        12 => ("the whole arguments", |s| {
            occurrences(s, "Build is green ✅\"}▍") == 1
        }),
        13 => ("the pending update", |s| {
            occurrences(s, "Build is green ✅") == 1
                && s.contains("update (send_channel_update)")
                && s.contains("pending")
                && !s.contains("preparing")
        }),
        14 => ("the step's tokens", |s| {
            s.contains("100 in / 10 out tokens")
        }),
        15 => ("the update delivered", |s| {
            s.contains("delivered") && !s.contains("pending")
        }),
        17 => ("the reply being typed", |s| {
            s.contains("assistant · typing…") && occurrences(s, "Zwei Warnungen,▍") == 1
        }),
        18 => ("the rest of the reply", |s| {
            occurrences(s, "keine Fehler — 日本語も大丈夫。▍") == 1
        }),
        19 => ("the final reply", |s| {
            s.contains("assistant · final reply")
                && occurrences(s, "keine Fehler — 日本語も大丈夫。") == 1
                && !s.contains("typing…")
                && !s.contains('▍')
        }),
        20 => ("the turn's tokens", |s| {
            s.contains("200 in / 20 out tokens")
        }),
        _ => return None,
    })
}

/// Writes lines `from..` of the stream to `out` in pieces; checks that a
/// half-written line shows nothing and a complete one shows within a second.
fn play(viewer: &Viewer, out: &mut impl Write, from: usize) {
    for (i, line) in STREAM.split_inclusive('\n').enumerate().skip(from) {
        let n = i + 1;
        let before = viewer.document();
        let parts = pieces(line);
        let (last, first) = parts.split_last().unwrap();
        for part in first {
            out.write_all(part).unwrap();
            out.flush().unwrap();
            std::thread::sleep(QUIET / first.len() as u32);
        }
        assert_eq!(
            viewer.document(),
            before,
            "line {n} half written changed the screen"
        );
        out.write_all(last).unwrap();
        out.flush().unwrap();
        if let Some((what, shows)) = expectation(n) {
            viewer.wait_within(PROMPT, &format!("line {n}: {what}"), shows);
        }
        // Let any later redraw land before the next line's check.
        viewer.settle();
    }
}

#[test]
fn a_growing_stream_file_shows_each_event_once_when_its_line_is_complete() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("session.ndjson");
    let head: String = STREAM.split_inclusive('\n').take(2).collect();
    std::fs::write(&path, head).unwrap();
    let viewer = Viewer::spawn(r#"exec "$0" "$1""#, &path);
    viewer.wait_status("following", |s| s.contains("● following"));
    viewer.wait_within(TIMEOUT, "the first turn", |s| s.contains("turn 1"));

    let mut file = OpenOptions::new().append(true).open(&path).unwrap();
    play(&viewer, &mut file, 2);
    viewer.wait_status("the session's end", |s| s.contains("○ finished"));
    viewer.quit();
}

#[test]
fn a_stream_piped_into_stdin_shows_live_and_keys_still_work() {
    let tmp = tempfile::tempdir().unwrap();
    let fifo = tmp.path().join("stream");
    let c_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    // stdin is the pipe; stdout, stderr and the controlling terminal the pty.
    let mut viewer = Viewer::spawn(r#"exec "$0" - < "$1""#, &fifo);
    // Blocks until the shell opens the pipe for reading.
    let mut pipe = OpenOptions::new().write(true).open(&fifo).unwrap();
    viewer.wait_status("following stdin", |s| s.contains("● following"));
    assert!(viewer.screen().contents().contains("standard input"));

    play(&viewer, &mut pipe, 0);
    // session.completed ends the session before the pipe closes.
    viewer.wait_status("the session's end", |s| s.contains("○ finished"));
    drop(pipe);
    std::thread::sleep(QUIET);
    assert!(viewer.status().contains("○ finished"));

    // Keys come from the terminal although stdin is the stream.
    viewer.key(b"v");
    viewer.wait_status("the user view", |s| s.contains("user"));
    viewer.key(b"v");
    viewer.wait_within(TIMEOUT, "the raw view", |s| {
        s.contains("line 22 · session.completed")
    });
    viewer.quit();
}

#[test]
fn a_pipe_closed_mid_stream_reads_as_finished() {
    let tmp = tempfile::tempdir().unwrap();
    let fifo = tmp.path().join("stream");
    let c_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    let viewer = Viewer::spawn(r#"exec "$0" - < "$1""#, &fifo);
    let mut pipe = OpenOptions::new().write(true).open(&fifo).unwrap();
    let head: String = STREAM.split_inclusive('\n').take(9).collect();
    pipe.write_all(head.as_bytes()).unwrap();
    pipe.flush().unwrap();
    viewer.wait_within(PROMPT * 5, "the assistant typing", |s| {
        s.contains("assistant · typing…")
    });
    assert!(viewer.status().contains("● following"));
    drop(pipe);
    viewer.wait_status("the end of the stream", |s| s.contains("○ finished"));
    viewer.wait_within(PROMPT, "the text left unfinished", |s| {
        s.contains("assistant · unfinished") && s.contains("Checking the log first.…")
    });
    viewer.quit();
}
