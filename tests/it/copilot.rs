//! GitHub Copilot CLI event logs through the binary, on the synthetic
//! fixtures of `tests/fixtures/copilot/` (spec agent-transcripts-2 §3): the
//! turns, calls, errors and replies `overhear events` reads equal a count
//! made here by the counting rules of §9 (parent and sub-agent apart); the
//! system prompt, the transformed prompt, deltas and hidden info never reach
//! any output; renders at 40, 80 and 200 columns are pinned and fit; time
//! travel cuts the log; discovery finds a session of the current folder
//! under a fake HOME (and `COPILOT_HOME`); a log being appended grows in the
//! viewer.

use crate::common;

use std::collections::{BTreeMap, HashSet};
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use common::agents::{Counts, counts_of_events, stated_ago};
use common::pty::Viewer;
use common::snapshot::snapshot;
use common::support::overhear;
use overhear::text::width::display_width;
use serde_json::Value;

/// The story: prompts with an attachment, a failed and a good edit, an
/// abort, a sub-agent, compaction, a rewind, the shutdown's usage.
const STORY: &str = "5d1f0c3e-7a42-4e8b-9c61-2f0a8b7d4e10";
/// The rest: split messages, deltas, a user-run call, a bad line, an
/// unknown event, injected messages, steering, hook failure, warning,
/// error, two lifetimes, truncation, a clear.
const COVERAGE: &str = "9b3e6a71-0c2d-4f58-8e14-6d7c5a9f2b03";

/// Text that is in the fixtures but must never be shown.
const NEVER: [&str; 6] = [
    "SYNTHETIC SYSTEM PROMPT",
    "SYNTHETIC DEVELOPER PROMPT",
    "SYNTHETIC REMINDER",
    "DELTA TEXT",
    "PARTIAL never shown",
    "SYNTHETIC INFO",
];

fn fixture(id: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/copilot/session-state")
        .join(id)
        .join("events.jsonl")
}

/// §9 over the log's JSON lines, for the events of agent `agent` (`None`:
/// the main agent): prompts are `user.message`s with no `source` and no
/// autopilot flag; calls are requests once per `toolCallId` (and starts no
/// request announced); errors are completions with `success: false`;
/// replies are non-empty `assistant.message` contents once per `messageId`.
fn counted(path: &Path, agent: Option<&str>) -> Counts {
    let bytes = std::fs::read(path).expect("the fixture");
    let mut counts = Counts::default();
    let mut ids = HashSet::new();
    let mut messages = HashSet::new();
    for line in bytes.split(|&b| b == b'\n') {
        let Ok(event) = serde_json::from_slice::<Value>(line) else {
            continue;
        };
        if event["agentId"].as_str() != agent || event["ephemeral"] == Value::Bool(true) {
            continue;
        }
        let data = &event["data"];
        let mut call = |id: &Value, name: &Value| {
            if ids.insert(id.as_str().unwrap_or("").to_string()) {
                *counts
                    .calls
                    .entry(name.as_str().unwrap_or("tool").to_string())
                    .or_default() += 1;
            }
        };
        match event["type"].as_str() {
            Some("user.message") => {
                let injected = data["source"].as_str().is_some_and(|s| !s.is_empty())
                    || data["isAutopilotContinuation"] == Value::Bool(true);
                if !injected {
                    counts.turns += 1;
                }
            }
            Some("assistant.message") => {
                for request in data["toolRequests"].as_array().into_iter().flatten() {
                    call(&request["toolCallId"], &request["name"]);
                }
                let text = data["content"].as_str().unwrap_or("").trim();
                if !text.is_empty() && messages.insert(data["messageId"].to_string()) {
                    counts.replies += 1;
                }
            }
            Some("tool.execution_start") => call(&data["toolCallId"], &data["toolName"]),
            Some("tool.execution_complete") if data["success"] == Value::Bool(false) => {
                counts.errors += 1
            }
            _ => {}
        }
    }
    counts
}

