//! Sub-agents nested under the call that started them (docs/agents.md,
//! "Sub-agents"): a Codex `spawn_agent` call and its child's rollout,
//! written here (no public rollout with one is in the fixtures), rendered at
//! 80 columns as a snapshot and at 40 and 200 within the width; `events`
//! marks the child's events with the call's id. The Claude Code generations
//! are pinned by `agent_snapshots` and counted by `agent_counts`.

use crate::common;

use std::path::Path;

use overhear::text::width::display_width;
use serde_json::{Value, json};

pub(crate) const PARENT: &str =
    "rollout-2026-01-22T10-15-23-0199aaaa-0000-7000-8000-000000000001.jsonl";
pub(crate) const CHILD: &str =
    "rollout-2026-01-22T10-15-40-0199bbbb-0000-7000-8000-000000000002.jsonl";
const CHILD_ID: &str = "0199bbbb-0000-7000-8000-000000000002";

fn line(time: &str, kind: &str, payload: Value) -> String {
    json!({"timestamp": format!("2026-01-22T10:{time}Z"), "type": kind, "payload": payload})
        .to_string()
        + "\n"
}

/// A parent rollout whose one turn spawns a child, and the child's rollout.
pub(crate) fn write_session(dir: &Path) {
    let parent = [
        line(
            "15:23.000",
            "session_meta",
            json!({"id": "0199aaaa-0000-7000-8000-000000000001", "cwd": "/work/app", "source": "cli"}),
        ),
        line(
            "15:24.000",
            "event_msg",
            json!({"type": "user_message", "message": "How many TODOs are left?"}),
        ),
        line(
            "15:30.000",
            "response_item",
            json!({"type": "function_call", "name": "spawn_agent", "call_id": "call_spawn",
                   "arguments": "{\"message\":\"Count the TODO comments under src/ and list the files.\",\"agent_type\":\"explorer\"}"}),
        ),
        line(
            "15:31.000",
            "response_item",
            json!({"type": "function_call_output", "call_id": "call_spawn",
                   "output": format!("{{\"agent_id\":\"{CHILD_ID}\"}}")}),
        ),
        line(
            "17:05.000",
            "response_item",
            json!({"type": "message", "role": "assistant",
                   "content": [{"type": "output_text", "text": "Three TODOs are left, all in `src/cli.rs`."}]}),
        ),
        line("17:06.000", "event_msg", json!({"type": "task_complete"})),
    ];
    let child = [
        line(
            "15:40.000",
            "session_meta",
            json!({"id": CHILD_ID, "cwd": "/work/app", "source": {"subagent": {"thread_spawn": {
                "parent_thread_id": "0199aaaa-0000-7000-8000-000000000001", "depth": 1,
                "agent_nickname": "Ada", "agent_role": "explorer"}}}}),
        ),
        line(
            "15:41.000",
            "event_msg",
            json!({"type": "user_message", "message": "Count the TODO comments under src/ and list the files."}),
        ),
        line(
            "15:50.000",
            "response_item",
            json!({"type": "function_call", "name": "shell_command", "call_id": "call_rg",
                   "arguments": "{\"command\":\"rg -c TODO src\"}"}),
        ),
        line(
            "15:51.000",
            "response_item",
            json!({"type": "function_call_output", "call_id": "call_rg",
                   "output": "Exit code: 0\nOutput:\nsrc/cli.rs:3\n"}),
        ),
        line(
            "16:58.000",
            "response_item",
            json!({"type": "message", "role": "assistant",
                   "content": [{"type": "output_text", "text": "3 TODO comments, all in `src/cli.rs`."}]}),
        ),
        line("16:59.000", "event_msg", json!({"type": "task_complete"})),
    ];
    std::fs::write(dir.join(PARENT), parent.concat()).expect("parent written");
    std::fs::write(dir.join(CHILD), child.concat()).expect("child written");
}

fn overhear(args: &[&str], path: &Path) -> String {
    let out = crate::common::overhear()
        .args(args)
        .arg(path)
        .output()
        .expect("overhear runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

#[test]
fn a_codex_child_rollout_shows_under_its_spawn_agent_call() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    write_session(dir.path());
    let parent = dir.path().join(PARENT);
    let screen = overhear(&["render", "--color", "never", "--width", "80"], &parent);
    assert!(
        screen.contains("▾ agent \"Count the TODO comments under src/")
            && screen.contains("…\" · 1 tool call · 1m19s"),
        "{screen}"
    );
    assert!(
        screen.contains("  ┆ "),
        "the child's lines are indented: {screen}"
    );
    common::snapshot::snapshot("subagent-codex-80", &screen);
    for width in [40usize, 200] {
        let screen = overhear(
            &["render", "--color", "never", "--width", &width.to_string()],
            &parent,
        );
        assert!(screen.contains("rg -c TODO src"), "{width}: {screen}");
        for line in screen.lines() {
            assert!(display_width(line) <= width, "{width}: {line:?}");
        }
    }
}

#[test]
fn events_marks_a_sub_agents_events_with_its_calls_id_after_the_call() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    write_session(dir.path());
    let out = overhear(&["events", "--jsonl"], &dir.path().join(PARENT));
    let events: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON lines"))
        .collect();
    let marked: Vec<(&str, Option<&str>)> = events
        .iter()
        .filter(|e| {
            let kind = e["type"].as_str().unwrap_or("");
            kind.starts_with("chat_") || kind.starts_with("tool_call_")
        })
        .map(|e| {
            (
                e["type"].as_str().unwrap_or(""),
                e["overhear.subagent"].as_str(),
            )
        })
        .collect();
    let sub = Some("call_spawn");
    assert_eq!(
        marked,
        [
            ("chat_request", None),
            ("tool_call_request", None),
            ("chat_request", sub),
            ("tool_call_request", sub),
            ("tool_call_response", sub),
            ("chat_response", sub),
            ("tool_call_response", None),
            ("chat_response", None),
        ]
    );
    // Opened on its own, the child is a conversation like any other.
    let alone = overhear(&["events", "--jsonl"], &dir.path().join(CHILD));
    assert!(!alone.contains("overhear.subagent"));
    assert_eq!(alone.matches("tool_call_request").count(), 1);
}
