//! How long a page of a large export takes to open in a browser, for the
//! export's budget (issue 28: "a page opens in a browser in ≤ 3 s"):
//!
//! ```text
//! cargo build --example page_open --bin overhear
//! target/debug/examples/page_open [MB] [OVERHEAR] [KEEP]
//! ```
//!
//! It writes a generated JP conversation of MB megabytes (default 100;
//! `benches/common`'s generator, deterministic) into a temporary folder,
//! exports it to linked pages with the `overhear` binary (default: the one
//! beside this program's folder) as `overhear export CONV -o run.html`
//! does, then loads each page and, as the baseline of the same run, an
//! empty page in headless Chromium (`--headless=new --dump-dom`, a fresh
//! profile each time), three times each, and prints the median wall-clock
//! time of each: the page's time less the empty page's is what the page
//! costs to open. The largest page is the budget's figure. With KEEP (a
//! folder), the conversation and the pages are written there and kept, for
//! a look at the pages or other loads of them.

#[path = "../benches/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How many times each page is loaded (the median is reported).
const RUNS: usize = 3;

fn main() {
    let mut args = std::env::args().skip(1);
    let megabytes: usize = args
        .next()
        .map_or(100, |a| a.parse().expect("MB, a number"));
    let overhear = args.next().map_or_else(default_binary, PathBuf::from);
    let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
        .expect("Chromium: apt-get install -y --no-install-recommends chromium");
    let keep = args.next().map(PathBuf::from);
    let temporary = tempfile::tempdir().expect("a temporary folder");
    let dir = keep.as_deref().unwrap_or(temporary.path());
    let events = common::stored(&common::conversation_events(megabytes << 20));
    let conversation = common::write_conversation(&dir.join("convs"), &events);
    println!(
        "conversation: {:.1} MB of events.json",
        events.len() as f64 / 1e6
    );
    drop(events);
    let out = dir.join("out");
    std::fs::create_dir(&out).expect("the output folder");
    let started = Instant::now();
    let status = Command::new(&overhear)
        .arg("export")
        .arg(&conversation)
        .arg("-o")
        .arg(out.join("run.html"))
        .status()
        .expect("overhear runs");
    assert!(status.success(), "overhear export failed");
    println!("export: {:.1} s", started.elapsed().as_secs_f64());
    let mut pages: Vec<(PathBuf, u64)> = std::fs::read_dir(&out)
        .expect("the output folder")
        .flatten()
        .map(|e| (e.path(), e.metadata().map_or(0, |m| m.len())))
        .collect();
    pages.sort();
    let empty = out.join("empty.html");
    std::fs::write(&empty, "<!doctype html><title>empty</title><p>empty</p>").expect("a page");
    let base = median(&chromium, &empty, dir);
    println!("empty page (baseline): {:.2} s", base.as_secs_f64());
    println!("| page | size | open (median of {RUNS}) | less the empty page |");
    println!("|---|---|---|---|");
    let mut worst = (Duration::ZERO, 0u64);
    for (page, size) in &pages {
        if page == &empty {
            continue;
        }
        let took = median(&chromium, page, dir);
        let name = page
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        println!(
            "| {name} | {:.1} MiB | {:.2} s | {:.2} s |",
            *size as f64 / f64::from(1 << 20),
            took.as_secs_f64(),
            took.saturating_sub(base).as_secs_f64()
        );
        if *size > worst.1 {
            worst = (took, *size);
        }
    }
    println!(
        "largest page: {:.1} MiB, {:.2} s to open ({:.2} s less the empty page); budget 3 s",
        worst.1 as f64 / f64::from(1 << 20),
        worst.0.as_secs_f64(),
        worst.0.saturating_sub(base).as_secs_f64()
    );
}

/// `overhear` in the target folder this example was built into.
fn default_binary() -> PathBuf {
    let me = std::env::current_exe().expect("this program's path");
    me.parent()
        .and_then(Path::parent)
        .map(|dir| dir.join("overhear"))
        .expect("target/PROFILE/overhear")
}

/// The median wall-clock time of [`RUNS`] loads of `page`.
fn median(chromium: &Path, page: &Path, scratch: &Path) -> Duration {
    let mut times: Vec<Duration> = (0..RUNS).map(|_| load(chromium, page, scratch)).collect();
    times.sort();
    times[RUNS / 2]
}

/// How long headless Chromium takes to load `page` and print its DOM, from
/// its start to its exit, with a fresh profile.
fn load(chromium: &Path, page: &Path, scratch: &Path) -> Duration {
    let profile = tempfile::tempdir_in(scratch).expect("a profile folder");
    let started = Instant::now();
    let status = Command::new(chromium)
        .args([
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("file://{}", page.display()))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("chromium runs");
    let took = started.elapsed();
    assert!(status.success(), "chromium failed on {}", page.display());
    took
}
