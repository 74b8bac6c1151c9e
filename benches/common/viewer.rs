//! The viewer's way through a JP conversation folder, measured inside one
//! process: opened at its end (the earlier turns in outline), the document
//! built, the last screen drawn at 200×60 through the viewer's own backend
//! (crossterm's, writing its escape sequences into a sink: a `TestBackend`
//! would hold a third screen of cells the viewer never has); then, if asked,
//! `g` pressed and every earlier turn read a step at a time as the viewer's
//! loop reads them. Shared by `examples/open_large.rs` (which prints each
//! phase) and `benches/limits.rs` (which compares them with Python in the
//! same run). Memory is a per-process figure: run each in a process of its
//! own.

use std::path::Path;
use std::time::{Duration, Instant};

use overhear::load::Live;
use overhear::render::document::DocOptions;
use overhear::render::highlight::highlight;
use overhear::render::theme::Theme;
use overhear::source::ConversationDir;
use overhear::text::sanitize::SanitizeMode;
use overhear::tui::live::LiveDocument;
use overhear::tui::{App, AppEvent, Blocks, ViewerOptions};
use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};

/// The screen the viewer draws on: crossterm's backend, as in
/// `tui::run`, writing into nothing.
pub type Screen = Terminal<CrosstermBackend<std::io::Sink>>;

/// How the conversation is opened.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Way {
    /// As the viewer does: at its end, the earlier turns in outline.
    AtEnd,
    /// As the viewer did before: read whole.
    Whole,
}

/// A conversation open in a viewer, its last screen drawn.
pub struct Opened {
    /// The viewer.
    pub app: App<LiveDocument>,
    /// Its screen.
    pub terminal: Screen,
    /// From the start of the reading to the last screen drawn.
    pub wall: Duration,
    /// The process's CPU time over the same (the highlighter warming on its
    /// thread included, as in the viewer).
    pub cpu: Duration,
}

/// Opens the conversation folder `dir` the viewer's way and draws its last
/// screen; `phase` hears each phase's name as it ends.
pub fn open(dir: &Path, way: Way, mut phase: impl FnMut(&str)) -> Result<Opened, String> {
    let (start, cpu) = (Instant::now(), cpu_time());
    // The viewer loads the highlighter's syntaxes on another thread while
    // the conversation is read (`tui::viewer`).
    let theme = Theme::dark();
    let warm = theme.clone();
    std::thread::spawn(move || highlight("fn main() {}", Some("rust"), &warm));
    let dir = ConversationDir::new(dir);
    let live = match way {
        Way::Whole => Live::open_jp(dir, None),
        Way::AtEnd => Live::open_jp_at_end(dir, None),
    }
    .map_err(|e| e.to_string())?;
    phase("read, parsed and grouped");
    let doc = LiveDocument::new(live, DocOptions::default(), theme, SanitizeMode::Strip);
    phase("document built");
    let mut app = App::new(doc, ViewerOptions::default());
    // A fixed size: the viewer asks its terminal, a sink has none.
    let viewport = Viewport::Fixed(Rect::new(0, 0, 200, 60));
    let mut terminal = Terminal::with_options(
        CrosstermBackend::new(std::io::sink()),
        TerminalOptions { viewport },
    )
    .map_err(|e| e.to_string())?;
    terminal.draw(|f| app.draw(f)).map_err(|e| e.to_string())?;
    let (wall, cpu) = (start.elapsed(), cpu_time() - cpu);
    phase("last screen drawn");
    Ok(Opened {
        app,
        terminal,
        wall,
        cpu,
    })
}

/// How `g` read every earlier turn.
pub struct Steps {
    /// How many steps (a step read, then a frame drawn).
    pub count: usize,
    /// The median step with its frame.
    pub median: Duration,
    /// The longest step with its frame: the longest a key waits (keys,
    /// signals and resizes are answered between two steps, docs/tui.md).
    pub longest: Duration,
}

/// Presses `g` in `opened` and reads every earlier turn as the viewer's
/// loop does (a step read, the screen drawn, its status bar saying how far),
/// then draws the top.
pub fn read_every_turn(opened: &mut Opened) -> Result<Steps, String> {
    let mut steps = press_timing_steps(opened, "g")?.1;
    steps.sort();
    Ok(Steps {
        count: steps.len(),
        median: steps.get(steps.len() / 2).copied().unwrap_or_default(),
        longest: steps.last().copied().unwrap_or_default(),
    })
}

/// Presses `keys` in `opened` (`\n` is Enter), then does what the
/// viewer's loop does while a key waits for every earlier turn to be read
/// or a search's matches to be counted (a step, then a frame), and draws
/// the screen; how long it took in all, and the longest a key waited (the
/// key's own work, or a step with its frame).
pub fn press(opened: &mut Opened, keys: &str) -> Result<(Duration, Duration), String> {
    let start = Instant::now();
    let (keys, steps) = press_timing_steps(opened, keys)?;
    let longest = keys.into_iter().chain(steps).max().unwrap_or_default();
    Ok((start.elapsed(), longest))
}

/// [`press`]: how long each key took itself, and each step after it with
/// its frame.
fn press_timing_steps(
    opened: &mut Opened,
    keys: &str,
) -> Result<(Vec<Duration>, Vec<Duration>), String> {
    use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
    let Opened { app, terminal, .. } = opened;
    let (mut each_key, mut steps) = (Vec::new(), Vec::new());
    for c in keys.chars() {
        let code = if c == '\n' {
            KeyCode::Enter
        } else {
            KeyCode::Char(c)
        };
        let key = Instant::now();
        app.handle(AppEvent::Terminal(Event::Key(KeyEvent::new(
            code,
            KeyModifiers::NONE,
        ))));
        each_key.push(key.elapsed());
        while app.is_reading() {
            let step = Instant::now();
            terminal.draw(|f| app.draw(f)).map_err(|e| e.to_string())?;
            app.read_step();
            steps.push(step.elapsed());
        }
    }
    terminal.draw(|f| app.draw(f)).map_err(|e| e.to_string())?;
    Ok((each_key, steps))
}

/// How many turns of the open conversation are still in outline, of how many.
pub fn outline_turns(opened: &Opened) -> (usize, usize) {
    let source = opened.app.document().source();
    (source.earlier_turns(), source.conversation.turns.len())
}

/// How many events, turns and blocks the open conversation holds.
pub fn sizes(opened: &Opened) -> (usize, usize, usize) {
    let doc = opened.app.document();
    let conversation = &doc.source().conversation;
    (
        conversation.events.len(),
        conversation.turns.len(),
        doc.len(),
    )
}

/// CPU time of the process (user and system): on a shared machine it
/// stretches much less than wall-clock time with everyone else's load.
#[allow(unsafe_code)]
pub fn cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec for the call to fill in.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// A memory figure of the process in bytes, from `/proc/self/status`
/// (`VmRSS:` now, `VmHWM:` the peak).
pub fn status_bytes(field: &str) -> Result<u64, String> {
    let status = std::fs::read_to_string("/proc/self/status").map_err(|e| e.to_string())?;
    status
        .lines()
        .find_map(|line| line.strip_prefix(field))
        .and_then(|rest| {
            rest.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        })
        .map(|kb| kb * 1024)
        .ok_or_else(|| format!("no {field} in /proc/self/status"))
}

/// Bytes in MiB.
pub fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}
