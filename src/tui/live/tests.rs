use std::path::{Path, PathBuf};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::Value;

use super::*;
use crate::render::document::DocView;
use crate::source::ConversationDir;
use crate::text::width::line_text;
use crate::tui::app::{App, AppEvent, Proven, Reload, ViewerOptions};
use crate::tui::clock::Clock;
use crate::tui::keys::Action;
use crate::tui::live::CODE_WIDTH;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/jp/current");

/// The `current` fixture copied into a temporary conversation folder with
/// only its first `events` events.
fn conversation(tmp: &Path, events: usize) -> PathBuf {
    let dir = tmp.join("17760760747-live");
    std::fs::create_dir_all(&dir).unwrap();
    for file in ["base_config.json", "metadata.json"] {
        std::fs::copy(Path::new(FIXTURE).join(file), dir.join(file)).unwrap();
    }
    write_events(&dir, events);
    dir
}

fn write_events(dir: &Path, events: usize) {
    let all: Vec<Value> =
        serde_json::from_slice(&std::fs::read(Path::new(FIXTURE).join("events.json")).unwrap())
            .unwrap();
    let some: Vec<&Value> = all.iter().take(events).collect();
    std::fs::write(
        dir.join("events.json"),
        serde_json::to_vec_pretty(&some).unwrap(),
    )
    .unwrap();
}

fn open(dir: &Path) -> LiveDocument {
    let live = Live::open_jp(ConversationDir::new(dir), None).unwrap();
    LiveDocument::new(
        live,
        DocOptions::default(),
        Theme::dark(),
        SanitizeMode::Strip,
    )
}

fn card_of(doc: &LiveDocument, tool_id: &str) -> Option<usize> {
    (0..doc.len()).find(|&i| {
        doc.class(i) == BlockClass::ToolCard && doc.search_text(i).contains(tool_id)
            || matches!(&doc.block(i).kind, BlockKind::ToolCard(card)
                if format!("{:?}", doc.live.borrow().conversation.events[card.call.request]).contains(tool_id))
    })
}

#[test]
fn blocks_have_distinct_keys_and_lines_fit() {
    let tmp = tempfile::tempdir().unwrap();
    let doc = open(&conversation(tmp.path(), 100));
    assert!(doc.len() > 5);
    let keys: std::collections::HashSet<BlockKey> = (0..doc.len()).map(|i| doc.key(i)).collect();
    assert_eq!(keys.len(), doc.len());
    for i in 0..doc.len() {
        for line in doc.lines(i, 50, false) {
            // Code is not wrapped: it keeps its columns for `h`/`l`.
            assert!(
                crate::text::width::line_width(&line) <= CODE_WIDTH,
                "{}",
                line_text(&line)
            );
        }
    }
    assert_eq!(doc.live(), LiveState::Finished, "no workspace, no lock");
    assert_eq!(doc.view_name(), "terminal");
}

#[test]
fn a_response_arriving_changes_the_card_but_not_its_key() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = conversation(tmp.path(), 4);
    let mut doc = open(&dir);
    let card = card_of(&doc, "toolu_01").unwrap();
    let key = doc.key(card);
    let before = doc.revision(card);
    write_events(&dir, 100);
    assert_eq!(doc.update(LiveUpdate::Changed(Change::Events)), Ok(true));
    let after = (0..doc.len()).find(|&i| doc.key(i) == key).unwrap();
    assert_ne!(doc.revision(after), before);
    assert!(doc.len() > card + 1);
    assert_eq!(
        doc.update(LiveUpdate::Changed(Change::Events)),
        Ok(false),
        "nothing new"
    );
}

#[test]
fn removal_and_return_show_in_the_live_state() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = conversation(tmp.path(), 100);
    let mut doc = open(&dir);
    assert_eq!(doc.update(LiveUpdate::Changed(Change::Removed)), Ok(true));
    assert_eq!(doc.live(), LiveState::Removed);
    assert_eq!(doc.update(LiveUpdate::Changed(Change::Returned)), Ok(true));
    assert_ne!(doc.live(), LiveState::Removed);
    assert_eq!(
        doc.update(LiveUpdate::Changed(Change::Error("lost events".into()))),
        Err(ReadError::new("lost events"))
    );
}

#[test]
fn a_broken_rewrite_is_reported_and_the_content_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = conversation(tmp.path(), 100);
    let mut doc = open(&dir);
    let len = doc.len();
    std::fs::write(dir.join("events.json"), "[{").unwrap();
    let err = doc.update(LiveUpdate::Changed(Change::Events)).unwrap_err();
    assert!(err.to_string().contains("events.json"), "{err}");
    assert_eq!(doc.len(), len);
}

