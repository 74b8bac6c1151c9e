//! The real corpora that `.ci/run` names (`$OVERHEAR_CORPUS`: JP
//! conversations, `$OVERHEAR_EVE_CORPUS`: eve streams), listed once for every
//! test that walks them. Without its variable a corpus is `None` and a line on
//! stderr says the test was skipped (`cargo test -- --nocapture` shows it):
//! `cargo test` on a fresh clone needs nothing outside the repository.

use std::path::PathBuf;

/// The folder `variable` names, or `None` after saying the test is skipped.
fn folder(variable: &str, what: &str) -> Option<PathBuf> {
    let dir = std::env::var_os(variable).map(PathBuf::from);
    if dir.is_none() {
        eprintln!("skipped: {variable} is not set (it names the real {what})");
    }
    dir
}

/// The folder of the real eve streams (with eve's `manifest.json`).
pub fn eve_dir() -> Option<PathBuf> {
    folder("OVERHEAR_EVE_CORPUS", "eve streams")
}

/// The real JP conversation folders (each holding an `events.json`), sorted.
pub fn jp_conversations() -> Option<Vec<PathBuf>> {
    let dir = folder("OVERHEAR_CORPUS", "JP conversations")?;
    Some(sorted_entries(dir, |p| p.join("events.json").is_file()))
}

/// The real eve streams (`*.ndjson`), sorted.
pub fn eve_streams() -> Option<Vec<PathBuf>> {
    let dir = eve_dir()?;
    Some(sorted_entries(dir, |p| {
        p.extension().is_some_and(|e| e == "ndjson")
    }))
}

fn sorted_entries(dir: PathBuf, keep: impl Fn(&PathBuf) -> bool) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("the corpus folder {} is readable: {e}", dir.display()))
        .map(|e| e.expect("a corpus entry").path())
        .filter(|p| keep(p))
        .collect();
    paths.sort();
    assert!(
        !paths.is_empty(),
        "the corpus at {} holds nothing",
        dir.display()
    );
    paths
}
