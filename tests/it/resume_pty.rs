//! `R` in the viewer (docs/tui.md, "Coming back to a session"): the status
//! bar shows the command that resumes the session in its agent and the
//! command is sent to the clipboard with OSC 52; nothing is run.

use std::time::Duration;

use crate::common::pty::Viewer;

#[test]
fn r_shows_and_copies_the_resume_command_of_a_claude_session() {
    let dir = tempfile::tempdir().unwrap();
    let id = "0d3a8e6f-0000-4000-8000-00000000abcd";
    let path = dir.path().join(format!("{id}.jsonl"));
    let lines = [
        serde_json::json!({"type": "user", "uuid": "u1", "sessionId": id,
            "message": {"role": "user", "content": "Hello"}}),
        serde_json::json!({"type": "assistant", "uuid": "a1", "sessionId": id,
            "message": {"id": "m1", "role": "assistant", "model": "claude-x",
                "content": [{"type": "text", "text": "Claude answers here."}]}}),
    ];
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&path, text).unwrap();
    let mut cmd = Viewer::command(dir.path(), &dir.path().join("jp"));
    cmd.env("HOME", dir.path());
    cmd.env_remove("TMUX");
    cmd.arg(&path);
    let mut viewer = Viewer::recording(cmd, 24, 120);
    viewer.wait_for_text("Claude answers here.");
    viewer.send(b"R");
    let expected = format!("claude --resume {id}");
    viewer.wait_until("the command", Duration::from_secs(10), |s| {
        s.contents().contains(&expected)
    });
    let output = viewer.quit_and_output();
    let output = String::from_utf8_lossy(&output);
    // OSC 52 with the command, base64-encoded.
    let encoded = base64_of(&expected);
    assert!(
        output.contains(&format!("\u{1b}]52;c;{encoded}")),
        "no OSC 52 with {encoded}"
    );
}

fn base64_of(text: &str) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in text.as_bytes().chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}