#[test]
fn views_cycle_and_change_the_blocks() {
    let tmp = tempfile::tempdir().unwrap();
    let mut doc = open(&conversation(tmp.path(), 100));
    let terminal = doc.len();
    doc.cycle_view();
    assert_eq!(doc.view_name(), DocView::User.name());
    assert!(doc.len() < terminal);
    doc.cycle_view();
    assert_eq!(doc.view_name(), "raw");
}

#[test]
fn full_texts_are_sanitized_and_the_title_is_echoed_where_it_is_drawn() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = conversation(tmp.path(), 100);
    std::fs::write(
        dir.join("metadata.json"),
        r#"{"title": "Build \u001b]0;owned\u0007date"}"#,
    )
    .unwrap();
    let doc = open(&dir);
    // The status bar shows it through text::sanitize::echo_line (draw.rs).
    assert_eq!(doc.title(), "Build \u{1b}]0;owned\u{7}date");
    assert_eq!(
        crate::text::sanitize::echo_line(&doc.title()),
        "Build ␛date"
    );
    for i in 0..doc.len() {
        if let Some(text) = doc.full_text(i) {
            assert!(!text.contains('\u{1b}'));
        }
    }
}

#[test]
fn a_title_change_reads_only_the_title_and_events_wait_for_their_own_notice() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = conversation(tmp.path(), 10);
    let mut doc = open(&dir);
    let len = doc.len();
    std::fs::write(dir.join("metadata.json"), r#"{"title": "Renamed"}"#).unwrap();
    write_events(&dir, 24);
    assert_eq!(doc.update(LiveUpdate::Changed(Change::Metadata)), Ok(true));
    assert_eq!(doc.title(), "Renamed");
    assert_eq!(doc.len(), len, "events.json is not read for a title");
    assert_eq!(doc.update(LiveUpdate::Changed(Change::Events)), Ok(true));
    assert!(doc.len() > len);
    assert_eq!(doc.title(), "Renamed");
}

/// An update carrying `bytes` of a stream.
fn stream_update(bytes: &[u8]) -> LiveUpdate {
    let inbox = StreamInbox::new(|_| {});
    inbox.put(bytes);
    LiveUpdate::Stream(inbox)
}

#[test]
fn stdin_streams_feed_the_document() {
    let mut doc = LiveDocument::new(
        Live::stdin(),
        DocOptions::default(),
        Theme::dark(),
        SanitizeMode::Strip,
    );
    assert_eq!(doc.title(), "standard input");
    assert_eq!(doc.live(), LiveState::Live);
    let stream = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/eve/update-then-final.ndjson"
    ))
    .unwrap();
    let inbox = StreamInbox::new(|_| {});
    inbox.put(&stream);
    assert_eq!(doc.update(LiveUpdate::Stream(inbox.clone())), Ok(true));
    assert!(doc.len() > 0);
    inbox.finish(StreamEnd::Closed);
    assert_eq!(doc.update(LiveUpdate::Stream(inbox)), Ok(true));
    assert_eq!(doc.live(), LiveState::Finished);
}

#[test]
fn the_viewer_draws_a_real_conversation() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = conversation(tmp.path(), 100);
    // The status bar shows when the file last changed: make it a known time.
    let changed = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_775_840_645);
    std::fs::File::options()
        .append(true)
        .open(dir.join("events.json"))
        .unwrap()
        .set_modified(changed)
        .unwrap();
    let mut app = viewer(&dir);
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    app.act(Action::Top);
    app.act(Action::NextCard);
    terminal.draw(|f| app.draw(f)).unwrap();
    insta::with_settings!({
        snapshot_path => concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots"),
        prepend_module_to_snapshot => false,
    }, {
        insta::assert_snapshot!("tui_live_card_unfolded", terminal.backend());
        app.act(Action::ToggleFold);
        terminal.draw(|f| app.draw(f)).unwrap();
        insta::assert_snapshot!("tui_live_card_folded", terminal.backend());
    });
    // A reload that changes nothing keeps the view where it is.
    let before = terminal.backend().buffer().clone();
    app.handle(AppEvent::Reload(Reload {
        epoch: 0,
        update: LiveUpdate::Changed(Change::Events),
        at: std::time::UNIX_EPOCH,
    }));
    terminal.draw(|f| app.draw(f)).unwrap();
    assert_eq!(&before, terminal.backend().buffer());
}

