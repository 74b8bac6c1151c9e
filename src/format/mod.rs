//! Input formats: turning bytes into canonical events (JP's vocabulary).
//!
//! One submodule per format. Base64 decoding, legacy generations and eve
//! normalization live here and nowhere else; later stages only see
//! [`event::Event`]s.

pub mod agent_args;
pub mod agent_tools;
pub mod claude_code;
pub mod codex;
pub mod detect;
pub mod eve;
pub mod event;
pub mod ext;
pub mod jp;
pub mod ndjson;
pub mod transcript;

/// serde_json's message for `err` without its position (` at line 3 column 7`),
/// reworded where it can say more: `within` names what was being read ("the
/// file", "the line") for the end-of-input and trailing-text cases.
pub(crate) fn json_problem(err: &serde_json::Error, within: &str) -> String {
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
        other => other.to_string(),
    }
}

pub use event::{Audience, Block, BlockView, ChatResponse, Content, Event, EventKind};
