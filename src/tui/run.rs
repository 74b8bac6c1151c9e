//! The main loop: draws, waits for the next event (terminal, watcher,
//! signal), hands it to the [`App`] and carries out what the app asks —
//! quitting, suspending, the pager, the clipboard, the picker.

use std::io::{self, Write};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::time::{Duration, Instant};

use crossterm::event::{self, Event, KeyEventKind};
use crossterm::terminal::{disable_raw_mode, enable_raw_mode};

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::app::{App, AppEvent, Effect, Proven, Signal};
use super::everywhere::Found;
use super::blocks::{ReadError, Viewable};
use super::input::{Input, terminal_hung_up};
use super::pager::{clipboard_sequence, pager_command, run_pager};
use super::picker::ConversationRow;
use super::opening::OpeningProgress;
use super::signals::SignalThread;
use super::terminal::{Mouse, TerminalGuard, stop_process};
use crate::render::lazy_highlight::ColourStep;

/// Why the viewer could not run.
#[derive(Debug, thiserror::Error)]
pub enum TuiError {
    /// The terminal could not be set up or written to.
    #[error("terminal: {0}")]
    Terminal(#[from] io::Error),
}

/// How the viewer ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// The user quit.
    Quit,
    /// A signal ended it; the number, for an exit status of 128 + n.
    Signal(i32),
}

/// The channel every app event travels on. Make it first, hand
/// [`EventChannel::sender`] to the watcher thread, then [`run`].
pub struct EventChannel<U> {
    tx: Sender<AppEvent<U>>,
    rx: Receiver<AppEvent<U>>,
}

impl<U> Default for EventChannel<U> {
    fn default() -> Self {
        let (tx, rx) = mpsc::channel();
        EventChannel { tx, rx }
    }
}

impl<U> EventChannel<U> {
    /// A new channel.
    pub fn new() -> Self {
        Self::default()
    }

    /// Where reloads are sent from (clone it per thread).
    pub fn sender(&self) -> Sender<AppEvent<U>> {
        self.tx.clone()
    }
}

/// What the viewer needs from its surroundings for the picker.
pub trait Host<D: Viewable> {
    /// The conversations to pick from (the workspace's, the folder's agent
    /// sessions), most recent first.
    fn conversations(&mut self) -> Vec<ConversationRow>;
    /// Opens conversation `id` (a row's id) and starts following it (the
    /// previous conversation's watcher should stop), telling `report` how
    /// many bytes of its file it has read, and of how many.
    fn open(&mut self, id: &str, report: &mut dyn FnMut(u64, u64))
    -> Result<Opened<D>, ReadError>;
    /// Starts searching every session for `pattern` on another thread,
    /// handing each report to `report` (the last one `done`); the flag
    /// returned stops it when set. Without sessions to search: reports
    /// at once that it is done.
    fn search_all(
        &mut self,
        pattern: &str,
        generation: u64,
        report: Box<dyn Fn(Found) + Send>,
    ) -> Option<Arc<AtomicBool>> {
        let _ = pattern;
        report(Found {
            generation,
            hits: Vec::new(),
            searched: 0,
            sessions: 0,
            done: true,
            problem: None,
        });
        None
    }
    /// Opens the session a hit of [`Host::search_all`] is in (its
    /// [`FoundHit::open`]) and starts following it.
    /// `report` hears how far the read is, as [`Host::open`]'s does.
    fn open_hit(
        &mut self,
        open: &str,
        report: &mut dyn FnMut(u64, u64),
    ) -> Result<Opened<D>, ReadError> {
        let _ = report;
        Err(ReadError::new(format!("{open}: cannot be opened here")))
    }
}

/// A conversation opened from the picker.
pub struct Opened<D> {
    /// Its document.
    pub doc: D,
    /// The epoch its watcher's reloads carry.
    pub epoch: u64,
    /// Something to tell the user (it cannot be followed, say).
    pub note: Option<String>,
}

/// A host without a workspace: nothing to pick.
#[derive(Debug, Default)]
pub struct NoWorkspace;

impl<D: Viewable> Host<D> for NoWorkspace {
    fn conversations(&mut self) -> Vec<ConversationRow> {
        Vec::new()
    }