/// The viewer on `dir`, its clock in UTC and opened at the epoch, so that
/// screens do not depend on when the test runs.
fn viewer(dir: &Path) -> App<LiveDocument> {
    App::new(
        open(dir),
        ViewerOptions {
            clock: Clock::Utc,
            opened_at: std::time::UNIX_EPOCH,
            ..ViewerOptions::default()
        },
    )
}

/// Presses `keys` (single characters) in the viewer.
fn press(app: &mut App<LiveDocument>, keys: &str) {
    use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
    for c in keys.chars() {
        let key = KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        app.handle(AppEvent::Terminal(Event::Key(key)));
    }
}

fn screen_text(terminal: &Terminal<TestBackend>) -> String {
    let buf = terminal.backend().buffer();
    (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
                + "\n"
        })
        .collect()
}

#[test]
fn l_reveals_the_end_of_a_long_code_line_and_h_comes_back() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("17760760747-wide");
    std::fs::create_dir_all(&dir).unwrap();
    let long = format!("let end = \\\"{}THE-END\\\";", "x".repeat(120));
    let events = format!(
        r#"[{{"timestamp": "2026-04-10 17:04:00.5", "type": "turn_start"}},
            {{"timestamp": "2026-04-10 17:04:01.5", "type": "chat_request",
              "content": "Some prose that wraps at the window width like any text, never cut.\n\n```rust\n{long}\n```"}}]"#
    );
    std::fs::write(dir.join("events.json"), events).unwrap();
    let mut app = viewer(&dir);
    let mut terminal = Terminal::new(TestBackend::new(60, 16)).unwrap();
    terminal.draw(|f| app.draw(f)).unwrap();
    let first = screen_text(&terminal);
    assert!(first.contains("Some prose that wraps"), "{first}");
    assert!(first.contains("let end"), "{first}");
    assert!(!first.contains("THE-END"), "{first}");
    press(&mut app, &"l".repeat(12));
    terminal.draw(|f| app.draw(f)).unwrap();
    let scrolled = screen_text(&terminal);
    assert!(scrolled.contains("THE-END\";"), "{scrolled}");
    assert!(!scrolled.contains("let end"), "{scrolled}");
    let hscroll = app.hscroll;
    press(&mut app, "l");
    assert_eq!(
        app.hscroll, hscroll,
        "no further than the end of the widest line"
    );
    press(&mut app, &"h".repeat(20));
    terminal.draw(|f| app.draw(f)).unwrap();
    assert_eq!(screen_text(&terminal), first);
}

#[test]
fn problems_shown_in_the_status_bar_name_the_file_without_its_folder() {
    assert_eq!(
        without_folder("/home/me/.jp/conversations/1-x/events.json: line 3, column 1: cut"),
        "events.json: line 3, column 1: cut"
    );
    assert_eq!(
        without_folder("--theme nope: no such theme"),
        "--theme nope: no such theme"
    );
}

/// Everything a document shows: its blocks, warnings and every block's
/// fingerprint (kept fingerprints must still be right).
fn shown(doc: &LiveDocument) -> (String, Vec<u64>) {
    let revisions = (0..doc.len()).map(|i| doc.revision(i)).collect();
    (format!("{:?}", doc.doc), revisions)
}

#[test]
fn a_jp_rewrite_that_appends_shows_what_a_fresh_open_shows() {
    let tmp = tempfile::tempdir().unwrap();
    let total = 24;
    for cut in [1, 3, 7, 12, 20] {
        let dir = conversation(tmp.path(), cut);
        let mut doc = open(&dir);
        // Fingerprints of the kept blocks were computed before the append.
        let _ = shown(&doc);
        write_events(&dir, total);
        assert_eq!(doc.update(LiveUpdate::Changed(Change::Events)), Ok(true));
        assert_eq!(doc.event_count(), open(&dir).event_count());
        assert_eq!(
            shown(&doc),
            shown(&open(&dir)),
            "appended after event {cut}"
        );
    }
}

#[test]
fn an_eve_stream_read_line_by_line_shows_what_reading_it_at_once_shows() {
    let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/eve");
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        let stream = std::fs::read(&path).unwrap();
        for view in [DocView::Terminal, DocView::Raw] {
            let stdin = |bytes: &[u8]| {
                let mut doc = LiveDocument::new(
                    Live::stdin(),
                    DocOptions {
                        view,
                        ..DocOptions::default()
                    },
                    Theme::dark(),
                    SanitizeMode::Strip,
                );
                doc.update(stream_update(bytes)).unwrap();
                doc
            };
            let mut doc = stdin(&[]);
            let mut read = 0;
            for line in stream.split_inclusive(|&b| b == b'\n') {
                let _ = shown(&doc);
                doc.update(stream_update(line)).unwrap();
                read += line.len();
                assert_eq!(
                    shown(&doc),
                    shown(&stdin(&stream[..read])),
                    "{} ({view:?}) after byte {read}",
                    path.display()
                );
            }
        }
    }
}

