//! Claude Code `user` records: telling prompts from tool results, harness
//! text, local command output and interruption markers (spec §2.5, in its
//! order: the first rule that matches decides).

use serde_json::Value;

use super::{State, image_of, result_content};
use crate::format::transcript::{Sink, str_at};
use crate::model::{EventKind, ext};

/// Local command output opens with one of these tags (rule 4).
const COMMAND_OUTPUT: [&str; 4] = [
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<bash-stdout>",
    "<bash-stderr>",
];

/// What an empty local command output reads as.
const NO_OUTPUT: &str = "(no output)";

/// Maps one `user` record.
pub(super) fn record(state: &mut State, sink: &mut Sink, value: &Value, time: Option<String>) {
    let content = value
        .get("message")
        .and_then(|m| m.get("content"))
        .unwrap_or(&Value::Null);
    let flag = |key: &str| value.get(key).and_then(Value::as_bool) == Some(true);
    // 1. Tool results.
    let results: Vec<&Value> = match content {
        Value::Array(blocks) => blocks
            .iter()
            .filter(|b| str_at(b, "type") == Some("tool_result"))
            .collect(),
        _ => Vec::new(),
    };
    if !results.is_empty() {
        if let Some(request) =
            str_at(results[0], "tool_use_id").and_then(|id| state.calls.next_answered(id))
            && let Some(diff) = value.get("toolUseResult").and_then(structured_patch)
        {
            // The edit's hunks with their line numbers in the file.
            sink.update(request, |event| {
                let old = event
                    .metadata
                    .insert("rendered_arguments".into(), Value::from(diff.clone()));
                old.as_ref().and_then(Value::as_str) != Some(diff.as_str())
            });
        }
        if let (Some(call), Some(result)) = (
            str_at(results[0], "tool_use_id"),
            value.get("toolUseResult"),
        ) {
            state.link_agent_file(sink, call, result);
        }
        for result in results {
            state
                .calls
                .answer(str_at(result, "tool_use_id").unwrap_or(""));
            sink.push_kind(
                time.clone(),
                EventKind::ToolCallResponse {
                    id: str_at(result, "tool_use_id").unwrap_or("").to_string(),
                    content: result_content(result.get("content")),
                    is_error: result.get("is_error").and_then(Value::as_bool) == Some(true),
                },
            );
        }
        return;
    }
    let text = text_of(content);
    let start = text.trim_start();
    // 2. A compaction summary; 3. harness text; and records the model never saw.
    if flag("isCompactSummary") || flag("isMeta") || flag("isVisibleInTranscriptOnly") {
        sink.opaque(time, value);
        return;
    }
    // 4. Local command output.
    if COMMAND_OUTPUT.iter().any(|tag| start.starts_with(tag)) {
        let output = strip_tags(start);
        // A command that printed nothing (`/clear`, `! true`) says so, rather
        // than leave a bare `⚠` line.
        let output = if output.is_empty() {
            NO_OUTPUT.to_string()
        } else {
            output
        };
        sink.notice(time, "info", output);
        // A local command's output answers its prompt: no model is asked.
        state.progress.answered = true;
        return;
    }
    // 5. An interruption marker.
    if start.starts_with("[Request interrupted by user") {
        sink.notice(time, "warning", start.trim().to_string());
        // The agent stopped and waits for the user.
        state.end_turn(sink, ext::TurnEnd::Cancelled);
        return;
    }
    // 6. A prompt, unless empty.
    if start.is_empty() {
        sink.opaque(time, value);
        return;
    }
    state.open_turn(sink, time.clone());
    sink.push_kind(
        time,
        EventKind::ChatRequest {
            content: prompt_text(start),
            author: None,
            schema: None,
        },
    );
}

/// An edit's `toolUseResult.structuredPatch` as a diff, when it has hunks.
fn structured_patch(result: &Value) -> Option<String> {
    let path = str_at(result, "filePath")?;
    let hunks = result.get("structuredPatch")?.as_array()?;
    if hunks.is_empty() {
        return None;
    }
    crate::format::agent_args::hunks(path, hunks)
}

/// The text of a `message.content`: a string, or its text blocks (and bare
/// strings) joined by blank lines, images as placeholders.
pub(super) fn text_of(content: &Value) -> String {
    match content {
        Value::String(text) => text.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|block| match block {
                Value::String(text) => Some(text.clone()),
                _ => match str_at(block, "type") {
                    Some("text") => str_at(block, "text").map(str::to_string),
                    Some("image") => Some(image_of(block)),
                    Some("document") => Some("[document]".to_string()),
                    _ => None,
                },
            })
            .collect::<Vec<_>>()
            .join("\n\n"),
        _ => String::new(),
    }
}

/// A prompt as the user typed it: a slash command as `/name args`, bash
/// mode as `! command`, anything else as is.
fn prompt_text(text: &str) -> String {
    if let Some(name) = between(text, "<command-name>", "</command-name>") {
        let args = between(text, "<command-args>", "</command-args>").unwrap_or("");
        let name = if name.starts_with('/') {
            name.to_string()
        } else {
            format!("/{name}")
        };
        return if args.trim().is_empty() {
            name
        } else {
            format!("{name} {}", args.trim())
        };
    }
    if let Some(command) = between(text, "<bash-input>", "</bash-input>") {
        return format!("! {command}");
    }
    text.to_string()
}

/// The text between the first `open` and the next `close`.
fn between<'a>(text: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = text.find(open)? + open.len();
    let end = text[start..].find(close)? + start;
    Some(&text[start..end])
}

/// Command output without its `<…>` wrapper tags.
fn strip_tags(text: &str) -> String {
    let mut out = text.to_string();
    for tag in COMMAND_OUTPUT {
        let close = tag.replacen('<', "</", 1);
        out = out.replace(tag, "").replace(&close, "");
    }
    out.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slash_commands_and_bash_mode_read_as_typed() {
        let text = "<command-message>init</command-message>\n<command-name>/init</command-name>\n<command-args>now</command-args>";
        assert_eq!(prompt_text(text), "/init now");
        assert_eq!(prompt_text("<bash-input>ls -la</bash-input>"), "! ls -la");
        assert_eq!(
            strip_tags("<local-command-stdout>Bye!</local-command-stdout>"),
            "Bye!"
        );
    }
}
