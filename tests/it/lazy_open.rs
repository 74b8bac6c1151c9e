//! The viewer opens a JP conversation at its end: read in
//! outline, only its last turns decoded, the earlier ones as the view comes
//! near them or a key needs the whole conversation. Nothing visible may
//! differ from a conversation read whole: each frame here is compared byte
//! for byte (cells and styles, status bar included) with the same keys
//! pressed in a viewer on a full read of the same file.

use crate::common;
use crate::common::generate;

use std::path::{Path, PathBuf};

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use overhear::load::Live;
use overhear::source::ConversationDir;
use overhear::tui::{AppEvent, Blocks, EarlierTurns, Follow};
use serde_json::{Value, json};

use common::frames::{Viewer, assert_same, text};

/// A generated conversation of about `mb` MB whose turns state their tokens
/// (the status bar's totals) and whose first turn asks a question.
fn conversation(parent: &Path, bytes: usize) -> (PathBuf, Vec<u8>, usize) {
    let mut events = generate::conversation_events(bytes);
    for event in events.iter_mut() {
        if event["type"] == "turn_start" {
            event["metadata"] =
                json!({"overhear.turn": {"input_tokens": 1200, "output_tokens": 34}});
        }
    }
    let question = json!({"timestamp": "2026-05-01 10:00:00.9", "type": "inquiry_request",
        "id": "q-1", "source": {"source": "assistant"},
        "question": {"text": "Shall I read the zanzibar parser first?"}});
    events.insert(2, question);
    let turns = generate::turns_in(&events);
    let stored = generate::stored(&events);
    (generate::write_conversation(parent, &stored), stored, turns)
}

#[test]
fn the_first_screen_is_a_full_reads_at_every_width_and_the_counts_are_exact_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, _, turns) = conversation(tmp.path(), 4 << 20);
    for (width, height) in [(40, 30), (80, 24), (200, 60)] {
        let mut whole = Viewer::whole(&dir, width, height);
        let mut lazy = Viewer::at_end(&dir, width, height);
        let frame = lazy.frame();
        assert_same(&frame, &whole.frame(), &format!("{width}×{height}"));
        assert!(
            lazy.earlier() > turns / 2,
            "only the last turns are decoded ({} of {turns} still in outline)",
            lazy.earlier()
        );
        let (lazy, whole) = (lazy.app.document(), whole.app.document());
        assert_eq!(lazy.event_count(), whole.event_count());
        assert_eq!(lazy.usage(), whole.usage());
        assert!(whole.usage().is_some(), "the turns state their tokens");
        assert_eq!(lazy.attention(), whole.attention());
        assert_eq!(lazy.attention().questions, 1);
        assert_eq!(lazy.source().warnings, whole.source().warnings);
        assert_eq!(lazy.style_warnings(), whole.style_warnings());
    }
}

#[test]
fn scrolling_up_screen_by_screen_and_to_the_top_shows_what_a_full_read_shows() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, _, _) = conversation(tmp.path(), 4 << 20);
    let mut whole = Viewer::whole(&dir, 80, 40);
    let mut lazy = Viewer::at_end(&dir, 80, 40);
    let outlined = lazy.earlier();
    // Up a screen at a time until earlier turns were read, and on a while.
    let mut past = 0;
    for step in 0..2000 {
        assert_same(&lazy.frame(), &whole.frame(), &format!("page up {step}"));
        if lazy.earlier() < outlined {
            past += 1;
            if past == 20 {
                break;
            }
        }
        let page_up = KeyEvent::new(KeyCode::PageUp, KeyModifiers::NONE);
        lazy.app.handle(AppEvent::Terminal(Event::Key(page_up)));
        whole.app.handle(AppEvent::Terminal(Event::Key(page_up)));
    }
    assert_eq!(past, 20, "scrolling up read earlier turns");
    assert!(lazy.earlier() > 0, "but not all of them");
    lazy.keys("g");
    whole.keys("g");
    assert_same(&lazy.frame(), &whole.frame(), "g: the top");
    assert_eq!(lazy.earlier(), 0, "the top needs every turn");
    for keys in ["G", "g", "]]]", "5j", "G"] {
        lazy.keys(keys);
        whole.keys(keys);
        assert_same(&lazy.frame(), &whole.frame(), keys);
    }
}

#[test]
fn a_search_right_after_opening_finds_text_in_the_first_turn() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, _, _) = conversation(tmp.path(), 4 << 20);
    let mut whole = Viewer::whole(&dir, 100, 30);
    let mut lazy = Viewer::at_end(&dir, 100, 30);
    lazy.frame();
    whole.frame();
    assert!(lazy.earlier() > 0);
    lazy.keys("/zanzibar\n");
    whole.keys("/zanzibar\n");
    let frame = lazy.frame();
    assert!(
        text(&frame).contains("zanzibar"),
        "the question of turn 1 is found:\n{}",
        text(&frame)
    );
    assert_same(&frame, &whole.frame(), "after the search");
}

