//! The manifest of `export --all`: a small JSON file in the output folder
//! ([`FILE_NAME`]) saying, for every page written, which session file it
//! came from, that file's size and modification time (and its sub-agents'
//! files'), the overhear version
//! and the options that wrote it, and the session's index row. A later run
//! rewrites a page only when any of these changed (or the page is gone),
//! and lists the unchanged sessions from the manifest without reading them.
//! A manifest that cannot be read is ignored: every page is written again.

use std::path::Path;
use std::time::UNIX_EPOCH;

use serde::{Deserialize, Serialize};

use super::index::Row;

/// The manifest's name in the output folder.
pub const FILE_NAME: &str = ".overhear-export.json";

/// What the last run wrote.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// The overhear version that wrote the pages.
    pub overhear: String,
    /// The options that change a page (format, view, redaction…), in words.
    pub options: String,
    /// One entry per page.
    pub sessions: Vec<Entry>,
}

/// One page and the session file it came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The session file's path (the file whose bytes change when the
    /// session does: a transcript, a JP conversation's `events.json`).
    pub source: String,
    /// Its size in bytes when the page was written.
    pub size: u64,
    /// Its modification time then, in nanoseconds since the epoch.
    pub modified: u64,
    /// The files of its sub-agents it was written with (a Claude Code
    /// `agent-*.jsonl`, a Codex child rollout), each as it was then: a
    /// change to one alone writes the page again.
    #[serde(default)]
    pub subagents: Vec<Stamp>,
    /// The project folder it ran in, when known.
    pub project: Option<String>,
    /// Its row of the index (its page's file name included).
    pub row: Row,
}

/// A file as it was: its path, size and modification time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stamp {
    /// Its path.
    pub path: String,
    /// Its size in bytes.
    pub size: u64,
    /// Its modification time, in nanoseconds since the epoch.
    pub modified: u64,
}

impl Stamp {
    /// The file at `path` as it is now, `None` when it cannot be looked at.
    pub fn of(path: &Path) -> Option<Stamp> {
        let meta = std::fs::metadata(path).ok()?;
        Some(Stamp {
            path: path.display().to_string(),
            size: meta.len(),
            modified: modified(&meta),
        })
    }

    /// Whether the file is still as it was.
    fn unchanged(&self) -> bool {
        Stamp::of(Path::new(&self.path)).as_ref() == Some(self)
    }
}

/// A file's modification time in nanoseconds since the epoch (0 when the
/// system does not tell).
pub fn modified(meta: &std::fs::Metadata) -> u64 {
    meta.modified()
        .ok()
        .and_then(|at| at.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
}

impl Manifest {
    /// An empty manifest for this version and `options`.
    pub fn new(options: String) -> Manifest {
        Manifest {
            overhear: env!("CARGO_PKG_VERSION").to_string(),
            options,
            sessions: Vec::new(),
        }
    }

    /// The manifest in `text`, `None` when it is not one.
    pub fn parse(text: &str) -> Option<Manifest> {
        serde_json::from_str(text).ok()
    }

    /// The manifest as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// The entry of `source` when its page is up to date: the same file
    /// size and time, its sub-agents' files as they were, written by this
    /// version with the same `options`.
    pub fn fresh(&self, options: &str, source: &str, size: u64, modified: u64) -> Option<&Entry> {
        if self.overhear != env!("CARGO_PKG_VERSION") || self.options != options {
            return None;
        }
        self.sessions
            .iter()
            .find(|e| e.source == source && e.size == size && e.modified == modified)
            .filter(|e| e.subagents.iter().all(Stamp::unchanged))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::Figures;

    /// The entry of `/s.jsonl` (10 bytes, modified at 7) with `subagents`.
    fn entry(subagents: Vec<Stamp>) -> Entry {
        Entry {
            source: "/s.jsonl".into(),
            size: 10,
            modified: 7,
            subagents,
            project: None,
            row: Row {
                agent: "claude".into(),
                title: "t".into(),
                page: "claude-s.html".into(),
                figures: Figures::default(),
            },
        }
    }

    #[test]
    fn an_entry_is_fresh_only_with_the_same_file_version_and_options() {
        let mut manifest = Manifest::new("html".into());
        manifest.sessions.push(entry(Vec::new()));
        let read = Manifest::parse(&manifest.to_json()).unwrap();
        assert_eq!(read, manifest);
        assert!(read.fresh("html", "/s.jsonl", 10, 7).is_some());
        assert!(read.fresh("html", "/s.jsonl", 11, 7).is_none());
        assert!(read.fresh("html", "/s.jsonl", 10, 8).is_none());
        assert!(read.fresh("md", "/s.jsonl", 10, 7).is_none());
        let mut old = read.clone();
        old.overhear = "0.0.0".into();
        assert!(old.fresh("html", "/s.jsonl", 10, 7).is_none());
        assert!(Manifest::parse("not json").is_none());
    }

    #[test]
    fn an_entry_is_stale_when_a_sub_agents_file_changed() {
        let dir = tempfile::tempdir().unwrap();
        let agent = dir.path().join("agent-1.jsonl");
        std::fs::write(&agent, "{}\n").unwrap();
        let mut manifest = Manifest::new("html".into());
        manifest.sessions.push(entry(vec![Stamp::of(&agent).unwrap()]));
        assert!(manifest.fresh("html", "/s.jsonl", 10, 7).is_some());
        std::fs::write(&agent, "{}\n{}\n").unwrap();
        assert!(manifest.fresh("html", "/s.jsonl", 10, 7).is_none());
        std::fs::remove_file(&agent).unwrap();
        assert!(manifest.fresh("html", "/s.jsonl", 10, 7).is_none());
    }
}
