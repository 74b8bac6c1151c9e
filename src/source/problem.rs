//! I/O errors in words a person can act on.
//!
//! The standard library's messages carry the operating system's error number
//! (`No such file or directory (os error 2)`) and say nothing about what to do.
//! Every error that names a file the viewer reads goes through
//! [`io_problem`], so that they all read the same way:
//! `<file>: permission denied; overhear needs read access`.

use std::io;

/// What went wrong, without the OS error number, with a fix where one is obvious.
pub fn io_problem(error: &io::Error) -> String {
    match error.kind() {
        io::ErrorKind::NotFound => "no such file or folder".to_string(),
        io::ErrorKind::PermissionDenied => {
            "permission denied; overhear needs read access (it never writes)".to_string()
        }
        io::ErrorKind::IsADirectory => "a folder, where a file was expected".to_string(),
        io::ErrorKind::NotADirectory => "a part of the path is a file, not a folder".to_string(),
        io::ErrorKind::InvalidData => "not UTF-8 text".to_string(),
        _ => {
            let text = error.to_string();
            let text = match text.rfind(" (os error ") {
                Some(at) if text.ends_with(')') => text[..at].to_string(),
                _ => text,
            };
            lowercase_first(&text)
        }
    }
}

/// `Broken pipe` → `broken pipe`, leaving acronyms (`EOF`) alone.
fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if first.is_uppercase() && second.is_lowercase() => {
            first.to_lowercase().chain(text.chars().skip(1)).collect()
        }
        _ => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_errors_read_as_words_without_the_os_number() {
        let missing = std::fs::read("/nonexistent/overhear-test").unwrap_err();
        assert_eq!(io_problem(&missing), "no such file or folder");
        let denied = io::Error::from(io::ErrorKind::PermissionDenied);
        assert!(io_problem(&denied).starts_with("permission denied; "));
        let other = io::Error::from_raw_os_error(libc::EIO);
        assert_eq!(io_problem(&other), "input/output error");
    }

    #[test]
    fn acronyms_keep_their_case() {
        assert_eq!(lowercase_first("EOF reached"), "EOF reached");
        assert_eq!(lowercase_first("Broken pipe"), "broken pipe");
    }
}
