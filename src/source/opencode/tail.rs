//! Following one OpenCode session while the agent writes it: each poll
//! hands over the row records added or changed since the last
//! (spec agent-transcripts-2 §6.2).
//!
//! A poll is cheap when nothing changed: the database's and its `-wal`
//! file's size and modification time, and `PRAGMA data_version`, are
//! compared with the last poll's; only a difference runs the queries, and
//! they read only rows whose `time_updated` is at or after the newest one
//! seen (parts are updated in place while they stream, so the cursor is a
//! time, not an id). A row whose text is the same as last time is not sent
//! again. A legacy tree is polled by its files' sizes and times; a file
//! caught mid-replacement is read at the next poll.
//!
//! SQLite's writer grows the `-wal` before its commit is visible (it
//! updates the index in the `-shm` last): a poll that finds the files
//! changed but `data_version` not is early. The tail then says it is
//! [`StoreTail::waiting`] for a while, and a viewer polls it at each of its
//! ticks, so a commit made visible after the watcher's last look is still
//! read (without this, a writer paused between the two steps on a loaded
//! machine left a part unshown until the next write).

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;
#[cfg(all(feature = "cli", feature = "opencode"))]
use std::time::Duration;
#[cfg(feature = "cli")]
use std::time::Instant;

#[cfg(feature = "opencode")]
use super::db::Db;
use super::db::{Row, wal_path};
use super::{SessionPath, Store, StoreError, tree};
use crate::source::tail::TailRead;

/// Milliseconds since the epoch as RFC 3339.
#[cfg(feature = "opencode")]
pub(super) fn rfc3339(ms: i64) -> Option<String> {
    jiff::Timestamp::from_millisecond(ms)
        .ok()
        .map(|t| t.to_string())
}

/// Follows one session of a store.
#[derive(Debug)]
pub struct StoreTail {
    session: SessionPath,
    /// The path that names it (for messages).
    path: PathBuf,
    /// The open database, once opened.
    #[cfg(feature = "opencode")]
    db: Option<Db>,
    /// What the files looked like at the last poll.
    stamp: Option<Vec<(u64, Option<SystemTime>)>>,
    /// The database's `data_version` at the last poll.
    #[cfg(feature = "opencode")]
    version: Option<i64>,
    /// The newest `time_updated` read.
    cursor: i64,
    /// Each row sent, by table and id: its text's hash.
    sent: HashMap<String, u64>,
    /// The next poll's rows replace everything read ([`StoreTail::forget`]).
    reset: bool,
    /// Until when a commit seen written but not yet visible is waited for.
    #[cfg(feature = "cli")]
    waiting_until: Option<Instant>,
}

/// How long a poll that found the files changed before their commit was
/// visible keeps the tail [`StoreTail::waiting`] (only a database has
/// commits).
#[cfg(all(feature = "cli", feature = "opencode"))]
const COMMIT_WAIT: Duration = Duration::from_secs(5);

impl StoreTail {
    /// A tail of `session` that has read nothing yet.
    pub fn new(session: SessionPath) -> StoreTail {
        StoreTail {
            path: session.path(),
            session,
            #[cfg(feature = "opencode")]
            db: None,
            stamp: None,
            #[cfg(feature = "opencode")]
            version: None,
            cursor: 0,
            sent: HashMap::new(),
            reset: false,
            #[cfg(feature = "cli")]
            waiting_until: None,
        }
    }

    /// Whether a change of the files was seen before its commit was
    /// visible, a short while ago: poll again even without a new change.
    #[cfg(feature = "cli")]
    pub fn waiting(&self) -> bool {
        self.waiting_until.is_some_and(|until| Instant::now() < until)
    }

    /// The path that names the session.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Forgets what was read: the next poll sends every row again, as a
    /// [`TailRead::Reset`].
    pub fn forget(&mut self) {
        self.stamp = None;
        #[cfg(feature = "opencode")]
        {
            self.version = None;
        }
        self.cursor = 0;
        self.sent.clear();
        self.reset = true;
    }

