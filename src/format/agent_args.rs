//! What the calls of well-known agent tools say, as facts for the render
//! stage ([`CallView`], stored as `overhear.call_view`) and the few words
//! that say what a call did (its subject, `overhear.subject`, for the card
//! header). The render stage shows a call's view when the tool's style
//! names `parameters = "overhear"` (see [`super::agent_tools`]):
//!
//! * shell commands as `$ command`, with the call's description above;
//! * edits (`Edit`, `MultiEdit`, `Write`, `apply_patch`) as unified diffs
//!   with the file name (the `similar` crate);
//! * plans and todo lists (`TodoWrite`, `update_plan`) as checklists;
//! * questions (`AskUserQuestion`) as questions with their options.
//!
//! Nothing here styles text: which line is added or removed is a fact, its
//! colour is the theme's. A user who prefers the JSON sets
//! `parameters = "json"` for the tool.

use serde_json::Value;
use similar::TextDiff;

use crate::model::call_view::{
    CallView, ChecklistItem, DIFF_KEPT_LINES, DiffLine, DiffLineKind, ItemStatus,
    Question,
};

/// The view of a call of tool `name` with `arguments`, when the tool is one
/// this module knows.
pub fn view(name: &str, arguments: &Value) -> Option<CallView> {
    let text = |key: &str| arguments.get(key).and_then(Value::as_str);
    let command = |command: String| CallView::Command {
        description: None,
        command,
    };
    let out = match name {
        "Bash" => CallView::Command {
            description: text("description").map(str::to_string),
            command: text("command")?.to_string(),
        },
        "shell" | "local_shell" | "container.exec" => command(argv(arguments.get("command")?)?),
        "shell_command" => command(text("command")?.to_string()),
        "exec_command" => command(argv(arguments.get("cmd")?)?),
        "Edit" => diff(text("file_path")?, text("old_string")?, text("new_string")?),
        "MultiEdit" => {
            let path = text("file_path")?;
            let edits = arguments.get("edits")?.as_array()?;
            let mut lines = Vec::new();
            for edit in edits {
                let get = |k: &str| edit.get(k).and_then(Value::as_str);
                if let (Some(old), Some(new)) = (get("old_string"), get("new_string")) {
                    lines.extend(diff_lines(path, old, new));
                }
            }
            capped(lines)
        }
        "Write" => diff(text("file_path")?, "", text("content")?),
        "apply_patch" => patch(text("input").or_else(|| text("patch"))?),
        "TodoWrite" => checklist(arguments.get("todos")?, "content", None)?,
        "update_plan" => checklist(
            arguments.get("plan")?,
            "step",
            text("explanation").map(str::to_string),
        )?,
        "AskUserQuestion" => questions(arguments.get("questions")?)?,
        "run_shell_command" => return view("Bash", arguments),
        "replace" | "edit" => diff(text("file_path")?, text("old_string")?, text("new_string")?),
        "write_file" => diff(text("file_path")?, "", text("content")?),
        "write_todos" => checklist(arguments.get("todos")?, "description", None)?,
        _ => return None,
    };
    Some(out)
}

