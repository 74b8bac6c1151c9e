//! Claude Code's hook records as short notes in the turn: the hook's name
//! and its outcome (`hook PostToolUse:Bash: ok`, `hook Stop: failed (exit
//! 1)`); what the hook printed stays in the raw view, with the record.
//!
//! Hooks are written as `attachment` records (`hook_success`,
//! `hook_non_blocking_error`, `hook_blocking_error`,
//! `hook_additional_context`, …; 2.x), as a `system` record summing up the
//! stop hooks (`stop_hook_summary`), and, in 1.0.x, as `system` records
//! whose text names the hook in bold (`\e[1mStop\e[22m [cmd] completed
//! successfully: …`).

use serde_json::Value;

use crate::format::transcript::str_at;
use crate::model::facts;

/// A note for the turn: its level (`note`, `warning`, `error`) and text.
pub(super) type Note = (&'static str, String);

/// What a hook `attachment` says, or `None` when the attachment is not a
/// hook's.
pub(super) fn attachment(attachment: &Value) -> Option<Note> {
    let kind = str_at(attachment, "type")?.strip_prefix("hook_")?;
    let name = str_at(attachment, "hookName")
        .or_else(|| str_at(attachment, "hookEvent"))
        .unwrap_or("hook");
    let exit = attachment.get("exitCode").and_then(Value::as_i64);
    let note = match kind {
        "success" => (facts::NOTE, format!("hook {name}: ok")),
        "non_blocking_error" => {
            let outcome = match exit {
                Some(code) => format!("failed (exit {code})"),
                None => "failed".to_string(),
            };
            ("warning", format!("hook {name}: {outcome}"))
        }
        "blocking_error" => {
            let error = attachment.get("blockingError");
            let text = error
                .and_then(|e| e.as_str().or_else(|| str_at(e, "blockingError")))
                .or_else(|| str_at(attachment, "content"))
                .map(first_line)
                .filter(|t| !t.is_empty());
            match text {
                Some(text) => ("error", format!("hook {name}: blocked — {text}")),
                None => ("error", format!("hook {name}: blocked the action")),
            }
        }
        "additional_context" => (facts::NOTE, format!("hook {name}: added context")),
        "cancelled" => ("warning", format!("hook {name}: cancelled")),
        other => (facts::NOTE, format!("hook {name}: {}", other.replace('_', " "))),
    };
    Some(note)
}

/// What a hook's `system` record says: `Some(Some(note))` to show,
/// `Some(None)` for a hook's record that adds nothing to see (a hook
/// starting; a summary of stop hooks that all went well, each shown
/// already), `None` when the record is not a hook's.
pub(super) fn system(value: &Value) -> Option<Option<Note>> {
    match str_at(value, "subtype") {
        Some("stop_hook_summary") => {
            let errors = value
                .get("hookErrors")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            let prevented = value.get("preventedContinuation").and_then(Value::as_bool) == Some(true);
            let reason = str_at(value, "stopReason").map(first_line).unwrap_or_default();
            Some(if prevented {
                let reason = if reason.is_empty() {
                    String::new()
                } else {
                    format!(": {reason}")
                };
                Some(("warning", format!("hook Stop: kept the turn going{reason}")))
            } else if errors > 0 {
                let hooks = if errors == 1 { "hook" } else { "hooks" };
                Some(("warning", format!("{errors} Stop {hooks} failed")))
            } else {
                None
            })
        }
        Some(kind) if kind.starts_with("hook") => {
            Some(Some((facts::NOTE, format!("hook: {}", kind.replace('_', " ")))))
        }
        Some(_) => None,
        None => legacy(str_at(value, "content")?),
    }
}

/// A 1.0.x hook record's text: `\e[1mNAME\e[22m [command] completed
/// successfully: …`, `… failed with …`, or `Running \e[1mNAME\e[22m...`.
fn legacy(content: &str) -> Option<Option<Note>> {
    let plain = without_sgr(content);
    if plain.starts_with("Running ") && plain.trim_end().ends_with("...") && content.contains('\u{1b}') {
        return Some(None);
    }
    if !content.starts_with('\u{1b}') {
        return None;
    }
    let (head, outcome) = plain.split_once("] ")?;
    let (name, command) = head.split_once(" [")?;
    let name = name.trim();
    if name.is_empty() || name.contains(char::is_whitespace) {
        return None;
    }
    let command = first_line(command);
    if outcome.starts_with("completed successfully") {
        Some(Some((facts::NOTE, format!("hook {name} [{command}]: ok"))))
    } else if outcome.starts_with("failed") {
        Some(Some(("warning", format!("hook {name} [{command}]: failed"))))
    } else {
        None
    }
}

/// `text` without its SGR sequences (`\e[…m`).
fn without_sgr(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('\u{1b}') {
        out.push_str(&rest[..at]);
        let after = rest[at + 1..].strip_prefix('[').unwrap_or("");
        match after.find(|c: char| !(c.is_ascii_digit() || c == ';')) {
            Some(end) if after[end..].starts_with('m') => rest = &after[end + 1..],
            _ => {
                out.push('\u{1b}');
                rest = &rest[at + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The first line of `text` that holds anything, trimmed.
fn first_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
        .to_string()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn hook_attachments_read_as_name_and_outcome() {
        let ok = json!({"type": "hook_success", "hookName": "PostToolUse:Bash", "exitCode": 0, "stdout": "busy\n"});
        assert_eq!(attachment(&ok), Some((facts::NOTE, "hook PostToolUse:Bash: ok".into())));
        let failed = json!({"type": "hook_non_blocking_error", "hookName": "Stop", "exitCode": 2});
        assert_eq!(attachment(&failed), Some(("warning", "hook Stop: failed (exit 2)".into())));
        let blocked = json!({"type": "hook_blocking_error", "hookName": "PreToolUse:Bash",
            "blockingError": {"blockingError": "no rm -rf\nplease", "command": "guard"}});
        assert_eq!(
            attachment(&blocked),
            Some(("error", "hook PreToolUse:Bash: blocked — no rm -rf".into()))
        );
        assert_eq!(attachment(&json!({"type": "todo_reminder"})), None);
    }

    #[test]
    fn legacy_hook_records_read_the_same() {
        let done = json!({"type": "system", "content": "\u{1b}[1mStop\u{1b}[22m [uv run pyright] completed successfully: 0 errors\nmore", "level": "info"});
        assert_eq!(system(&done), Some(Some((facts::NOTE, "hook Stop [uv run pyright]: ok".into()))));
        let running = json!({"type": "system", "content": "Running \u{1b}[1mPostToolUse:MultiEdit\u{1b}[22m...", "level": "info"});
        assert_eq!(system(&running), Some(None));
        assert_eq!(system(&json!({"type": "system", "content": "hello"})), None);
        let summary = json!({"type": "system", "subtype": "stop_hook_summary", "hookErrors": [], "preventedContinuation": false});
        assert_eq!(system(&summary), Some(None));
    }
}
