//! A large JP conversation in the real viewer, in a pseudo-terminal (issue
//! 13 §1): it opens at its end with only its last turns decoded, `g` reads
//! the earlier ones and shows the first turn, `G` goes back to the end, `q`
//! quits — at 40, 80 and 200 columns, and with `NO_COLOR`.

mod common;

#[path = "../benches/common/mod.rs"]
mod generate;

use std::path::Path;

use common::pty::{TIMEOUT, Viewer, rows};

/// The status bar's turn counter: `turn N/TOTAL`.
fn turn_shown(screen: &vt100::Screen, turn: usize, total: usize) -> bool {
    rows(screen)
        .last()
        .is_some_and(|bar| bar.contains(&format!("turn {turn}/{total}")))
}

fn open_top_end_quit(dir: &Path, total: usize, rows_cols: (u16, u16), no_color: bool) {
    let (height, width) = rows_cols;
    let mut cmd = Viewer::command(dir, &dir.join("no-user-data"));
    cmd.arg(dir);
    if no_color {
        cmd.env("NO_COLOR", "1");
    }
    let mut viewer = Viewer::start(cmd, height, width);
    viewer.wait_until("the last turn on screen", TIMEOUT, |s| {
        turn_shown(s, total, total)
    });
    viewer.send(b"g");
    viewer.wait_until("the first turn on screen", TIMEOUT, |s| {
        turn_shown(s, 1, total) && rows(s)[0].contains("turn 1 ")
    });
    viewer.send(b"G");
    viewer.wait_until("the last turn again", TIMEOUT, |s| {
        turn_shown(s, total, total)
    });
    viewer.send(b"q");
    assert_eq!(viewer.exit_code(), 0, "{width} columns");
}

#[test]
fn a_large_conversation_opens_at_its_end_and_g_and_capital_g_go_to_either_end() {
    let tmp = tempfile::tempdir().unwrap();
    let events = generate::conversation_events(8 << 20);
    let total = generate::turns_in(&events);
    let dir = generate::write_conversation(tmp.path(), &generate::stored(&events));
    for size in [(24, 40), (40, 80), (60, 200)] {
        open_top_end_quit(&dir, total, size, false);
    }
    open_top_end_quit(&dir, total, (40, 80), true);
}
