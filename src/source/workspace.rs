//! A JP workspace and the conversations it holds, in both storage roots.
//!
//! JP keeps two copies of a conversation: the workspace copy under
//! `<repo>/.jp/conversations/` and the durable user-local copy under
//! `<user data>/workspace/<slug>-<workspace id>/conversations/`. Conversations
//! started with `--local` exist only in the second. A picker that lists only
//! `.jp/conversations/` misses them, so this module scans both (and each one's
//! `.archive/`) and, like JP, keeps the copy with the newer event stream.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

#[cfg(feature = "cli")]
use super::conversation::display_id;
use super::conversation::{BASE_CONFIG, ConversationDir, EVENTS, METADATA, id_from_dirname};
use super::lock::{is_held, lock_file_name};
use super::recency::{parse_nanos, system_nanos};

/// The workspace's storage folder name.
pub const STORAGE: &str = ".jp";
/// The archived partition inside a `conversations/` folder.
pub const ARCHIVE: &str = ".archive";

/// A JP workspace: a folder holding `.jp/`, plus where its user-local copy is.
/// Also a plain folder of conversation folders (a `conversations/` folder
/// itself, or a copy of some), so that the picker opens on those too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workspace {
    /// The folder holding `.jp/`, or the folder of conversations.
    pub root: PathBuf,
    /// The workspace id (second line of `.jp/.id`), if readable.
    pub id: Option<String>,
    /// The user-local silo `<user data>/workspace/<slug>-<id>/`, if it exists.
    pub user_root: Option<PathBuf>,
    /// `root` is itself a folder of conversations, not a workspace.
    pub plain_folder: bool,
}

/// One conversation as a picker lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConversationEntry {
    /// The id in deciseconds (`17758406187`).
    pub id: String,
    /// The folder of the copy chosen (the newer of the two roots).
    pub dir: PathBuf,
    /// `metadata.json` `title`.
    pub title: Option<String>,
    /// `metadata.json` `last_activated_at`, as written.
    pub last_activated_at: Option<String>,
    /// `metadata.json` has a `pinned_at`.
    pub pinned: bool,
    /// In `.archive/`, or `metadata.json` has an `archived_at`.
    pub archived: bool,
    /// A live `jp query` holds the conversation's lock (see [`super::lock`]).
    pub locked: bool,
    /// When it was last active, in nanoseconds since the Unix epoch
    /// (`last_activated_at`, else its event stream's file time): the order
    /// of a picker that lists it beside other kinds of conversation.
    pub active_at: i128,
}

impl ConversationEntry {
    /// The entry as a conversation to open.
    pub fn conversation(&self) -> ConversationDir {
        ConversationDir {
            id: Some(self.id.clone()),
            ..ConversationDir::new(&self.dir)
        }
    }

    /// The id as JP shows it (`jp-c17758406187`).
    #[cfg(feature = "cli")]
    pub fn display_id(&self) -> String {
        display_id(&self.id)
    }
}

/// A conversation folder found by a scan, before its metadata is read.
#[derive(Debug, Clone)]
struct Copy {
    id: String,
    dir: PathBuf,
    in_archive: bool,
    /// `max(mtime(events.json), mtime(base_config.json))`, JP's `stream_mtime`.
    stream_mtime: i128,
}

impl Workspace {
    /// The workspace around `start`: the nearest folder at or above it holding
    /// `.jp/`.
    pub fn discover(start: &Path, env: &dyn Fn(&str) -> Option<String>) -> Option<Workspace> {
        start
            .ancestors()
            .find(|dir| dir.join(STORAGE).is_dir())
            .map(|root| Workspace::open(root, env))
    }

    /// The workspace whose `.jp/` is in `root`; finds its user-local silo.
    pub fn open(root: &Path, env: &dyn Fn(&str) -> Option<String>) -> Workspace {
        let id = read_workspace_id(&root.join(STORAGE));
        let user_root = id
            .as_deref()
            .and_then(|id| find_silo(&user_data_dir(env)?, id));
        Workspace {
            root: root.to_path_buf(),
            id,
            user_root,
            plain_folder: false,
        }
    }

