//! Following files that change while they are being read.
//!
//! JP never modifies `events.json` in place: it writes `events.json.tmp` and
//! renames it over the target, renames the whole conversation folder when a
//! title arrives and moves it into `.archive/`. A watch on the file dies at the
//! first rename, so this module watches **folders** (non-recursively, with
//! `notify`): the conversation folder and the `conversations/` folder around
//! it (and its `.archive/`). Raw events are only a hint that something
//! happened: the watched files are compared by `stat` with what was seen
//! before, and each real difference is reported once as a [`Change`]. Temp
//! files, reads (our own included) and unrelated siblings are ignored.
//!
//! When to compare. A write that is whole the moment its event arrives is
//! compared **at once**: a file renamed over a followed one (JP's
//! `events.json.tmp` → `events.json`: a rename is atomic, the new file is
//! complete), a followed file closed after writing (an editor's in-place
//! save is over), and bytes appended to a followed stream (its reader keeps
//! an unfinished last line until the rest arrives). Any other event — an
//! in-place write still going on, a folder renamed before its files are
//! written — starts a burst that is compared once it has settled (no
//! relevant event for [`QUIET`], or [`MAX_DELAY`] after the first one), so a
//! file written in several steps is not read half-written. A burst is
//! reported at most twice: at its first whole write, and at its end if
//! anything changed after that (twenty rewrites in 30 ms are two reloads,
//! not twenty).
//!
//! Start a watch **before** reading the files it follows: a change that lands
//! between the read and the start of the watch would otherwise go unseen.
//!
//! Over 600 lines on purpose: the watch thread's one state machine (which
//! changes are complete at once, which wait for their burst to settle, what
//! each followed file was last seen as) reads best whole; its tests are in
//! `watch/tests.rs`.

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use notify::event::{AccessKind, AccessMode, ModifyKind, RenameMode};
use notify::{Event, EventKind, RecommendedWatcher, RecursiveMode, Watcher};
use thiserror::Error;

use super::conversation::{BASE_CONFIG, ConversationDir, EVENTS, METADATA, id_from_dirname};
use super::workspace::{ARCHIVE, stream_mtime};

/// A burst ends after this long without a relevant event…
pub const QUIET: Duration = Duration::from_millis(20);
/// …or this long after its first event, whichever comes first.
pub const MAX_DELAY: Duration = Duration::from_millis(50);

/// What changed on disk, once a burst of writes has settled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// The events file was replaced or grew: read it again.
    Events,
    /// `base_config.json` appeared, changed or went away.
    BaseConfig,
    /// `metadata.json` appeared, changed or went away (title, archive mark).
    Metadata,
    /// The events file is gone (deleted, or its folder is gone and was not
    /// found elsewhere). Watching goes on; it may come back.
    Removed,
    /// The conversation folder was renamed or (un)archived; it is now here.
    /// Found by the id before the first `-` of the folder name.
    Moved(PathBuf),
    /// The events file exists again after [`Change::Removed`]: read everything.
    Returned,
    /// Watching is impaired (a folder could not be watched, events were
    /// lost); the text says why. Changes may be missed until the next event.
    Error(String),
}

/// Why a watch could not start.
#[derive(Debug, Error)]
pub enum WatchError {
    /// The operating system refused to watch a folder.
    #[error("{}: cannot watch for changes: {}", .path.display(), notify_problem(.source))]
    Folder {
        /// The folder.
        path: PathBuf,
        /// What `notify` reported.
        source: notify::Error,
    },
    /// The file-system watcher could not be created.
    #[error("cannot start watching for changes: {}", notify_problem(.0))]
    Start(notify::Error),
    /// The watch thread could not be started.
    #[error("cannot start watching for changes: {}", crate::problem::io_problem(.0))]
    Thread(std::io::Error),
    /// The folder to follow does not exist.
    #[error("{}: no such folder to watch", .0.display())]
    Missing(PathBuf),
}

