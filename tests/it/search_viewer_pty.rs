//! The search over every session from the viewer (docs/tui.md, "Searching
//! every session"), in a real pseudo-terminal: `S` opens its prompt, Enter
//! searches the sessions of a fake HOME in the background, the hits stream
//! into a list (agent, project, title, turn, kind, the line with the match
//! marked), Enter opens the hit's session at its turn with the match
//! highlighted, and `Esc` comes back to the list.

use std::path::Path;
use std::time::Duration;

use crate::common::home::FakeHome;
use crate::common::pty::{Viewer, rows};

const TIMEOUT: Duration = Duration::from_secs(20);

/// A project folder and a home with two Claude Code sessions of it: the
/// older one says `zanzibar-planted` in its third turn, among enough other
/// turns that it is not on the first screen; the newer one (opened first)
/// does not.
struct Setup {
    home: FakeHome,
}

fn record(kind: &str, uuid: &str, n: usize, text: &str, cwd: &Path) -> String {
    let message = if kind == "user" {
        serde_json::json!({"role": "user", "content": text})
    } else {
        serde_json::json!({"id": format!("m{uuid}"), "role": "assistant", "model": "claude-x",
            "content": [{"type": "text", "text": text}]})
    };
    serde_json::json!({"type": kind, "uuid": uuid, "sessionId": "s",
        "timestamp": format!("2026-01-22T10:{:02}:00.000Z", n),
        "cwd": cwd.to_string_lossy(), "message": message})
    .to_string()
        + "\n"
}

impl Setup {
    fn new() -> Setup {
        let home = FakeHome::new();
        let (project, claude) = (home.project.clone(), home.claude_folder());
        let mut older = String::new();
        for turn in 1..=6 {
            let prompt = if turn == 3 {
                "Where is zanzibar-planted used?".to_owned()
            } else {
                format!("Question number {turn}")
            };
            older.push_str(&record(
                "user",
                &format!("u{turn}"),
                turn,
                &prompt,
                &project,
            ));
            let long = format!(
                "Answer {turn}.\n\n{}",
                "A line of the answer.\n\n".repeat(12)
            );
            older.push_str(&record(
                "assistant",
                &format!("a{turn}"),
                turn,
                &long,
                &project,
            ));
        }
        let older_path = claude.join("0000older.jsonl");
        std::fs::write(&older_path, older).expect("written");
        let past = std::time::SystemTime::now() - Duration::from_secs(3600);
        std::fs::File::options()
            .write(true)
            .open(&older_path)
            .and_then(|f| f.set_modified(past))
            .expect("dated");
        let newer = record("user", "n1", 1, "Something else entirely", &project)
            + &record("assistant", "n2", 2, "The newer session answers.", &project);
        std::fs::write(claude.join("1111newer.jsonl"), newer).expect("written");
        Setup { home }
    }

    fn viewer(&self, cols: u16) -> Viewer {
        Viewer::start(command(&self.home), 24, cols)
    }
}

