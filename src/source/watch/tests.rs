use std::fs;
use std::io::Write;
use std::path::Path;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use super::*;

const WAIT: Duration = Duration::from_secs(1);
/// Long enough after the last write for a burst to have been reported.
const SETTLE: Duration = Duration::from_millis(200);

/// Writes a file the way JP does: a `.tmp` sibling renamed over the target.
fn jp_write(dir: &Path, name: &str, bytes: &[u8]) {
    let tmp = dir.join(format!("{name}.tmp"));
    fs::write(&tmp, bytes).unwrap();
    fs::rename(&tmp, dir.join(name)).unwrap();
}

/// A conversation folder `<root>/conversations/17758406187` with events.
fn setup() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("conversations/17758406187");
    fs::create_dir_all(&dir).unwrap();
    jp_write(&dir, "metadata.json", b"{}\n");
    jp_write(&dir, "events.json", b"[]\n");
    (tmp, dir)
}

fn next(rx: &Receiver<Change>) -> Change {
    rx.recv_timeout(WAIT).expect("a change within 1 s")
}

/// Everything reported until nothing more arrives for [`SETTLE`].
fn drain(rx: &Receiver<Change>) -> Vec<Change> {
    let mut all = Vec::new();
    while let Ok(change) = rx.recv_timeout(SETTLE) {
        all.push(change);
    }
    all
}

#[test]
fn a_jp_rewrite_is_reported_as_events_quickly() {
    let (_tmp, dir) = setup();
    let (_watch, rx) = conversation(&ConversationDir::new(&dir)).unwrap();
    jp_write(&dir, "events.json", b"[{\"type\":\"turn_start\"}]\n");
    assert_eq!(next(&rx), Change::Events);
    assert_eq!(drain(&rx), []);
}

#[test]
fn a_whole_persist_is_one_report_per_file_that_changed() {
    let (_tmp, dir) = setup();
    let (_watch, rx) = conversation(&ConversationDir::new(&dir)).unwrap();
    jp_write(&dir, "metadata.json", b"{\"title\":\"T\"}\n");
    jp_write(&dir, "base_config.json", b"{}\n");
    jp_write(&dir, "events.json", b"[1]\n");
    assert_eq!(
        drain(&rx),
        [Change::Metadata, Change::BaseConfig, Change::Events]
    );
}

/// JP reads the target to compare bytes and writes nothing when they are
/// equal; that read, like ours, is no change.
#[test]
fn reading_the_files_is_not_a_change() {
    let (_tmp, dir) = setup();
    let conv = ConversationDir::new(&dir);
    let (_watch, rx) = conversation(&conv).unwrap();
    conv.read().unwrap();
    conv.read().unwrap();
    assert_eq!(drain(&rx), []);
}

#[test]
fn renamed_folder_is_found_by_id_and_still_followed() {
    let (tmp, dir) = setup();
    let (_watch, rx) = conversation(&ConversationDir::new(&dir)).unwrap();
    let renamed = tmp.path().join("conversations/17758406187-a-title");
    fs::rename(&dir, &renamed).unwrap();
    assert_eq!(next(&rx), Change::Moved(renamed.clone()));
    jp_write(&renamed, "events.json", b"[1]\n");
    assert_eq!(next(&rx), Change::Events);

    // Archived: moved into `.archive/`, then a write there.
    let archive = tmp.path().join("conversations/.archive");
    fs::create_dir(&archive).unwrap();
    let archived = archive.join("17758406187-a-title");
    fs::rename(&renamed, &archived).unwrap();
    assert_eq!(next(&rx), Change::Moved(archived.clone()));
    jp_write(&archived, "metadata.json", b"{\"archived_at\":\"x\"}\n");
    assert_eq!(next(&rx), Change::Metadata);

    // Renamed again inside the archive, then unarchived.
    let retitled = archive.join("17758406187-new-title");
    fs::rename(&archived, &retitled).unwrap();
    assert_eq!(next(&rx), Change::Moved(retitled.clone()));
    let back = tmp.path().join("conversations/17758406187-new-title");
    fs::rename(&retitled, &back).unwrap();
    assert_eq!(next(&rx), Change::Moved(back.clone()));
    jp_write(&back, "events.json", b"[1,2]\n");
    assert_eq!(next(&rx), Change::Events);
}

