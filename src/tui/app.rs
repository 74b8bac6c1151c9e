//! The viewer's state and what each event does to it. Nothing here touches a
//! terminal: keys, mouse and reloads go in, [`Effect`]s the runner must carry
//! out (quit, pager, clipboard, suspend, opening another conversation) come
//! out, and [`App::draw`] paints a ratatui frame — so every behaviour can be
//! tested with `TestBackend`.
//!
//! Longer than the project's 600 lines: the state and its event dispatch
//! are one type; its actions and the reading of earlier turns are in
//! `app/`, moving through the document in `navigate.rs`, the tests in the
//! `app/tests/` files.

use std::collections::VecDeque;
use std::time::SystemTime;

use crossterm::event::{Event, KeyEventKind};
use ratatui::layout::Rect;

use super::blocks::{EarlierAmount, ReadError, Viewable, find_key};
use super::cache::LayoutCache;
use super::chrome::Chrome;
use super::clock::Clock;
use super::everywhere::{Found, FoundHit, HitList};
use super::find::{HitCounts, SearchPrompt};
use super::fold::Folds;
use super::picker::{ConversationRow, Picker};
use super::lazy_layout::{Pos, Sheet};
use super::text::Matcher;
use super::view_prefs::{Remember, ViewStart};

mod actions;
mod reading;

/// Something from outside the app: the terminal, the watcher or a signal.
#[derive(Debug)]
pub enum AppEvent<U> {
    /// A key, mouse or resize event.
    Terminal(Event),
    /// The conversation changed.
    Reload(Reload<U>),
    /// A signal arrived.
    Signal(Signal),
    /// About a second passed (see [`Blocks::tick`]).
    Tick,
    /// The search over every session found more (see [`super::everywhere`]).
    Found(Found),
    /// A note for the status bar from another thread (a view choice that
    /// could not be remembered, see [`super::view_prefs`]).
    Note(String),
}

/// What [`App::prove`] did.
#[derive(Debug)]
pub enum Proven {
    /// What the screen shows was true (or nothing waited to be proven):
    /// nothing to draw again.
    Shown,
    /// A step is done, more are left: call [`App::prove`] again once no
    /// event waits.
    Working,
    /// It was not, and was read again whole, or it could not be checked
    /// (a note says why): draw again, and carry out the notification the
    /// change brings, if any.
    Redraw(Option<Effect>),
}

/// "The document changed", sent by the watcher thread.
#[derive(Debug)]
pub struct Reload<U> {
    /// Which opened conversation this is about (see [`App::open`]); stale
    /// messages about a conversation no longer shown are dropped.
    pub epoch: u64,
    /// What changed, for [`Blocks::update`].
    pub update: U,
    /// When the change was seen: the status bar's time of the last change
    /// for what has no file to ask ([`Follow::modified`]: standard input).
    pub at: SystemTime,
}

/// The signals the viewer reacts to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    /// SIGTERM: restore the terminal and exit.
    Terminate,
    /// SIGHUP: the terminal is gone; exit.
    Hangup,
    /// SIGINT from outside (inside, Ctrl-C is a key): exit.
    Interrupt,
    /// SIGTSTP: suspend like Ctrl-Z.
    Stop,
    /// SIGCONT: we were resumed; redraw everything.
    Continue,
    /// Another signal whose default action ends the process (SIGQUIT,
    /// SIGUSR1, SIGUSR2, SIGALRM): restore the terminal and exit as it would.
    End(i32),
}

impl Signal {
    /// The signal's number.
    pub fn number(self) -> i32 {
        match self {
            Signal::Terminate => libc::SIGTERM,
            Signal::Hangup => libc::SIGHUP,
            Signal::Interrupt => libc::SIGINT,
            Signal::Stop => libc::SIGTSTP,
            Signal::Continue => libc::SIGCONT,
            Signal::End(number) => number,
        }
    }
}

