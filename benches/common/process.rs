//! Whole processes timed against a baseline program run in the same bench
//! (`export`: Python's `json.loads`; `search`: ripgrep): a generated text
//! to feed them, a scratch folder, and the figures of one run — wall time,
//! CPU time (user + system of the reaped child) and peak resident memory.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A deterministic word stream (xorshift over a fixed vocabulary): the text
/// of generated transcripts.
pub struct Words(pub u64);

impl Words {
    /// The next word.
    pub fn next(&mut self) -> &'static str {
        const VOCABULARY: &[&str] = &[
            "the",
            "build",
            "fails",
            "because",
            "cargo",
            "test",
            "src/main.rs",
            "error",
            "let",
            "value",
            "returns",
            "Result",
            "println!",
            "config",
            "path",
            "reads",
            "file",
            "into",
            "string",
            "async",
            "handler",
            "request",
            "timeout",
            "retry",
            "match",
            "Some",
            "None",
            "vector",
            "index",
            "slice",
            "parser",
            "token",
            "line",
            "column",
            "warning",
            "unused",
        ];
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        VOCABULARY[(self.0 % VOCABULARY.len() as u64) as usize]
    }

    /// `words` words, twelve to a line.
    pub fn text(&mut self, words: usize) -> String {
        let mut out = String::new();
        for i in 0..words {
            if i > 0 {
                out.push(if i % 12 == 0 { '\n' } else { ' ' });
            }
            out.push_str(self.next());
        }
        out
    }
}

/// A folder in the temporary folder, removed with everything in it when
/// dropped.
pub struct Scratch {
    /// The folder.
    pub root: PathBuf,
}

impl Scratch {
    /// `overhear-bench-NAME-PID`, created.
    pub fn new(name: &str) -> Scratch {
        let root =
            std::env::temp_dir().join(format!("overhear-bench-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&root).expect("a temporary folder");
        Scratch { root }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// What one process took.
#[derive(Debug, Clone, Copy, Default)]
pub struct Took {
    /// Elapsed time, from spawning to reaping.
    pub wall: Duration,
    /// User + system time of the process.
    pub cpu: Duration,
    /// Peak resident memory (`VmHWM`) in MiB; 0 when not polled.
    pub peak_mib: f64,
}

/// Runs `command` to its end (its output dropped), which must succeed.
/// With `peak`, its `VmHWM` is read every millisecond while it runs (the
/// figure `getrusage` gives counts the bench's own pages, shared with the
/// child until `exec`); without, the bench only waits.
pub fn run(command: &mut Command, peak: bool) -> Took {
    let cpu = children_cpu();
    let start = Instant::now();
    let mut child = command
        .stdout(Stdio::null())
        .spawn()
        .expect("the command runs");
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0u64;
    let status = loop {
        if !peak {
            break child.wait().expect("the child can be waited for");
        }
        if let Ok(text) = std::fs::read_to_string(&status_file)
            && let Some(kib) = text
                .lines()
                .find_map(|line| line.strip_prefix("VmHWM:"))
                .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        {
            peak_kib = peak_kib.max(kib);
        }
        if let Some(status) = child.try_wait().expect("the child can be waited for") {
            break status;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    let wall = start.elapsed();
    assert!(status.success(), "{command:?}: {status:?}");
    Took {
        wall,
        cpu: children_cpu() - cpu,
        peak_mib: peak_kib as f64 / 1024.0,
    }
}

/// The median run by `key`, with the largest peak of all of them.
pub fn median(mut runs: Vec<Took>, key: fn(&Took) -> Duration) -> Took {
    runs.sort_by_key(key);
    let mut middle = runs[runs.len() / 2];
    middle.peak_mib = runs.iter().map(|t| t.peak_mib).fold(0.0, f64::max);
    middle
}

/// User + system time of this process's reaped children.
#[allow(unsafe_code)]
fn children_cpu() -> Duration {
    // SAFETY: getrusage fills the struct it is given and nothing else.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    time(usage.ru_utime) + time(usage.ru_stime)
}

/// Python's line-by-line `json.loads` of `file`: the baseline of budgets
/// on reading a transcript.
pub fn python_json_loads(file: &Path) -> Command {
    let mut command = Command::new("python3");
    command
        .args([
            "-c",
            "import json, sys\nwith open(sys.argv[1], 'rb') as f:\n    for line in f:\n        json.loads(line)\n",
        ])
        .arg(file);
    command
}

/// Python's `json.load` of the JSON document `file` (a JP `events.json`):
/// the baseline of issue 30's measures.
pub fn python_json_load(file: &Path) -> Command {
    let mut command = Command::new("python3");
    command
        .args([
            "-c",
            "import json, sys\njson.load(open(sys.argv[1], 'rb'))\n",
        ])
        .arg(file);
    command
}

/// Whether `program` runs (`program --version`).
pub fn available(program: &str) -> bool {
    Command::new(program).arg("--version").output().is_ok()
}
