use super::*;
use crate::source::tail::TailRead;

/// A database in WAL mode as OpenCode keeps it, its writer's connection open.
fn store(dir: &Path) -> (PathBuf, rusqlite::Connection) {
    let path = dir.join("opencode.db");
    let writer = rusqlite::Connection::open(&path).unwrap();
    writer.pragma_update(None, "journal_mode", "wal").unwrap();
    writer
        .execute_batch(
            "create table project (id text, worktree text);
             create table session (id text, project_id text, parent_id text, title text,
               directory text, version text, time_created integer, time_updated integer);
             create table message (id text, session_id text, time_created integer,
               time_updated integer, data text);
             create table part (id text, message_id text, session_id text,
               time_created integer, time_updated integer, data text);
             insert into project values ('p', '/w');
             insert into session values ('ses_a', 'p', null, 'A', '/w/app', '1', 1, 5);
             insert into session values ('ses_b', 'p', 'ses_a', 'B', '/w/app', '1', 2, 6);
             insert into project values ('q', '/else');
             insert into session values ('ses_c', 'q', null, 'C', '/else', '1', 3, 9);
             insert into message values ('msg_1', 'ses_a', 1, 1, '{\"role\":\"user\"}');
             insert into part values ('prt_1', 'msg_1', 'ses_a', 1, 1, '{\"type\":\"text\",\"text\":\"hi\"}');
             insert into message values ('msg_9', 'ses_b', 2, 2, '{\"role\":\"user\"}');",
        )
        .unwrap();
    (path, writer)
}

fn text(read: TailRead) -> String {
    match read {
        TailRead::Appended(bytes) | TailRead::Reset(bytes) => String::from_utf8(bytes).unwrap(),
        TailRead::Unchanged => String::new(),
    }
}

#[test]
fn a_poll_sends_the_rows_added_or_changed_since_the_last() {
    let dir = tempfile::tempdir().unwrap();
    let (path, writer) = store(dir.path());
    let mut tail = StoreTail::new(SessionPath {
        store: Store::Database(path),
        session: "ses_a".into(),
    });
    let first = text(tail.poll().unwrap());
    let tables: Vec<&str> = first
        .lines()
        .map(|l| l.split('"').nth(3).unwrap_or(""))
        .collect();
    assert_eq!(tables, ["session", "session", "message", "part", "message"]);
    assert!(first.lines().next().unwrap().contains("\"id\":\"ses_a\""));
    assert_eq!(tail.poll().unwrap(), TailRead::Unchanged);
    writer
        .execute(
            "insert into part values ('prt_2', 'msg_1', 'ses_a', 7, 7, '{\"type\":\"text\",\"text\":\"more\"}')",
            [],
        )
        .unwrap();
    let next = text(tail.poll().unwrap());
    assert_eq!(next.lines().count(), 1, "{next}");
    assert!(next.contains("prt_2"));
    writer
        .execute("update part set data = '{\"type\":\"text\",\"text\":\"hello\"}', time_updated = 7 where id = 'prt_1'", [])
        .unwrap();
    let next = text(tail.poll().unwrap());
    assert!(next.contains("hello") && !next.contains("prt_2"), "{next}");
}

#[test]
fn a_wal_written_before_its_commit_keeps_the_tail_waiting_until_the_commit_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let (path, writer) = store(dir.path());
    let mut tail = StoreTail::new(SessionPath {
        store: Store::Database(path.clone()),
        session: "ses_a".into(),
    });
    text(tail.poll().unwrap());
    assert!(!tail.waiting());
    // A cache of one page spills the open transaction's pages into the
    // `-wal` before its commit, as a writer caught between the two does.
    writer.pragma_update(None, "cache_size", 1).unwrap();
    writer.execute_batch("begin").unwrap();
    let big = "x".repeat(4000);
    for i in 0..50 {
        writer
            .execute(
                "insert into part values (?1, 'msg_1', 'ses_a', 8, 8, ?2)",
                rusqlite::params![format!("prt_w{i}"), format!("{{\"type\":\"text\",\"text\":\"{big}\"}}")],
            )
            .unwrap();
    }
    let wal = std::fs::metadata(super::db::wal_path(&path)).unwrap().len();
    assert!(wal > 50 * 4000, "the transaction spilled into the -wal ({wal} bytes)");
    assert_eq!(tail.poll().unwrap(), TailRead::Unchanged, "nothing committed yet");
    assert!(tail.waiting(), "the files changed before a commit was visible");
    // No file changes at the commit's last step: only a poll that the
    // tail's waiting asks for reads it.
    writer.execute_batch("commit").unwrap();
    let next = text(tail.poll().unwrap());
    assert_eq!(next.lines().count(), 50, "the committed parts are read");
    assert!(!tail.waiting());
}

#[test]
fn the_session_of_a_folder_is_its_newest_not_a_sub_agents() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _writer) = store(dir.path());
    let store = Store::Database(path.clone());
    assert_eq!(store.choose(Path::new("/w/app")).unwrap().session, "ses_a");
    assert_eq!(store.choose(Path::new("/w/other")).unwrap().session, "ses_a");
    assert_eq!(store.choose(Path::new("/nowhere")).unwrap().session, "ses_c");
    let named = SessionPath::from_path(&path.join("ses_b")).unwrap();
    assert_eq!(named.session, "ses_b");
    assert!(store.session("ses_x").is_err());
}

#[cfg(feature = "cli")]
#[test]
fn session_ids_are_found_in_a_store_and_a_path_that_is_none_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let (db, _writer) = store(dir.path());
    assert_eq!(with_session(&db, "ses_a").unwrap(), db.join("ses_a"));
    assert_eq!(with_session(dir.path(), "ses_b").unwrap(), db.join("ses_b"));
    let missing = with_session(&db, "ses_nope").unwrap_err();
    assert!(matches!(missing, StoreError::NoSession { .. }), "{missing}");
    let notes = dir.path().join("notes");
    std::fs::create_dir(&notes).unwrap();
    let none = with_session(&notes, "ses_a").unwrap_err();
    assert_eq!(
        none.to_string(),
        format!(
            "{} is not an OpenCode store (opencode.db, its data folder or a storage/ tree)",
            notes.display()
        )
    );
}