/// What the runner must do after an event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Leave the viewer.
    Quit,
    /// Restore the terminal, stop the process, re-enter on resume.
    Suspend,
    /// Show this (sanitized) text in `$PAGER`.
    Pager(String),
    /// Put this (sanitized) text on the clipboard with OSC 52.
    Copy(String),
    /// List the workspace's conversations and call [`App::show_picker`].
    Pick,
    /// Open the conversation with this id and call [`App::open`].
    Open(String),
    /// Ring the bell and send this (clean) text as a desktop notification
    /// (see [`super::notify`]).
    Notify(String),
    /// Search every session for `pattern` in the background, reporting
    /// with [`AppEvent::Found`] under `generation` (see [`super::everywhere`]).
    SearchAll {
        /// What to find.
        pattern: String,
        /// The number its reports carry.
        generation: u64,
    },
    /// Stop the search over every session under way.
    CancelSearch,
    /// Show this command (it resumes the session in its agent) and put it
    /// on the clipboard with OSC 52; never run it.
    Resume(String),
    /// Open the session of this hit and call [`App::open`], then
    /// [`App::show_hit`].
    OpenHit(FoundHit),
}

/// How the viewer starts.
#[derive(Debug, Clone)]
pub struct ViewerOptions {
    /// The zone times are shown in.
    pub clock: Clock,
    /// Whether `p` lists a workspace's conversations.
    pub workspace: bool,
    /// The id of the conversation shown, to select it in the picker.
    pub conversation_id: Option<String>,
    /// Identifies the watcher feeding this conversation (see [`Reload::epoch`]).
    pub epoch: u64,
    /// When the conversation was read.
    pub opened_at: SystemTime,
    /// The colours of the status bar, cursor, search, picker and help.
    pub chrome: Chrome,
    /// Tell the user when a turn ends or the agent asks something while the
    /// window is not focused or the view is paused (`--notify`).
    pub notify: bool,
    /// How reasoning and tool cards are shown at first.
    pub view: ViewStart,
    /// Where `r` and `z` choices are remembered (`None`: they are not).
    pub remember: Option<Remember>,
}

impl Default for ViewerOptions {
    fn default() -> Self {
        ViewerOptions {
            clock: Clock::Utc,
            workspace: false,
            conversation_id: None,
            epoch: 0,
            opened_at: SystemTime::now(),
            chrome: Chrome::default(),
            notify: false,
            view: ViewStart::default(),
            remember: None,
        }
    }
}

/// What the keyboard is talking to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Mode {
    /// The conversation.
    Normal,
    /// Typing a search.
    Prompt(SearchPrompt),
    /// The help overlay, scrolled by this many lines.
    Help(usize),
    /// The workspace picker.
    Picker,
    /// The search over every session: its prompt and its hits.
    Everywhere,
}

/// Columns moved by one `h` / `l`.
pub(super) const HSCROLL_STEP: usize = 8;
/// Lines moved by one turn of the mouse wheel.
const WHEEL_LINES: usize = 3;

/// The line under the cursor when a run of resizes began (see [`App::resize`]).
#[derive(Debug, Clone)]
struct ResizeAnchor<K> {
    /// The block, by identity, and its index then (a hint to find it).
    key: K,
    hint: usize,
    /// The line in the block, at `width` columns.
    line: usize,
    width: usize,
    /// Letters and digits in the block before that line: the same at any width.
    before: usize,
    /// The cursor's screen row.
    row: usize,
}

/// How many letters and digits `line` holds (its text without the spaces,
/// gutters and borders that wrapping adds or moves).
fn letters(line: &ratatui::text::Line<'_>) -> usize {
    line.spans
        .iter()
        .flat_map(|span| span.content.chars())
        .filter(|c| c.is_alphanumeric())
        .count()
}

