//! Copilot CLI's tools as overhear shows them (spec agent-transcripts-2 §8):
//! the built-in styles by tool category, as the conversation's base
//! configuration, and the calls of the shell and file tools shown like
//! Claude Code's (`$ command`, a diff, a path) by [`super::super::agent_args`].

use serde_json::{Value, json};

use super::super::agent_args;
use super::super::agent_tools::RENDERED;
use crate::model::call_view::CallView;

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

/// The tool Claude Code names as Copilot's `name`, with Copilot's
/// `arguments` in Claude Code's keys: the shell and file tools and searches
/// are shown like Claude Code's (`$ command`, a diff, a path, a pattern).
fn as_claude_code(name: &str, arguments: &Value) -> Option<(&'static str, Value)> {
    let text = |key: &str| arguments.get(key).cloned().unwrap_or(Value::Null);
    Some(match name {
        "bash" => ("Bash", arguments.clone()),
        "edit" => (
            "Edit",
            json!({"file_path": text("path"), "old_string": text("old_str"),
                   "new_string": text("new_str")}),
        ),
        "create" => (
            "Write",
            json!({"file_path": text("path"), "content": text("file_text")}),
        ),
        "view" => ("Read", json!({"file_path": text("path")})),
        "grep" => ("Grep", json!({"pattern": text("pattern"), "path": text("path")})),
        "glob" => ("Glob", json!({"pattern": text("pattern"), "path": text("path")})),
        "task" => ("Task", json!({"description": text("description")})),
        _ => return None,
    })
}

/// How a call of tool `name` reads: its view (a command, a diff) and its
/// subject (what it did, for the card's header), paths relative to `cwd`.
pub fn facts(name: &str, arguments: &Value, cwd: Option<&str>) -> (Option<CallView>, Option<String>) {
    match as_claude_code(name, arguments) {
        Some((name, arguments)) => (
            agent_args::view(name, &arguments),
            agent_args::subject(name, &arguments, cwd),
        ),
        None => (None, None),
    }
}

/// Whether a call of tool `name` shows its change as a diff of its own
/// ([`facts`]), so its result need not show it again.
pub fn shows_diff(name: &str) -> bool {
    matches!(name, "edit" | "create")
}
