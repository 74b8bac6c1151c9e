//! `R`: the command that resumes the session shown in the agent that wrote
//! it (`claude --resume ID`, `codex resume ID`, …), for the status bar and
//! the clipboard. It is never run. The id comes from the session's files,
//! so it is checked (printable, one line) and shell-quoted when it is not a
//! plain name (docs/tui.md, "Coming back to a session").

use std::path::{Path, PathBuf};

use crate::format::detect::{LineFormat, line_format};
use crate::source::opencode::SessionPath;
use crate::source::sessions::read_head;

/// How much of a session's start is read for its agent and id.
const HEAD: u64 = 64 * 1024;

/// Why `R` has no command to show: one line for the status bar.
#[derive(Debug, thiserror::Error)]
pub enum NoResume {
    /// The document is not one an agent wrote and can resume (a demo, a
    /// test document).
    #[error("no resume command for this conversation")]
    NotASession,
    /// A JP conversation: JP has no command that resumes one.
    #[error("no resume command: JP names none for a conversation")]
    Jp,
    /// Read from standard input or a FIFO: there is no file to name.
    #[error("no resume command: read from a stream")]
    Stream,
    /// An eve stream, or a file no agent overhear knows wrote.
    #[error("no resume command: not an agent session overhear knows how to resume")]
    UnknownAgent,
    /// The session's file could not be read.
    #[error("{}: {}", .path.display(), crate::problem::io_problem(.error))]
    Unreadable {
        /// The session's file.
        path: PathBuf,
        /// What went wrong.
        error: std::io::Error,
    },
    /// A Gemini CLI or Qwen Code chat that names no `sessionId`.
    #[error("no resume command: the chat names no sessionId")]
    NoSessionId,
    /// A Gemini CLI or Qwen Code chat whose `sessionId` is not a string.
    #[error("no resume command: the chat's sessionId cannot be read")]
    SessionIdUnreadable,
    /// The id is empty or holds a control character: no agent wrote it.
    #[error("no resume command: the session id is not printable")]
    NotPrintable,
}

/// The command that resumes the session in the file at `path`, or why
/// there is none.
pub fn command(path: &Path) -> Result<String, NoResume> {
    if let Some(session) = SessionPath::from_path(path) {
        return Ok(format!("opencode --session {}", quoted(&session.session)?));
    }
    let head = read_head(path, HEAD).map_err(|error| NoResume::Unreadable {
        path: path.to_path_buf(),
        error,
    })?;
    let first = head
        .split(|&b| b == b'\n')
        .find(|line| !line.trim_ascii().is_empty())
        .and_then(|line| serde_json::from_slice::<serde_json::Value>(line).ok());
    let format = first.as_ref().and_then(line_format);
    let stem = path
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.split('.').next())
        .unwrap_or_default();
    match format {
        Some(LineFormat::ClaudeCode) => Ok(format!("claude --resume {}", quoted(stem)?)),
        Some(LineFormat::Codex) => {
            let id = first
                .as_ref()
                .and_then(|v| v.pointer("/payload/id"))
                .and_then(|v| v.as_str())
                .map_or_else(|| uuid_tail(stem), str::to_owned);
            Ok(format!("codex resume {}", quoted(&id)?))
        }
        Some(LineFormat::Gemini) => Ok(format!("gemini --resume {}", quoted(&gemini_id(&head)?)?)),
        Some(LineFormat::Qwen) => Ok(format!("qwen --resume {}", quoted(&gemini_id(&head)?)?)),
        Some(LineFormat::Copilot) => {
            let folder = path
                .parent()
                .and_then(|p| p.file_name())
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            Ok(format!("copilot --resume {}", quoted(folder)?))
        }
        Some(LineFormat::OpenCode) | Some(LineFormat::Eve) | None => Err(NoResume::UnknownAgent),
    }
}

