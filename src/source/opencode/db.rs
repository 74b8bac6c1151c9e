//! OpenCode's SQLite database, read-only (spec agent-transcripts-2 §5.2,
//! §6.2): the sessions it holds, and the rows of one session tree as row
//! records. Every read is one short transaction (a statement), so a read
//! never pins the writer's WAL; only the `session`, `message`, `part` and
//! `project` tables are read — never `account`, `control_account` or
//! `credential`.

use std::path::{Path, PathBuf};

#[cfg(feature = "opencode")]
use rusqlite::Connection;
use serde_json::Value;
#[cfg(feature = "opencode")]
use serde_json::json;

use super::{SessionInfo, StoreError};
#[cfg(feature = "opencode")]
use crate::files::sqlite;

/// The columns each query needs, by table (checked before the first query).
#[cfg(feature = "opencode")]
const NEEDED: [(&str, &[&str]); 3] = [
    (
        "session",
        &["id", "parent_id", "title", "directory", "version", "time_created", "time_updated"],
    ),
    (
        "message",
        &["id", "session_id", "time_created", "time_updated", "data"],
    ),
    (
        "part",
        &["id", "message_id", "session_id", "time_created", "time_updated", "data"],
    ),
];

/// An open, read-only connection to a database.
#[cfg(feature = "opencode")]
pub(super) struct Db {
    path: PathBuf,
    connection: Connection,
    /// Opened `immutable` (WAL mode, no `-wal` file when opened).
    pub(super) immutable: bool,
}

#[cfg(feature = "opencode")]
impl std::fmt::Debug for Db {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Db")
            .field("path", &self.path)
            .field("immutable", &self.immutable)
            .finish()
    }
}

/// The `-wal` file beside a database.
pub(super) fn wal_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push("-wal");
    PathBuf::from(name)
}

#[cfg(feature = "opencode")]
impl Db {
    /// Opens `path` read-only and checks its schema. A database in WAL mode
    /// with no `-wal` file has nothing pending: it is read `immutable`, so
    /// SQLite creates no `-wal`/`-shm` beside it.
    pub(super) fn open(path: &Path) -> Result<Db, StoreError> {
        let io = |source| StoreError::Io {
            path: path.to_path_buf(),
            source,
        };
        let header = sqlite::header(path).map_err(io)?;
        let immutable = header.is_some_and(|h| h.wal) && !wal_path(path).exists();
        let connection = sqlite::open_read_only(path, immutable).map_err(|e| sqlite_error(path, &e))?;
        let db = Db {
            path: path.to_path_buf(),
            connection,
            immutable,
        };
        db.check_schema()?;
        Ok(db)
    }

    /// A trivial read first (a file that is not a database fails here, not
    /// at open), then every table and column a query needs.
    fn check_schema(&self) -> Result<(), StoreError> {
        let tables: Vec<String> = self
            .strings("select name from sqlite_master where type = 'table'", [])
            .map_err(|e| sqlite_error(&self.path, &e))?;
        let mut missing = Vec::new();
        for (table, columns) in NEEDED {
            if !tables.iter().any(|t| t == table) {
                missing.push(format!("no table {table}"));
                continue;
            }
            let have: Vec<String> = self
                .strings("select name from pragma_table_info(?1)", [table])
                .map_err(|e| sqlite_error(&self.path, &e))?;
            for column in columns {
                if !have.iter().any(|c| c == column) {
                    missing.push(format!("no column {table}.{column}"));
                }
            }
        }
        if missing.is_empty() {
            return Ok(());
        }
        let version = tables
            .iter()
            .any(|t| t == "session")
            .then(|| {
                self.strings(
                    "select version from session order by time_updated desc limit 1",
                    [],
                )
                .ok()
                .and_then(|v| v.into_iter().next())
            })
            .flatten()
            .unwrap_or_else(|| "unknown".to_string());
        Err(StoreError::Schema {
            path: self.path.clone(),
            version,
            missing: missing.join(", "),
        })
    }

