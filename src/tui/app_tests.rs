use std::time::{Duration, UNIX_EPOCH};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::Color;

use super::*;
use crate::text::width::line_text;
use crate::tui::blocks::LiveState;
use crate::tui::keys::BINDINGS;
use crate::tui::testdoc::{ClassTag, TestBlock, TestDoc, turn_blocks};

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

fn key_event(spec: &str) -> KeyEvent {
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

#[test]
fn resizes_back_and_forth_do_not_drift() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "g ] ] ] j j j j j j j");
    let (at, row) = (app.cursor_pos().unwrap(), app.cursor);
    for _ in 0..10 {
        for (w, h) in [(23, 11), (57, 31), (31, 7), (97, 20)] {
            app.resize(w, h);
            assert_eq!(app.cursor_pos().unwrap().block, at.block, "{w}×{h}");
        }
    }
    app.resize(usize::from(W), usize::from(H));
    assert_eq!(app.cursor_pos().unwrap(), at, "the same line");
    assert_eq!(app.cursor, row, "on the same row");
}

// --- Every key of the help overlay ------------------------------------------

/// Every action a test below presses; a binding added to the table without a
/// test fails here.
const TESTED: &[Action] = &[
    Action::Down,
    Action::Up,
    Action::HalfDown,
    Action::HalfUp,
    Action::PageDown,
    Action::PageUp,
    Action::Top,
    Action::Bottom,
    Action::PrevTurn,
    Action::NextTurn,
    Action::PrevCard,
    Action::NextCard,
    Action::Left,
    Action::Right,
    Action::Search,
    Action::SearchBack,
    Action::GotoTurn,
    Action::NextFailure,
    Action::PrevFailure,
    Action::NextSpeech,
    Action::PrevSpeech,
    Action::NextHit,
    Action::PrevHit,
    Action::ClearSearch,
    Action::ToggleFold,
    Action::FoldAll,
    Action::CycleReasoning,
    Action::CycleView,
    Action::Pager,
    Action::Copy,
    Action::ToggleFollow,
    Action::Picker,
    Action::Help,
    Action::Suspend,
    Action::Quit,
];

#[test]
fn every_binding_has_a_test() {
    for binding in BINDINGS {
        assert!(
            TESTED.contains(&binding.action),
            "{} has no test",
            binding.label
        );
    }
}

#[test]
fn key_j_and_down_move_the_cursor_then_scroll() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "g j");
    assert_eq!((app.cursor, app.top), (1, Pos::new(0, 0)));
    press(&mut app, "Down");
    assert_eq!(app.cursor, 2);
    for _ in 0..16 {
        press(&mut app, "j");
    }
    assert_eq!((app.cursor, app.top), (18, Pos::new(0, 0)));
    press(&mut app, "j");
    assert_eq!(
        (app.cursor, app.top),
        (18, Pos::new(0, 1)),
        "the bottom edge scrolls"
    );
}

#[test]
fn key_k_and_up_move_the_cursor_then_scroll() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "k Up");
    assert_eq!(app.cursor, 16);
    assert!(app.is_following(), "moving the cursor does not scroll away");
    let top = app.top;
    for _ in 0..16 {
        press(&mut app, "k");
    }
    assert_eq!((app.cursor, app.top), (0, top));
    press(&mut app, "k");
    assert_eq!(app.cursor, 0);
    assert!(app.top < top, "the top edge scrolls");
    assert!(!app.is_following());
}

#[test]
fn key_ctrl_d_and_ctrl_u_scroll_half_a_screen() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "g ctrl-d");
    assert_eq!(app.top, Pos::new(3, 2), "9 lines down");
    press(&mut app, "ctrl-u");
    assert_eq!(app.top, Pos::new(0, 0));
    press(&mut app, "G ctrl-u");
    assert!(!app.is_following());
    let end = app.sheet().end_top(19);
    let top = app.top;
    assert_eq!(app.sheet().forward(top, 9), end);
}

#[test]
fn key_page_down_space_and_page_up_scroll_a_screen() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "g Space");
    assert_eq!(app.top, Pos::new(5, 0), "19 lines: the next turn");
    press(&mut app, "PgDn");
    assert_eq!(app.top, Pos::new(10, 0));
    press(&mut app, "PgUp b");
    assert_eq!(app.top, Pos::new(0, 0));
}