/// What overhear reads (`events --view raw --jsonl`): the parent's counts
/// and each sub-agent's, by the call that started it.
fn read_by_overhear(path: &Path) -> (Counts, BTreeMap<String, Counts>) {
    let run = overhear(["events", "--view", "raw", "--jsonl", path.to_str().unwrap()]);
    run.expect_code(0);
    counts_of_events(&run.stdout)
}

fn render(path: &Path, width: usize) -> String {
    let run = overhear([
        "render",
        path.to_str().unwrap(),
        "--width",
        &width.to_string(),
        "--color",
        "never",
    ]);
    run.expect_code(0);
    String::from_utf8(run.stdout).expect("UTF-8")
}

#[test]
fn turns_calls_errors_and_replies_are_each_read_once() {
    for id in [STORY, COVERAGE] {
        let path = fixture(id);
        let (parent, subagents) = read_by_overhear(&path);
        assert_eq!(parent, counted(&path, None), "{id}: the parent");
        let expected: BTreeMap<String, Counts> = if id == STORY {
            BTreeMap::from([("call_task_1".into(), counted(&path, Some("agent-7c21")))])
        } else {
            BTreeMap::new()
        };
        assert_eq!(subagents, expected, "{id}: the sub-agents");
    }
    // Not a count that cannot fail: the story holds what the rules count.
    let story = counted(&fixture(STORY), None);
    assert_eq!((story.turns, story.errors, story.replies), (5, 1, 6));
    assert_eq!(story.calls.values().sum::<usize>(), 6);
}

#[test]
fn hidden_context_never_reaches_any_output() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    for id in [STORY, COVERAGE] {
        let path = fixture(id);
        let mut outputs = vec![render(&path, 200)];
        for view in ["user", "provider"] {
            let run = overhear(["events", "--view", view, path.to_str().unwrap()]);
            run.expect_code(0);
            outputs.push(String::from_utf8_lossy(&run.stdout).into_owned());
        }
        for ext in ["md", "html"] {
            let out = tmp.path().join(format!("{id}.{ext}"));
            overhear([
                "export",
                path.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
            ])
            .expect_code(0);
            outputs.push(std::fs::read_to_string(&out).expect("exported"));
        }
        for output in &outputs {
            for text in NEVER {
                assert!(!output.contains(text), "{id}: {text} shown:\n{output}");
            }
        }
        // What is shown is shown: the typed prompt, once.
        let printed = &outputs[0];
        let prompt = if id == STORY {
            "Add a --verbose flag to the CLI"
        } else {
            "List the files"
        };
        assert_eq!(printed.matches(prompt).count(), 1, "{printed}");
    }
}

#[test]
fn the_story_reads_as_copilot_showed_it() {
    let printed = render(&fixture(STORY), 80);
    for shown in [
        "[attached file: main.rs]",
        "✗ edit · failed",
        "\"path\": Required",
        "✗ bash · Run the test suite · aborted",
        "● task · Find the logging setup",
        "⚠ interrupted (user_initiated)",
        "▾ agent \"Find the logging setup\" · 1 tool call",
        "⚠ context compacted (threshold, 91k → 11k tokens)",
        "⚠ rewound to before \"Set the level from --verbose\"",
        "claude-sonnet-4.5 · 227 out tokens",
        // The usage at shutdown is a note (`·`, dim), not a warning.
        "· session usage, claude-sonnet-4.5: 9 requests",
        "· session usage, claude-haiku-4.5: 2 requests",
    ] {
        assert!(printed.contains(shown), "{shown} missing:\n{printed}");
    }
    assert!(!printed.contains("⚠ session usage"), "{printed}");
    // The sub-agent's prompt and calls are under its card, not turns of the parent.
    assert_eq!(printed.matches("── turn ").count(), 5, "{printed}");
    // The good edit's diff is shown once (its result is not the diff again).
    assert_eq!(
        printed.matches("+    verbose: bool,").count(),
        1,
        "{printed}"
    );
}

