//! Where OpenCode keeps its sessions, and reading one as a stream of row
//! records (spec agent-transcripts-2 §5, §6.2; docs/agents.md, "OpenCode").
//!
//! OpenCode's store is not a file that grows: since 1.2 it is an SQLite
//! database (`opencode.db`, `opencode-<channel>.db`), before that a tree of
//! JSON files (`storage/`). This module reads either and hands the rows of
//! one session — and of the sub-agent sessions under it — to the format
//! stage as **row records**, one JSON object per line
//! (`format::opencode`'s `rows.rs` documents them), so the store is read
//! through the same stream seam as a transcript file: a first poll gives
//! every row, each later poll the rows added or changed since
//! ([`StoreTail`]). It never parses the rows' JSON: `data` is copied as the
//! text stored.
//!
//! A session is named by a path: `<database>/<session id>` (a path below a
//! file, so it names nothing else on disk), or the legacy session's own file
//! `storage/session/<project>/<session id>.json` ([`SessionPath`]).

mod db;
mod tail;
mod tree;

use std::path::{Path, PathBuf};

pub use tail::StoreTail;
#[cfg(feature = "cli")]
pub use tail::read_whole;

/// An OpenCode store: its database, or its legacy `storage/` folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Store {
    /// An SQLite database (`opencode.db`).
    Database(PathBuf),
    /// A legacy JSON tree: the `storage/` folder.
    Tree(PathBuf),
}

/// One session of a store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionPath {
    /// The store.
    pub store: Store,
    /// The session's id (`ses_…`).
    pub session: String,
}

/// What the store says of one session, for choosing and listing them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionInfo {
    /// Its id.
    pub id: String,
    /// The session that started it, for a sub-agent's.
    pub parent: Option<String>,
    /// Its title (none known for a legacy session).
    pub title: Option<String>,
    /// The folder it ran in.
    pub directory: Option<String>,
    /// Its project's work tree.
    pub worktree: Option<String>,
    /// When it was last changed (milliseconds since the epoch).
    pub updated: i64,
}

/// Why a store could not be read.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused (not a database, locked, …).
    #[error("{}: {problem}", .path.display())]
    Sqlite {
        /// The database.
        path: PathBuf,
        /// SQLite's words.
        problem: String,
    },
    /// The tables or columns a query needs are not there.
    #[error("{}: schema changed (OpenCode {version}): {missing}", .path.display())]
    Schema {
        /// The database.
        path: PathBuf,
        /// The version its newest session names (`unknown` without one).
        version: String,
        /// What is missing.
        missing: String,
    },
    /// A file or folder could not be read.
    #[error("{}: {}", .path.display(), crate::problem::io_problem(.source))]
    Io {
        /// The path.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The session named is not in the store.
    #[error("{}: no session {session} in this OpenCode store", .path.display())]
    NoSession {
        /// The store.
        path: PathBuf,
        /// The id asked for.
        session: String,
    },
    /// The store holds no session.
    #[error("{}: an OpenCode store without sessions", .0.display())]
    Empty(PathBuf),
    /// The path names no store (`--session ID` given with another PATH).
    #[error(
        "{} is not an OpenCode store (opencode.db, its data folder or a storage/ tree)",
        .0.display()
    )]
    NotAStore(PathBuf),
    /// An OpenCode database, and this build reads none: it was built without
    /// the `opencode` feature, so without SQLite.
    #[cfg(not(feature = "opencode"))]
    #[error(
        "{}: an OpenCode database, and this build of overhear has no OpenCode database support (built without the `opencode` feature)",
        .0.display()
    )]
    NoDatabaseSupport(PathBuf),
}

impl From<StoreError> for std::io::Error {
    fn from(error: StoreError) -> std::io::Error {
        std::io::Error::other(error.to_string())
    }
}

impl Store {
    /// The store's own path (the database file, or the `storage/` folder).
    pub fn path(&self) -> &Path {
        match self {
            Store::Database(path) | Store::Tree(path) => path,
        }
    }