/// The viewer run in `home`'s project with `HOME` set to it and no
/// variable that moves an agent's home elsewhere.
fn command(home: &FakeHome) -> portable_pty::CommandBuilder {
    let mut cmd = Viewer::command(&home.project, &home.home.join("jp"));
    cmd.env("HOME", &home.home);
    for var in [
        "CODEX_HOME",
        "CLAUDE_CONFIG_DIR",
        "XDG_CONFIG_HOME",
        "COPILOT_HOME",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

#[test]
fn a_hit_found_from_the_viewer_opens_at_its_turn_and_esc_comes_back() {
    let setup = Setup::new();
    for cols in [80u16, 40] {
        let mut viewer = setup.viewer(cols);
        viewer.wait_for_text("The newer session answers.");
        viewer.send(b"S");
        viewer.wait_for_text("Search every");
        viewer.send(b"zanzibar-planted\r");
        let screen = viewer.wait_until("the hit listed", TIMEOUT, |s| {
            s.contents().contains("1 hit in ") && s.contents().contains("zanzibar-planted")
        });
        let list = rows(&screen);
        let heading = list
            .iter()
            .position(|row| row.starts_with(" claude"))
            .unwrap_or_else(|| panic!("{cols}: a session heading: {list:#?}"));
        assert!(list[heading].contains("app"), "{cols}: {list:#?}");
        assert!(
            list[heading].contains("Question number"),
            "{cols}: {list:#?}"
        );
        let hit = &list[heading + 1];
        assert!(hit.starts_with("    3  prompt  "), "{cols}: {hit}");
        assert!(hit.contains("zanzibar-planted"), "{cols}: {hit}");
        for row in &list {
            assert!(row.chars().count() <= usize::from(cols), "{cols}: {row}");
        }
        // The match is marked in the list.
        let y = u16::try_from(heading + 1).unwrap();
        let x = u16::try_from(hit.find("zanzibar").unwrap()).unwrap();
        let cell = screen.cell(y, x).expect("the match's cell");
        assert!(
            cell.bold() || cell.underline() || cell.bgcolor() != vt100::Color::Default,
            "{cols}: the match is marked"
        );

        // Enter opens the older session at turn 3, the match highlighted.
        viewer.send(b"\r");
        let screen = viewer.wait_until("the hit's turn", TIMEOUT, |s| {
            !s.contents().contains("Search every") && s.contents().contains("turn 3/6")
        });
        let text = screen.contents();
        assert!(text.contains("zanzibar-planted"), "{cols}: {text}");
        // The match is highlighted (the bar has room to count it at 80).
        let top = rows(&screen);
        let y = top
            .iter()
            .position(|row| row.contains("zanzibar-planted"))
            .unwrap();
        let x = top[y].find("zanzibar").unwrap();
        let cell = screen.cell(y as u16, x as u16).expect("the match's cell");
        assert!(cell.bold() || cell.underline() || cell.bgcolor() != vt100::Color::Default);
        if cols == 80 {
            assert!(text.contains("match 1/1"), "{cols}: {text}");
        }
        assert!(
            !text.contains("The newer session answers."),
            "{cols}: {text}"
        );

        // Esc clears the highlights, Esc again comes back to the list.
        viewer.send(b"\x1b");
        std::thread::sleep(Duration::from_millis(200));
        viewer.send(b"\x1b");
        viewer.wait_until("the list again", TIMEOUT, |s| {
            s.contents().contains("Search every") && s.contents().contains("1 hit in ")
        });
        // Esc in the list goes back to the conversation; q quits.
        viewer.send(b"\x1b");
        viewer.wait_until("the conversation", TIMEOUT, |s| {
            !s.contents().contains("Search every")
        });
        viewer.quit();
    }
}

#[test]
fn the_picker_opens_the_search_with_ctrl_s_and_nothing_found_says_so() {
    let setup = Setup::new();
    let mut viewer = setup.viewer(80);
    viewer.wait_for_text("The newer session answers.");
    viewer.send(b"p");
    viewer.wait_for_text("Conversations (2)");
    viewer.send(b"\x13");
    viewer.wait_for_text("Search every");
    viewer.send(b"no-such-word-anywhere\r");
    viewer.wait_until("the search's end", TIMEOUT, |s| {
        s.contents().contains("0 hits in 2 sessions")
    });
    viewer.send(b"\x1b");
    viewer.wait_until("the conversation", TIMEOUT, |s| {
        !s.contents().contains("Search every")
    });
    viewer.quit();
}

/// A hit is opened at itself, not at the first match of its turn: the
/// pattern twice in one reply, the second hit chosen, the cursor on the
/// second line with `match 2/2`.
#[test]
fn the_second_hit_of_a_turn_opens_at_the_second_match() {
    let home = FakeHome::new();
    let (project, claude) = (home.project.clone(), home.claude_folder());
    let reply = format!(
        "The first zebra is striped.\n\n{}The second zebra is spotted.",
        "A line between them.\n\n".repeat(3)
    );
    let session = record("user", "u1", 1, "Tell me of animals", &project)
        + &record("assistant", "a1", 1, &reply, &project)
        + &record("user", "u2", 2, "Thanks", &project)
        + &record("assistant", "a2", 2, "You are welcome.", &project);
    std::fs::write(claude.join("2222zebra.jsonl"), session).expect("written");
    let mut cmd = command(&home);
    cmd.env("COLORTERM", "truecolor");
    let mut viewer = Viewer::start(cmd, 24, 80);
    viewer.wait_for_text("You are welcome.");
    viewer.send(b"S");
    viewer.wait_for_text("Search every");
    viewer.send(b"zebra\r");
    viewer.wait_until("both hits listed", TIMEOUT, |s| {
        s.contents().contains("2 hits in ") && s.contents().contains("second zebra")
    });
    viewer.send(b"\x1b[B\r");
    let cursor = vt100::Color::Rgb(0x28, 0x2c, 0x34);
    let screen = viewer.wait_until("the second match under the cursor", TIMEOUT, |s| {
        let shown = rows(s);
        let under: Vec<&String> = shown
            .iter()
            .enumerate()
            .filter(|(y, _)| {
                s.cell(u16::try_from(*y).unwrap(), 0)
                    .is_some_and(|c| c.bgcolor() == cursor)
            })
            .map(|(_, row)| row)
            .collect();
        !s.contents().contains("Search every")
            && under.len() == 1
            && under[0].contains("second zebra")
    });
    assert!(
        screen.contents().contains("match 2/2"),
        "{}",
        screen.contents()
    );
    viewer.quit();
}

/// A hit whose session is gone by the time it is opened: the list stays,
/// its second row saying why (the status bar, which would say it, is not
/// on screen), until the next key.
#[test]
fn a_hit_whose_session_is_gone_says_so_on_the_list() {
    let setup = Setup::new();
    let mut viewer = setup.viewer(80);
    viewer.wait_for_text("The newer session answers.");
    viewer.send(b"S");
    viewer.wait_for_text("Search every");
    viewer.send(b"zanzibar-planted\r");
    viewer.wait_until("the hit listed", TIMEOUT, |s| {
        s.contents().contains("1 hit in ")
    });
    std::fs::remove_file(setup.home.claude_folder().join("0000older.jsonl")).expect("removed");
    viewer.send(b"\r");
    let screen = viewer.wait_until("why it was not opened", TIMEOUT, |s| {
        s.contents().contains("not opened: ")
    });
    let list = rows(&screen);
    assert!(list[0].contains("Search every"), "{list:#?}");
    assert!(
        list[1].contains("0000older.jsonl: no such file"),
        "{list:#?}"
    );
    assert!(list[3].contains("zanzibar-planted"), "{list:#?}");
    viewer.send(b"\x1b[A");
    viewer.wait_until("the note gone with the next key", TIMEOUT, |s| {
        !s.contents().contains("not opened: ") && s.contents().contains("Search every")
    });
    viewer.send(b"\x1b");
    viewer.wait_until("the conversation", TIMEOUT, |s| {
        !s.contents().contains("Search every")
    });
    viewer.quit();
}
