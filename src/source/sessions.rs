//! Where Claude Code, Codex, Gemini CLI, Qwen Code and Copilot CLI keep their sessions (docs/agents.md "Finding
//! sessions"): the files that may be a conversation of a folder, with their
//! time and size. Knows no JSON: which Codex session belongs to which folder
//! is read from its head by `format::session_head`.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// A session file found where an agent keeps them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionFile {
    /// The file.
    pub path: PathBuf,
    /// When it was last written.
    pub modified: SystemTime,
}

/// Claude Code's project folder for `cwd`:
/// `$CLAUDE_CONFIG_DIR/projects/<slug>` (default `~/.claude`), the slug
/// being the folder's path with every `/` and `.` written `-`.
pub fn claude_project_dir(cwd: &Path, env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let slug: String = cwd
        .to_string_lossy()
        .chars()
        .map(|c| if c == '/' || c == '.' { '-' } else { c })
        .collect();
    Some(claude_projects(env)?.join(slug))
}

/// Claude Code's folder of project folders: `$CLAUDE_CONFIG_DIR/projects`
/// (default `~/.claude/projects`).
fn claude_projects(env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let base = non_empty(env("CLAUDE_CONFIG_DIR"))
        .map(PathBuf::from)
        .or_else(|| non_empty(env("HOME")).map(|home| Path::new(&home).join(".claude")))?;
    Some(base.join("projects"))
}

/// The main transcripts of Claude Code's project folder for `cwd`: its
/// `*.jsonl` files, sub-agents' `agent-*.jsonl` left out.
pub fn claude_sessions(cwd: &Path, env: &dyn Fn(&str) -> Option<String>) -> Vec<SessionFile> {
    let mut found = Vec::new();
    if let Some(dir) = claude_project_dir(cwd, env) {
        push_transcripts(&dir, &mut found);
    }
    found
}

/// The main transcripts of every Claude Code project folder
/// (`$CLAUDE_CONFIG_DIR/projects/*/`), sub-agents' left out.
pub fn claude_all_sessions(env: &dyn Fn(&str) -> Option<String>) -> Vec<SessionFile> {
    let mut found = Vec::new();
    let Some(Ok(projects)) = claude_projects(env).map(fs::read_dir) else {
        return found;
    };
    for project in projects.flatten() {
        if project.file_type().is_ok_and(|t| t.is_dir()) {
            push_transcripts(&project.path(), &mut found);
        }
    }
    found
}

/// The `*.jsonl` of one Claude Code project folder, sub-agents'
/// `agent-*.jsonl` left out.
fn push_transcripts(dir: &Path, found: &mut Vec<SessionFile>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.ends_with(".jsonl") && !name.starts_with("agent-") {
            push_file(found, entry.path());
        }
    }
}

/// Every Codex session file: `*.jsonl` and `*.jsonl.zst` under
/// `$CODEX_HOME` (default `~/.codex`) `sessions/` and `archived_sessions/`,
/// at any depth (`sessions/YYYY/MM/DD/rollout-….jsonl`).
pub fn codex_sessions(env: &dyn Fn(&str) -> Option<String>) -> Vec<SessionFile> {
    let Some(home) = non_empty(env("CODEX_HOME"))
        .map(PathBuf::from)
        .or_else(|| non_empty(env("HOME")).map(|home| Path::new(&home).join(".codex")))
    else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for folder in ["sessions", "archived_sessions"] {
        walk(&home.join(folder), 0, &mut found);
    }
    found
}

/// Every Copilot CLI session log: `session-state/<id>/events.jsonl` under
/// `$COPILOT_HOME` (default `~/.copilot`), and the bare
/// `session-state/<id>.jsonl` older builds wrote.
pub fn copilot_sessions(env: &dyn Fn(&str) -> Option<String>) -> Vec<SessionFile> {
    let Some(home) = non_empty(env("COPILOT_HOME"))
        .map(PathBuf::from)
        .or_else(|| non_empty(env("HOME")).map(|home| Path::new(&home).join(".copilot")))
    else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let Ok(entries) = fs::read_dir(home.join("session-state")) else {
        return found;
    };
    for entry in entries.flatten() {
        match entry.file_type() {
            Ok(kind) if kind.is_dir() => {
                let log = entry.path().join("events.jsonl");
                if log.is_file() {
                    push_file(&mut found, log);
                }
            }
            Ok(kind) if kind.is_file() && entry.file_name().to_string_lossy().ends_with(".jsonl") => {
                push_file(&mut found, entry.path());
            }
            _ => {}
        }
    }
    found
}

/// How deep [`codex_sessions`] looks (`YYYY/MM/DD/file` is 4).
const MAX_DEPTH: usize = 6;

fn walk(dir: &Path, depth: usize, found: &mut Vec<SessionFile>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        match entry.file_type() {
            Ok(kind) if kind.is_dir() && depth < MAX_DEPTH => walk(&path, depth + 1, found),
            Ok(kind) if kind.is_file() => {
                let name = entry.file_name();
                let name = name.to_string_lossy();
                if name.ends_with(".jsonl") || name.ends_with(".jsonl.zst") {
                    push_file(found, path);
                }
            }
            _ => {}
        }
    }
}

fn push_file(found: &mut Vec<SessionFile>, path: PathBuf) {
    if let Ok(modified) = fs::metadata(&path).and_then(|meta| meta.modified()) {
        found.push(SessionFile { path, modified });
    }
}

