//! Claude Code `user` records: telling prompts from tool results, harness
//! text, local command output and interruption markers (spec §2.5, in its
//! order: the first rule that matches decides).

use serde_json::Value;

use super::{State, image_of, result_content};
use crate::format::transcript::{Sink, str_at};
use crate::model::call_view::{self, CallView};
use crate::model::{Content, Event, EventKind, facts};

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
    // 1. Tool results.
    let results: Vec<(usize, &Value)> = match content {
        Value::Array(blocks) => blocks
            .iter()
            .enumerate()
            .filter(|(_, b)| str_at(b, "type") == Some("tool_result"))
            .collect(),
        _ => Vec::new(),
    };
    if !results.is_empty() {
        if let Some(request) =
            str_at(results[0].1, "tool_use_id").and_then(|id| state.calls.next_answered(id))
            && let Some(diff) = value.get("toolUseResult").and_then(structured_patch)
        {
            // The edit's hunks with their line numbers in the file.
            sink.update(request, |event| call_view::set(event, &diff));
        }
        if let (Some(call), Some(result)) = (
            str_at(results[0].1, "tool_use_id"),
            value.get("toolUseResult"),
        ) {
            state.link_agent_file(sink, call, result);
        }
        for (index, result) in results {
            state
                .calls
                .answer(str_at(result, "tool_use_id").unwrap_or(""));
            let content = result_content(result.get("content"));
            let is_error = result.get("is_error").and_then(Value::as_bool) == Some(true);
            let refusal = match &content {
                Content::Text(text) if is_error => refusal(text),
                _ => None,
            };
            let mut response = Event::new(
                time.clone(),
                EventKind::ToolCallResponse {
                    id: str_at(result, "tool_use_id").unwrap_or("").to_string(),
                    content,
                    is_error,
                },
            );
            if let Some(reason) = refusal {
                facts::set_refused(&mut response, reason.as_deref());
            }
            sink.push(response);
            sink.note_images(value, &format!("/message/content/{index}/content"));
        }
        return;
    }
    match said(value) {
        Said::Opaque => {
            sink.opaque(time, value);
        }
        Said::Output(output) => {
            sink.notice(time, "info", output);
            // A local command's output answers its prompt: no model is asked.
            state.progress.answered = true;
        }
        Said::Interrupted(marker) => {
            sink.notice(time, "warning", marker);
            // The agent stopped and waits for the user.
            state.end_turn(sink, facts::TurnEnd::Cancelled);
        }
        Said::Prompt { typed, notes } => {
            state.open_turn(sink, time.clone());
            sink.push_kind(
                time.clone(),
                EventKind::ChatRequest {
                    content: typed,
                    author: None,
                    schema: None,
                },
            );
            sink.note_images(value, "/message/content");
            for note in notes {
                sink.notice(time.clone(), facts::NOTE, note);
            }
        }
    }
}

/// What a `user` record that holds no tool result says (spec §2.5, rules
/// 2–6): read by [`record`] and by the figures of a listing (`figures`),
/// so both tell a prompt alike.
pub(super) enum Said {
    /// A compaction summary, harness text, a record the model never saw,
    /// or nothing: kept for the raw view.
    Opaque,
    /// A local command's output, its tags taken off.
    Output(String),
    /// An interruption marker.
    Interrupted(String),
    /// A prompt: the text the user typed and the IDE context as notes.
    Prompt {
        /// What the turn's `chat_request` holds.
        typed: String,
        /// The IDE context blocks, one note each.
        notes: Vec<String>,
    },
}

/// Tells what a `user` record with no tool result says.
pub(super) fn said(value: &Value) -> Said {
    let content = value
        .get("message")
        .and_then(|m| m.get("content"))
        .unwrap_or(&Value::Null);
    let flag = |key: &str| value.get(key).and_then(Value::as_bool) == Some(true);
    let text = text_of(content);
    let start = text.trim_start();
    // 2. A compaction summary; 3. harness text; and records the model never saw.
    if flag("isCompactSummary") || flag("isMeta") || flag("isVisibleInTranscriptOnly") {
        return Said::Opaque;
    }
    // 4. Local command output.
    if COMMAND_OUTPUT.iter().any(|tag| start.starts_with(tag)) {
        let output = strip_tags(start);
        // A command that printed nothing (`/clear`, `! true`) says so, rather
        // than leave a bare `⚠` line.
        return Said::Output(if output.is_empty() {
            NO_OUTPUT.to_string()
        } else {
            output
        });
    }
    // 5. An interruption marker.
    if start.starts_with("[Request interrupted by user") {
        return Said::Interrupted(start.trim().to_string());
    }
    // 6. A prompt, unless empty.
    if start.is_empty() {
        return Said::Opaque;
    }
    let (typed, notes) = ide_context(start, str_at(value, "cwd"));
    let typed = match (typed.trim().is_empty(), notes.first()) {
        (true, Some(note)) => note.clone(),
        _ => prompt_text(typed.trim()),
    };
    Said::Prompt { typed, notes }
}

