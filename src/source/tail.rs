//! Reading what was appended to a file since last time (eve NDJSON streams).
//!
//! An eve stream grows by whole lines appended at the end, so re-reading it
//! from the start on every change would cost time proportional to the whole
//! file. [`AppendTail`] remembers how far it read and which file that was
//! (device and inode): a poll reads only the new bytes, and reports a
//! [`TailRead::Reset`] with the whole content when the file shrank or was
//! replaced by another one (rotation, rewrite by rename). Pair it with
//! `watch::file` (the program's, with the `cli` feature) to know when to poll.
//!
//! Bytes are returned as they are on disk: an append may end in the middle of
//! a line, and the reader keeps the unfinished part until the rest arrives.
//! A poll returns at most [`READ_STEP`] bytes of an append (the first read of
//! a file included): a large file is read a step at a time, each step parsed
//! and let go before the next, so reading it never holds the whole file
//! beside what was made of it; [`AppendTail::behind`] says a step is left.
//!
//! A file rewritten in place (same inode: `cat new > file`, an editor that
//! saves over it) may be as long as before, or longer, between two polls: a
//! growth is an append only while the bytes already read are still there.
//! Before reading on, a poll compares the first and the last [`SAMPLE`]
//! bytes read with what the file holds there now — two small reads, the
//! cost of a poll staying that of the new bytes — and a difference makes it
//! a [`TailRead::Reset`] (as JP's whole-file rewrites are checked against
//! the prefix read, `format::prefix_hash`). A rewrite that keeps both
//! samples and changes only bytes between them is still read as an append.

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Follows one append-only file.
#[derive(Debug)]
pub struct AppendTail {
    path: PathBuf,
    /// The open file being followed, positioned at `offset`.
    file: Option<File>,
    /// Device and inode of `file`.
    identity: Option<(u64, u64)>,
    offset: u64,
    /// The first bytes read (up to [`SAMPLE`]).
    head: Vec<u8>,
    /// The last bytes read (up to [`SAMPLE`]), ending at `offset`.
    tail: Vec<u8>,
    /// The file's modification time at the last poll: a rewrite to the
    /// same length changes only it.
    modified: Option<SystemTime>,
    /// The file's length at the last poll.
    len_seen: u64,
}

/// The most bytes of an append one poll returns: small, as the step's
/// bytes and its lines' stored texts are held while the step is read (a
/// 100 MB export peaked 12 MB higher at 8 MiB); a step's fixed cost (a
/// `stat`, two sample reads) is nothing beside parsing 256 KiB.
pub const READ_STEP: usize = 256 << 10;

/// How many bytes at each end of what was read a poll checks again.
pub const SAMPLE: usize = 4096;

/// What a poll found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TailRead {
    /// Nothing new.
    Unchanged,
    /// These bytes follow what was read before (the first poll returns the
    /// whole file this way).
    Appended(Vec<u8>),
    /// The file shrank or was replaced: forget what was read; this is the
    /// whole new content.
    Reset(Vec<u8>),
}

impl AppendTail {
    /// A tail of `path` that has read nothing yet.
    pub fn new(path: impl Into<PathBuf>) -> Self {
        AppendTail {
            path: path.into(),
            file: None,
            identity: None,
            offset: 0,
            head: Vec::new(),
            tail: Vec::new(),
            modified: None,
            len_seen: 0,
        }
    }

    /// Whether the last poll stopped a step short of the length it saw:
    /// polling again reads on.
    pub fn behind(&self) -> bool {
        self.file.is_some() && self.offset < self.len_seen
    }

