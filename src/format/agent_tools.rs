//! Built-in display styles for the tools of Claude Code, Codex, Gemini CLI
//! and Qwen Code, by tool
//! category (spec agent-transcripts §5), as the base configuration of their
//! conversations.
//!
//! The styles are written in JP's own configuration shape
//! (`conversation.tools.<name>.style`), so they go through the one policy
//! every format uses, and `--config`/`--set`
//! (`conversation.tools.Bash.style.inline_results = 5`) override them key by
//! key like any stored style.

use serde_json::{Value, json};

use super::detect::LineFormat;

/// Shell tools: the command as a one-line call, long output folded.
const SHELL: &[&str] = &[
    "Bash",
    "BashOutput",
    "KillShell",
    "KillBash",
    "shell",
    "shell_command",
    "exec_command",
    "write_stdin",
    "local_shell",
    "container.exec",
    "run_shell_command",
];

/// The `parameters` value that shows a call's view (`overhear.call_view`,
/// made by [`super::agent_args`]): JP's form for a custom formatter, which
/// the viewer never runs.
pub const RENDERED: &str = crate::model::call_view::VIEW_PARAMETERS;

/// File edits: the change as a diff.
const EDIT: &[&str] = &[
    "Edit",
    "MultiEdit",
    "Write",
    "apply_patch",
    "replace",
    "write_file",
    "edit",
];

/// File reads: the file named in one line, its text folded to a few lines.
const READ: &[&str] = &[
    "Read",
    "NotebookRead",
    "view_image",
    "read_file",
    "read_many_files",
];

/// Searches: one line of arguments, the first matches.
const SEARCH: &[&str] = &[
    "Glob",
    "Grep",
    "LS",
    "WebSearch",
    "WebFetch",
    "glob",
    "grep_search",
    "search_file_content",
    "list_directory",
    "web_fetch",
    "google_web_search",
    "web_search",
];

/// Plans and questions: shown whole (a checklist, a question is short and
/// is what the user must read).
const WHOLE: &[&str] = &[
    "TodoWrite",
    "TaskCreate",
    "TaskUpdate",
    "ExitPlanMode",
    "update_plan",
    "AskUserQuestion",
    "Task",
    "Agent",
    "write_todos",
    "ask_user",
    "ask_user_question",
    "invoke_agent",
];

/// The base configuration of a conversation in `format`: the built-in tool
/// styles (none for eve, whose streams carry no tool names of their own).
pub fn default_config(format: LineFormat) -> Option<Value> {
    if format == LineFormat::Eve {
        return None;
    }
    let mut tools = serde_json::Map::new();
    let mut add = |names: &[&str], style: Value| {
        for name in names {
            tools.insert((*name).to_string(), json!({ "style": style }));
        }
    };
    add(
        SHELL,
        json!({"parameters": RENDERED, "inline_results": 8,
               "error": {"inline_results": 20}}),
    );
    add(
        READ,
        json!({"parameters": "function_call", "inline_results": 3}),
    );
    add(
        SEARCH,
        json!({"parameters": "function_call", "inline_results": 5}),
    );
    add(WHOLE, json!({"inline_results": "full"}));
    add(EDIT, json!({"parameters": RENDERED, "inline_results": 5}));
    // OpenCode's tools (spec agent-transcripts-2 §8), by the same categories.
    add(
        &["bash"],
        json!({"parameters": RENDERED, "inline_results": 8,
               "error": {"inline_results": 20}}),
    );
    add(&["read"], json!({"parameters": "function_call", "inline_results": 3}));
    add(
        &["glob", "grep", "list", "codesearch", "webfetch", "websearch"],
        json!({"parameters": "function_call", "inline_results": 5}),
    );
    add(
        &["task", "todoread", "question"],
        json!({"inline_results": "full"}),
    );
    add(
        &["edit", "write", "multiedit", "patch"],
        json!({"parameters": RENDERED, "inline_results": 5}),
    );
    for name in ["TodoWrite", "update_plan", "AskUserQuestion", "write_todos", "todowrite"] {
        tools.insert(
            name.to_string(),
            json!({"style": {"parameters": RENDERED, "inline_results": "full"}}),
        );
    }
    Some(json!({ "conversation": { "tools": tools } }))
}