    fn strings<P: rusqlite::Params>(&self, sql: &str, params: P) -> rusqlite::Result<Vec<String>> {
        let mut statement = self.connection.prepare(sql)?;
        let rows = statement.query_map(params, |row| row.get::<_, Option<String>>(0))?;
        Ok(rows.filter_map(|r| r.ok().flatten()).collect())
    }

    /// `PRAGMA data_version`: changes when another connection commits.
    pub(super) fn data_version(&self) -> Option<i64> {
        self.connection
            .query_row("pragma data_version", [], |row| row.get(0))
            .ok()
    }

    /// Every session, with its project's work tree.
    pub(super) fn sessions(&self) -> Result<Vec<SessionInfo>, StoreError> {
        let has_project = self
            .strings(
                "select name from sqlite_master where type = 'table' and name = 'project'",
                [],
            )
            .is_ok_and(|t| !t.is_empty());
        let sql = if has_project {
            "select s.id, s.parent_id, s.title, s.directory, p.worktree, s.time_updated
             from session s left join project p on p.id = s.project_id"
        } else {
            "select id, parent_id, title, directory, null, time_updated from session"
        };
        let run = || -> rusqlite::Result<Vec<SessionInfo>> {
            let mut statement = self.connection.prepare(sql)?;
            let rows = statement.query_map([], |row| {
                Ok(SessionInfo {
                    id: row.get(0)?,
                    parent: row.get(1)?,
                    title: row.get(2)?,
                    directory: row.get(3)?,
                    worktree: row.get(4).ok().flatten(),
                    updated: row.get::<_, Option<i64>>(5)?.unwrap_or(0),
                })
            })?;
            rows.collect()
        };
        // A `project_id` column may be missing in another version: then no work trees.
        run().or_else(|_| {
            let mut statement = self
                .connection
                .prepare("select id, parent_id, title, directory, null, time_updated from session")?;
            let rows = statement.query_map([], |row| {
                Ok(SessionInfo {
                    id: row.get(0)?,
                    parent: row.get(1)?,
                    title: row.get(2)?,
                    directory: row.get(3)?,
                    worktree: None,
                    updated: row.get::<_, Option<i64>>(5)?.unwrap_or(0),
                })
            })?;
            rows.collect()
        })
        .map_err(|e| sqlite_error(&self.path, &e))
    }

    /// The row records of session `id` and every session under it whose
    /// rows changed at or after `since` (milliseconds; 0: all): sessions
    /// first, then each message followed by its parts, in id order.
    pub(super) fn rows(&self, id: &str, since: i64) -> Result<Vec<Row>, StoreError> {
        self.rows_inner(id, since)
            .map_err(|e| sqlite_error(&self.path, &e))
    }

    fn rows_inner(&self, id: &str, since: i64) -> rusqlite::Result<Vec<Row>> {
        const TREE: &str = "with recursive tree(id) as (select ?1 union \
                            select s.id from session s join tree on s.parent_id = tree.id)";
        let mut out = Vec::new();
        let sql = format!(
            "{TREE} select s.id, s.parent_id, s.title, s.directory, s.version, s.time_created, \
             s.time_updated, (select title from session p where p.id = s.parent_id) \
             from session s where s.id in tree \
             order by s.id = ?1 desc, s.time_created, s.id"
        );
        let mut statement = self.connection.prepare(&sql)?;
        let sessions = statement.query_map([id], |row| {
            let updated: Option<i64> = row.get(6)?;
            let id: String = row.get(0)?;
            let record = json!({
                "opencode": "session",
                "id": id,
                "parent_id": row.get::<_, Option<String>>(1)?,
                "title": row.get::<_, Option<String>>(2)?,
                "directory": row.get::<_, Option<String>>(3)?,
                "version": row.get::<_, Option<String>>(4)?,
                "time_created": row.get::<_, Option<i64>>(5)?,
                "time_updated": updated,
                "parent_title": row.get::<_, Option<String>>(7)?,
            });
            Ok(Row::new("session", id, updated.unwrap_or(0), record))
        })?;
        for row in sessions {
            let row = row?;
            if row.updated >= since {
                out.push(row);
            }
        }
        let messages = format!(
            "{TREE} select id, session_id, time_created, time_updated, data from message \
             where session_id in tree and time_updated >= ?2 order by id"
        );
        let parts = format!(
            "{TREE} select id, session_id, time_created, time_updated, data, message_id from part \
             where session_id in tree and time_updated >= ?2 order by message_id, id"
        );
        let messages = self.records(&messages, id, since, "message")?;
        let parts = self.records(&parts, id, since, "part")?;
        out.extend(interleave(messages, parts));
        Ok(out)
    }

