//! The error a rejected style value produces, and the helpers that name key paths and
//! values in its message.
//!
//! Tool names and values come from the conversation file and are untrusted: every
//! control character is escaped before it can reach a message, so printing a
//! [`StyleError`] on a terminal is always safe.

use serde_json::Value;

/// The longest value (in characters) quoted in full in an error message.
const MAX_SHOWN_VALUE: usize = 80;

pub use crate::problem::StyleError;

impl StyleError {
    /// Builds an error for `value` found at `path`.
    pub(crate) fn new(path: &str, value: &Value, problem: impl Into<String>) -> Self {
        StyleError {
            path: path.to_owned(),
            value: show_value(value),
            problem: problem.into(),
        }
    }
}

/// A TOML parse error on one line, `line L, column C: message`, from the text it was
/// parsed from (the parser's own rendering spreads over several lines).
pub fn toml_problem(text: &str, err: &toml::de::Error) -> String {
    let message = err.message().trim().replace('\n', "; ");
    // The parser reads integers wider than TOML's and says so in Rust's words.
    let message = match message
        .strip_prefix("invalid type: integer `")
        .and_then(|rest| rest.split_once("` as i128"))
    {
        Some((number, _)) => format!("{number} is too large for a TOML integer (64 bits)"),
        None => message,
    };
    let Some(span) = err.span() else {
        return message;
    };
    let before = &text[..text.floor_char_boundary(span.start)];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    format!("line {line}, column {column}: {message}")
}

/// One key of a dotted path: bare when it is a plain identifier, otherwise quoted
/// with JSON-style escapes (`"*"`, `"mcp.tool"`).
pub(crate) fn key_segment(name: &str) -> String {
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if plain {
        name.to_owned()
    } else {
        let quoted = serde_json::to_string(name).unwrap_or_else(|_| String::from("\"?\""));
        escape_controls(&quoted)
    }
}

/// The key path of a tool's style in JP's configuration.
pub(crate) fn tool_style_path(tool: &str) -> String {
    format!("conversation.tools.{}.style", key_segment(tool))
}

/// `path.key`.
pub(crate) fn child(path: &str, key: &str) -> String {
    format!("{path}.{}", key_segment(key))
}

/// A value as compact JSON, safe to print and at most [`MAX_SHOWN_VALUE`] characters.
pub(crate) fn show_value(value: &Value) -> String {
    let json = serde_json::to_string(value).unwrap_or_else(|_| String::from("<value>"));
    let escaped = escape_controls(&json);
    if escaped.chars().count() > MAX_SHOWN_VALUE {
        let cut: String = escaped.chars().take(MAX_SHOWN_VALUE).collect();
        format!("{cut}…")
    } else {
        escaped
    }
}

/// Replaces every control or bidirectional-override character by a `\u{…}` escape.
fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let bidi = matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
        if c.is_control() || bidi {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn plain_tool_names_stay_bare_and_others_are_quoted() {
        assert_eq!(
            tool_style_path("fs_read_file"),
            "conversation.tools.fs_read_file.style"
        );
        assert_eq!(tool_style_path("*"), "conversation.tools.\"*\".style");
        assert_eq!(
            tool_style_path("mcp.tool"),
            "conversation.tools.\"mcp.tool\".style"
        );
    }

    #[test]
    fn control_characters_in_names_and_values_are_escaped() {
        let path = tool_style_path("evil\u{1b}]0;x\u{7}");
        assert!(!path.chars().any(char::is_control), "{path:?}");
        let shown = show_value(&json!("a\u{9b}b\u{7f}\u{202e}"));
        assert!(!shown.chars().any(char::is_control), "{shown:?}");
        assert!(shown.contains("\\u{9b}") && shown.contains("\\u{202e}"));
    }

    #[test]
    fn long_values_are_cut() {
        let shown = show_value(&json!("x".repeat(500)));
        assert_eq!(shown.chars().count(), MAX_SHOWN_VALUE + 1);
        assert!(shown.ends_with('…'));
    }

    #[test]
    fn toml_errors_are_one_line_with_line_and_column() {
        let text = "a = 1\nb = \n";
        let err = toml::from_str::<toml::Table>(text).unwrap_err();
        assert_eq!(
            toml_problem(text, &err),
            "line 2, column 5: string values must be quoted, expected literal string"
        );
    }

    #[test]
    fn message_names_path_value_and_problem() {
        let err = StyleError::new("a.b", &json!("chat"), "is only valid for user");
        assert_eq!(err.to_string(), "a.b: \"chat\" is only valid for user");
    }
}