    /// The file followed.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How many bytes of the current file have been returned.
    #[cfg(any(test, feature = "internals"))]
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Reads what is new (a file grown past [`super::limit`] is an error). Costs a `stat` plus reading the appended bytes. An
    /// absent file is an error (`NotFound`); polling again after it comes back
    /// gives [`TailRead::Reset`].
    pub fn poll(&mut self) -> io::Result<TailRead> {
        let meta = fs::metadata(&self.path).map_err(|e| self.named(e))?;
        super::limit::check_len(meta.len()).map_err(|e| self.named(e))?;
        let same_file = self.identity == Some(identity(&meta));
        let modified = meta.modified().ok();
        let grown = same_file && self.file.is_some() && meta.len() >= self.offset;
        if grown && meta.len() == self.offset && modified == self.modified {
            return Ok(TailRead::Unchanged);
        }
        let intact = grown && self.file.as_ref().is_some_and(|f| self.read_still_there(f));
        match self.file.as_mut() {
            Some(file) if intact => {
                self.modified = modified;
                self.len_seen = meta.len();
                let step = (meta.len() - self.offset).min(READ_STEP as u64);
                let mut bytes = Vec::with_capacity(step as usize);
                file.take(step)
                    .read_to_end(&mut bytes)
                    .map_err(|e| self.named(e))?;
                self.offset += bytes.len() as u64;
                self.sample(&bytes);
                Ok(if bytes.is_empty() {
                    TailRead::Unchanged
                } else {
                    TailRead::Appended(bytes)
                })
            }
            _ => {
                let first = self.identity.is_none();
                // A replaced file is read whole: it is checked whole before
                // it replaces what was read.
                let bytes = self.reopen(if first { READ_STEP as u64 } else { u64::MAX })?;
                Ok(if !first {
                    TailRead::Reset(bytes)
                } else if bytes.is_empty() {
                    TailRead::Unchanged
                } else {
                    TailRead::Appended(bytes)
                })
            }
        }
    }

    /// Opens the file afresh and reads it from the start, at most `most` bytes.
    fn reopen(&mut self, most: u64) -> io::Result<Vec<u8>> {
        let mut file = crate::files::open(&self.path).map_err(|e| self.named(e))?;
        // The identity of what was opened, not of what the path named a moment ago.
        let meta = file.metadata().map_err(|e| self.named(e))?;
        super::limit::check_len(meta.len()).map_err(|e| self.named(e))?;
        let mut bytes = Vec::with_capacity(meta.len().min(most) as usize);
        (&mut file)
            .take(most)
            .read_to_end(&mut bytes)
            .map_err(|e| self.named(e))?;
        self.identity = Some(identity(&meta));
        self.modified = meta.modified().ok();
        self.len_seen = meta.len();
        self.offset = bytes.len() as u64;
        self.file = Some(file);
        self.head.clear();
        self.tail.clear();
        self.sample(&bytes);
        Ok(bytes)
    }

    /// Forgets the file: the next poll reads it whole again, as a
    /// [`TailRead::Reset`] (the caller could not use what it read).
    pub fn forget(&mut self) {
        self.file = None;
    }

    /// Keeps the first and last bytes read, with `bytes` just read.
    fn sample(&mut self, bytes: &[u8]) {
        let room = SAMPLE - self.head.len();
        self.head.extend_from_slice(&bytes[..room.min(bytes.len())]);
        let keep = bytes.len().min(SAMPLE);
        let drop = (self.tail.len() + keep).saturating_sub(SAMPLE);
        self.tail.drain(..drop);
        self.tail.extend_from_slice(&bytes[bytes.len() - keep..]);
    }

    /// Whether the file still holds the bytes read at both ends of what
    /// was read (a rewrite in place changes them).
    fn read_still_there(&self, file: &File) -> bool {
        let tail_at = self.offset - self.tail.len() as u64;
        same_at(file, 0, &self.head) && same_at(file, tail_at, &self.tail)
    }

    fn named(&self, e: io::Error) -> io::Error {
        super::conversation::named(&self.path, &e)
    }
}

/// Whether `file` holds `bytes` at `offset` (a positioned read: the
/// file's own position, where appends are read from, stays).
#[cfg(unix)]
fn same_at(file: &File, offset: u64, bytes: &[u8]) -> bool {
    use std::os::unix::fs::FileExt;
    let mut now = vec![0; bytes.len()];
    file.read_exact_at(&mut now, offset).is_ok() && now == bytes
}

