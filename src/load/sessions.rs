//! The Claude Code, Codex and Copilot CLI sessions of a folder (docs/agents.md "Finding
//! sessions"): where they are kept (`source::sessions`), which Codex session
//! ran in the folder and what each one's first prompt is
//! (`format::session_head`), read from heads only. The one place both the
//! command line (the latest session, with no PATH) and the viewer's picker
//! (every session) find them.

use std::path::Path;
use std::time::SystemTime;

use crate::format::session_head::{
    CWD_HEAD, LIVE_WITHIN, PROMPT_HEAD, claude_cwd, codex_cwd, copilot_cwd, first_prompt,
};
use crate::source::opencode::{self, SessionPath};
use crate::source::sessions::{self, SessionFile};

/// An agent that keeps its sessions where overhear can find them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    /// Claude Code (`~/.claude/projects/<slug>/`).
    ClaudeCode,
    /// Codex (`~/.codex/sessions/`, `archived_sessions/`).
    Codex,
    /// Gemini CLI (`~/.gemini/tmp/<project>/chats/`).
    Gemini,
    /// Qwen Code (`~/.qwen/projects/<slug>/chats/`).
    Qwen,
    /// GitHub Copilot CLI (`~/.copilot/session-state/`).
    Copilot,
    /// OpenCode (`~/.local/share/opencode/opencode.db`, `XDG_DATA_HOME`).
    OpenCode,
}

impl Agent {
    /// The name `--agent` and the picker use: `claude`, `codex`.
    pub fn name(self) -> &'static str {
        match self {
            Agent::ClaudeCode => "claude",
            Agent::Codex => "codex",
            Agent::Gemini => "gemini",
            Agent::Qwen => "qwen",
            Agent::Copilot => "copilot",
            Agent::OpenCode => "opencode",
        }
    }
}

/// Which agents' sessions to look for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Agents {
    /// Claude Code's project folder for the folder.
    pub claude_code: bool,
    /// Codex sessions whose `session_meta.cwd` is the folder.
    pub codex: bool,
    /// Gemini CLI's project folder for the folder.
    pub gemini: bool,
    /// Qwen Code's project folder for the folder.
    pub qwen: bool,
    /// Copilot CLI sessions whose `session.start` context `cwd` is the folder.
    pub copilot: bool,
    /// OpenCode sessions that ran in the folder or its project.
    pub opencode: bool,
}

impl Agents {
    /// All of them.
    pub const ALL: Agents = Agents {
        claude_code: true,
        codex: true,
        gemini: true,
        qwen: true,
        copilot: true,
        opencode: true,
    };
}

/// A session of the folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FolderSession {
    /// Whose session it is.
    pub agent: Agent,
    /// Its file and when it was last written.
    pub file: SessionFile,
}

impl FolderSession {
    /// Whether the agent is writing it right now: the file was written less
    /// than [`LIVE_WITHIN`] (1 minute) before `now`, the time after which a
    /// followed transcript whose last turn settled shows `○ finished`.
    pub fn is_live(&self, now: SystemTime) -> bool {
        now.duration_since(self.file.modified)
            .map_or(true, |age| age < LIVE_WITHIN)
    }

    /// Its first real prompt, one line, from at most [`PROMPT_HEAD`] bytes
    /// of its start (a first read of [`FIRST_READ`] bytes is enough for most).
    pub fn title(&self) -> Option<String> {
        if let Some(session) = SessionPath::from_path(&self.file.path) {
            let sessions = session.store.sessions().ok()?;
            let found = sessions.into_iter().find(|s| s.id == session.session)?;
            return found.title;
        }
        let head = sessions::read_head(&self.file.path, FIRST_READ).ok()?;
        if let Some(title) = first_prompt(&head) {
            return Some(title);
        }
        if (head.len() as u64) < FIRST_READ {
            return None;
        }
        first_prompt(&sessions::read_head(&self.file.path, PROMPT_HEAD).ok()?)
    }

