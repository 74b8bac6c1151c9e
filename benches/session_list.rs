//! `session_list`: what `overhear sessions --all-projects` does for 10,000
//! sessions (docs/sessions.md): the selection (directory walks, heads) and
//! each session's figures and cost, a Claude Code transcript or a Codex
//! rollout by its format's scan. Measured beside it, in the same run: the
//! same listing with the Codex rollouts read whole by their reader (as
//! before their scan), and with every session read whole (as before any
//! scan), which must give the same figures.
//!
//! Generated (`common::sessions`): 8,000 Claude Code sessions in 100
//! project folders (a prompt, a tool call and its result, a reply, usage on
//! each response; ~3 kB each) and 2,000 Codex rollouts (a prompt, a reply,
//! a `token_count`). Baseline, in the same run: the same 10,000 files
//! listed with their times, nothing read (the directory walks and `stat`s
//! any listing needs).

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use common::Took;
use criterion::{Criterion, criterion_group, criterion_main};
use overhear::load::sessions::{Agents, every_session};
use overhear::search::{self, Kinds, Listed, Scope, Session, scanned_figures, whole_figures};

/// How many sessions of each agent.
const CLAUDE: usize = 8_000;
const CODEX: usize = 2_000;

/// A session's title and figures, as compared.
type Figures = (Option<String>, Result<overhear::usage::Summary, String>);

/// The generated home, removed at the end.
struct Setup {
    root: PathBuf,
    home: PathBuf,
}

impl Setup {
    fn new() -> Setup {
        let root = std::env::temp_dir().join(format!("overhear-bench-list-{}", std::process::id()));
        let home = root.join("home");
        common::sessions::write_home(&home, CLAUDE, CODEX);
        Setup { root, home }
    }

    fn env(&self) -> impl Fn(&str) -> Option<String> + '_ {
        move |name: &str| (name == "HOME").then(|| self.home.display().to_string())
    }

    /// The sessions `overhear sessions --all-projects` chooses.
    fn chosen(&self) -> Vec<Session> {
        let kinds = Kinds {
            agents: Agents::ALL,
            jp: false,
        };
        search::sessions(
            &Scope::AllProjects(self.root.clone()),
            kinds,
            &[],
            &self.env(),
        )
    }

    /// What `overhear sessions --all-projects` does before printing: the
    /// selection, then every session read for its figures, on every core.
    fn listing(&self) -> Vec<Listed> {
        let threads = std::thread::available_parallelism().map_or(2, usize::from);
        search::list(self.chosen(), threads, SystemTime::now())
    }

    /// The same listing with each session read by `read`, on every core,
    /// a share of the sessions each.
    fn listing_by(&self, read: fn(&Path) -> Figures) -> Vec<Figures> {
        let chosen = self.chosen();
        let threads = std::thread::available_parallelism().map_or(2, usize::from);
        let chunk = chosen.len().div_ceil(threads).max(1);
        std::thread::scope(|scope| {
            let parts: Vec<_> = chosen
                .chunks(chunk)
                .map(|part| {
                    scope.spawn(move || {
                        part.iter()
                            .map(|s| read(&s.target.open))
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

    /// The baseline: the same files listed with their times, nothing read.
    fn file_listing(&self) -> usize {
        every_session(&self.env(), Agents::ALL).len()
    }
}

/// A session read whole by its reader (what `overhear sessions` did
/// before any scan).
fn whole(path: &Path) -> Figures {
    let (title, figures) = whole_figures(path);
    (title, figures.map_err(|e| e.to_string()))
}

/// A Claude Code session scanned, any other read whole: what `overhear
/// sessions` did before Codex rollouts were scanned too.
fn claude_scanned(path: &Path) -> Figures {
    let claude = path.components().any(|c| c.as_os_str() == ".claude");
    match scanned_figures(path).filter(|_| claude) {
        Some((title, summary)) => (title, Ok(summary)),
        None => whole(path),
    }
}

/// The listing's titles and figures, in the selection's order.
fn compared(listed: Vec<Listed>) -> Vec<Figures> {
    listed
        .into_iter()
        .map(|listed| (listed.title, listed.figures.map_err(|e| e.to_string())))
        .collect()
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
    let listed = setup.listing();
    let priced = |listed: &[Listed]| {
        listed
            .iter()
            .filter(|listed| listed.figures.as_ref().is_ok_and(|f| f.cost.costed == 1))
            .count()
    };
    assert_eq!(priced(&listed), CLAUDE + CODEX, "every session priced");
    assert_eq!(setup.file_listing(), CLAUDE + CODEX);
    assert!(
        compared(listed) == setup.listing_by(whole),
        "the scans' figures are the full readers'"
    );
    let mut group = c.benchmark_group("session_list");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("sessions --all-projects (10,000 sessions)", |b| {
        b.iter(|| setup.listing().len())
    });
    group.bench_function("Codex rollouts read whole (10,000 sessions)", |b| {
        b.iter(|| setup.listing_by(claude_scanned).len())
    });
    group.bench_function("every session read whole (10,000 sessions)", |b| {
        b.iter(|| setup.listing_by(whole).len())
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
    let listing = median(&|| setup.listing().len());
    let codex_whole = median(&|| setup.listing_by(claude_scanned).len());
    let whole = median(&|| setup.listing_by(whole).len());
    let files = median(&|| setup.file_listing());
    let wall = |took: &Took, base: &Took| took.wall.as_secs_f64() / base.wall.as_secs_f64();
    println!("sessions listing of 10,000: {}", listing.ms());
    println!(
        "Codex rollouts read whole (before their scan): {}",
        codex_whole.ms()
    );
    println!("sessions read whole (before any scan): {}", whole.ms());
    println!("sessions baseline (files and times): {}", files.ms());
    for (name, took) in [
        ("sessions", &listing),
        ("Codex read whole", &codex_whole),
        ("read whole", &whole),
    ] {
        println!(
            "{name} ratio: {:.1}x the baseline by CPU, {:.1}x by wall",
            took.ratio(&files),
            wall(took, &files)
        );
    }
}

criterion_group!(benches, session_list);
criterion_main!(benches);
