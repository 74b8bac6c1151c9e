//! Turning eve payload values into the text and blocks of canonical events.

use serde_json::Value;

use crate::model::facts::ErrorInfo;
use crate::model::message_tools::SEND_CHANNEL_UPDATE;
use crate::model::{Audience, Block, Content};

/// The framework tool whose `message` argument is a mid-turn message to the user.
pub(super) const CHANNEL_UPDATE: &str = SEND_CHANNEL_UPDATE;

/// Whether a tool name is the channel-update tool (also when namespaced, `ns__send_channel_update`).
pub(super) fn is_channel_update(name: &str) -> bool {
    name.strip_suffix(CHANNEL_UPDATE)
        .is_some_and(|namespace| namespace.is_empty() || namespace.ends_with("__"))
}

/// A tool output as text: a string as itself, other JSON pretty-printed, null as nothing.
pub(super) fn output_text(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => serde_json::to_string_pretty(other).unwrap_or_default(),
    }
}

/// `{code, message}` of an eve error object.
pub(super) fn error_info(value: Option<&Value>) -> Option<ErrorInfo> {
    let map = value?.as_object()?;
    let text = |k: &str| map.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    Some(ErrorInfo {
        code: text("code"),
        message: text("message"),
    })
}

/// `CODE: message` (or whichever half exists).
pub(super) fn error_text(error: &ErrorInfo) -> String {
    match (error.code.is_empty(), error.message.is_empty()) {
        (false, false) => format!("{}: {}", error.code, error.message),
        (false, true) => error.code.clone(),
        _ => error.message.clone(),
    }
}

/// A user message's parts (gen A `{type, text}` / v27 `{kind, text}`) as one
/// text: text parts joined by newlines, files as `[file: name (type)]`.
pub(super) fn parts_text(parts: &[Value]) -> String {
    let mut out = Vec::new();
    for part in parts {
        let tag = part
            .get("type")
            .or_else(|| part.get("kind"))
            .and_then(Value::as_str);
        match tag {
            Some("text") => {
                if let Some(text) = part.get("text").and_then(Value::as_str) {
                    out.push(text.to_string());
                }
            }
            Some("file") => {
                let name = part
                    .get("filename")
                    .and_then(Value::as_str)
                    .unwrap_or("file");
                let mime = part.get("mediaType").and_then(Value::as_str).unwrap_or("");
                out.push(format!("[file: {name} ({mime})]"));
            }
            _ => {}
        }
    }
    out.join("\n")
}

/// The `<task_result id="…">…</task_result>` block of one task inside a
/// `task.result` input, without its tags; the whole text when not found.
pub(super) fn task_result_block(message: &str, task_id: &str) -> String {
    let open = format!("<task_result id=\"{task_id}\"");
    let Some(start) = message.find(&open) else {
        return message.to_string();
    };
    let after = &message[start..];
    let Some(gt) = after.find('>') else {
        return message.to_string();
    };
    let body = &after[gt + 1..];
    let end = body.find("</task_result>").unwrap_or(body.len());
    body[..end].trim_matches('\n').to_string()
}

/// The RFD 094 shape of a channel update: the message for the user (markdown)
/// and the tool's reply for the assistant.
pub(super) fn update_content(message: Option<&str>, reply: &str) -> Content {
    let mut blocks = Vec::new();
    if let Some(message) = message {
        blocks.push(Block::text(
            message,
            Some("text/markdown"),
            Some(Audience::User),
        ));
    }
    blocks.push(Block::text(reply, None, Some(Audience::Assistant)));
    Content::Blocks(blocks)
}

/// The eve marker the model writes for intentional silence.
pub(super) fn is_silence_marker(text: &str) -> bool {
    text.trim() == "<eve-empty-delivery/>"
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn outputs_render_as_text() {
        assert_eq!(output_text(Some(&json!("hi"))), "hi");
        assert_eq!(output_text(Some(&json!({"a": 1}))), "{\n  \"a\": 1\n}");
        assert_eq!(output_text(None), "");
    }

    #[test]
    fn task_result_block_extracts_one_task() {
        let m = "<task_result id=\"a\" name=\"x\" status=\"completed\">\nA\n</task_result>\n<task_result id=\"b\" name=\"y\">\nB\n</task_result>";
        assert_eq!(task_result_block(m, "b"), "B");
        assert_eq!(task_result_block(m, "a"), "A");
        assert_eq!(task_result_block("plain", "a"), "plain");
    }

    #[test]
    fn parts_list_files() {
        let parts = [
            json!({"type": "text", "text": "see"}),
            json!({"kind": "file", "mediaType": "image/png", "filename": "a.png"}),
        ];
        assert_eq!(parts_text(&parts), "see\n[file: a.png (image/png)]");
    }
}