/// The interactive viewer.
pub struct App<D: Viewable> {
    pub(super) doc: D,
    pub(super) cache: LayoutCache<D::Key>,
    pub(super) folds: Folds<D::Key>,
    /// The first line on screen.
    pub(super) top: Pos,
    /// The highlighted screen row (0 = first line of the text area).
    pub(super) cursor: usize,
    /// Columns scrolled to the right.
    pub(super) hscroll: usize,
    /// Pinned to the end: new content scrolls into view.
    pub(super) follow: bool,
    /// The event count when following stopped, to count what is new.
    pub(super) paused_at: Option<usize>,
    pub(super) last_change: SystemTime,
    pub(super) clock: Clock,
    /// Text area size: columns and rows (the status bar not included).
    pub(super) width: usize,
    pub(super) rows: usize,
    pub(super) search: Option<Matcher>,
    /// The last search went forward (`/`) rather than backward (`?`): `n`
    /// goes on in that direction, `N` against it.
    pub(super) search_forward: bool,
    /// This session's queries, oldest first, recalled by ↑ / ↓ in the prompt.
    pub(super) history: Vec<String>,
    /// Matches of the current search per block, and where the last one landed.
    pub(super) hits: HitCounts<D::Key>,
    /// Digits typed before a key (`5j`, `10G`, `12t`).
    pub(super) count: Option<usize>,
    pub(super) mode: Mode,
    pub(super) picker: Option<Picker>,
    /// The search over every session and its hits, kept while the hits'
    /// sessions are looked at.
    pub(super) everywhere: HitList,
    /// The conversation shown was opened from [`App::everywhere`]'s list:
    /// `Esc` (with no search highlighted) goes back to it.
    pub(super) from_list: bool,
    /// A one-off note shown in the status bar until the next key.
    pub(super) message: Option<String>,
    pub(super) chrome: Chrome,
    /// Where the cursor was before the resizes in a row that are under way:
    /// each resize places the cursor from it, so that going back and forth
    /// does not drift.
    resize_anchor: Option<ResizeAnchor<D::Key>>,
    /// The note says why the last reload failed: the next reload that works
    /// takes it away (the file was fixed).
    reload_problem: bool,
    epoch: u64,
    workspace: bool,
    conversation_id: Option<String>,
    /// Why the last reload failed, until a reload works again (the file was
    /// fixed): each key brings the note back, whatever other notes came in
    /// between, so the user always knows the screen shows an older version.
    read_error: Option<String>,
    /// `--notify` is on.
    notify: bool,
    /// Where `r` and `z` choices are remembered.
    pub(super) remember: Option<Remember>,
    /// The terminal says its window has the focus (focus reporting); assumed
    /// until it says otherwise.
    focused: bool,
    /// The places left for the sub-agents opened full-screen (`a`), the
    /// latest last: `Esc` or `q` goes back to the last one.
    pub(super) agents: Vec<Left<D::Key>>,
    /// The read of every earlier turn under way, for a key that needs
    /// them (see [`App::read_step`]).
    reading: Option<reading::Reading>,
    /// Keys and clicks typed while the earlier turns were read, to be
    /// handled now that they are (see [`App::typed_event`]).
    typed: VecDeque<Event>,
}

/// Where the viewer was when a sub-agent was opened full-screen.
pub(super) struct Left<K> {
    /// The block at the top of the screen, its index then and the line in it.
    pub(super) top: Option<(K, usize, usize)>,
    /// The cursor's row.
    pub(super) cursor: usize,
    /// Whether the view followed the end.
    pub(super) follow: bool,
    /// The folds of the conversation left (the sub-agent's blocks have their own).
    pub(super) folds: Folds<K>,
}