#[test]
fn a_turn_appended_while_earlier_turns_are_in_outline_is_shown_as_a_full_read_shows_it() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, stored, turns) = conversation(tmp.path(), 4 << 20);
    let mut lazy = Viewer::at_end(&dir, 120, 40);
    lazy.frame();
    let outlined = lazy.earlier();
    assert!(outlined > 0);
    // JP's rewrite: a new file renamed over the old one, one more turn.
    let turn: Vec<Value> = generate::turn_events(7, turns);
    let longer = generate::appended(&stored, &turn);
    common::pty::replace(&dir, &dir.join("events.json"), &longer);
    lazy.reload();
    assert_eq!(lazy.earlier(), outlined, "the append read no earlier turn");
    let mut whole = Viewer::whole(&dir, 120, 40);
    assert_same(&lazy.frame(), &whole.frame(), "the new turn at the end");
    assert_eq!(
        lazy.app.document().event_count(),
        whole.app.document().event_count()
    );
    for keys in ["g", "G"] {
        lazy.keys(keys);
        whole.keys(keys);
        assert_same(&lazy.frame(), &whole.frame(), keys);
    }
}

#[test]
fn earlier_turns_decoded_later_or_again_are_redacted_like_the_rest() {
    let tmp = tempfile::tempdir().unwrap();
    let secret = "AKIAQWERTYUIOPASDFGH";
    let mut events = generate::conversation_events(4 << 20);
    events[1]["content"] = json!(format!("Use {secret} to deploy the zanzibar parser."));
    let dir = generate::write_conversation(tmp.path(), &generate::stored(&events));
    let mut live = Live::open_jp_at_end(ConversationDir::new(&dir), None).unwrap();
    live.redact_with(std::sync::Arc::new(
        overhear::redact::Redactor::builtin().unwrap(),
    ));
    // Turns far from the view are emptied again (tests/it/hollow_turns.rs).
    live.set_resident_budget(256 << 10);
    let mut lazy = Viewer::new(live, 100, 30);
    lazy.frame();
    assert!(lazy.earlier() > 0, "turn 1 is still in outline");
    // Turn 1 decoded, then emptied at the end, then decoded again.
    for keys in ["g", "Gg"] {
        lazy.keys(keys);
        let top = text(&lazy.frame());
        assert!(top.contains("zanzibar"), "{keys}: turn 1 on screen:\n{top}");
        assert!(top.contains("[redacted aws-access-token]"), "{keys}: {top}");
        let events = format!("{:?}", lazy.app.document().source().conversation.events);
        assert!(!events.contains(secret), "{keys}");
        lazy.keys("G");
        assert!(lazy.app.document().source().is_hollow(0), "turn 1 emptied");
    }
}

#[test]
fn an_earlier_entry_its_outline_got_wrong_makes_the_file_read_whole_as_before() {
    let tmp = tempfile::tempdir().unwrap();
    let mut events = generate::conversation_events(4 << 20);
    // overhear's own fact joining items, which an outline does not read:
    // decoding this entry finds what its outline did not say.
    let response = events
        .iter()
        .position(|e| e["type"] == "tool_call_response")
        .unwrap();
    events[response]["metadata"] = json!({"overhear.call_id": "elsewhere"});
    let dir = generate::write_conversation(tmp.path(), &generate::stored(&events));
    let mut whole = Viewer::whole(&dir, 100, 30);
    let mut lazy = Viewer::at_end(&dir, 100, 30);
    assert_same(&lazy.frame(), &whole.frame(), "the end");
    assert!(lazy.earlier() > 0);
    for keys in ["g", "G", "g"] {
        lazy.keys(keys);
        whole.keys(keys);
        assert_same(&lazy.frame(), &whole.frame(), keys);
    }
    assert_eq!(lazy.earlier(), 0, "read whole");
}

