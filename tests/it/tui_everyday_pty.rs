//! What a newcomer meets in the viewer, through the real binary in a
//! pseudo-terminal at the sizes people use (the viewer's points 7–10
//! and 16): the cursor starts on the last line of the real terminal, the
//! chrome follows the theme, `NO_COLOR` keeps cursor and matches visible, the
//! mouse is left to the terminal unless `--mouse`, and resizes keep the line
//! under the cursor.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::pty::{TIMEOUT, Viewer};
use portable_pty::CommandBuilder;
use serde_json::{Value, json};

/// The sizes the viewer is tried at: (rows, columns).
const SIZES: [(u16, u16); 4] = [(20, 40), (24, 80), (40, 120), (60, 200)];

/// A conversation of `turns` turns, each a short question and a long answer
/// whose words name their turn and place (`t3w17`), so that every screen
/// line can be told apart and paragraphs wrap differently at each width.
fn conversation(tmp: &Path, turns: usize) -> PathBuf {
    let dir = tmp.join("17760760747-everyday");
    std::fs::create_dir_all(&dir).unwrap();
    let mut events: Vec<Value> = Vec::new();
    for t in 1..=turns {
        let at = |s: usize| format!("2026-04-10 17:{:02}:{:02}.0", t % 60, s);
        let answer: Vec<String> = (1..=90).map(|w| format!("t{t}w{w}")).collect();
        events.push(json!({"timestamp": at(0), "type": "turn_start"}));
        events.push(json!({
            "timestamp": at(1), "type": "chat_request",
            "content": format!("Question number {t}?"), "author": "Jean"
        }));
        events.push(json!({
            "timestamp": at(2), "type": "chat_response",
            "message": format!("Answer {t}: {}", answer.join(" "))
        }));
    }
    std::fs::write(
        dir.join("events.json"),
        serde_json::to_vec_pretty(&events).unwrap(),
    )
    .unwrap();
    std::fs::write(
        dir.join("metadata.json"),
        r#"{"title": "Everyday", "last_activated_at": "2026-04-10 17:05:00.0"}"#,
    )
    .unwrap();
    dir
}

/// `overhear DIR ARGS…` on a `rows`×`cols` true-colour terminal, with more
/// environment variables.
fn start(dir: &Path, rows: u16, cols: u16, args: &[&str], env: &[(&str, &str)]) -> Viewer {
    Viewer::start(command(dir, args, env), rows, cols)
}

fn command(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> CommandBuilder {
    let mut cmd = Viewer::command(dir, &dir.join("no-user-data"));
    cmd.arg(dir);
    for arg in args {
        cmd.arg(arg);
    }
    cmd.env("COLORTERM", "truecolor");
    cmd.env_remove("OVERHEAR_MOUSE");
    for (key, value) in env {
        cmd.env(key, value);
    }
    cmd
}

/// The text of screen row `row`, trailing blanks trimmed.
fn row_text(screen: &vt100::Screen, row: u16) -> String {
    let cols = screen.size().1.get();
    screen
        .rows(0, cols)
        .nth(usize::from(row))
        .unwrap_or_default()
        .trim_end()
        .to_string()
}

/// The status bar: the last row.
fn status(screen: &vt100::Screen) -> String {
    row_text(screen, screen.size().0.get() - 1)
}

/// The rows of the text area (not the status bar) whose first cell `is`.
fn rows_where(screen: &vt100::Screen, is: impl Fn(&vt100::Cell) -> bool) -> Vec<u16> {
    let rows = screen.size().0.get();
    (0..rows - 1)
        .filter(|&r| screen.cell(r, 0).is_some_and(&is))
        .collect()
}

/// The cursor row of a true-colour screen of the dark theme.
fn cursor_row(screen: &vt100::Screen) -> Option<u16> {
    let cursor = vt100::Color::Rgb(0x28, 0x2c, 0x34);
    match rows_where(screen, |c| c.bgcolor() == cursor).as_slice() {
        [row] => Some(*row),
        _ => None,
    }
}

/// Waits for a frame whose cursor row satisfies `pred`; returns the screen.
fn wait_for_cursor(
    viewer: &Viewer,
    what: &str,
    pred: impl Fn(&vt100::Screen, u16) -> bool,
) -> vt100::Screen {
    viewer.wait_until(what, TIMEOUT, |s| {
        cursor_row(s).is_some_and(|row| pred(s, row))
    })
}

#[test]
fn a_conversation_opens_with_the_cursor_on_its_last_line_at_any_size() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = conversation(tmp.path(), 12);
    for (rows, cols) in SIZES {
        let mut viewer = start(&dir, rows, cols, &[], &[]);
        let screen = viewer.wait_until("the status bar", TIMEOUT, |s| {
            status(s).contains("finished") && cursor_row(s).is_some()
        });
        let size = format!("{cols}×{rows}");
        // The conversation is longer than any of these screens: its last
        // line (the blank after the last answer) is on the row above the
        // status bar, and the cursor is on it.
        assert_eq!(
            cursor_row(&screen),
            Some(rows - 2),
            "{size}: cursor row\n{}",
            screen.contents()
        );
        assert!(
            row_text(&screen, rows - 3).ends_with("t12w90"),
            "{size}: the end of the last answer just above\n{}",
            screen.contents()
        );
        assert!(
            status(&screen).contains("turn 12/12"),
            "{size}: {}",
            status(&screen)
        );
        // The keys act on the last turn: two lines up is still in it.
        viewer.send(b"kk");
        let screen = wait_for_cursor(&viewer, "the cursor two lines up", |_, row| row == rows - 4);
        assert!(
            status(&screen).contains("turn 12/12"),
            "{size}: {}",
            status(&screen)
        );
        viewer.quit();
    }
}