    /// Every session of the store (sub-agents' too).
    pub fn sessions(&self) -> Result<Vec<SessionInfo>, StoreError> {
        match self {
            Store::Database(path) => db::sessions(path),
            Store::Tree(path) => Ok(tree::sessions(path)),
        }
    }

    /// The session to open when none is named: among the sessions that are
    /// no sub-agent's, the newest of `cwd` (run in it, or in its project's
    /// work tree), else the newest.
    pub fn choose(&self, cwd: &Path) -> Result<SessionPath, StoreError> {
        let sessions = self.sessions()?;
        let session = of_folder(&sessions, cwd)
            .into_iter()
            .next()
            .or_else(|| {
                sessions
                    .iter()
                    .filter(|s| s.parent.is_none())
                    .max_by_key(|s| s.updated)
            })
            .ok_or_else(|| StoreError::Empty(self.path().to_path_buf()))?;
        Ok(SessionPath {
            store: self.clone(),
            session: session.id.clone(),
        })
    }

    /// The session `id` of this store, if it holds it.
    #[cfg(feature = "cli")]
    pub fn session(&self, id: &str) -> Result<SessionPath, StoreError> {
        if self.sessions()?.iter().any(|s| s.id == id) {
            Ok(SessionPath {
                store: self.clone(),
                session: id.to_string(),
            })
        } else {
            Err(StoreError::NoSession {
                path: self.path().to_path_buf(),
                session: id.to_string(),
            })
        }
    }
}

/// The sessions of `cwd` among `sessions`, newest first, sub-agents' left
/// out: those that ran in `cwd`, then those of a project whose work tree
/// holds `cwd` (spec §5.1; a work tree of `/` holds nothing).
pub fn of_folder<'a>(sessions: &'a [SessionInfo], cwd: &Path) -> Vec<&'a SessionInfo> {
    let rank = |s: &SessionInfo| {
        if s.directory.as_deref().is_some_and(|d| Path::new(d) == cwd) {
            Some(0)
        } else if s
            .worktree
            .as_deref()
            .is_some_and(|w| w != "/" && !w.is_empty() && cwd.starts_with(w))
        {
            Some(1)
        } else {
            None
        }
    };
    let mut found: Vec<(u8, &SessionInfo)> = sessions
        .iter()
        .filter(|s| s.parent.is_none())
        .filter_map(|s| rank(s).map(|r| (r, s)))
        .collect();
    found.sort_by_key(|(rank, s)| (*rank, std::cmp::Reverse(s.updated)));
    found.into_iter().map(|(_, s)| s).collect()
}

impl SessionPath {
    /// The path that names the session: `<database>/<id>`, or the legacy
    /// session file.
    pub fn path(&self) -> PathBuf {
        match &self.store {
            Store::Database(db) => db.join(&self.session),
            Store::Tree(storage) => {
                tree::session_file(storage, &self.session).unwrap_or_else(|| {
                    storage
                        .join("session")
                        .join("unknown")
                        .join(format!("{}.json", self.session))
                })
            }
        }
    }

    /// The files the session is read from: the database and its `-wal`
    /// (present or not), or the legacy session's files.
    #[cfg(feature = "cli")]
    pub fn files(&self) -> Vec<PathBuf> {
        match &self.store {
            Store::Database(db) => vec![db.clone(), db::wal_path(db)],
            Store::Tree(storage) => tree::files(storage, &self.session),
        }
    }

    /// When one of its files was last written.
    #[cfg(feature = "cli")]
    pub fn modified(&self) -> Option<std::time::SystemTime> {
        self.files()
            .iter()
            .filter_map(|path| std::fs::metadata(path).and_then(|m| m.modified()).ok())
            .max()
    }