#[test]
fn key_g_goes_to_the_top_and_pauses() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "g");
    assert_eq!((app.top, app.cursor), (Pos::new(0, 0), 0));
    assert!(!app.is_following());
    assert!(status(&mut app).contains("turn 1/30"));
}

#[test]
fn key_capital_g_goes_to_the_end_and_follows() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "g G");
    assert!(app.is_following());
    let end = app.sheet().end_top(19);
    assert_eq!(app.top, end);
    assert_eq!(app.cursor, 18);
    press(&mut app, "g End");
    assert!(app.is_following());
}

#[test]
fn scrolling_down_to_the_end_resumes_following() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "ctrl-u");
    assert!(!app.is_following());
    press(&mut app, "ctrl-d");
    assert!(app.is_following());
}

#[test]
fn key_brackets_jump_between_turns() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "g ]");
    assert_eq!((app.top, app.cursor), (Pos::new(5, 0), 0));
    assert!(top_line(&mut app).contains("turn 2"));
    press(&mut app, "j j [");
    assert_eq!(
        app.top,
        Pos::new(5, 0),
        "[ goes to the start of the cursor's turn first"
    );
    press(&mut app, "[");
    assert_eq!(app.top, Pos::new(0, 0));
    assert_eq!(app.message, None);
    press(&mut app, "[");
    assert_eq!(app.message.as_deref(), Some("no earlier turn"));
    press(&mut app, "G ]");
    assert_eq!(app.message.as_deref(), Some("no later turn"));
}

#[test]
fn go_to_turn_shows_that_turn_at_the_top_and_stops_following() {
    let mut app = app(TestDoc::turns(30));
    app.go_to_turn(12);
    assert!(top_line(&mut app).contains("turn 12"));
    assert_eq!(app.cursor, 0);
    assert!(!app.is_following());
    app.go_to_turn(1);
    assert_eq!(app.top, Pos::new(0, 0));
    app.go_to_turn(99);
    assert!(app.is_following(), "past the end is the end");
}

#[test]
fn key_braces_jump_between_tool_cards() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "g }");
    assert!(cursor_line(&mut app).starts_with("● fs_read_file 1"));
    press(&mut app, "}");
    assert!(cursor_line(&mut app).starts_with("● fs_read_file 2"));
    press(&mut app, "{");
    assert!(cursor_line(&mut app).starts_with("● fs_read_file 1"));
    press(&mut app, "G {");
    assert!(cursor_line(&mut app).starts_with("● fs_read_file 30"));
}

#[test]
fn key_h_and_l_scroll_code_lines_horizontally() {
    let mut app = app(TestDoc::turns(30));
    let before = rows(&screen(&mut app));
    let code = before
        .iter()
        .position(|r| r.starts_with("  let answer_30"))
        .unwrap();
    press(&mut app, "l l");
    assert_eq!(app.hscroll, 16);
    let after = rows(&screen(&mut app));
    assert!(
        after[code].starts_with("= compute(\"a very long"),
        "{}",
        after[code]
    );
    assert!(after[19].contains("cols 17–96"), "{}", after[19]);
    press(&mut app, "h Left");
    assert_eq!(app.hscroll, 0);
    press(&mut app, "Right");
    assert_eq!(app.hscroll, 8);
    for _ in 0..20 {
        press(&mut app, "l");
    }
    let widest = app.widest_on_screen();
    assert!(
        app.hscroll < widest,
        "stops once the widest line is in view"
    );
}

#[test]
fn key_l_does_nothing_without_wide_lines() {
    let mut app = app(TestDoc::new(
        "t",
        vec![TestBlock::new(1, 1, ClassTag::Text, "short")],
    ));
    press(&mut app, "l");
    assert_eq!(app.hscroll, 0);
    assert!(app.message.as_deref().unwrap_or("").contains("wider"));
}

#[test]
fn key_slash_searches_and_highlights() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "g /");
    typed(&mut app, "question number 7");
    assert!(status(&mut app).starts_with(" /question number 7"));
    press(&mut app, "Enter");
    assert!(cursor_line(&mut app).starts_with("you: question number 7,"));
    let term = screen(&mut app);
    let buf = term.backend().buffer();
    let y = app.cursor as u16;
    let hit = app.chrome.search_hit.bg.unwrap();
    assert_eq!(
        buf[(5, y)].bg,
        hit,
        "match highlighted in the theme's colour"
    );
    assert_ne!(buf[(0, y)].bg, hit);
    snapshot("tui_search_hit", &term);
}

