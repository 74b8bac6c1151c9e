//! The one way overhear writes a file: never over a file the run read, and
//! atomically.
//!
//! A regular file (new or replaced) is written to a temporary file beside
//! it, flushed to the disk and renamed over it: on any error — a full disk,
//! a file size limit, a folder that cannot be written — the previous file
//! is left as it was and the temporary one is removed, so nothing partial
//! is ever left. A target that is a link to a file is followed (the link
//! keeps pointing at the new file). A FIFO or a device (`/dev/null`) is
//! written in place: it holds no file to replace.
//!
//! overhear's own setting file (the `[view]` table of the user
//! configuration, which the viewer keeps up to date) is read back and
//! replaced by [`read_own_setting`] and [`replace_own_setting`]: never
//! through a link, only a regular file, the same way atomically.

use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use super::held_signals::HeldSignals;
use super::read::{identity, not_a_file, was_read};
use crate::problem::write_problem;

/// Why a file could not be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The target is (after resolving links) a file this run read.
    #[error("{}: this run read that file; choose another output file", .0.display())]
    ReadThisRun(PathBuf),
    /// The target is a folder, not a file.
    #[error("{}: a folder, where a file was expected", .0.display())]
    Folder(PathBuf),
    /// The target is a symbolic link to nothing: writing through it would
    /// create a file elsewhere, replacing it would lose the link.
    #[error("{}: a link to a file that does not exist; name the file itself", .0.display())]
    DanglingLink(PathBuf),
    /// The system refused: the message names the file, without error numbers.
    #[error("{}: cannot write: {problem}", .path.display())]
    Io {
        /// The target as it was given.
        path: PathBuf,
        /// What went wrong, in words.
        problem: String,
    },
}

/// Why overhear's own setting file could not be read back or replaced.
#[derive(Debug, thiserror::Error)]
pub enum OwnSettingError {
    /// It is a symbolic link: it is not written through (the link may lead
    /// into a shared or managed folder), nor replaced (the link would be lost).
    #[error("{}: a symbolic link; overhear does not write through it", .0.display())]
    Link(PathBuf),
    /// It is there but is not a regular file.
    #[error("{}: {kind}, not a file", .path.display())]
    NotAFile {
        /// The file.
        path: PathBuf,
        /// What it is instead (`a folder`, `a FIFO`).
        kind: &'static str,
    },
    /// It is not UTF-8 text: it cannot be edited without changing bytes
    /// that are not ours.
    #[error("{}: not UTF-8 text", .0.display())]
    NotText(PathBuf),
    /// The system refused: the message names the file, without error numbers.
    #[error("{}: cannot write: {problem}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong, in words.
        problem: String,
    },
}

/// Writes the file at `path` with what `write` produces, unless `path`
/// names a file this process read (see `files::read`).
pub fn write_file(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), WriteError> {
    let failed = |err: io::Error| WriteError::Io {
        path: path.to_path_buf(),
        problem: write_problem(&err),
    };
    ignore_file_size_signal();
    match fs::metadata(path) {
        Ok(meta) => {
            if was_read(identity(&meta)) {
                return Err(WriteError::ReadThisRun(path.to_path_buf()));
            }
            if meta.is_dir() {
                return Err(WriteError::Folder(path.to_path_buf()));
            }
            if not_a_file(&meta).is_some() {
                return in_place(path, write).map_err(failed);
            }
            // The file itself, links resolved: the link stays a link.
            let real = fs::canonicalize(path).map_err(failed)?;
            replace_holding_signals(&real, Some(meta.permissions()), write).map_err(failed)
        }
        Err(err) if err.kind() == io::ErrorKind::NotFound => {
            if fs::symlink_metadata(path).is_ok() {
                return Err(WriteError::DanglingLink(path.to_path_buf()));
            }
            replace_holding_signals(path, None, write).map_err(failed)
        }
        Err(err) => Err(failed(err)),
    }
}

/// The text of a file overhear wrote before and is about to replace (the
/// manifest and index of `export --all`), to tell whether it changed; `None`
/// when there is none, when it is not a regular file or not UTF-8, or when it
/// is larger than `limit` bytes. Not recorded as read: it is an output of
/// overhear's, not something the user has (a file the run did read is still
/// refused by [`write_file`]).
pub fn read_previous(path: &Path, limit: u64) -> Option<String> {
    use std::io::Read;
    let meta = fs::symlink_metadata(path).ok()?;
    if !meta.is_file() || meta.len() > limit {
        return None;
    }
    let mut text = String::new();
    OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .ok()?
        .take(limit)
        .read_to_string(&mut text)
        .ok()?;
    Some(text)
}