#[cfg(not(unix))]
fn same_at(_file: &File, _offset: u64, _bytes: &[u8]) -> bool {
    true
}

#[cfg(unix)]
fn identity(meta: &fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(not(unix))]
fn identity(_meta: &fs::Metadata) -> (u64, u64) {
    (0, 0)
}

/// What a followed stream is read from: a file that grows, or one
/// session of an OpenCode store, whose rows changed since the last poll
/// arrive as row records ([`super::opencode::StoreTail`]).
#[derive(Debug)]
pub enum Tail {
    /// An append-only file.
    File(AppendTail),
    /// An OpenCode session.
    Store(Box<super::opencode::StoreTail>),
}

impl Tail {
    /// A tail of what `path` names: an OpenCode session's path
    /// ([`super::opencode::SessionPath`]) or a file.
    pub fn new(path: impl Into<PathBuf>) -> Tail {
        let path = path.into();
        match super::opencode::SessionPath::from_path(&path) {
            Some(session) => Tail::Store(Box::new(super::opencode::StoreTail::new(session))),
            None => Tail::File(AppendTail::new(path)),
        }
    }

    /// The path followed.
    pub fn path(&self) -> &Path {
        match self {
            Tail::File(tail) => tail.path(),
            Tail::Store(tail) => tail.path(),
        }
    }

    /// What changed since the last poll.
    pub fn poll(&mut self) -> io::Result<TailRead> {
        match self {
            Tail::File(tail) => tail.poll(),
            Tail::Store(tail) => tail.poll(),
        }
    }

    /// Whether a poll without a new change may still find one: a store's
    /// commit seen written before it was visible
    /// ([`super::opencode::StoreTail::waiting`]).
    #[cfg(feature = "cli")]
    pub fn waiting(&self) -> bool {
        match self {
            Tail::File(_) => false,
            Tail::Store(tail) => tail.waiting(),
        }
    }

    /// Whether the last poll read a step short of what the file holds
    /// ([`AppendTail::behind`]); a store's rows come whole.
    pub fn behind(&self) -> bool {
        match self {
            Tail::File(tail) => tail.behind(),
            Tail::Store(_) => false,
        }
    }

    /// Forgets what was read: the next poll reads everything again.
    pub fn forget(&mut self) {
        match self {
            Tail::File(tail) => tail.forget(),
            Tail::Store(tail) => tail.forget(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn append(path: &Path, bytes: &[u8]) {
        let mut file = fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(path)
            .unwrap();
        file.write_all(bytes).unwrap();
    }

    #[test]
    fn first_poll_reads_all_then_only_appends() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("s.ndjson");
        append(&path, b"{\"a\":1}\n");
        let mut tail = AppendTail::new(&path);
        assert_eq!(
            tail.poll().unwrap(),
            TailRead::Appended(b"{\"a\":1}\n".to_vec())
        );
        assert_eq!(tail.poll().unwrap(), TailRead::Unchanged);
        append(&path, b"{\"b\":2}\n");
        assert_eq!(
            tail.poll().unwrap(),
            TailRead::Appended(b"{\"b\":2}\n".to_vec())
        );
        assert_eq!(tail.offset(), 16);
    }

    #[test]
    fn a_large_file_is_read_a_step_at_a_time_and_a_rewrite_whole() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("s.ndjson");
        let bytes: Vec<u8> = (0..2 * READ_STEP + 100).map(|i| b'a' + (i % 26) as u8).collect();
        append(&path, &bytes);
        let mut tail = AppendTail::new(&path);
        let mut read = Vec::new();
        for step in [READ_STEP, READ_STEP, 100] {
            let TailRead::Appended(got) = tail.poll().unwrap() else {
                panic!("an append")
            };
            assert_eq!(got.len(), step);
            read.extend(got);
            assert_eq!(tail.behind(), read.len() < bytes.len());
        }
        assert_eq!(read, bytes);
        assert_eq!(tail.poll().unwrap(), TailRead::Unchanged);
        assert!(!tail.behind());

        let replaced = tmp.path().join("new");
        std::fs::write(&replaced, &bytes[1..]).unwrap();
        std::fs::rename(&replaced, &path).unwrap();
        assert_eq!(tail.poll().unwrap(), TailRead::Reset(bytes[1..].to_vec()));
        assert!(!tail.behind());
    }

    #[test]
    fn partial_lines_arrive_in_pieces() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("s.ndjson");
        append(&path, b"{\"type\":\"mess");
        let mut tail = AppendTail::new(&path);
        assert_eq!(
            tail.poll().unwrap(),
            TailRead::Appended(b"{\"type\":\"mess".to_vec())
        );
        append(&path, b"age\"}\n{");
        assert_eq!(
            tail.poll().unwrap(),
            TailRead::Appended(b"age\"}\n{".to_vec())
        );
    }

