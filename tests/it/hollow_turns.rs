//! A conversation opened at its end keeps decoded only the turns near its
//! view once it read them all: the others are emptied of their texts again
//! and decoded when they are shown, searched or built again
//! (`Live::hollow_far_from`). Nothing visible may differ from a
//! conversation read whole: each frame is compared byte for byte, with the
//! same keys pressed, against a viewer on a full read of the same file.
//! The budget is made small (256 KiB of entries) so that a 4 MB
//! conversation is emptied as a 1 GB one is at the real budget.

use crate::common;
use crate::common::generate;

use std::path::{Path, PathBuf};

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use overhear::load::Live;
use overhear::source::ConversationDir;
use overhear::tui::{AppEvent, Blocks};
use ratatui::buffer::Buffer;
use serde_json::json;

use common::frames::{Viewer, assert_same, text};

/// The most bytes of entries the viewers here keep decoded.
const BUDGET: usize = 256 << 10;

/// A generated conversation of about 4 MB, with a word found only in its
/// first turn, one only in a turn in its middle, and a reply of 350 KB in
/// its second turn.
fn conversation(parent: &Path) -> (PathBuf, Vec<u8>, usize) {
    let mut events = generate::conversation_events(4 << 20);
    events[1]["content"] = json!("Read the zanzibar parser first.");
    let middle = events.len() / 2;
    let request = (middle..events.len())
        .find(|&i| events[i]["type"] == "chat_request")
        .unwrap();
    events[request]["content"] = json!("Now the quokka tokenizer, please.");
    // A reply too long for one block: it is cut into pieces by its text,
    // so that building its turn's blocks reads the text.
    let reply = (0..events.len())
        .skip(10)
        .find(|&i| events[i]["type"] == "chat_response" && events[i]["message"].is_string())
        .unwrap();
    let long: String = (0..12000)
        .map(|n| format!("Line {n} of a long reply.\n\n"))
        .collect();
    events[reply]["message"] = json!(long);
    let turns = generate::turns_in(&events);
    let stored = generate::stored(&events);
    (generate::write_conversation(parent, &stored), stored, turns)
}

/// A viewer on `dir` opened at its end, keeping [`BUDGET`] decoded.
fn at_end_keeping_little(dir: &Path, width: u16, height: u16) -> Viewer {
    let mut live = Live::open_jp_at_end(ConversationDir::new(dir), None).expect("readable");
    live.set_resident_budget(BUDGET);
    Viewer::new(live, width, height)
}

/// Presses `keys` in both viewers and compares the frames after each.
fn same_after(emptied: &mut Viewer, whole: &mut Viewer, steps: &[&str]) {
    for keys in steps {
        emptied.keys(keys);
        whole.keys(keys);
        assert_same(&emptied.frame(), &whole.frame(), keys);
        let (blocks, all) = (emptied.app.document().len(), whole.app.document().len());
        assert_eq!(
            blocks, all,
            "{keys}: the blocks built (a long reply's pieces)"
        );
    }
}

#[test]
fn turns_far_from_the_view_are_emptied_and_every_frame_is_a_full_reads() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, _, turns) = conversation(tmp.path());
    for (width, height) in [(40, 30), (120, 40)] {
        let mut whole = Viewer::whole(&dir, width, height);
        let mut emptied = at_end_keeping_little(&dir, width, height);
        assert_same(&emptied.frame(), &whole.frame(), "the end");
        same_after(&mut emptied, &mut whole, &["g"]);
        assert_eq!(emptied.earlier(), 0, "every turn read");
        let hollow = (0..turns)
            .filter(|&t| emptied.app.document().source().is_hollow(t))
            .count();
        assert!(
            hollow > turns / 2,
            "most turns emptied again ({hollow} of {turns})"
        );
        same_after(
            &mut emptied,
            &mut whole,
            &[
                "G",
                "g",
                "]]]",
                "5j",
                "\u{2193}\u{2193}\u{2193}",
                "G",
                "\u{2191}\u{2191}",
                "xX",
                "g",
            ],
        );
    }
}