#[test]
fn search_is_case_insensitive_for_lowercase_and_wraps() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "/");
    typed(&mut app, "QUESTION NUMBER 2,");
    press(&mut app, "Enter");
    assert_eq!(
        app.message.as_deref(),
        Some("not found: QUESTION NUMBER 2,")
    );
    press(&mut app, "/");
    typed(&mut app, "question number 2,");
    press(&mut app, "Enter");
    assert!(cursor_line(&mut app).starts_with("you: question number 2,"));
    assert_eq!(app.message.as_deref(), Some("search wrapped to the top"));
}

#[test]
fn key_n_and_capital_n_go_to_the_next_and_previous_match() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "n");
    assert!(app.message.as_deref().unwrap().contains("no search"));
    press(&mut app, "g /");
    typed(&mut app, "result line 6");
    press(&mut app, "Enter");
    assert!(cursor_line(&mut app).contains("result line 6 of call 1"));
    press(&mut app, "n");
    assert!(cursor_line(&mut app).contains("result line 6 of call 2"));
    press(&mut app, "n");
    assert!(cursor_line(&mut app).contains("result line 6 of call 3"));
    press(&mut app, "N");
    assert!(cursor_line(&mut app).contains("result line 6 of call 2"));
}

#[test]
fn search_finds_folded_content_and_unfolds_it() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "z g /");
    typed(&mut app, "result line 3 of call 5");
    press(&mut app, "Enter");
    assert!(cursor_line(&mut app).contains("result line 3 of call 5"));
    let block = app.cursor_pos().unwrap().block;
    assert!(!app.sheet().is_folded(block));
    assert!(app.sheet().is_folded(block - 5), "other cards stay folded");
}

#[test]
fn search_skips_hidden_reasoning() {
    let mut app = app(TestDoc::turns(3));
    press(&mut app, "r r g /");
    typed(&mut app, "thinking about");
    press(&mut app, "Enter");
    assert_eq!(app.message.as_deref(), Some("not found: thinking about"));
}

#[test]
fn key_escape_clears_the_search() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "/");
    typed(&mut app, "parser");
    press(&mut app, "Enter");
    assert!(app.search.is_some());
    press(&mut app, "Esc");
    assert!(app.search.is_none());
    let term = screen(&mut app);
    let buf = term.backend().buffer();
    assert!(buf.content().iter().all(|c| c.bg != Color::Yellow));
}

#[test]
fn escape_or_an_empty_backspace_cancels_the_prompt() {
    let mut app = app(TestDoc::turns(3));
    press(&mut app, "/");
    typed(&mut app, "ab");
    press(&mut app, "Esc");
    assert_eq!(app.mode, Mode::Normal);
    assert!(app.search.is_none());
    press(&mut app, "/ Backspace");
    assert_eq!(app.mode, Mode::Normal);
}

#[test]
fn key_enter_and_tab_fold_the_card_under_the_cursor() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "g }");
    snapshot("tui_card_unfolded", &screen(&mut app));
    press(&mut app, "Enter");
    let term = screen(&mut app);
    assert!(rows(&term)[0].starts_with("▸ fs_read_file 1 · 7 lines folded"));
    snapshot("tui_card_folded", &term);
    press(&mut app, "Tab");
    assert!(cursor_line(&mut app).starts_with("● fs_read_file 1"));
    press(&mut app, "g Enter");
    assert!(
        app.message
            .as_deref()
            .unwrap()
            .starts_with("nothing to fold here")
    );
}

#[test]
fn folding_a_card_scrolled_half_off_screen_brings_its_header_back() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "g }");
    app.scroll_down(3);
    assert_eq!(app.top, Pos::new(3, 3));
    press(&mut app, "Enter");
    assert_eq!((app.top, app.cursor), (Pos::new(3, 0), 0));
    assert!(cursor_line(&mut app).starts_with("▸ fs_read_file 1"));
}

#[test]
fn key_z_folds_and_unfolds_every_card() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "z");
    let shown = rows(&screen(&mut app));
    assert!(shown.iter().any(|r| r.starts_with("▸ fs_read_file 30")));
    assert!(!shown.iter().any(|r| r.starts_with("● fs_read_file")));
    assert!(shown[19].starts_with(" all tool cards folded"));
    press(&mut app, "z");
    assert!(
        rows(&screen(&mut app))
            .iter()
            .any(|r| r.starts_with("● fs_read_file 30"))
    );
}

