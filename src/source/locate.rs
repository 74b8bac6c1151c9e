//! What a PATH argument names: a conversation, an eve stream, stdin or a
//! JP workspace.

use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::format::detect::{Detected, HEAD, detect};

use thiserror::Error;

use super::conversation::{BASE_CONFIG, ConversationDir, EVENTS, METADATA, is_id};
use super::opencode::{self, SessionPath};
use super::workspace::Workspace;

/// What the viewer was asked to open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A JP conversation folder (or a lone events file).
    JpConversation(ConversationDir),
    /// An eve session stream: NDJSON, one object per line, appended to (a
    /// Claude Code or Codex transcript too), or one session of an OpenCode
    /// store, named by its path ([`opencode::SessionPath`]) and read as row
    /// records.
    EveStream(PathBuf),
    /// A stream on standard input (`-`).
    Stdin,
    /// A path that is not a regular file (a FIFO, a character device,
    /// `/dev/stdin`, `/dev/fd/N`, `<(…)`): read exactly once, as a stream,
    /// its format told by its first bytes.
    Stream(PathBuf),
    /// A JP workspace: open its most recent conversation, offer the others.
    Workspace(Workspace),
}

/// Why a PATH argument names nothing the viewer can open. Each message is one
/// line that names the path.
#[derive(Debug, Error)]
pub enum LocateError {
    /// The path does not exist (and is not a conversation id).
    #[error("{}: no such file or folder", .0.display())]
    NotFound(PathBuf),
    /// An empty folder.
    #[error("{}: empty folder, not a JP conversation", .0.display())]
    EmptyFolder(PathBuf),
    /// A folder without `events.json` outside any workspace.
    #[error(
        "{}: not a JP conversation (no events.json) and not inside a JP workspace (no .jp/ here or above)",
        .0.display()
    )]
    NotAConversation(PathBuf),
    /// A file that is neither a JP events array nor an eve stream.
    #[error(
        "{}: line {line}, column {column}: {found:?} starts neither a JP events file (a JSON array, `[`) nor an eve stream (JSON objects, one per line, `{{`)",
        .path.display()
    )]
    UnknownFile {
        /// The file.
        path: PathBuf,
        /// 1-based line of its first non-blank character.
        line: usize,
        /// 1-based column (in bytes) of that character.
        column: usize,
        /// The character (shown escaped).
        found: char,
    },
    /// An input whose first [`HEAD`] bytes are all whitespace: no writer of
    /// a format overhear reads starts so.
    #[error(
        "{}: nothing but whitespace in its first 64 KiB; a JP events file starts with `[`, a stream with `{{`",
        .0.display()
    )]
    BlankHead(PathBuf),
    /// An empty file whose name does not say it is a stream.
    #[error(
        "{}: empty file; a stream that has not started yet is followed when its name ends in .ndjson or .jsonl",
        .0.display()
    )]
    EmptyFile(PathBuf),
    /// A stream (stdin, a FIFO) that ended before anything but whitespace.
    #[error("{}: the stream ended before any input", .0.display())]
    EmptyStream(PathBuf),
    /// No argument, and no workspace around the current folder.
    #[error("{}: not inside a JP workspace (no .jp/ here or above) and no Claude Code or Codex session of this folder; give a PATH", .0.display())]
    NoWorkspace(PathBuf),
    /// A workspace that holds no conversation.
    #[error("{}: JP workspace without conversations", .0.display())]
    NoConversations(PathBuf),
    /// A conversation id that the workspace does not hold.
    #[error("{id}: no such conversation in the JP workspace at {}", .root.display())]
    UnknownId {
        /// The id as given.
        id: String,
        /// The workspace searched.
        root: PathBuf,
    },
    /// An OpenCode store that could not be read, or holds no such session.
    #[error(transparent)]
    Store(#[from] super::opencode::StoreError),
    /// Reading the path failed.
    #[error("{}: {}", .path.display(), crate::problem::io_problem(.source))]
    Io {
        /// The path being read.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
}

/// Decides what `arg` names. `None`: the workspace around `cwd`. Relative
/// paths are taken from `cwd`; `env` reads environment variables (for the
/// user-local storage root).
///
/// * `-` → [`Target::Stdin`];
/// * anything that exists and is neither a folder nor a regular file (a FIFO,
///   a character device, `/dev/fd/N`) → [`Target::Stream`];
/// * an `events.json` (or a `metadata.json`/`base_config.json` beside one),
///   or a folder holding `events.json` → that conversation;
/// * a `.ndjson`/`.jsonl` file, or any file whose first non-blank byte is `{`
///   → [`Target::EveStream`]; another file starting with `[` → a lone JP
///   events file (JP's `events.json` always starts with `[`);
/// * a folder holding `.jp/`, or any folder below one → [`Target::Workspace`];
/// * a folder of conversation folders (JP's `conversations/` itself, or a copy
///   of some) → [`Target::Workspace`] over that folder ([`Workspace::plain_folder`]);
/// * `jp-c17758406187` or `17758406187` that is not an existing path → that
///   conversation in the workspace around `cwd` (either root, archived too).
pub fn locate(
    arg: Option<&str>,
    cwd: &Path,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Target, LocateError> {
    let Some(arg) = arg else {
        let workspace =
            Workspace::discover(cwd, env).ok_or_else(|| LocateError::NoWorkspace(cwd.into()))?;
        return with_conversations(workspace);
    };
    if arg == "-" {
        return Ok(Target::Stdin);
    }
    // `.` and `a/./b` are named without their `.` in messages.
    let path: PathBuf = cwd.join(arg).components().collect();
    match fs::metadata(&path) {
        Ok(meta) if meta.is_dir() => locate_folder(&path, cwd, env),
        Ok(meta) if meta.is_file() => locate_file(&path, cwd),
        // Opening it, let alone reading it twice, could consume what a
        // writer sends: it is read once, later, by whoever follows it.
        Ok(_) => Ok(Target::Stream(path)),
        // `opencode.db/<session id>`: one session of an OpenCode database.
        Err(_) if SessionPath::from_path(&path).is_some() => Ok(Target::EveStream(path)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => match as_conversation_id(arg) {
            Some(id) => locate_id(id, cwd, env),
            None => Err(LocateError::NotFound(path)),
        },
        Err(source) => Err(LocateError::Io { path, source }),
    }
}

/// The digits of `jp-c<digits>` or `<digits>`.
fn as_conversation_id(arg: &str) -> Option<&str> {
    let id = arg.strip_prefix("jp-c").unwrap_or(arg);
    is_id(id).then_some(id)
}

fn locate_id(
    id: &str,
    cwd: &Path,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Target, LocateError> {
    let workspace =
        Workspace::discover(cwd, env).ok_or_else(|| LocateError::NoWorkspace(cwd.into()))?;
    let entry = workspace.find(id).ok_or_else(|| LocateError::UnknownId {
        id: id.to_owned(),
        root: workspace.root.clone(),
    })?;
    Ok(Target::JpConversation(entry.conversation()))
}

fn locate_folder(
    dir: &Path,
    cwd: &Path,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Target, LocateError> {
    let events = dir.join(EVENTS);
    match fs::metadata(&events) {
        Ok(meta) if meta.is_file() => {
            return Ok(Target::JpConversation(ConversationDir::new(dir)));
        }
        // A link that leads nowhere (or back to itself) is an events.json
        // that cannot be read, not a folder without one.
        Err(source) if fs::symlink_metadata(&events).is_ok() => {
            return Err(LocateError::Io {
                path: events,
                source,
            });
        }
        _ => {}
    }
    if let Some(workspace) = Workspace::discover(dir, env) {
        return with_conversations(workspace);
    }
    if let Some(store) = opencode::store_in(dir) {
        return Ok(Target::EveStream(store.choose(cwd)?.path()));
    }
    if let Some(folder) = Workspace::plain_folder(dir) {
        return Ok(Target::Workspace(folder));
    }
    let mut entries = fs::read_dir(dir).map_err(|source| LocateError::Io {
        path: dir.into(),
        source,
    })?;
    if entries.next().is_none() {
        Err(LocateError::EmptyFolder(dir.into()))
    } else {
        Err(LocateError::NotAConversation(dir.into()))
    }
}

fn with_conversations(workspace: Workspace) -> Result<Target, LocateError> {
    if workspace.has_conversations() {
        Ok(Target::Workspace(workspace))
    } else {
        Err(LocateError::NoConversations(workspace.root))
    }
}

fn locate_file(file: &Path, cwd: &Path) -> Result<Target, LocateError> {
    let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if opencode::is_database(file) {
        let store = opencode::Store::Database(file.to_path_buf());
        return Ok(Target::EveStream(store.choose(cwd)?.path()));
    }
    if SessionPath::from_path(file).is_some() {
        return Ok(Target::EveStream(file.to_path_buf()));
    }
    let dir = file.parent().unwrap_or(Path::new("."));
    if name == EVENTS {
        return Ok(Target::JpConversation(ConversationDir::new(dir)));
    }
    if (name == METADATA || name == BASE_CONFIG) && dir.join(EVENTS).is_file() {
        return Ok(Target::JpConversation(ConversationDir::new(dir)));
    }
    let extension = file.extension().and_then(|e| e.to_str()).unwrap_or("");
    let stream_name =
        extension.eq_ignore_ascii_case("ndjson") || extension.eq_ignore_ascii_case("jsonl");
    let io = |source| LocateError::Io {
        path: file.into(),
        source,
    };
    let mut head = Vec::with_capacity(4096);
    crate::files::open(file)
        .map_err(io)?
        .take(HEAD as u64 + 4)
        .read_to_end(&mut head)
        .map_err(io)?;
    match detect(&head) {
        Detected::Eve => Ok(Target::EveStream(file.into())),
        // A stream's name says what it is, even before its first line.
        Detected::Jp | Detected::Blank if stream_name => Ok(Target::EveStream(file.into())),
        Detected::Jp => Ok(Target::JpConversation(ConversationDir::standalone(file))),
        Detected::Blank => Err(LocateError::EmptyFile(file.into())),
        Detected::BlankHead => Err(LocateError::BlankHead(file.into())),
        Detected::Other {
            line,
            column,
            found,
        } => Err(LocateError::UnknownFile {
            path: file.into(),
            line,
            column,
            found,
        }),
    }
}

#[cfg(test)]
mod tests;
