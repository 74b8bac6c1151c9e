//! `sessions`: what the picker (`p`) reads to list the sessions of a folder
//! (heads only, fast with thousands of sessions).
//!
//! The setup of `tests/it/discover_sessions.rs`, grown: 2,000 Codex sessions of
//! other folders (each a `session_meta` with 80 kB of instructions, then
//! garbage), 50 Codex sessions of the folder (their prompt after those 80 kB)
//! and 1,000 Claude Code sessions of the folder. Timed: the picker's listing,
//! `load::sessions::sessions_of` and each session's `title()` (its first
//! prompt). Baseline, in the same run: listing the same files with their
//! times and nothing read (the directory walks and `stat`s any listing needs).

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::Took;
use criterion::{Criterion, criterion_group, criterion_main};
use overhear::load::sessions::{Agents, sessions_of};
use overhear::source::sessions::{claude_sessions, codex_sessions};

/// The generated home and project, removed at the end.
struct Setup {
    root: PathBuf,
    home: PathBuf,
    project: PathBuf,
}

impl Setup {
    fn new() -> Setup {
        let root =
            std::env::temp_dir().join(format!("overhear-bench-sessions-{}", std::process::id()));
        let home = root.join("home");
        let project = root.join("work/my.app");
        std::fs::create_dir_all(&project).expect("project");
        let other = root.join("other");
        let codex = home.join(".codex/sessions/2026/11/30");
        std::fs::create_dir_all(&codex).expect("codex folder");
        let garbage = "\u{0}not json at all\n".repeat(20);
        let rollout = |cwd: &Path, prompt: &str| {
            let meta = serde_json::json!({"timestamp": "2026-11-30T10:00:00Z", "type": "session_meta",
                "payload": {"id": "x", "timestamp": "2026-11-30T10:00:00Z",
                    "cwd": cwd.to_string_lossy(), "originator": "codex_cli_rs",
                    "cli_version": "0.80.0", "instructions": "x".repeat(80_000)}});
            let user = serde_json::json!({"timestamp": "2026-11-30T10:00:01Z", "type": "event_msg",
                "payload": {"type": "user_message", "message": prompt}});
            format!("{meta}\n{user}\n{garbage}")
        };
        for n in 0..2000 {
            std::fs::write(
                codex.join(format!("rollout-o{n}.jsonl")),
                rollout(&other, "elsewhere"),
            )
            .expect("written");
        }
        for n in 0..50 {
            std::fs::write(
                codex.join(format!("rollout-m{n}.jsonl")),
                rollout(&project, "mine"),
            )
            .expect("written");
        }
        let slug = project.to_string_lossy().replace(['/', '.'], "-");
        let claude = home.join(".claude/projects").join(slug);
        std::fs::create_dir_all(&claude).expect("claude folder");
        for n in 0..1000 {
            let snapshot = serde_json::json!({"type": "file-history-snapshot", "messageId": "m",
                "snapshot": {"trackedFileBackups": {}}});
            let prompt = serde_json::json!({"type": "user", "uuid": format!("u{n}"), "sessionId": "s",
                "message": {"role": "user", "content": format!("Prompt {n}")}});
            let answer = serde_json::json!({"type": "assistant", "uuid": format!("a{n}"), "sessionId": "s",
                "message": {"id": format!("m{n}"), "role": "assistant",
                    "content": [{"type": "text", "text": "y".repeat(30_000)}]}});
            std::fs::write(
                claude.join(format!("s{n}.jsonl")),
                format!("{snapshot}\n{prompt}\n{answer}\n"),
            )
            .expect("written");
        }
        Setup {
            root,
            home,
            project,
        }
    }

    fn env(&self) -> impl Fn(&str) -> Option<String> + '_ {
        move |name: &str| (name == "HOME").then(|| self.home.display().to_string())
    }

    /// What the picker reads: the folder's sessions and each one's title.
    fn picker_listing(&self) -> usize {
        sessions_of(&self.project, &self.env(), Agents::ALL)
            .iter()
            .filter_map(|session| session.title())
            .count()
    }

    /// The baseline: the same files listed with their times, nothing read.
    fn file_listing(&self) -> usize {
        claude_sessions(&self.project, &self.env()).len() + codex_sessions(&self.env()).len()
    }
}

impl Drop for Setup {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn sessions(c: &mut Criterion) {
    let setup = Setup::new();
    assert_eq!(
        setup.picker_listing(),
        1050,
        "every session of the folder, titled"
    );
    assert_eq!(setup.file_listing(), 3050);
    let mut group = c.benchmark_group("sessions");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("picker listing (3,050 files)", |b| {
        b.iter(|| setup.picker_listing())
    });
    group.bench_function("baseline: files and times only", |b| {
        b.iter(|| setup.file_listing())
    });
    group.finish();

    let runs = 10;
    let picker = Took::median(
        &(0..runs)
            .map(|_| Took::of(|| setup.picker_listing()).1)
            .collect::<Vec<_>>(),
    );
    let files = Took::median(
        &(0..runs)
            .map(|_| Took::of(|| setup.file_listing()).1)
            .collect::<Vec<_>>(),
    );
    println!("sessions picker listing: {}", picker.ms());
    println!("sessions baseline (files and times): {}", files.ms());
    println!("sessions ratio: {:.1}x the baseline", picker.ratio(&files));
}

criterion_group!(benches, sessions);
criterion_main!(benches);