#[test]
fn key_z_keeps_the_cursor_line_in_place_and_following_on() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "z");
    assert!(app.is_following(), "folding at the end keeps following");
    assert_eq!(app.cursor, 18);
    press(&mut app, "z g ] ] ]");
    for _ in 0..30 {
        let line = cursor_line(&mut app);
        if line.ends_with("the closing brace") && !line.starts_with("assistant") {
            break;
        }
        press(&mut app, "j");
    }
    let line = cursor_line(&mut app);
    assert_ne!(app.cursor_pos().unwrap().line, 0);
    assert!(!app.is_following());
    let row = app.cursor;
    press(&mut app, "z");
    assert_eq!(app.cursor, row, "the cursor stays on its row");
    assert_eq!(cursor_line(&mut app), line, "on the same line");
    press(&mut app, "k k k k");
    for _ in 0..30 {
        if cursor_line(&mut app).starts_with("▾ think") {
            break;
        }
        press(&mut app, "k");
    }
    let row = app.cursor;
    let block = app.cursor_pos().unwrap().block;
    press(&mut app, "r");
    assert_eq!(app.cursor, row, "folding reasoning keeps the row");
    assert_eq!(
        app.cursor_pos().unwrap(),
        Pos::new(block, 0),
        "on its header"
    );
}

#[test]
fn key_r_cycles_reasoning() {
    let mut app = app(TestDoc::turns(30));
    fn has(app: &mut App<TestDoc>, s: &str) -> bool {
        rows(&screen(app)).iter().any(|r| r.contains(s))
    }
    assert!(has(&mut app, "▾ thinking"));
    press(&mut app, "r");
    assert!(has(&mut app, "▸ thinking about turn 30 · 0 lines folded"));
    assert!(has(&mut app, "reasoning folded"));
    press(&mut app, "r");
    assert!(!has(&mut app, "thinking"));
    press(&mut app, "r");
    assert!(has(&mut app, "▾ thinking"));
}

#[test]
fn key_v_cycles_views_and_keeps_the_place() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "g ] ]");
    assert!(top_line(&mut app).contains("turn 3"));
    press(&mut app, "v");
    assert_eq!(app.doc.view_name(), "user");
    assert!(top_line(&mut app).contains("turn 3"));
    assert!(status(&mut app).contains(" user "));
    assert!(
        !rows(&screen(&mut app))
            .iter()
            .any(|r| r.contains("fs_read_file"))
    );
    press(&mut app, "v v");
    assert_eq!(app.doc.view_name(), "terminal");
}

#[test]
fn key_o_opens_the_card_text_sanitized() {
    let blocks = vec![TestBlock::new(
        1,
        1,
        ClassTag::Card,
        "tool\nline \u{1b}]52;c;ZXZpbA==\u{7}one\nline two",
    )];
    let mut app = app(TestDoc::new("t", blocks));
    press(&mut app, "g");
    assert_eq!(
        press(&mut app, "o"),
        Some(Effect::Pager("line one\nline two".into()))
    );
}