    fn open(&mut self, id: &str, _: &mut dyn FnMut(u64, u64)) -> Result<Opened<D>, ReadError> {
        Err(ReadError::new(format!("{id}: not in a workspace")))
    }
}

/// Runs the viewer in the terminal until the user quits or a signal ends it,
/// with the mouse left to the terminal or captured (`mouse`). The terminal
/// is restored however it ends.
pub fn run<D, H>(
    mut app: App<D>,
    host: &mut H,
    events: EventChannel<D::Update>,
    mouse: Mouse,
) -> Result<Exit, TuiError>
where
    D: Viewable,
    D::Update: Send + 'static,
    H: Host<D>,
{
    let mut guard = TerminalGuard::enter(mouse)?;
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    let input = Input::spawn(events.sender())?;
    let _signals = SignalThread::spawn(events.sender())?;
    let mut session = Session {
        guard: &mut guard,
        terminal: &mut terminal,
        input: &input,
        events: events.sender(),
        searching: None,
    };
    let result = match event_loop(&mut session, &mut app, host, &events) {
        // Drawing on a terminal that just went away fails before the
        // hang-up arrives: it ends the viewer the same way.
        Err(_) if terminal_hung_up(Duration::ZERO) => Ok(Exit::Signal(libc::SIGHUP)),
        result => result,
    };
    // The guard shows the cursor again. ratatui's `Drop` would only repeat
    // that, and on a terminal that hung up report its failure with
    // `eprintln!`, which panics on the same dead terminal.
    std::mem::forget(terminal);
    // Give the terminal back now, then leave the conversation's memory to
    // the process's exit: freeing a million events one by one is work the
    // user would wait through for the prompt after `q` or SIGTERM.
    drop(guard);
    std::mem::forget(app);
    result
}

/// Draws, waits for events and handles them until the viewer ends.
fn event_loop<D, H>(
    session: &mut Session<'_, D::Update>,
    app: &mut App<D>,
    host: &mut H,
    events: &EventChannel<D::Update>,
) -> Result<Exit, TuiError>
where
    D: Viewable,
    D::Update: Send + 'static,
    H: Host<D>,
{
    let test_panic = std::env::var_os(TEST_PANIC).is_some_and(|v| v == "1");
    loop {
        app.cache.begin_frame();
        session.terminal.draw(|f| app.draw(f))?;
        app.cache.end_frame();
        if test_panic {
            panic!("{TEST_PANIC}=1: a panic on purpose, to test that the terminal is restored");
        }
        let first = match next_event(app, &events.rx) {
            Next::Event(event) => event,
            Next::Draw => continue,
            Next::Effect(effect) => {
                if let Some(exit) = session.apply(effect, app, host)? {
                    return Ok(exit);
                }
                continue;
            }
            Next::Closed => return Ok(Exit::Quit),
        };
        // Everything that arrived together is handled before the next frame:
        // what was typed while earlier turns were read first.
        let mut batch = vec![first];
        batch.extend(std::iter::from_fn(|| app.typed_event()));
        batch.extend(events.rx.try_iter());
        for event in batch {
            let effect = match event {
                AppEvent::Signal(signal) => match signal {
                    Signal::Terminate | Signal::Hangup | Signal::Interrupt | Signal::End(_) => {
                        return Ok(Exit::Signal(signal.number()));
                    }
                    Signal::Stop => Some(Effect::Suspend),
                    Signal::Continue => {
                        redraw_all(session.terminal)?;
                        None
                    }
                },
                other => app.handle(other),
            };
            if let Some(effect) = effect
                && let Some(exit) = session.apply(effect, app, host)?
            {
                return Ok(exit);
            }
        }
    }
}

/// What the loop does next.
enum Next<U> {
    /// Handle an event.
    Event(AppEvent<U>),
    /// Draw again: code on screen was highlighted, or a step of reading
    /// the earlier turns was done.
    Draw,
    /// Carry this out: the key that waited for the earlier turns asks it.
    Effect(Effect),
    /// Every sender is gone.
    Closed,
}

