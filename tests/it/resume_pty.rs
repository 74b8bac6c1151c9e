//! `R` in the viewer (docs/tui.md, "Coming back to a session"): the status
//! bar shows the command that resumes the session in its agent and the
//! command is sent to the clipboard with OSC 52; nothing is run.

use std::time::Duration;

use serde_json::json;

use crate::common::agents::claude::{SESSION, assistant, user};
use crate::common::home::FakeHome;
use crate::common::inputs::b64;
use crate::common::pty::Viewer;

#[test]
fn r_shows_and_copies_the_resume_command_of_a_claude_session() {
    let fake = FakeHome::new();
    let path = fake.claude_session(
        SESSION,
        &[
            user("u1", 0, false, json!("Hello")),
            assistant(
                "a1",
                1,
                false,
                json!([{"type": "text", "text": "Claude answers here."}]),
            ),
        ],
    );
    let mut cmd = Viewer::command(&fake.project, &fake.home.join("jp"));
    cmd.env("HOME", &fake.home);
    cmd.env_remove("TMUX");
    cmd.arg(&path);
    let mut viewer = Viewer::recording(cmd, 24, 120);
    viewer.wait_for_text("Claude answers here.");
    viewer.send(b"R");
    let expected = format!("claude --resume {SESSION}");
    viewer.wait_until("the command", Duration::from_secs(10), |s| {
        s.contents().contains(&expected)
    });
    let output = viewer.quit_and_output();
    let output = String::from_utf8_lossy(&output);
    // OSC 52 with the command, base64-encoded.
    let encoded = b64(&expected);
    assert!(
        output.contains(&format!("\u{1b}]52;c;{encoded}")),
        "no OSC 52 with {encoded}"
    );
}