    /// `dir` as a folder of conversation folders, when it holds at least one
    /// (a folder named like a JP conversation, with `events.json`).
    pub fn plain_folder(dir: &Path) -> Option<Workspace> {
        let folder = Workspace {
            root: dir.to_path_buf(),
            id: None,
            user_root: None,
            plain_folder: true,
        };
        folder.has_conversations().then_some(folder)
    }

    /// The `conversations/` folders to scan, user-local first (it wins ties).
    pub fn conversation_roots(&self) -> Vec<PathBuf> {
        if self.plain_folder {
            return vec![self.root.clone()];
        }
        let mut roots = Vec::new();
        if let Some(user) = &self.user_root {
            roots.push(user.join("conversations"));
        }
        roots.push(self.root.join(STORAGE).join("conversations"));
        roots
    }

    /// Every conversation in both roots (archived ones too), each once, most
    /// recently active first.
    pub fn conversations(&self) -> Vec<ConversationEntry> {
        let mut entries: Vec<(i128, ConversationEntry)> = self
            .copies()
            .into_iter()
            .map(|copy| self.entry(&copy))
            .collect();
        sort_most_recent_first(&mut entries);
        entries.into_iter().map(|(_, entry)| entry).collect()
    }

    /// The most recently active conversation, archived or not.
    pub fn most_recent(&self) -> Option<ConversationEntry> {
        self.conversations().into_iter().next()
    }

    /// The conversation with this id (deciseconds), in either root.
    pub fn find(&self, id: &str) -> Option<ConversationEntry> {
        let copy = self.copies().into_iter().find(|copy| copy.id == id)?;
        Some(self.entry(&copy).1)
    }

    /// Whether any conversation exists, without reading any of them.
    pub fn has_conversations(&self) -> bool {
        !self.copies().is_empty()
    }

    /// Where JP puts the lock of conversation `id`: the user-local `locks/`,
    /// then `.jp/locks/` (used when there is no user-local storage).
    pub fn lock_files(&self, id: &str) -> Vec<PathBuf> {
        let name = lock_file_name(id);
        if self.plain_folder {
            // A user-local `conversations/` folder has `locks/` beside it.
            return self
                .root
                .parent()
                .map(|silo| vec![silo.join("locks").join(&name)])
                .unwrap_or_default();
        }
        let mut files = Vec::new();
        if let Some(user) = &self.user_root {
            files.push(user.join("locks").join(&name));
        }
        files.push(self.root.join(STORAGE).join("locks").join(&name));
        files
    }

    /// Whether a live `jp query` holds conversation `id` (never takes the lock).
    pub fn is_locked(&self, id: &str) -> bool {
        self.lock_files(id).iter().any(|file| is_held(file))
    }

    /// All conversation folders of both roots, one per id, the newer copy of
    /// each (ties go to the user-local copy, scanned first).
    fn copies(&self) -> Vec<Copy> {
        let mut chosen: HashMap<String, Copy> = HashMap::new();
        for root in self.conversation_roots() {
            for copy in scan_root(&root) {
                match chosen.get(&copy.id) {
                    Some(existing) if existing.stream_mtime >= copy.stream_mtime => {}
                    _ => {
                        chosen.insert(copy.id.clone(), copy);
                    }
                }
            }
        }
        chosen.into_values().collect()
    }

    /// Reads a copy's metadata; returns the sort key with it.
    fn entry(&self, copy: &Copy) -> (i128, ConversationEntry) {
        let meta = Metadata::read(&copy.dir.join(METADATA));
        let sort_key = meta
            .last_activated_at
            .as_deref()
            .and_then(parse_nanos)
            .unwrap_or(copy.stream_mtime);
        let entry = ConversationEntry {
            id: copy.id.clone(),
            dir: copy.dir.clone(),
            title: meta.title,
            last_activated_at: meta.last_activated_at,
            pinned: meta.pinned,
            archived: copy.in_archive || meta.archived,
            locked: self.is_locked(&copy.id),
            active_at: sort_key,
        };
        (sort_key, entry)
    }
}

/// The keys of `metadata.json` a picker needs.
#[derive(Debug, Default)]
struct Metadata {
    title: Option<String>,
    last_activated_at: Option<String>,
    pinned: bool,
    archived: bool,
}

