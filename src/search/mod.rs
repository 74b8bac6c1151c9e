//! `overhear search`: finding a text in every conversation overhear can
//! find, decoded — prompts, replies, reasoning, tool arguments and results,
//! sub-agents, JP's base64-stored results — with the session, turn and
//! kind of block of each hit (docs/search.md).
//!
//! Which sessions ([`sessions`]): the agents' own stores for a folder or for
//! every folder (`load::sessions`), the JP workspace around the folder, and
//! any path named. How fast ([`scan`]): every file's bytes pass a prefilter
//! on every core, and only a file that may hold a match is decoded by its
//! format's reader. What matches ([`Query`], [`hits`]): the pattern against
//! the decoded text, never against JSON.

pub mod fit;
mod forms;
mod hits;
mod listing;
mod parallel;
mod query;
mod scan;

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

pub use hits::Hit;
pub use listing::{Listed, list};
// For the test that holds the scan to the full reader (tests/it/sessions_fast.rs).
#[cfg(feature = "internals")]
pub use listing::{scanned_figures, whole_figures};
pub use query::{Case, Query};
pub use scan::{Outcome, Stored, Target, scan};

use crate::format::detect::{LineFormat, line_format};
use crate::format::session_head::{CWD_HEAD, claude_cwd, codex_cwd, codex_parent_thread, copilot_cwd};
use crate::load::sessions::{Agent, Agents, FolderSession, every_session, sessions_of};
use crate::source::recency::modified;
use crate::source::sessions::read_head;
use crate::source::workspace::Workspace;

/// A session to search, with what a hit's heading says of it.
#[derive(Debug, Clone)]
pub struct Session {
    /// The agent that wrote it: `claude`, `codex`, `gemini`, `qwen`,
    /// `copilot`, `opencode`, `jp`, `eve`.
    pub agent: &'static str,
    /// Its id: a transcript's file name without extension, a JP
    /// conversation's id (`jp-c…`).
    pub id: String,
    /// The folder it ran in, when known.
    pub project: Option<PathBuf>,
    /// When it was last written, when known (for `--since`).
    pub modified: Option<SystemTime>,
    /// What is read.
    pub target: Target,
}

/// Which folders' sessions to search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// The sessions that ran in this folder (and its JP workspace).
    Folder(PathBuf),
    /// Every session of every folder (and the JP workspace around this one).
    AllProjects(PathBuf),
}

/// Which kinds of conversation to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kinds {
    /// The agents with stores of their own.
    pub agents: Agents,
    /// The JP workspace.
    pub jp: bool,
}

/// The sessions `scope` holds among `kinds`, newest first, then `paths`
/// (each a transcript, an eve stream, or a JP conversation or workspace) in
/// the order given.
pub fn sessions(
    scope: &Scope,
    kinds: Kinds,
    paths: &[PathBuf],
    env: &dyn Fn(&str) -> Option<String>,
) -> Vec<Session> {
    let (folder, stored) = match scope {
        Scope::Folder(folder) => (folder, sessions_of(folder, env, kinds.agents)),
        Scope::AllProjects(folder) => (folder, every_session(env, kinds.agents)),
    };
    // Each session's project is in its file's head: read on every core.
    let mut found: Vec<Session> = parallel::map(&stored, parallel::threads(), agent_session);
    if kinds.jp
        && let Some(workspace) = Workspace::discover(folder, env)
    {
        found.extend(jp_sessions(&workspace));
    }
    for path in paths {
        found.extend(named(path, env));
    }
    found
}

/// `sessions` without the Codex child rollouts whose parent is among them:
/// the parent's reader reads a child beside it as the sub-agent of the
/// call that spawned it, so its hits are reported there, once, with the
/// parent's turn and the sub-agent's name (docs/search.md, "Sub-agents").
/// A child whose parent is not searched is searched as a session.
pub fn without_nested_children(sessions: Vec<Session>) -> Vec<Session> {
    let parents: Vec<(Option<PathBuf>, String)> = sessions
        .iter()
        .filter(|s| s.agent == "codex")
        .map(|s| (s.target.bytes.parent().map(Path::to_path_buf), s.id.clone()))
        .collect();
    sessions
        .into_iter()
        .filter(|session| {
            if session.agent != "codex" {
                return true;
            }
            let head = read_head(&session.target.bytes, CWD_HEAD).unwrap_or_default();
            let Some(parent) = codex_parent_thread(&head).filter(|id| !id.is_empty()) else {
                return true;
            };
            let folder = session.target.bytes.parent().map(Path::to_path_buf);
            !parents
                .iter()
                .any(|(at, id)| *at == folder && *id != session.id && id.ends_with(&parent))
        })
        .collect()
}