#[test]
fn a_search_finds_text_in_an_emptied_turn_and_counts_as_a_full_read() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, _, _) = conversation(tmp.path());
    let mut whole = Viewer::whole(&dir, 100, 30);
    let mut emptied = at_end_keeping_little(&dir, 100, 30);
    emptied.frame();
    whole.frame();
    same_after(&mut emptied, &mut whole, &["g", "G"]);
    same_after(&mut emptied, &mut whole, &["/quokka\n"]);
    let found = text(&emptied.frame());
    assert!(
        found.contains("quokka tokenizer"),
        "the middle turn is found:\n{found}"
    );
    same_after(
        &mut emptied,
        &mut whole,
        &["?zanzibar\n", "n", "/parse\n", "n", "N"],
    );
    let counted = text(&emptied.frame());
    assert!(
        counted.contains("match "),
        "the status bar counts:\n{counted}"
    );
}

#[test]
fn another_view_and_a_turn_appended_are_built_from_emptied_turns_as_from_a_full_read() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, stored, turns) = conversation(tmp.path());
    let mut emptied = at_end_keeping_little(&dir, 100, 30);
    let mut whole = Viewer::whole(&dir, 100, 30);
    // `v` at the end: the long reply's turn, at the top, is emptied.
    same_after(
        &mut emptied,
        &mut whole,
        &["g", "G", "v", "g", "G", "v", "v"],
    );
    // JP's rewrite: a new file renamed over the old one, one more turn.
    let turn = generate::turn_events(7, turns);
    let longer = generate::appended(&stored, &turn);
    common::pty::replace(&dir, &dir.join("events.json"), &longer);
    emptied.reload();
    let mut whole = Viewer::whole(&dir, 100, 30);
    whole.keys("vvv");
    same_after(&mut emptied, &mut whole, &["G", "g", "/zanzibar\n"]);
    assert_eq!(
        emptied.app.document().event_count(),
        whole.app.document().event_count()
    );
}

/// [`conversation`] in `parent`, in a viewer 100×30 keeping little that
/// went to the top and back to the end: turn 1 is emptied.
fn first_turn_emptied(parent: &Path) -> (PathBuf, Vec<u8>, Viewer) {
    let (dir, stored, _) = conversation(parent);
    let mut emptied = at_end_keeping_little(&dir, 100, 30);
    emptied.keys("gG");
    assert!(
        emptied.app.document().source().is_hollow(0),
        "turn 1 emptied"
    );
    (dir, stored, emptied)
}

#[test]
fn an_emptied_turn_changed_in_place_makes_the_file_read_whole_with_a_note() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, stored, mut emptied) = first_turn_emptied(tmp.path());
    // Not JP's rename: the same file written again in place, its first
    // request now of a type overhear does not know (the same length).
    let changed =
        String::from_utf8(stored)
            .unwrap()
            .replacen("\"chat_request\"", "\"chat_reqvest\"", 1);
    std::fs::write(dir.join("events.json"), changed).unwrap();
    emptied.keys("g");
    emptied.frame();
    emptied.app.handle(AppEvent::Tick);
    let noted = text(&emptied.frame());
    assert!(
        noted.contains("changed in place since it was read: read again whole"),
        "the status bar says why:\n{noted}"
    );
    emptied.keys("g");
    let mut whole = Viewer::whole(&dir, 100, 30);
    whole.keys("g");
    // The note stays in the status bar: above it, the file as it is now.
    let above = |frame: &Buffer| {
        let text = text(frame);
        let lines: Vec<&str> = text.lines().collect();
        lines[..lines.len() - 1].join("\n")
    };
    assert_eq!(above(&emptied.frame()), above(&whole.frame()));
    assert_eq!(
        emptied.app.document().len(),
        whole.app.document().len(),
        "every block built anew"
    );
}

