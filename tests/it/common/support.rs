//! Helpers for the hostile corpus: writing conversations into temporary folders,
//! running the built binary while measuring its peak memory and time, and checking
//! that a terminal byte stream holds nothing but text, newlines and colour.

// Waits on the child through system calls with no safe wrapper; every
// unsafe block says why it is sound.
#![allow(unsafe_code)]

use std::ffi::OsStr;
use std::io::Read;
use std::num::NonZeroU16;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

/// One run of the `overhear` binary.
#[derive(Debug)]
pub struct Run {
    pub status: ExitStatus,
    pub stdout: Vec<u8>,
    pub stderr: String,
    /// Peak resident memory of the process (`VmHWM`, polled every 2 ms), in KiB.
    pub peak_kib: u64,
    pub elapsed: Duration,
    /// When the first screenful (24 lines) of stdout had arrived, or the output
    /// ended if it is shorter.
    pub first_screen: Duration,
}

/// Lines in a first screenful.
pub const SCREEN_ROWS: usize = 24;

impl Run {
    pub fn peak_mib(&self) -> f64 {
        self.peak_kib as f64 / 1024.0
    }

    /// Fails the test with the output when the run did not exit with `code`.
    pub fn expect_code(&self, code: i32) -> &Self {
        assert_eq!(
            self.status.code(),
            Some(code),
            "exit status {:?}; stderr:\n{}",
            self.status,
            self.stderr
        );
        self
    }
}

/// Runs the binary with `args`, collecting its output, peak memory and wall time.
// The child is reaped with `waitpid` below (after polling its memory), which
// clippy cannot see.
pub fn overhear<I, S>(args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    overhear_with(args, &[])
}

/// [`overhear`] with more environment variables.
pub fn overhear_with<I, S>(args: I, env: &[(&str, &str)]) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    overhear_fed(args, env, None)
}

/// [`overhear_with`], `stdin` written to its standard input through a pipe
/// (in the pieces a pipe hands over) when given, else none.
#[allow(clippy::zombie_processes)]
pub fn overhear_fed<I, S>(args: I, env: &[(&str, &str)], stdin: Option<Vec<u8>>) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let start = Instant::now();
    let mut child = crate::common::overhear()
        .args(args)
        .env_remove("OVERHEAR_CONFIG")
        .env_remove("OVERHEAR_MAX_BYTES")
        .envs(env.iter().copied())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let feeder = stdin.map(|bytes| {
        let mut pipe = child.stdin.take().expect("stdin is piped");
        std::thread::spawn(move || {
            use std::io::Write as _;
            // The reader may stop early (an error): a broken pipe is its answer.
            let _ = pipe.write_all(&bytes);
        })
    });
    let mut out = child.stdout.take().expect("stdout is piped");
    let mut err = child.stderr.take().expect("stderr is piped");
    let stdout = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let mut chunk = vec![0; 64 * 1024];
        let mut lines = 0;
        let mut first_screen = None;
        loop {
            let n = out.read(&mut chunk).expect("stdout is readable");
            if n == 0 {
                break;
            }
            lines += chunk[..n].iter().filter(|b| **b == b'\n').count();
            if lines >= SCREEN_ROWS && first_screen.is_none() {
                first_screen = Some(start.elapsed());
            }
            buf.extend_from_slice(&chunk[..n]);
        }
        (buf, first_screen.unwrap_or_else(|| start.elapsed()))
    });
    let stderr = std::thread::spawn(move || {
        let mut buf = Vec::new();
        err.read_to_end(&mut buf).expect("stderr is readable");
        buf
    });
    let pid = libc::pid_t::try_from(child.id()).expect("pid fits");
    // Peak memory is the child's own VmHWM, polled: `ru_maxrss` would include the
    // test process's memory, which the child inherits until it calls exec.
    let exited = Arc::new(AtomicBool::new(false));
    let poller = {
        let exited = Arc::clone(&exited);
        std::thread::spawn(move || {
            let mut peak = 0;
            while !exited.load(Ordering::Acquire) {
                peak = peak.max(vm_hwm_kib(pid).unwrap_or(0));
                std::thread::sleep(Duration::from_millis(2));
            }
            peak
        })
    };
    // Wait for the exit without reaping, so the pid cannot be reused while polled.
    // SAFETY: `siginfo_t` is plain data, written by `waitid`.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child; the pointer is valid for the call.
    let waited = unsafe {
        libc::waitid(
            libc::P_PID,
            pid as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOWAIT,
        )
    };
    assert_eq!(
        waited,
        0,
        "waitid failed: {}",
        std::io::Error::last_os_error()
    );
    exited.store(true, Ordering::Release);
    let peak_kib = poller.join().expect("memory poller");
    if let Some(feeder) = feeder {
        feeder.join().expect("stdin feeder");
    }
    let mut raw_status = 0;
    // SAFETY: reaps our own exited child; the pointer is valid for the call.
    let reaped = unsafe { libc::waitpid(pid, &mut raw_status, 0) };
    assert_eq!(
        reaped,
        pid,
        "waitpid failed: {}",
        std::io::Error::last_os_error()
    );
    let elapsed = start.elapsed();
    let (stdout, first_screen) = stdout.join().expect("stdout reader");
    Run {
        status: ExitStatus::from_raw(raw_status),
        stdout,
        first_screen,
        stderr: String::from_utf8_lossy(&stderr.join().expect("stderr reader")).into_owned(),
        peak_kib,
        elapsed,
    }
}

