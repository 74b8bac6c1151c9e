//! The viewer's keys in a real pseudo-terminal, as a user types them: search
//! both ways with its history and match count, counts, turn and line jumps,
//! and the jumps to failed calls and to messages to the user — at 40, 80,
//! 120 and 200 columns, dark, light and without colour.

use crate::common;

use std::io::Write;
use std::path::Path;

use common::pty::{TIMEOUT, Viewer, rows};

const CURRENT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/jp/current");

/// The height: small enough that every jump target can be put at the top.
const ROWS: u16 = 12;

/// The widths every test runs at.
const WIDTHS: [u16; 4] = [40, 80, 120, 200];

/// The viewer on the `current` fixture, `cols` wide, with `env` and `args`.
fn start(cols: u16, env: &[(&str, &str)], args: &[&str]) -> Viewer {
    let tmp = std::env::temp_dir();
    let mut cmd = Viewer::command(Path::new(CURRENT), &tmp.join("overhear-no-user-data"));
    cmd.arg(CURRENT);
    for arg in args {
        cmd.arg(arg);
    }
    for (key, value) in env {
        cmd.env(key, value);
    }
    let viewer = Viewer::start(cmd, ROWS, cols);
    viewer.wait_until("the first frame", TIMEOUT, |s| {
        s.alternate_screen() && s.contents().contains("turn 2/2")
    });
    viewer
}

/// Environment variables and arguments that make one kind of terminal.
type Variant = (
    &'static [(&'static str, &'static str)],
    &'static [&'static str],
);

/// The variants of the terminal every test runs in: dark, light, no colour.
fn variants() -> [Variant; 3] {
    [
        (&[], &[]),
        (&[], &["--theme", "light"]),
        (&[("NO_COLOR", "1")], &[]),
    ]
}

/// The first row of the screen.
fn first_row(s: &vt100::Screen) -> String {
    rows(s).into_iter().next().unwrap_or_default()
}

/// The status bar (the last row).
fn status(s: &vt100::Screen) -> String {
    rows(s).pop().unwrap_or_default()
}

/// The text of the cursor row: the row drawn with a background or in
/// reverse video (without colour), the status bar excluded.
fn cursor_row(s: &vt100::Screen) -> Option<String> {
    let (height, width) = s.size();
    let (height, width) = (height.get(), width.get());
    (0..height.saturating_sub(1))
        .find(|&y| {
            s.cell(y, 0)
                .is_some_and(|c| c.inverse() || c.bgcolor() != vt100::Color::Default)
        })
        .map(|y| s.contents_between(y, 0, y, width))
}

/// Types `keys` and waits until the first row holds `text`, and the cursor
/// is on it when the cursor can be seen (without colour it cannot, yet).
fn jump(viewer: &mut Viewer, keys: &[u8], text: &str) {
    viewer.send(keys);
    viewer.wait_until(text, TIMEOUT, |s| {
        first_row(s).contains(text) && cursor_row(s).is_none_or(|row| row.contains(text))
    });
}

#[test]
fn counts_and_jumps_reach_failures_messages_lines_and_turns() {
    for cols in WIDTHS {
        for (env, args) in variants() {
            eprintln!("{cols} columns, {env:?} {args:?}");
            let mut viewer = start(cols, env, args);
            jump(&mut viewer, b"gx", "✗ cargo_check");
            assert!(
                first_row(&viewer.screen()).contains("cargo_check"),
                "{cols}: at the top"
            );
            jump(&mut viewer, b")", "tell_user");
            jump(&mut viewer, b"(", "tell_user");
            viewer.send(b"(");
            viewer.wait_until("no earlier message", TIMEOUT, |s| {
                status(s).contains("no earlier")
            });
            jump(&mut viewer, b"2t", "turn 2");
            jump(&mut viewer, b"1G", "turn 1");
            // Line 3 of the conversation is the user's label.
            jump(&mut viewer, b"3G", "Jean Mertz");
            viewer.send(b"9t");
            viewer.wait_until("the turn count", TIMEOUT, |s| {
                status(s).contains("no turn 9")
            });
            viewer.quit();
        }
    }
}