#[test]
fn renders_fit_every_width_and_are_pinned() {
    for width in [40, 80, 200] {
        for (id, name) in [(STORY, "copilot-story"), (COVERAGE, "copilot-coverage")] {
            let printed = render(&fixture(id), width);
            for line in printed.lines() {
                assert!(display_width(line) <= width, "{id} at {width}: {line:?}");
            }
            if id == STORY || width == 80 {
                snapshot(&format!("{name}-{width}"), &printed);
            }
        }
    }
}

#[test]
fn time_travel_cuts_the_log_at_a_moment() {
    let path = fixture(STORY);
    let run = overhear([
        "render",
        path.to_str().unwrap(),
        "--at",
        "2026-11-20T10:01:20Z",
        "--width",
        "80",
        "--color",
        "never",
    ]);
    run.expect_code(0);
    let printed = String::from_utf8_lossy(&run.stdout);
    assert!(printed.contains("Run the tests"), "{printed}");
    assert!(!printed.contains("Explore how logging"), "{printed}");
    assert!(!printed.contains("interrupted"), "{printed}");
}

/// A home holding Copilot CLI sessions, and a project folder.
struct Home {
    _dir: tempfile::TempDir,
    home: PathBuf,
    project: PathBuf,
}

impl Home {
    fn new() -> Home {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().canonicalize().expect("real path");
        let project = root.join("work/demo");
        std::fs::create_dir_all(&project).expect("project");
        Home {
            _dir: dir,
            home: root.join("home"),
            project,
        }
    }

    /// A session `id` under `root/session-state` run in `cwd` with `prompt`,
    /// written `age` seconds ago.
    fn session(&self, root: &Path, id: &str, cwd: &Path, prompt: &str, age: u64) -> PathBuf {
        let dir = root.join("session-state").join(id);
        std::fs::create_dir_all(&dir).expect("session folder");
        let start = serde_json::json!({"type": "session.start", "data": {"sessionId": id,
            "version": 1, "context": {"cwd": cwd.to_string_lossy()}},
            "id": "e0", "timestamp": "2026-11-20T10:00:00.000Z", "parentId": null});
        let user = serde_json::json!({"type": "user.message", "data": {"content": prompt,
            "transformedContent": format!("<current_datetime>x</current_datetime>{prompt}")},
            "id": "e1", "timestamp": "2026-11-20T10:00:01.000Z", "parentId": "e0"});
        let path = dir.join("events.jsonl");
        std::fs::write(&path, format!("{start}\n{user}\n")).expect("written");
        let when = std::time::SystemTime::now() - Duration::from_secs(age);
        std::fs::File::options()
            .write(true)
            .open(&path)
            .and_then(|file| file.set_modified(when))
            .expect("dated");
        path
    }

    /// `overhear ARGS…` in the project folder, with `env` set.
    fn overhear(&self, args: &[&str], env: &[(&str, &Path)]) -> Output {
        let mut command = crate::common::overhear();
        command
            .args(args)
            .current_dir(&self.project)
            .env("HOME", &self.home)
            .env("JP_USER_DATA_DIR", self.home.join("jp"))
            .env_remove("COPILOT_HOME")
            .env_remove("CODEX_HOME")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("XDG_CONFIG_HOME");
        for (name, value) in env {
            command.env(name, value);
        }
        command.output().expect("overhear runs")
    }
}

