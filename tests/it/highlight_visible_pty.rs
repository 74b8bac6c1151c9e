//! The viewer highlights only what it shows, in a real
//! pseudo-terminal: a conversation that ends in a 60 KB Rust block opens at
//! its end at once, colour arrives without a key, and keys that jump around
//! the block are answered.

use crate::common;

use std::path::{Path, PathBuf};

use common::pty::{TIMEOUT, Viewer};
use serde_json::json;

/// Lines of Rust in the block, each naming its number (`f_0412`).
const LINES: usize = 2300;

/// About 60 KB of Rust.
fn code() -> String {
    (0..LINES)
        .map(|i| format!("let f_{i:04} = \"s\"; // line\n"))
        .collect()
}

fn conversation(tmp: &Path) -> PathBuf {
    let dir = tmp.join("17760760747-code");
    std::fs::create_dir_all(&dir).unwrap();
    let events = json!([
        {"timestamp": "2026-05-01 10:00:00.0", "type": "turn_start"},
        {"timestamp": "2026-05-01 10:00:01.0", "type": "chat_request", "content": "show me the module"},
        {"timestamp": "2026-05-01 10:00:02.0", "type": "chat_response",
         "message": format!("Here:\n\n```rust\n{}```\n", code())},
    ]);
    std::fs::write(
        dir.join("events.json"),
        serde_json::to_vec_pretty(&events).unwrap(),
    )
    .unwrap();
    dir
}

/// Whether the code line of `f_{n}` is on screen with its syntax colours:
/// `let` and the string in different colours (plain code has one colour).
fn coloured(screen: &vt100::Screen, n: usize) -> bool {
    let name = format!("let f_{n:04} = ");
    let (rows, cols) = screen.size();
    let (rows, cols) = (rows.get(), cols.get());
    (0..rows).any(|row| {
        let cells: Vec<String> = (0..cols)
            .map(|col| {
                screen
                    .cell(row, col)
                    .map_or(String::new(), |c| c.contents().to_string())
            })
            .collect();
        let text: String = cells
            .iter()
            .map(|c| if c.is_empty() { " " } else { c.as_str() })
            .collect();
        let Some(at) = text.find(&name) else {
            return false;
        };
        let fg = |col: usize| screen.cell(row, col as u16).map(|c| c.fgcolor());
        fg(at) != fg(at + name.len())
    })
}

#[test]
fn a_long_block_opens_at_once_and_colours_what_is_shown() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = conversation(tmp.path());
    for cols in [40, 80, 200] {
        let mut cmd = Viewer::command(&dir, &dir.join("no-user-data"));
        cmd.arg(&dir);
        let mut viewer = Viewer::start(cmd, 30, cols);
        // Opened at the end of the block, then coloured without a key.
        viewer.wait_for_text("f_2299 =");
        viewer.wait_until("the end coloured", TIMEOUT, |s| coloured(s, 2299));
        // A jump into the middle (a search) is answered, and coloured.
        viewer.send(b"/f_1100 \r");
        viewer.wait_until("the search's line coloured", TIMEOUT, |s| coloured(s, 1100));
        // The next key too: the top of the conversation.
        viewer.send(b"g");
        viewer.wait_for_text("show me the module");
        viewer.send(b"G");
        viewer.wait_until("the end again", TIMEOUT, |s| coloured(s, 2299));
        viewer.quit();
    }
}

#[test]
fn without_colour_the_block_reads_the_same() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = conversation(tmp.path());
    let mut cmd = Viewer::command(&dir, &dir.join("no-user-data"));
    cmd.arg(&dir);
    cmd.env("NO_COLOR", "1");
    let mut viewer = Viewer::start(cmd, 30, 80);
    viewer.wait_for_text("f_2299 =");
    viewer.send(b"/f_1100 \r");
    viewer.wait_for_text("let f_1100 = \"s\"; // line");
    viewer.send(b"g");
    viewer.wait_for_text("show me the module");
    viewer.quit();
}
