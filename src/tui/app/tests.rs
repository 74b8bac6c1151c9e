use std::time::{Duration, UNIX_EPOCH};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::Color;

use super::*;
use crate::text::width::line_text;
use crate::tui::blocks::{Blocks, Follow, LiveState};
use crate::tui::keys::{Action, BINDINGS};
use crate::tui::testdoc::{ClassTag, TestBlock, TestDoc, turn_blocks};

// The keys' tests, by what the keys do.
mod actions;
mod keys;
mod reading;

const W: u16 = 80;
const H: u16 = 20;

fn app_with(doc: TestDoc, workspace: bool) -> App<TestDoc> {
    let mut app = App::new(
        doc,
        ViewerOptions {
            clock: Clock::Utc,
            opened_at: UNIX_EPOCH,
            workspace,
            conversation_id: Some("17673969718".into()),
            ..ViewerOptions::default()
        },
    );
    app.resize(usize::from(W), usize::from(H));
    app
}

fn app(doc: TestDoc) -> App<TestDoc> {
    app_with(doc, false)
}

/// The key named `spec` (`PgDn`, `Enter`, `ctrl-c`, a character; an
/// upper-case one with Shift), for the viewer's tests.
pub(crate) fn key_event(spec: &str) -> KeyEvent {
    let (code, mods) = match spec {
        "PgDn" => (KeyCode::PageDown, KeyModifiers::NONE),
        "PgUp" => (KeyCode::PageUp, KeyModifiers::NONE),
        "Enter" => (KeyCode::Enter, KeyModifiers::NONE),
        "Tab" => (KeyCode::Tab, KeyModifiers::NONE),
        "Esc" => (KeyCode::Esc, KeyModifiers::NONE),
        "Up" => (KeyCode::Up, KeyModifiers::NONE),
        "Down" => (KeyCode::Down, KeyModifiers::NONE),
        "Left" => (KeyCode::Left, KeyModifiers::NONE),
        "Right" => (KeyCode::Right, KeyModifiers::NONE),
        "Home" => (KeyCode::Home, KeyModifiers::NONE),
        "End" => (KeyCode::End, KeyModifiers::NONE),
        "Backspace" => (KeyCode::Backspace, KeyModifiers::NONE),
        s if s.starts_with("ctrl-") => (
            KeyCode::Char(s.chars().last().unwrap()),
            KeyModifiers::CONTROL,
        ),
        s => {
            let c = s.chars().next().unwrap();
            let mods = if c.is_uppercase() {
                KeyModifiers::SHIFT
            } else {
                KeyModifiers::NONE
            };
            (KeyCode::Char(c), mods)
        }
    };
    KeyEvent::new(code, mods)
}

/// Presses keys given as space-separated names (`Space` is the space bar).
fn press(app: &mut App<TestDoc>, keys: &str) -> Option<Effect> {
    let mut effect = None;
    for k in keys.split(' ') {
        let k = if k == "Space" { " " } else { k };
        effect = app.handle(AppEvent::Terminal(Event::Key(key_event(k))));
    }
    effect
}

fn typed(app: &mut App<TestDoc>, text: &str) {
    for c in text.chars() {
        app.handle(AppEvent::Terminal(Event::Key(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::NONE,
        ))));
    }
}

fn screen(app: &mut App<TestDoc>) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(W, H)).unwrap();
    terminal.draw(|f| app.draw(f)).unwrap();
    terminal
}

fn rows(terminal: &Terminal<TestBackend>) -> Vec<String> {
    let buf = terminal.backend().buffer();
    (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
        })
        .collect()
}

fn status(app: &mut App<TestDoc>) -> String {
    rows(&screen(app)).pop().unwrap()
}

fn snapshot(name: &str, terminal: &Terminal<TestBackend>) {
    insta::with_settings!({
        snapshot_path => concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots"),
        prepend_module_to_snapshot => false,
    }, {
        insta::assert_snapshot!(name, terminal.backend());
    });
}

/// The text of the line under the cursor.
fn cursor_line(app: &mut App<TestDoc>) -> String {
    let pos = app.cursor_pos().unwrap();
    let lines = app.sheet().lines(pos.block);
    line_text(&lines[pos.line])
}

fn top_line(app: &mut App<TestDoc>) -> String {
    let top = app.top;
    let lines = app.sheet().lines(top.block);
    line_text(&lines[top.line])
}