#[test]
fn the_light_theme_colours_the_status_bar_cursor_and_help() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = conversation(tmp.path(), 12);
    let bar = vt100::Color::Rgb(0x00, 0x5a, 0x8c);
    let cursor = vt100::Color::Rgb(0xee, 0xf2, 0xf7);
    let help = vt100::Color::Rgb(0xf0, 0xf3, 0xf6);
    for (rows, cols) in SIZES {
        let size = format!("{cols}×{rows}");
        let mut viewer = start(&dir, rows, cols, &["--theme", "light"], &[]);
        let screen = viewer.wait_until("the light status bar", TIMEOUT, |s| {
            s.cell(rows - 1, 0).is_some_and(|c| c.bgcolor() == bar)
        });
        for col in 0..cols {
            let cell = screen.cell(rows - 1, col).unwrap();
            assert_eq!(cell.bgcolor(), bar, "{size}: status bar column {col}");
        }
        assert_eq!(
            rows_where(&screen, |c| c.bgcolor() == cursor),
            vec![rows - 2],
            "{size}: the cursor row in the theme's colour"
        );
        viewer.send(b"H");
        let screen = viewer.wait_until("the help overlay", TIMEOUT, |s| {
            s.contents().contains("help")
                && (0..cols).any(|c| s.cell(rows / 2, c).is_some_and(|c| c.bgcolor() == help))
        });
        let inside = (0..cols)
            .filter(|&c| screen.cell(rows / 2, c).unwrap().bgcolor() == help)
            .count();
        assert!(
            inside >= 30,
            "{size}: the help overlay is painted in the theme's colour ({inside} cells)"
        );
        // The search prompt: in the bar, bold, in the theme's colours.
        viewer.send(b"q/t3w");
        let screen = viewer.wait_until("the search prompt", TIMEOUT, |s| {
            status(s).starts_with(" /t3w")
        });
        let slash = screen.cell(rows - 1, 1).unwrap();
        assert_eq!(slash.contents(), "/");
        assert!(slash.bold(), "{size}: the prompt is bold");
        assert_eq!(slash.bgcolor(), bar, "{size}: the prompt on the bar");
        assert_eq!(slash.fgcolor(), vt100::Color::Rgb(0xff, 0xff, 0xff));
        viewer.send(b"\x1b");
        viewer.wait_until("the prompt closed", TIMEOUT, |s| {
            !status(s).contains("/t3w")
        });
        viewer.quit();
    }
}

