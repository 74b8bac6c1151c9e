//! What an export holds, through the binary: every line of a tool result
//! and of a diff (no terminal line budget), a note that says exactly what
//! a result past the export's cap left out, `--results terminal` for the
//! terminal's cut form, and a title and paths that tell no local folder.

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::common::agents::claude::{assistant, user};
use crate::common::export_session::{ExportSession, run};

/// A Claude Code session: a prompt, a Bash call whose result is `lines`
/// numbered lines, an Edit that writes `diff_lines` lines, and the reply.
fn session(dir: &Path, lines: usize, diff_lines: usize) -> PathBuf {
    let new: Vec<String> = (1..=diff_lines)
        .map(|n| format!("let edited_{n:04} = {n};"))
        .collect();
    ExportSession {
        prompt: "Build it and fix the constants.",
        log: (1..=lines)
            .map(|n| format!("build log line {n:05}"))
            .collect(),
        failed: false,
        second: (
            "Edit",
            json!({"file_path": "src/consts.rs", "old_string": "let old = 0;\n",
                   "new_string": new.join("\n") + "\n"}),
        ),
        second_result: "edited",
        reply: "All built, constants fixed.",
    }
    .write(dir)
}

/// The export of `path` in `format` (`md`, `html`) with `extra` options,
/// its HTML tags left out.
fn export(path: &Path, format: &str, extra: &[&str]) -> String {
    let mut args = vec!["export", path.to_str().unwrap(), "--format", format];
    args.extend_from_slice(extra);
    let out = run(&args);
    let mut text = String::with_capacity(out.len());
    let mut in_tag = false;
    for c in out.chars() {
        match c {
            '<' if format == "html" => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if !in_tag => text.push(c),
            _ => {}
        }
    }
    text
}

/// How many of the result's lines 1..=n the text holds.
fn log_lines_in(text: &str, n: usize) -> usize {
    (1..=n)
        .filter(|i| text.contains(&format!("build log line {i:05}")))
        .count()
}

#[test]
fn a_two_thousand_line_result_and_a_long_diff_are_whole_in_both_exports() {
    let dir = tempfile::tempdir().unwrap();
    let path = session(dir.path(), 2_000, 300);
    for format in ["md", "html"] {
        let text = export(&path, format, &[]);
        assert_eq!(
            log_lines_in(&text, 2_000),
            2_000,
            "{format}: every result line"
        );
        assert!(!text.contains("not shown"), "{format}: nothing cut");
        for n in [1, 60, 61, 300] {
            let line = format!("+let edited_{n:04} = {n};");
            assert!(text.contains(&line), "{format}: diff line {n}");
        }
        assert!(!text.contains("more line"), "{format}: the diff is whole");
        assert!(
            text.contains("All built, constants fixed."),
            "{format}: the reply"
        );
    }
}

#[test]
fn results_terminal_keeps_the_terminal_cut_form() {
    let dir = tempfile::tempdir().unwrap();
    let path = session(dir.path(), 2_000, 300);
    for format in ["md", "html"] {
        let text = export(&path, format, &["--results", "terminal"]);
        let kept = log_lines_in(&text, 2_000);
        assert!(kept > 0 && kept < 100, "{format}: {kept} result lines, cut");
        let cut = 2_000 - kept;
        assert!(
            text.contains(&format!("… {cut} more lines not shown")),
            "{format}: the cut is said"
        );
        assert!(
            text.contains("+let edited_0050 = 50;"),
            "{format}: a diff's start"
        );
        assert!(
            !text.contains("+let edited_0300 = 300;"),
            "{format}: a diff's end"
        );
    }
}

#[test]
fn past_the_cap_the_export_says_exactly_what_it_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let path = session(dir.path(), 6_000, 1);
    let text = export(&path, "md", &[]);
    assert_eq!(log_lines_in(&text, 6_000), 5_000, "the first 5,000 lines");
    assert!(text.contains("build log line 05000"));
    assert!(!text.contains("build log line 05001"));
    // 1,000 lines of "build log line NNNNN\n" (21 bytes each): 20.5 KiB.
    assert!(
        text.contains(
            "… 1000 more lines (20.5 KiB) left out: an export keeps 5000 lines or 1 MiB of a result"
        ),
        "the note:\n{}",
        text.lines()
            .filter(|l| l.contains("left out"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_title_is_the_first_prompt_and_the_home_folder_is_a_tilde() {
    let home = tempfile::tempdir().unwrap();
    let home_path = home.path().to_str().unwrap().to_string();
    let project = home.path().join("project");
    std::fs::create_dir(&project).unwrap();
    let command = format!("cat {home_path}/project/notes.txt");
    let records = [
        user(
            "u1",
            0,
            false,
            json!("\n  Summarise the notes, please.\nThey are long."),
        ),
        assistant(
            "a1",
            1,
            false,
            json!([{"type": "tool_use", "id": "toolu_cat", "name": "Bash",
                    "input": {"command": command}}]),
        ),
        user(
            "u2",
            2,
            false,
            json!([{"type": "tool_result", "tool_use_id": "toolu_cat",
                    "content": format!("{home_path}/project/notes.txt: 3 notes")}]),
        ),
        assistant(
            "a2",
            3,
            false,
            json!([{"type": "text", "text": "Three notes."}]),
        ),
    ];
    let path = project.join("session.jsonl");
    std::fs::write(&path, records.concat()).unwrap();
    for format in ["md", "html"] {
        let out = crate::common::overhear()
            .args(["export", path.to_str().unwrap(), "--format", format])
            .env("HOME", home.path())
            .output()
            .expect("the binary runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let page = String::from_utf8(out.stdout).unwrap();
        assert!(
            !page.contains(&home_path),
            "{format}: a local path in\n{page}"
        );
        assert!(
            page.contains("cat ~/project/notes.txt"),
            "{format}: the command"
        );
        assert!(
            page.contains("~/project/notes.txt: 3 notes"),
            "{format}: the result"
        );
        let heading = match format {
            "md" => "# Summarise the notes, please.\n".to_string(),
            _ => "<h1>Summarise the notes, please.</h1>".to_string(),
        };
        assert!(page.contains(&heading), "{format}: the heading in\n{page}");
        if format == "html" {
            assert!(page.contains("<title>Summarise the notes, please.</title>"));
        }
    }
}