fn agent_session(session: &FolderSession) -> Session {
    let project = session.project();
    let modified = Some(session.file.modified);
    let database = session.agent == Agent::OpenCode;
    let path = session.file.path.clone();
    let compressed = path.extension().is_some_and(|e| e == "zst");
    Session {
        agent: session.agent.name(),
        id: file_id(&path),
        project,
        modified,
        target: Target {
            open: path.clone(),
            bytes: path,
            stored: if database {
                Stored::Database
            } else if compressed {
                Stored::Compressed
            } else {
                Stored::Json
            },
        },
    }
}

fn jp_sessions(workspace: &Workspace) -> Vec<Session> {
    let mut entries = workspace.conversations();
    entries.sort_by_key(|entry| std::cmp::Reverse(entry.active_at));
    entries
        .into_iter()
        .map(|entry| Session {
            agent: "jp",
            id: entry.display_id(),
            project: Some(workspace.root.clone()),
            modified: u64::try_from(entry.active_at)
                .ok()
                .map(|nanos| UNIX_EPOCH + Duration::from_nanos(nanos)),
            target: Target {
                bytes: entry.dir.join("events.json"),
                open: entry.dir,
                stored: Stored::JsonWithBase64,
            },
        })
        .collect()
}

/// A path named on the command line: a JP workspace's conversations, a
/// conversation folder, or a file (told apart by its first bytes).
fn named(path: &Path, env: &dyn Fn(&str) -> Option<String>) -> Vec<Session> {
    if path.is_dir() {
        if path.join("events.json").is_file() {
            let id = file_id(path);
            return vec![Session {
                agent: "jp",
                id,
                project: None,
                modified: modified(&path.join("events.json")),
                target: Target {
                    open: path.to_path_buf(),
                    bytes: path.join("events.json"),
                    stored: Stored::JsonWithBase64,
                },
            }];
        }
        let workspace = Workspace::plain_folder(path)
            .or_else(|| Some(Workspace::open(path, env)))
            .filter(Workspace::has_conversations);
        return workspace.map(|ws| jp_sessions(&ws)).unwrap_or_default();
    }
    let head = read_head(path, 8 * 1024).unwrap_or_default();
    let compressed = head.starts_with(&crate::format::detect::ZSTD_MAGIC);
    let (agent, project, stored) = if head.trim_ascii_start().starts_with(b"[") {
        ("jp", None, Stored::JsonWithBase64)
    } else {
        let agent = first_line_agent(&head);
        let project = match agent {
            "codex" => codex_cwd(&head),
            "copilot" => copilot_cwd(&head),
            _ => claude_cwd(&head),
        };
        (agent, project.map(PathBuf::from), Stored::Json)
    };
    vec![Session {
        agent,
        id: file_id(path),
        project,
        modified: modified(path),
        target: Target {
            open: path.to_path_buf(),
            bytes: path.to_path_buf(),
            stored: if compressed { Stored::Compressed } else { stored },
        },
    }]
}

/// Which agent wrote a transcript, by its first line (`eve` when no agent's
/// format is told: an eve stream, or a line not read).
fn first_line_agent(head: &[u8]) -> &'static str {
    let first = head
        .split(|&b| b == b'\n')
        .find(|line| !line.trim_ascii().is_empty());
    let format = first
        .and_then(|line| serde_json::from_slice::<serde_json::Value>(line).ok())
        .and_then(|value| line_format(&value));
    match format {
        Some(LineFormat::ClaudeCode) => "claude",
        Some(LineFormat::Codex) => "codex",
        Some(LineFormat::Gemini) => "gemini",
        Some(LineFormat::Qwen) => "qwen",
        Some(LineFormat::Copilot) => "copilot",
        Some(LineFormat::OpenCode) => "opencode",
        Some(LineFormat::Eve) | None => "eve",
    }
}

/// A file's name without its extensions (`rollout-….jsonl.zst` → `rollout-…`).
fn file_id(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match name.split_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem.to_owned(),
        _ => name,
    }
}