fn reload(app: &mut App<TestDoc>, turns: usize, live: LiveState) {
    let blocks = turn_blocks(1..turns + 1);
    let events = blocks.len();
    app.handle(AppEvent::Reload(Reload {
        epoch: 0,
        update: (Some((blocks, events)), live),
        at: UNIX_EPOCH + Duration::from_secs(3723),
    }));
}

// --- Opening and the status bar -------------------------------------------

#[test]
fn opens_at_the_end_following_with_the_cursor_on_the_last_line() {
    let mut app = app(TestDoc::turns(30));
    assert!(app.is_following());
    let term = screen(&mut app);
    let rows = rows(&term);
    assert!(
        rows[16].starts_with("assistant: the answer to question 30"),
        "{rows:#?}"
    );
    assert_eq!(app.cursor, 18);
    snapshot("tui_status_following", &term);
}

#[test]
fn a_huge_document_opens_laying_out_one_screen() {
    let mut app = app(TestDoc::turns(20_000));
    screen(&mut app);
    let laid = app.document().layouts.get();
    assert!(laid < 20, "{laid} blocks laid out to open at the end");
    press(&mut app, "g");
    screen(&mut app);
    assert!(app.document().layouts.get() - laid < 20);
    assert!(status(&mut app).contains("turn 1/20000"));
}

#[test]
fn status_paused_counts_new_events() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "ctrl-u");
    reload(&mut app, 32, LiveState::Live);
    let term = screen(&mut app);
    assert!(rows(&term)[19].contains("‖ paused · 10 new"));
    snapshot("tui_status_paused_new", &term);
}

#[test]
fn status_finished() {
    let mut app = app(TestDoc::turns(30));
    reload(&mut app, 30, LiveState::Finished);
    let term = screen(&mut app);
    assert!(rows(&term)[19].contains("○ finished · 1970-01-01 01:02"));
    snapshot("tui_status_finished", &term);
}

#[test]
fn status_file_removed() {
    let mut app = app(TestDoc::turns(30));
    app.handle(AppEvent::Reload(Reload {
        epoch: 0,
        update: (None, LiveState::Removed),
        at: UNIX_EPOCH + Duration::from_secs(60),
    }));
    let term = screen(&mut app);
    assert!(rows(&term)[19].contains("✗ file removed · 1970-01-01 00:01"));
    snapshot("tui_status_removed", &term);
}

#[test]
fn a_narrow_status_bar_keeps_the_live_indicator() {
    let mut app = app(TestDoc::turns(3));
    let mut terminal = Terminal::new(TestBackend::new(30, 10)).unwrap();
    terminal.draw(|f| app.draw(f)).unwrap();
    let last = rows(&terminal).pop().unwrap();
    assert!(last.contains("● following"), "{last}");
    assert!(!last.contains("1970"), "{last}");
}

#[test]
fn at_forty_columns_notes_and_the_prompt_leave_the_live_indicator_visible() {
    let mut app = app(TestDoc::turns(30));
    let mut terminal = Terminal::new(TestBackend::new(40, 10)).unwrap();
    press(&mut app, "ctrl-u");
    reload(&mut app, 32, LiveState::Live);
    press(&mut app, "l");
    terminal.draw(|f| app.draw(f)).unwrap();
    let bar = rows(&terminal).pop().unwrap();
    assert!(bar.contains("‖ paused · 10 new"), "{bar}");
    press(&mut app, "/");
    typed(&mut app, "a query much longer than the room left for it");
    terminal.draw(|f| app.draw(f)).unwrap();
    let bar = rows(&terminal).pop().unwrap();
    assert!(
        bar.contains("left for it "),
        "the end of the query shows: {bar}"
    );
    assert!(bar.contains("‖ paused · 10 new"), "{bar}");
    let cursor = terminal.get_cursor_position().unwrap();
    assert_eq!(cursor.y, 9);
    assert_eq!(
        usize::from(cursor.x),
        crate::text::width::display_width(&bar[..bar.find("for it").unwrap()]) + "for it".len(),
        "the cursor follows the query: {bar}"
    );
}

#[test]
fn an_empty_conversation_says_so() {
    let mut app = app(TestDoc::new("t", Vec::new()));
    let shown = rows(&screen(&mut app));
    assert!(
        shown[0].contains("waiting for the first events"),
        "{shown:#?}"
    );
    reload(&mut app, 0, LiveState::Finished);
    let shown = rows(&screen(&mut app));
    assert!(shown[0].contains("has no events"), "{shown:#?}");
}

