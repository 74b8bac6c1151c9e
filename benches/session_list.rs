//! `session_list`: what `overhear sessions --all-projects` does for 10,000
//! sessions (docs/sessions.md): the selection (directory walks, heads) and
//! each session's figures and cost, a Claude Code transcript by its scan,
//! a Codex rollout read whole by its reader. Measured beside it, in the same
//! run: the same listing with every session read whole (as before the
//! scan), which must give the same figures.
//!
//! Generated: 8,000 Claude Code sessions in 100 project folders (a prompt,
//! a tool call and its result, a reply, usage on each response; ~3 kB each)
//! and 2,000 Codex rollouts (a prompt, a reply, a `token_count`). Baseline,
//! in the same run: the same 10,000 files listed with their times, nothing
//! read (the directory walks and `stat`s any listing needs).

mod common;

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use common::Took;
use criterion::{Criterion, criterion_group, criterion_main};
use overhear::load::sessions::{Agents, every_session};
use overhear::search::{self, Kinds, Scope, whole_figures};
use serde_json::json;

/// How many sessions of each agent.
const CLAUDE: usize = 8_000;
const CODEX: usize = 2_000;

/// The generated home, removed at the end.
struct Setup {
    root: PathBuf,
    home: PathBuf,
}

impl Setup {
    fn new() -> Setup {
        let root = std::env::temp_dir().join(format!("overhear-bench-list-{}", std::process::id()));
        let home = root.join("home");
        for n in 0..CLAUDE {
            let project = format!("/work/project{}", n % 100);
            let dir = home
                .join(".claude/projects")
                .join(project.replace('/', "-"));
            if n < 100 {
                std::fs::create_dir_all(&dir).expect("claude folder");
            }
            let usage = |i: u64| {
                json!({"input_tokens": 10 + i, "cache_creation_input_tokens": 500,
                "cache_read_input_tokens": 20_000 + i, "output_tokens": 300})
            };
            let line = |kind: &str, uuid: &str, second: u32, message: serde_json::Value| {
                json!({"type": kind, "uuid": uuid, "sessionId": format!("s{n}"), "cwd": project,
                    "timestamp": format!("2026-11-30T10:00:{second:02}.000Z"), "message": message})
                .to_string()
            };
            let lines = [
                line(
                    "user",
                    "u1",
                    0,
                    json!({"role": "user", "content": format!("Fix bug {n} in the parser")}),
                ),
                line(
                    "assistant",
                    "a1",
                    2,
                    json!({"id": "m1", "model": "claude-sonnet-4-5-20250929",
                    "role": "assistant", "usage": usage(1),
                    "content": [{"type": "tool_use", "id": "t1", "name": "Bash",
                        "input": {"command": "cargo test parser"}}]}),
                ),
                line(
                    "user",
                    "u2",
                    5,
                    json!({"role": "user", "content": [{"type": "tool_result",
                    "tool_use_id": "t1", "is_error": n % 7 == 0,
                    "content": "test parser::tests::it_reads ... ok\n".repeat(20)}]}),
                ),
                line(
                    "assistant",
                    "a2",
                    9,
                    json!({"id": "m2", "model": "claude-sonnet-4-5-20250929",
                    "role": "assistant", "usage": usage(2),
                    "content": [{"type": "text", "text": "The parser reads it now. ".repeat(20)}]}),
                ),
            ];
            std::fs::write(dir.join(format!("s{n}.jsonl")), lines.join("\n") + "\n")
                .expect("written");
        }
        let codex = home.join(".codex/sessions/2026/11/30");
        std::fs::create_dir_all(&codex).expect("codex folder");
        for n in 0..CODEX {
            let line = |second: u32, kind: &str, payload: serde_json::Value| {
                json!({"timestamp": format!("2026-11-30T11:00:{second:02}.000Z"), "type": kind,
                    "payload": payload})
                .to_string()
            };
            let lines = [
                line(
                    0,
                    "session_meta",
                    json!({"id": format!("c{n}"), "timestamp": "2026-11-30T11:00:00Z",
                    "cwd": format!("/work/project{}", n % 100), "originator": "codex_cli_rs",
                    "cli_version": "0.80.0"}),
                ),
                line(
                    1,
                    "turn_context",
                    json!({"cwd": "/work", "model": "gpt-5-codex"}),
                ),
                line(
                    1,
                    "event_msg",
                    json!({"type": "user_message", "message": format!("Task {n}"),
                    "kind": "plain"}),
                ),
                line(
                    4,
                    "event_msg",
                    json!({"type": "agent_message", "message": "Done. ".repeat(40)}),
                ),
                line(
                    5,
                    "event_msg",
                    json!({"type": "token_count", "info": {"total_token_usage":
                    {"input_tokens": 20_000, "cached_input_tokens": 15_000, "output_tokens": 1_200}}}),
                ),
                line(6, "event_msg", json!({"type": "task_complete"})),
            ];
            std::fs::write(
                codex.join(format!("rollout-2026-11-30T11-00-00-{n}.jsonl")),
                lines.join("\n") + "\n",
            )
            .expect("written");
        }
        Setup { root, home }
    }