/// What a call of tool `name` with `arguments` did, in a few words, for its
/// card's header: a shell call's description or command, a file tool's
/// path, a search's pattern, a fetch's address, a sub-agent's description.
/// A path under `cwd` (the folder the agent ran in, when known) is given
/// relative to it.
pub fn subject(name: &str, arguments: &Value, cwd: Option<&str>) -> Option<String> {
    let text = |key: &str| {
        arguments
            .get(key)
            .and_then(Value::as_str)
            .filter(|t| !t.trim().is_empty())
    };
    let path = |key: &str| text(key).map(|p| relative(p, cwd));
    let out = match name {
        "Bash" => text("description")
            .map(str::to_string)
            .or_else(|| text("command").map(str::to_string))?,
        "shell" | "local_shell" | "container.exec" => argv(arguments.get("command")?)?,
        "shell_command" => text("command")?.to_string(),
        "exec_command" => argv(arguments.get("cmd")?)?,
        "Read" | "Write" | "Edit" | "MultiEdit" => path("file_path")?,
        "NotebookRead" | "NotebookEdit" => path("notebook_path")?,
        "view_image" | "LS" => path("path")?,
        "apply_patch" => {
            let files = patch_files(text("input").or_else(|| text("patch"))?, cwd);
            (!files.is_empty()).then(|| files.join(", "))?
        }
        "Grep" | "Glob" => {
            let pattern = text("pattern")?;
            match path("path") {
                Some(folder) => format!("{pattern} in {folder}"),
                None => pattern.to_string(),
            }
        }
        "WebSearch" => text("query")?.to_string(),
        "WebFetch" => text("url")?.to_string(),
        "Task" | "Agent" => text("description")?.to_string(),
        "run_shell_command" => return subject("Bash", arguments, cwd),
        "read_file" | "replace" | "write_file" | "edit" => path("file_path")
            .or_else(|| path("absolute_path"))
            .or_else(|| path("path"))?,
        "list_directory" => path("path").or_else(|| path("directory"))?,
        "glob" | "grep_search" | "search_file_content" => text("pattern")?.to_string(),
        "invoke_agent" | "agent" | "task" => text("description")
            .or_else(|| text("objective"))
            .or_else(|| text("agent_name"))?
            .to_string(),
        _ => return None,
    };
    let out = out.trim();
    (!out.is_empty()).then(|| out.to_string())
}

/// `path` relative to `cwd` when it lies under it.
fn relative(path: &str, cwd: Option<&str>) -> String {
    let Some(cwd) = cwd.map(|c| c.trim_end_matches('/')).filter(|c| !c.is_empty()) else {
        return path.to_string();
    };
    match path.strip_prefix(cwd).and_then(|rest| rest.strip_prefix('/')) {
        Some(rest) if !rest.is_empty() => rest.to_string(),
        _ => path.to_string(),
    }
}

/// The files an `apply_patch` body names (`*** Update File: a`, …), in order.
fn patch_files(body: &str, cwd: Option<&str>) -> Vec<String> {
    body.lines()
        .filter_map(|line| {
            ["*** Update File: ", "*** Add File: ", "*** Delete File: "]
                .iter()
                .find_map(|prefix| line.strip_prefix(prefix))
        })
        .map(|path| relative(path.trim(), cwd))
        .collect()
}

/// A command given as an argv array (a `bash -lc SCRIPT` shows the script)
/// or as a string.
fn argv(command: &Value) -> Option<String> {
    match command {
        Value::String(s) => Some(s.clone()),
        Value::Array(parts) => {
            let parts: Vec<&str> = parts.iter().filter_map(Value::as_str).collect();
            match parts.as_slice() {
                [shell, flag, script] if shell.ends_with("sh") && flag.starts_with('-') => {
                    Some((*script).to_string())
                }
                _ => Some(
                    parts
                        .iter()
                        .map(|p| {
                            if p.is_empty() || p.contains(char::is_whitespace) {
                                format!("'{p}'")
                            } else {
                                (*p).to_string()
                            }
                        })
                        .collect::<Vec<_>>()
                        .join(" "),
                ),
            }
        }
        _ => None,
    }
}

fn line(kind: DiffLineKind, text: impl Into<String>) -> DiffLine {
    DiffLine {
        kind,
        text: text.into(),
    }
}

/// A unified diff of one change to `path`.
fn diff(path: &str, old: &str, new: &str) -> CallView {
    capped(diff_lines(path, old, new))
}