    /// The folder the session ran in, from its head: a Claude Code or Qwen
    /// Code record's `cwd`, a Codex rollout's `session_meta.cwd`, a Copilot
    /// CLI log's `session.start` context; for a Gemini CLI chat, whose
    /// records do not name it, its project folder's `.project_root`; `None`
    /// for an OpenCode session.
    pub fn project(&self) -> Option<std::path::PathBuf> {
        if self.agent == Agent::Gemini {
            return sessions::gemini_project(&self.file.path);
        }
        let head = sessions::read_head(&self.file.path, CWD_HEAD).ok()?;
        let cwd = match self.agent {
            Agent::ClaudeCode | Agent::Qwen => claude_cwd(&head),
            Agent::Codex => codex_cwd(&head),
            Agent::Copilot => copilot_cwd(&head),
            Agent::Gemini | Agent::OpenCode => None,
        };
        cwd.map(std::path::PathBuf::from)
    }
}

/// The first read for a title: a Claude Code transcript's first prompt, and
/// a short Codex rollout's, are within it.
const FIRST_READ: u64 = 16 * 1024;

/// Every session of `cwd` among `agents`, newest first: the `*.jsonl` of
/// Claude Code's project folder for it, and the Codex sessions whose head
/// names it (each Codex file's first [`CWD_HEAD`] bytes are read, nothing
/// more).
pub fn sessions_of(
    cwd: &Path,
    env: &dyn Fn(&str) -> Option<String>,
    agents: Agents,
) -> Vec<FolderSession> {
    let mut found = Vec::new();
    if agents.claude_code {
        found.extend(
            sessions::claude_sessions(cwd, env)
                .into_iter()
                .map(|file| FolderSession {
                    agent: Agent::ClaudeCode,
                    file,
                }),
        );
    }
    if agents.codex {
        found.extend(
            sessions::codex_sessions(env)
                .into_iter()
                .filter(|file| ran_in(file, cwd))
                .map(|file| FolderSession {
                    agent: Agent::Codex,
                    file,
                }),
        );
    }
    found.extend(folder_agents(cwd, env, agents));
    if agents.copilot {
        found.extend(
            sessions::copilot_sessions(env)
                .into_iter()
                .filter(|file| copilot_ran_in(file, cwd))
                .map(|file| FolderSession {
                    agent: Agent::Copilot,
                    file,
                }),
        );
    }
    if agents.opencode {
        found.extend(opencode_sessions(Some(cwd), env));
    }
    found.sort_by_key(|session| std::cmp::Reverse(session.file.modified));
    found
}

/// Lists every session file an agent keeps, of every folder.
type ListEverySession = fn(&dyn Fn(&str) -> Option<String>) -> Vec<SessionFile>;

/// Every session of every folder among `agents`, newest first (for
/// `overhear search --all-projects` and `overhear sessions --all-projects`):
/// every project folder of Claude Code, Gemini CLI and Qwen Code, every
/// Codex and Copilot CLI session, every OpenCode session but sub-agents'.
pub fn every_session(env: &dyn Fn(&str) -> Option<String>, agents: Agents) -> Vec<FolderSession> {
    let lists: [(bool, Agent, ListEverySession); 5] = [
        (agents.claude_code, Agent::ClaudeCode, sessions::claude_all_sessions),
        (agents.codex, Agent::Codex, sessions::codex_sessions),
        (agents.gemini, Agent::Gemini, sessions::gemini_all_sessions),
        (agents.qwen, Agent::Qwen, sessions::qwen_all_sessions),
        (agents.copilot, Agent::Copilot, sessions::copilot_sessions),
    ];
    let mut found = Vec::new();
    for (wanted, agent, list) in lists {
        if wanted {
            found.extend(list(env).into_iter().map(|file| FolderSession { agent, file }));
        }
    }
    if agents.opencode {
        found.extend(opencode_sessions(None, env));
    }
    found.sort_by_key(|session| std::cmp::Reverse(session.file.modified));
    found
}

/// Lists an agent's session files of a folder.
type ListSessions = fn(&Path, &dyn Fn(&str) -> Option<String>) -> Vec<SessionFile>;