#[test]
fn a_conversation_that_starts_empty_keeps_the_cursor_on_its_last_line() {
    let mut app = app(TestDoc::new("standard input", Vec::new()));
    screen(&mut app);
    reload(&mut app, 1, LiveState::Live);
    assert_eq!(app.cursor, 18, "on the last row, not the first");
    assert!(status(&mut app).contains("turn 1/1"));
    reload(&mut app, 30, LiveState::Live);
    assert_eq!(app.cursor, 18);
    assert!(status(&mut app).contains("turn 30/30"));
}

#[test]
fn events_and_keys_before_the_first_frame_are_safe() {
    let options = || ViewerOptions {
        clock: Clock::Utc,
        opened_at: UNIX_EPOCH,
        ..ViewerOptions::default()
    };
    let mut app = App::new(TestDoc::new("t", Vec::new()), options());
    reload(&mut app, 3, LiveState::Live);
    assert!(app.is_following());
    let mut app = App::new(TestDoc::turns(3), options());
    press(&mut app, "j");
    assert!(app.cursor_pos().is_some());
}

#[test]
fn control_characters_in_the_title_do_not_reach_the_screen() {
    let mut doc = TestDoc::turns(2);
    doc.title = "evil\u{1b}]0;pwned\u{7} title\nnext\u{9b}2J\u{202e}".into();
    let mut app = app(doc);
    let bar = status(&mut app);
    // Shown, not obeyed: one mark per sequence, nothing of its payload.
    assert!(bar.contains("evil␛ title␊next␛<U+202"), "{bar}");
    assert!(!bar.contains("pwned") && !bar.contains("2J"), "{bar}");
}

// --- Reloads ----------------------------------------------------------------

#[test]
fn following_shows_new_content_on_reload() {
    let mut app = app(TestDoc::turns(30));
    reload(&mut app, 31, LiveState::Live);
    assert!(app.is_following());
    let rows = rows(&screen(&mut app));
    assert!(
        rows[16].starts_with("assistant: the answer to question 31"),
        "{rows:#?}"
    );
    assert!(rows[19].contains("● following · 1970-01-01 01:02"));
}

#[test]
fn a_paused_view_stays_exactly_where_it_was() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "ctrl-u ctrl-u");
    let before = rows(&screen(&mut app));
    reload(&mut app, 35, LiveState::Live);
    let after = rows(&screen(&mut app));
    assert_eq!(before[..19], after[..19]);
    assert!(after[19].contains("paused · 25 new"));
    press(&mut app, "G");
    assert!(!status(&mut app).contains("new"));
}

#[test]
fn folds_survive_a_reload() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "{ Enter");
    assert!(cursor_line(&mut app).starts_with("▸ fs_read_file 30"));
    press(&mut app, "F");
    reload(&mut app, 31, LiveState::Live);
    let top = app.top;
    let pos = app.sheet().normalize(top);
    let card = (0..app.doc.len()).find(|&i| app.doc.key(i) == 303).unwrap();
    assert!(app.sheet().is_folded(card));
    assert!(pos.block <= card);
    assert!(
        rows(&screen(&mut app))
            .iter()
            .any(|r| r.starts_with("▸ fs_read_file 30 · 7 lines folded"))
    );
}

#[test]
fn a_changed_block_is_laid_out_again() {
    let mut app = app(TestDoc::turns(3));
    screen(&mut app);
    let mut blocks = turn_blocks(1..4);
    blocks[14].text = "assistant: a corrected answer".into();
    app.handle(AppEvent::Reload(Reload {
        epoch: 0,
        update: (Some((blocks, 15)), LiveState::Live),
        at: UNIX_EPOCH,
    }));
    assert!(
        rows(&screen(&mut app))
            .iter()
            .any(|r| r.starts_with("assistant: a corrected answer"))
    );
}

#[test]
fn an_unreadable_reload_keeps_the_content_and_says_why() {
    let mut app = app(TestDoc::turns(3));
    app.handle(AppEvent::Reload(Reload {
        epoch: 0,
        update: (Some((Vec::new(), 0)), LiveState::Live),
        at: UNIX_EPOCH + Duration::from_secs(5),
    }));
    assert_eq!(app.doc.len(), 15);
    let bar = status(&mut app);
    assert!(bar.contains("events.json: line 1, column 1"), "{bar}");
    assert_eq!(app.last_change, UNIX_EPOCH, "not a change");
}