/// The text of overhear's own setting file at `path` as it is now (`None`:
/// there is none), to edit it: a link or anything but a regular file is
/// refused, so that the edit is never written where the link leads. Opened
/// without following a link, so that a link made since the check is not
/// read either; not recorded as read (it is replaced, not written over).
pub fn read_own_setting(path: &Path) -> Result<Option<String>, OwnSettingError> {
    use std::io::Read;
    let failed = |err: io::Error| OwnSettingError::Io {
        path: path.to_path_buf(),
        problem: write_problem(&err),
    };
    match own_setting(path)? {
        None => Ok(None),
        Some(_) => {
            let mut bytes = Vec::new();
            OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
                .open(path)
                .and_then(|mut file| file.read_to_end(&mut bytes))
                .map_err(failed)?;
            String::from_utf8(bytes)
                .map(Some)
                .map_err(|_| OwnSettingError::NotText(path.to_path_buf()))
        }
    }
}

/// Replaces overhear's own setting file at `path` with `text`, atomically
/// (a temporary file renamed over it, its permissions kept), creating its
/// folder when there is none. A link or anything but a regular file is
/// refused. The file's previous content is never written over: renaming
/// gives the name a new file, so a hard link to the old one keeps it.
pub fn replace_own_setting(path: &Path, text: &str) -> Result<(), OwnSettingError> {
    let failed = |err: io::Error| OwnSettingError::Io {
        path: path.to_path_buf(),
        problem: write_problem(&err),
    };
    ignore_file_size_signal();
    let keep = own_setting(path)?.map(|meta| meta.permissions());
    if keep.is_none()
        && let Some(folder) = path.parent()
    {
        fs::create_dir_all(folder).map_err(failed)?;
    }
    replace(path, keep, None, |out| out.write_all(text.as_bytes())).map_err(failed)
}

/// What is at `path` when it is a regular file (`None`: nothing); a link,
/// a folder, a FIFO or a device is refused.
fn own_setting(path: &Path) -> Result<Option<fs::Metadata>, OwnSettingError> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => Err(OwnSettingError::Link(path.to_path_buf())),
        Ok(meta) => match not_a_file(&meta) {
            Some(kind) => Err(OwnSettingError::NotAFile {
                path: path.to_path_buf(),
                kind,
            }),
            None => Ok(Some(meta)),
        },
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(OwnSettingError::Io {
            path: path.to_path_buf(),
            problem: write_problem(&err),
        }),
    }
}

/// Removes the file at `path`, one overhear wrote before and no longer
/// needs (a page of an earlier, longer export), when `ours` — reading the
/// file, opened — says overhear wrote it. Never through a symbolic link
/// (the file is opened with `O_NOFOLLOW`), never a file this run read,
/// never anything but a regular file; `Ok(false)` when it is left where it
/// is, or is not there.
pub fn remove_own(
    path: &Path,
    ours: impl FnOnce(&mut File) -> io::Result<bool>,
) -> Result<bool, WriteError> {
    use std::os::unix::fs::MetadataExt as _;
    let failed = |err: io::Error| WriteError::Io {
        path: path.to_path_buf(),
        problem: write_problem(&err),
    };
    let Ok(meta) = fs::symlink_metadata(path) else {
        return Ok(false);
    };
    if !meta.is_file() || was_read(identity(&meta)) {
        return Ok(false);
    }
    let Ok(mut file) = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
    else {
        return Ok(false);
    };
    // The file opened is the one looked at (not swapped in between).
    let opened = file.metadata().map_err(failed)?;
    if !opened.is_file() || opened.ino() != meta.ino() || opened.dev() != meta.dev() {
        return Ok(false);
    }
    if !ours(&mut file).map_err(failed)? {
        return Ok(false);
    }
    fs::remove_file(path).map_err(failed)?;
    Ok(true)
}

/// A FIFO or a device: written as a stream.
fn in_place(path: &Path, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    let mut out = BufWriter::new(OpenOptions::new().write(true).open(path)?);
    write(&mut out)?;
    out.flush()
}

/// Writes a temporary file beside `target`, then renames it over `target`;
/// the temporary file is removed on any error. A replaced file's permissions
/// (`keep`) carry over; a new file gets the usual ones (0666 less the umask).
/// With `held` signals, one that comes stops the write (an error) before
/// the rename.
fn replace(
    target: &Path,
    keep: Option<fs::Permissions>,
    held: Option<&HeldSignals>,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let check = || held.map_or(Ok(()), HeldSignals::check);
    let (temp, file) = create_temp(target)?;
    let written = (|| {
        let mut out = BufWriter::new(Checked {
            file: &file,
            check: &check,
        });
        write(&mut out)?;
        out.flush()?;
        drop(out);
        if let Some(permissions) = keep {
            file.set_permissions(permissions)?;
        }
        file.sync_all()?;
        check()?;
        fs::rename(&temp, target)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temp);
    }
    written
}

