//! Opening an SQLite database (OpenCode's `opencode.db`) for reading, and
//! only for reading (spec agent-transcripts-2 §6.2).
//!
//! SQLite opens its files itself, by path, so the database is first opened
//! through [`super::open`] to be recorded as read (an export can then never
//! write over it), and then by SQLite with a URI that forbids writing:
//! `mode=ro` (`SQLITE_OPEN_READ_ONLY`), plus `PRAGMA query_only` as a belt.
//! No pragma that writes, no checkpoint: a read-only connection takes shared
//! locks and reads the `-wal` file where a running agent keeps its newest
//! rows. `immutable=1` skips locking and the `-wal`, so it is asked for only
//! when no `-wal` file exists (nothing is pending): then SQLite creates no
//! `-wal`/`-shm` beside the user's database. Otherwise `readonly_shm=1`
//! maps the `-shm` (the WAL index a running agent keeps) read-only, so not
//! even SQLite's read marks are written into it.

use std::io::Read as _;
use std::path::Path;

#[cfg(feature = "opencode")]
use rusqlite::{Connection, OpenFlags};

/// The first 16 bytes of every SQLite database file.
pub const SQLITE_HEADER: &[u8; 16] = b"SQLite format 3\0";

/// How long a query waits for a writer's lock (WAL recovery) before it fails.
#[cfg(feature = "opencode")]
const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// What the first 100 bytes of a database file say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// Whether the file is in WAL mode (bytes 18 and 19 are 2).
    pub wal: bool,
}

/// Reads the header of the database at `path` (recording it as read):
/// `None` when it is not an SQLite database.
pub fn header(path: &Path) -> std::io::Result<Option<Header>> {
    let mut head = Vec::with_capacity(100);
    super::open(path)?.take(100).read_to_end(&mut head)?;
    if !head.starts_with(SQLITE_HEADER) || head.len() < 20 {
        return Ok(None);
    }
    Ok(Some(Header {
        wal: head[18] == 2 && head[19] == 2,
    }))
}

/// Opens the database at `path` read-only. `immutable`: the file is taken
/// as unchanging (no locks, no `-wal` read) — only for a database in WAL
/// mode with no `-wal` file beside it.
#[cfg(feature = "opencode")]
pub fn open_read_only(path: &Path, immutable: bool) -> rusqlite::Result<Connection> {
    let mut uri = String::from("file:");
    uri.push_str(&encode(path));
    uri.push_str("?mode=ro");
    if immutable {
        uri.push_str("&immutable=1");
    } else {
        // The wal-index is mapped read-only: no read mark of ours is
        // written into the user's `-shm`; SQLite reads a private copy of
        // the index when it cannot take one (correct, a little slower).
        uri.push_str("&readonly_shm=1");
    }
    let flags =
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let connection = Connection::open_with_flags(uri, flags)?;
    connection.pragma_update(None, "query_only", 1)?;
    connection.busy_timeout(BUSY_TIMEOUT)?;
    Ok(connection)
}

/// A path as the path of a `file:` URI: every byte but letters, digits and
/// `/-._~` percent-encoded (a `?` or `#` in a folder's name would end it).
#[cfg(feature = "opencode")]
fn encode(path: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let mut out = String::new();
    for &byte in path.as_os_str().as_bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(all(test, feature = "opencode"))]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_encoded_for_a_uri() {
        assert_eq!(encode(Path::new("/a b/x?y#z.db")), "/a%20b/x%3Fy%23z.db");
    }

    #[test]
    fn a_read_only_connection_refuses_to_write() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.db");
        let writer = Connection::open(&path).unwrap();
        writer.execute_batch("create table t(a); insert into t values (1);").unwrap();
        drop(writer);
        let reader = open_read_only(&path, false).unwrap();
        let n: i64 = reader.query_row("select count(*) from t", [], |r| r.get(0)).unwrap();
        assert_eq!(n, 1);
        assert!(reader.execute("insert into t values (2)", []).is_err());
        assert_eq!(header(&path).unwrap(), Some(Header { wal: false }));
    }
}