#[test]
fn an_emptied_turn_that_cannot_be_read_again_says_so_instead_of_showing_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, stored, mut emptied) = first_turn_emptied(tmp.path());
    // Not JP's rename: the file cut short in place, inside its first
    // request's text (an editor, a full disk).
    let cut = stored
        .windows(9)
        .position(|w| w == b"zanzibar ")
        .expect("turn 1's request");
    std::fs::write(dir.join("events.json"), &stored[..cut]).unwrap();
    emptied.keys("g");
    let top = text(&emptied.frame());
    assert!(
        top.contains(
            "⚠ not readable again: events.json: shorter than when it was read: cut short in place"
        ),
        "turn 1's blocks say why they show nothing:\n{top}"
    );
    assert!(top.contains("turn 1"), "its rule is shown:\n{top}");
    // The file read whole at the next tick fails too: the turn still says
    // why, and the status bar says what is wrong with the file.
    emptied.app.handle(AppEvent::Tick);
    let top = text(&emptied.frame());
    assert!(top.contains("⚠ not readable again"), "{top}");
    assert!(top.contains("cut short"), "the status bar:\n{top}");
    assert!(
        !overhear::tui::blocks::Follow::polls(emptied.app.document()),
        "not read whole again at each tick while the file is as it was"
    );
    // JP writes the file again (a rename): every turn is shown again.
    common::pty::replace(&dir, &dir.join("events.json"), &stored);
    emptied.reload();
    emptied.app.handle(AppEvent::Tick);
    emptied.keys("g");
    let top = text(&emptied.frame());
    assert!(!top.contains("not readable"), "{top}");
    assert!(top.contains("zanzibar parser"), "{top}");
}

#[test]
fn another_view_is_built_between_keys_and_esc_keeps_the_view_there_was() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, _, _) = conversation(tmp.path());
    let mut emptied = at_end_keeping_little(&dir, 100, 30);
    let mut whole = Viewer::whole(&dir, 100, 30);
    same_after(&mut emptied, &mut whole, &["g", "G"]);
    let v = KeyEvent::new(KeyCode::Char('v'), KeyModifiers::NONE);
    emptied.app.handle(AppEvent::Terminal(Event::Key(v)));
    assert!(
        emptied.app.is_reading(),
        "the view is built a step at a time"
    );
    let note = text(&emptied.frame());
    assert!(
        note.contains("changing the view… 0% · Esc cancels"),
        "{note}"
    );
    let esc = KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE);
    emptied.app.handle(AppEvent::Terminal(Event::Key(esc)));
    assert!(!emptied.app.is_reading());
    let note = text(&emptied.frame());
    assert!(
        note.contains("view: terminal (stopped changing it)"),
        "{note}"
    );
    assert_eq!(emptied.app.document().view_name(), "terminal");
    // The same as a full read that never changed its view; then `v` goes
    // through.
    same_after(&mut emptied, &mut whole, &["j", "v", "g", "G"]);
    assert_eq!(emptied.app.document().view_name(), "user");
}

#[test]
fn a_last_turn_emptied_then_written_on_is_shown_as_a_full_read_shows_it() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, stored, turns) = conversation(tmp.path());
    let mut emptied = at_end_keeping_little(&dir, 100, 30);
    emptied.keys("gGg");
    assert!(
        emptied.app.document().source().is_hollow(turns - 1),
        "the last turn emptied, the view at the top"
    );
    // The agent goes on with the last turn: JP's rewrite, one more reply.
    let reply = json!({"timestamp": "2026-05-01 11:00:00.1", "type": "chat_response",
        "message": "And one more thing about the quokka tokenizer."});
    let longer = generate::appended(&stored, &[reply]);
    common::pty::replace(&dir, &dir.join("events.json"), &longer);
    emptied.reload();
    let mut whole = Viewer::whole(&dir, 100, 30);
    whole.keys("g");
    // The last turn decoded again (its stored part), emptied again, and
    // decoded again, with the reply written since.
    same_after(
        &mut emptied,
        &mut whole,
        &["G", "g", "G", "/one more thing\n"],
    );
    let end = text(&emptied.frame());
    assert!(end.contains("one more thing about the quokka"), "{end}");
    // Without a detour through a read of the whole file.
    emptied.app.handle(AppEvent::Tick);
    let end = text(&emptied.frame());
    assert!(!end.contains("read again whole"), "{end}");
    assert!(
        emptied.app.document().source().is_hollow(0),
        "still emptied"
    );
}
