//! Sub-agents in the viewer, in a real pseudo-terminal: a Claude Code
//! `Agent` call is one line (`▸ agent "…" · 2 tool calls · …`), `Enter`
//! unfolds its conversation in place, `a` opens it full-screen and `Esc`
//! (or `q`) comes back to the same place; and a sub-agent's file that
//! appears while the parent runs is read as it is written.

use crate::common;

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use common::pty::Viewer;
use serde_json::json;

const ROWS: u16 = 30;
use crate::common::agents::claude::{AGENT, SESSION, assistant, user};

/// The parent's lines up to the `Agent` call.
fn parent_head() -> String {
    [
        user("p1", 0, false, json!("Why does the service crash?")),
        assistant(
            "p2",
            2,
            false,
            json!([{"type": "tool_use", "id": "toolu_agent", "name": "Agent",
                    "input": {"description": "Research the crash logs", "subagent_type": "Explore",
                              "prompt": "Find the errors in app.log and say what they share."}}]),
        ),
    ]
    .concat()
}

/// The sub-agent's lines, in three steps as it writes them.
fn agent_steps() -> [String; 3] {
    [
        user(
            "s1",
            3,
            true,
            json!("Find the errors in app.log and say what they share."),
        ) + &assistant(
            "s2",
            5,
            true,
            json!([{"type": "tool_use", "id": "toolu_grep", "name": "Grep",
                            "input": {"pattern": "ERROR", "path": "app.log"}}]),
        ),
        user(
            "s3",
            6,
            true,
            json!([{"type": "tool_result", "tool_use_id": "toolu_grep",
                            "content": "app.log:12: ERROR pool exhausted"}]),
        ) + &assistant(
            "s4",
            8,
            true,
            json!([{"type": "tool_use", "id": "toolu_read", "name": "Read",
                            "input": {"file_path": "/srv/pool.toml"}}]),
        ),
        user(
            "s5",
            9,
            true,
            json!([{"type": "tool_result", "tool_use_id": "toolu_read",
                            "content": "max_connections = 4"}]),
        ) + &assistant(
            "s6",
            40,
            true,
            json!([{"type": "text", "text": "Every error is the pool running out of its 4 connections."}]),
        ),
    ]
}

/// The parent's lines after the sub-agent finished.
fn parent_tail() -> String {
    let mut result = json!({"type": "user", "uuid": "p3", "sessionId": SESSION,
        "timestamp": "2026-01-22T10:00:41.000Z",
        "toolUseResult": {"status": "completed", "agentId": AGENT},
        "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_agent",
            "content": [{"type": "text", "text": "Every error is the pool running out of its 4 connections."}]}]}})
    .to_string();
    result.push('\n');
    result
        + &assistant(
            "p4",
            45,
            false,
            json!([{"type": "text", "text": "The pool is too small: raise max_connections."}]),
        )
}

fn agent_file(dir: &Path) -> PathBuf {
    let folder = dir.join(SESSION).join("subagents");
    std::fs::create_dir_all(&folder).expect("the subagents folder");
    folder.join(format!("agent-{AGENT}.jsonl"))
}

fn open(path: &Path, cols: u16) -> Viewer {
    let dir = path.parent().expect("a folder");
    Viewer::spawn(&[path], dir, dir, ROWS, cols)
}

fn append(path: &Path, text: &str) {
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .expect("appendable");
    file.write_all(text.as_bytes()).expect("written");
}

#[test]
fn an_agent_call_is_one_line_unfolds_in_place_and_opens_full_screen() {
    for cols in [40u16, 80, 200] {
        let tmp = tempfile::tempdir().expect("a temporary folder");
        let path = tmp.path().join(format!("{SESSION}.jsonl"));
        std::fs::write(agent_file(tmp.path()), agent_steps().concat()).expect("written");
        std::fs::write(&path, parent_head() + &parent_tail()).expect("written");
        let mut viewer = open(&path, cols);
        viewer.wait_for_text("raise");
        let folded = viewer.wait_until("the folded agent", Duration::from_secs(10), |s| {
            s.contents().contains("▸ agent \"")
        });
        let line = folded
            .contents()
            .lines()
            .find(|l| l.contains("▸ agent"))
            .map(str::to_string)
            .expect("the agent's line");
        if cols >= 80 {
            assert!(
                line.contains("▸ agent \"Research the crash logs\" · 2 tool calls · 37s"),
                "{line}"
            );
        }
        assert!(!folded.contents().contains("pool.toml"), "folded: {line}");

        // `{` puts the cursor on the card; Enter unfolds it in place.
        viewer.send(b"{");
        viewer.send(b"\r");
        let open = viewer.wait_until("the unfolded agent", Duration::from_secs(5), |s| {
            s.contents().contains("▾ agent")
        });
        assert!(open.contents().contains("┆"), "{}", open.contents());

        // Folded again, then opened full-screen.
        viewer.send(b"\r");
        viewer.wait_until("folded again", Duration::from_secs(5), |s| {
            s.contents().contains("▸ agent")
        });
        let before = viewer.settled_screen().contents();
        assert!(before.contains("raise"), "{before}");
        viewer.send(b"a");
        let full = viewer.wait_until("the sub-agent full-screen", Duration::from_secs(5), |s| {
            s.contents().contains("Find the errors") && !s.contents().contains("raise")
        });
        let text = full.contents();
        assert!(text.contains("Find the errors in app.log"), "{text}");
        assert!(!text.contains("Why does the service crash?"), "{text}");
        assert!(text.contains("Grep"), "{text}");
        // Its call has its result: the sub-agent is not running, though the
        // parent's file is still followed.
        let rule = text
            .lines()
            .find(|l| l.starts_with("── turn"))
            .unwrap_or("");
        assert!(!rule.contains("running"), "{text}");

        // Esc is the way back, to the same place.
        viewer.send(b"\x1b");
        viewer.wait_until("back", Duration::from_secs(5), |s| {
            s.contents().contains("raise")
        });
        let back = viewer.settled_screen().contents();
        // The status bar (its last row) has a clock: the text above is compared.
        let text_rows = |screen: &str| {
            let mut rows: Vec<String> = screen.lines().map(|l| l.trim_end().to_string()).collect();
            rows.pop();
            rows
        };
        assert_eq!(text_rows(&back), text_rows(&before), "back where it was");
        // And `q` goes back too, rather than quitting.
        viewer.send(b"a");
        viewer.wait_until("the sub-agent again", Duration::from_secs(5), |s| {
            !s.contents().contains("raise")
        });
        viewer.send(b"q");
        viewer.wait_for_text("raise");
        viewer.quit();
    }
}

