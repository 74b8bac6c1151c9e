//! The viewer following a Gemini CLI chat in a real pseudo-terminal while
//! it is appended as the CLI writes it (spec agent-transcripts-2 §6.1): a
//! message written again replaces what was on screen (its pending call now
//! answered, its tokens in the turn rule), and a `/rewind` takes the rewound
//! prompt off the screen and leaves its notice.

use crate::common;

use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

use common::agents::stated_ago;
use common::pty::Viewer;

/// How long a complete line may take to reach the screen.
const PROMPT: Duration = Duration::from_secs(3);

fn append(path: &Path, line: &str) {
    let mut file = OpenOptions::new()
        .append(true)
        .open(path)
        .expect("appendable");
    file.write_all(format!("{line}\n").as_bytes())
        .expect("written");
}

#[test]
fn a_gemini_chat_being_written_replaces_and_rewinds_on_screen() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let path = tmp.path().join("session-2026-11-30T10-00-5e55a0b1.jsonl");
    let now = |line: &str| stated_ago(line, Duration::ZERO);
    let meta = r#"{"sessionId":"5e55a0b1","projectHash":"h","startTime":"2026-11-30T10:00:00.000Z","lastUpdated":"2026-11-30T10:00:00.000Z"}"#;
    let prompt = now(
        r#"{"id":"u1","timestamp":"2026-11-30T10:00:00.000Z","type":"user","content":[{"text":"Count the files"}]}"#,
    );
    std::fs::write(&path, format!("{meta}\n{prompt}\n")).expect("written");
    let dir = tmp.path();
    let viewer = Viewer::spawn(&[&path], dir, dir, 40, 100);
    viewer.wait_until("following", Duration::from_secs(20), |s| {
        s.contents().contains("● following") && s.contents().contains("Count the files")
    });

    let pending = now(
        r#"{"id":"g1","timestamp":"2026-11-30T10:00:00.000Z","type":"gemini","content":"Listing them.","toolCalls":[{"id":"c1","name":"list_directory","args":{"path":"/w"},"status":"executing"}]}"#,
    );
    append(&path, &pending);
    viewer.wait_until("the pending call", PROMPT, |s| {
        s.contents().contains("list_directory") && s.contents().contains("Listing them.")
    });

    let answered = now(
        r#"{"id":"g1","timestamp":"2026-11-30T10:00:00.000Z","type":"gemini","content":"Listing them.","toolCalls":[{"id":"c1","name":"list_directory","args":{"path":"/w"},"status":"success","resultDisplay":"Listed 7 item(s)."}],"tokens":{"input":4321,"output":12,"cached":0,"thoughts":0,"total":4333}}"#,
    );
    append(&path, &answered);
    viewer.wait_until("the answered call and its tokens", PROMPT, |s| {
        s.contents().contains("Listed 7 item(s).") && s.contents().contains("4,321 in")
    });
    let screen = viewer.settled_screen().contents();
    assert_eq!(
        screen.matches("Listing them.").count(),
        1,
        "the message written again replaces the first copy:\n{screen}"
    );

    let second = now(
        r#"{"id":"u2","timestamp":"2026-11-30T10:00:00.000Z","type":"user","content":[{"text":"Now delete them all"}]}"#,
    );
    append(&path, &second);
    viewer.wait_until("the second prompt", PROMPT, |s| {
        s.contents().contains("Now delete them all")
    });
    append(&path, r#"{"$rewindTo":"u2"}"#);
    viewer.wait_until("the rewind", PROMPT, |s| {
        s.contents().contains("rewound: 1 message") && !s.contents().contains("Now delete them all")
    });
}