#[test]
fn a_read_of_every_turn_stopped_by_esc_keeps_what_it_read_and_shows_what_a_full_read_shows() {
    let tmp = tempfile::tempdir().unwrap();
    // Three steps of reading: the second's turns wait for their blocks.
    let (dir, _, _) = conversation(tmp.path(), 24 << 20);
    let mut whole = Viewer::whole(&dir, 80, 40);
    let mut lazy = Viewer::at_end(&dir, 80, 40);
    assert_same(&lazy.frame(), &whole.frame(), "the end");
    let outlined = lazy.earlier();
    let g = KeyEvent::new(KeyCode::Char('g'), KeyModifiers::NONE);
    lazy.app.handle(AppEvent::Terminal(Event::Key(g)));
    assert!(lazy.app.is_reading());
    lazy.app.read_step();
    lazy.app.read_step();
    let esc = KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE);
    lazy.app.handle(AppEvent::Terminal(Event::Key(esc)));
    assert!(!lazy.app.is_reading());
    let left = lazy.earlier();
    assert!(0 < left && left < outlined, "{left} of {outlined} left");
    let doc = lazy.app.document();
    assert!(
        doc.earlier() > doc.earlier_unread(),
        "the turns of the second step wait for their blocks"
    );
    let note = text(&lazy.frame());
    assert!(note.contains("stopped reading:"), "{note}");
    // The view did not move; the key to the top was dropped.
    lazy.keys("j");
    whole.keys("j");
    assert_same(&lazy.frame(), &whole.frame(), "after Esc");
    // Up a screen at a time past everything the stopped read decoded, and
    // 20 turns further.
    let page_up = KeyEvent::new(KeyCode::PageUp, KeyModifiers::NONE);
    let mut pages = 0;
    while lazy.earlier() + 20 > left {
        assert!(pages < 5000, "scrolling up reads on");
        lazy.app.handle(AppEvent::Terminal(Event::Key(page_up)));
        whole.app.handle(AppEvent::Terminal(Event::Key(page_up)));
        assert_same(&lazy.frame(), &whole.frame(), &format!("page up {pages}"));
        pages += 1;
    }
    lazy.keys("g");
    whole.keys("g");
    assert_same(&lazy.frame(), &whole.frame(), "g: the top");
    assert_eq!(lazy.earlier(), 0);
}

/// The viewer's note on a long opening (`src/cli/opening.rs`) hears how far
/// the outline has read: in order, up to the whole file.
#[test]
fn opening_at_the_end_reports_how_far_the_read_is_up_to_the_whole_file() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, stored, turns) = conversation(tmp.path(), 4 << 20);
    let mut heard = Vec::new();
    let arg = dir.to_str().unwrap();
    let live = Live::open_at_end_reporting(Some(arg), &mut |read, total| heard.push((read, total)))
        .unwrap();
    assert_eq!(live.conversation.turns.len(), turns);
    assert!(live.earlier_turns() > 0, "opened at its end");
    let size = stored.len() as u64;
    assert!(heard.len() > 1, "heard along the way: {heard:?}");
    assert!(heard.iter().all(|&(_, total)| total == size), "{heard:?}");
    assert!(
        heard.windows(2).all(|w| w[0].0 <= w[1].0),
        "in order: {heard:?}"
    );
    assert_eq!(heard.last().map(|&(read, _)| read), Some(size));
}

/// Turns still in outline have no items (a boxed call each: the memory of
/// grouping); those decoded, step by step as the view needs them, have
/// exactly a full read's.
#[test]
fn a_turn_gets_its_items_when_decoded_and_they_are_a_full_reads() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, _, _) = conversation(tmp.path(), 4 << 20);
    let whole = Live::open_jp(ConversationDir::new(&dir), None).unwrap();
    let mut live = Live::open_jp_at_end(ConversationDir::new(&dir), None).unwrap();
    let mut decoded_before = usize::MAX;
    loop {
        let earlier = live.earlier_turns();
        let turns = &live.conversation.turns;
        assert!(turns[..earlier].iter().all(|t| t.items.is_empty()));
        assert_eq!(turns[earlier..], whole.conversation.turns[earlier..]);
        assert!(earlier < decoded_before, "each step decodes turns");
        if earlier == 0 {
            break;
        }
        decoded_before = earlier;
        live.read_earlier(64 << 10).unwrap();
    }
    assert_eq!(live.conversation.turns, whole.conversation.turns);
}

/// A file the outline gives up on (here a comma after the last entry: not
/// a plain JSON array) is read again whole, which says what is wrong; the
/// opening's note hears that read from 0 (it says `reading again… N%`),
/// not a percentage that stops moving.
#[test]
fn a_file_the_outline_gives_up_on_is_reported_again_from_the_start() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, stored, _) = conversation(tmp.path(), 4 << 20);
    let end = stored.iter().rposition(|&b| b == b']').unwrap();
    let odd = [&stored[..end], b",\n]".as_slice()].concat();
    std::fs::write(dir.join("events.json"), &odd).unwrap();
    let mut heard = Vec::new();
    let arg = dir.to_str().unwrap();
    let opened = Live::open_at_end_reporting(Some(arg), &mut |read, _| heard.push(read));
    let error = opened.err().expect("not JSON").to_string();
    assert!(error.contains("events.json"), "{error}");
    let back = heard.windows(2).filter(|w| w[1] < w[0]).count();
    assert!(back >= 1, "heard from the start again: {heard:?}");
    assert_eq!(heard.last().copied(), Some(odd.len() as u64));
}