/// The next event: first what was typed while earlier turns were read.
/// While none waits, what the last reload showed before reading all it
/// rests on is proven a step at a time (drawn again if it was wrong); a
/// key waiting for every earlier turn reads them a step at a time (the
/// screen drawn after each, its status bar saying how far), else the
/// document highlights the code it left plain a few lines at a time (a key
/// waits for one step at most), and once a block is highlighted as far as
/// it was shown, the screen is drawn again.
fn next_event<D: Viewable>(app: &mut App<D>, rx: &Receiver<AppEvent<D::Update>>) -> Next<D::Update> {
    if let Some(event) = app.typed_event() {
        return Next::Event(event);
    }
    loop {
        match rx.try_recv() {
            Ok(event) => return Next::Event(event),
            Err(TryRecvError::Disconnected) => return Next::Closed,
            Err(TryRecvError::Empty) => {}
        }
        // What the last reload showed is proven, a step at a time, before
        // anything else is read: it was drawn first.
        match app.prove() {
            Proven::Shown => {}
            Proven::Working => continue,
            Proven::Redraw(None) => return Next::Draw,
            Proven::Redraw(Some(effect)) => return Next::Effect(effect),
        }
        if app.is_reading() {
            return match app.read_step() {
                Some(effect) => Next::Effect(effect),
                None => Next::Draw,
            };
        }
        match app.doc.colour_more() {
            ColourStep::Working => {}
            ColourStep::Done => return Next::Draw,
            ColourStep::Idle => {
                return match rx.recv() {
                    Ok(event) => Next::Event(event),
                    Err(_) => Next::Closed,
                };
            }
        }
    }
}

struct Session<'a, U> {
    guard: &'a mut TerminalGuard,
    terminal: &'a mut Terminal<CrosstermBackend<io::Stdout>>,
    input: &'a Input,
    /// Where the search over every session reports.
    events: Sender<AppEvent<U>>,
    /// Stops the search over every session under way.
    searching: Option<Arc<AtomicBool>>,
}

impl<U: Send + 'static> Session<'_, U> {
    fn apply<D: Viewable<Update = U>, H: Host<D>>(
        &mut self,
        effect: Effect,
        app: &mut App<D>,
        host: &mut H,
    ) -> Result<Option<Exit>, TuiError> {
        match effect {
            Effect::Quit => return Ok(Some(Exit::Quit)),
            Effect::Suspend => self.outside(stop_process)?,
            Effect::Pager(text) => {
                let command = pager_command();
                let mut result = Ok(());
                self.outside(|| {
                    let start = Instant::now();
                    result = run_pager(&command, &text);
                    // A pager that returns at once (`cat`, `less -F` on a
                    // short text) leaves its output on the normal screen:
                    // give the user the time to read it.
                    if result.is_ok() && start.elapsed() < QUICK_PAGER {
                        wait_for_a_key();
                    }
                })?;
                if let Err(e) = result {
                    app.note(format!("{command}: {e}"));
                }
            }
            Effect::Copy(text) => {
                let in_tmux = std::env::var_os("TMUX").is_some_and(|v| !v.is_empty());
                let mut out = io::stdout();
                out.write_all(clipboard_sequence(&text, in_tmux).as_bytes())?;
                out.flush()?;
                app.note(format!(
                    "sent {} bytes to the clipboard (OSC 52)",
                    text.len()
                ));
            }
            Effect::Resume(command) => {
                let in_tmux = std::env::var_os("TMUX").is_some_and(|v| !v.is_empty());
                let mut out = io::stdout();
                out.write_all(clipboard_sequence(&command, in_tmux).as_bytes())?;
                out.flush()?;
                app.note(format!("{command}   (copied with OSC 52; not run)"));
            }
            Effect::Notify(text) => {
                let mut out = io::stdout();
                out.write_all(super::notify::sequence(&text).as_bytes())?;
                out.flush()?;
            }
            Effect::Pick => {
                let rows = host.conversations();
                if rows.is_empty() {
                    app.note("no conversation of this folder to pick (no JP workspace, Claude Code or Codex session)");
                } else {
                    app.show_picker(rows);
                }
            }
            Effect::SearchAll {
                pattern,
                generation,
            } => {
                self.stop_search();
                let tx = self.events.clone();
                let report = Box::new(move |found: Found| {
                    let _ = tx.send(AppEvent::Found(found));
                });
                self.searching = host.search_all(&pattern, generation, report);
            }
            Effect::CancelSearch => self.stop_search(),
            Effect::OpenHit(hit) => {
                // The list stays on screen, its second row saying how far
                // the read is, or why the hit could not be opened.
                match self.opening(app, |report| host.open_hit(&hit.open, report)) {
                    Ok(opened) => {
                        app.open(opened.doc, hit.open.clone(), opened.epoch);
                        app.show_hit(&hit);
                        if let Some(note) = opened.note {
                            app.note(note);
                        }
                    }
                    Err(e) => app.note_opening(format!("not opened: {e}")),
                }
            }
            Effect::Open(id) => {
                // The picker gives way to the conversation shown, whose
                // status bar says how far the read is.
                app.close_picker();
                match self.opening(app, |report| host.open(&id, report)) {
                    Ok(opened) => {
                        app.open(opened.doc, id, opened.epoch);
                        if let Some(note) = opened.note {
                            app.note(note);
                        }
                    }
                    Err(e) => app.note_opening(e.to_string()),
                }
            }
        }
        Ok(None)
    }

