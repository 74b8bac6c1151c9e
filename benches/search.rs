//! `search`: `overhear search --all-projects` over a generated home of
//! Claude Code sessions, against ripgrep over the same files in the same run
//! (`rg --hidden --no-ignore -F`, the budget's baseline: ≤ 2× its wall time).
//!
//! The home: 720 sessions of 20 projects, ~400 kB each (~290 MB): prompts,
//! replies, Bash calls and results of generated words. A needle is planted
//! in two sessions (a prompt, a tool result), so most files are read by the
//! prefilter and skipped, two are decoded. Timed, as whole processes: wall
//! time (median of interleaved runs), and the peak resident memory of
//! `overhear`'s. Without `rg` on `PATH` the bench says so and stops.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;

const PROJECTS: usize = 20;
const SESSIONS_PER_PROJECT: usize = 36;
const TURNS: usize = 60;
const NEEDLE: &str = "quetzal-overflow-7731";

struct Home {
    root: PathBuf,
    home: PathBuf,
    bytes: u64,
}

impl Drop for Home {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// A deterministic word stream (xorshift over a fixed vocabulary).
struct Words(u64);

impl Words {
    fn next(&mut self) -> &'static str {
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

    fn text(&mut self, words: usize) -> String {
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

fn session(words: &mut Words, id: &str, cwd: &str, plant: Option<&str>) -> String {
    let mut out = String::new();
    let mut line = |kind: &str, n: usize, message: serde_json::Value| {
        let record = json!({"type": kind, "uuid": format!("{id}-{n}"), "sessionId": id,
            "cwd": cwd, "timestamp": format!("2026-11-30T10:{:02}:{:02}.000Z", n / 60 % 60, n % 60),
            "message": message});
        out.push_str(&record.to_string());
        out.push('\n');
    };
    for turn in 0..TURNS {
        let n = turn * 4;
        let mut prompt = words.text(30);
        if turn == 7 && plant == Some("prompt") {
            prompt.push_str(&format!(" {NEEDLE}"));
        }
        line("user", n, json!({"role": "user", "content": prompt}));
        line(
            "assistant",
            n + 1,
            json!({"id": format!("m{n}"), "role": "assistant", "content": [
                {"type": "text", "text": words.text(120)},
                {"type": "tool_use", "id": format!("t{n}"), "name": "Bash",
                 "input": {"command": format!("cargo test {}", words.next())}}]}),
        );
        let mut result = words.text(500);
        if turn == 30 && plant == Some("result") {
            result.push_str(&format!("\nthread panicked: {NEEDLE}"));
        }
        line(
            "user",
            n + 2,
            json!({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": format!("t{n}"), "content": result}]}),
        );
        line(
            "assistant",
            n + 3,
            json!({"id": format!("r{n}"), "role": "assistant", "content": [
                {"type": "text", "text": words.text(200)}]}),
        );
    }
    out
}

fn generate() -> Home {
    let root = std::env::temp_dir().join(format!("overhear-bench-search-{}", std::process::id()));
    let home = root.join("home");
    let mut words = Words(0x9E37_79B9_7F4A_7C15);
    let mut bytes = 0;
    for project in 0..PROJECTS {
        let cwd = format!("/work/project-{project}");
        let folder = home.join(".claude/projects").join(cwd.replace('/', "-"));
        std::fs::create_dir_all(&folder).expect("project folder");
        for n in 0..SESSIONS_PER_PROJECT {
            let id = format!("{project:04}{n:04}-0000-4000-8000-000000000000");
            let plant = match (project, n) {
                (3, 5) => Some("prompt"),
                (11, 0) => Some("result"),
                _ => None,
            };
            let text = session(&mut words, &id, &cwd, plant);
            bytes += text.len() as u64;
            std::fs::write(folder.join(format!("{id}.jsonl")), text).expect("session");
        }
    }
    Home { root, home, bytes }
}

/// Wall time of `command`.
fn run(command: &mut Command) -> Duration {
    let start = Instant::now();
    let output = command.output().expect("the command runs");
    let took = start.elapsed();
    assert!(
        output.status.code() == Some(0),
        "{command:?}: {:?}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    took
}

/// The peak resident memory of the process `command` starts, in MiB:
/// its `VmHWM`, read every millisecond while it runs (the figure `getrusage`
/// gives counts the bench's own pages, shared with the child until `exec`).
fn peak_mib(command: &mut Command) -> f64 {
    let mut child = command
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("the command runs");
    let status = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0u64;
    loop {
        if let Ok(text) = std::fs::read_to_string(&status)
            && let Some(kib) = text
                .lines()
                .find_map(|line| line.strip_prefix("VmHWM:"))
                .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        {
            peak_kib = peak_kib.max(kib);
        }
        if child
            .try_wait()
            .expect("the child can be waited for")
            .is_some()
        {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    peak_kib as f64 / 1024.0
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn overhear(home: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_overhear"));
    command
        .args(["search", NEEDLE, "--all-projects", "--json"])
        .env("HOME", home)
        .env_remove("CODEX_HOME")
        .env_remove("CLAUDE_CONFIG_DIR");
    command
}

fn ripgrep(home: &Path) -> Command {
    let mut command = Command::new("rg");
    command
        .args(["--hidden", "--no-ignore", "-F", NEEDLE])
        .arg(home.join(".claude"));
    command
}

fn bench(c: &mut Criterion) {
    if Command::new("rg").arg("--version").output().is_err() {
        eprintln!("search: skipped: rg (ripgrep) is not on PATH");
        return;
    }
    let home = generate();
    let peak = peak_mib(&mut overhear(&home.home));
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("overhear search", |b| {
        b.iter_custom(|n| (0..n).map(|_| run(&mut overhear(&home.home))).sum())
    });
    group.bench_function("rg -F", |b| {
        b.iter_custom(|n| (0..n).map(|_| run(&mut ripgrep(&home.home))).sum())
    });
    group.finish();
    // The budget line: interleaved runs, medians.
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..9 {
        ours.push(run(&mut overhear(&home.home)));
        theirs.push(run(&mut ripgrep(&home.home)));
    }
    let (ours, theirs) = (median(ours), median(theirs));
    let hits = overhear(&home.home).output().expect("runs").stdout;
    let hits = hits.iter().filter(|&&b| b == b'\n').count();
    println!(
        "search {:.0} MB in {} files, {hits} hits: overhear {:.1} ms, rg {:.1} ms, ratio {:.2} (budget <= 2); overhear's peak RSS {peak:.1} MiB (budget <= 64)",
        home.bytes as f64 / 1e6,
        PROJECTS * SESSIONS_PER_PROJECT,
        ours.as_secs_f64() * 1e3,
        theirs.as_secs_f64() * 1e3,
        ours.as_secs_f64() / theirs.as_secs_f64()
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