#[test]
fn key_y_copies_the_card_text() {
    let mut app = app(TestDoc::turns(3));
    press(&mut app, "g }");
    match press(&mut app, "y") {
        Some(Effect::Copy(text)) => assert!(text.starts_with("result line 1 of call 1\n")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn key_capital_f_toggles_following() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "F");
    assert!(!app.is_following());
    reload(&mut app, 31, LiveState::Live);
    assert!(status(&mut app).contains("paused · 5 new"));
    press(&mut app, "F");
    assert!(app.is_following());
    assert!(rows(&screen(&mut app))[16].starts_with("assistant: the answer to question 31"));
}

#[test]
fn key_p_opens_the_picker_in_a_workspace() {
    let mut app = app(TestDoc::turns(3));
    assert_eq!(press(&mut app, "p"), None);
    assert!(
        app.message
            .as_deref()
            .unwrap()
            .starts_with("not in a workspace")
    );
    let mut app = app_with(TestDoc::turns(3), true);
    assert_eq!(press(&mut app, "p"), Some(Effect::Pick));
    app.show_picker(picker_rows());
    let term = screen(&mut app);
    snapshot("tui_picker", &term);
    assert_eq!(press(&mut app, "Down"), None);
    assert_eq!(
        press(&mut app, "Enter"),
        Some(Effect::Open("17653152345".into()))
    );
    typed(&mut app, "prefill");
    assert_eq!(
        press(&mut app, "Enter"),
        Some(Effect::Open("17760760747".into()))
    );
    press(&mut app, "Esc");
    assert_eq!(app.mode, Mode::Normal);
}

#[test]
fn opening_a_picked_conversation_starts_at_its_end() {
    let mut app = app_with(TestDoc::turns(3), true);
    press(&mut app, "g");
    app.open(TestDoc::turns(9), "x".into(), 4);
    assert!(app.is_following());
    assert!(status(&mut app).contains("turn 9/9"));
    reload(&mut app, 12, LiveState::Live);
    assert_eq!(app.doc.len(), 45, "reloads of the old watcher are dropped");
}

#[test]
fn key_h_shows_every_key() {
    let mut app = app(TestDoc::turns(30));
    let mut terminal = Terminal::new(TestBackend::new(70, 40)).unwrap();
    press(&mut app, "H");
    terminal.draw(|f| app.draw(f)).unwrap();
    snapshot("tui_help", &terminal);
    let mut text = rows(&terminal).join("\n");
    assert_eq!(press(&mut app, "G"), None);
    assert!(
        matches!(app.mode, Mode::Help(n) if n > 0),
        "G scrolls the help to its end"
    );
    terminal.draw(|f| app.draw(f)).unwrap();
    text.push_str(&rows(&terminal).join("\n"));
    for binding in BINDINGS {
        assert!(
            text.contains(binding.label),
            "{} missing from help",
            binding.label
        );
    }
    assert!(text.contains("The picker"), "{text}");
    let cursor = app.cursor;
    assert_eq!(press(&mut app, "q"), None);
    assert_eq!(app.mode, Mode::Normal, "other keys close the help");
    assert_eq!(app.cursor, cursor, "the closing key does nothing else");
}

#[test]
fn key_ctrl_z_suspends() {
    let mut app = app(TestDoc::turns(3));
    assert_eq!(press(&mut app, "ctrl-z"), Some(Effect::Suspend));
}

#[test]
fn key_q_and_ctrl_c_quit() {
    let mut app = app(TestDoc::turns(3));
    assert_eq!(press(&mut app, "q"), Some(Effect::Quit));
    assert_eq!(press(&mut app, "ctrl-c"), Some(Effect::Quit));
}

// --- Mouse ------------------------------------------------------------------

fn mouse(kind: MouseEventKind, row: u16) -> AppEvent<<TestDoc as Blocks>::Update> {
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

#[test]
fn question_mark_searches_backward_and_n_keeps_its_direction() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "?");
    typed(&mut app, "result line 6");
    assert!(status(&mut app).starts_with(" ?result line 6"));
    press(&mut app, "Enter");
    assert!(cursor_line(&mut app).contains("result line 6 of call 30"));
    press(&mut app, "n");
    assert!(
        cursor_line(&mut app).contains("result line 6 of call 29"),
        "n goes on backward"
    );
    press(&mut app, "N");
    assert!(
        cursor_line(&mut app).contains("result line 6 of call 30"),
        "N goes forward"
    );
    assert!(
        status(&mut app).contains("match 30/30"),
        "{}",
        status(&mut app)
    );
    press(&mut app, "g /");
    typed(&mut app, "result line 6");
    press(&mut app, "Enter n");
    assert!(
        cursor_line(&mut app).contains("result line 6 of call 2"),
        "after / n goes forward"
    );
}

#[test]
fn status_counts_matches_and_shows_h_help() {
    let mut app = app(TestDoc::turns(30));
    let mut wide = Terminal::new(TestBackend::new(120, H)).unwrap();
    wide.draw(|f| app.draw(f)).unwrap();
    let bar = rows(&wide).pop().unwrap();
    assert!(
        bar.contains("H help") && bar.contains("150 events"),
        "{bar}"
    );
    app.resize(usize::from(W), usize::from(H));
    assert!(
        !status(&mut app).contains("H help"),
        "at 80 columns the date leaves no room"
    );
    press(&mut app, "g /");
    typed(&mut app, "of call 3");
    press(&mut app, "Enter");
    // "of call 3" is in six result lines of call 3 and of calls 30.
    assert!(cursor_line(&mut app).contains("result line 1 of call 3"));
    assert!(
        status(&mut app).contains("match 1/12"),
        "{}",
        status(&mut app)
    );
    press(&mut app, "n n");
    assert!(
        status(&mut app).contains("match 3/12"),
        "{}",
        status(&mut app)
    );
    press(&mut app, "Esc");
    assert!(!status(&mut app).contains("match"));
}