    /// Message or part records: (the message id they sort under, the row).
    fn records(
        &self,
        sql: &str,
        id: &str,
        since: i64,
        table: &'static str,
    ) -> rusqlite::Result<Vec<(String, Row)>> {
        let mut statement = self.connection.prepare(sql)?;
        let rows = statement.query_map(rusqlite::params![id, since], |row| {
            let id: String = row.get(0)?;
            let created: Option<i64> = row.get(2)?;
            let updated: Option<i64> = row.get(3)?;
            let data: Option<String> = row.get(4)?;
            let mut record = json!({
                "opencode": table,
                "id": id,
                "session_id": row.get::<_, Option<String>>(1)?,
                "time_created": created,
                "time_updated": updated,
                "timestamp": created.and_then(super::tail::rfc3339),
                "data": data,
            });
            let owner = if table == "part" {
                let message: Option<String> = row.get(5)?;
                record["message_id"] = Value::from(message.clone());
                message.unwrap_or_default()
            } else {
                id.clone()
            };
            Ok((owner, Row::new(table, id, updated.unwrap_or(0), record)))
        })?;
        rows.collect()
    }
}

/// One row record, with what a tail needs to tell it changed.
#[derive(Debug, Clone)]
pub(super) struct Row {
    /// Its table.
    pub(super) table: &'static str,
    /// The row's id.
    pub(super) id: String,
    /// Its `time_updated`.
    pub(super) updated: i64,
    /// The record, one line.
    pub(super) line: Vec<u8>,
}

impl Row {
    /// The row record `record` of `table`.
    pub(super) fn new(table: &'static str, id: String, updated: i64, record: Value) -> Row {
        let mut line = serde_json::to_vec(&record).unwrap_or_default();
        line.push(b'\n');
        Row {
            table,
            id,
            updated,
            line,
        }
    }
}

/// Messages (by id) and parts (by message id, then id), each message
/// followed by its parts: (the message id each sorts under, the row).
pub(super) fn interleave(
    mut messages: Vec<(String, Row)>,
    mut parts: Vec<(String, Row)>,
) -> Vec<Row> {
    messages.sort_by(|a, b| a.0.cmp(&b.0));
    parts.sort_by(|a, b| (&a.0, &a.1.id).cmp(&(&b.0, &b.1.id)));
    let mut out = Vec::with_capacity(messages.len() + parts.len());
    let mut parts = parts.into_iter().peekable();
    for (message, row) in messages {
        while let Some((owner, _)) = parts.peek()
            && *owner < message
        {
            out.extend(parts.next().map(|(_, row)| row));
        }
        out.push(row);
    }
    out.extend(parts.map(|(_, row)| row));
    out
}

/// Every session of the database at `path`.
#[cfg(feature = "opencode")]
pub(super) fn sessions(path: &Path) -> Result<Vec<SessionInfo>, StoreError> {
    Db::open(path)?.sessions()
}

/// A build without SQLite reads no database: it says so.
#[cfg(not(feature = "opencode"))]
pub(super) fn sessions(path: &Path) -> Result<Vec<SessionInfo>, StoreError> {
    Err(StoreError::NoDatabaseSupport(path.to_path_buf()))
}

#[cfg(feature = "opencode")]
fn sqlite_error(path: &Path, error: &rusqlite::Error) -> StoreError {
    StoreError::Sqlite {
        path: path.to_path_buf(),
        problem: error.to_string(),
    }
}
