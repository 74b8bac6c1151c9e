//! `export`: a generated Claude Code transcript (100 MB; deterministic)
//! exported to HTML by the `overhear` binary, against Python's line-by-line
//! `json.loads` of the same file measured in the same run — the budget's
//! baseline: the export in ≤ 3× its CPU time, with a peak resident memory
//! ≤ 1.5× the file.
//!
//! Timed as whole processes: CPU time (user + system, from `getrusage` of
//! the reaped child; medians of interleaved runs) and the peak resident
//! memory of the export (`VmHWM`, polled). `OVERHEAR_BENCH_EXPORT_MB` sets
//! the size (default 100). Criterion also times a 5 MB export, for
//! comparing builds. Without `python3` the bench says so and stops.

mod common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::process::{Scratch, Took, Words, available, median, python_json_loads, run};
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;

/// A Claude Code transcript of at least `bytes` bytes: turns of a prompt,
/// a reply with a Bash call, its result, and a final reply with usage.
fn transcript(bytes: usize) -> String {
    let id = "be5c0000-0000-4000-8000-0000000e4907";
    let mut words = Words(0x9E37_79B9_7F4A_7C15);
    let mut out = String::with_capacity(bytes + 8192);
    let mut n = 0usize;
    let mut turns = 0usize;
    while out.len() < bytes {
        let turn = turns;
        turns += 1;
        let mut line = |kind: &str, message: serde_json::Value| {
            let at = format!(
                "2026-11-{:02}T{:02}:{:02}:{:02}.000Z",
                1 + n / 86_400 % 28,
                n / 3600 % 24,
                n / 60 % 60,
                n % 60
            );
            let record = json!({"type": kind, "uuid": format!("u{n}"), "sessionId": id,
                "cwd": "/work/project", "timestamp": at, "message": message});
            out.push_str(&record.to_string());
            out.push('\n');
            n += 1;
        };
        line("user", json!({"role": "user", "content": words.text(30)}));
        line(
            "assistant",
            json!({"id": format!("m{turn}"), "role": "assistant", "model": "claude-sonnet-4-5",
                "usage": {"input_tokens": 1200, "output_tokens": 80},
                "content": [
                {"type": "text", "text": words.text(120)},
                {"type": "tool_use", "id": format!("t{turn}"), "name": "Bash",
                 "input": {"command": format!("cargo test {}", words.next())}}]}),
        );
        line(
            "user",
            json!({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": format!("t{turn}"), "content": words.text(500)}]}),
        );
        line(
            "assistant",
            json!({"id": format!("r{turn}"), "role": "assistant", "model": "claude-sonnet-4-5",
                "usage": {"input_tokens": 1500, "output_tokens": 200},
                "content": [{"type": "text", "text": words.text(200)}]}),
        );
    }
    out
}

fn export(file: &Path, out: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_overhear"));
    command
        .args(["export", "--format", "html", "-o"])
        .arg(out)
        .arg(file)
        .env_remove("OVERHEAR_CONFIG");
    command
}

/// Bytes in a MiB.
const MIB: f64 = 1_048_576.0;

fn bench(c: &mut Criterion) {
    if !available("python3") {
        eprintln!("export: skipped: python3 is not on PATH");
        return;
    }
    let files = Scratch::new("export");
    let small = files.root.join("small.jsonl");
    std::fs::write(&small, transcript(5 << 20)).expect("the small transcript");
    let out = files.root.join("out.html");
    let mut group = c.benchmark_group("export");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("overhear export 5 MB to HTML", |b| {
        b.iter_custom(|n| {
            (0..n)
                .map(|_| run(&mut export(&small, &out), false).cpu)
                .sum()
        })
    });
    group.bench_function("python3 json.loads 5 MB", |b| {
        b.iter_custom(|n| {
            (0..n)
                .map(|_| run(&mut python_json_loads(&small), false).cpu)
                .sum()
        })
    });
    group.finish();

    let mb: usize = std::env::var("OVERHEAR_BENCH_EXPORT_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let big = files.root.join("big.jsonl");
    let text = transcript(mb * 1_000_000);
    let bytes = text.len();
    std::fs::write(&big, text).expect("the transcript");
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        ours.push(run(&mut export(&big, &out), true));
        theirs.push(run(&mut python_json_loads(&big), false));
    }
    let cpu = |t: &Took| t.cpu;
    let (ours, theirs) = (median(ours, cpu), median(theirs, cpu));
    let file_mib = bytes as f64 / MIB;
    let page_mib = std::fs::metadata(&out).map_or(0.0, |m| m.len() as f64 / MIB);
    println!(
        "export {:.0} MB Claude Code transcript to HTML ({page_mib:.1} MiB page): overhear {:.2} s CPU, \
         python3 json.loads {:.2} s CPU, ratio {:.2} (budget <= 3); overhear's peak RSS {:.0} MiB = \
         {:.2}x the file (budget <= 1.5)",
        bytes as f64 / 1e6,
        ours.cpu.as_secs_f64(),
        theirs.cpu.as_secs_f64(),
        ours.cpu.as_secs_f64() / theirs.cpu.as_secs_f64(),
        ours.peak_mib,
        ours.peak_mib / file_mib,
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