/// What `notify` reported, in words, with the fix for the system limits a
/// long-running viewer (or many of them) can reach.
fn notify_problem(error: &notify::Error) -> String {
    match &error.kind {
        notify::ErrorKind::MaxFilesWatch => {
            "the system's limit of watched folders is reached; raise it with `sysctl fs.inotify.max_user_watches=…`".to_string()
        }
        notify::ErrorKind::Io(e) if e.raw_os_error() == Some(libc::EMFILE) => {
            "too many file watchers are open; close some viewers or raise `sysctl fs.inotify.max_user_instances=…`".to_string()
        }
        notify::ErrorKind::Io(e) => crate::problem::io_problem(e),
        notify::ErrorKind::PathNotFound => "no such file or folder".to_string(),
        _ => error.to_string(),
    }
}

/// A running watch. Changes arrive from a background thread until this is
/// dropped.
///
/// Dropping it tells the thread to stop and does not wait for it: the
/// thread reads the order before any later file event and ends on its own,
/// and quitting the viewer never waits for a comparison in progress.
#[derive(Debug)]
pub struct Watch {
    stop: Sender<Msg>,
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.stop.send(Msg::Stop);
    }
}

/// Follows a JP conversation folder: replacements of its three files, the
/// folder's renames and moves to and from `.archive/`, its removal and return.
#[cfg(any(test, feature = "internals"))]
pub fn conversation(conv: &ConversationDir) -> Result<(Watch, Receiver<Change>), WatchError> {
    let (tx, rx) = mpsc::channel();
    let watch = conversation_with(conv, move |change| {
        let _ = tx.send(change);
    })?;
    Ok((watch, rx))
}

/// [`conversation`], handing each change to `on_change` on the watch thread
/// (to merge it into another event loop).
pub fn conversation_with(
    conv: &ConversationDir,
    on_change: impl FnMut(Change) + Send + 'static,
) -> Result<Watch, WatchError> {
    if !conv.dir.is_dir() {
        return Err(WatchError::Missing(conv.dir.clone()));
    }
    spawn(ConversationFollower::new(conv), Box::new(on_change))
}

/// Follows one file that is appended to or replaced (an eve stream): reports
/// [`Change::Events`] when it changed, [`Change::Removed`] / [`Change::Returned`].
/// Read what changed with [`super::tail::AppendTail`].
#[cfg(any(test, feature = "internals"))]
pub fn file(path: &Path) -> Result<(Watch, Receiver<Change>), WatchError> {
    let (tx, rx) = mpsc::channel();
    let watch = file_with(path, move |change| {
        let _ = tx.send(change);
    })?;
    Ok((watch, rx))
}

/// [`file()`], handing each change to `on_change` on the watch thread.
pub fn file_with(
    path: &Path,
    on_change: impl FnMut(Change) + Send + 'static,
) -> Result<Watch, WatchError> {
    if let Some(session) = super::opencode::SessionPath::from_path(path) {
        return store_with(session, Box::new(on_change));
    }
    let folder = parent_folder(path);
    if !folder.is_dir() {
        return Err(WatchError::Missing(folder));
    }
    let follower = FileFollower {
        folder,
        name: path
            .file_name()
            .map(OsStr::to_os_string)
            .unwrap_or_default(),
        seen: None,
    };
    spawn(follower, Box::new(on_change))
}

/// How often an OpenCode store's files are looked at.
pub const STORE_POLL: Duration = Duration::from_millis(25);

/// How many looks after a change report a change again (the reader then
/// asks the database, `PRAGMA data_version`, which is cheap).
const STORE_AGAIN: u8 = 4;