/// The `VmHWM` (peak resident set) of process `pid`, in KiB, while it runs.
fn vm_hwm_kib(pid: libc::pid_t) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A JP conversation folder in a temporary directory.
pub struct Conversation {
    pub dir: tempfile::TempDir,
}

impl Conversation {
    /// A folder whose `events.json` holds exactly `events_json`.
    pub fn from_bytes(events_json: &[u8]) -> Self {
        let dir = tempfile::tempdir().expect("a temporary folder");
        std::fs::write(dir.path().join("events.json"), events_json).expect("events.json written");
        Conversation { dir }
    }

    /// A folder whose `events.json` is `events` as JP writes it (pretty, 2 spaces).
    pub fn from_events(events: &[Value]) -> Self {
        let bytes = serde_json::to_vec_pretty(events).expect("events serialize");
        Self::from_bytes(&bytes)
    }

    /// Adds another file (`base_config.json`, `metadata.json`) to the folder.
    pub fn with_file(self, name: &str, bytes: &[u8]) -> Self {
        std::fs::write(self.dir.path().join(name), bytes).expect("file written");
        self
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn events_path(&self) -> PathBuf {
        self.dir.path().join("events.json")
    }

    pub fn events_len(&self) -> u64 {
        std::fs::metadata(self.events_path())
            .expect("events.json exists")
            .len()
    }
}

/// Why a byte stream meant for a terminal is not safe.
pub fn unsafe_bytes(output: &[u8]) -> Option<String> {
    let text = match std::str::from_utf8(output) {
        Ok(text) => text,
        Err(err) => return Some(format!("not UTF-8: {err}")),
    };
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '\n' => {}
            '\u{1b}' => {
                // Only SGR (`ESC [ digits/; m`) may appear, and never conceal (8).
                let rest = &text[at + 1..];
                let Some(body) = rest.strip_prefix('[') else {
                    return Some(format!(
                        "escape other than CSI at byte {at}: {:?}",
                        snippet(text, at)
                    ));
                };
                let end = body
                    .find(|c: char| !(c.is_ascii_digit() || c == ';' || c == ':'))
                    .unwrap_or(body.len());
                if !body[end..].starts_with('m') {
                    return Some(format!(
                        "CSI other than SGR at byte {at}: {:?}",
                        snippet(text, at)
                    ));
                }
                let params = &body[..end];
                if crate::common::sgr::conceals(params) {
                    return Some(format!(
                        "SGR 8 (conceal) at byte {at}: {:?}",
                        snippet(text, at)
                    ));
                }
                for _ in 0..=end + 1 {
                    chars.next();
                }
            }
            c if c.is_control() => {
                return Some(format!(
                    "control character {c:?} at byte {at}: {:?}",
                    snippet(text, at)
                ));
            }
            _ => {}
        }
    }
    None
}

fn snippet(text: &str, at: usize) -> String {
    text[at..].chars().take(24).collect()
}

/// Feeds `output` to a terminal of `cols` columns tall enough to hold it (at most
/// 4000 rows), and
/// returns the screen's text and every non-drawing effect it triggered.
pub fn terminal(output: &[u8], cols: u16) -> (String, vt100::Screen, Vec<String>) {
    let rows = (output.iter().filter(|b| **b == b'\n').count() + 2).min(4000);
    let rows = NonZeroU16::new(u16::try_from(rows).unwrap_or(4000)).expect("rows > 0");
    let cols = NonZeroU16::new(cols).expect("cols > 0");
    let mut parser = vt100::Parser::new_with_callbacks(
        rows,
        cols,
        0,
        crate::common::effects::Effects::default(),
    );
    // A terminal's line discipline turns `\n` into `\r\n` (`onlcr`); do the same.
    let mut translated = Vec::with_capacity(output.len() + usize::from(rows.get()));
    for &b in output {
        if b == b'\n' {
            translated.push(b'\r');
        }
        translated.push(b);
    }
    parser.process(&translated);
    let screen = parser.screen().clone();
    let effects = parser.callbacks_mut();
    let mut seen = std::mem::take(&mut effects.seen);
    seen.extend(
        effects
            .clipboard
            .iter()
            .map(|data| format!("clipboard {:?}", String::from_utf8_lossy(data))),
    );
    (screen.contents(), screen, seen)
}
