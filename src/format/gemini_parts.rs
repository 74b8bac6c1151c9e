//! What Gemini CLI and Qwen Code share: `@google/genai` content parts
//! (spec agent-transcripts-2 §2.4, §4.3) and the tool result displays both
//! write (`resultDisplay`: text, a file diff, a terminal grid). One reading
//! of them, used by `format::gemini` and `format::qwen`.

use serde_json::Value;

use super::transcript::{image_placeholder, str_at};

/// One genai `Part`, as the readers need it.
#[derive(Debug, Clone, PartialEq)]
pub enum Part<'a> {
    /// Text: speech, or reasoning when `thought` is set.
    Text {
        /// The text.
        text: &'a str,
        /// `thought: true`: reasoning, not speech.
        thought: bool,
    },
    /// A thought of which only the signature is stored: reasoning hidden.
    HiddenThought,
    /// The model asks for a tool (`functionCall`).
    Call {
        /// The call's id (absent in older records).
        id: Option<&'a str>,
        /// The tool's name.
        name: &'a str,
        /// Its arguments.
        args: &'a Value,
    },
    /// A tool's answer sent back to the model (`functionResponse`).
    Response {
        /// The id of the call it answers.
        id: Option<&'a str>,
        /// The tool's name.
        name: &'a str,
        /// `{output}` or `{error}` (or anything else).
        response: &'a Value,
    },
    /// Something shown as a placeholder (an image, a file, code run by the
    /// model): its text.
    Placeholder(String),
    /// A part this reader does not know.
    Other(&'a Value),
}

/// The parts of a `PartListUnion`: a string, one part, or a list of parts
/// and strings. Anything else has no parts.
pub fn parts(content: &Value) -> Vec<Part<'_>> {
    match content {
        Value::Array(items) => items.iter().map(part).collect(),
        Value::Null => Vec::new(),
        other => vec![part(other)],
    }
}

/// One part (a string is a text part).
pub fn part(value: &Value) -> Part<'_> {
    if let Value::String(text) = value {
        return Part::Text {
            text,
            thought: false,
        };
    }
    let thought = value.get("thought").and_then(Value::as_bool) == Some(true);
    if let Some(text) = str_at(value, "text") {
        return Part::Text { text, thought };
    }
    if let Some(call) = value.get("functionCall").filter(|c| c.is_object()) {
        return Part::Call {
            id: str_at(call, "id"),
            name: str_at(call, "name").unwrap_or("tool"),
            args: call.get("args").unwrap_or(&Value::Null),
        };
    }
    if let Some(response) = value.get("functionResponse").filter(|c| c.is_object()) {
        return Part::Response {
            id: str_at(response, "id"),
            name: str_at(response, "name").unwrap_or("tool"),
            response: response.get("response").unwrap_or(&Value::Null),
        };
    }
    if let Some(data) = value.get("inlineData") {
        return Part::Placeholder(image_placeholder(
            str_at(data, "mimeType"),
            str_at(data, "data").map(str::len),
        ));
    }
    if let Some(file) = value.get("fileData") {
        let uri = str_at(file, "fileUri").unwrap_or("");
        return Part::Placeholder(format!("[file: {uri}]"));
    }
    if let Some(code) = value.get("executableCode") {
        let language = str_at(code, "language").unwrap_or("").to_ascii_lowercase();
        let code = str_at(code, "code").unwrap_or("");
        return Part::Placeholder(format!("```{language}\n{code}\n```"));
    }
    if let Some(result) = value.get("codeExecutionResult") {
        let output = str_at(result, "output").unwrap_or("");
        return Part::Placeholder(format!("```\n{output}\n```"));
    }
    if thought || value.get("thoughtSignature").is_some() {
        return Part::HiddenThought;
    }
    Part::Other(value)
}

/// The non-thought text of `parts` (placeholders included), joined by a
/// blank line where parts meet.
pub fn speech(parts: &[Part<'_>]) -> String {
    let mut out = String::new();
    for part in parts {
        let text = match part {
            Part::Text {
                text,
                thought: false,
            } => *text,
            Part::Placeholder(text) => text.as_str(),
            _ => continue,
        };
        if text.is_empty() {
            continue;
        }
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(text);
    }
    out
}

/// The text of a `functionResponse.response` and whether it is an error:
/// `error` (a string, else its JSON) when present, else `output`, else the
/// whole response as JSON.
pub fn response_text(response: &Value) -> (String, bool) {
    match response.get("error") {
        Some(Value::Null) | None => {}
        Some(Value::String(text)) => return (text.clone(), true),
        Some(other) => return (other.to_string(), true),
    }
    match response.get("output") {
        Some(Value::String(text)) => (text.clone(), false),
        Some(Value::Null) | None if response.is_null() => (String::new(), false),
        Some(Value::Null) | None => (response.to_string(), false),
        Some(other) => (other.to_string(), false),
    }
}

/// What a `resultDisplay` shows, when it shows anything: a string as it is,
/// a file diff's `fileDiff`, a terminal grid's lines (runs joined; styles
/// dropped, the text still goes through the sanitizer when shown), any
/// other object as compact JSON.
pub fn result_display(display: &Value) -> Option<String> {
    let text = match display {
        Value::Null => return None,
        Value::String(text) => text.clone(),
        Value::Array(lines) => lines
            .iter()
            .map(|line| match line {
                Value::Array(runs) => runs.iter().filter_map(|r| str_at(r, "text")).collect(),
                Value::String(text) => text.clone(),
                other => other.to_string(),
            })
            .collect::<Vec<String>>()
            .join("\n"),
        other => match str_at(other, "fileDiff") {
            Some(diff) => diff.to_string(),
            None => other.to_string(),
        },
    };
    (!text.trim().is_empty()).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_part_list_may_be_a_string_a_part_or_a_list() {
        assert_eq!(speech(&parts(&json!("hi"))), "hi");
        assert_eq!(speech(&parts(&json!({"text": "one"}))), "one");
        let list = json!([{"text": "think", "thought": true}, "a", {"text": "b"},
            {"inlineData": {"mimeType": "image/png", "data": "AAAA"}}]);
        assert_eq!(speech(&parts(&list)), "a\nb\n[image: image/png, 3 B]");
        assert!(matches!(
            parts(&list)[0],
            Part::Text {
                thought: true,
                ..
            }
        ));
        assert_eq!(
            part(&json!({"thoughtSignature": "x"})),
            Part::HiddenThought
        );
    }

    #[test]
    fn a_response_is_its_error_else_its_output() {
        assert_eq!(
            response_text(&json!({"error": "no such file"})),
            ("no such file".to_string(), true)
        );
        assert_eq!(
            response_text(&json!({"output": "ok"})),
            ("ok".to_string(), false)
        );
        assert_eq!(
            response_text(&json!({"error": {}, "output": "x"})),
            ("{}".to_string(), true)
        );
    }

    #[test]
    fn a_display_is_text_a_diff_or_a_terminal_grid() {
        assert_eq!(result_display(&json!("")), None);
        let diff = json!({"fileDiff": "--- a\n+++ b\n", "fileName": "a"});
        assert_eq!(result_display(&diff).as_deref(), Some("--- a\n+++ b\n"));
        let grid = json!([[{"text": "a", "bold": true}, {"text": "b"}], [{"text": "c"}]]);
        assert_eq!(result_display(&grid).as_deref(), Some("ab\nc"));
    }
}