/// Follows one session of an OpenCode store by polling: every
/// [`STORE_POLL`], the size and time of each file it is made of (the
/// database and its `-wal`, or a legacy session's files) are compared with
/// the last look, and a difference is a [`Change::Events`]. SQLite's
/// writer changes the `-wal` in place (no event tells a write from our own
/// reads of it), so a look at a few `stat`s is both simpler and cheaper
/// than filtering a stream of events; the reader then asks the database
/// itself what changed (`PRAGMA data_version`, spec agent-transcripts-2 §6.2).
fn store_with(session: super::opencode::SessionPath, mut sink: Sink) -> Result<Watch, WatchError> {
    let (tx, rx) = mpsc::channel();
    let look = move || {
        session
            .files()
            .iter()
            .map(|path| {
                fs::metadata(path)
                    .map(|m| (m.len(), m.modified().ok()))
                    .ok()
            })
            .collect::<Vec<_>>()
    };
    let mut seen = look();
    // Looks after a change still report one: the `-wal` grows before the
    // commit is visible (the writer updates its index in the `-shm` last,
    // through a mapping whose time the file system may not update).
    let mut again = 0;
    thread::Builder::new()
        .name("overhear-store".into())
        .spawn(move || {
            loop {
                match rx.recv_timeout(STORE_POLL) {
                    Ok(Msg::Stop) | Err(RecvTimeoutError::Disconnected) => return,
                    Ok(Msg::Fs(_)) | Err(RecvTimeoutError::Timeout) => {}
                }
                let now = look();
                if now != seen {
                    seen = now;
                    again = STORE_AGAIN;
                    sink(Change::Events);
                } else if again > 0 {
                    again -= 1;
                    sink(Change::Events);
                }
            }
        })
        .map_err(WatchError::Thread)?;
    Ok(Watch { stop: tx })
}

/// The folder holding `path` (`.` for a bare file name).
fn parent_folder(path: &Path) -> PathBuf {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

// ---------------------------------------------------------------------------
// The shared machinery: a notify watcher feeding a debouncing thread.

/// What a watch follows: which folders to watch, which raw events matter, and
/// what a settled burst means.
trait Follower: Send + 'static {
    /// Folders to watch now (non-recursively); ones that do not exist are skipped.
    fn folders(&self) -> Vec<PathBuf>;
    /// Whether a raw event may concern what is followed.
    fn relevant(&self, event: &Event) -> bool;
    /// Whether a relevant event says that a followed file is whole now, so
    /// that it may be compared at once instead of when the burst settles.
    fn whole(&self, event: &Event) -> bool;
    /// Compares the disk with what was seen last and says what changed.
    fn settle(&mut self) -> Vec<Change>;
}

/// What the watch thread receives: raw events from notify, or the order to stop.
enum Msg {
    Fs(notify::Result<Event>),
    Stop,
}

type Sink = Box<dyn FnMut(Change) + Send>;

/// Identity of a watched folder, to notice one deleted and made again.
type FolderId = (u64, u64);

struct Worker<F> {
    watcher: RecommendedWatcher,
    /// Watched folders and the identity each had when watched.
    watched: HashMap<PathBuf, FolderId>,
    follower: F,
    sink: Sink,
}

fn spawn<F: Follower>(follower: F, sink: Sink) -> Result<Watch, WatchError> {
    let (tx, rx) = mpsc::channel();
    let events_tx = tx.clone();
    let watcher = notify::recommended_watcher(move |event| {
        let _ = events_tx.send(Msg::Fs(event));
    })
    .map_err(WatchError::Start)?;
    let mut worker = Worker {
        watcher,
        watched: HashMap::new(),
        follower,
        sink,
    };
    for folder in worker.follower.folders() {
        if let Some(id) = folder_id(&folder) {
            worker
                .watcher
                .watch(&folder, RecursiveMode::NonRecursive)
                .map_err(|source| WatchError::Folder {
                    path: folder.clone(),
                    source,
                })?;
            worker.watched.insert(folder, id);
        }
    }
    // What is on disk now, with the watches in place, is the starting point.
    let _ = worker.follower.settle();
    // Detached: see [`Watch`].
    thread::Builder::new()
        .name("overhear-watch".into())
        .spawn(move || worker.run(rx))
        .map_err(WatchError::Thread)?;
    Ok(Watch { stop: tx })
}

