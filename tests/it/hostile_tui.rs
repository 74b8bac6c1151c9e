//! The hostile corpus in the viewer, through a real pseudo-terminal:
//! the first screen of each input arrives in time and in bounded memory, and
//! nothing the conversation holds acts on the terminal — whatever is scrolled
//! through, viewed or copied. Bounds and measurements: docs/hardening.md.

use crate::common::effects;
use crate::common::inputs;

use crate::common;

use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

use serde_json::Value;

use effects::Effects;
use inputs::*;

const MIB: usize = 1024 * 1024;
const ROWS: u16 = 24;
const COLS: u16 = 80;

/// Peak memory bounds (MiB), from the measurements in docs/hardening.md.
const PEAK_50MB: f64 = 512.0;
const PEAK_MILLION: f64 = 1024.0;
const PEAK_MILLION_FULL: f64 = 512.0;
const PEAK_10MB: f64 = 2048.0;
const PEAK_SMALL: f64 = 256.0;

/// How long the first screen may take: 2 s in an optimized build (`cargo test
/// --release --test hostile_tui`); unoptimized code only guards against hangs.
fn first_screen_budget() -> Duration {
    if cfg!(debug_assertions) {
        Duration::from_secs(120)
    } else {
        Duration::from_secs(2)
    }
}

/// The viewer of [`common::pty::Viewer`] recording terminal [`Effects`],
/// timed from its start and alone on the machine while it runs.
struct Viewer {
    inner: common::pty::Viewer<Effects>,
    started: Instant,
    _one_at_a_time: std::sync::MutexGuard<'static, ()>,
}