#[test]
fn search_backward_counts_matches_and_recalls_queries() {
    for cols in WIDTHS {
        for (env, args) in variants() {
            eprintln!("{cols} columns, {env:?} {args:?}");
            let mut viewer = start(cols, env, args);
            // `H help` gives way first: at 80 columns this title leaves no room.
            if cols >= 120 {
                assert!(status(&viewer.screen()).contains("H help"), "{cols}");
            }
            jump(&mut viewer, b"g/cargo_check\r", "✗ cargo_check");
            if cols >= 80 {
                viewer.wait_until("match 1/3", TIMEOUT, |s| status(s).contains("match 1/3"));
            }
            // ↑ in the `?` prompt brings the query back; backward from the
            // first match wraps to the last one.
            viewer.send(b"?\x1b[A");
            viewer.wait_until("the recalled query", TIMEOUT, |s| {
                status(s).starts_with(" ?cargo_check")
            });
            viewer.send(b"\r");
            viewer.wait_until("the wrap to the bottom", TIMEOUT, |s| {
                status(s).contains("wrapped to the bo")
                    && cursor_row(s).is_none_or(|row| row.contains("◌ cargo_check"))
            });
            // After `?`, n goes on upward and N down again.
            viewer.send(b"n");
            viewer.wait_until("n going up", TIMEOUT, |s| {
                !status(s).contains("wrapped")
                    && cursor_row(s).is_none_or(|row| !row.contains("◌"))
                    && (cols < 80 || status(s).contains("match 2/3"))
            });
            viewer.send(b"N");
            viewer.wait_until("N going down", TIMEOUT, |s| {
                cursor_row(s).is_none_or(|row| row.contains("◌ cargo_check"))
                    && (cols < 80 || status(s).contains("match 3/3"))
            });
            viewer.send(b"H");
            viewer.wait_until("the help", TIMEOUT, |s| s.contents().contains("help"));
            viewer.send(b"G");
            viewer.wait_until("the end of the help", TIMEOUT, |s| {
                s.contents().contains("search, then goes back.")
            });
            viewer.send(b"q");
            std::thread::sleep(std::time::Duration::from_millis(100));
            viewer.quit();
        }
    }
}

#[test]
fn eve_action_errors_show_their_code_and_message_in_the_viewer() {
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/eve/update-errors.ndjson"
    );
    for cols in WIDTHS {
        let tmp = std::env::temp_dir();
        let mut cmd = Viewer::command(&tmp, &tmp.join("overhear-no-user-data"));
        cmd.arg(fixture);
        let mut viewer = Viewer::start(cmd, 40, cols);
        let flat = |s: &vt100::Screen| {
            s.contents()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        };
        let screen = viewer.wait_until("the errors", TIMEOUT, |s| {
            let text = flat(s);
            text.contains("PERMISSION_DENIED: /srv is read-only")
                && text.contains("not delivered: CHANNEL_ARCHIVED: The channel #eng is archived")
        });
        // Styled as an error: the code is drawn in the colour of the failed
        // card's `✗` header.
        let (rows_n, width) = screen.size();
        let find = |needle: &str| {
            (0..rows_n.get()).find_map(|y| {
                let row = screen.contents_between(y, 0, y, width.get());
                row.find(needle)
                    .map(|x| (y, row[..x].chars().count() as u16))
            })
        };
        let (ey, ex) = find("PERMISSION_DENIED").unwrap();
        let error = screen.cell(ey, ex).unwrap().fgcolor();
        assert_eq!(
            error,
            screen
                .cell(find("✗ fs_write_file").unwrap().0, 0)
                .unwrap()
                .fgcolor(),
            "{cols}: the code in the error colour of the failed header"
        );
        viewer.send(b"v");
        viewer.wait_until("the user view", TIMEOUT, |s| {
            flat(s).contains("not delivered: CHANNEL_ARCHIVED")
        });
        viewer.quit();
    }
}

