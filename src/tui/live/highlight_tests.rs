//! The viewer highlights only what it shows: the frames, once
//! highlighted, are the frames of a viewer that highlights every block whole,
//! and a key that jumps into a long code block waits for none of it.

use std::path::{Path, PathBuf};

use crossterm::event::Event;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use serde_json::json;

use super::*;
use crate::render::color_depth::ColorDepth;
use crate::source::ConversationDir;
use crate::tui::app::tests::key_event;
use crate::tui::app::{App, AppEvent, ViewerOptions};
use crate::tui::blocks::Viewable;

/// About 60 KB of Rust: overhear's own sources.
fn rust() -> String {
    let sources = [
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/render/markdown.rs")),
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/tui/app.rs")),
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/render/layout.rs")),
    ];
    let mut code = String::new();
    for line in sources.iter().flat_map(|s| s.lines()).cycle() {
        if code.len() + line.len() >= 60 * 1024 {
            break;
        }
        code.push_str(line);
        code.push('\n');
    }
    code
}

fn csv(rows: usize) -> String {
    (0..rows)
        .map(|i| format!("{i},item-{},\t{}.5,\"note\"\n", i * 7 % 100, i % 31))
        .collect()
}

/// A conversation with code everywhere a user meets it: a fence in a quote,
/// tool arguments, a code result, reasoning, and last a 60 KB Rust fence.
fn conversation(tmp: &Path) -> PathBuf {
    let dir = tmp.join("17760760747-code");
    std::fs::create_dir_all(&dir).unwrap();
    let ts = |k: u32| format!("2026-05-01 10:00:{k:02}.0");
    let events = json!([
        {"timestamp": ts(0), "type": "turn_start"},
        {"timestamp": ts(1), "type": "chat_request",
         "content": format!("Look:\n\n> ```csv\n{}> ```\n\n- and\n\n  ```json\n  {{\"a\": [1, 2]}}\n  ```\n",
             csv(120).lines().map(|l| format!("> {l}\n")).collect::<String>())},
        {"timestamp": ts(2), "type": "chat_response",
         "reasoning": format!("Checking:\n\n```python\n{}```\n", "def f(x):\n    return x * 2\n".repeat(40))},
        {"timestamp": ts(3), "type": "tool_call_request", "id": "t1", "name": "run",
         "arguments": {"command": "cat data.csv", "lines": [1, 2, 3]}},
        {"timestamp": ts(4), "type": "tool_call_response", "id": "t1",
         "content": format!("```csv\n{}```", csv(300)), "is_error": false},
        {"timestamp": ts(5), "type": "chat_response",
         "message": format!("Here it is:\n\n```rust\n{}```\n", rust())},
    ]);
    std::fs::write(
        dir.join("events.json"),
        serde_json::to_vec_pretty(&events).unwrap(),
    )
    .unwrap();
    dir
}

fn open(dir: &Path, theme: &Theme) -> LiveDocument {
    let live = Live::open_jp(ConversationDir::new(dir), None).unwrap();
    LiveDocument::new(
        live,
        DocOptions::default(),
        theme.clone(),
        SanitizeMode::Strip,
    )
}

/// Two viewers of the conversation in `dir`: the viewer as it is, and one
/// highlighting every block whole, to compare frames with.
fn side_by_side(dir: &Path, theme: &Theme) -> (App<LiveDocument>, App<Whole>) {
    (
        App::new(open(dir, theme), ViewerOptions::default()),
        App::new(Whole(open(dir, theme)), ViewerOptions::default()),
    )
}

/// A document highlighting every block whole, as the viewer did before.
struct Whole(LiveDocument);

impl Blocks for Whole {
    type Key = BlockKey;

    fn len(&self) -> usize {
        self.0.len()
    }

    fn key(&self, i: usize) -> BlockKey {
        self.0.key(i)
    }

    fn revision(&self, i: usize) -> u64 {
        self.0.revision(i)
    }

    fn turn(&self, i: usize) -> usize {
        self.0.turn(i)
    }

    fn class(&self, i: usize) -> BlockClass {
        self.0.class(i)
    }

    fn is(&self, i: usize, landmark: Landmark) -> bool {
        self.0.is(i, landmark)
    }

    fn limited(&self, i: usize) -> bool {
        self.0.limited(i)
    }

    fn foldable(&self, i: usize) -> bool {
        self.0.foldable(i)
    }

    fn owner(&self, i: usize) -> usize {
        self.0.owner(i)
    }

    fn lines(&self, i: usize, width: usize, folded: bool) -> Vec<Line<'static>> {
        self.0.lines(i, width, folded)
    }

    fn search_text(&self, i: usize) -> String {
        self.0.search_text(i)
    }

    fn full_text(&self, i: usize) -> Option<String> {
        self.0.full_text(i)
    }

    fn title(&self) -> String {
        self.0.title()
    }

    fn event_count(&self) -> usize {
        self.0.event_count()
    }

    fn view_name(&self) -> &'static str {
        self.0.view_name()
    }

    fn cycle_view(&mut self) {}
}

impl Follow for Whole {
    type Update = LiveUpdate;

    fn live(&self) -> LiveState {
        self.0.live()
    }

    fn update(&mut self, _: LiveUpdate) -> Result<bool, ReadError> {
        Ok(false)
    }

    fn attention(&self) -> Attention {
        self.0.attention()
    }
}

impl EarlierTurns for Whole {
}

impl Replaying for Whole {
}

