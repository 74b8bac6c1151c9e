//! OpenCode stores for the tests: the real 1.18.13 database and the
//! synthetic legacy tree under `../shared/fixtures/opencode` (skipped with a
//! line on stderr when absent; with `CI=true` their absence fails), and
//! small databases built here with rusqlite, in a temporary folder.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use rusqlite::{Connection, params};
use serde_json::Value;

/// The folder of the OpenCode fixtures (`$OVERHEAR_OPENCODE_FIXTURES`, else
/// `../shared/fixtures/opencode` beside the checkout, or beside the folder
/// of worktrees it is in), or `None` after saying why.
pub fn fixtures() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let candidates = [
        std::env::var_os("OVERHEAR_OPENCODE_FIXTURES").map(PathBuf::from),
        Some(root.join("../shared/fixtures/opencode")),
        Some(root.join("../../shared/fixtures/opencode")),
    ];
    if let Some(dir) = candidates
        .into_iter()
        .flatten()
        .find(|dir| dir.join("v1.18.13-sqlite/opencode.db").is_file())
    {
        return Some(dir);
    }
    let dir = root.join("../shared/fixtures/opencode");
    let message = format!("no OpenCode fixtures at {}", dir.display());
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{message} (CI=true: the fixtures must be there)"
    );
    eprintln!("skipped: {message}");
    None
}

/// The real database, if present.
pub fn real_db() -> Option<PathBuf> {
    fixtures().map(|dir| dir.join("v1.18.13-sqlite/opencode.db"))
}

/// The three sessions of the real database, oldest first.
pub const REAL_SESSIONS: [&str; 3] = [
    "ses_03156b771ffeANj3CiDnYkqmmr",
    "ses_031559a74ffe4reBgr5U6MnTO4",
    "ses_031541bf9ffeMiy2LOFii47rch",
];

/// The tables and columns of OpenCode 1.18.13 a reader uses.
const SCHEMA: &str = "
create table project (id text primary key, worktree text, vcs text, name text);
create table session (id text primary key, project_id text, parent_id text, slug text,
  directory text, title text, version text, agent text, model text, cost real,
  time_created integer, time_updated integer);
create table message (id text primary key, session_id text, time_created integer,
  time_updated integer, data text);
create table part (id text primary key, message_id text, session_id text,
  time_created integer, time_updated integer, data text);
create table credential (id text primary key, secret text);
";

/// A database being written, as OpenCode writes it (WAL mode, one writer).
pub struct Store {
    /// Where it is.
    pub path: PathBuf,
    /// The writer's connection (kept open: the `-wal` stays).
    pub writer: Connection,
}

impl Store {
    /// A new database at `path`, in WAL mode.
    pub fn create(path: &Path) -> Store {
        let writer = Connection::open(path).expect("a new database");
        writer
            .pragma_update(None, "journal_mode", "wal")
            .expect("WAL mode");
        writer.execute_batch(SCHEMA).expect("the schema");
        Store {
            path: path.to_path_buf(),
            writer,
        }
    }

    /// A copy of the database at `from` put in WAL mode, written by a
    /// connection kept open.
    pub fn copy_of(from: &Path, to: &Path) -> Store {
        std::fs::copy(from, to).expect("a copy");
        let mut perms = std::fs::metadata(to).expect("the copy").permissions();
        #[allow(clippy::permissions_set_readonly_false)]
        perms.set_readonly(false);
        std::fs::set_permissions(to, perms).expect("writable");
        let writer = Connection::open(to).expect("the copy opens");
        writer
            .pragma_update(None, "journal_mode", "wal")
            .expect("WAL mode");
        Store {
            path: to.to_path_buf(),
            writer,
        }
    }

    /// Adds a project.
    pub fn project(&self, id: &str, worktree: &str) {
        self.writer
            .execute(
                "insert into project (id, worktree, vcs, name) values (?1, ?2, 'git', ?1)",
                params![id, worktree],
            )
            .expect("a project");
    }

    /// Adds a session.
    pub fn session(&self, id: &str, parent: Option<&str>, directory: &str, title: &str, at: i64) {
        self.writer
            .execute(
                "insert into session (id, project_id, parent_id, slug, directory, title, version,
                 time_created, time_updated) values (?1, 'global', ?2, ?1, ?3, ?4, '1.18.13', ?5, ?5)",
                params![id, parent, directory, title, at],
            )
            .expect("a session");
    }

    /// Adds (or replaces) a message.
    pub fn message(&self, id: &str, session: &str, at: i64, data: Value) {
        self.writer
            .execute(
                "insert or replace into message (id, session_id, time_created, time_updated, data)
                 values (?1, ?2, ?3, ?3, ?4)",
                params![id, session, at, data.to_string()],
            )
            .expect("a message");
    }

    /// Adds (or replaces) a part.
    pub fn part(&self, id: &str, message: &str, session: &str, at: i64, data: Value) {
        self.writer
            .execute(
                "insert or replace into part (id, message_id, session_id, time_created,
                 time_updated, data) values (?1, ?2, ?3, ?4, ?4, ?5)",
                params![id, message, session, at, data.to_string()],
            )
            .expect("a part");
    }

    /// A session `id` in `directory` with one prompt and its reply.
    pub fn conversation(&self, id: &str, directory: &str, prompt: &str, reply: &str, at: i64) {
        let user = format!("msg_{id}_1");
        let assistant = format!("msg_{id}_2");
        self.session(id, None, directory, prompt, at);
        self.message(
            &user,
            id,
            at,
            serde_json::json!({"role": "user", "time": {"created": at}}),
        );
        self.part(
            &format!("prt_{id}_1"),
            &user,
            id,
            at,
            serde_json::json!({"type": "text", "text": prompt}),
        );
        self.message(
            &assistant,
            id,
            at + 1,
            serde_json::json!({"role": "assistant", "parentID": user, "modelID": "m",
                "cost": 0.01, "tokens": {"input": 10, "output": 5, "reasoning": 0,
                "cache": {"read": 0, "write": 0}},
                "time": {"created": at + 1, "completed": at + 2}, "finish": "stop"}),
        );
        self.part(
            &format!("prt_{id}_2"),
            &assistant,
            id,
            at + 1,
            serde_json::json!({"type": "text", "text": reply}),
        );
    }
}

/// A hash of the bytes of a database and of its `-wal`, `-shm` and
/// `-journal` (`None`: absent), by path.
pub fn files_of(db: &Path) -> Vec<(PathBuf, Option<String>)> {
    ["", "-wal", "-shm", "-journal"]
        .iter()
        .map(|suffix| {
            let mut name = db.as_os_str().to_owned();
            name.push(suffix);
            let path = PathBuf::from(name);
            let hash = std::fs::read(&path).ok().map(|bytes| {
                use std::hash::{Hash, Hasher};
                let mut hasher = std::collections::hash_map::DefaultHasher::new();
                bytes.hash(&mut hasher);
                format!("{} bytes, hash {:x}", bytes.len(), hasher.finish())
            });
            (path, hash)
        })
        .collect()
}