/// Gemini CLI's chats of `cwd`: `session-*.jsonl` (and a legacy
/// `session-*.json` with no `.jsonl` beside it) in `chats/` of every
/// `$GEMINI_CLI_HOME/.gemini/tmp/<project>/` (default `~/.gemini`) whose
/// `.project_root` names `cwd` (spec agent-transcripts-2 §2.1).
pub fn gemini_sessions(cwd: &Path, env: &dyn Fn(&str) -> Option<String>) -> Vec<SessionFile> {
    gemini_chats(Some(cwd), env)
}

/// Gemini CLI's chats of every project folder under `.gemini/tmp/`.
pub fn gemini_all_sessions(env: &dyn Fn(&str) -> Option<String>) -> Vec<SessionFile> {
    gemini_chats(None, env)
}

/// The folder a Gemini CLI chat ran in: what `.project_root` beside its
/// `chats/` folder names.
pub fn gemini_project(chat: &Path) -> Option<PathBuf> {
    let named = read_head(&chat.parent()?.parent()?.join(".project_root"), 4096).ok()?;
    let named = String::from_utf8_lossy(&named).trim().to_owned();
    (!named.is_empty()).then(|| PathBuf::from(named))
}

/// Gemini CLI's chats of the project folders whose `.project_root` names
/// `cwd`, or of every one.
fn gemini_chats(cwd: Option<&Path>, env: &dyn Fn(&str) -> Option<String>) -> Vec<SessionFile> {
    let Some(root) = non_empty(env("GEMINI_CLI_HOME")).or_else(|| non_empty(env("HOME"))) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let Ok(projects) = fs::read_dir(Path::new(&root).join(".gemini/tmp")) else {
        return found;
    };
    for project in projects.flatten() {
        if let Some(cwd) = cwd {
            let Ok(named) = read_head(&project.path().join(".project_root"), 4096) else {
                continue;
            };
            if Path::new(String::from_utf8_lossy(&named).trim()) != cwd {
                continue;
            }
        }
        let Ok(chats) = fs::read_dir(project.path().join("chats")) else {
            continue;
        };
        let names: Vec<String> = chats
            .flatten()
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .filter(|name| name.starts_with("session-"))
            .collect();
        for name in &names {
            let lines = name.ends_with(".jsonl");
            let legacy = name.ends_with(".json") && !names.contains(&format!("{name}l"));
            if lines || legacy {
                push_file(&mut found, project.path().join("chats").join(name));
            }
        }
    }
    found
}

/// Qwen Code's chats of `cwd`: `projects/<slug>/chats/*.jsonl` under
/// `$QWEN_RUNTIME_DIR`, else `$QWEN_HOME`, else `~/.qwen`, the slug being
/// the folder's path with every character but ASCII letters and digits
/// written `-` (spec agent-transcripts-2 §4.1).
pub fn qwen_sessions(cwd: &Path, env: &dyn Fn(&str) -> Option<String>) -> Vec<SessionFile> {
    let Some(root) = qwen_root(env) else {
        return Vec::new();
    };
    let slug: String = cwd
        .to_string_lossy()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let mut found = Vec::new();
    push_qwen_chats(&root.join("projects").join(slug), &mut found);
    found
}

/// Qwen Code's chats of every project folder (`projects/*/chats/*.jsonl`).
pub fn qwen_all_sessions(env: &dyn Fn(&str) -> Option<String>) -> Vec<SessionFile> {
    let mut found = Vec::new();
    let Some(Ok(projects)) = qwen_root(env).map(|root| fs::read_dir(root.join("projects"))) else {
        return found;
    };
    for project in projects.flatten() {
        if project.file_type().is_ok_and(|t| t.is_dir()) {
            push_qwen_chats(&project.path(), &mut found);
        }
    }
    found
}

/// Qwen Code's folder: `$QWEN_RUNTIME_DIR`, else `$QWEN_HOME`, else `~/.qwen`.
fn qwen_root(env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    non_empty(env("QWEN_RUNTIME_DIR"))
        .or_else(|| non_empty(env("QWEN_HOME")))
        .map(PathBuf::from)
        .or_else(|| non_empty(env("HOME")).map(|home| Path::new(&home).join(".qwen")))
}

/// The `chats/*.jsonl` of one Qwen Code project folder.
fn push_qwen_chats(project: &Path, found: &mut Vec<SessionFile>) {
    let Ok(entries) = fs::read_dir(project.join("chats")) else {
        return;
    };
    for entry in entries.flatten() {
        if entry.file_name().to_string_lossy().ends_with(".jsonl") {
            push_file(found, entry.path());
        }
    }
}

/// At most the first `limit` bytes of `path` (opened read-only).
pub fn read_head(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut head = Vec::new();
    crate::files::open(path)?
        .take(limit)
        .read_to_end(&mut head)?;
    Ok(head)
}

fn non_empty(value: Option<String>) -> Option<String> {
    value.filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_claude_project_folder_is_the_path_with_slashes_and_dots_as_dashes() {
        let env = |name: &str| match name {
            "HOME" => Some("/home/u".to_owned()),
            _ => None,
        };
        assert_eq!(
            claude_project_dir(Path::new("/work/my.app"), &env),
            Some(PathBuf::from("/home/u/.claude/projects/-work-my-app"))
        );
        let env = |name: &str| match name {
            "HOME" => Some("/home/u".to_owned()),
            "CLAUDE_CONFIG_DIR" => Some("/cfg".to_owned()),
            _ => None,
        };
        assert_eq!(
            claude_project_dir(Path::new("/w"), &env),
            Some(PathBuf::from("/cfg/projects/-w"))
        );
    }
}
