//! Searching many session files at once: each file's bytes are read in
//! chunks and passed through the prefilter ([`super::forms`]) on every core;
//! only a file that may hold a match is decoded by its format's reader and
//! searched ([`super::hits`]). Results are handed over in the order the
//! files were given, each as soon as it and every file before it are done,
//! so the first hits print while the scan goes on and the output is the
//! same on every run.

use std::collections::{BTreeMap, HashMap};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};

use super::hits::{Hit, hits};
use super::query::Query;
use crate::load::Live;

/// How a file stores its text, for the prefilter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stored {
    /// JSON text (Claude Code, Codex, eve, …): text is written as is or
    /// JSON-escaped.
    Json,
    /// JP's `events.json`: JSON whose strings may be base64-encoded.
    JsonWithBase64,
    /// Compressed (`.jsonl.zst`): the bytes say nothing until inflated, so
    /// the file is always decoded.
    Compressed,
    /// A session of a database (OpenCode's): its rows are read through
    /// SQLite, always decoded.
    Database,
}

/// A session to search.
#[derive(Debug, Clone)]
pub struct Target {
    /// What the reader opens: a transcript, or a JP conversation folder.
    pub open: PathBuf,
    /// The files whose bytes the prefilter reads: the transcript (or the
    /// folder's `events.json`); a Claude Code session's sub-agent files are
    /// found beside it ([`companions`]).
    pub bytes: PathBuf,
    /// How they store text.
    pub stored: Stored,
}

/// What searching one session gave.
#[derive(Debug)]
pub enum Outcome {
    /// The prefilter found no form of the pattern in its bytes.
    Skipped,
    /// Decoded and searched: the hits (none, when the bytes matched only
    /// outside any text, such as in an id) and the session's title.
    Searched {
        /// The session's title, or its first prompt's first line.
        title: Option<String>,
        /// Every hit, in reading order.
        hits: Vec<Hit>,
    },
    /// It could not be read: the message names the file and the problem.
    Failed(String),
}

