//! Errors and warnings that several layers share, in words a person can act
//! on: I/O errors without the OS error number, JSON errors without serde's
//! positions, a skipped line with its place ([`SkippedLine`]), and a rejected style value with
//! where it is stored. It sits at the bottom: it imports nothing of the crate.
//!
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
        _ if error.raw_os_error() == Some(libc::ELOOP) => {
            "a symbolic link that leads back to itself (a loop of links)".to_string()
        }
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

/// What went wrong writing a file or stdout, in the words of [`io_problem`]
/// but for the ones that speak of reading.
#[cfg(feature = "cli")]
pub fn write_problem(error: &io::Error) -> String {
    match error.kind() {
        io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => io_problem(error),
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

/// Why line `line` was skipped, with its place: `line 5: not a JSON object`,
/// or `line 4, column 63: not JSON: …` when the reason starts with its column.
pub fn line_problem(line: usize, reason: &str) -> String {
    let separator = if reason.starts_with("column ") {
        ", "
    } else {
        ": "
    };
    format!("line {line}{separator}{reason}")
}

/// What kind of JSON value `value` is, for messages: `a string`, `an
/// array`, `null`, …
pub fn json_kind(value: &serde_json::Value) -> &'static str {
    use serde_json::Value;
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// serde_json's message for `err` without its position (` at line 3 column 7`),
/// reworded where it can say more: `within` names what was being read ("the
/// file", "the line") for the end-of-input and trailing-text cases.
pub fn json_problem(err: &serde_json::Error, within: &str) -> String {
    let text = err.to_string();
    let message = match text.rfind(" at line ") {
        Some(pos) => &text[..pos],
        None => &text,
    };
    if let Some(inside) = message.strip_prefix("EOF while parsing ") {
        return match inside {
            "a value" => format!("{within} ends where a value should follow; it is cut short"),
            // serde_json calls an array a list.
            "a list" => format!("{within} ends inside an array; it is cut short"),
            inside => format!("{within} ends inside {inside}; it is cut short"),
        };
    }
    if let Some((found, expected)) = message
        .strip_prefix("invalid type: ")
        .and_then(|rest| rest.split_once(", expected "))
    {
        let found = match found {
            "map" => "a JSON object",
            "sequence" => "a JSON array",
            other => other,
        };
        return format!("found {found}, expected {expected}");
    }
    match message {
        "trailing characters" => format!("more text after the JSON value; {within} must hold one"),
        "trailing comma" => "a comma before a closing bracket (JSON allows none)".to_string(),
        // serde_json's limit (JP's own reader has it too).
        "recursion limit exceeded" => {
            "nested deeper than 127 levels, more than overhear reads".to_string()
        }
        other => other.to_string(),
    }
}

/// A line a stream reader skipped, and why; reading goes on after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedLine {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub reason: String,
}

impl std::fmt::Display for SkippedLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&line_problem(self.line, &self.reason))
    }
}

/// A style value that is not one of the accepted forms.
///
/// It names the key path (tool name included), the offending value and the problem,
/// e.g. `conversation.tools.fs_read_file.style.inline_results.assistant: "chat" is only
/// valid for user`. In a conversation it is a warning (the field falls back to its
/// default); in the viewer's own configuration it is an error. `policy` makes
/// them (`StyleError::new`, which escapes what it quotes).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {value} {problem}")]
pub struct StyleError {
    /// Dotted key path of the rejected value, e.g. `conversation.tools."*".style.header`.
    pub path: String,
    /// The rejected value as compact JSON, control characters escaped, long values cut.
    pub value: String,
    /// What is wrong with it, phrased to follow the value.
    pub problem: String,
}

/// A style value stored in the conversation that was rejected (the field keeps
/// the value of the layer below), and where it is stored, so that the message
/// can name the file and the place: the document does not know file names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StyleWarning {
    /// `None`: the base configuration. `Some(i)`: it first appears once the
    /// `config_delta` at event `i` (among the conversation's events) is merged.
    pub delta: Option<usize>,
    /// The key path, the value and what is wrong.
    pub error: StyleError,
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