impl<D: Viewable> App<D> {
    /// A viewer on `doc`, at its end, following.
    pub fn new(doc: D, options: ViewerOptions) -> Self {
        let last_change = doc.modified().unwrap_or(options.opened_at);
        let mut app = App {
            doc,
            cache: LayoutCache::default(),
            folds: Folds::with_modes(options.view.reasoning, options.view.cards_folded),
            top: Pos::default(),
            cursor: usize::MAX,
            hscroll: 0,
            follow: true,
            paused_at: None,
            last_change,
            clock: options.clock,
            width: 80,
            rows: 23,
            search: None,
            search_forward: true,
            history: Vec::new(),
            hits: HitCounts::default(),
            count: None,
            mode: Mode::Normal,
            picker: None,
            everywhere: HitList::default(),
            from_list: false,
            message: None,
            chrome: options.chrome,
            resize_anchor: None,
            reload_problem: false,
            epoch: options.epoch,
            workspace: options.workspace,
            conversation_id: options.conversation_id,
            read_error: None,
            notify: options.notify,
            remember: options.remember,
            focused: true,
            agents: Vec::new(),
            reading: None,
            typed: VecDeque::new(),
        };
        // The cursor on a drawn row from the start, whatever comes first.
        app.settle();
        app
    }

    /// The document shown.
    #[cfg(any(test, feature = "internals"))]
    pub fn document(&self) -> &D {
        &self.doc
    }

    /// Whether the view is pinned to the end.
    #[cfg(any(test, feature = "internals"))]
    pub fn is_following(&self) -> bool {
        self.follow
    }

    /// Handles one event and says what the runner must do, if anything.
    /// Signals are the runner's business and are ignored here.
    pub fn handle(&mut self, event: AppEvent<D::Update>) -> Option<Effect> {
        let event = match event {
            AppEvent::Terminal(input @ (Event::Key(_) | Event::Mouse(_)))
                if self.reading.is_some() =>
            {
                return self.reading_input(input);
            }
            other => other,
        };
        if !matches!(
            event,
            AppEvent::Terminal(Event::Resize(..)) | AppEvent::Tick
        ) {
            // The user (or the conversation) moved things: the next resize
            // starts from where the cursor is then.
            self.resize_anchor = None;
        }
        match event {
            AppEvent::Terminal(Event::Key(key)) if key.kind != KeyEventKind::Release => {
                self.key(&key)
            }
            AppEvent::Terminal(Event::Mouse(mouse)) => {
                self.mouse(&mouse);
                None
            }
            AppEvent::Terminal(Event::Resize(w, h)) => {
                self.resize(usize::from(w), usize::from(h));
                None
            }
            AppEvent::Terminal(Event::FocusGained) => {
                self.focused = true;
                None
            }
            AppEvent::Terminal(Event::FocusLost) => {
                self.focused = false;
                None
            }
            AppEvent::Tick => {
                let before = self.doc.attention();
                if self.doc.polls() {
                    self.change(SystemTime::now(), |doc| doc.poll());
                }
                self.doc.tick();
                self.tell(&before)
            }
            AppEvent::Terminal(_) | AppEvent::Signal(_) => None,
            AppEvent::Found(found) => {
                self.everywhere.found(found);
                None
            }
            AppEvent::Note(note) => {
                self.note(note);
                None
            }
            AppEvent::Reload(reload) => {
                let before = self.doc.attention();
                self.reload(reload);
                self.tell(&before)
            }
        }
    }

    /// With `--notify`, a notification when a turn ended or a question came
    /// since `before`, while the user is not looking: the window is not
    /// focused or the view is paused.
    fn tell(&self, before: &super::blocks::Attention) -> Option<Effect> {
        if !self.notify || (self.focused && self.follow) {
            return None;
        }
        super::notify::message(before, &self.doc.attention(), &self.doc.title()).map(Effect::Notify)
    }

    /// Applies a reload: following views scroll to the new end; any other
    /// view stays exactly where it was and counts what is new.
    pub fn reload(&mut self, reload: Reload<D::Update>) {
        if reload.epoch != self.epoch {
            return;
        }
        self.change(reload.at, |doc| doc.update(reload.update));
    }

