//! OpenCode's legacy store, a tree of JSON files (before 1.2; spec
//! agent-transcripts-2 §5.9): `storage/session/<project>/<session>.json`,
//! `storage/message/<session>/<message>.json`,
//! `storage/part/<message>/<part>.json`. Ids come from the file names (the
//! importer's rule); each file's text becomes one row record's `data`.
//! Which session ran where is in the files' JSON, which this stage does not
//! parse: a legacy session is listed by its file's id and time only.

use std::path::{Path, PathBuf};

use serde_json::json;

use super::SessionInfo;
use super::db::{Row, interleave};

/// The `*.json` files of `dir`, sorted by name, with their ids.
fn json_files(dir: &Path) -> Vec<(String, PathBuf)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<(String, PathBuf)> = entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name();
            let id = name.to_str()?.strip_suffix(".json")?.to_string();
            entry.file_type().ok()?.is_file().then(|| (id, entry.path()))
        })
        .collect();
    found.sort();
    found
}

/// Every session file of the tree at `storage`.
fn session_files(storage: &Path) -> Vec<(String, PathBuf)> {
    let Ok(projects) = std::fs::read_dir(storage.join("session")) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for project in projects.flatten() {
        found.extend(json_files(&project.path()));
    }
    found.sort();
    found
}

/// The file of session `id`.
pub(super) fn session_file(storage: &Path, id: &str) -> Option<PathBuf> {
    session_files(storage)
        .into_iter()
        .find(|(found, _)| found == id)
        .map(|(_, path)| path)
}

/// Every session of the tree, newest file time as its time.
pub(super) fn sessions(storage: &Path) -> Vec<SessionInfo> {
    session_files(storage)
        .into_iter()
        .map(|(id, path)| {
            let updated = newest(&files_of(storage, &id, &path));
            SessionInfo {
                id,
                parent: None,
                title: None,
                directory: None,
                worktree: None,
                updated,
            }
        })
        .collect()
}

/// The newest modification time among `files`, in milliseconds.
fn newest(files: &[PathBuf]) -> i64 {
    files
        .iter()
        .filter_map(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok())
        .filter_map(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .max()
        .unwrap_or(0)
}

/// Every file of session `id`: its own, its messages', their parts'.
pub(super) fn files(storage: &Path, id: &str) -> Vec<PathBuf> {
    match session_file(storage, id) {
        Some(path) => files_of(storage, id, &path),
        None => Vec::new(),
    }
}

fn files_of(storage: &Path, id: &str, session: &Path) -> Vec<PathBuf> {
    let mut found = vec![session.to_path_buf()];
    for (message, path) in json_files(&storage.join("message").join(id)) {
        found.push(path);
        found.extend(
            json_files(&storage.join("part").join(&message))
                .into_iter()
                .map(|(_, p)| p),
        );
    }
    found
}

/// The row records of session `id`: its file, then each message file
/// followed by its parts' files. A file that cannot be read right now (it
/// is being replaced) is left for the next poll.
pub(super) fn rows(storage: &Path, id: &str) -> std::io::Result<Vec<Row>> {
    let session = session_file(storage, id).ok_or_else(|| {
        std::io::Error::other(format!(
            "{}: no session {id} in this OpenCode store",
            storage.display()
        ))
    })?;
    let text = |path: &Path| {
        crate::files::read(path)
            .ok()
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
    };
    let updated = |path: &Path| newest(&[path.to_path_buf()]);
    let mut out = Vec::new();
    if let Some(data) = text(&session) {
        let record = json!({"opencode": "session", "id": id, "data": data});
        out.push(Row::new("session", id.to_string(), updated(&session), record));
    }
    let mut messages = Vec::new();
    let mut parts = Vec::new();
    for (message, path) in json_files(&storage.join("message").join(id)) {
        if let Some(data) = text(&path) {
            let record =
                json!({"opencode": "message", "id": message, "session_id": id, "data": data});
            let row = Row::new("message", message.clone(), updated(&path), record);
            messages.push((message.clone(), row));
        }
        for (part, path) in json_files(&storage.join("part").join(&message)) {
            if let Some(data) = text(&path) {
                let record = json!({"opencode": "part", "id": part, "message_id": message,
                                    "session_id": id, "data": data});
                parts.push((message.clone(), Row::new("part", part, updated(&path), record)));
            }
        }
    }
    out.extend(interleave(messages, parts));
    Ok(out)
}