/// The viewer on a conversation whose one tool result, shown in full, is
/// big enough to be cut into pieces: `lines` lines `line N`.
fn viewer_of_a_huge_result(tmp: &Path, lines: usize) -> App<LiveDocument> {
    let dir = tmp.join("17760760747-huge");
    std::fs::create_dir_all(&dir).unwrap();
    let result: Vec<String> = (1..=lines).map(|i| format!("line {i}")).collect();
    let events = serde_json::json!([
        {"timestamp": "2026-04-10 17:04:00.5", "type": "turn_start"},
        {"timestamp": "2026-04-10 17:04:01.5", "type": "chat_request", "content": "read it"},
        {"timestamp": "2026-04-10 17:04:02.5", "type": "tool_call_request", "id": "c1",
         "name": "fs_read_file", "arguments": {"path": "big.txt"}},
        {"timestamp": "2026-04-10 17:04:03.5", "type": "tool_call_response", "id": "c1",
         "content": result.join("\n"), "is_error": false},
        {"timestamp": "2026-04-10 17:04:04.5", "type": "chat_response", "message": "done"},
    ]);
    std::fs::write(dir.join("events.json"), events.to_string()).unwrap();
    let mut options = DocOptions::default();
    options
        .overlay
        .set("conversation.tools.fs_read_file.style.inline_results=full")
        .unwrap();
    let live = Live::open_jp(ConversationDir::new(&dir), None).unwrap();
    let doc = LiveDocument::new(live, options, Theme::dark(), SanitizeMode::Strip);
    let mut app = App::new(doc, ViewerOptions::default());
    app.resize(80, 24);
    app
}

fn cursor_text(app: &mut App<LiveDocument>) -> String {
    let pos = app.cursor_pos().unwrap();
    line_text(&app.sheet().lines(pos.block)[pos.line])
}

#[test]
fn a_huge_result_is_cut_into_pieces_that_fold_as_one_card() {
    let tmp = tempfile::tempdir().unwrap();
    let mut app = viewer_of_a_huge_result(tmp.path(), 40_000);
    let doc = app.document();
    let pieces: Vec<usize> = (0..doc.len()).filter(|&i| doc.owner(i) != i).collect();
    assert!(pieces.len() > 10, "the result is cut: {} blocks", doc.len());
    let card = doc.owner(pieces[0]);
    // Opening at the end laid out the last piece, not the whole card.
    assert!(app.cache.len() < 6, "{} blocks laid out", app.cache.len());

    // Fold from inside a piece in the middle of the result: the whole card folds.
    for _ in 0..500 {
        app.act(Action::PageUp);
    }
    let inside = app.cursor_pos().unwrap().block;
    assert!(pieces.contains(&inside) && inside != card);
    assert!(cursor_text(&mut app).contains("line "));
    app.act(Action::ToggleFold);
    assert!(app.sheet().is_folded(card));
    for &piece in &pieces {
        assert_eq!(app.sheet().height(piece), 0, "piece {piece} folded away");
    }
    assert!(cursor_text(&mut app).contains("40000 lines folded"));
    // Folded, the whole conversation fits on one screen.
    app.act(Action::Bottom);
    let (top, rows) = (app.top, app.rows);
    assert!(app.sheet().rows(top, rows).len() < rows);
    app.act(Action::PrevCard);
    app.act(Action::ToggleFold);
    assert!(!app.sheet().is_folded(card));

    // `{` from inside a piece lands on the card's header.
    app.act(Action::Bottom);
    for _ in 0..3 {
        app.act(Action::PageUp);
    }
    app.act(Action::PrevCard);
    assert_eq!(
        app.cursor_pos().unwrap(),
        crate::tui::lazy_layout::Pos::new(card, 0)
    );
}

#[test]
fn search_finds_lines_in_every_piece_of_a_huge_result() {
    let tmp = tempfile::tempdir().unwrap();
    let mut app = viewer_of_a_huge_result(tmp.path(), 40_000);
    app.act(Action::Top);
    for wanted in ["line 3", "line 2049", "line 20500", "line 39999"] {
        press(&mut app, "/");
        press(&mut app, wanted);
        app.handle(AppEvent::Terminal(crossterm::event::Event::Key(
            crossterm::event::KeyEvent::from(crossterm::event::KeyCode::Enter),
        )));
        let text = cursor_text(&mut app);
        assert!(text.ends_with(&format!("│ {wanted}")), "{wanted}: {text:?}");
    }
}