/// The lines of a unified diff of one change to `path`. The old text of an
/// edit is a fragment of the file, so the hunks carry no line numbers of
/// their own.
fn diff_lines(path: &str, old: &str, new: &str) -> Vec<DiffLine> {
    let old_name = if old.is_empty() { "/dev/null" } else { path };
    let mut lines = vec![
        line(DiffLineKind::File, format!("--- {old_name}")),
        line(DiffLineKind::File, format!("+++ {path}")),
    ];
    let text_diff = TextDiff::from_lines(old, new);
    for hunk in text_diff.unified_diff().context_radius(3).iter_hunks() {
        lines.push(line(DiffLineKind::Hunk, "@@"));
        for change in hunk.iter_changes() {
            let text = change.value().trim_end_matches('\n');
            lines.push(match change.tag() {
                similar::ChangeTag::Delete => line(DiffLineKind::Removed, format!("-{text}")),
                similar::ChangeTag::Insert => line(DiffLineKind::Added, format!("+{text}")),
                similar::ChangeTag::Equal => line(DiffLineKind::Context, format!(" {text}")),
            });
        }
    }
    lines
}

/// Claude Code's `structuredPatch` hunks (`{oldStart, oldLines, newStart,
/// newLines, lines[]}`, each line prefixed ` `, `-` or `+`) as a diff of
/// `path` with the hunks' line numbers.
pub fn hunks(path: &str, hunks: &[Value]) -> Option<CallView> {
    let mut lines = vec![
        line(DiffLineKind::File, format!("--- {path}")),
        line(DiffLineKind::File, format!("+++ {path}")),
    ];
    for hunk in hunks {
        let number = |key: &str| hunk.get(key).and_then(Value::as_u64).unwrap_or(0);
        lines.push(line(
            DiffLineKind::Hunk,
            format!(
                "@@ -{},{} +{},{} @@",
                number("oldStart"),
                number("oldLines"),
                number("newStart"),
                number("newLines")
            ),
        ));
        for text in hunk.get("lines")?.as_array()? {
            lines.push(diff_line(text.as_str()?));
        }
    }
    Some(capped(lines))
}

/// The changes a Codex `patch_apply_end` records (`changes{path: {type,
/// unified_diff?, move_path?, content?}}`, or the older `{path: {"update":
/// {…}}}` form) as one diff per file, in path order: an update as its
/// unified diff under the file's names (a move's new name on `+++`), an
/// added file as new from `/dev/null`, a deleted one as removed to it.
pub fn patch_changes(changes: &Value) -> Option<CallView> {
    let mut lines = Vec::new();
    let mut paths: Vec<(&String, &Value)> = changes.as_object()?.iter().collect();
    paths.sort_by_key(|(path, _)| *path);
    for (path, change) in paths {
        let (kind, body) = match change.get("type").and_then(Value::as_str) {
            Some(kind) => (kind, change),
            None => {
                let (kind, body) = change.as_object()?.iter().next()?;
                (kind.as_str(), body)
            }
        };
        let text = |key: &str| body.get(key).and_then(Value::as_str);
        match kind {
            "add" => lines.extend(diff_lines(path, "", text("content").unwrap_or(""))),
            "delete" => {
                lines.push(line(DiffLineKind::File, format!("--- {path}")));
                lines.push(line(DiffLineKind::File, "+++ /dev/null"));
                lines.extend(
                    text("content")
                        .unwrap_or("")
                        .lines()
                        .map(|l| line(DiffLineKind::Removed, format!("-{l}"))),
                );
            }
            _ => {
                let unified = text("unified_diff")?;
                lines.push(line(DiffLineKind::File, format!("--- {path}")));
                let new_path = text("move_path").unwrap_or(path);
                lines.push(line(DiffLineKind::File, format!("+++ {new_path}")));
                lines.extend(
                    unified
                        .lines()
                        .filter(|l| !l.starts_with("--- ") && !l.starts_with("+++ "))
                        .map(diff_line),
                );
            }
        }
    }
    (!lines.is_empty()).then(|| capped(lines))
}

/// One line of a unified diff, by its first character.
fn diff_line(text: &str) -> DiffLine {
    let kind = if text.starts_with("@@") {
        DiffLineKind::Hunk
    } else if text.starts_with('+') {
        DiffLineKind::Added
    } else if text.starts_with('-') {
        DiffLineKind::Removed
    } else {
        DiffLineKind::Context
    };
    line(kind, text)
}

