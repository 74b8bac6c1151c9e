//! A key that needs every earlier turn of a conversation opened at its end
//! (`g`, `/`, `{`…): the turns are read a step at a time, the status bar
//! says how far, `q` and Ctrl-C quit at once, `Esc` stops, a resize or an
//! append is answered between two steps, and what was typed meanwhile waits
//! for the key.

use super::*;
use crate::tui::blocks::{Blocks, EarlierTurns};

/// 40 turns, the last 2 read, the others read 4 at a time: 38 earlier
/// turns in 10 steps.
fn opened_at_end() -> App<TestDoc> {
    app(TestDoc::at_end(40, 2, 4))
}

/// Steps until the read is done, as the runner does between events, and
/// hands what was typed meanwhile to the app; the effects asked.
fn finish_reading(app: &mut App<TestDoc>) -> Vec<Effect> {
    let mut effects = Vec::new();
    while app.is_reading() {
        effects.extend(app.read_step());
    }
    while let Some(event) = app.typed_event() {
        effects.extend(app.handle(event));
    }
    effects
}

#[test]
fn g_reads_the_earlier_turns_a_step_at_a_time_saying_how_far_then_goes_to_the_top() {
    let mut app = opened_at_end();
    assert_eq!(app.doc.earlier(), 38);
    assert_eq!(press(&mut app, "g"), None);
    assert!(app.is_reading());
    assert_eq!(
        app.doc.earlier(),
        38,
        "nothing read before the note is drawn"
    );
    assert!(
        status(&mut app).contains("reading… 0% of 38 earlier turns · Esc cancels"),
        "{}",
        status(&mut app)
    );
    let mut seen = Vec::new();
    while app.is_reading() {
        assert_eq!(app.read_step(), None);
        seen.push(status(&mut app));
    }
    // Four turns a step: 4/38, 8/38, … each shown, then the top.
    assert!(seen[0].contains("reading… 10% of"), "{}", seen[0]);
    assert!(seen[1].contains("reading… 21% of"), "{}", seen[1]);
    assert!(seen[8].contains("reading… 94% of"), "{}", seen[8]);
    assert_eq!(seen.len(), 10);
    assert_eq!(app.doc.earlier(), 0);
    assert_eq!(top_line(&mut app), "── turn 1 ──");
    assert!(!status(&mut app).contains("reading"));
}

#[test]
fn q_and_ctrl_c_quit_at_once_while_reading() {
    for quit in ["q", "ctrl-c"] {
        let mut app = opened_at_end();
        press(&mut app, "g");
        app.read_step();
        assert_eq!(press(&mut app, quit), Some(Effect::Quit), "{quit}");
        assert_eq!(app.doc.earlier(), 34, "{quit}: no waiting for the rest");
    }
}

#[test]
fn ctrl_z_suspends_at_once_and_the_read_goes_on_after() {
    let mut app = opened_at_end();
    press(&mut app, "g");
    assert_eq!(press(&mut app, "ctrl-z"), Some(Effect::Suspend));
    assert!(app.is_reading());
    finish_reading(&mut app);
    assert_eq!(top_line(&mut app), "── turn 1 ──");
}

#[test]
fn esc_stops_the_read_keeps_what_was_read_and_the_viewer_answers_keys_again() {
    let mut app = opened_at_end();
    let top = top_line(&mut app);
    press(&mut app, "g");
    app.read_step();
    app.read_step();
    press(&mut app, "j");
    press(&mut app, "Esc");
    assert!(!app.is_reading());
    assert_eq!(
        status(&mut app).split("  ").next().unwrap(),
        " stopped reading: 30 earlier turns left unread"
    );
    // What was read stays read; the view did not move, and `g` was dropped
    // with the `j` typed after it.
    assert_eq!(app.doc.earlier(), 30);
    assert_eq!(top_line(&mut app), top);
    let reads = app.doc.reads;
    assert_eq!(app.read_step(), None);
    assert_eq!(app.doc.reads, reads, "no read once stopped");
    assert_eq!(app.typed_event().map(|_| ()), None);
    // Keys act at once again.
    let row = app.cursor;
    press(&mut app, "k");
    assert_eq!(app.cursor, row - 1);
}

#[test]
fn keys_typed_while_reading_wait_for_the_key_in_the_order_typed() {
    let mut app = opened_at_end();
    press(&mut app, "/");
    assert!(app.is_reading());
    // Typed on: a query for the prompt `/` opens once every turn is read.
    typed(&mut app, "question number 3,");
    press(&mut app, "Enter");
    assert_eq!(app.mode, Mode::Normal, "nothing typed acts before the key");
    app.read_step();
    assert_eq!(app.search, None);
    assert_eq!(finish_reading(&mut app), Vec::new());
    assert_eq!(
        cursor_line(&mut app),
        "you: question number 3, please look at the parser"
    );
}