fn press<D: Viewable>(app: &mut App<D>, key: &str) {
    app.handle(AppEvent::Terminal(Event::Key(key_event(key))));
}

fn frame<D: Viewable>(app: &mut App<D>, width: u16, height: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    app.cache.begin_frame();
    terminal.draw(|f| app.draw(f)).unwrap();
    app.cache.end_frame();
    terminal.backend().buffer().clone()
}

fn symbols(buffer: &Buffer) -> Vec<&str> {
    buffer.content.iter().map(|c| c.symbol()).collect()
}

/// Highlights what the viewer left for between keys.
fn idle(doc: &LiveDocument) {
    while doc.colour_more() != ColourStep::Idle {}
}

/// The time stamp in the status bar differs between two viewers opened a
/// moment apart: the frames are compared without the status bar.
fn text_area(buffer: &Buffer) -> Buffer {
    let mut area = buffer.area;
    area.height -= 1;
    let mut out = Buffer::empty(area);
    for y in 0..area.height {
        for x in 0..area.width {
            out[(x, y)] = buffer[(x, y)].clone();
        }
    }
    out
}

#[test]
fn frames_once_highlighted_are_those_of_whole_highlighting() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = conversation(tmp.path());
    let themes = [
        Theme::dark(),
        Theme::builtin("light").unwrap(),
        Theme::dark().with_depth(ColorDepth::None),
    ];
    let keys = [
        "", "g", "PgDn", "PgDn", "PgDn", "G", "PgUp", "PgUp", "g", "G",
    ];
    for (width, height) in [(40, 30), (80, 24), (200, 60)] {
        for theme in &themes {
            let (mut lazy, mut whole) = side_by_side(&dir, theme);
            for key in keys {
                if !key.is_empty() {
                    press(&mut lazy, key);
                    press(&mut whole, key);
                }
                let expected = text_area(&frame(&mut whole, width, height));
                let first = text_area(&frame(&mut lazy, width, height));
                // At once: the same text in the same cells, colour or not.
                assert_eq!(symbols(&first), symbols(&expected), "{width} cols, {key}");
                idle(lazy.document());
                let coloured = text_area(&frame(&mut lazy, width, height));
                assert_eq!(coloured, expected, "{width} cols, {key}");
            }
        }
    }
}

#[test]
fn a_jump_into_a_long_block_waits_for_no_highlighting() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = conversation(tmp.path());
    let theme = Theme::dark();
    let (width, height) = (80u16, 24u16);
    let rows = usize::from(height) - 1;
    let (mut app, mut whole) = side_by_side(&dir, &theme);
    // Opened at the end: the last screen of the 60 KB block (1,600 lines).
    let first = text_area(&frame(&mut app, width, height));
    let expected = text_area(&frame(&mut whole, width, height));
    assert_eq!(symbols(&first), symbols(&expected));
    // The colours of the screen's code: one plain colour for now, the
    // syntax's colours once highlighted.
    let colours = |b: &Buffer| {
        let mut fg: Vec<_> = (0..height - 1)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .map(|(x, y)| b[(x, y)].fg)
            .collect();
        fg.sort_by_key(|c| format!("{c:?}"));
        fg.dedup();
        fg
    };
    assert_ne!(colours(&first), colours(&expected), "plain for now");
    let at_open = app.document().highlighted_lines();
    assert!(at_open <= 2 * rows, "{at_open} lines highlighted to open");
    // The next key is answered from what is laid out: no highlighting.
    press(&mut app, "k");
    press(&mut whole, "k");
    let answered = text_area(&frame(&mut app, width, height));
    assert_eq!(
        symbols(&answered),
        symbols(&text_area(&frame(&mut whole, width, height)))
    );
    assert_eq!(app.document().highlighted_lines(), at_open);
    // Between keys, the block is highlighted down to the screen, and no further.
    idle(app.document());
    let coloured = frame(&mut app, width, height);
    assert_eq!(
        text_area(&coloured),
        text_area(&frame(&mut whole, width, height))
    );
    // Each line once: what opening highlighted (the block's top, which a
    // block coming into view from above shows) is not highlighted again.
    assert_eq!(app.document().highlighted_lines(), rust().lines().count());
    // Scrolling up a page inside it: already highlighted, nothing more.
    let before = app.document().highlighted_lines();
    press(&mut app, "PgUp");
    frame(&mut app, width, height);
    assert_eq!(app.document().highlighted_lines(), before);
}

#[test]
fn paging_down_a_long_block_highlights_a_page_at_a_time() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = conversation(tmp.path());
    let theme = Theme::dark();
    let (width, height) = (80u16, 24u16);
    let rows = usize::from(height) - 1;
    let (mut app, mut whole) = side_by_side(&dir, &theme);
    frame(&mut app, width, height);
    frame(&mut whole, width, height);
    // To the top of the block, by searching for the line above it.
    for key in [
        "/", "H", "e", "r", "e", " ", "i", "t", " ", "i", "s", "Enter",
    ] {
        press(&mut app, key);
        press(&mut whole, key);
    }
    let mut last = app.document().highlighted_lines();
    for page in 0..10 {
        press(&mut app, "PgDn");
        press(&mut whole, "PgDn");
        // Highlighted while the key waits, with nothing done between keys.
        assert_eq!(
            text_area(&frame(&mut app, width, height)),
            text_area(&frame(&mut whole, width, height)),
            "page {page}"
        );
        let now = app.document().highlighted_lines();
        assert!(now - last <= 2 * rows, "{} lines for one page", now - last);
        last = now;
    }
}
