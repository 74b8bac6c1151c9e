//! A large JP conversation in the real viewer, in a pseudo-terminal: it
//! opens at its end with only its last turns decoded, `g` reads
//! the earlier ones and shows the first turn, `G` goes back to the end, `q`
//! quits — at 40, 80 and 200 columns, and with `NO_COLOR`. On a conversation
//! of 320 MiB, reading every earlier turn says how far it is, and `q`,
//! Ctrl-C and `Esc` do not wait for it.

use crate::common;

use crate::common::generate;

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

/// A generated conversation of about `bytes`, written a turn at a time (as
/// `generate::stored` of all its events would write it, without holding
/// them all): large enough that reading every earlier turn takes seconds.
fn write_large(parent: &Path, bytes: usize) -> (std::path::PathBuf, usize) {
    use std::io::Write as _;
    let dir = generate::write_conversation(parent, b"[]\n");
    let file = std::fs::File::create(dir.join("events.json")).unwrap();
    let mut out = std::io::BufWriter::new(file);
    out.write_all(b"[\n").unwrap();
    let (mut written, mut turns) = (0, 0);
    while written < bytes {
        let pretty = serde_json::to_vec_pretty(&generate::turn_events(42, turns)).unwrap();
        // `[\n  {…},\n  {…}\n]` → the entries between the brackets.
        let inner = &pretty[2..pretty.len() - 2];
        if turns > 0 {
            out.write_all(b",\n").unwrap();
        }
        out.write_all(inner).unwrap();
        written += inner.len() + 2;
        turns += 1;
    }
    out.write_all(b"\n]\n").unwrap();
    out.flush().unwrap();
    (dir, turns)
}

/// The viewer on `dir` at `rows`×`cols`, its last turn on screen.
fn opened(dir: &Path, total: usize, rows_cols: (u16, u16)) -> Viewer {
    let mut cmd = Viewer::command(dir, &dir.join("no-user-data"));
    cmd.arg(dir);
    let viewer = Viewer::start(cmd, rows_cols.0, rows_cols.1);
    viewer.wait_until("the last turn on screen", TIMEOUT, |s| {
        turn_shown(s, total, total)
    });
    viewer
}

/// Whether the status bar says every earlier turn is being read.
fn reading(screen: &vt100::Screen) -> bool {
    rows(screen)
        .last()
        .is_some_and(|bar| bar.contains("reading… ") && bar.contains("% of"))
}

#[test]
fn reading_every_earlier_turn_says_how_far_and_q_ctrl_c_and_esc_do_not_wait_for_it() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, total) = write_large(tmp.path(), 320 << 20);

    // The whole read, for scale: `g` until the first turn is on screen.
    let mut whole = opened(&dir, total, (40, 200));
    let start = std::time::Instant::now();
    whole.send(b"g");
    let screen = whole.wait_until("the read under way", TIMEOUT, reading);
    let bar = rows(&screen).pop().unwrap();
    assert!(bar.contains("earlier turns · Esc cancels"), "{bar}");
    whole.wait_until("the first turn on screen", TIMEOUT, |s| {
        turn_shown(s, 1, total) && rows(s)[0].contains("turn 1 ")
    });
    let full = start.elapsed();
    whole.quit();
    println!("the whole read of {total} turns: {full:?}");

    // `g`, then `q` once the read is under way: the viewer is gone long
    // before the read would have ended, its terminal given back.
    let mut quit = opened(&dir, total, (24, 80));
    quit.send(b"g");
    quit.wait_until("the read under way", TIMEOUT, reading);
    let start = std::time::Instant::now();
    quit.send(b"q");
    assert_eq!(quit.exit_code(), 0);
    let quitting = start.elapsed();
    assert!(quit.cooked(), "the terminal is given back");
    println!("q during the read: {quitting:?}");
    assert!(
        quitting * 4 < full,
        "q during the read took {quitting:?}; the whole read takes {full:?}"
    );

    // `g`, then `Esc`: the read stops, the viewer answers keys at once, and
    // a second `g` then Ctrl-C quits as fast (40 columns, no colour).
    let mut cmd = Viewer::command(&dir, &dir.join("no-user-data"));
    cmd.arg(&dir);
    cmd.env("NO_COLOR", "1");
    let mut esc = Viewer::start(cmd, 24, 40);
    // The status bar of 40 columns has no room for the turn counter.
    esc.wait_until("the conversation on screen", TIMEOUT, |s| {
        rows(s).last().is_some_and(|bar| bar.contains("finished"))
    });
    esc.send(b"g");
    esc.wait_until("the read under way", TIMEOUT, reading);
    let start = std::time::Instant::now();
    esc.send(b"\x1b");
    let screen = esc.wait_until("the read stopped", TIMEOUT, |s| {
        rows(s)
            .last()
            .is_some_and(|bar| bar.contains("stopped reading"))
    });
    let stopping = start.elapsed();
    assert!(
        !rows(&screen)[0].contains("turn 1 "),
        "the top was not gone to"
    );
    assert!(
        stopping * 4 < full,
        "Esc took {stopping:?} (the whole read {full:?})"
    );
    let before = screen.contents();
    let start = std::time::Instant::now();
    esc.send(b"\x1b[5~");
    esc.wait_until("a screen up", TIMEOUT, |s| s.contents() != before);
    assert!(
        start.elapsed() * 4 < full,
        "PgUp after Esc took {:?} (the whole read {full:?})",
        start.elapsed()
    );
    esc.send(b"g");
    esc.wait_until("the read under way again", TIMEOUT, reading);
    let start = std::time::Instant::now();
    esc.send(b"\x03");
    assert_eq!(esc.exit_code(), 0);
    assert!(
        start.elapsed() * 4 < full,
        "Ctrl-C took {:?} (the whole read {full:?})",
        start.elapsed()
    );
    assert!(esc.cooked());
}