#[test]
fn the_note_of_an_unreadable_reload_goes_when_the_file_is_readable_again() {
    let mut app = app(TestDoc::turns(3));
    app.handle(AppEvent::Reload(Reload {
        epoch: 0,
        update: (Some((Vec::new(), 0)), LiveState::Live),
        at: UNIX_EPOCH,
    }));
    assert!(status(&mut app).contains("events.json: line 1, column 1"));
    reload(&mut app, 4, LiveState::Live);
    let bar = status(&mut app);
    assert!(!bar.contains("events.json"), "{bar}");
    assert!(bar.contains("turn 4/4"), "{bar}");
}

#[test]
fn other_notes_stay_until_a_key() {
    let mut app = app(TestDoc::turns(3));
    app.note("copied 12 bytes to the clipboard");
    reload(&mut app, 4, LiveState::Live);
    assert!(status(&mut app).contains("copied 12 bytes"));
}

#[test]
fn a_tick_lets_the_document_notice_a_released_lock() {
    let mut app = app(TestDoc::turns(3));
    app.doc.lock_released = true;
    assert!(status(&mut app).contains("● following"));
    app.handle(AppEvent::Tick);
    assert!(status(&mut app).contains("○ finished"));
}

#[test]
fn reloads_of_another_conversation_are_dropped() {
    let mut app = app(TestDoc::turns(3));
    app.handle(AppEvent::Reload(Reload {
        epoch: 7,
        update: (Some((turn_blocks(1..9), 40)), LiveState::Finished),
        at: UNIX_EPOCH,
    }));
    assert_eq!(app.doc.len(), 15);
    assert!(status(&mut app).contains("● following"));
}

// --- Resize -----------------------------------------------------------------

#[test]
fn resize_keeps_the_top_line_in_the_same_block() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "g }");
    // The card of turn 1 at the top; scroll 4 lines into it.
    app.scroll_down(4);
    assert_eq!(app.top, Pos::new(3, 4));
    let turn = app.doc.turn(app.top.block);
    app.resize(30, 20);
    assert_eq!(app.top.block, 3);
    let height = app.sheet().height(3);
    assert_eq!(app.top.line, 4 * height / 9, "proportional offset");
    assert_eq!(app.doc.turn(app.top.block), turn);
    app.resize(60, 20);
    assert_eq!(app.top.block, 3);
}

#[test]
fn resize_keeps_the_cursor_line_on_its_row() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "g ] ] ] j j j j j j j");
    let at = app.cursor_pos().unwrap();
    let row = app.cursor;
    assert_eq!(row, 7);
    app.resize(40, 20);
    assert_eq!(app.cursor, row);
    assert_eq!(app.cursor_pos().unwrap().block, at.block);
    app.resize(80, 20);
    assert_eq!(app.cursor_pos().unwrap(), at, "back where it was");
    assert_eq!(app.cursor, row);
}

#[test]
fn resize_while_following_stays_at_the_end() {
    let mut app = app(TestDoc::turns(30));
    app.resize(35, 12);
    assert!(app.is_following());
    let top = app.top;
    assert_eq!(top, app.sheet().end_top(11));
    let mut terminal = Terminal::new(TestBackend::new(35, 12)).unwrap();
    terminal.draw(|f| app.draw(f)).unwrap();
    assert!(rows(&terminal)[10].is_empty() || rows(&terminal)[10].trim().is_empty());
}

#[test]
fn a_following_view_keeps_its_cursor_on_the_last_line_through_resizes() {
    // As the runner builds it: at a guessed size, then told the real one.
    let mut app = App::new(TestDoc::turns(30), ViewerOptions::default());
    for (w, h) in [(120, 40), (200, 60), (40, 20), (80, 24)] {
        app.resize(w, h);
        let (top, rows) = (app.top, app.rows);
        let drawn = app.sheet().rows(top, rows).len();
        assert_eq!(
            app.cursor,
            drawn - 1,
            "{w}×{h}: the cursor on the last line"
        );
        assert_eq!(app.cursor, h - 2, "{w}×{h}: at the bottom of the screen");
        let last = app.doc.len() - 1;
        assert_eq!(app.cursor_pos().unwrap().block, last, "{w}×{h}");
    }
}