/// The viewers of this file run one at a time: each measures its own time and
/// memory, which viewers laying out millions of lines beside it would distort.
fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static VIEWERS: Mutex<()> = Mutex::new(());
    VIEWERS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Viewer {
    /// Runs `overhear DIR ARGS…` in an 80×24 pseudo-terminal.
    fn start(dir: &Path, args: &[&str]) -> Viewer {
        let one_at_a_time = one_at_a_time();
        let mut cmd = common::pty::Viewer::command(dir, &dir.join("no-user-data"));
        cmd.arg(dir);
        for arg in args {
            cmd.arg(arg);
        }
        let started = Instant::now();
        Viewer {
            inner: common::pty::Viewer::start_with(cmd, ROWS, COLS, Effects::default()),
            started,
            _one_at_a_time: one_at_a_time,
        }
    }

    /// Waits until `pred` holds for the screen; returns the time since the start.
    fn wait_for(&self, what: &str, pred: impl Fn(&vt100::Screen) -> bool) -> Duration {
        let limit = first_screen_budget() + Duration::from_secs(30);
        self.inner
            .wait_until(what, limit.saturating_sub(self.started.elapsed()), pred);
        self.started.elapsed()
    }

    fn contents(&self) -> String {
        self.inner.screen().contents()
    }

    fn send(&mut self, bytes: &[u8]) {
        self.inner.send(bytes);
    }

    /// Peak resident memory so far, in MiB.
    fn peak_mib(&self) -> f64 {
        let pid = self.inner.pid();
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
        let kib: f64 = status
            .lines()
            .find(|l| l.starts_with("VmHWM:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|n| n.parse().ok())
            .unwrap();
        kib / 1024.0
    }

    /// Sends `q` and waits for a clean exit; returns what the terminal saw.
    fn quit(mut self) -> (Vec<String>, Vec<Vec<u8>>) {
        self.inner.quit();
        assert!(
            !self.inner.settled_screen().alternate_screen(),
            "the terminal was not given back"
        );
        self.inner.callbacks(|effects| {
            (
                std::mem::take(&mut effects.seen),
                std::mem::take(&mut effects.clipboard),
            )
        })
    }
}

/// A conversation folder holding `events`, and other files.
fn folder(events: &[Value], files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("events.json"),
        serde_json::to_vec_pretty(events).unwrap(),
    )
    .unwrap();
    for (name, bytes) in files {
        std::fs::write(dir.path().join(name), bytes).unwrap();
    }
    dir
}

/// Opens the viewer on `dir`, waits for the status bar and `needle`, checks the
/// time and memory bounds, quits, and returns what the terminal did.
fn first_screen(
    name: &str,
    dir: &Path,
    args: &[&str],
    needle: &str,
    peak_bound_mib: f64,
) -> Vec<String> {
    let viewer = Viewer::start(dir, args);
    let took = viewer.wait_for(needle, |s| {
        s.alternate_screen() && s.contents().contains(needle) && s.contents().contains("events")
    });
    let peak = viewer.peak_mib();
    let input: u64 = std::fs::metadata(dir.join("events.json")).unwrap().len();
    eprintln!(
        "hostile viewer: {name}: input {:.1} MiB, first screen {took:.2?}, peak {peak:.0} MiB",
        input as f64 / MIB as f64
    );
    assert!(
        took <= first_screen_budget(),
        "{name}: first screen after {took:?}"
    );
    assert!(
        peak <= peak_bound_mib,
        "{name}: peak {peak:.0} MiB > {peak_bound_mib} MiB"
    );
    let (effects, clipboard) = viewer.quit();
    assert!(clipboard.is_empty());
    effects
}

/// Keys that go through the whole conversation in every view: top, a page at a
/// time to the bottom, next view (three times), reasoning cycled.
fn tour(viewer: &mut Viewer) {
    for _ in 0..3 {
        viewer.send(b"g");
        for _ in 0..40 {
            viewer.send(b" ");
            std::thread::sleep(Duration::from_millis(10));
        }
        viewer.send(b"r");
        viewer.send(b"v");
        std::thread::sleep(Duration::from_millis(50));
    }
    viewer.send(b"G");
    std::thread::sleep(Duration::from_millis(200));
}

#[test]
fn every_escape_in_every_field_never_acts_on_the_terminal() {
    let base = custom_parameters_config();
    let files: [(&str, &[u8]); 2] = [
        ("base_config.json", &base),
        ("metadata.json", &hostile_metadata()),
    ];
    let hostile = folder(&hostile_events(), &files);
    let harmless = folder(
        &tool_result_events("harmless"),
        &[("base_config.json", &base)],
    );

    let mut viewer = Viewer::start(harmless.path(), &[]);
    viewer.wait_for("the harmless conversation", |s| {
        s.contents().contains("events")
    });
    tour(&mut viewer);
    let (expected, _) = viewer.quit();

    let mut viewer = Viewer::start(hostile.path(), &[]);
    viewer.wait_for("the sanitized title", |s| {
        s.contents().contains("titleCSI erase display: before")
    });
    tour(&mut viewer);
    // Copy the first tool card (its result holds every family).
    viewer.send(b"g}y");
    std::thread::sleep(Duration::from_millis(300));
    let (effects, clipboard) = viewer.quit();

    assert!(
        expected.iter().all(|e| !e.starts_with("title")),
        "{expected:?}"
    );
    let unexpected: Vec<&String> = effects.iter().filter(|e| !expected.contains(e)).collect();
    assert!(
        unexpected.is_empty(),
        "the conversation acted on the terminal: {unexpected:?}"
    );
    assert_eq!(clipboard.len(), 1, "one copy");
    use base64::Engine as _;
    let copied = base64::engine::general_purpose::STANDARD
        .decode(&clipboard[0])
        .unwrap();
    let copied = String::from_utf8(copied).unwrap();
    assert!(
        !copied
            .chars()
            .any(|c| c.is_control() && c != '\n' && c != '\t'),
        "control characters copied: {copied:?}"
    );
    assert!(
        copied.contains("CSI erase display: beforeafter"),
        "{copied:?}"
    );
}

#[test]
fn a_fifty_megabyte_message() {
    let dir = folder(&message_events(&prose(50 * MIB)), &[]);
    first_screen("50 MB message", dir.path(), &[], "about them.", PEAK_50MB);
}

#[test]
fn a_million_line_tool_result() {
    let dir = folder(&tool_result_events(&numbered_lines(1_000_000)), &[]);
    first_screen(
        "1,000,000-line result",
        dir.path(),
        &[],
        "done",
        PEAK_MILLION,
    );
}

#[test]
fn a_million_line_tool_result_in_full() {
    let dir = folder(&tool_result_events(&numbered_lines(1_000_000)), &[]);
    let set = [
        "--set",
        "conversation.tools.fs_read_file.style.inline_results=full",
    ];
    first_screen(
        "1,000,000-line result, full",
        dir.path(),
        &set,
        "done",
        PEAK_MILLION_FULL,
    );
}

#[test]
fn a_ten_megabyte_line_without_spaces() {
    let dir = folder(&message_events(&"x".repeat(10 * MIB)), &[]);
    first_screen("10 MB line", dir.path(), &[], &"x".repeat(70), PEAK_10MB);
}

#[test]
fn markdown_nested_a_thousand_deep() {
    let dir = folder(&message_events(&deep_markdown(1_000)), &[]);
    first_screen(
        "markdown 1,000 deep",
        dir.path(),
        &[],
        "quote 999",
        PEAK_SMALL,
    );
}

#[test]
fn a_table_with_five_hundred_columns() {
    let dir = folder(&message_events(&wide_table(500)), &[]);
    first_screen("500-column table", dir.path(), &[], "b499", PEAK_SMALL);
}

#[test]
fn zero_width_and_right_to_left_text_never_wraps_a_row() {
    let text = "zero\u{200b}width\u{200d}joiner שלום עולם مرحبا \u{202e}override\u{202c} \
                family 👨\u{200d}👩\u{200d}👧 e\u{301}\u{301} "
        .repeat(20);
    let dir = folder(&message_events(&text), &[]);
    let viewer = Viewer::start(dir.path(), &[]);
    viewer.wait_for("the text", |s| s.contents().contains("override"));
    std::thread::sleep(Duration::from_millis(300));
    let screen = viewer.inner.screen();
    for row in 0..ROWS {
        assert!(
            !screen.row_wrapped(row),
            "row {row} wrapped:\n{}",
            screen.contents()
        );
    }
    let (effects, _) = viewer.quit();
    assert!(
        effects.iter().all(|e| !e.starts_with("title")),
        "{effects:?}"
    );
}

#[test]
fn json_nested_ten_thousand_deep_is_a_one_line_error_and_the_terminal_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("events.json"), deep_array(10_000)).unwrap();
    let mut viewer = Viewer::start(dir.path(), &[]);
    let code = viewer.inner.exit_code();
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(code, 1);
    let expected = format!(
        "overhear: {}: line 1, column 128: nested deeper than 127 levels, more than overhear reads",
        dir.path().join("events.json").display()
    );
    let contents = viewer.contents();
    assert!(contents.contains(&expected), "{contents}");
    assert!(!viewer.inner.screen().alternate_screen());
}