    fn env(&self) -> impl Fn(&str) -> Option<String> + '_ {
        move |name: &str| (name == "HOME").then(|| self.home.display().to_string())
    }

    /// What `overhear sessions --all-projects` does before printing: the
    /// selection, then every session read for its figures, on every core.
    fn listing(&self) -> usize {
        let kinds = Kinds {
            agents: Agents::ALL,
            jp: false,
        };
        let chosen = search::sessions(
            &Scope::AllProjects(self.root.clone()),
            kinds,
            &[],
            &self.env(),
        );
        let threads = std::thread::available_parallelism().map_or(2, usize::from);
        search::list(chosen, threads, SystemTime::now())
            .iter()
            .filter(|listed| listed.figures.as_ref().is_ok_and(|f| f.cost.costed == 1))
            .count()
    }

    /// The same listing with every session read whole by its reader, on
    /// every core (what `overhear sessions` did before the scan): each
    /// session's title and figures.
    fn whole_listing(&self) -> Vec<(Option<String>, Result<overhear::usage::Summary, String>)> {
        let kinds = Kinds {
            agents: Agents::ALL,
            jp: false,
        };
        let chosen = search::sessions(
            &Scope::AllProjects(self.root.clone()),
            kinds,
            &[],
            &self.env(),
        );
        let threads = std::thread::available_parallelism().map_or(2, usize::from);
        let chunk = chosen.len().div_ceil(threads).max(1);
        std::thread::scope(|scope| {
            let parts: Vec<_> = chosen
                .chunks(chunk)
                .map(|part| {
                    scope.spawn(move || {
                        part.iter()
                            .map(|s| {
                                let (title, figures) = whole_figures(&s.target.open);
                                (title, figures.map_err(|e| e.to_string()))
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            parts
                .into_iter()
                .flat_map(|part| part.join().expect("a reading thread"))
                .collect()
        })
    }

    /// The listing's titles and figures, in the selection's order.
    fn listed(&self) -> Vec<(Option<String>, Result<overhear::usage::Summary, String>)> {
        let kinds = Kinds {
            agents: Agents::ALL,
            jp: false,
        };
        let chosen = search::sessions(
            &Scope::AllProjects(self.root.clone()),
            kinds,
            &[],
            &self.env(),
        );
        search::list(chosen, 2, SystemTime::now())
            .into_iter()
            .map(|listed| (listed.title, listed.figures.map_err(|e| e.to_string())))
            .collect()
    }

    /// The baseline: the same files listed with their times, nothing read.
    fn file_listing(&self) -> usize {
        every_session(&self.env(), Agents::ALL).len()
    }
}

impl Drop for Setup {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn session_list(c: &mut Criterion) {
    let setup = Setup::new();
    // Each session has one turn, priced: Claude Code's from its usage,
    // Codex's from its `token_count`.
    assert_eq!(setup.listing(), CLAUDE + CODEX, "every session priced");
    assert_eq!(setup.file_listing(), CLAUDE + CODEX);
    assert!(
        setup.listed() == setup.whole_listing(),
        "the scan's figures are the full reader's"
    );
    let mut group = c.benchmark_group("session_list");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("sessions --all-projects (10,000 sessions)", |b| {
        b.iter(|| setup.listing())
    });
    group.bench_function("every session read whole (10,000 sessions)", |b| {
        b.iter(|| setup.whole_listing().len())
    });
    group.bench_function("baseline: files and times only", |b| {
        b.iter(|| setup.file_listing())
    });
    group.finish();

    // CPU time of the whole process: the listing reads on every core.
    let runs = 5;
    let median = |f: &dyn Fn() -> usize| {
        Took::median(&(0..runs).map(|_| Took::of_process(f).1).collect::<Vec<_>>())
    };
    let listing = median(&|| setup.listing());
    let whole = median(&|| setup.whole_listing().len());
    let files = median(&|| setup.file_listing());
    let wall = |took: &Took, base: &Took| took.wall.as_secs_f64() / base.wall.as_secs_f64();
    println!("sessions listing of 10,000: {}", listing.ms());
    println!("sessions read whole (before the scan): {}", whole.ms());
    println!("sessions baseline (files and times): {}", files.ms());
    println!(
        "sessions ratio: {:.1}x the baseline by CPU, {:.1}x by wall",
        listing.ratio(&files),
        wall(&listing, &files)
    );
    println!(
        "read whole ratio: {:.1}x the baseline by CPU, {:.1}x by wall",
        whole.ratio(&files),
        wall(&whole, &files)
    );
}

criterion_group!(benches, session_list);
criterion_main!(benches);