/// A Gemini CLI or Qwen Code chat's `sessionId`.
fn gemini_id(head: &[u8]) -> Result<String, NoResume> {
    const KEY: &[u8] = b"\"sessionId\"";
    let at = head
        .windows(KEY.len())
        .position(|w| w == KEY)
        .ok_or(NoResume::NoSessionId)?;
    let rest = &head[at + KEY.len()..];
    let colon = rest
        .iter()
        .position(|&b| b == b':')
        .ok_or(NoResume::SessionIdUnreadable)?;
    serde_json::Deserializer::from_slice(&rest[colon + 1..])
        .into_iter::<String>()
        .next()
        .and_then(Result::ok)
        .ok_or(NoResume::SessionIdUnreadable)
}

/// The 36-character id at the end of a Codex rollout's name
/// (`rollout-2026-01-22T10-15-23-<uuid>`), or the whole name.
fn uuid_tail(stem: &str) -> String {
    stem.get(stem.len().saturating_sub(36)..)
        .filter(|tail| tail.chars().filter(|&c| c == '-').count() == 4)
        .unwrap_or(stem)
        .to_owned()
}

/// `id` as one shell word: as is when it is a plain name, else in single
/// quotes. An id with a control character, or empty, is refused: it is not
/// an id any agent wrote.
fn quoted(id: &str) -> Result<String, NoResume> {
    if id.is_empty() || crate::text::sanitize::echo_line(id) != id {
        return Err(NoResume::NotPrintable);
    }
    if id
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':' | '/'))
    {
        return Ok(id.to_owned());
    }
    Ok(format!("'{}'", id.replace('\'', r"'\''")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_quoted_for_a_shell_and_control_characters_refused() {
        assert_eq!(quoted("0d3a8e6f-1").unwrap(), "0d3a8e6f-1");
        assert_eq!(quoted("a b;rm -rf ~").unwrap(), "'a b;rm -rf ~'");
        assert_eq!(quoted("it's").unwrap(), r"'it'\''s'");
        assert!(quoted("x\u{1b}]0;y\u{7}").is_err());
        assert!(quoted("a\u{202e}b").is_err());
        assert!(quoted("").is_err());
    }

    #[test]
    fn each_agent_has_its_command() {
        let dir = tempfile::tempdir().unwrap();
        let claude = dir.path().join("0d3a8e6f-0000-4000-8000-000000000001.jsonl");
        std::fs::write(&claude, "{\"type\":\"user\",\"uuid\":\"u\",\"sessionId\":\"s\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n").unwrap();
        assert_eq!(
            command(&claude).unwrap(),
            "claude --resume 0d3a8e6f-0000-4000-8000-000000000001"
        );
        let codex = dir.path().join("rollout-2026-01-22T10-15-23-0199aaaa-0000-7000-8000-000000000001.jsonl");
        std::fs::write(&codex, "{\"timestamp\":\"2026-01-22T10:00:00Z\",\"type\":\"session_meta\",\"payload\":{\"id\":\"0199aaaa-0000-7000-8000-000000000001\",\"cwd\":\"/w\"}}\n").unwrap();
        assert_eq!(
            command(&codex).unwrap(),
            "codex resume 0199aaaa-0000-7000-8000-000000000001"
        );
        let eve = dir.path().join("stream.ndjson");
        std::fs::write(&eve, "not json\n").unwrap();
        assert!(matches!(command(&eve), Err(NoResume::UnknownAgent)));
    }

    #[test]
    fn why_there_is_no_command_names_the_file_in_words() {
        let dir = tempfile::tempdir().unwrap();
        let gone = dir.path().join("0d3a8e6f.jsonl");
        assert_eq!(
            command(&gone).unwrap_err().to_string(),
            format!("{}: no such file or folder", gone.display())
        );
        let gemini = dir.path().join("session-1.jsonl");
        std::fs::write(&gemini, "{\"sessionId\": 7, \"projectHash\": \"h\"}\n").unwrap();
        assert_eq!(
            command(&gemini).unwrap_err().to_string(),
            "no resume command: the chat's sessionId cannot be read"
        );
    }
}