#[test]
fn bom_and_crlf_files_open() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile");
    for (folder, needle) in [("bom", "BOM everywhere"), ("crlf", "line one line two")] {
        let viewer = Viewer::start(&fixtures.join(folder), &[]);
        viewer.wait_for(needle, |s| s.contents().contains(needle));
        viewer.quit();
    }
}

/// A viewer whose terminal goes away (the terminal emulator closed, the SSH
/// connection dropped) must end, not linger for hours holding the files open
/// (or spinning: crossterm's reader does, on a dead terminal).
#[test]
fn the_viewer_ends_when_its_terminal_is_closed() {
    ends_when_its_terminal_is_closed(false);
}

/// The same when no SIGHUP arrives (it is blocked here, as for a process the
/// kernel does not signal): the viewer notices the hang-up on its own.
#[test]
fn the_viewer_ends_when_its_terminal_is_closed_without_a_sighup() {
    ends_when_its_terminal_is_closed(true);
}

// The pty is read without a thread (non-blocking fcntl(2), read(2)), so that
// dropping the master closes its last descriptor: no safe wrapper does that.
#[allow(unsafe_code)]
fn ends_when_its_terminal_is_closed(block_sighup: bool) {
    let _one_at_a_time = one_at_a_time();
    let dir = folder(&message_events("hello there"), &[]);
    let pty = native_pty_system()
        .openpty(PtySize {
            rows: ROWS,
            cols: COLS,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut cmd = if block_sighup {
        // A blocked signal stays blocked across exec (perl is part of every
        // Debian system).
        let mut cmd = CommandBuilder::new("perl");
        cmd.args([
            "-MPOSIX",
            "-e",
            "sigprocmask(SIG_BLOCK, POSIX::SigSet->new(SIGHUP)) or die; exec @ARGV or die",
            env!("CARGO_BIN_EXE_overhear"),
        ]);
        cmd
    } else {
        CommandBuilder::new(env!("CARGO_BIN_EXE_overhear"))
    };
    cmd.arg(dir.path());
    cmd.env("TERM", "xterm-256color");
    cmd.env("JP_USER_DATA_DIR", dir.path().join("no-user-data"));
    common::pty::without_user_config(&mut cmd);
    let mut child = pty.slave.spawn_command(cmd).unwrap();
    drop(pty.slave);
    // Read without a thread, so that dropping the master closes its last descriptor.
    let fd = pty.master.as_raw_fd().unwrap();
    // SAFETY: `fd` is the open master of the pseudo-terminal.
    unsafe {
        libc::fcntl(
            fd,
            libc::F_SETFL,
            libc::fcntl(fd, libc::F_GETFL) | libc::O_NONBLOCK,
        )
    };
    let mut seen = Vec::new();
    let start = Instant::now();
    // ratatui skips unchanged cells: the words arrive apart.
    let drawn = |seen: &[u8]| {
        let text = String::from_utf8_lossy(seen);
        text.contains("hello") && text.contains("there") && text.contains("events")
    };
    while !drawn(&seen) {
        assert!(
            start.elapsed() < first_screen_budget() + Duration::from_secs(30),
            "no first screen"
        );
        let mut buf = [0u8; 65536];
        // SAFETY: reads into a buffer of the given length.
        let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
        if n > 0 {
            seen.extend_from_slice(&buf[..n as usize]);
        } else {
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    drop(pty.master);
    let closed = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert_eq!(status.exit_code(), 128 + libc::SIGHUP as u32);
            break;
        }
        if closed.elapsed() > Duration::from_secs(5) {
            child.kill().unwrap();
            panic!("the viewer was still running 5 s after its terminal closed");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