#[test]
fn up_and_down_in_the_prompt_recall_earlier_queries() {
    let mut app = app(TestDoc::turns(5));
    for query in ["parser", "turn 3", "closing brace"] {
        press(&mut app, "/");
        typed(&mut app, query);
        press(&mut app, "Enter");
    }
    press(&mut app, "? Up");
    assert!(status(&mut app).starts_with(" ?closing brace"));
    press(&mut app, "Up Up");
    assert!(status(&mut app).starts_with(" ?parser"));
    press(&mut app, "Up");
    assert!(
        status(&mut app).starts_with(" ?parser"),
        "stays at the oldest"
    );
    press(&mut app, "Down");
    assert!(status(&mut app).starts_with(" ?turn 3"));
    press(&mut app, "Down Down");
    assert!(
        status(&mut app).starts_with(" ? "),
        "past the newest: empty"
    );
}

#[test]
fn help_is_on_capital_h_and_f1() {
    let mut app = app(TestDoc::turns(3));
    press(&mut app, "H");
    assert!(matches!(app.mode, Mode::Help(_)));
    press(&mut app, "q");
    app.handle(AppEvent::Terminal(Event::Key(KeyEvent::new(
        KeyCode::F(1),
        KeyModifiers::NONE,
    ))));
    assert!(matches!(app.mode, Mode::Help(_)));
}

#[test]
fn counts_repeat_moves_and_pick_lines_and_turns() {
    let mut app = app(TestDoc::turns(30));
    press(&mut app, "g");
    press(&mut app, "5 j");
    assert_eq!(app.cursor, 5);
    press(&mut app, "3 k");
    assert_eq!(app.cursor, 2);
    press(&mut app, "4 0 j");
    let at = app.cursor_pos().unwrap();
    let line = app.sheet().forward(Pos::default(), 42);
    assert_eq!(at, line, "40j from line 3 is line 43");
    press(&mut app, "1 0 G");
    assert_eq!(
        app.cursor_pos(),
        Some(app.sheet().forward(Pos::default(), 9))
    );
    assert!(!app.is_following());
    press(&mut app, "1 2 t");
    assert!(cursor_line(&mut app).contains("turn 12"));
    assert!(status(&mut app).contains("turn 12/30"));
    press(&mut app, "3 ]");
    assert!(status(&mut app).contains("turn 15/30"));
    press(&mut app, "4 0 t");
    assert_eq!(
        app.message.as_deref(),
        Some("no turn 40: the conversation has 30 turns")
    );
    press(&mut app, "t");
    assert!(app.message.as_deref().unwrap().contains("12t"));
}

#[test]
fn x_and_parens_jump_to_failures_and_messages_to_the_user() {
    let mut blocks = turn_blocks(1..7);
    for b in &mut blocks {
        if b.class == ClassTag::Card && (b.turn == 2 || b.turn == 5) {
            b.text = b.text.replacen('\n', " · failed\n", 1);
        }
    }
    let mut app = app(TestDoc::new("t", blocks));
    press(&mut app, "g x");
    assert!(cursor_line(&mut app).contains("fs_read_file 2 · failed"));
    press(&mut app, "x");
    assert!(cursor_line(&mut app).contains("fs_read_file 5 · failed"));
    press(&mut app, "x");
    assert_eq!(app.message.as_deref(), Some("no later failed tool call"));
    press(&mut app, "X");
    assert!(cursor_line(&mut app).contains("fs_read_file 2 · failed"));
    press(&mut app, ")");
    assert!(cursor_line(&mut app).contains("assistant: the answer to question 2"));
    press(&mut app, "2 )");
    assert!(cursor_line(&mut app).contains("assistant: the answer to question 4"));
    press(&mut app, "(");
    assert!(cursor_line(&mut app).contains("assistant: the answer to question 3"));
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
