//! The viewer's moving keys: every binding has a test (the list is here),
//! cursor and scrolling, jumps between turns, cards, failures and speech,
//! counts.

use super::*;

// --- Every key of the help overlay ------------------------------------------

/// Every action a test presses (below, or in `tests/actions.rs`); a binding
/// added to the table without a test fails here.
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
    Action::OpenAgent,
    Action::SearchEverywhere,
    Action::Resume,
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