    /// The session a path names, when it names one: a path below an SQLite
    /// database file, or a file `storage/session/<project>/<id>.json`.
    pub fn from_path(path: &Path) -> Option<SessionPath> {
        let parent = path.parent()?;
        let name = path.file_name()?.to_str()?;
        if is_database(parent) {
            return Some(SessionPath {
                store: Store::Database(parent.to_path_buf()),
                session: name.to_string(),
            });
        }
        let id = name.strip_suffix(".json")?;
        let session_dir = parent.parent()?;
        let storage = session_dir.parent()?;
        let is_tree = session_dir.file_name()? == "session"
            && storage.file_name()? == "storage"
            && storage.join("message").is_dir();
        is_tree.then(|| SessionPath {
            store: Store::Tree(storage.to_path_buf()),
            session: id.to_string(),
        })
    }
}

/// The path of session `id` of the store `path` names: a database, a
/// session of one (`<database>/<other id>`), a data folder or a `storage/`
/// tree, or a legacy session's file. The error says why it names none.
#[cfg(feature = "cli")]
pub fn with_session(path: &Path, id: &str) -> Result<PathBuf, StoreError> {
    let store = if is_database(path) {
        Store::Database(path.to_path_buf())
    } else if let Some(session) = SessionPath::from_path(path) {
        session.store
    } else if let Some(store) = path.is_dir().then(|| store_in(path)).flatten() {
        store
    } else {
        return Err(StoreError::NotAStore(path.to_path_buf()));
    };
    store.session(id).map(|session| session.path())
}

/// When what `path` names was last written: an OpenCode session's newest
/// file, or the file itself.
#[cfg(feature = "cli")]
pub fn modified(path: &Path) -> Option<std::time::SystemTime> {
    match SessionPath::from_path(path) {
        Some(session) => session.modified(),
        None => super::recency::modified(path),
    }
}

/// Whether `path` is a regular file that starts with SQLite's header.
pub fn is_database(path: &Path) -> bool {
    path.is_file() && matches!(crate::files::sqlite::header(path), Ok(Some(_)))
}

/// The store a folder is, or holds: a `storage/` folder with `session/` and
/// `message/` in it, or OpenCode's data folder holding `opencode.db` (or a
/// `storage/` tree when it has no database).
pub fn store_in(dir: &Path) -> Option<Store> {
    let tree = |storage: &Path| {
        (storage.join("session").is_dir() && storage.join("message").is_dir())
            .then(|| Store::Tree(storage.to_path_buf()))
    };
    if dir.file_name().is_some_and(|n| n == "storage") {
        return tree(dir);
    }
    databases(dir)
        .into_iter()
        .next()
        .map(Store::Database)
        .or_else(|| tree(&dir.join("storage")))
}

/// OpenCode's databases in its data folder: `opencode.db` first, then
/// `opencode-<channel>.db` (spec §5.1).
fn databases(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let main = dir.join("opencode.db");
    if is_database(&main) {
        found.push(main);
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    let mut others: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("opencode-") && n.ends_with(".db"))
        })
        .filter(|p| is_database(p))
        .collect();
    others.sort();
    found.extend(others);
    found
}

/// OpenCode's data folder: `$XDG_DATA_HOME/opencode`, by default
/// `~/.local/share/opencode` (spec §5.1; on macOS too).
#[cfg(feature = "cli")]
pub fn data_dir(env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let non_empty = |name: &str| env(name).filter(|v| !v.is_empty());
    non_empty("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| non_empty("HOME").map(|home| Path::new(&home).join(".local/share")))
        .map(|data| data.join("opencode"))
}

/// Every store in OpenCode's data folder: its databases, and its legacy
/// tree when no database holds a session (an upgraded install keeps the
/// tree as a frozen leftover, spec §5.1).
#[cfg(feature = "cli")]
pub fn stores(env: &dyn Fn(&str) -> Option<String>) -> Vec<Store> {
    let Some(dir) = data_dir(env) else {
        return Vec::new();
    };
    let mut found: Vec<Store> = databases(&dir).into_iter().map(Store::Database).collect();
    let any = found
        .iter()
        .any(|store| store.sessions().is_ok_and(|s| !s.is_empty()));
    if !any && let Some(tree) = store_in(&dir.join("storage")) {
        found.push(tree);
    }
    found
}

#[cfg(all(test, feature = "opencode"))]
mod tests;
