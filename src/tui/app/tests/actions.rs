//! The viewer's other keys: search, folding, views, the pager and the
//! clipboard, following, the picker, help, suspending and quitting.

use super::*;
use crate::tui::blocks::Blocks;

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
fn key_a_on_a_card_without_a_sub_agent_says_so_and_stays() {
    // Opening one, and Esc / q going back, are tested in tests/it/subagents_pty.rs.
    let mut app = app(TestDoc::turns(3));
    press(&mut app, "g }");
    let (top, cursor) = (app.top, app.cursor);
    assert_eq!(press(&mut app, "a"), None);
    assert_eq!(
        app.message.as_deref(),
        Some("no sub-agent here: put the cursor on an agent's card")
    );
    assert_eq!((app.top, app.cursor), (top, cursor));
    assert_eq!(press(&mut app, "q"), Some(Effect::Quit), "q still quits");
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

/// The list over every session opened with `S`, searched for `kiwi`, and
/// one hit found, in turn 4 of `/s.jsonl`: that hit.
fn one_hit_listed(app: &mut App<TestDoc>) -> crate::tui::everywhere::FoundHit {
    use crate::tui::everywhere::{Found, FoundHit};
    assert_eq!(press(app, "S"), None);
    assert_eq!(app.mode, Mode::Everywhere);
    typed(app, "kiwi");
    assert_eq!(
        press(app, "Enter"),
        Some(Effect::SearchAll {
            pattern: "kiwi".into(),
            generation: 1
        })
    );
    let hit = FoundHit {
        open: "/s.jsonl".into(),
        agent: "claude",
        project: None,
        title: None,
        turn: 4,
        kind: "prompt".into(),
        line: "a kiwi".into(),
        matches: std::iter::once(2..6).collect(),
        alike_before: 0,
    };
    app.handle(AppEvent::Found(Found {
        generation: 1,
        hits: vec![hit.clone()],
        searched: 1,
        sessions: 1,
        done: true,
        problem: None,
    }));
    assert!(rows(&screen(app)).join("\n").contains("1 hit in 1 sessions"));
    hit
}

#[test]
fn key_capital_s_searches_every_session_and_opens_a_hit_at_its_turn() {
    let mut app = app(TestDoc::turns(3));
    let hit = one_hit_listed(&mut app);
    assert_eq!(press(&mut app, "Enter"), Some(Effect::OpenHit(hit.clone())));
    app.open(TestDoc::turns(6), hit.open.clone(), 2);
    app.show_hit(&hit);
    assert!(status(&mut app).contains("turn 4/6"), "{}", status(&mut app));
    assert!(!app.is_following());
    // Esc clears the highlights, then goes back to the list.
    press(&mut app, "Esc");
    assert_eq!(app.mode, Mode::Normal);
    press(&mut app, "Esc");
    assert_eq!(app.mode, Mode::Everywhere);
    press(&mut app, "Esc");
    assert_eq!(app.mode, Mode::Normal);
}

/// The list hides the status bar: what is said of the hit being opened
/// (how far its read is, why it could not be opened) is on the list's
/// second row, until the next key; elsewhere it is in the status bar.
#[test]
fn a_note_on_opening_a_hit_is_on_the_list_until_the_next_key() {
    let mut app = app(TestDoc::turns(3));
    one_hit_listed(&mut app);
    app.note_opening("reading… 40% of 1.0 GiB".into());
    let second = |app: &mut App<TestDoc>| rows(&screen(app))[1].clone();
    assert!(
        second(&mut app).contains("reading… 40% of 1.0 GiB · 1 hit in 1 sessions"),
        "{}",
        second(&mut app)
    );
    app.forget_opening_note();
    assert!(!second(&mut app).contains("reading"), "{}", second(&mut app));
    app.note_opening("not opened: /s.jsonl: gone\x1b[31m".into());
    let row = second(&mut app);
    assert!(row.contains("not opened: /s.jsonl: gone"), "{row}");
    assert!(!row.contains('\x1b'), "{row}");
    press(&mut app, "Down");
    assert!(!second(&mut app).contains("not opened"), "{}", second(&mut app));
    // Outside the list, the status bar says it.
    press(&mut app, "Esc");
    assert_eq!(app.mode, Mode::Normal);
    app.note_opening("reading… 7% of 2.0 GiB".into());
    assert!(status(&mut app).contains("reading… 7% of 2.0 GiB"));
}

#[test]
fn key_capital_r_says_when_there_is_no_resume_command() {
    let mut app = app(TestDoc::turns(3));
    assert_eq!(press(&mut app, "R"), None);
    assert!(app.message.as_deref().unwrap().starts_with("no resume command"));
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
