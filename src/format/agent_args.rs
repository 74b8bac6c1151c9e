//! How the calls of well-known agent tools read, stored as a tool call's
//! `rendered_arguments` — the field JP keeps for the output of a custom
//! argument formatter, which the renderer shows (colours as styles, every
//! other control sanitized) when the tool's style names one
//! (`parameters = "overhear"`, see [`super::agent_tools`]):
//!
//! * shell commands as `$ command` (with the call's description above, dim);
//! * edits (`Edit`, `MultiEdit`, `Write`, `apply_patch`) as coloured unified
//!   diffs with the file name (the `similar` crate);
//! * plans and todo lists (`TodoWrite`, `update_plan`) as checklists;
//! * questions (`AskUserQuestion`) as questions with their options.
//!
//! A user who prefers the JSON sets `parameters = "json"` for the tool.

use serde_json::Value;
use similar::TextDiff;

const RED: &str = "\u{1b}[31m";
const GREEN: &str = "\u{1b}[32m";
const CYAN: &str = "\u{1b}[36m";
const BOLD: &str = "\u{1b}[1m";
const DIM: &str = "\u{1b}[2m";
const RESET: &str = "\u{1b}[0m";

/// The most lines of a diff or a written file shown in the arguments.
const MAX_LINES: usize = 60;

/// The call of tool `name` with `arguments` as it should read, when the tool
/// is one this module knows.
pub fn rendered(name: &str, arguments: &Value) -> Option<String> {
    let text = |key: &str| arguments.get(key).and_then(Value::as_str);
    let out = match name {
        "Bash" => {
            let command = text("command")?;
            match text("description") {
                Some(about) => format!("{DIM}# {}{RESET}\n$ {}", clean(about), clean(command)),
                None => format!("$ {}", clean(command)),
            }
        }
        "shell" | "local_shell" | "container.exec" => {
            let command = arguments.get("command")?;
            format!("$ {}", clean(&argv(command)?))
        }
        "shell_command" => format!("$ {}", clean(text("command")?)),
        "exec_command" => format!("$ {}", clean(&argv(arguments.get("cmd")?)?)),
        "Edit" => diff(text("file_path")?, text("old_string")?, text("new_string")?),
        "MultiEdit" => {
            let path = text("file_path")?;
            let edits = arguments.get("edits")?.as_array()?;
            let parts: Vec<String> = edits
                .iter()
                .filter_map(|e| {
                    let get = |k: &str| e.get(k).and_then(Value::as_str);
                    Some(diff(path, get("old_string")?, get("new_string")?))
                })
                .collect();
            parts.join("\n")
        }
        "Write" => diff(text("file_path")?, "", text("content")?),
        "apply_patch" => patch(text("input").or_else(|| text("patch"))?),
        "TodoWrite" => checklist(arguments.get("todos")?, "content")?,
        "update_plan" => {
            let list = checklist(arguments.get("plan")?, "step")?;
            match text("explanation") {
                Some(why) => format!("{}\n{list}", clean(why)),
                None => list,
            }
        }
        "AskUserQuestion" => questions(arguments.get("questions")?)?,
        "run_shell_command" => return rendered("Bash", arguments),
        "replace" | "edit" => diff(text("file_path")?, text("old_string")?, text("new_string")?),
        "write_file" => diff(text("file_path")?, "", text("content")?),
        "write_todos" => checklist(arguments.get("todos")?, "description")?,
        _ => return None,
    };
    Some(out)
}

