//! With no PATH: the latest conversation of the current folder among the
//! agents that keep one for it — the JP workspace around it, Claude Code's
//! project folder for it, Codex sessions whose `session_meta.cwd` is it
//! (docs/agents.md "Finding sessions"). `--agent` limits the search to one
//! kind.

use std::path::Path;

use clap::ValueEnum;

use crate::load::sessions::{Agents, latest_session_of};
use crate::source::Workspace;
use crate::source::recency::modified;

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
    /// Gemini CLI chats (`$GEMINI_CLI_HOME/.gemini`, default `~/.gemini`).
    Gemini,
    /// Qwen Code chats (`$QWEN_RUNTIME_DIR`, `$QWEN_HOME`, default `~/.qwen`).
    Qwen,
    /// GitHub Copilot CLI sessions (`$COPILOT_HOME`, default `~/.copilot`).
    Copilot,
    /// OpenCode sessions (`$XDG_DATA_HOME/opencode`, default `~/.local/share/opencode`).
    Opencode,
}

/// No PATH, and `--agent` names a kind with no conversation of the folder.
#[derive(Debug, thiserror::Error)]
pub enum NotFound {
    /// eve keeps its streams nowhere known.
    #[error("--agent eve: eve streams are kept in no known folder; name the stream: overhear PATH")]
    Eve,
    /// No session of the folder by the agent named.
    #[error("--agent {agent}: no session of {} found", .cwd.display())]
    Nothing {
        /// `claude`, `codex`, `gemini` or `qwen`.
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
    let best = latest_session_of(cwd, env, agent_filter(agent)).map(|session| session.file);
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
        (None, _, Some(AgentArg::Gemini)) => Err(NotFound::Nothing {
            agent: "gemini",
            cwd: cwd.to_owned(),
        }),
        (None, _, Some(AgentArg::Qwen)) => Err(NotFound::Nothing {
            agent: "qwen",
            cwd: cwd.to_owned(),
        }),
        (None, _, Some(AgentArg::Copilot)) => Err(NotFound::Nothing {
            agent: "copilot",
            cwd: cwd.to_owned(),
        }),
        (None, _, Some(AgentArg::Opencode)) => Err(NotFound::Nothing {
            agent: "opencode",
            cwd: cwd.to_owned(),
        }),
        (None, _, _) => Ok(None),
    }
}

/// The agents `--agent` lets discovery look at (all without it).
pub fn agent_filter(agent: Option<AgentArg>) -> Agents {
    let wants = |kind: AgentArg| agent.is_none_or(|a| a == kind);
    Agents {
        claude_code: wants(AgentArg::Claude),
        codex: wants(AgentArg::Codex),
        gemini: wants(AgentArg::Gemini),
        qwen: wants(AgentArg::Qwen),
        copilot: wants(AgentArg::Copilot),
        opencode: wants(AgentArg::Opencode),
    }
}