#[test]
fn a_sub_agents_file_written_while_the_parent_runs_shows_as_it_grows() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let path = tmp.path().join(format!("{SESSION}.jsonl"));
    std::fs::write(&path, parent_head()).expect("written");
    let mut viewer = open(&path, 100);
    viewer.wait_for_text("Why does the service crash?");
    // The call runs; its sub-agent's file is not there yet.
    viewer.wait_for_text("Agent");

    let [first, second, third] = agent_steps();
    let file = agent_file(tmp.path());
    append(&file, &first);
    viewer.wait_until("the sub-agent's first call", Duration::from_secs(5), |s| {
        s.contents()
            .contains("▸ agent \"Research the crash logs\" · 1 tool call")
    });
    append(&file, &second);
    viewer.wait_until("its second call", Duration::from_secs(5), |s| {
        s.contents().contains("· 2 tool calls")
    });
    // Unfolded, the running sub-agent's work is there.
    viewer.send(b"{");
    viewer.send(b"\r");
    viewer.wait_for_text("pool.toml");
    append(&file, &third);
    viewer.wait_for_text("4 connections");
    // The parent goes on: the result names the same file, read once.
    append(&path, &parent_tail());
    viewer.wait_for_text("raise max_connections");
    let screen = viewer.settled_screen().contents();
    assert_eq!(screen.matches("Grep").count(), 1, "{screen}");
    viewer.quit();
}

/// A Claude Code agent file that names itself as its `Task` call's
/// sub-agent (once a stack overflow in the viewer too): the viewer
/// opens it, the unfolded call shows the cut cycle, `q` ends it cleanly.
#[test]
fn a_file_that_is_its_own_sub_agent_shows_the_cut_cycle_in_the_viewer() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let path = tmp.path().join("agent-x.jsonl");
    let mut result = json!({
        "type": "user", "uuid": "p3", "parentUuid": "p2", "sessionId": SESSION,
        "timestamp": "2026-01-22T10:00:04.000Z",
        "message": {"role": "user", "content": [{"type": "tool_result",
            "tool_use_id": "toolu_task", "content": [{"type": "text", "text": "done"}]}]},
    });
    result["toolUseResult"] = json!({"agentId": "x", "status": "completed"});
    let text = [
        user("p1", 0, false, json!("Look at yourself.")),
        assistant(
            "p2",
            2,
            false,
            json!([{"type": "tool_use", "id": "toolu_task", "name": "Task",
                    "input": {"description": "Myself again", "prompt": "Look at yourself."}}]),
        ),
        result.to_string() + "\n",
    ]
    .concat();
    std::fs::write(&path, text).expect("written");
    let mut viewer = open(&path, 160);
    viewer.wait_until("the folded agent", Duration::from_secs(10), |s| {
        s.contents().contains("▸ agent \"Myself again\"")
    });
    viewer.send(b"{");
    viewer.send(b"\r");
    let screen = viewer.wait_until("the cut cycle", Duration::from_secs(5), |s| {
        s.contents().contains("cycle cut here")
    });
    assert!(
        screen.contents().contains(&format!(
            "sub-agent {} is already shown above",
            path.display()
        )),
        "{}",
        screen.contents()
    );
    viewer.quit();
}

#[test]
fn a_codex_child_rollout_opens_full_screen_with_a_and_esc_comes_back() {
    for cols in [40u16, 80, 200] {
        let tmp = tempfile::tempdir().expect("a temporary folder");
        crate::subagents::write_session(tmp.path());
        let parent = tmp.path().join(crate::subagents::PARENT);
        let mut viewer = open(&parent, cols);
        viewer.wait_for_text("Three TODOs are left");
        viewer.wait_until("the agent's call", Duration::from_secs(10), |s| {
            s.contents().contains("agent \"")
        });
        let before = viewer.settled_screen().contents();
        // `{` puts the cursor on the card, `a` opens its sub-agent.
        viewer.send(b"{");
        viewer.send(b"a");
        let full = viewer.wait_until("the child full-screen", Duration::from_secs(5), |s| {
            s.contents().contains("rg -c TODO src") && !s.contents().contains("How many TODOs")
        });
        let text = full.contents();
        assert!(text.contains("3 TODO comments"), "{cols}: {text}");
        assert!(!text.contains("Three TODOs are left"), "{cols}: {text}");
        // Esc is the way back, to the parent.
        viewer.send(b"\x1b");
        let back = viewer.wait_until("back to the parent", Duration::from_secs(5), |s| {
            s.contents().contains("Three TODOs are left")
        });
        assert!(back.contents().contains("agent \""), "{cols}: {before}");
        viewer.quit();
    }
}