/// Resizes back and forth ten times, `between` after each, then back to
/// the first size: the cursor is on the line and the row it was on.
fn assert_resizes_do_not_drift(mut between: impl FnMut(&mut App<TestDoc>)) {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "g ] ] ] j j j j j j j");
    let (at, row) = (app.cursor_pos().unwrap(), app.cursor);
    for _ in 0..10 {
        for (w, h) in [(23, 11), (57, 31), (31, 7), (97, 20)] {
            app.resize(w, h);
            assert_eq!(app.cursor_pos().unwrap().block, at.block, "{w}×{h}");
            between(&mut app);
        }
    }
    app.resize(usize::from(W), usize::from(H));
    assert_eq!(app.cursor_pos().unwrap(), at, "the same line");
    assert_eq!(app.cursor, row, "on the same row");
}

#[test]
fn resizes_back_and_forth_do_not_drift() {
    assert_resizes_do_not_drift(|_| {});
}

#[test]
fn a_proof_between_resizes_does_not_make_them_drift() {
    assert_resizes_do_not_drift(|app| {
        app.doc.proof_steps = 1;
        assert!(matches!(app.prove(), Proven::Shown), "a step that changes nothing");
    });
}

// --- Mouse ------------------------------------------------------------------

fn mouse(kind: MouseEventKind, row: u16) -> AppEvent<<TestDoc as Follow>::Update> {
    AppEvent::Terminal(Event::Mouse(MouseEvent {
        kind,
        column: 3,
        row,
        modifiers: KeyModifiers::NONE,
    }))
}

#[test]
fn the_wheel_scrolls_and_a_click_moves_the_cursor() {
    let mut app = app(TestDoc::turns(30));
    app.handle(mouse(MouseEventKind::ScrollUp, 0));
    assert!(!app.is_following());
    let top = app.top;
    app.handle(mouse(MouseEventKind::ScrollUp, 0));
    let now = app.top;
    assert_eq!(app.sheet().forward(now, 3), top);
    app.handle(mouse(MouseEventKind::ScrollDown, 0));
    app.handle(mouse(MouseEventKind::ScrollDown, 0));
    assert!(app.is_following());
    app.handle(mouse(MouseEventKind::Down(MouseButton::Left), 4));
    assert_eq!(app.cursor, 4);
}

fn picker_rows() -> Vec<ConversationRow> {
    crate::tui::picker::tests::rows()
}

/// Reloads with `blocks` and returns the effect.
fn reload_with(app: &mut App<TestDoc>, blocks: Vec<TestBlock>) -> Option<Effect> {
    let events = blocks.len();
    app.handle(AppEvent::Reload(Reload {
        epoch: 0,
        update: (Some((blocks, events)), LiveState::Live),
        at: UNIX_EPOCH,
    }))
}

#[test]
fn notify_tells_an_ended_turn_or_a_question_only_to_a_user_not_looking() {
    let notifying = |doc| {
        let mut app = App::new(
            doc,
            ViewerOptions {
                clock: Clock::Utc,
                notify: true,
                ..ViewerOptions::default()
            },
        );
        app.resize(usize::from(W), usize::from(H));
        app
    };
    // Following in a focused window: the user is looking.
    let mut app = notifying(TestDoc::turns(2));
    assert_eq!(reload_with(&mut app, turn_blocks(1..4)), None);
    // Unfocused: turn 3 ended when turn 4 began.
    app.handle(AppEvent::Terminal(Event::FocusLost));
    assert_eq!(
        reload_with(&mut app, turn_blocks(1..5)),
        Some(Effect::Notify(
            "overhear: turn 3 ended — Fixing the parser".into()
        ))
    );
    // Nothing new, nothing said.
    assert_eq!(reload_with(&mut app, turn_blocks(1..5)), None);
    // Focused again but paused: a question is told.
    app.handle(AppEvent::Terminal(Event::FocusGained));
    press(&mut app, "g");
    let mut blocks = turn_blocks(1..5);
    blocks.push(TestBlock::new(
        999,
        4,
        ClassTag::Text,
        "? Deploy\x1b[31m now?",
    ));
    assert_eq!(
        reload_with(&mut app, blocks),
        Some(Effect::Notify("overhear: question — Deploy now?".into()))
    );
    // Without --notify, never.
    let mut quiet = app_with(TestDoc::turns(2), false);
    quiet.handle(AppEvent::Terminal(Event::FocusLost));
    assert_eq!(reload_with(&mut quiet, turn_blocks(1..6)), None);
}