/// JP renames the folder when a title arrives and writes the new files into
/// it in the same persist.
#[test]
fn a_title_rename_with_its_write_reports_the_move_then_the_files() {
    let (tmp, dir) = setup();
    let (_watch, rx) = conversation(&ConversationDir::new(&dir)).unwrap();
    let renamed = tmp.path().join("conversations/17758406187-titled");
    fs::rename(&dir, &renamed).unwrap();
    jp_write(&renamed, "metadata.json", b"{\"title\":\"Titled\"}\n");
    jp_write(&renamed, "events.json", b"[1]\n");
    let changes = drain(&rx);
    assert_eq!(changes[0], Change::Moved(renamed));
    assert!(changes.contains(&Change::Metadata), "{changes:?}");
    assert!(changes.contains(&Change::Events), "{changes:?}");
}

#[test]
fn deleted_events_are_removed_and_their_return_reported() {
    let (_tmp, dir) = setup();
    let (_watch, rx) = conversation(&ConversationDir::new(&dir)).unwrap();
    fs::remove_file(dir.join("events.json")).unwrap();
    assert_eq!(next(&rx), Change::Removed);
    jp_write(&dir, "events.json", b"[]\n");
    assert_eq!(next(&rx), Change::Returned);
    jp_write(&dir, "events.json", b"[1]\n");
    assert_eq!(next(&rx), Change::Events);
}

#[test]
fn a_deleted_folder_made_again_is_followed_again() {
    let (tmp, dir) = setup();
    let (_watch, rx) = conversation(&ConversationDir::new(&dir)).unwrap();
    fs::remove_dir_all(&dir).unwrap();
    assert_eq!(next(&rx), Change::Removed);
    let again = tmp.path().join("conversations/17758406187-back");
    fs::create_dir(&again).unwrap();
    jp_write(&again, "events.json", b"[]\n");
    let changes = drain(&rx);
    assert_eq!(changes, [Change::Moved(again.clone()), Change::Returned]);
    jp_write(&again, "events.json", b"[1]\n");
    assert_eq!(next(&rx), Change::Events);
}

#[test]
fn temp_files_and_other_conversations_alone_report_nothing() {
    let (tmp, dir) = setup();
    let (_watch, rx) = conversation(&ConversationDir::new(&dir)).unwrap();
    fs::write(dir.join("events.json.tmp"), b"[1]").unwrap();
    fs::remove_file(dir.join("events.json.tmp")).unwrap();
    fs::write(dir.join("QUERY_MESSAGE.md"), b"hi").unwrap();
    let other = tmp.path().join("conversations/17800000000");
    fs::create_dir(&other).unwrap();
    jp_write(&other, "events.json", b"[]\n");
    assert_eq!(drain(&rx), []);
}

#[test]
fn base_config_appearing_later_is_reported() {
    let (_tmp, dir) = setup();
    let (_watch, rx) = conversation(&ConversationDir::new(&dir)).unwrap();
    jp_write(&dir, "base_config.json", b"{}\n");
    assert_eq!(next(&rx), Change::BaseConfig);
}

#[test]
fn a_burst_of_rewrites_is_coalesced() {
    let (_tmp, dir) = setup();
    let (_watch, rx) = conversation(&ConversationDir::new(&dir)).unwrap();
    // 20 rewrites in about 30 ms.
    let mut times = Vec::new();
    for i in 0..20 {
        jp_write(&dir, "events.json", format!("[{i}]\n").as_bytes());
        times.push(Instant::now());
        std::thread::sleep(Duration::from_micros(1500));
    }
    let changes = drain(&rx);
    assert!(!changes.is_empty());
    assert!(changes.iter().all(|c| *c == Change::Events), "{changes:?}");
    // A loaded machine may stretch the writes apart: every pause long enough
    // to end a burst, and every MAX_DELAY of writing, may add one report.
    // The watcher's own thread may also be kept waiting past QUIET, which
    // the writer cannot see (CI, tests in parallel: 4 reports for 20 writes
    // in 68 ms with no pause): one more report for that.
    let pauses = times.windows(2).filter(|w| w[1] - w[0] > QUIET / 2).count();
    let span = times[times.len() - 1] - times[0];
    let bound = 3 + pauses + (span.as_millis() / MAX_DELAY.as_millis()) as usize;
    assert!(
        changes.len() <= bound && changes.len() < 10,
        "{} reports for 20 writes in {span:?} with {pauses} pauses",
        changes.len()
    );
}