impl<F: Follower> Worker<F> {
    fn run(mut self, rx: Receiver<Msg>) {
        loop {
            // Wait for the first relevant event of a burst.
            let first = match rx.recv() {
                Ok(Msg::Fs(event)) => self.take(event),
                Ok(Msg::Stop) | Err(_) => return,
            };
            // A whole write is compared at once, once per burst; the rest
            // of the burst is compared when it has settled.
            let mut reported_early = false;
            let mut pending = match first {
                Seen::Nothing => continue,
                Seen::Whole => {
                    self.report();
                    reported_early = true;
                    false
                }
                Seen::Partial => true,
            };
            let start = Instant::now();
            let mut last = start;
            loop {
                let deadline = (last + QUIET).min(start + MAX_DELAY);
                let Some(wait) = deadline.checked_duration_since(Instant::now()) else {
                    break;
                };
                match rx.recv_timeout(wait) {
                    Ok(Msg::Fs(event)) => match self.take(event) {
                        Seen::Nothing => {}
                        Seen::Whole if !reported_early => {
                            self.report();
                            reported_early = true;
                            pending = false;
                            last = Instant::now();
                        }
                        Seen::Whole | Seen::Partial => {
                            pending = true;
                            last = Instant::now();
                        }
                    },
                    Ok(Msg::Stop) | Err(RecvTimeoutError::Disconnected) => return,
                    Err(RecvTimeoutError::Timeout) => break,
                }
            }
            if pending {
                self.report();
            }
        }
    }

    /// Compares the disk with what was seen last and hands each change on.
    fn report(&mut self) {
        let mut changes = self.follower.settle();
        if self.rewatch() {
            // A write to a newly watched folder between the settle and its
            // watch raised no event: look once more.
            changes.extend(self.follower.settle());
        }
        for change in changes {
            (self.sink)(change);
        }
    }

    /// What a raw event says; errors are reported.
    fn take(&mut self, event: notify::Result<Event>) -> Seen {
        match event {
            Ok(event) if event.need_rescan() => Seen::Partial,
            Ok(event) if is_read(&event) || !self.follower.relevant(&event) => Seen::Nothing,
            Ok(event) if self.follower.whole(&event) => Seen::Whole,
            Ok(_) => Seen::Partial,
            Err(e) => {
                (self.sink)(Change::Error(notify_problem(&e)));
                Seen::Partial
            }
        }
    }

    /// Brings the watched folders in line with what the follower wants now
    /// (its folder moved; a folder was deleted and made again). True when a
    /// folder was added.
    fn rewatch(&mut self) -> bool {
        let wanted: HashMap<PathBuf, FolderId> = self
            .follower
            .folders()
            .into_iter()
            .filter_map(|folder| folder_id(&folder).map(|id| (folder, id)))
            .collect();
        let stale: Vec<PathBuf> = self
            .watched
            .iter()
            .filter(|(path, id)| wanted.get(*path) != Some(id))
            .map(|(path, _)| path.clone())
            .collect();
        for path in stale {
            // notify drops the watch of a moved or deleted folder itself.
            let _ = self.watcher.unwatch(&path);
            self.watched.remove(&path);
        }
        let mut added = false;
        for (path, id) in wanted {
            if self.watched.contains_key(&path) {
                continue;
            }
            match self.watcher.watch(&path, RecursiveMode::NonRecursive) {
                Ok(()) => {
                    self.watched.insert(path, id);
                    added = true;
                }
                Err(e) => (self.sink)(Change::Error(format!(
                    "{}: cannot watch for changes: {}",
                    path.display(),
                    notify_problem(&e)
                ))),
            }
        }
        added
    }
}

/// What one raw event says about the followed files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seen {
    /// Nothing that concerns them.
    Nothing,
    /// A followed file is whole now: compare at once.
    Whole,
    /// Something changed that may still be changing: wait for the burst to settle.
    Partial,
}