/// Whether a failed result's text says the user refused the call, and then
/// the reason they gave (Claude Code writes it after its own sentence).
fn refusal(text: &str) -> Option<Option<String>> {
    const REFUSED: [&str; 2] = [
        "The user doesn't want to proceed with this tool use",
        "The user doesn't want to take this action",
    ];
    if !REFUSED.iter().any(|start| text.trim_start().starts_with(start)) {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    let reason = ["the user said:", "the reason for the rejection:"]
        .iter()
        .find_map(|marker| lower.find(marker).map(|at| at + marker.len()))
        .map(|at| text[at..].trim().to_string())
        .filter(|reason| !reason.is_empty());
    Some(reason)
}

/// A prompt without the IDE's context blocks (`<ide_opened_file>`,
/// `<ide_selection>`, `<ide_diagnostics>`, …), and each block as a short
/// note (`opened src/app.ts`); a path under `cwd` is given relative to it.
fn ide_context(text: &str, cwd: Option<&str>) -> (String, Vec<String>) {
    let mut rest = String::new();
    let mut notes = Vec::new();
    let mut text = text;
    while let Some(open) = text.find("<ide_") {
        let after = &text[open + 1..];
        let Some(name_end) = after.find('>') else {
            break;
        };
        let name = &after[..name_end];
        let close = format!("</{name}>");
        if !name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') {
            break;
        }
        let body_start = open + 1 + name_end + 1;
        let Some(body_len) = text[body_start..].find(&close) else {
            break;
        };
        rest.push_str(&text[..open]);
        notes.push(ide_note(name, &text[body_start..body_start + body_len], cwd));
        text = &text[body_start + body_len + close.len()..];
    }
    rest.push_str(text);
    (rest, notes)
}

/// One IDE context block as a note.
fn ide_note(tag: &str, body: &str, cwd: Option<&str>) -> String {
    let path = |p: &str| {
        let p = p.trim();
        cwd.map(|c| c.trim_end_matches('/'))
            .and_then(|c| p.strip_prefix(c)?.strip_prefix('/'))
            .filter(|r| !r.is_empty())
            .unwrap_or(p)
            .to_string()
    };
    match tag {
        "ide_opened_file" => {
            if let Some(file) = between(body, "opened the file ", " in the IDE") {
                return format!("opened {}", path(file));
            }
        }
        "ide_selection" => {
            let lines = between(body, "selected the lines ", " from ")
                .and_then(|range| range.split_once(" to "));
            let file = body
                .split_once(" from ")
                .and_then(|(_, rest)| rest.split_once(':'))
                .map(|(file, _)| file);
            if let (Some((from, to)), Some(file)) = (lines, file) {
                return format!("selected lines {}–{} of {}", from.trim(), to.trim(), path(file));
            }
        }
        _ => {}
    }
    let what = tag.trim_start_matches("ide_").replace('_', " ");
    let first = body.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let first: String = first.trim().chars().take(80).collect();
    if first.is_empty() {
        format!("IDE {what}")
    } else {
        format!("IDE {what}: {first}")
    }
}

/// An edit's `toolUseResult.structuredPatch` as a diff, when it has hunks.
fn structured_patch(result: &Value) -> Option<CallView> {
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
    fn refusals_are_told_from_failures_and_keep_the_reason() {
        let plain = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
        assert_eq!(refusal(plain), Some(None));
        let with = format!("{plain} To tell you how to proceed, the user said:\nuse pnpm");
        assert_eq!(refusal(&with), Some(Some("use pnpm".into())));
        let other = "The user doesn't want to proceed with this tool use. the reason for the rejection: too slow";
        assert_eq!(refusal(other), Some(Some("too slow".into())));
        assert_eq!(refusal("command not found"), None);
    }

    #[test]
    fn ide_context_becomes_notes() {
        let text = "<ide_opened_file>The user opened the file /w/src/app.ts in the IDE. This may or may not be related to the current task.</ide_opened_file><ide_selection>The user selected the lines 3 to 9 from /elsewhere/b.ts:\nx\n</ide_selection>Fix it<ide_diagnostics>2 errors\n</ide_diagnostics>";
        let (rest, notes) = ide_context(text, Some("/w"));
        assert_eq!(rest, "Fix it");
        assert_eq!(
            notes,
            [
                "opened src/app.ts",
                "selected lines 3–9 of /elsewhere/b.ts",
                "IDE diagnostics: 2 errors"
            ]
        );
        assert_eq!(ide_context("<ide_x>unclosed", None).0, "<ide_x>unclosed");
    }

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