/// Blocks the viewer lays out to take a change of its events file and draw
/// the next frame of `terminal`, then prove the change as its loop does
/// (and draw again if the proof changed anything).
fn layouts_to_reload(app: &mut App<LiveDocument>, terminal: &mut Terminal<TestBackend>) -> usize {
    let before = app.cache.laid_out();
    app.handle(AppEvent::Reload(Reload {
        epoch: 0,
        update: LiveUpdate::Changed(Change::Events),
        at: std::time::UNIX_EPOCH,
    }));
    terminal.draw(|f| app.draw(f)).unwrap();
    loop {
        match app.prove() {
            Proven::Working => {}
            Proven::Shown => break,
            Proven::Redraw(_) => {
                terminal.draw(|f| app.draw(f)).unwrap();
                break;
            }
        }
    }
    app.cache.laid_out() - before
}

/// The viewer following the end of `dir`'s conversation, drawn once.
fn following(dir: &Path) -> (App<LiveDocument>, Terminal<TestBackend>) {
    let mut app = viewer(dir);
    app.act(Action::Bottom);
    let mut terminal = Terminal::new(TestBackend::new(120, 60)).unwrap();
    terminal.draw(|f| app.draw(f)).unwrap();
    (app, terminal)
}

#[test]
fn a_rewrite_that_appends_lays_out_only_the_blocks_that_changed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = conversation(tmp.path(), 8);
    let (mut app, mut terminal) = following(&dir);
    // Nothing changed: nothing is laid out again.
    assert_eq!(layouts_to_reload(&mut app, &mut terminal), 0);
    // JP rewrites the whole file for every event; each rewrite lays out the
    // blocks it adds and the few it changes: the turn's rule (its duration
    // and state) and the cards that got their results (two calls made at
    // once are answered together) — never the rest of what is on screen.
    let mut laid_out_new = 0;
    for events in 9..24 {
        let blocks = app.document().len();
        write_events(&dir, events);
        let again = layouts_to_reload(&mut app, &mut terminal);
        let added = app.document().len() - blocks;
        assert!(
            again <= added + 3,
            "event {events}: {again} blocks laid out again for {added} new block(s)"
        );
        if added > 0 {
            laid_out_new += again;
        }
    }
    assert!(laid_out_new > 0, "new blocks reached the screen");
    // A fresh viewer of the same file lays out everything it shows.
    write_events(&dir, 24);
    let again = layouts_to_reload(&mut app, &mut terminal);
    let (fresh, _) = following(&dir);
    assert!(
        again < fresh.cache.laid_out(),
        "a rewrite lays out less than a fresh open"
    );
}

#[test]
fn an_appended_line_lays_out_only_the_blocks_that_changed() {
    let stream = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/eve/approvals.ndjson"
    ))
    .unwrap();
    let lines: Vec<&[u8]> = stream.split_inclusive(|&b| b == b'\n').collect();
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("session.ndjson");
    let head = lines.len() - 1;
    std::fs::write(&path, lines[..head].concat()).unwrap();
    let open_viewer = |path: &Path| {
        let doc = LiveDocument::new(
            Live::open_eve(path.to_path_buf()).unwrap(),
            DocOptions::default(),
            Theme::dark(),
            SanitizeMode::Strip,
        );
        let mut app = App::new(
            doc,
            ViewerOptions {
                clock: Clock::Utc,
                opened_at: std::time::UNIX_EPOCH,
                ..ViewerOptions::default()
            },
        );
        app.act(Action::Bottom);
        let mut terminal = Terminal::new(TestBackend::new(120, 60)).unwrap();
        terminal.draw(|f| app.draw(f)).unwrap();
        (app, terminal)
    };
    let (mut app, mut terminal) = open_viewer(&path);
    let blocks = app.document().len();
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    std::io::Write::write_all(&mut file, lines[head]).unwrap();
    let again = layouts_to_reload(&mut app, &mut terminal);
    let (fresh, _) = open_viewer(&path);
    let everything = fresh.cache.laid_out();
    let added = app.document().len() - blocks;
    assert!(
        (1..=added + 1).contains(&again) && again < everything,
        "{again} blocks laid out again for {added} new block(s); a fresh viewer lays out {everything}"
    );
}
