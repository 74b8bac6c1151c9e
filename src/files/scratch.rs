//! An unnamed scratch file: room on the disk for what a run makes and
//! reads back (an export's laid-out blocks, `export::html`), rather than in
//! memory. Made in the temporary folder (`TMPDIR`, else `/tmp`), readable
//! and writable by its owner only, and removed as soon as it is open: it
//! has no name anyone could open, and is gone when the process ends,
//! however it ends. It is never a file the user has, so it is not recorded
//! as read nor written through [`super::write`].

use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};

/// A new scratch file in the temporary folder, already removed.
pub fn file() -> io::Result<File> {
    file_in(&std::env::temp_dir())
}

/// A new file in `folder` (`.overhear-scratch-PID-N.tmp`, created only if
/// no file of that name exists), removed once open.
fn file_in(folder: &Path) -> io::Result<File> {
    static COUNT: AtomicU32 = AtomicU32::new(0);
    loop {
        let path = folder.join(format!(
            ".overhear-scratch-{}-{}.tmp",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ));
        match OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&path)
        {
            Ok(file) => {
                fs::remove_file(&path)?;
                return Ok(file);
            }
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(err) => return Err(err),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::{FileExt, PermissionsExt};

    use super::*;

    #[test]
    fn a_scratch_file_leaves_no_name_behind_and_is_the_owners_only() {
        let folder = std::env::temp_dir().join(format!("overhear-scratch-{}", std::process::id()));
        fs::create_dir_all(&folder).unwrap();
        // Names already taken are passed over, not opened (other tests of
        // this process may have counted a few already).
        let taken: Vec<_> = (0..50)
            .map(|n| folder.join(format!(".overhear-scratch-{}-{n}.tmp", std::process::id())))
            .collect();
        for name in &taken {
            fs::write(name, "the user's").unwrap();
        }
        let file = file_in(&folder).unwrap();
        file.write_all_at(b"kept while open", 0).unwrap();
        let mut back = [0; 15];
        file.read_exact_at(&mut back, 0).unwrap();
        assert_eq!(&back, b"kept while open");
        assert_eq!(file.metadata().unwrap().permissions().mode() & 0o777, 0o600);
        for name in &taken {
            assert_eq!(fs::read_to_string(name).unwrap(), "the user's");
        }
        assert_eq!(fs::read_dir(&folder).unwrap().count(), taken.len());
        fs::remove_dir_all(&folder).unwrap();
    }
}
