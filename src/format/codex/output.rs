//! A Codex tool output's text and whether it is an error (spec §3.8: rollouts
//! store no success flag, so the text decides, in the spec's order).

use serde_json::Value;

use crate::format::transcript::{image_placeholder, str_at};

/// The text of an `output`: a string, an `input_text` item, or an array of
/// `input_text` / `input_image` items.
pub(super) fn text(output: Option<&Value>) -> String {
    match output {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(items)) => items.iter().map(item).collect::<Vec<_>>().join("\n"),
        Some(Value::Null) | None => String::new(),
        Some(other @ Value::Object(_)) if str_at(other, "type").is_some() => item(other),
        Some(other) => other.to_string(),
    }
}

fn item(item: &Value) -> String {
    match str_at(item, "type") {
        Some("input_text" | "output_text" | "text") => {
            str_at(item, "text").unwrap_or("").to_string()
        }
        Some("input_image") => image_placeholder(None, None),
        Some(other) => format!("[{other}]"),
        None => item.to_string(),
    }
}

/// Whether an output says the user denied the call's approval: Codex
/// answers the model with one of these sentences, exactly.
pub(super) fn refused(text: &str) -> bool {
    matches!(
        text.trim(),
        "exec command rejected by user" | "patch rejected by user"
    )
}

/// The text to show and whether it reports an error, by rules 2–5 of §3.8
/// (rule 1, the extended-mode events, is applied by the reader).
pub(super) fn judge(text: String) -> (String, bool) {
    // 2. A shell tool's JSON with `metadata.exit_code` (0.4x–0.5x).
    if text.starts_with('{')
        && let Ok(value) = crate::format::surrogates::parse_inner::<Value>(&text)
        && let Some(code) = value
            .get("metadata")
            .and_then(|m| m.get("exit_code"))
            .and_then(Value::as_i64)
    {
        let shown = str_at(&value, "output").map_or(text.clone(), str::to_string);
        return (shown, code != 0);
    }
    // 3. An exit code line.
    for line in text.lines() {
        let line = line.trim();
        let code = line
            .strip_prefix("Exit code:")
            .or_else(|| line.strip_prefix("Process exited with code"))
            .and_then(|rest| rest.trim().parse::<i64>().ok());
        if let Some(code) = code {
            return (text, code != 0);
        }
    }
    // 4. Known failure prefixes.
    const FAILED: [&str; 4] = [
        "failed in sandbox",
        "execution error",
        "apply_patch verification failed",
        "aborted",
    ];
    let error = FAILED.iter().any(|prefix| text.starts_with(prefix));
    (text, error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_follow_the_spec_rules_in_order() {
        let json = r#"{"output":"boom\n","metadata":{"exit_code":1,"duration_seconds":0.1}}"#;
        assert_eq!(judge(json.into()), ("boom\n".into(), true));
        let ok = r#"{"output":"fine","metadata":{"exit_code":0}}"#;
        assert_eq!(judge(ok.into()), ("fine".into(), false));
        assert!(judge("Exit code: 2\nWall time: 1s\nOutput:\n".into()).1);
        assert!(!judge("Process exited with code 0\n".into()).1);
        assert!(judge("failed in sandbox: denied".into()).1);
        assert!(!judge("Success. Updated the following files:\nM a.rs".into()).1);
    }

    #[test]
    fn output_items_are_joined() {
        let v = serde_json::json!([{"type":"input_text","text":"a"},{"type":"input_image","image_url":"data:"}]);
        assert_eq!(text(Some(&v)), "a\n[image]");
    }
}