/// Untrusted text with its escape characters made visible, so that only
/// this module's colours reach the renderer as colours.
fn clean(text: &str) -> String {
    text.replace('\u{1b}', "␛")
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

/// A coloured unified diff of one change to `path`. The old text of an edit
/// is a fragment of the file, so the hunks carry no line numbers of their own.
fn diff(path: &str, old: &str, new: &str) -> String {
    let (old_name, new_name) = if old.is_empty() {
        ("/dev/null".to_string(), path.to_string())
    } else {
        (path.to_string(), path.to_string())
    };
    let text_diff = TextDiff::from_lines(old, new);
    let mut lines = vec![
        format!("{BOLD}--- {}{RESET}", clean(&old_name)),
        format!("{BOLD}+++ {}{RESET}", clean(&new_name)),
    ];
    for hunk in text_diff.unified_diff().context_radius(3).iter_hunks() {
        lines.push(format!("{CYAN}@@{RESET}"));
        for change in hunk.iter_changes() {
            let text = clean(change.value().trim_end_matches('\n'));
            lines.push(match change.tag() {
                similar::ChangeTag::Delete => format!("{RED}-{text}{RESET}"),
                similar::ChangeTag::Insert => format!("{GREEN}+{text}{RESET}"),
                similar::ChangeTag::Equal => format!(" {text}"),
            });
        }
    }
    capped(lines)
}

/// Claude Code's `structuredPatch` hunks (`{oldStart, oldLines, newStart,
/// newLines, lines[]}`, each line prefixed ` `, `-` or `+`) as a coloured
/// diff of `path` with the hunks' line numbers.
pub fn hunks(path: &str, hunks: &[Value]) -> Option<String> {
    let mut lines = vec![
        format!("{BOLD}--- {}{RESET}", clean(path)),
        format!("{BOLD}+++ {}{RESET}", clean(path)),
    ];
    for hunk in hunks {
        let number = |key: &str| hunk.get(key).and_then(Value::as_u64).unwrap_or(0);
        lines.push(format!(
            "{CYAN}@@ -{},{} +{},{} @@{RESET}",
            number("oldStart"),
            number("oldLines"),
            number("newStart"),
            number("newLines")
        ));
        for line in hunk.get("lines")?.as_array()? {
            let line = clean(line.as_str()?);
            lines.push(match line.chars().next() {
                Some('-') => format!("{RED}{line}{RESET}"),
                Some('+') => format!("{GREEN}{line}{RESET}"),
                _ => line,
            });
        }
    }
    Some(capped(lines))
}

/// The changes a Codex `patch_apply_end` records (`changes{path: {type,
/// unified_diff?, move_path?, content?}}`, or the older `{path: {"update":
/// {…}}}` form) as one coloured diff per file, in path order: an update as
/// its unified diff under the file's names (a move's new name on `+++`), an
/// added file as new from `/dev/null`, a deleted one as removed to it.
pub fn patch_changes(changes: &Value) -> Option<String> {
    let mut parts = Vec::new();
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
        parts.push(match kind {
            "add" => diff(path, "", text("content").unwrap_or("")),
            "delete" => removed(path, text("content").unwrap_or("")),
            _ => updated(
                path,
                text("move_path").unwrap_or(path),
                text("unified_diff")?,
            ),
        });
    }
    (!parts.is_empty()).then(|| parts.join("\n"))
}

/// A file's stored unified diff under its names, coloured; its own `---`/`+++`
/// lines, if it has them, give way to these.
fn updated(path: &str, new_path: &str, unified: &str) -> String {
    let mut lines = vec![
        format!("{BOLD}--- {}{RESET}", clean(path)),
        format!("{BOLD}+++ {}{RESET}", clean(new_path)),
    ];
    for line in unified.lines() {
        if line.starts_with("--- ") || line.starts_with("+++ ") {
            continue;
        }
        lines.push(diff_line(line));
    }
    capped(lines)
}

/// One line of a unified diff, cleaned and coloured by its first character:
/// hunk headers cyan, additions green, removals red.
fn diff_line(line: &str) -> String {
    let text = clean(line);
    if line.starts_with("@@") {
        format!("{CYAN}{text}{RESET}")
    } else if line.starts_with('+') {
        format!("{GREEN}{text}{RESET}")
    } else if line.starts_with('-') {
        format!("{RED}{text}{RESET}")
    } else {
        text
    }
}

/// A deleted file: every line removed, to `/dev/null`.
fn removed(path: &str, content: &str) -> String {
    let mut lines = vec![
        format!("{BOLD}--- {}{RESET}", clean(path)),
        format!("{BOLD}+++ /dev/null{RESET}"),
    ];
    lines.extend(
        content
            .lines()
            .map(|line| format!("{RED}-{}{RESET}", clean(line))),
    );
    capped(lines)
}

/// An `apply_patch` body (`*** Begin Patch` … `*** End Patch`), coloured.
fn patch(body: &str) -> String {
    let lines = body
        .lines()
        .map(|line| {
            if line.starts_with("*** ") {
                format!("{BOLD}{}{RESET}", clean(line))
            } else {
                diff_line(line)
            }
        })
        .collect();
    capped(lines)
}

/// At most [`MAX_LINES`] lines, and a note of how many more there are.
fn capped(mut lines: Vec<String>) -> String {
    if lines.len() > MAX_LINES {
        let more = lines.len() - MAX_LINES;
        lines.truncate(MAX_LINES);
        lines.push(format!("{DIM}… {more} more lines{RESET}"));
    }
    lines.join("\n")
}

/// A todo list or plan: `✔ done`, `▶ in progress`, `☐ pending`.
fn checklist(items: &Value, text_key: &str) -> Option<String> {
    let items = items.as_array()?;
    let lines: Vec<String> = items
        .iter()
        .map(|item| {
            let text = clean(item.get(text_key).and_then(Value::as_str).unwrap_or(""));
            match item.get("status").and_then(Value::as_str) {
                Some("completed") => format!("{DIM}✔ {text}{RESET}"),
                Some("in_progress") => format!("{BOLD}▶ {text}{RESET}"),
                _ => format!("☐ {text}"),
            }
        })
        .collect();
    Some(lines.join("\n"))
}

