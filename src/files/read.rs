//! Opening files for reading, and the registry of what was read: the
//! identity (device, inode, birth time) of every file opened, taken from the open file
//! itself, so that it is the file read and not what a path named a moment
//! before or after.

use std::collections::BTreeSet;
use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::Path;
use std::sync::{Mutex, PoisonError};
use std::time::SystemTime;

/// A file's identity: its device and inode, the same for every path that
/// names it (symbolic links, hard links, `..`), and its birth time where the
/// file system keeps one, which tells a file from a later one given the
/// inode of a deleted file. Unlike the change time, the birth time stays
/// the same while an agent appends to its transcript.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct FileId {
    device: u64,
    inode: u64,
    born: Option<SystemTime>,
}

impl FileId {
    /// Whether `self` and `other` are the same file: the same device and
    /// inode, born at the same time when both birth times are known.
    #[cfg(feature = "cli")]
    pub fn same_file(&self, other: &FileId) -> bool {
        self.device == other.device
            && self.inode == other.inode
            && (self.born.is_none() || other.born.is_none() || self.born == other.born)
    }
}

/// Every file this process read, by identity.
static READ: Mutex<BTreeSet<FileId>> = Mutex::new(BTreeSet::new());

/// The identity of a file from its metadata.
pub fn identity(meta: &Metadata) -> FileId {
    FileId {
        device: meta.dev(),
        inode: meta.ino(),
        born: meta.created().ok(),
    }
}

/// Opens `path` read-only and records it as read.
pub fn open(path: &Path) -> io::Result<File> {
    let file = File::open(path)?;
    record(&file);
    Ok(file)
}

/// The whole of the file at `path`, opened through [`open`].
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    open(path)?.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Records `file` as read (a file opened elsewhere, or standard input).
pub fn record(file: &File) {
    if let Ok(meta) = file.metadata() {
        record_id(identity(&meta));
    }
}

/// Records standard input as read: a file redirected into `overhear -` is
/// an input like any other.
pub fn record_stdin() {
    use std::os::fd::AsFd;
    if let Ok(fd) = io::stdin().as_fd().try_clone_to_owned() {
        record(&File::from(fd));
    }
}

fn record_id(id: FileId) {
    READ.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(id);
}

/// Whether the file of identity `id` was read by this process.
#[cfg(feature = "cli")]
pub fn was_read(id: FileId) -> bool {
    READ.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
        .any(|read| read.same_file(&id))
}

/// Why a setting file (a configuration, a theme) could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SettingError {
    /// It is not a regular file: reading a FIFO would wait for a writer,
    /// `/dev/zero` would never end.
    #[error("{0}, not a file")]
    NotAFile(&'static str),
    /// The system refused to open or read it.
    #[error("{}", crate::problem::io_problem(.0))]
    Io(#[from] io::Error),
}

/// The text of a small setting file the user named (`--config`, `--theme`):
/// a regular file only, opened without waiting (a FIFO would block the
/// open until a writer came) and recorded as read.
pub fn read_setting(path: &Path) -> Result<String, SettingError> {
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    let meta = file.metadata()?;
    if let Some(kind) = not_a_file(&meta) {
        return Err(SettingError::NotAFile(kind));
    }
    record_id(identity(&meta));
    let mut text = String::new();
    file.read_to_string(&mut text)?;
    Ok(text)
}

/// What `meta` describes when it is not a regular file: `a folder`, `a
/// FIFO`, `a device`, `a socket`.
pub fn not_a_file(meta: &Metadata) -> Option<&'static str> {
    let kind = meta.file_type();
    if kind.is_file() {
        None
    } else if kind.is_dir() {
        Some("a folder")
    } else if kind.is_fifo() {
        Some("a FIFO")
    } else if kind.is_char_device() || kind.is_block_device() {
        Some("a device")
    } else if kind.is_socket() {
        Some("a socket")
    } else {
        Some("not a regular file")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_of_a_file_read_is_known_as_read() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("events.json");
        std::fs::write(&file, "[]").unwrap();
        let hard = tmp.path().join("hard");
        std::fs::hard_link(&file, &hard).unwrap();
        let soft = tmp.path().join("soft");
        std::os::unix::fs::symlink(&file, &soft).unwrap();
        let other = tmp.path().join("other");
        std::fs::write(&other, "[]").unwrap();
        read(&soft).unwrap();
        for path in [&file, &hard, &soft] {
            assert!(was_read(identity(&std::fs::metadata(path).unwrap())));
        }
        assert!(!was_read(identity(&std::fs::metadata(&other).unwrap())));
    }

    #[test]
    fn a_setting_that_is_not_a_file_says_what_it_is() {
        let tmp = tempfile::tempdir().unwrap();
        let fifo = tmp.path().join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        for (path, kind) in [
            (tmp.path(), "a folder"),
            (fifo.as_path(), "a FIFO"),
            (Path::new("/dev/zero"), "a device"),
        ] {
            let err = read_setting(path).unwrap_err();
            assert_eq!(err.to_string(), format!("{kind}, not a file"));
        }
    }
}
