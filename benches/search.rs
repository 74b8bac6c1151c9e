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

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::process::{Scratch, Took, Words, available, median, run};
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;

const PROJECTS: usize = 20;
const SESSIONS_PER_PROJECT: usize = 36;
const TURNS: usize = 60;
const NEEDLE: &str = "quetzal-overflow-7731";

struct Home {
    /// Removed when the bench ends.
    _scratch: Scratch,
    home: PathBuf,
    bytes: u64,
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
    let scratch = Scratch::new("search");
    let home = scratch.root.join("home");
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
    Home {
        _scratch: scratch,
        home,
        bytes,
    }
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
    if !available("rg") {
        eprintln!("search: skipped: rg (ripgrep) is not on PATH");
        return;
    }
    let home = generate();
    let peak = run(&mut overhear(&home.home), true).peak_mib;
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("overhear search", |b| {
        b.iter_custom(|n| {
            (0..n)
                .map(|_| run(&mut overhear(&home.home), false).wall)
                .sum()
        })
    });
    group.bench_function("rg -F", |b| {
        b.iter_custom(|n| {
            (0..n)
                .map(|_| run(&mut ripgrep(&home.home), false).wall)
                .sum()
        })
    });
    group.finish();
    // The budget line: interleaved runs, medians.
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..9 {
        ours.push(run(&mut overhear(&home.home), false));
        theirs.push(run(&mut ripgrep(&home.home), false));
    }
    let wall = |t: &Took| t.wall;
    let (ours, theirs) = (median(ours, wall).wall, median(theirs, wall).wall);
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