#[test]
fn a_resize_while_reading_is_drawn_at_once() {
    let mut app = opened_at_end();
    press(&mut app, "g");
    app.read_step();
    app.handle(AppEvent::Terminal(Event::Resize(40, 12)));
    assert!(app.is_reading());
    assert_eq!((app.width, app.rows), (40, 11));
    let mut terminal = Terminal::new(TestBackend::new(40, 12)).unwrap();
    terminal.draw(|f| app.draw(f)).unwrap();
    let bar = rows(&terminal).pop().unwrap();
    assert!(bar.starts_with(" reading… 10% of 38 "), "{bar}");
    finish_reading(&mut app);
    assert_eq!(top_line(&mut app), "── turn 1 ──");
}

#[test]
fn an_append_while_reading_is_followed() {
    let mut app = opened_at_end();
    press(&mut app, "g");
    app.read_step();
    // Turns 35–40 are read; turn 41 is appended.
    let blocks = turn_blocks(35..42);
    let events = 41 * 5;
    app.handle(AppEvent::Reload(Reload {
        epoch: 0,
        update: (Some((blocks, events)), LiveState::Live),
        at: UNIX_EPOCH,
    }));
    assert!(app.is_reading());
    assert!(
        rows(&screen(&mut app))
            .iter()
            .any(|row| row.contains("the answer to question 41")),
        "the new turn on screen"
    );
    finish_reading(&mut app);
    assert_eq!(top_line(&mut app), "── turn 1 ──");
    assert_eq!(app.doc.turn(app.doc.len() - 1), 41);
}

#[test]
fn a_read_that_fails_stops_with_the_problem_and_without_the_key() {
    let mut app = opened_at_end();
    press(&mut app, "g");
    app.read_step();
    app.doc.unreadable = Some("events.json: Input/output error".into());
    assert_eq!(app.read_step(), None);
    assert!(!app.is_reading());
    assert!(
        status(&mut app).contains("events.json: Input/output error"),
        "{}",
        status(&mut app)
    );
    assert_ne!(top_line(&mut app), "── turn 1 ──");
}

#[test]
fn a_repeated_key_goes_on_with_its_repeats_once_the_earlier_turns_are_read() {
    // The last turn read has one card: `3{` finds it, then reads the
    // earlier turns for the two repeats left.
    let mut app = app(TestDoc::at_end(10, 1, 3));
    press(&mut app, "3 {");
    assert!(app.is_reading());
    finish_reading(&mut app);
    assert!(
        cursor_line(&mut app).contains("fs_read_file 8"),
        "{}",
        cursor_line(&mut app)
    );
}

/// 300 blocks of 20 KB of text each (6 MB, three steps of counting a
/// search's matches), `wombat` only in block 290.
fn long_text() -> App<TestDoc> {
    let filler = "the reader parses the stream ".repeat(700);
    let blocks = (0..300)
        .map(|k| {
            let text = if k == 290 {
                format!("{filler}\nthe wombat is here")
            } else {
                filler.clone()
            };
            TestBlock::new(k, 1 + k as usize / 10, ClassTag::Text, &text)
        })
        .collect();
    let mut app = app(TestDoc::new("Long", blocks));
    press(&mut app, "g");
    app
}

#[test]
fn a_search_through_more_text_than_a_step_counts_its_matches_a_step_at_a_time_then_lands() {
    let mut app = long_text();
    typed(&mut app, "/wombat");
    press(&mut app, "Enter");
    assert!(app.is_reading(), "6 MB of text is more than one step");
    let mut seen = vec![status(&mut app)];
    while app.is_reading() {
        assert_eq!(app.read_step(), None);
        seen.push(status(&mut app));
    }
    assert!(seen[0].contains("searching… 34% · Esc cancels"), "{}", seen[0]);
    assert!(seen[1].contains("searching… 69%"), "{}", seen[1]);
    assert_eq!(cursor_line(&mut app), "the wombat is here");
    assert!(seen.last().unwrap().contains("match 1/1"), "{seen:?}");
    // Counted once: `n` goes on at once, around to the same match.
    press(&mut app, "n");
    assert!(!app.is_reading());
    assert_eq!(cursor_line(&mut app), "the wombat is here");
}

#[test]
fn esc_stops_a_search_counting_its_matches_and_the_view_stays() {
    let mut app = long_text();
    let top = top_line(&mut app);
    typed(&mut app, "/wombat");
    press(&mut app, "Enter");
    app.read_step();
    assert!(app.is_reading());
    press(&mut app, "Esc");
    assert!(!app.is_reading());
    assert!(status(&mut app).contains("stopped searching: n searches again"));
    assert_eq!(top_line(&mut app), top);
    press(&mut app, "n");
    finish_reading(&mut app);
    assert_eq!(cursor_line(&mut app), "the wombat is here");
}