    /// A step of proving what the last reload showed before reading all it
    /// rests on ([`super::blocks::Follow::prove`]): the runner calls it once
    /// the reload is drawn, a step whenever no event waits, until it is
    /// done.
    pub fn prove(&mut self) -> Proven {
        if !self.doc.unproven() {
            return Proven::Shown;
        }
        let before = self.doc.attention();
        if self.change(SystemTime::now(), |doc| doc.prove()) {
            Proven::Redraw(self.tell(&before))
        } else if self.doc.unproven() {
            Proven::Working
        } else {
            Proven::Shown
        }
    }

    /// Changes the document by `update` (a reload, a replay's step): a
    /// view following the end stays there, any other keeps its place.
    /// Whether the screen changed (the document, or a note that it could
    /// not be read). An update that changed nothing (a step of a proof, a
    /// reload of the same bytes) leaves the view as it was, the anchor of a
    /// run of resizes included.
    pub(super) fn change(
        &mut self,
        at: SystemTime,
        update: impl FnOnce(&mut D) -> Result<bool, ReadError>,
    ) -> bool {
        let anchor = self.anchor();
        // A cursor on the last line while following stays on the last line.
        let (top, rows) = (self.top, self.rows);
        let drawn = self.sheet().rows(top, rows).len().max(1);
        let at_end = self.follow && self.cursor.saturating_add(1) >= drawn;
        let changed = match update(&mut self.doc) {
            Ok(changed) => {
                if changed {
                    // The status bar says when the file last changed: its
                    // own time, not when the viewer got to read it (a
                    // viewer stopped, or busy, reads it later).
                    self.last_change = self.doc.modified().unwrap_or(at);
                }
                let cleared = std::mem::take(&mut self.reload_problem);
                if cleared {
                    self.message = None;
                }
                self.read_error = None;
                changed || cleared
            }
            Err(note) => {
                // What was read before stays on screen; the note says why
                // the new version is not shown.
                self.note(note.to_string());
                self.reload_problem = true;
                self.read_error = Some(note.to_string());
                true
            }
        };
        if !changed {
            return false;
        }
        self.resize_anchor = None;
        self.restore_anchor(anchor);
        if at_end {
            self.cursor = usize::MAX;
        }
        self.settle();
        changed
    }

    /// Shows another conversation (after [`Effect::Open`]); `epoch` is the
    /// number its watcher's reloads carry.
    pub fn open(&mut self, doc: D, id: String, epoch: u64) {
        self.last_change = doc.modified().unwrap_or_else(SystemTime::now);
        self.doc = doc;
        self.cache = LayoutCache::default();
        self.folds = self.folds.modes_only();
        self.top = Pos::default();
        self.cursor = usize::MAX;
        self.hscroll = 0;
        self.follow = true;
        self.paused_at = None;
        self.search = None;
        self.hits = HitCounts::default();
        self.count = None;
        self.mode = Mode::Normal;
        self.picker = None;
        self.from_list = false;
        self.resize_anchor = None;
        self.epoch = epoch;
        self.agents.clear();
        self.reading = None;
        self.typed.clear();
        self.conversation_id = Some(id);
        self.read_error = None;
        if std::mem::take(&mut self.reload_problem) {
            self.message = None;
        }
        self.settle();
    }

    /// Shows the workspace picker over `rows` (after [`Effect::Pick`]).
    pub fn show_picker(&mut self, rows: Vec<ConversationRow>) {
        self.picker = Some(Picker::new(rows, self.conversation_id.as_deref()));
        self.mode = Mode::Picker;
    }

    /// Closes the picker (an opening failed).
    pub fn close_picker(&mut self) {
        self.picker = None;
        if self.mode == Mode::Picker {
            self.mode = Mode::Normal;
        }
    }

    /// Shows a one-off note in the status bar (errors of effects, results).
    pub fn note(&mut self, text: impl Into<String>) {
        self.message = Some(text.into());
        self.reload_problem = false;
    }

    /// Takes away a note that was only for a moment (how far the read of a
    /// conversation being opened is): the status bar shows what it showed
    /// before it, a read error that stands or the title.
    pub fn forget_note(&mut self) {
        self.message = self.read_error.clone();
        self.reload_problem = self.read_error.is_some();
    }