/// Searches every target with `threads` threads, calling `each` with each
/// target's index and outcome in the order of `targets`. `each` returns
/// `false` to stop the scan (stdout closed).
pub fn scan(
    targets: &[Target],
    query: &Query,
    threads: usize,
    each: &mut dyn FnMut(usize, Outcome) -> bool,
) {
    let next = AtomicUsize::new(0);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let legacy = Mutex::new(HashMap::new());
    let (send, receive) = mpsc::channel::<(usize, Outcome)>();
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let send = send.clone();
            let (next, stop, legacy) = (&next, &stop, &legacy);
            scope.spawn(move || {
                let mut buffer = vec![0u8; CHUNK];
                loop {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(target) = targets.get(index) else {
                        return;
                    };
                    let outcome = search_one(target, query, &mut buffer, legacy);
                    if send.send((index, outcome)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(send);
        let mut waiting = BTreeMap::new();
        let mut due = 0;
        for (index, outcome) in receive {
            waiting.insert(index, outcome);
            while let Some(outcome) = waiting.remove(&due) {
                if !each(due, outcome) {
                    stop.store(true, Ordering::Relaxed);
                    return;
                }
                due += 1;
            }
        }
    });
}

/// How much of a file is read at a time by each thread.
const CHUNK: usize = 1 << 20;

fn search_one(
    target: &Target,
    query: &Query,
    buffer: &mut [u8],
    legacy: &Mutex<HashMap<PathBuf, bool>>,
) -> Outcome {
    if let Some(forms) = query.forms() {
        let must_decode = matches!(target.stored, Stored::Compressed | Stored::Database)
            || (target.stored == Stored::JsonWithBase64 && !forms.covers_base64());
        if !must_decode {
            let mut files = vec![target.bytes.clone()];
            files.extend(companions(&target.bytes));
            let mut any = false;
            for file in &files {
                match holds_a_form(file, forms, buffer) {
                    Ok(true) => {
                        any = true;
                        break;
                    }
                    Ok(false) => {}
                    Err(err) if file == &target.bytes => {
                        return Outcome::Failed(format!(
                            "{}: {}",
                            file.display(),
                            crate::problem::io_problem(&err)
                        ));
                    }
                    Err(_) => {}
                }
            }
            if !any && !legacy_agent_files_match(&target.bytes, forms, buffer, legacy) {
                return Outcome::Skipped;
            }
        }
    }
    decode(target, query)
}

/// Reads `target` with its format's reader (sub-agents included) and
/// searches what it shows.
fn decode(target: &Target, query: &Query) -> Outcome {
    let Some(arg) = target.open.to_str() else {
        return Outcome::Failed(format!(
            "{}: the path is not UTF-8, so it cannot be opened",
            target.open.display()
        ));
    };
    match Live::read_once(arg) {
        Ok(live) => {
            let conv = &live.conversation;
            let found = hits(conv, query);
            let title = conv.title.clone().or_else(|| first_prompt_line(conv));
            Outcome::Searched { title, hits: found }
        }
        Err(err) => Outcome::Failed(err.to_string()),
    }
}

/// The first line of the first prompt.
pub(super) fn first_prompt_line(conv: &crate::model::Conversation) -> Option<String> {
    conv.events.iter().find_map(|event| match &event.kind {
        crate::model::EventKind::ChatRequest { content, .. } => content
            .lines()
            .map(str::trim)
            .find(|line| !line.is_empty())
            .map(str::to_owned),
        _ => None,
    })
}

/// Whether `path`'s bytes hold a form, read a chunk at a time with the
/// end of each chunk carried into the next.
fn holds_a_form(path: &Path, forms: &super::forms::Forms, buffer: &mut [u8]) -> std::io::Result<bool> {
    let mut file = crate::files::open(path)?;
    let overlap = forms.overlap().min(buffer.len() / 2);
    let mut filled = 0;
    loop {
        let read = match file.read(&mut buffer[filled..]) {
            Ok(0) => return Ok(false),
            Ok(read) => read,
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        };
        let end = filled + read;
        if forms.found_in(&buffer[..end]) {
            return Ok(true);
        }
        let keep = overlap.min(end);
        buffer.copy_within(end - keep..end, 0);
        filled = keep;
    }
}

/// A Claude Code session's own sub-agent files (`<session>/subagents/*.jsonl`,
/// 2.1.x), which its reader reads with it.
fn companions(transcript: &Path) -> Vec<PathBuf> {
    let Some(stem) = transcript.file_name().and_then(|n| n.to_str()) else {
        return Vec::new();
    };
    let Some(stem) = stem.strip_suffix(".jsonl") else {
        return Vec::new();
    };
    let folder = transcript.with_file_name(stem).join("subagents");
    jsonl_files(&folder, |_| true)
}

/// Whether an older Claude Code sub-agent file beside `transcript`
/// (`agent-*.jsonl`, 2.0.x) holds a form: any of them may belong to it,
/// so each folder's are read once for the whole scan.
fn legacy_agent_files_match(
    transcript: &Path,
    forms: &super::forms::Forms,
    buffer: &mut [u8],
    memo: &Mutex<HashMap<PathBuf, bool>>,
) -> bool {
    let Some(folder) = transcript.parent() else {
        return false;
    };
    if let Some(known) = memo.lock().map(|m| m.get(folder).copied()).ok().flatten() {
        return known;
    }
    let found = jsonl_files(folder, |name| name.starts_with("agent-"))
        .iter()
        .any(|file| holds_a_form(file, forms, buffer).unwrap_or(false));
    if let Ok(mut memo) = memo.lock() {
        memo.insert(folder.to_path_buf(), found);
    }
    found
}

/// The `*.jsonl` files of `folder` whose name passes `keep`.
fn jsonl_files(folder: &Path, keep: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_file()))
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|name| name.ends_with(".jsonl") && keep(name))
        })
        .collect();
    files.sort();
    files
}