    #[test]
    fn truncation_resets_with_the_new_content() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("s.ndjson");
        append(&path, b"line one\nline two\n");
        let mut tail = AppendTail::new(&path);
        tail.poll().unwrap();
        fs::OpenOptions::new()
            .write(true)
            .truncate(true)
            .open(&path)
            .unwrap()
            .write_all(b"new\n")
            .unwrap();
        assert_eq!(tail.poll().unwrap(), TailRead::Reset(b"new\n".to_vec()));
        append(&path, b"more\n");
        assert_eq!(tail.poll().unwrap(), TailRead::Appended(b"more\n".to_vec()));
    }

    #[test]
    fn a_rewrite_in_place_resets_even_when_as_long_or_longer() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("s.jsonl");
        append(&path, b"{\"a\":1}\n{\"b\":2}\n");
        let mut tail = AppendTail::new(&path);
        tail.poll().unwrap();
        // Same inode, new content, longer than before.
        fs::write(&path, b"{\"c\":3}\n{\"d\":4}\n{\"e\":5}\n").unwrap();
        assert_eq!(
            tail.poll().unwrap(),
            TailRead::Reset(b"{\"c\":3}\n{\"d\":4}\n{\"e\":5}\n".to_vec())
        );
        // As long as before: only the time says it changed.
        let before = fs::metadata(&path).unwrap().modified().unwrap();
        fs::write(&path, b"{\"f\":6}\n{\"g\":7}\n{\"h\":8}\n").unwrap();
        let file = fs::File::options().write(true).open(&path).unwrap();
        file.set_modified(before + std::time::Duration::from_secs(1))
            .unwrap();
        assert_eq!(
            tail.poll().unwrap(),
            TailRead::Reset(b"{\"f\":6}\n{\"g\":7}\n{\"h\":8}\n".to_vec())
        );
        append(&path, b"{\"i\":9}\n");
        assert_eq!(
            tail.poll().unwrap(),
            TailRead::Appended(b"{\"i\":9}\n".to_vec())
        );
    }

    #[test]
    fn replacement_by_rename_resets_even_when_larger() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("s.ndjson");
        append(&path, b"old\n");
        let mut tail = AppendTail::new(&path);
        tail.poll().unwrap();
        let other = tmp.path().join("s.ndjson.tmp");
        fs::write(&other, b"a longer replacement\n").unwrap();
        fs::rename(&other, &path).unwrap();
        assert_eq!(
            tail.poll().unwrap(),
            TailRead::Reset(b"a longer replacement\n".to_vec())
        );
    }

    #[test]
    fn a_missing_file_is_an_error_naming_it_and_its_return_a_reset() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("s.ndjson");
        let mut tail = AppendTail::new(&path);
        let err = tail.poll().unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::NotFound);
        assert!(err.to_string().contains("s.ndjson"), "{err}");
        append(&path, b"x\n");
        assert_eq!(tail.poll().unwrap(), TailRead::Appended(b"x\n".to_vec()));
        fs::remove_file(&path).unwrap();
        assert!(tail.poll().is_err());
        append(&path, b"y\n");
        assert_eq!(tail.poll().unwrap(), TailRead::Reset(b"y\n".to_vec()));
    }
}