    /// Says something of a conversation being opened (how far its read is,
    /// why it could not be opened) where the user looks: on the list of
    /// hits while it is on screen (a hit being opened), which hides the
    /// status bar, else in the status bar.
    pub fn note_opening(&mut self, text: String) {
        if self.mode == Mode::Everywhere {
            self.everywhere.note(text);
        } else {
            self.note(text);
        }
    }

    /// Takes away a note of [`App::note_opening`] that was only for a
    /// moment (how far the read was).
    pub fn forget_opening_note(&mut self) {
        if self.mode == Mode::Everywhere {
            self.everywhere.forget_note();
        } else {
            self.forget_note();
        }
    }

    /// Adapts to a new terminal size. A view following the end with the
    /// cursor on its last line keeps both. Otherwise the line under the
    /// cursor stays under it, on the same screen row when it can: the same
    /// block, at the same text (letters and digits before the line's start,
    /// which wrapping does not change), and at the exact line when the width
    /// comes back to what it was before a run of resizes.
    pub fn resize(&mut self, width: usize, height: usize) {
        let rows = height.saturating_sub(1).max(1);
        let width = width.max(1);
        if width == self.width && rows == self.rows {
            return;
        }
        let (top, old_rows) = (self.top, self.rows);
        let drawn = self.sheet().rows(top, old_rows).len().max(1);
        let at_end = self.follow && self.cursor.saturating_add(1) >= drawn;
        let anchor = if at_end {
            None
        } else {
            self.resize_anchor
                .take()
                .or_else(|| self.resize_anchor_here())
        };
        self.width = width;
        self.rows = rows;
        let Some(anchor) = anchor else {
            if at_end {
                self.cursor = usize::MAX;
            }
            self.settle();
            return;
        };
        if let Some(target) = self.resize_target(&anchor) {
            if !self.follow {
                self.top = self.sheet().back(target, anchor.row.min(rows - 1));
            }
            self.settle();
            let top = self.top;
            if let Some(row) = self.sheet().rows_between(top, target, rows) {
                self.cursor = row;
            }
        } else {
            self.settle();
        }
        self.resize_anchor = Some(anchor);
    }

    /// The line under the cursor now, as a resize anchor.
    fn resize_anchor_here(&mut self) -> Option<ResizeAnchor<D::Key>> {
        let pos = self.cursor_pos()?;
        let lines = self.sheet().lines(pos.block);
        let before = lines.iter().take(pos.line).map(letters).sum();
        Some(ResizeAnchor {
            key: self.doc.key(pos.block),
            hint: pos.block,
            line: pos.line,
            width: self.width,
            before,
            row: self.cursor,
        })
    }

    /// Where `anchor`'s line is at the current width.
    fn resize_target(&mut self, anchor: &ResizeAnchor<D::Key>) -> Option<Pos> {
        let block = find_key(&self.doc, &anchor.key, anchor.hint)?;
        let line = if self.width == anchor.width {
            anchor.line
        } else {
            let lines = self.sheet().lines(block);
            let mut seen = 0;
            lines
                .iter()
                .position(|line| {
                    seen += letters(line);
                    seen > anchor.before
                })
                .unwrap_or(lines.len().saturating_sub(1))
        };
        Some(self.sheet().normalize(Pos::new(block, line)))
    }

    /// The whole screen: the text area and the status bar.
    pub(super) fn screen(&self) -> Rect {
        let clamp = |n: usize| u16::try_from(n).unwrap_or(u16::MAX);
        Rect::new(0, 0, clamp(self.width), clamp(self.rows + 1))
    }