#[test]
fn cards_the_policy_cuts_or_hides_say_so_and_enter_shows_them_in_place() {
    let policy = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/jp/policy");
    for cols in WIDTHS {
        for (env, args) in variants() {
            eprintln!("{cols} columns, {env:?} {args:?}");
            let tmp = std::env::temp_dir();
            let mut cmd = Viewer::command(&tmp, &tmp.join("overhear-no-user-data"));
            cmd.arg(policy);
            cmd.args(args);
            for (key, value) in env {
                cmd.env(key, value);
            }
            let mut viewer = Viewer::start(cmd, 40, cols);
            let flat = |s: &vt100::Screen| {
                s.contents()
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            viewer.wait_until("the first frame", TIMEOUT, |s| s.alternate_screen());
            // The first card's results are all hidden: it is drawn folded.
            jump(&mut viewer, b"g}", "▸ off_off");
            assert!(
                flat(&viewer.screen()).contains("15 lines hidden by policy (Enter shows)"),
                "{cols}"
            );
            // Enter shows the 15 lines in the card; Enter again hides them.
            viewer.send(b"\r");
            viewer.wait_until("the hidden lines", TIMEOUT, |s| {
                let text = flat(s);
                text.contains("● off_off · 1s │ line 1 │ line 2")
                    && text.contains("│ line 15 ● u10_aoff")
            });
            viewer.send(b"\r");
            viewer.wait_until("the card folded back", TIMEOUT, |s| {
                flat(s).contains("▸ off_off · 1s · 15 lines hidden by policy")
            });
            // A card cut to 10 lines says Enter shows the rest, and it does.
            jump(&mut viewer, b"}", "u10_aoff");
            let text = flat(&viewer.screen()).replace("│ ", "");
            assert!(
                text.contains("… 5 more lines not shown (Enter shows)"),
                "{text}"
            );
            viewer.send(b"\r");
            viewer.wait_until("the cut lines", TIMEOUT, |s| {
                let text = flat(s);
                text.contains("│ line 10 │ line 11") && text.contains("│ line 15")
            });
            viewer.quit();
        }
    }
    // `render` has no Enter: it says what the policy hides and no more.
    let out = std::process::Command::new(common::pty::OVERHEAR)
        .args(["render", "--color", "never", "--width", "80", policy])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("● off_off · 1s · 15 lines hidden by policy\n"),
        "{text}"
    );
    assert!(text.contains("… 5 more lines not shown\n") && !text.contains("Enter"));
}