impl Metadata {
    /// Reads `metadata.json`; a missing or broken file gives no metadata.
    fn read(path: &Path) -> Metadata {
        let Ok(bytes) = crate::files::read(path) else {
            return Metadata::default();
        };
        let Ok(value) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
            return Metadata::default();
        };
        let text = |key: &str| value.get(key).and_then(|v| v.as_str()).map(str::to_owned);
        let set = |key: &str| value.get(key).is_some_and(|v| !v.is_null());
        Metadata {
            title: text("title"),
            last_activated_at: text("last_activated_at"),
            pinned: set("pinned_at"),
            archived: set("archived_at"),
        }
    }
}

/// Newest first; equal times by id, newest first.
fn sort_most_recent_first(entries: &mut [(i128, ConversationEntry)]) {
    entries.sort_by(|(ka, a), (kb, b)| {
        kb.cmp(ka)
            .then_with(|| b.id.len().cmp(&a.id.len()))
            .then_with(|| b.id.cmp(&a.id))
    });
}

/// Conversation folders in one `conversations/` folder and its `.archive/`;
/// other dot-entries (`.trash/`, leftover temp folders) are skipped, and so
/// are folders without `events.json`.
fn scan_root(conversations: &Path) -> Vec<Copy> {
    let mut found = Vec::new();
    scan_partition(conversations, false, &mut found);
    scan_partition(&conversations.join(ARCHIVE), true, &mut found);
    found
}

fn scan_partition(folder: &Path, in_archive: bool, found: &mut Vec<Copy>) {
    let Ok(entries) = fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(id) = name.to_str().and_then(id_from_dirname) else {
            continue;
        };
        let dir = entry.path();
        let Some(stream_mtime) = stream_mtime(&dir) else {
            continue;
        };
        found.push(Copy {
            id: id.to_owned(),
            dir,
            in_archive,
            stream_mtime,
        });
    }
}

/// JP's `stream_mtime`: the later of `events.json`'s and `base_config.json`'s
/// modification times; `None` without `events.json`.
pub(crate) fn stream_mtime(dir: &Path) -> Option<i128> {
    let mtime = |name: &str| {
        fs::metadata(dir.join(name))
            .ok()
            .filter(fs::Metadata::is_file)
            .and_then(|m| m.modified().ok())
            .map(system_nanos)
    };
    let events = mtime(EVENTS)?;
    Some(mtime(BASE_CONFIG).map_or(events, |base| base.max(events)))
}

/// The workspace id: the second line of `.jp/.id`.
fn read_workspace_id(storage: &Path) -> Option<String> {
    let text = String::from_utf8(crate::files::read(&storage.join(".id")).ok()?).ok()?;
    let id = text.lines().nth(1)?.trim();
    (!id.is_empty()).then(|| id.to_owned())
}

/// JP's user data folder: `$JP_USER_DATA_DIR`, else `$XDG_DATA_HOME/jp` when
/// absolute, else `$HOME/.local/share/jp`.
pub fn user_data_dir(env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let set = |key: &str| env(key).filter(|v| !v.is_empty());
    if let Some(dir) = set("JP_USER_DATA_DIR") {
        return Some(PathBuf::from(dir));
    }
    if let Some(xdg) = set("XDG_DATA_HOME").map(PathBuf::from)
        && xdg.is_absolute()
    {
        return Some(xdg.join("jp"));
    }
    set("HOME").map(|home| Path::new(&home).join(".local/share/jp"))
}

/// The silo of workspace `id`: the folder under `<user data>/workspace/` whose
/// name ends in `-<id>` (the slug before it is cosmetic). Several matches: the
/// first by name, for a stable answer.
fn find_silo(user_data: &Path, id: &str) -> Option<PathBuf> {
    let suffix = format!("-{id}");
    let mut matches: Vec<PathBuf> = fs::read_dir(user_data.join("workspace"))
        .ok()?
        .flatten()
        .filter(|entry| {
            entry
                .file_name()
                .to_str()
                .is_some_and(|name| name.ends_with(&suffix))
        })
        .map(|entry| entry.path())
        .filter(|path| path.is_dir())
        .collect();
    matches.sort();
    matches.into_iter().next()
}

#[cfg(test)]
mod tests;