#[test]
fn without_colour_the_cursor_is_reversed_and_matches_bold_and_underlined() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = conversation(tmp.path(), 6);
    for (rows, cols) in SIZES {
        let size = format!("{cols}×{rows}");
        let mut viewer = start(&dir, rows, cols, &[], &[("NO_COLOR", "1")]);
        let screen = viewer.wait_until("the status bar", TIMEOUT, |s| {
            status(s).contains("○ finished")
        });
        let bar_row = rows - 1;
        for row in 0..rows {
            for col in 0..cols {
                let cell = screen.cell(row, col).unwrap();
                assert_eq!(
                    cell.fgcolor(),
                    vt100::Color::Default,
                    "{size}: colour at {row},{col}"
                );
                assert_eq!(
                    cell.bgcolor(),
                    vt100::Color::Default,
                    "{size}: colour at {row},{col}"
                );
            }
        }
        assert_eq!(
            rows_where(&screen, vt100::Cell::inverse),
            vec![rows - 2],
            "{size}: the cursor row, and only it, in reverse video\n{}",
            screen.contents()
        );
        assert!(
            screen.cell(bar_row, 0).unwrap().inverse(),
            "{size}: the status bar in reverse video"
        );
        assert!(
            status(&screen).contains("○ finished"),
            "{size}: live symbol"
        );

        viewer.send(b"/t5w7\r");
        let screen = viewer.wait_until("a match", TIMEOUT, |s| {
            (0..rows - 1).any(|r| row_text(s, r).contains("t5w7"))
                && (0..rows - 1).any(|r| {
                    (0..cols).any(|c| s.cell(r, c).is_some_and(|c| c.bold() && c.underline()))
                })
        });
        // Every cell of each "t5w7" on screen is bold and underlined.
        for row in 0..rows - 1 {
            let text = row_text(&screen, row);
            for (at, _) in text.match_indices("t5w7") {
                let col = text[..at].chars().count() as u16;
                for c in col..col + 4 {
                    let cell = screen.cell(row, c).unwrap();
                    assert!(
                        cell.bold() && cell.underline(),
                        "{size}: match cell {row},{c} of {text:?}"
                    );
                }
            }
        }
        assert!(
            status(&screen).contains("○ finished"),
            "{size}: the live symbol after a jump: {}",
            status(&screen)
        );
        viewer.quit();
    }
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

/// The DECSET sequences that capture the mouse (clicks, drags, motion, SGR
/// encoding).
const CAPTURE: [&str; 4] = ["\x1b[?1000h", "\x1b[?1002h", "\x1b[?1003h", "\x1b[?1006h"];

#[test]
fn the_mouse_is_left_to_the_terminal_and_the_wheel_scrolls_as_arrows() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = conversation(tmp.path(), 12);
    let (rows, cols) = (24, 80);
    let mut viewer = Viewer::recording(command(&dir, &[], &[]), rows, cols);
    let first = viewer.wait_until("the status bar", TIMEOUT, |s| {
        status(s).contains("finished") && cursor_row(s) == Some(rows - 2)
    });
    let top = row_text(&first, 0);
    // With alternate scroll on, the terminal sends a wheel turn as ↑ or ↓
    // (three of them, in xterm): the cursor moves, then the view scrolls.
    viewer.send(b"\x1b[A\x1b[A\x1b[A");
    viewer.wait_until("the cursor three lines up", TIMEOUT, |s| {
        cursor_row(s) == Some(rows - 5)
    });
    viewer.send(&b"\x1b[A".repeat(usize::from(rows)));
    let screen = viewer.wait_until("the view scrolled up", TIMEOUT, |s| {
        cursor_row(s) == Some(0) && row_text(s, 0) != top
    });
    assert!(
        status(&screen).contains("turn 11/12"),
        "{}",
        status(&screen)
    );
    viewer.send(&b"\x1b[B".repeat(3));
    viewer.wait_until("the cursor three lines down", TIMEOUT, |s| {
        cursor_row(s) == Some(3)
    });
    let bytes = viewer.quit_and_output();
    assert!(
        contains(&bytes, "\x1b[?1007h"),
        "alternate scroll turned on"
    );
    assert!(
        contains(&bytes, "\x1b[?1007l"),
        "alternate scroll turned off"
    );
    for decset in CAPTURE {
        assert!(
            !contains(&bytes, decset),
            "{decset:?} sent: the mouse is captured by default"
        );
    }
}

