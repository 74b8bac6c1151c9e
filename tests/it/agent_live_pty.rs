//! The viewer following a Claude Code transcript and a Codex rollout in a
//! real pseudo-terminal while they are appended, as the agents write them:
//! the running turn grows (the records first written state the time they
//! are written, as an agent's do), a half-written last line shows nothing until its
//! newline arrives, and usage reaches the turn rule and the status bar.

use crate::common;

use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

use common::agents::stated_ago;
use common::pty::Viewer;

const ROWS: u16 = 40;
const COLS: u16 = 100;
/// How long a complete line may take to reach the screen.
const PROMPT: Duration = Duration::from_secs(2);
/// How long a half-written line is watched for anything showing.
const QUIET: Duration = Duration::from_millis(400);

fn follow(path: &Path) -> Viewer {
    let dir = path.parent().expect("a folder");
    let viewer = Viewer::spawn(&[path], dir, dir, ROWS, COLS);
    viewer.wait_until("following", Duration::from_secs(20), |s| {
        s.contents().contains("● following")
    });
    viewer
}

/// Appends `line` in two writes, checking the first half changes nothing
/// on screen, then waits for `shows` once the line is complete.
fn append(viewer: &Viewer, path: &Path, line: &str, shows: &str) {
    let mut file = OpenOptions::new()
        .append(true)
        .open(path)
        .expect("appendable");
    let bytes = format!("{line}\n").into_bytes();
    let (head, tail) = bytes.split_at(bytes.len() / 2);
    let before = without_clock(&viewer.settled_screen().contents());
    file.write_all(head).expect("written");
    file.flush().expect("flushed");
    std::thread::sleep(QUIET);
    assert_eq!(
        without_clock(&viewer.screen().contents()),
        before,
        "a half-written line changed the screen"
    );
    file.write_all(tail).expect("written");
    file.flush().expect("flushed");
    viewer.wait_until(shows, PROMPT, |s| s.contents().contains(shows));
}

/// `screen` with the running turn's clock (`running 1s`, which counts the
/// seconds of a turn begun now) blanked: it may tick while a half-written
/// line is watched.
fn without_clock(screen: &str) -> String {
    screen
        .lines()
        .map(|line| match line.find("running ") {
            Some(at) if line.starts_with("── turn") => {
                let end = line[at..].find(" ──").map_or(line.len(), |e| at + e);
                format!("{}running …{}", &line[..at], &line[end..])
            }
            _ => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_claude_code_transcript_being_appended_grows_its_running_turn() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let path = tmp
        .path()
        .join("0d3a8e6f-1111-2222-3333-444455556666.jsonl");
    let prompt = r#"{"parentUuid":null,"isSidechain":false,"type":"user","sessionId":"s","uuid":"u1","timestamp":"2025-10-21T20:04:22.000Z","message":{"role":"user","content":"List the files please"}}"#;
    let prompt = stated_ago(prompt, Duration::ZERO);
    std::fs::write(&path, format!("{prompt}\n")).expect("written");
    let mut viewer = follow(&path);
    viewer.wait_for_text("List the files please");

    let usage = r#""usage":{"input_tokens":120,"output_tokens":30,"cache_read_input_tokens":0,"cache_creation_input_tokens":0}"#;
    append(
        &viewer,
        &path,
        &format!(
            r#"{{"type":"assistant","sessionId":"s","uuid":"a1","parentUuid":"u1","timestamp":"2025-10-21T20:04:25.000Z","message":{{"id":"msg_1","model":"claude-test","role":"assistant","content":[{{"type":"text","text":"Checking the folder now."}}],{usage}}}}}"#
        ),
        "Checking the folder now.",
    );
    append(
        &viewer,
        &path,
        &format!(
            r#"{{"type":"assistant","sessionId":"s","uuid":"a2","parentUuid":"a1","timestamp":"2025-10-21T20:04:26.000Z","message":{{"id":"msg_1","model":"claude-test","role":"assistant","content":[{{"type":"tool_use","id":"toolu_1","name":"Bash","input":{{"command":"ls -1 /srv/data"}}}}],{usage}}}}}"#
        ),
        "ls -1 /srv/data",
    );
    append(
        &viewer,
        &path,
        r#"{"type":"user","sessionId":"s","uuid":"u2","parentUuid":"a2","timestamp":"2025-10-21T20:04:27.000Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"alpha.csv\nbeta.csv","is_error":false}]}}"#,
        "beta.csv",
    );
    // Usage counted once for the response's two lines.
    viewer.wait_for_text("120 in / 30 out tokens");
    // The session's totals in the status bar.
    viewer.wait_for_text("Σ 120 in / 30 out tokens");
    let screen = viewer.screen().contents();
    assert_eq!(screen.matches("Checking the folder now.").count(), 1);
    assert!(screen.contains("● following"));
    viewer.quit();
}

#[test]
fn a_codex_rollout_being_appended_grows_its_running_turn() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let path = tmp
        .path()
        .join("rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl");
    let head = [
        r#"{"timestamp":"2025-11-17T21:30:28.664Z","type":"session_meta","payload":{"id":"019a93b9","cwd":"/srv","originator":"codex_cli_rs","cli_version":"0.58.0"}}"#,
        r#"{"timestamp":"2025-11-17T21:30:29.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Count the log lines"}]}}"#,
        r#"{"timestamp":"2025-11-17T21:30:29.001Z","type":"event_msg","payload":{"type":"user_message","message":"Count the log lines","images":[]}}"#,
    ];
    let head = head.map(|line| stated_ago(line, Duration::ZERO));
    std::fs::write(&path, head.join("\n") + "\n").expect("written");
    let mut viewer = follow(&path);
    viewer.wait_for_text("Count the log lines");

    append(
        &viewer,
        &path,
        r#"{"timestamp":"2025-11-17T21:30:30.000Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"wc\",\"-l\",\"app.log\"]}","call_id":"call_1"}}"#,
        "app.log",
    );
    append(
        &viewer,
        &path,
        r#"{"timestamp":"2025-11-17T21:30:31.000Z","type":"response_item","payload":{"type":"function_call_output","call_id":"call_1","output":"{\"output\":\"4242 app.log\\n\",\"metadata\":{\"exit_code\":0,\"duration_seconds\":0.1}}"}}"#,
        "4242 app.log",
    );
    append(
        &viewer,
        &path,
        r#"{"timestamp":"2025-11-17T21:30:32.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"The log has 4242 lines."}]}}"#,
        "The log has 4242 lines.",
    );
    // The mirror of the reply adds nothing; the token count reaches the rule.
    append(
        &viewer,
        &path,
        r#"{"timestamp":"2025-11-17T21:30:32.100Z","type":"event_msg","payload":{"type":"agent_message","message":"The log has 4242 lines."}}"#,
        "The log has 4242 lines.",
    );
    append(
        &viewer,
        &path,
        r#"{"timestamp":"2025-11-17T21:30:32.200Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":900,"cached_input_tokens":0,"output_tokens":45,"reasoning_output_tokens":0,"total_tokens":945}}}}"#,
        "900 in / 45 out tokens",
    );
    let screen = viewer.settled_screen().contents();
    assert_eq!(
        screen.matches("The log has 4242 lines.").count(),
        1,
        "{screen}"
    );
    assert_eq!(screen.matches("Count the log lines").count(), 1, "{screen}");
    viewer.quit();
}