/// An `apply_patch` body (`*** Begin Patch` … `*** End Patch`).
fn patch(body: &str) -> CallView {
    let lines = body
        .lines()
        .map(|text| {
            if text.starts_with("*** ") {
                line(DiffLineKind::File, text)
            } else {
                diff_line(text)
            }
        })
        .collect();
    capped(lines)
}

/// At most [`DIFF_KEPT_LINES`] lines, and how many more there are.
fn capped(mut lines: Vec<DiffLine>) -> CallView {
    let more = lines.len().saturating_sub(DIFF_KEPT_LINES);
    lines.truncate(DIFF_KEPT_LINES);
    CallView::Diff { lines, more }
}

/// A todo list or plan.
fn checklist(items: &Value, text_key: &str, explanation: Option<String>) -> Option<CallView> {
    let items = items
        .as_array()?
        .iter()
        .map(|item| ChecklistItem {
            status: match item.get("status").and_then(Value::as_str) {
                Some("completed") => ItemStatus::Done,
                Some("in_progress") => ItemStatus::Active,
                _ => ItemStatus::Pending,
            },
            text: item
                .get(text_key)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
        })
        .collect();
    Some(CallView::Checklist { explanation, items })
}

/// `AskUserQuestion`'s questions with their options.
fn questions(list: &Value) -> Option<CallView> {
    let mut questions = Vec::new();
    for question in list.as_array()? {
        let text = question.get("question").and_then(Value::as_str)?;
        let options = question
            .get("options")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|option| {
                let label = option.get("label").and_then(Value::as_str).unwrap_or("");
                let about = option.get("description").and_then(Value::as_str);
                (label.to_string(), about.map(str::to_string))
            })
            .collect();
        questions.push(Question {
            text: text.to_string(),
            options,
        });
    }
    Some(CallView::Questions { questions })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// The diff's lines as text.
    fn text(view: &CallView) -> String {
        let CallView::Diff { lines, more } = view else {
            panic!("not a diff: {view:?}");
        };
        let mut out: Vec<String> = lines.iter().map(|l| l.text.clone()).collect();
        if *more > 0 {
            out.push(format!("({more} more)"));
        }
        out.join("\n")
    }

    #[test]
    fn an_edit_reads_as_a_diff_of_its_file() {
        let args = json!({"file_path": "src/a.rs", "old_string": "let a = 1;\nkeep\n", "new_string": "let a = 2;\nkeep\n"});
        let view = view("Edit", &args).expect("an Edit has a view");
        assert_eq!(
            text(&view),
            "--- src/a.rs\n+++ src/a.rs\n@@\n-let a = 1;\n+let a = 2;\n keep"
        );
        let CallView::Diff { lines, .. } = &view else {
            unreachable!()
        };
        assert_eq!(lines[3].kind, DiffLineKind::Removed);
        assert_eq!(lines[4].kind, DiffLineKind::Added);
    }

    #[test]
    fn shell_plans_and_questions_are_facts_not_styles() {
        let bash = json!({"command": "ls -la", "description": "List"});
        assert_eq!(
            view("Bash", &bash),
            Some(CallView::Command {
                description: Some("List".into()),
                command: "ls -la".into()
            })
        );
        let shell = json!({"command": ["bash", "-lc", "cat a\u{1b}]0;x"]});
        assert_eq!(
            view("shell", &shell),
            Some(CallView::Command {
                description: None,
                command: "cat a\u{1b}]0;x".into()
            })
        );
        let plan = json!({"plan": [{"step": "Read", "status": "completed"}, {"step": "Fix", "status": "in_progress"}, {"step": "Test", "status": "pending"}]});
        let Some(CallView::Checklist { items, .. }) = view("update_plan", &plan) else {
            panic!("a plan is a checklist");
        };
        let statuses: Vec<ItemStatus> = items.iter().map(|i| i.status).collect();
        assert_eq!(
            statuses,
            [ItemStatus::Done, ItemStatus::Active, ItemStatus::Pending]
        );
        let ask = json!({"questions": [{"question": "Which?", "options": [{"label": "A", "description": "first"}]}]});
        assert_eq!(
            view("AskUserQuestion", &ask),
            Some(CallView::Questions {
                questions: vec![Question {
                    text: "Which?".into(),
                    options: vec![("A".into(), Some("first".into()))]
                }]
            })
        );
        assert_eq!(view("Unknown", &json!({})), None);
    }

    #[test]
    fn subjects_say_what_a_call_did() {
        let subject = |name: &str, args: Value| super::subject(name, &args, Some("/w/app"));
        assert_eq!(
            subject("Bash", json!({"command": "npm test", "description": "Run the tests"})),
            Some("Run the tests".into())
        );
        assert_eq!(subject("Bash", json!({"command": "npm test"})), Some("npm test".into()));
        assert_eq!(
            subject("shell", json!({"command": ["bash", "-lc", "rg foo src"]})),
            Some("rg foo src".into())
        );
        assert_eq!(
            subject("exec_command", json!({"cmd": "ls"})),
            Some("ls".into())
        );
        assert_eq!(
            subject("Read", json!({"file_path": "/w/app/src/main.rs"})),
            Some("src/main.rs".into())
        );
        assert_eq!(
            subject("Edit", json!({"file_path": "/elsewhere/a.rs"})),
            Some("/elsewhere/a.rs".into())
        );
        assert_eq!(
            subject("Grep", json!({"pattern": "TODO", "path": "/w/app/src"})),
            Some("TODO in src".into())
        );
        assert_eq!(
            subject("WebFetch", json!({"url": "https://example.com/a"})),
            Some("https://example.com/a".into())
        );
        assert_eq!(
            subject("Task", json!({"description": "Find the bug", "prompt": "…"})),
            Some("Find the bug".into())
        );
        let patch = "*** Begin Patch\n*** Update File: /w/app/a.rs\n@@\n-x\n+y\n*** Add File: b.rs\n+z\n*** End Patch";
        assert_eq!(
            subject("apply_patch", json!({"input": patch})),
            Some("a.rs, b.rs".into())
        );
        assert_eq!(subject("TodoWrite", json!({"todos": []})), None);
        assert_eq!(subject("Bash", json!({"command": "  "})), None);
    }

    #[test]
    fn structured_patches_keep_their_line_numbers() {
        let hunk = json!({"oldStart": 12, "oldLines": 2, "newStart": 12, "newLines": 3,
            "lines": [" keep", "-old", "+new", "+more"]});
        assert_eq!(
            text(&hunks("a.css", &[hunk]).unwrap()),
            "--- a.css\n+++ a.css\n@@ -12,2 +12,3 @@\n keep\n-old\n+new\n+more"
        );
    }

    #[test]
    fn long_writes_are_capped_with_a_count() {
        let content: String = (0..5_100).map(|n| format!("line {n}\n")).collect();
        let args = json!({"file_path": "big.txt", "content": content});
        let shown = text(&view("Write", &args).unwrap());
        assert!(shown.starts_with("--- /dev/null\n+++ big.txt\n@@\n+line 0\n"));
        assert!(shown.ends_with("\n+line 4996\n(103 more)"), "{shown}");
    }

    #[test]
    fn patch_changes_read_in_both_forms_with_moves_and_deletions() {
        let changes = json!({
            "b.txt": {"update": {"unified_diff": "--- b.txt\n+++ c.txt\n@@ -1 +1 @@\n-x\n+y\n", "move_path": "c.txt"}},
            "a.txt": {"type": "delete", "content": "gone\n"},
        });
        assert_eq!(
            text(&patch_changes(&changes).unwrap()),
            "--- a.txt\n+++ /dev/null\n-gone\n--- b.txt\n+++ c.txt\n@@ -1 +1 @@\n-x\n+y"
        );
        assert_eq!(patch_changes(&json!({})), None);
    }
}
