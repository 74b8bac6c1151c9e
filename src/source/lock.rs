//! Is JP writing this conversation right now?
//!
//! `jp query` holds an advisory `flock` on `locks/jp-c<id>.lock` for the whole
//! run and deletes the file when done; the file's JSON body names the holder's
//! `pid`. Probing the lock with `flock` could make a starting `jp query` see
//! "already locked", so this module never takes it: a conversation counts as
//! in progress when its lock file exists and the `pid` in it names a live
//! process.

use std::path::Path;

use super::conversation::display_id;

/// File name of a conversation's lock (`jp-c<id>.lock`).
pub fn lock_file_name(id: &str) -> String {
    format!("{}.lock", display_id(id))
}

/// Whether `lock_file` exists and its `pid` names a live process. Reads the
/// file only; never locks, writes or removes it.
pub fn is_held(lock_file: &Path) -> bool {
    let Ok(bytes) = crate::files::read(lock_file) else {
        return false;
    };
    let Ok(body) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
        return false;
    };
    body.get("pid")
        .and_then(serde_json::Value::as_i64)
        .is_some_and(pid_is_alive)
}

/// Whether a process with this id exists (signal 0 probe; `EPERM` means it
/// exists but belongs to someone else).
// Probing a pid is a bare kill(2); std has no safe call for it.
#[allow(unsafe_code)]
pub fn pid_is_alive(pid: i64) -> bool {
    // pid 0 and negative pids address process groups; never probe those.
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    if pid <= 0 {
        return false;
    }
    // SAFETY: kill with signal 0 sends nothing; it only checks the pid.
    let rc = unsafe { libc::kill(pid, 0) };
    rc == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn dead_pid() -> i64 {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = i64::from(child.id());
        child.wait().unwrap();
        pid
    }

    #[test]
    fn lock_with_our_pid_is_held_and_left_untouched() {
        let tmp = tempfile::tempdir().unwrap();
        let lock = tmp.path().join(lock_file_name("17758406187"));
        let body = format!(
            r#"{{"pid":{},"acquired_at":"2026-04-10T17:03:38Z"}}"#,
            std::process::id()
        );
        fs::write(&lock, &body).unwrap();
        let before = fs::metadata(&lock).unwrap();
        assert!(is_held(&lock));
        let after = fs::metadata(&lock).unwrap();
        assert_eq!(fs::read_to_string(&lock).unwrap(), body);
        assert_eq!(before.modified().unwrap(), after.modified().unwrap());
        assert_eq!(before.len(), after.len());
    }

    #[test]
    fn lock_with_a_dead_pid_is_not_held() {
        let tmp = tempfile::tempdir().unwrap();
        let lock = tmp.path().join("jp-c1.lock");
        let body = format!(r#"{{"pid":{}}}"#, dead_pid());
        fs::write(&lock, &body).unwrap();
        assert!(!is_held(&lock));
        assert_eq!(fs::read_to_string(&lock).unwrap(), body);
    }

    #[test]
    fn missing_or_garbled_lock_is_not_held() {
        let tmp = tempfile::tempdir().unwrap();
        let lock = tmp.path().join("jp-c1.lock");
        assert!(!is_held(&lock));
        fs::write(&lock, "not json").unwrap();
        assert!(!is_held(&lock));
        fs::write(&lock, r#"{"pid":0}"#).unwrap();
        assert!(!is_held(&lock));
        fs::write(&lock, r#"{"pid":-1}"#).unwrap();
        assert!(!is_held(&lock));
    }
}
