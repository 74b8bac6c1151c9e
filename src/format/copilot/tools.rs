//! Copilot CLI's tools as overhear shows them (spec agent-transcripts-2 §8):
//! the built-in styles by tool category, as the conversation's base
//! configuration, and the calls of the shell and file tools rendered like
//! Claude Code's (`$ command`, a coloured diff) by [`super::super::agent_args`].

use serde_json::{Value, json};

use super::super::agent_args;
use super::super::agent_tools::RENDERED;

/// The base configuration of a Copilot CLI conversation: its tools' styles
/// (`conversation.tools.NAME.style`), which `--config`/`--set` override.
pub fn default_config() -> Value {
    let mut tools = serde_json::Map::new();
    let mut add = |names: &[&str], style: Value| {
        for name in names {
            tools.insert((*name).to_string(), json!({ "style": style }));
        }
    };
    let shell = json!({"parameters": RENDERED, "inline_results": 8,
                       "error": {"inline_results": 20}});
    add(&["bash"], shell);
    add(
        &["read_bash", "write_bash", "stop_bash", "list_bash"],
        json!({"parameters": "function_call", "inline_results": 8,
               "error": {"inline_results": 20}}),
    );
    add(
        &["edit", "create"],
        json!({"parameters": RENDERED, "inline_results": 5}),
    );
    add(
        &["view"],
        json!({"parameters": "function_call", "inline_results": 3}),
    );
    add(
        &["glob", "grep"],
        json!({"parameters": "function_call", "inline_results": 5}),
    );
    add(
        &["report_intent"],
        json!({"parameters": "function_call", "inline_results": 1}),
    );
    add(
        &["task", "read_agent", "list_agents"],
        json!({"inline_results": "full"}),
    );
    json!({ "conversation": { "tools": tools } })
}

/// The call of tool `name` as it should read, for the tools shown like
/// Claude Code's: `bash` as `$ command` under its description, `edit` and
/// `create` as a diff of the file.
pub fn rendered(name: &str, arguments: &Value) -> Option<String> {
    let text = |key: &str| arguments.get(key).and_then(Value::as_str);
    match name {
        "bash" => agent_args::rendered("Bash", arguments),
        "edit" => agent_args::rendered(
            "Edit",
            &json!({"file_path": text("path")?, "old_string": text("old_str").unwrap_or(""),
                    "new_string": text("new_str").unwrap_or("")}),
        ),
        "create" => agent_args::rendered(
            "Write",
            &json!({"file_path": text("path")?, "content": text("file_text").unwrap_or("")}),
        ),
        _ => None,
    }
}

/// Whether a call of tool `name` shows its change as a diff of its own
/// ([`rendered`]), so its result need not show it again.
pub fn shows_diff(name: &str) -> bool {
    matches!(name, "edit" | "create")
}