#[test]
fn mouse_flag_and_variable_capture_the_mouse_for_clicks() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = conversation(tmp.path(), 12);
    let (rows, cols) = (24, 80);
    let with_flag = command(&dir, &["--mouse"], &[]);
    let with_var = command(&dir, &[], &[("OVERHEAR_MOUSE", "1")]);
    for (how, cmd) in [("--mouse", with_flag), ("OVERHEAR_MOUSE=1", with_var)] {
        let mut viewer = Viewer::recording(cmd, rows, cols);
        let screen = viewer.wait_until("the status bar", TIMEOUT, |s| {
            status(s).contains("finished") && cursor_row(s).is_some()
        });
        assert_ne!(
            screen.mouse_protocol_mode(),
            vt100::MouseProtocolMode::None,
            "{how}: the mouse is captured"
        );
        // A left click on row 5 (SGR encoding, 1-based) moves the cursor there.
        viewer.send(b"\x1b[<0;10;5M\x1b[<0;10;5m");
        viewer.wait_until("the cursor on the clicked row", TIMEOUT, |s| {
            cursor_row(s) == Some(4)
        });
        let bytes = viewer.quit_and_output();
        assert!(contains(&bytes, "\x1b[?1000h"), "{how}: capture turned on");
        assert!(contains(&bytes, "\x1b[?1000l"), "{how}: capture turned off");
    }
}

/// The sizes a window goes through, ten resizes that end where they began.
const RESIZES: [(u16, u16); 10] = [
    (30, 80),
    (60, 200),
    (20, 40),
    (40, 120),
    (24, 80),
    (33, 97),
    (60, 200),
    (20, 40),
    (45, 150),
    (40, 120),
];

/// The first frame drawn for an `r`×`c` terminal: the screen has stopped
/// changing and its status bar (background `bar`) spans its last row.
fn redrawn(viewer: &Viewer, r: u16, c: u16, bar: vt100::Color) -> vt100::Screen {
    let start = Instant::now();
    loop {
        let before = viewer.screen();
        std::thread::sleep(Duration::from_millis(100));
        let now = viewer.screen();
        let spans = [0, c - 1].iter().all(|&col| {
            now.cell(r - 1, col)
                .is_some_and(|cell| cell.bgcolor() == bar)
        });
        if spans && now.contents() == before.contents() && now.size() == (before.size()) {
            return now;
        }
        assert!(
            start.elapsed() < TIMEOUT,
            "no frame for {c}×{r}:\n{}",
            now.contents()
        );
    }
}

#[test]
fn resizes_keep_the_line_under_the_cursor() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = conversation(tmp.path(), 12);
    let (rows, cols) = (40, 120);
    let mut viewer = start(&dir, rows, cols, &[], &[]);
    viewer.wait_until("the status bar", TIMEOUT, |s| {
        status(s).contains("finished")
    });
    // To the start of turn 5's answer, then into it: the cursor on a line
    // in the middle of a wrapped paragraph, in the middle of the screen.
    viewer.send(b"g]]]]");
    viewer.wait_until("turn 5 on top", TIMEOUT, |s| {
        row_text(s, 0).contains("turn 5")
    });
    viewer.send(&b"j".repeat(8));
    let screen = wait_for_cursor(&viewer, "the cursor on row 8", |_, row| row == 8);
    let line = row_text(&screen, 8);
    assert!(line.contains("t5w"), "a line of turn 5's answer: {line:?}");
    // The first word on that line, which every width shows on the cursor line.
    let word = line
        .split_whitespace()
        .find(|w| w.starts_with("t5w"))
        .unwrap()
        .to_string();
    let bar = vt100::Color::Rgb(0x88, 0xc0, 0xd0);
    for (i, (r, c)) in RESIZES.into_iter().enumerate() {
        viewer.resize(r, c);
        let screen = redrawn(&viewer, r, c, bar);
        let under = cursor_row(&screen).map(|row| row_text(&screen, row));
        assert!(
            under
                .as_deref()
                .is_some_and(|u| u.split_whitespace().any(|w| w == word)),
            "resize {i} to {c}×{r}: {word} is under the cursor, not {under:?}\n{}",
            screen.contents()
        );
    }
    let screen = viewer.screen();
    assert_eq!(cursor_row(&screen), Some(8), "back at 120×40, the same row");
    assert_eq!(row_text(&screen, 8), line, "back at 120×40, the same line");
    viewer.quit();
}