/// Whether `event` leaves the file at `path` whole: a rename onto it (atomic:
/// the file is complete when it appears under its name) or its closing
/// after a write. With `appended`, also bytes written to it (an append-only
/// stream, read by whole lines).
fn leaves_whole(event: &Event, path: &Path, appended: bool) -> bool {
    let target = match event.kind {
        // `Both` names the old path, then the new one.
        EventKind::Modify(ModifyKind::Name(RenameMode::Both)) => event.paths.get(1),
        EventKind::Modify(ModifyKind::Name(RenameMode::To))
        | EventKind::Access(AccessKind::Close(AccessMode::Write)) => event.paths.first(),
        EventKind::Modify(ModifyKind::Data(_) | ModifyKind::Any) if appended => event.paths.first(),
        _ => None,
    };
    target.is_some_and(|target| target == path)
}

/// Opening and reading files (ours included) are not changes.
fn is_read(event: &Event) -> bool {
    matches!(
        event.kind,
        EventKind::Access(kind) if kind != AccessKind::Close(AccessMode::Write)
    )
}

#[cfg(unix)]
fn folder_id(path: &Path) -> Option<FolderId> {
    use std::os::unix::fs::MetadataExt;
    let meta = fs::metadata(path).ok().filter(fs::Metadata::is_dir)?;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn folder_id(path: &Path) -> Option<FolderId> {
    fs::metadata(path)
        .ok()
        .filter(fs::Metadata::is_dir)
        .map(|_| (0, 0))
}

/// What `stat` says about a file: enough to tell a replacement (new inode), an
/// append (size, mtime) or a rewrite in place (mtime, ctime) from no change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Fingerprint {
    dev: u64,
    ino: u64,
    len: u64,
    mtime: Option<std::time::SystemTime>,
    ctime: (i64, i64),
}

fn fingerprint(path: &Path) -> Option<Fingerprint> {
    let meta = fs::metadata(path).ok().filter(fs::Metadata::is_file)?;
    #[cfg(unix)]
    let (dev, ino, ctime) = {
        use std::os::unix::fs::MetadataExt;
        (meta.dev(), meta.ino(), (meta.ctime(), meta.ctime_nsec()))
    };
    #[cfg(not(unix))]
    let (dev, ino, ctime) = (0, 0, (0, 0));
    Some(Fingerprint {
        dev,
        ino,
        len: meta.len(),
        mtime: meta.modified().ok(),
        ctime,
    })
}

// ---------------------------------------------------------------------------
// Followers.

/// A JP conversation folder, followed through renames and (un)archiving.
struct ConversationFollower {
    /// Where the folder is now (or was last seen).
    dir: PathBuf,
    id: Option<String>,
    events_name: OsString,
    /// The `conversations/` folder (the parent, or above `.archive/`).
    root: PathBuf,
    events: Option<Fingerprint>,
    base_config: Option<Fingerprint>,
    metadata: Option<Fingerprint>,
}

impl ConversationFollower {
    fn new(conv: &ConversationDir) -> Self {
        let parent = parent_folder(&conv.dir);
        let root = if parent.file_name() == Some(OsStr::new(ARCHIVE)) {
            parent_folder(&parent)
        } else {
            parent
        };
        ConversationFollower {
            dir: conv.dir.clone(),
            id: conv.id.clone(),
            events_name: conv.events_name.clone(),
            root,
            events: None,
            base_config: None,
            metadata: None,
        }
    }

    /// The folder of this conversation elsewhere under the root (renamed,
    /// archived, unarchived), by id. Several: the one with the newest stream.
    fn find_moved(&self) -> Option<PathBuf> {
        let id = self.id.as_deref()?;
        [self.root.clone(), self.root.join(ARCHIVE)]
            .iter()
            .filter_map(|folder| fs::read_dir(folder).ok())
            .flat_map(|entries| entries.flatten())
            .filter(|entry| {
                entry
                    .file_name()
                    .to_str()
                    .and_then(id_from_dirname)
                    .is_some_and(|found| found == id)
            })
            .map(|entry| entry.path())
            .filter(|path| path.is_dir())
            .max_by_key(|path| stream_mtime(path))
    }