    /// Runs `open`, which reads a conversation, drawing the screen with a
    /// note as the read goes on when it is large and slow (`reading… 40%
    /// of 1 GiB`, [`OpeningProgress`]; in the status bar, or on the list of
    /// hits: [`App::note_opening`]): keys wait until it is read, as they do
    /// before the first screen. The note goes once it is read.
    fn opening<D: Viewable, T>(
        &mut self,
        app: &mut App<D>,
        open: impl FnOnce(&mut dyn FnMut(u64, u64)) -> T,
    ) -> T {
        let mut progress = OpeningProgress::new(Instant::now());
        let terminal = &mut *self.terminal;
        let opened = open(&mut |read, total| {
            if let Some(note) = progress.note(read, total, Instant::now()) {
                app.note_opening(note);
                // A terminal that cannot draw loses only the note.
                let _ = terminal.draw(|frame| app.draw(frame));
            }
        });
        if progress.said() {
            app.forget_opening_note();
        }
        opened
    }

    fn stop_search(&mut self) {
        if let Some(stop) = self.searching.take() {
            stop.store(true, Ordering::Relaxed);
        }
    }

    /// Runs `f` with the terminal given back and the input thread paused.
    fn outside(&mut self, f: impl FnOnce()) -> Result<(), TuiError> {
        self.input.pause();
        self.guard.leave();
        f();
        self.guard.reenter()?;
        self.input.resume();
        redraw_all(self.terminal)?;
        Ok(())
    }
}

/// Test-only hook: with this variable set to `1` the viewer panics right
/// after drawing its first frame, so that a pseudo-terminal test can check
/// that a panic gives the terminal back (`tests/it/tui_pty.rs`). Not for users.
pub const TEST_PANIC: &str = "OVERHEAR_TEST_PANIC";

/// A pager that returns sooner than this did not wait for the user.
const QUICK_PAGER: Duration = Duration::from_millis(500);

/// Says so and waits for a key press on the normal screen (the input thread
/// is paused, so the key is read here). Errors end the wait.
fn wait_for_a_key() {
    let mut out = io::stdout();
    let _ = write!(out, "\r\n[overhear] press any key to return to the viewer");
    let _ = out.flush();
    if enable_raw_mode().is_err() {
        return;
    }
    loop {
        match event::read() {
            Ok(Event::Key(key)) if key.kind != KeyEventKind::Release => break,
            Ok(_) => {}
            Err(_) => break,
        }
    }
    let _ = disable_raw_mode();
}

/// Makes the next frame repaint every cell (the screen was used by someone
/// else). `Terminal::clear` would ask the terminal for the cursor position,
/// which not every terminal answers; a resize to the current size does not.
fn redraw_all(terminal: &mut Terminal<CrosstermBackend<io::Stdout>>) -> io::Result<()> {
    let size = terminal.size()?;
    terminal.resize(Rect::new(0, 0, size.width, size.height))
}