/// `secs` after the epoch as `YYYY-MM-DDTHH:MM:SSZ`, by `date -u`.
fn rfc3339(secs: u64) -> String {
    let out = std::process::Command::new("date")
        .args(["-u", "-d", &format!("@{secs}"), "+%Y-%m-%dT%H:%M:%SZ"])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

#[test]
fn turn_rules_count_the_running_turn_and_time_ended_ones_on_one_clock() {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let started = rfc3339(now - 65);
    let dir = tempfile::tempdir().unwrap();
    let stream = dir.path().join("running.ndjson");
    let lines = [
        format!(
            r#"{{"type":"session.started","data":{{}},"meta":{{"id":"e1","at":"{started}"}}}}"#
        ),
        format!(
            r#"{{"type":"turn.started","data":{{"sequence":0,"turnId":"t0"}},"meta":{{"id":"e2","at":"{started}"}}}}"#
        ),
        format!(
            r#"{{"type":"message.received","data":{{"message":"Count.","sequence":0,"turnId":"t0"}},"meta":{{"id":"e3","at":"{started}"}}}}"#
        ),
    ];
    std::fs::write(&stream, lines.join("\n") + "\n").unwrap();
    for cols in WIDTHS {
        let mut cmd = Viewer::command(dir.path(), &dir.path().join("no-user-data"));
        cmd.arg(&stream);
        let mut viewer = Viewer::start(cmd, 20, cols);
        let rule = |s: &vt100::Screen| first_row(s);
        let first = viewer.wait_until("the running turn", TIMEOUT, |s| {
            rule(s).contains("running 1m0") || rule(s).contains("running 1m1")
        });
        let before = rule(&first);
        // Updated every second while the viewer waits.
        viewer.wait_until("the next second", TIMEOUT, |s| {
            rule(s).contains("running 1m") && rule(s) != before
        });
        // One clock: the rule says UTC, and the status bar's time is the
        // same clock: the file was written at `now` (`date -u`, to the minute).
        if cols >= 80 {
            let screen = viewer.screen();
            assert!(
                rule(&screen).contains(" UTC · running"),
                "{cols}: {}",
                rule(&screen)
            );
            let minute = rfc3339(now)[11..16].to_string();
            let later = rfc3339(now + 60)[11..16].to_string();
            let bar = status(&screen);
            assert!(
                bar.contains(&minute) || bar.contains(&later),
                "{cols}: {bar}"
            );
        }
        viewer.quit();
    }
    // A turn that ended shows how long it took, in the viewer and in render.
    for cols in WIDTHS {
        let mut viewer = start(cols, &[], &[]);
        jump(&mut viewer, b"g", "turn 1");
        assert!(first_row(&viewer.screen()).contains("UTC · 20s"), "{cols}");
        viewer.quit();
    }
}

/// What the viewer asked the terminal for besides drawing: bells and OSC 9 /
/// OSC 777 notifications (their parameters).
#[derive(Default)]
struct Notifications {
    bells: usize,
    osc: Vec<Vec<String>>,
}

impl vt100::Callbacks for Notifications {
    fn audible_bell(&mut self, _: &mut vt100::Screen) {
        self.bells += 1;
    }

    fn unhandled_osc(&mut self, _: &mut vt100::Screen, params: &[&[u8]]) {
        let params: Vec<String> = params
            .iter()
            .map(|p| String::from_utf8_lossy(p).into_owned())
            .collect();
        if matches!(params.first().map(String::as_str), Some("9" | "777")) {
            self.osc.push(params);
        }
    }
}

/// The `current` fixture's first `n` events, then copies of turn 2 as turn 3,
/// written the way JP writes (a temp file renamed over `events.json`).
fn write_turns(dir: &Path, n: usize) {
    let all: Vec<serde_json::Value> =
        serde_json::from_slice(&std::fs::read(Path::new(CURRENT).join("events.json")).unwrap())
            .unwrap();
    let mut events: Vec<serde_json::Value> = all.iter().take(n).cloned().collect();
    if n > all.len() {
        events.extend(all[21..].iter().cloned());
    }
    let tmp = dir.join("events.json.tmp");
    std::fs::write(&tmp, serde_json::to_vec_pretty(&events).unwrap()).unwrap();
    std::fs::rename(tmp, dir.join("events.json")).unwrap();
}

/// The viewer with `args` on a copy of the `current` fixture holding turn 1,
/// recording notifications.
fn notifying_viewer(tmp: &Path, args: &[&str]) -> common::pty::Pty<Notifications> {
    let dir = tmp.join("17760760747-notify");
    std::fs::create_dir_all(&dir).unwrap();
    for file in ["base_config.json", "metadata.json"] {
        std::fs::copy(Path::new(CURRENT).join(file), dir.join(file)).unwrap();
    }
    write_turns(&dir, 21);
    let mut cmd = Viewer::command(tmp, &tmp.join("no-user-data"));
    cmd.arg(&dir);
    cmd.args(args);
    let pty = common::pty::run_in_pty(cmd, 24, 80, Notifications::default());
    pty.wait_until("turn 1/1", |p| p.screen().contents().contains("turn 1/1"));
    pty
}

fn told(pty: &common::pty::Pty<Notifications>) -> (usize, Vec<Vec<String>>) {
    let parser = pty.screen.lock().unwrap();
    (parser.callbacks().bells, parser.callbacks().osc.clone())
}

#[test]
fn notify_rings_and_sends_osc_9_and_777_only_when_the_user_is_not_looking() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("17760760747-notify");
    let mut pty = notifying_viewer(tmp.path(), &["--notify"]);
    // Focused and following: turn 2 begins (turn 1 ends) and nothing is sent.
    write_turns(&dir, 24);
    pty.wait_until("turn 2", |p| p.screen().contents().contains("/2 "));
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(told(&pty), (0, Vec::new()), "the user is looking");
    // The window loses the focus (the terminal reports CSI O): turn 3 begins.
    pty.writer.write_all(b"\x1b[O").unwrap();
    pty.writer.flush().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(200));
    write_turns(&dir, 99);
    pty.wait_until("the notification", |p| p.callbacks().osc.len() >= 2);
    let (bells, osc) = told(&pty);
    assert_eq!(bells, 1);
    let text = &osc[0][1];
    // Turn 2 ended when turn 3 began (with no agent's lock on the copy, the
    // conversation counts as finished and turn 3 as ended too).
    assert!(
        text.starts_with("overhear: turn ") && text.contains(" ended — Missing date"),
        "{osc:?}"
    );
    assert!(text.chars().count() <= 80);
    assert_eq!(osc[0], ["9", text.as_str()]);
    assert_eq!(osc[1], ["777", "notify", "overhear", text.as_str()]);
    pty.writer.write_all(b"q").unwrap();
    pty.writer.flush().unwrap();

    // Without --notify: the same in an unfocused window sends nothing.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("17760760747-notify");
    let mut pty = notifying_viewer(tmp.path(), &[]);
    pty.writer.write_all(b"\x1b[O").unwrap();
    pty.writer.flush().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(200));
    write_turns(&dir, 24);
    pty.wait_until("turn 2", |p| p.screen().contents().contains("/2 "));
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(told(&pty), (0, Vec::new()), "off by default");
    pty.writer.write_all(b"q").unwrap();
    pty.writer.flush().unwrap();
}