    /// Whether a name in the root (or its `.archive/`) may be this conversation.
    fn names_us(&self, name: &OsStr) -> bool {
        if name == ARCHIVE || Some(name) == self.dir.file_name() {
            return true;
        }
        match (&self.id, name.to_str().and_then(id_from_dirname)) {
            (Some(id), Some(found)) => id == found,
            _ => false,
        }
    }
}

impl Follower for ConversationFollower {
    fn folders(&self) -> Vec<PathBuf> {
        vec![self.dir.clone(), self.root.clone(), self.root.join(ARCHIVE)]
    }

    fn relevant(&self, event: &Event) -> bool {
        let archive = self.root.join(ARCHIVE);
        event.paths.iter().any(|path| {
            if path == &self.dir || path == &self.root || path == &archive {
                return true;
            }
            let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
                return false;
            };
            if parent == self.dir {
                name == self.events_name.as_os_str() || name == BASE_CONFIG || name == METADATA
            } else if parent == self.root || parent == archive {
                self.names_us(name)
            } else {
                false
            }
        })
    }

    fn whole(&self, event: &Event) -> bool {
        // Only the files themselves: a folder renamed or made is followed by
        // the writes of its files, so it waits for the burst to settle.
        [
            self.events_name.as_os_str(),
            OsStr::new(BASE_CONFIG),
            OsStr::new(METADATA),
        ]
        .iter()
        .any(|name| leaves_whole(event, &self.dir.join(name), false))
    }

    fn settle(&mut self) -> Vec<Change> {
        let mut changes = Vec::new();
        if !self.dir.is_dir()
            && let Some(found) = self.find_moved()
        {
            self.dir = found.clone();
            changes.push(Change::Moved(found));
        }
        let standalone = self.events_name != EVENTS;
        let events = fingerprint(&self.dir.join(&self.events_name));
        let (base_config, metadata) = if standalone {
            (None, None)
        } else {
            (
                fingerprint(&self.dir.join(BASE_CONFIG)),
                fingerprint(&self.dir.join(METADATA)),
            )
        };
        match (self.events.is_some(), events.is_some()) {
            (true, false) => changes.push(Change::Removed),
            (false, true) => changes.push(Change::Returned),
            (false, false) => {}
            (true, true) => {
                if metadata != self.metadata {
                    changes.push(Change::Metadata);
                }
                if base_config != self.base_config {
                    changes.push(Change::BaseConfig);
                }
                if events != self.events {
                    changes.push(Change::Events);
                }
            }
        }
        self.events = events;
        self.base_config = base_config;
        self.metadata = metadata;
        changes
    }
}

/// One file in a folder, appended to or replaced.
struct FileFollower {
    folder: PathBuf,
    name: OsString,
    seen: Option<Fingerprint>,
}

impl Follower for FileFollower {
    fn folders(&self) -> Vec<PathBuf> {
        vec![self.folder.clone()]
    }

    fn relevant(&self, event: &Event) -> bool {
        event
            .paths
            .iter()
            .any(|path| path == &self.folder || path.file_name() == Some(self.name.as_os_str()))
    }

    fn whole(&self, event: &Event) -> bool {
        leaves_whole(event, &self.folder.join(&self.name), true)
    }

    fn settle(&mut self) -> Vec<Change> {
        let now = fingerprint(&self.folder.join(&self.name));
        let change = match (self.seen, now) {
            (Some(_), None) => Some(Change::Removed),
            (None, Some(_)) => Some(Change::Returned),
            (Some(a), Some(b)) if a != b => Some(Change::Events),
            _ => None,
        };
        self.seen = now;
        change.into_iter().collect()
    }
}

#[cfg(test)]
mod tests;
