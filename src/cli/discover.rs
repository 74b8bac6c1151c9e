//! With no PATH: the latest conversation of the current folder among the
//! agents that keep one for it — the JP workspace around it, Claude Code's
//! project folder for it, Codex sessions whose `session_meta.cwd` is it
//! (docs/agents.md "Finding sessions"). `--agent` limits the search to one
//! kind.

use std::path::Path;
use std::time::SystemTime;

use clap::ValueEnum;

use crate::format::session_head::codex_cwd;
use crate::source::Workspace;
use crate::source::sessions::{self, SessionFile};

/// `--agent`: which kind of conversation to look for when no PATH is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AgentArg {
    /// Claude Code transcripts (`~/.claude/projects/…`, `CLAUDE_CONFIG_DIR`).
    Claude,
    /// Codex sessions (`$CODEX_HOME`, default `~/.codex`).
    Codex,
    /// The JP workspace around the current folder.
    Jp,
    /// eve streams (they have no known folder: name the stream).
    Eve,
}

/// How much of a Codex session's start is read for its `cwd`.
const HEAD: u64 = 8 * 1024;

/// No PATH, and `--agent` names a kind with no conversation of the folder.
#[derive(Debug, thiserror::Error)]
pub enum NotFound {
    /// eve keeps its streams nowhere known.
    #[error("--agent eve: eve streams are kept in no known folder; name the stream: overhear PATH")]
    Eve,
    /// No Claude Code or Codex session of the folder.
    #[error("--agent {agent}: no session of {} found", .cwd.display())]
    Nothing {
        /// `claude` or `codex`.
        agent: &'static str,
        /// The current folder.
        cwd: std::path::PathBuf,
    },
}

/// The conversation to open when no PATH is given: `None` for the JP
/// workspace around `cwd` (its own flow, with its picker), else the newest
/// Claude Code or Codex session of `cwd` when it is newer than the
/// workspace's latest conversation.
pub fn latest_path(
    cwd: &Path,
    agent: Option<AgentArg>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<String>, NotFound> {
    let wants = |kind: AgentArg| agent.is_none_or(|a| a == kind);
    if agent == Some(AgentArg::Eve) {
        return Err(NotFound::Eve);
    }
    let jp = if wants(AgentArg::Jp) {
        Workspace::discover(cwd, env)
            .and_then(|ws| ws.most_recent())
            .and_then(|entry| modified(&entry.dir.join("events.json")))
    } else {
        None
    };
    let mut best: Option<SessionFile> = None;
    let mut consider = |file: SessionFile| {
        if best.as_ref().is_none_or(|b| file.modified > b.modified) {
            best = Some(file);
        }
    };
    if wants(AgentArg::Claude) {
        sessions::claude_sessions(cwd, env)
            .into_iter()
            .for_each(&mut consider);
    }
    if wants(AgentArg::Codex) {
        let mut codex = sessions::codex_sessions(env);
        // Newest first: the first of the folder is its latest.
        codex.sort_by_key(|file| std::cmp::Reverse(file.modified));
        if let Some(file) = codex.into_iter().find(|file| {
            sessions::read_head(&file.path, HEAD)
                .ok()
                .and_then(|head| codex_cwd(&head))
                .is_some_and(|dir| Path::new(&dir) == cwd)
        }) {
            consider(file);
        }
    }
    match (best, jp, agent) {
        (Some(file), Some(jp), _) if jp >= file.modified => Ok(None),
        (Some(file), _, _) => Ok(Some(file.path.display().to_string())),
        (None, _, Some(AgentArg::Claude)) => Err(NotFound::Nothing {
            agent: "claude",
            cwd: cwd.to_owned(),
        }),
        (None, _, Some(AgentArg::Codex)) => Err(NotFound::Nothing {
            agent: "codex",
            cwd: cwd.to_owned(),
        }),
        (None, _, _) => Ok(None),
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}