/// A file written only while `check` says so: a held signal stops a write
/// at its next step.
struct Checked<'a> {
    file: &'a File,
    check: &'a dyn Fn() -> io::Result<()>,
}

impl Write for Checked<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        (self.check)()?;
        self.file.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// [`replace`] with the signals that end a run held until the temporary
/// file is renamed or removed (`files::held_signals`).
fn replace_holding_signals(
    target: &Path,
    keep: Option<fs::Permissions>,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let held = HeldSignals::hold();
    let written = replace(target, keep, Some(&held), write);
    held.release();
    written
}

/// A new file beside `target`, named after it (`.NAME.overhear-PID-N.tmp`),
/// created only if no file of that name exists.
fn create_temp(target: &Path) -> io::Result<(PathBuf, File)> {
    static COUNT: AtomicU32 = AtomicU32::new(0);
    let folder = match target.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let name = target.file_name().unwrap_or(target.as_os_str());
    loop {
        let mut temp = OsString::from(".");
        temp.push(name);
        temp.push(format!(
            ".overhear-{}-{}.tmp",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ));
        let temp = folder.join(temp);
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o666)
            .open(&temp)
        {
            Ok(file) => return Ok((temp, file)),
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(err) => return Err(err),
        }
    }
}

/// A write past the process's file size limit (`ulimit -f`) raises SIGXFSZ,
/// whose default action ends the process and would leave the temporary
/// file behind; ignored, the write fails with an error handled like any.
#[allow(unsafe_code)]
fn ignore_file_size_signal() {
    // SAFETY: setting a signal's disposition to SIG_IGN installs no handler
    // and touches no memory of ours.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_failed_write_leaves_the_previous_file_and_nothing_else() {
        let tmp = tempfile::tempdir().unwrap();
        let target = tmp.path().join("out.md");
        fs::write(&target, "previous").unwrap();
        let err = write_file(&target, |out| {
            out.write_all(b"partial")?;
            Err(io::Error::from_raw_os_error(libc::ENOSPC))
        })
        .unwrap_err();
        assert!(
            err.to_string()
                .ends_with("out.md: cannot write: no space left on device"),
            "{err}"
        );
        assert_eq!(fs::read_to_string(&target).unwrap(), "previous");
        assert_eq!(entries(tmp.path()), ["out.md"]);
    }

    #[test]
    fn a_link_is_followed_and_stays_a_link() {
        let tmp = tempfile::tempdir().unwrap();
        let real = tmp.path().join("real.md");
        fs::write(&real, "old").unwrap();
        let link = tmp.path().join("link.md");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_file(&link, |out| out.write_all(b"new")).unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
        assert_eq!(entries(tmp.path()), ["link.md", "real.md"]);
    }

    #[test]
    fn an_own_setting_is_never_written_through_a_link() {
        let tmp = tempfile::tempdir().unwrap();
        let real = tmp.path().join("real.toml");
        fs::write(&real, "theme = \"light\"\n").unwrap();
        let link = tmp.path().join("config.toml");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        assert!(matches!(read_own_setting(&link), Err(OwnSettingError::Link(_))));
        let err = replace_own_setting(&link, "[view]\n").unwrap_err();
        assert!(
            err.to_string()
                .ends_with("config.toml: a symbolic link; overhear does not write through it"),
            "{err}"
        );
        assert_eq!(fs::read_to_string(&real).unwrap(), "theme = \"light\"\n");
        assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(entries(tmp.path()), ["config.toml", "real.toml"]);
    }

    #[test]
    fn an_own_setting_is_replaced_and_its_folder_made() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("overhear").join("config.toml");
        assert_eq!(read_own_setting(&file).unwrap(), None);
        replace_own_setting(&file, "[view]\nreasoning = \"hidden\"\n").unwrap();
        assert_eq!(
            read_own_setting(&file).unwrap().as_deref(),
            Some("[view]\nreasoning = \"hidden\"\n")
        );
        assert_eq!(entries(&tmp.path().join("overhear")), ["config.toml"]);
        let folder = tmp.path().join("folder.toml");
        fs::create_dir(&folder).unwrap();
        assert!(matches!(
            replace_own_setting(&folder, ""),
            Err(OwnSettingError::NotAFile { kind: "a folder", .. })
        ));
    }

    #[test]
    fn a_replaced_file_keeps_its_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let target = tmp.path().join("out.md");
        fs::write(&target, "old").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o640)).unwrap();
        write_file(&target, |out| out.write_all(b"new")).unwrap();
        let mode = fs::metadata(&target).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");
    }
}