/// `AskUserQuestion`'s questions with their options.
fn questions(list: &Value) -> Option<String> {
    let mut lines = Vec::new();
    for question in list.as_array()? {
        let text = question.get("question").and_then(Value::as_str)?;
        lines.push(format!("{BOLD}? {}{RESET}", clean(text)));
        for option in question
            .get("options")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let label = option.get("label").and_then(Value::as_str).unwrap_or("");
            match option.get("description").and_then(Value::as_str) {
                Some(about) => lines.push(format!(
                    "  • {} {DIM}— {}{RESET}",
                    clean(label),
                    clean(about)
                )),
                None => lines.push(format!("  • {}", clean(label))),
            }
        }
    }
    Some(lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn plain(text: &str) -> String {
        let mut out = String::new();
        let mut in_escape = false;
        for c in text.chars() {
            match (in_escape, c) {
                (false, '\u{1b}') => in_escape = true,
                (true, 'm') => in_escape = false,
                (true, _) => {}
                (false, c) => out.push(c),
            }
        }
        out
    }

    #[test]
    fn an_edit_reads_as_a_diff_of_its_file() {
        let args = json!({"file_path": "src/a.rs", "old_string": "let a = 1;\nkeep\n", "new_string": "let a = 2;\nkeep\n"});
        let text = plain(&rendered("Edit", &args).expect("an Edit renders"));
        assert_eq!(
            text,
            "--- src/a.rs\n+++ src/a.rs\n@@\n-let a = 1;\n+let a = 2;\n keep"
        );
        assert!(rendered("Edit", &args).unwrap().contains(RED));
    }

    #[test]
    fn shell_plans_and_questions_read_as_a_user_expects() {
        let bash = json!({"command": "ls -la", "description": "List"});
        assert_eq!(plain(&rendered("Bash", &bash).unwrap()), "# List\n$ ls -la");
        let shell = json!({"command": ["bash", "-lc", "cat a\u{1b}]0;x"]});
        assert_eq!(plain(&rendered("shell", &shell).unwrap()), "$ cat a␛]0;x");
        let plan = json!({"plan": [{"step": "Read", "status": "completed"}, {"step": "Fix", "status": "in_progress"}, {"step": "Test", "status": "pending"}]});
        assert_eq!(
            plain(&rendered("update_plan", &plan).unwrap()),
            "✔ Read\n▶ Fix\n☐ Test"
        );
        let ask = json!({"questions": [{"question": "Which?", "options": [{"label": "A", "description": "first"}]}]});
        assert_eq!(
            plain(&rendered("AskUserQuestion", &ask).unwrap()),
            "? Which?\n  • A — first"
        );
        assert_eq!(rendered("Unknown", &json!({})), None);
    }

    #[test]
    fn structured_patches_keep_their_line_numbers() {
        let hunk = json!({"oldStart": 12, "oldLines": 2, "newStart": 12, "newLines": 3,
            "lines": [" keep", "-old", "+new", "+more"]});
        let text = plain(&hunks("a.css", &[hunk]).unwrap());
        assert_eq!(
            text,
            "--- a.css\n+++ a.css\n@@ -12,2 +12,3 @@\n keep\n-old\n+new\n+more"
        );
    }

    #[test]
    fn long_writes_are_capped_with_a_note() {
        let content: String = (0..100).map(|n| format!("line {n}\n")).collect();
        let args = json!({"file_path": "big.txt", "content": content});
        let text = plain(&rendered("Write", &args).unwrap());
        assert!(text.starts_with("--- /dev/null\n+++ big.txt\n@@\n+line 0\n"));
        assert!(text.ends_with("… 43 more lines"), "{text}");
    }

    #[test]
    fn patch_changes_read_in_both_forms_with_moves_and_deletions() {
        let changes = json!({
            "b.txt": {"update": {"unified_diff": "--- b.txt\n+++ c.txt\n@@ -1 +1 @@\n-x\n+y\n", "move_path": "c.txt"}},
            "a.txt": {"type": "delete", "content": "gone\n"},
        });
        assert_eq!(
            plain(&patch_changes(&changes).unwrap()),
            "--- a.txt\n+++ /dev/null\n-gone\n--- b.txt\n+++ c.txt\n@@ -1 +1 @@\n-x\n+y"
        );
        assert_eq!(patch_changes(&json!({})), None);
    }
}