    /// The rows added or changed since the last poll (all of them at the first).
    pub fn poll(&mut self) -> io::Result<TailRead> {
        let stamp = self.stamp_now();
        let first = self.stamp.is_none();
        let files_same = self.stamp.as_ref() == Some(&stamp);
        let rows = match &self.session.store {
            #[cfg(not(feature = "opencode"))]
            Store::Database(path) => {
                return Err(StoreError::NoDatabaseSupport(path.clone()).into());
            }
            #[cfg(feature = "opencode")]
            Store::Database(path) => {
                let path = path.clone();
                // A `-wal` appeared beside a database read immutable: a
                // writer started; read it with locks from now on.
                let reopen = self
                    .db
                    .as_ref()
                    .is_some_and(|db| db.immutable && wal_path(&path).exists());
                let opened = self.db.is_none()
                    || reopen
                    || self.db.as_ref().is_some_and(|db| db.immutable) && !files_same;
                if opened {
                    self.db = Some(Db::open(&path)?);
                }
                let db = self.db.as_ref().ok_or_else(|| io::Error::other("no database"))?;
                let version = db.data_version();
                if !first && files_same && version == self.version {
                    return Ok(TailRead::Unchanged);
                }
                // The files changed and no commit is visible to this
                // connection (a new connection's `data_version` says nothing
                // about the last one's): the commit may be on its way.
                #[cfg(feature = "cli")]
                {
                    let early = !first && !opened && version.is_some() && version == self.version;
                    self.waiting_until = early.then(|| Instant::now() + COMMIT_WAIT);
                }
                self.version = version;
                if first && !db_has(db, &self.session.session)? {
                    return Err(StoreError::NoSession {
                        path,
                        session: self.session.session.clone(),
                    }
                    .into());
                }
                db.rows(&self.session.session, self.cursor)?
            }
            Store::Tree(storage) => {
                if !first && files_same {
                    return Ok(TailRead::Unchanged);
                }
                tree::rows(storage, &self.session.session)?
            }
        };
        self.stamp = Some(stamp);
        let mut bytes = Vec::new();
        for row in rows {
            self.cursor = self.cursor.max(row.updated);
            let key = row_key(&row);
            let hash = twox_hash::XxHash3_64::oneshot(&row.line);
            if self.sent.insert(key, hash) != Some(hash) {
                bytes.extend_from_slice(&row.line);
            }
        }
        Ok(if std::mem::take(&mut self.reset) {
            TailRead::Reset(bytes)
        } else if bytes.is_empty() && !first {
            TailRead::Unchanged
        } else {
            TailRead::Appended(bytes)
        })
    }

    /// The size and modification time of each file the store is: the
    /// database and its `-wal`, or the tree's files.
    fn stamp_now(&self) -> Vec<(u64, Option<SystemTime>)> {
        let of = |path: &Path| {
            std::fs::metadata(path)
                .map(|m| (m.len(), m.modified().ok()))
                .unwrap_or((0, None))
        };
        match &self.session.store {
            Store::Database(path) => vec![of(path), of(&wal_path(path))],
            Store::Tree(storage) => tree::files(storage, &self.session.session)
                .iter()
                .map(|p| of(p))
                .collect(),
        }
    }
}

#[cfg(feature = "opencode")]
fn db_has(db: &Db, session: &str) -> Result<bool, StoreError> {
    Ok(db.sessions()?.iter().any(|s| s.id == session))
}

/// A row's key: its table and id.
fn row_key(row: &Row) -> String {
    format!("{}/{}", row.table, row.id)
}

/// The whole of what `path` names, once: a session's row records, or a
/// file's bytes (time travel reads an input whole).
#[cfg(feature = "cli")]
pub fn read_whole(path: &Path) -> io::Result<Vec<u8>> {
    match SessionPath::from_path(path) {
        Some(session) => match StoreTail::new(session).poll()? {
            TailRead::Appended(bytes) | TailRead::Reset(bytes) => Ok(bytes),
            TailRead::Unchanged => Ok(Vec::new()),
        },
        None => crate::source::limit::read_file(path),
    }
}