#[test]
fn dropping_the_watch_stops_it() {
    let (_tmp, dir) = setup();
    let (watch, rx) = conversation(&ConversationDir::new(&dir)).unwrap();
    drop(watch);
    jp_write(&dir, "events.json", b"[1]\n");
    assert!(rx.recv_timeout(SETTLE).is_err());
}

#[test]
fn a_missing_folder_cannot_be_watched() {
    let tmp = tempfile::tempdir().unwrap();
    let err = conversation(&ConversationDir::new(tmp.path().join("gone"))).unwrap_err();
    assert!(err.to_string().contains("gone"), "{err}");
}

#[test]
fn an_appended_file_is_reported_and_siblings_ignored() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("run.ndjson");
    fs::write(&path, b"{}\n").unwrap();
    let (_watch, rx) = file(&path).unwrap();
    fs::write(tmp.path().join("other.ndjson"), b"{}\n").unwrap();
    assert_eq!(drain(&rx), []);
    let mut f = fs::OpenOptions::new().append(true).open(&path).unwrap();
    f.write_all(b"{\"a\":1}\n").unwrap();
    f.flush().unwrap();
    assert_eq!(next(&rx), Change::Events);
    fs::remove_file(&path).unwrap();
    assert_eq!(next(&rx), Change::Removed);
    fs::write(&path, b"{}\n").unwrap();
    assert_eq!(next(&rx), Change::Returned);
}

/// A raw event of `kind` on `paths`.
fn raw(kind: EventKind, paths: &[&Path]) -> Event {
    paths.iter().fold(Event::new(kind), |event, path| {
        event.add_path(path.to_path_buf())
    })
}

#[test]
fn a_rename_over_a_followed_file_is_read_at_once_an_in_place_write_waits() {
    use notify::event::{CreateKind, DataChange};
    let (_tmp, dir) = setup();
    let follower = ConversationFollower::new(&ConversationDir::new(&dir));
    let events = dir.join("events.json");
    let tmp = dir.join("events.json.tmp");
    let renamed = EventKind::Modify(ModifyKind::Name(RenameMode::Both));
    let moved_to = EventKind::Modify(ModifyKind::Name(RenameMode::To));
    let written = EventKind::Modify(ModifyKind::Data(DataChange::Any));
    let closed = EventKind::Access(AccessKind::Close(AccessMode::Write));
    // JP's write: the temp file renamed over the events: whole at once.
    assert!(follower.whole(&raw(renamed, &[&tmp, &events])));
    assert!(follower.whole(&raw(moved_to, &[&events])));
    assert!(follower.whole(&raw(moved_to, &[&dir.join("metadata.json")])));
    // An editor's in-place save is whole once the file is closed.
    assert!(follower.whole(&raw(closed, &[&events])));
    // Bytes written in place may be half a file: wait for the burst.
    assert!(!follower.whole(&raw(written, &[&events])));
    assert!(!follower.whole(&raw(EventKind::Create(CreateKind::File), &[&events])));
    // The temp file itself, and a rename away from the events, are not.
    assert!(!follower.whole(&raw(closed, &[&tmp])));
    assert!(!follower.whole(&raw(renamed, &[&events, &tmp])));
}

#[test]
fn bytes_appended_to_a_followed_stream_are_read_at_once() {
    use notify::event::DataChange;
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("run.ndjson");
    let follower = FileFollower {
        folder: tmp.path().to_path_buf(),
        name: "run.ndjson".into(),
        seen: None,
    };
    let written = EventKind::Modify(ModifyKind::Data(DataChange::Any));
    assert!(follower.whole(&raw(written, &[&path])));
    assert!(!follower.whole(&raw(written, &[&tmp.path().join("other.ndjson")])));
}