    pub(super) fn sheet(&mut self) -> Sheet<'_, D> {
        Sheet {
            doc: &self.doc,
            cache: &mut self.cache,
            folds: &self.folds,
            width: self.width,
            rows: self.rows,
        }
    }

    /// The block at the top of the screen, by identity, and the line in it.
    pub(super) fn anchor(&mut self) -> Option<(D::Key, usize, usize)> {
        if self.doc.is_empty() {
            return None;
        }
        let top = self.top;
        let top = self.sheet().normalize(top);
        Some((self.doc.key(top.block), top.block, top.line))
    }

    pub(super) fn restore_anchor(&mut self, anchor: Option<(D::Key, usize, usize)>) {
        let Some((key, hint, line)) = anchor else {
            self.top = Pos::default();
            return;
        };
        self.top = match find_key(&self.doc, &key, hint) {
            Some(block) => Pos::new(block, line),
            None => Pos::new(hint, 0),
        };
    }

    /// Puts the view back in bounds after any change: at the end when
    /// following, never past the last screenful, the cursor on a drawn row.
    /// A conversation opened at its end reads earlier turns while nothing
    /// is above the screen, so that there are always lines above it, as in
    /// a conversation read whole.
    pub(super) fn settle(&mut self) {
        self.settle_here();
        self.lines_above(1);
    }

    /// Reads earlier turns of a conversation opened at its end until `n`
    /// lines are above the first on screen, or none are left to read.
    pub(super) fn lines_above(&mut self, n: usize) {
        while self.doc.earlier() > 0 {
            let top = self.top;
            let target = self.sheet().back(top, n);
            if !self.is_first_line(target) {
                return;
            }
            match self.read_keeping_view(EarlierAmount::Near) {
                Ok(true) => {}
                Ok(false) => return,
                Err(note) => {
                    self.note(note.to_string());
                    return;
                }
            }
            self.settle_here();
        }
    }

    /// Reads earlier turns (`amount` of them) with the first line on
    /// screen kept where it is: the blocks put above it move it down by
    /// their number.
    pub(super) fn read_keeping_view(&mut self, amount: EarlierAmount) -> Result<bool, ReadError> {
        let anchor = self.anchor();
        let before = self.doc.len();
        let read = self.doc.read_earlier(amount);
        let added = self.doc.len().saturating_sub(before);
        self.restore_anchor(anchor.map(|(key, hint, line)| (key, hint + added, line)));
        read
    }

    /// Whether `pos` is the document's first line.
    fn is_first_line(&mut self, pos: Pos) -> bool {
        let mut sheet = self.sheet();
        let pos = sheet.normalize(pos);
        pos.line == 0 && sheet.back(pos, 1) == pos
    }

    /// [`App::settle`] with the blocks there are.
    fn settle_here(&mut self) {
        let rows = self.rows;
        let end = self.sheet().end_top(rows);
        let top = self.top;
        let top = if self.follow {
            end
        } else {
            self.sheet().normalize(top).min(end)
        };
        self.top = top;
        let drawn = self.sheet().rows(top, rows).len().max(1);
        self.cursor = self.cursor.min(drawn - 1);
    }

    /// Stops following (the user scrolled away); remembers the event count.
    pub(super) fn pause(&mut self) {
        if self.follow {
            self.follow = false;
            self.paused_at = Some(self.doc.event_count());
        }
    }

    /// Starts following: to the end, cursor on the last line.
    pub(super) fn resume(&mut self) {
        self.follow = true;
        self.paused_at = None;
        self.cursor = usize::MAX;
        self.settle();
    }

    /// How many events arrived since following stopped.
    pub(super) fn news(&self) -> usize {
        self.paused_at
            .map_or(0, |at| self.doc.event_count().saturating_sub(at))
    }

    /// The position under the cursor.
    pub(super) fn cursor_pos(&mut self) -> Option<Pos> {
        let (top, rows, cursor) = (self.top, self.rows, self.cursor);
        let drawn = self.sheet().rows(top, rows);
        drawn
            .get(cursor.min(drawn.len().saturating_sub(1)))
            .map(|(pos, _)| *pos)
    }
}

#[cfg(test)]
pub(crate) mod tests;