#[test]
fn the_newest_session_of_the_folder_is_found_under_home_and_copilot_home() {
    let home = Home::new();
    let copilot = home.home.join(".copilot");
    home.session(&copilot, "a-old", &home.project, "The older prompt", 300);
    home.session(&copilot, "b-new", &home.project, "The newest prompt", 100);
    home.session(
        &copilot,
        "c-other",
        Path::new("/elsewhere"),
        "Another folder",
        1,
    );
    for agent in [&[][..], &["--agent", "copilot"][..]] {
        let mut args = vec!["render", "--color", "never", "--width", "80"];
        args.extend_from_slice(agent);
        let out = home.overhear(&args, &[]);
        let printed = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(printed.contains("The newest prompt"), "{printed}");
        assert!(!printed.contains("Another folder") && !printed.contains("The older"));
    }

    let moved = home.home.join("elsewhere/copilot");
    home.session(&moved, "d", &home.project, "From COPILOT_HOME", 50);
    let out = home.overhear(
        &["render", "--color", "never", "--agent", "copilot"],
        &[("COPILOT_HOME", &moved)],
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("From COPILOT_HOME"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let empty = Home::new();
    let out = empty.overhear(&["render", "--agent", "copilot"], &[]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--agent copilot: no session of"),
        "{stderr}"
    );
}

#[test]
fn a_log_being_appended_grows_in_the_viewer() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let dir = tmp.path().join("session-state/5e55a0e1");
    std::fs::create_dir_all(&dir).expect("folder");
    let path = dir.join("events.jsonl");
    let head = [
        r#"{"type":"session.start","data":{"sessionId":"5e55a0e1","version":1,"context":{"cwd":"/srv"},"selectedModel":"gpt-5"},"id":"e0","timestamp":"2026-11-20T10:00:00.000Z","parentId":null}"#,
        r#"{"type":"user.message","data":{"content":"Count the log lines","transformedContent":"<current_datetime>x</current_datetime> Count the log lines <system_reminder>NEVER SHOWN</system_reminder>"},"id":"e1","timestamp":"2026-11-20T10:00:01.000Z","parentId":"e0"}"#,
    ];
    let head = head.map(|line| stated_ago(line, Duration::ZERO));
    std::fs::write(&path, head.join("\n") + "\n").expect("written");
    let mut viewer = Viewer::spawn(&[&path], tmp.path(), tmp.path(), 40, 100);
    viewer.wait_until("following", Duration::from_secs(20), |s| {
        s.contents().contains("● following")
    });
    viewer.wait_for_text("Count the log lines");
    let lines = [
        (
            r#"{"type":"assistant.message","data":{"messageId":"m1","content":"Counting.","toolRequests":[{"toolCallId":"c1","name":"bash","arguments":{"command":"wc -l app.log"}}],"outputTokens":40},"id":"e2","timestamp":"2026-11-20T10:00:02.000Z","parentId":"e1"}"#,
            "wc -l app.log",
        ),
        (
            r#"{"type":"tool.execution_complete","data":{"toolCallId":"c1","success":true,"result":{"content":"1234 app.log"}},"id":"e3","timestamp":"2026-11-20T10:00:03.000Z","parentId":"e2"}"#,
            "1234 app.log",
        ),
        (
            r#"{"type":"assistant.message","data":{"messageId":"m2","content":"The log has 1234 lines.","toolRequests":[],"outputTokens":12},"id":"e4","timestamp":"2026-11-20T10:00:04.000Z","parentId":"e3"}"#,
            "The log has 1234 lines.",
        ),
    ];
    let mut file = OpenOptions::new()
        .append(true)
        .open(&path)
        .expect("appendable");
    for (line, shows) in lines {
        let line = stated_ago(line, Duration::ZERO);
        let bytes = format!("{line}\n").into_bytes();
        let (first, rest) = bytes.split_at(bytes.len() / 2);
        file.write_all(first).expect("written");
        file.flush().expect("flushed");
        std::thread::sleep(Duration::from_millis(300));
        assert!(
            !viewer.screen().contents().contains(shows),
            "half a line shown"
        );
        file.write_all(rest).expect("written");
        file.flush().expect("flushed");
        viewer.wait_for_text(shows);
    }
    viewer.wait_for_text("52 out tokens");
    let screen = viewer.screen().contents();
    assert!(!screen.contains("NEVER SHOWN"), "{screen}");
    assert_eq!(screen.matches("Counting.").count(), 1, "{screen}");
    viewer.quit();
}