/// The sessions of the agents that keep a folder per project (Gemini CLI,
/// Qwen Code): only that folder is listed.
fn folder_agents(
    cwd: &Path,
    env: &dyn Fn(&str) -> Option<String>,
    agents: Agents,
) -> Vec<FolderSession> {
    let mut found = Vec::new();
    let lists: [(bool, Agent, ListSessions); 2] = [
        (agents.gemini, Agent::Gemini, sessions::gemini_sessions),
        (agents.qwen, Agent::Qwen, sessions::qwen_sessions),
    ];
    for (wanted, agent, list) in lists {
        if wanted {
            found.extend(list(cwd, env).into_iter().map(|file| FolderSession { agent, file }));
        }
    }
    found
}

/// The OpenCode sessions of `cwd`, or of every folder (no sub-agent's), in
/// every store of OpenCode's data folder, each named by its path
/// (`<database>/<id>`).
fn opencode_sessions(
    cwd: Option<&Path>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Vec<FolderSession> {
    let mut found = Vec::new();
    for store in opencode::stores(env) {
        let Ok(sessions) = store.sessions() else {
            continue;
        };
        let chosen = match cwd {
            Some(cwd) => opencode::of_folder(&sessions, cwd),
            None => sessions.iter().filter(|s| s.parent.is_none()).collect(),
        };
        for info in chosen {
            let session = SessionPath {
                store: store.clone(),
                session: info.id.clone(),
            };
            let millis = u64::try_from(info.updated).unwrap_or(0);
            found.push(FolderSession {
                agent: Agent::OpenCode,
                file: SessionFile {
                    path: session.path(),
                    modified: SystemTime::UNIX_EPOCH + std::time::Duration::from_millis(millis),
                },
            });
        }
    }
    found
}

/// The newest session of `cwd` among `agents`: Codex files are tried newest
/// first and the search stops at the first that ran in `cwd`.
pub fn latest_session_of(
    cwd: &Path,
    env: &dyn Fn(&str) -> Option<String>,
    agents: Agents,
) -> Option<FolderSession> {
    let claude_files = if agents.claude_code {
        sessions::claude_sessions(cwd, env)
    } else {
        Vec::new()
    };
    let claude = claude_files
        .into_iter()
        .max_by_key(|file| file.modified)
        .map(|file| FolderSession {
            agent: Agent::ClaudeCode,
            file,
        });
    let codex = agents.codex.then(|| {
        let mut files = sessions::codex_sessions(env);
        files.sort_by_key(|file| std::cmp::Reverse(file.modified));
        files
            .into_iter()
            .find(|file| ran_in(file, cwd))
            .map(|file| FolderSession {
                agent: Agent::Codex,
                file,
            })
    });
    let others = folder_agents(cwd, env, agents)
        .into_iter()
        .max_by_key(|session| session.file.modified);
    let copilot = agents.copilot.then(|| {
        let mut files = sessions::copilot_sessions(env);
        files.sort_by_key(|file| std::cmp::Reverse(file.modified));
        files
            .into_iter()
            .find(|file| copilot_ran_in(file, cwd))
            .map(|file| FolderSession {
                agent: Agent::Copilot,
                file,
            })
    });
    let opencode = agents.opencode.then(|| {
        opencode_sessions(Some(cwd), env)
            .into_iter()
            .max_by_key(|session| session.file.modified)
    });
    // A tie goes to Claude Code.
    [claude, codex.flatten(), others, copilot.flatten(), opencode.flatten()]
        .into_iter()
        .flatten()
        .reduce(|a, b| {
            if b.file.modified > a.file.modified {
                b
            } else {
                a
            }
        })
}

/// Whether the Copilot CLI session `file` ran in `cwd`, by its first
/// line's `session.start` context.
fn copilot_ran_in(file: &SessionFile, cwd: &Path) -> bool {
    sessions::read_head(&file.path, CWD_HEAD)
        .ok()
        .and_then(|head| copilot_cwd(&head))
        .is_some_and(|dir| Path::new(&dir) == cwd)
}

/// Whether the Codex session `file` ran in `cwd`, by its head's `session_meta.cwd`.
fn ran_in(file: &SessionFile, cwd: &Path) -> bool {
    sessions::read_head(&file.path, CWD_HEAD)
        .ok()
        .and_then(|head| codex_cwd(&head))
        .is_some_and(|dir| Path::new(&dir) == cwd)
}
