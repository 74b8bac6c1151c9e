//! The viewer drawn into ratatui's `TestBackend` on a JP conversation folder,
//! opened at its end (earlier turns in outline) or read whole: the frames of
//! the two are compared byte for byte by the tests of opening at the end and
//! of following rewrites.

use std::path::Path;
use std::time::SystemTime;

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use overhear::load::Live;
use overhear::render::document::DocOptions;
use overhear::render::theme::Theme;
use overhear::source::ConversationDir;
use overhear::source::watch::Change;
use overhear::text::sanitize::SanitizeMode;
use overhear::tui::live::{LiveDocument, LiveUpdate};
use overhear::tui::{App, AppEvent, Follow, Proven, Reload, ViewerOptions};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;

/// A viewer on a conversation, `width` × `height`, at the end.
pub struct Viewer {
    pub app: App<LiveDocument>,
    pub term: Terminal<TestBackend>,
}

impl Viewer {
    /// A viewer on `live` with the default display choices.
    pub fn new(live: Live, width: u16, height: u16) -> Viewer {
        let doc = LiveDocument::new(
            live,
            DocOptions::default(),
            Theme::dark(),
            SanitizeMode::Strip,
        );
        let options = ViewerOptions {
            opened_at: SystemTime::UNIX_EPOCH,
            ..ViewerOptions::default()
        };
        let app = App::new(doc, options);
        let term = Terminal::new(TestBackend::new(width, height)).expect("a test terminal");
        Viewer { app, term }
    }

    /// The conversation folder `dir` read whole.
    pub fn whole(dir: &Path, width: u16, height: u16) -> Viewer {
        let live = Live::open_jp(ConversationDir::new(dir), None).expect("readable");
        Viewer::new(live, width, height)
    }

    /// The conversation folder `dir` opened at its end, as the viewer opens it.
    pub fn at_end(dir: &Path, width: u16, height: u16) -> Viewer {
        let live = Live::open_jp_at_end(ConversationDir::new(dir), None).expect("readable");
        Viewer::new(live, width, height)
    }

    /// The frame drawn now.
    pub fn frame(&mut self) -> Buffer {
        let app = &mut self.app;
        self.term.draw(|f| app.draw(f)).expect("drawn");
        self.term.backend().buffer().clone()
    }

    /// The viewer told that `events.json` changed, as the watcher tells it,
    /// at the file's own time (the status bar shows when the conversation
    /// last changed, and a viewer opened on the new file shows its time:
    /// the clock would differ from it across a second's edge), then as its
    /// loop goes on: the change drawn, then proven.
    pub fn reload(&mut self) {
        self.reload_unproven();
        self.frame();
        self.prove();
    }

    /// Proves what the last reload showed, a step at a time as the
    /// viewer's loop does; what the last step said.
    pub fn prove(&mut self) -> Proven {
        loop {
            match self.app.prove() {
                Proven::Working => {}
                done => return done,
            }
        }
    }

    /// [`Viewer::reload`] up to the change read, before the bytes before
    /// it are proven unchanged ([`Viewer::prove`]).
    pub fn reload_unproven(&mut self) {
        let at = self
            .app
            .document()
            .modified()
            .unwrap_or_else(SystemTime::now);
        self.app.reload(Reload {
            epoch: 0,
            update: LiveUpdate::Changed(Change::Events),
            at,
        });
    }

    /// How many leading turns are still in outline.
    pub fn earlier(&self) -> usize {
        self.app.document().source().earlier_turns()
    }

    /// Presses `keys` (`\n` is Enter, `↓` and `↑` Page Down and Page Up).
    /// A key that waits for every earlier turn to be read, for a search's
    /// matches to be counted or for another view to be built, goes as the viewer's loop makes it
    /// go: its note drawn first, then a step at a time, a frame between
    /// two, then the key does what it asks.
    pub fn keys(&mut self, keys: &str) {
        for c in keys.chars() {
            let code = match c {
                '\n' => KeyCode::Enter,
                '\u{2193}' => KeyCode::PageDown,
                '\u{2191}' => KeyCode::PageUp,
                c => KeyCode::Char(c),
            };
            let key = KeyEvent::new(code, KeyModifiers::NONE);
            self.app.handle(AppEvent::Terminal(Event::Key(key)));
            if self.app.is_reading() {
                let note = text(&self.frame());
                assert!(
                    ["reading… 0% of", "searching… ", "changing the view… 0%"]
                        .iter()
                        .any(|said| note.contains(said)),
                    "{note}"
                );
                while self.app.is_reading() {
                    assert_eq!(self.app.read_step(), None);
                    self.frame();
                }
            }
        }
    }
}

/// Asserts that `shown` (a viewer that reads the file its own way: opened
/// at its end, keeping little decoded) is the frame `whole` (a viewer on a
/// full read of the same file) shows, cells and styles; both as text if
/// not.
pub fn assert_same(shown: &Buffer, whole: &Buffer, what: &str) {
    assert!(
        shown == whole,
        "{what}: the viewer shows\n{}\n\nthe full read shows\n{}",
        text(shown),
        text(whole)
    );
}

/// The rows of a frame as text, for a readable failure.
pub fn text(buffer: &Buffer) -> String {
    let width = buffer.area.width as usize;
    buffer
        .content
        .chunks(width)
        .map(|row| row.iter().map(|cell| cell.symbol()).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}
