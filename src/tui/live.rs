//! The viewer's document for a real conversation: a [`Live`] conversation
//! followed on disk (or on stdin), its [`Document`], and the layout of the
//! render module, seen through the [`Blocks`] trait.
//!
//! File-change notifications are applied here, on the viewer's thread, so
//! that a reload only reads what is new (the JP and eve readers are
//! incremental) and the conversation is never copied between threads.
//!
//! Longer than the project's 600 lines: it is the one implementation of the
//! whole [`Blocks`] trait for a real conversation (thirty methods, most a
//! few lines). What has a job of its own is elsewhere: when a followed
//! agent counts as gone (`quiet.rs`), what a block's fingerprint hashes
//! (`fingerprint.rs`), decoding again the turns emptied to save memory
//! (`live/resident.rs`), its tests (`live/tests.rs`, `live/highlight_tests.rs`).

use std::cell::{Cell, Ref, RefCell};
use std::time::SystemTime;

use ratatui::text::Line;

use super::blocks::{
    Attention, BlockClass, Blocks, EarlierAmount, EarlierTurns, Follow, Landmark, LiveState, ReadError,
    Replaying,
};
use super::fingerprint;
use super::resume::NoResume;
use super::writer_idle;
use super::running_totals::TurnTally;
use crate::load::{DECODE_SPAN, EARLIER_STEP, EarlierRead, Live, Origin, Refresh};
use crate::model::{Conversation, EventKind};
use crate::render::document;
use crate::render::document::{
    BlockKey, BlockKind, DocBlock, DocOptions, Document, Landmark as DocLandmark,
};
use crate::render::duration;
use crate::render::layout::{self, Fold, LayoutContext};
use crate::render::lazy_highlight::{Colour, ColourStep, Highlighting, LazyHighlight};
use crate::render::theme::Theme;
use crate::source::stdin::{StreamEnd, StreamInbox};
use crate::source::watch::Change;
use crate::text::sanitize::{SanitizeMode, sanitize_cow};

/// Columns a code line keeps on screen before it is cut: code is never
/// wrapped, and `h`/`l` scroll sideways to read it.
pub const CODE_WIDTH: usize = 1000;

/// The most stream bytes one update reads: a slice of work short enough
/// that keys and signals waiting behind it are answered within a frame, even
/// when a writer floods the stream.
pub const STREAM_SLICE: usize = 256 * 1024;

/// How many 1 MiB chunks of a rewrite's prefix one step of its proof hashes
/// on the viewer's thread (helper threads hash more meanwhile): a few
/// milliseconds, so that keys and signals are answered between steps even
/// while a 1 GB conversation's prefix is proven.
const PROOF_STEP: usize = 16;

/// A block's fingerprint not computed yet. A block whose fingerprint is
/// this very number has it computed again each time it is asked: no harm.
const NOT_YET: u64 = 0;

/// The most turns whose blocks one step of reading every earlier turn puts
/// first at once (see [`LiveDocument::read_earlier`]): for a moment they are
/// there twice, and the more, the higher the viewer's peak memory.
const BATCH_TURNS: usize = 4096;

/// What the watcher (or the stream reader) reports.
#[derive(Debug)]
pub enum LiveUpdate {
    /// A file changed on disk.
    Changed(Change),
    /// Bytes of a stream (stdin, a FIFO) wait in this inbox, or its end:
    /// one update takes at most [`STREAM_SLICE`] of them.
    Stream(StreamInbox),
}

/// A followed conversation as the viewer draws it.
pub struct LiveDocument {
    /// In a cell: laying out a turn emptied of its texts decodes it again
    /// first ([`LiveDocument::resident`]), from methods that only look.
    live: RefCell<Live>,
    options: DocOptions,
    doc: Document,
    theme: Theme,
    /// The code blocks highlighted so far, as far as they were shown.
    highlight: LazyHighlight,
    sanitize: SanitizeMode,
    removed: bool,
    finished: bool,
    /// Standard input was closed: nothing more can come.
    ended: bool,
    /// Content fingerprints, computed when a block is first drawn.
    /// ([`NOT_YET`] before; 8 bytes a block, not an `Option`'s 16: a
    /// 1 GB conversation has half a million blocks.)
    revisions: RefCell<Vec<u64>>,
    /// The time of the last tick, or of opening (ms since the epoch): the
    /// running turn's rule counts from it, so that what it shows changes
    /// only at a tick, never between two frames.
    now: Option<i64>,
    /// A replay sets the conversation, `finished` and `now` (the moment
    /// shown) itself: the files and the clock are not asked.
    replayed: bool,
    /// The token totals and questions so far, turn by turn.
    tally: TurnTally,
    /// The sub-agent shown full-screen, as the ids of the calls leading to
    /// it (empty: the conversation itself).
    focus: Vec<String>,
    /// How many leading turns have no blocks: a conversation opened at its
    /// end ([`Live::open_at_end_reporting`]) has not decoded them yet.
    earlier: usize,
    /// The file grew while followed: from then on its modification time
    /// alone says how long the agent has been quiet ([`writer_idle::quiet_for`]).
    grown: bool,
    /// A change came while the last one was being proven: it is read once
    /// the proof is done ([`Follow::prove`]), even if it failed.
    refresh_waiting: bool,
    /// The turn (0-based) last decoded again to be shown: the turns
    /// furthest from it are the first emptied ([`Live::hollow_far_from`]).
    near: Cell<usize>,
    /// Whether a turn emptied of its texts could not be decoded again, and
    /// what is done about it.
    unreadable: RefCell<resident::Unreadable>,
    /// The next view, built a batch at a time ([`EarlierTurns::view_step`]).
    building: Option<resident::Building>,
}

impl LiveDocument {
    /// The document of `live` with these display choices.
    pub fn new(live: Live, options: DocOptions, theme: Theme, sanitize: SanitizeMode) -> Self {
        let finished = live.finished();
        let mut doc = LiveDocument {
            live: RefCell::new(live),
            options,
            doc: Document::default(),
            highlight: LazyHighlight::new(&theme),
            theme,
            sanitize,
            removed: false,
            finished,
            ended: false,
            revisions: RefCell::new(Vec::new()),
            now: now_millis(),
            replayed: false,
            tally: TurnTally::default(),
            focus: Vec::new(),
            earlier: 0,
            grown: false,
            refresh_waiting: false,
            near: Cell::new(0),
            unreadable: RefCell::default(),
            building: None,
        };
        doc.check_finished();
        doc.rebuild();
        doc
    }

    /// The conversation shown, for a replay to change in place before
    /// [`LiveDocument::replayed`].
    pub(super) fn conversation_mut(&mut self) -> &mut crate::model::Conversation {
        &mut self.live.get_mut().conversation
    }

    /// A replay changed the conversation: it shows the moment `now`
    /// (milliseconds since the epoch), `finished` or not. `untouched`: how
    /// many leading turns kept their events (`None`: build it all anew).
    pub(super) fn replayed(&mut self, untouched: Option<usize>, finished: bool, now: Option<i64>) {
        self.replayed = true;
        self.finished = finished;
        self.now = now;
        match untouched {
            Some(untouched) => self.rebuild_from(untouched),
            None => self.rebuild(),
        }
    }

    /// The conversation followed.
    pub fn source(&self) -> Ref<'_, Live> {
        self.live.borrow()
    }

    /// Problems with the conversation's stored styles (not fatal), one line
    /// each naming the file and place.
    pub fn style_warnings(&self) -> Vec<String> {
        self.doc
            .warnings
            .iter()
            .map(|w| self.live.borrow().describe_style_warning(w))
            .collect()
    }

    /// The followed conversation's title.
    fn conversation_title(&self) -> String {
        let live = self.live.borrow();
        if let Some(title) = &live.conversation.title {
            // Shown through text::sanitize::echo_line where the status bar is drawn.
            return title.clone();
        }
        match &live.origin {
            Origin::Jp(dir) => dir
                .display_id()
                .unwrap_or_else(|| dir.dir.display().to_string()),
            Origin::Stream(path) if path.as_os_str() == "-" => "standard input".to_string(),
            Origin::Stream(path) => path.display().to_string(),
            Origin::Eve(path) => path
                .file_name()
                .unwrap_or(path.as_os_str())
                .to_string_lossy()
                .into_owned(),
        }
    }

    /// The conversation shown: the followed one, or the sub-agent opened
    /// full-screen in it (as far as its calls still lead).
    fn shown(&self) -> Ref<'_, Conversation> {
        Ref::map(self.live.borrow(), |live| {
            let mut conv = &live.conversation;
            for call in &self.focus {
                match conv.subagents.get(call) {
                    Some(sub) => conv = sub,
                    None => break,
                }
            }
            conv
        })
    }

    /// Whether the call of the sub-agent shown full-screen has its result:
    /// its turn is not running, whatever the parent does.
    fn focus_answered(&self) -> bool {
        let Some(call) = self.focus.last() else {
            return false;
        };
        let live = self.live.borrow();
        let mut conv = &live.conversation;
        for step in &self.focus[..self.focus.len() - 1] {
            match conv.subagents.get(step) {
                Some(sub) => conv = sub,
                None => return false,
            }
        }
        conv.turns.iter().flat_map(|t| &t.items).any(|item| {
            matches!(item, crate::model::Item::ToolCall(tool)
                if tool.response.is_some()
                    && matches!(&conv.events[tool.request].kind,
                        EventKind::ToolCallRequest { id, .. } if id == call))
        })
    }

    fn rebuild(&mut self) {
        if let Some(building) = self.building.take() {
            // The next view under way is built at once.
            self.options = building.options;
        }
        self.options.finished = self.finished;
        self.live.get_mut().take_untouched_turns();
        let emptied = self.focus.is_empty() && self.live.get_mut().has_hollow();
        let built = if emptied { self.build_emptied() } else { None };
        // A sub-agent is read whole.
        self.earlier = if self.focus.is_empty() {
            self.live.get_mut().earlier_turns()
        } else {
            0
        };
        let earlier = self.earlier;
        let doc = match built {
            Some(doc) => doc,
            None if earlier > 0 => {
                Document::build_turns(&self.shown(), &self.options, &|n| n > earlier)
            }
            None => Document::build(&self.shown(), &self.options),
        };
        self.doc = doc;
        self.revisions = RefCell::new(vec![NOT_YET; self.doc.blocks.len()]);
        let live = self.live.get_mut();
        self.tally.update(&live.conversation, 0);
        if self.focus.is_empty() {
            live.hollow_far_from(self.near.get(), self.earlier);
        }
    }

    /// Brings the document up to date after a refresh, keeping the blocks
    /// (and their fingerprints) of the turns no refresh touched: a new turn
    /// at the end of a long conversation costs what that turn costs.
    fn update_blocks(&mut self) {
        let untouched = self.live.get_mut().take_untouched_turns();
        if let Some(building) = &mut self.building {
            building.untouched = building.untouched.min(untouched);
        }
        self.rebuild_from(untouched);
    }

    /// Rebuilds the document keeping the blocks (and their fingerprints) of
    /// the first `untouched` turns.
    fn rebuild_from(&mut self, untouched: usize) {
        if !self.focus.is_empty() {
            // A sub-agent's turns are not counted by the refresh.
            return self.rebuild();
        }
        self.options.finished = self.finished;
        if self.resident_in(untouched..usize::MAX) {
            return self.rebuild();
        }
        // Turns decoded since the last build (a re-read) are built anew.
        let live = self.live.get_mut();
        let earlier = live.earlier_turns();
        let untouched = if earlier < self.earlier {
            untouched.min(earlier)
        } else {
            untouched
        };
        self.earlier = earlier;
        let kept = self
            .doc
            .rebuild_after(&live.conversation, &self.options, untouched, earlier);
        let revisions = self.revisions.get_mut();
        revisions.truncate(kept);
        revisions.resize(self.doc.blocks.len(), NOT_YET);
        self.tally.update(&live.conversation, untouched);
        live.hollow_far_from(self.near.get(), self.earlier);
    }

    /// How long the turn whose rule is block `i` had been running at the
    /// last tick (milliseconds, by this machine's clock), when it is the last turn of
    /// a conversation someone is writing and has not ended.
    fn running_for(&self, i: usize) -> Option<u64> {
        let block = self.block(i);
        let BlockKind::TurnRule {
            timestamp: Some(stamp),
            duration: None,
            number,
            ..
        } = &block.kind
        else {
            return None;
        };
        if self.live() != LiveState::Live
            || *number < self.shown().turns.len()
            || self.focus_answered()
        {
            return None;
        }
        let now = self.now?;
        if !self.records_recent(now) {
            return None;
        }
        let start = duration::epoch_millis(stamp)?;
        u64::try_from(now - start).ok()
    }

    /// Whether the conversation's own records say it is being written at
    /// `now`: for an agent transcript, whose writer never says it is done,
    /// its newest stated time is within the quiet its reader allows. A
    /// file's time says nothing of its turns — a transcript truncated and
    /// refilled, or touched, is as new as its file and as old as its
    /// records — so a turn's clock runs only while its records are recent;
    /// else its rule shows no running time.
    fn records_recent(&self, now: i64) -> bool {
        let live = self.live.borrow();
        let Some(limit) = live.quiet_limit() else {
            return true;
        };
        let limit = i64::try_from(limit.as_millis()).unwrap_or(i64::MAX);
        writer_idle::last_stated(&live.conversation).is_none_or(|said| now - said <= limit)
    }

    fn block(&self, i: usize) -> &DocBlock {
        &self.doc.blocks[i]
    }

    /// Block `i` laid out, its code highlighted as `highlighting` says.
    fn lines_highlighting(
        &self,
        i: usize,
        width: usize,
        folded: bool,
        highlighting: Highlighting<'_>,
    ) -> Vec<Line<'static>> {
        let unreadable = self
            .resident(i)
            .filter(|_| fingerprint::reads_events(&self.block(i).kind));
        let fold = match (self.limited(i), folded) {
            (true, true) => Fold::Policy,
            (true, false) => Fold::Expanded,
            (false, true) => Fold::Folded,
            (false, false) => Fold::Policy,
        };
        let conv = self.shown();
        let ctx = LayoutContext {
            conv: &conv,
            theme: &self.theme,
            width,
            code_width: Some(CODE_WIDTH),
            sanitize: self.sanitize,
            highlighting,
            wrap_results: true,
        };
        if let Some(problem) = unreadable {
            return layout::unreadable(&problem, &ctx);
        }
        if let Some(lines) = self
            .running_for(i)
            .and_then(|elapsed| layout::running_turn_rule(self.block(i), elapsed, &ctx))
        {
            return lines;
        }
        layout::layout_in_viewer(self.block(i), fold, &ctx)
    }

    /// Lines highlighted so far, for tests.
    #[cfg(test)]
    pub(crate) fn highlighted_lines(&self) -> usize {
        self.highlight.highlighted()
    }

    /// Re-reads after a change, a rewrite's new entries before the bytes
    /// before them are proven ([`Follow::prove`]), or once the proof under
    /// way is done; whether anything the viewer shows changed.
    fn refresh(&mut self) -> Result<bool, ReadError> {
        if self.live.get_mut().unproven() {
            // Read once the proof under way is done, between keys.
            self.refresh_waiting = true;
            return Ok(false);
        }
        let refresh = self
            .live
            .get_mut()
            .refresh_unproven()
            .map_err(|e| ReadError::new(without_folder(&e.to_string())))?;
        Ok(refresh != Refresh::Unchanged)
    }

    /// Notes whether the agent is done; whether that changed.
    fn check_finished(&mut self) -> bool {
        if self.replayed {
            return false;
        }
        let finished = self.ended || self.live.get_mut().finished() || self.quiet_too_long();
        std::mem::replace(&mut self.finished, finished) != finished
    }

    /// Whether an agent transcript (whose writer never says it finished) has
    /// gone unwritten longer than its reader allows: a minute once its last
    /// turn settled, a quarter of an hour mid-turn (docs/agents.md). Asked
    /// at each tick; a write makes it live again.
    fn quiet_too_long(&self) -> bool {
        let live = self.live.borrow();
        let Some(limit) = live.quiet_limit() else {
            return false;
        };
        writer_idle::quiet_for(
            self.modified(),
            &live.conversation,
            self.now,
            self.grown,
        )
        .is_some_and(|quiet| quiet >= limit)
    }
}

impl Blocks for LiveDocument {
    type Key = BlockKey;

    fn len(&self) -> usize {
        self.doc.blocks.len()
    }

    fn key(&self, i: usize) -> BlockKey {
        self.block(i).key.clone()
    }

    fn revision(&self, i: usize) -> u64 {
        // The running turn's rule counts seconds: it changes every second.
        // It changes as often as what it shows does (a day-long turn's
        // `302d18h` once an hour).
        if let Some(elapsed) = self.running_for(i) {
            self.resident(i);
            let content = fingerprint::of_block(self.block(i), &self.shown());
            return fingerprint::with(content, &layout::running_label(elapsed));
        }
        if let Some(&rev) = self.revisions.borrow().get(i)
            && rev != NOT_YET
        {
            return rev;
        }
        self.resident(i);
        let block = self.block(i);
        let rev = match &block.piece {
            // The pieces of a block draw from the same events: those are
            // hashed once, for the first piece.
            Some(piece) if !piece.is_first() => {
                fingerprint::with(self.revision(self.owner(i)), &format!("{piece:?}"))
            }
            _ => fingerprint::of_block(block, &self.shown()),
        };
        if let Some(slot) = self.revisions.borrow_mut().get_mut(i) {
            *slot = rev;
        }
        rev
    }

    fn turn(&self, i: usize) -> usize {
        self.block(i).turn
    }

    fn class(&self, i: usize) -> BlockClass {
        match self.block(i).kind {
            BlockKind::ToolCard(_) => BlockClass::ToolCard,
            BlockKind::Reasoning { .. } => BlockClass::Reasoning,
            _ => BlockClass::Other,
        }
    }

    fn is(&self, i: usize, landmark: Landmark) -> bool {
        let block = self.block(i);
        let landmark = match landmark {
            Landmark::Failure => DocLandmark::Failure,
            Landmark::Speech => DocLandmark::Speech,
        };
        block.piece.as_ref().is_none_or(|p| p.is_first()) && block.is(landmark, &self.shown())
    }

    fn limited(&self, i: usize) -> bool {
        self.resident(i);
        layout::is_limited(self.block(i), &self.shown())
    }

    fn foldable(&self, i: usize) -> bool {
        layout::is_foldable(self.block(i))
    }

    fn owner(&self, i: usize) -> usize {
        self.block(i).piece.as_ref().map_or(i, |p| i - p.index)
    }

    fn lines(&self, i: usize, width: usize, folded: bool) -> Vec<Line<'static>> {
        self.lines_highlighting(i, width, folded, Highlighting::Whole)
    }

    fn lines_coloured(
        &self,
        i: usize,
        width: usize,
        folded: bool,
        colour: Colour,
    ) -> (Vec<Line<'static>>, usize) {
        let lazy = Highlighting::Lazy(&self.highlight);
        self.highlight
            .laying_out(colour, || self.lines_highlighting(i, width, folded, lazy))
    }

    fn colour_generation(&self) -> u64 {
        self.highlight.generation()
    }

    fn colour_more(&self) -> ColourStep {
        self.highlight.colour_more()
    }

    fn search_text(&self, i: usize) -> String {
        self.resident(i);
        layout::search_text(self.block(i), &self.shown())
    }

    fn full_text(&self, i: usize) -> Option<String> {
        if self.resident(i).is_some() {
            // Nothing to copy: the block shows why.
            return None;
        }
        let conv = self.shown();
        let text = layout::full_text(self.block(i), &conv)?;
        Some(sanitize_cow(text, SanitizeMode::Strip).into_owned())
    }

    fn open_subagent(&mut self, i: usize) -> Option<String> {
        let BlockKind::ToolCard(card) = &self.block(i).kind else {
            return None;
        };
        let sub = card.subagent.as_ref()?;
        if !self.shown().subagents.contains_key(&sub.call) {
            return None;
        }
        let name = layout::subagent_name(card, &self.shown());
        self.focus.push(sub.call.clone());
        self.rebuild();
        Some(name)
    }

    fn close_subagent(&mut self) -> bool {
        if self.focus.pop().is_none() {
            return false;
        }
        self.rebuild();
        true
    }

    fn title(&self) -> String {
        let title = self.conversation_title();
        if self.focus.is_empty() {
            return title;
        }
        format!("{title} › {} sub-agent", self.focus.len())
    }

    fn event_count(&self) -> usize {
        self.live.borrow().conversation.events.len()
    }

    fn usage(&self) -> Option<String> {
        self.tally.usage()
    }

    fn cost(&self) -> Option<String> {
        self.tally.cost()
    }

    fn view_name(&self) -> &'static str {
        self.options.view.name()
    }

    fn cycle_view(&mut self) {
        self.options.view = self.options.view.next();
        self.rebuild();
    }
}

impl Follow for LiveDocument {
    type Update = LiveUpdate;

    fn attention(&self) -> Attention {
        let live = self.live.borrow();
        let conv = &live.conversation;
        let (questions, last_question) = self.tally.questions(conv);
        Attention {
            ended_turns: document::ended_turns(conv, self.finished),
            questions,
            last_question,
        }
    }

    fn live(&self) -> LiveState {
        if self.removed {
            LiveState::Removed
        } else if self.finished {
            LiveState::Finished
        } else {
            LiveState::Live
        }
    }

    fn update(&mut self, update: LiveUpdate) -> Result<bool, ReadError> {
        self.unreadable.get_mut().file_changed();
        let changed = match update {
            LiveUpdate::Changed(Change::Removed) => {
                self.removed = true;
                return Ok(true);
            }
            LiveUpdate::Changed(Change::Error(text)) => return Err(ReadError::new(without_folder(&text))),
            LiveUpdate::Changed(Change::Returned) => {
                self.removed = false;
                self.refresh()?;
                true
            }
            LiveUpdate::Changed(Change::Moved(dir)) => {
                self.live.get_mut().moved_to(dir);
                self.removed = false;
                self.refresh()?
            }
            LiveUpdate::Changed(Change::Events | Change::BaseConfig) => self.refresh()?,
            LiveUpdate::Changed(Change::Metadata) => self
                .live
                .get_mut()
                .refresh_title()
                .map_err(|e| ReadError::new(without_folder(&e.to_string())))?,
            LiveUpdate::Stream(inbox) => {
                let taken = inbox.take(STREAM_SLICE);
                let end = taken.end.is_some();
                self.ended |= end;
                let pushed = self.live.get_mut().push_stream(&taken.bytes, end);
                let problem = match (pushed, taken.end) {
                    (_, Some(StreamEnd::Failed(e))) => Some(e.to_string()),
                    (Err(e), _) => Some(e.to_string()),
                    (Ok(Refresh::Reloaded), _) if self.live.get_mut().is_jp() => {
                        // A JP array, read whole at the stream's end.
                        self.check_finished();
                        self.rebuild();
                        return Ok(true);
                    }
                    (Ok(refresh), _) if refresh != Refresh::Unchanged => None,
                    (Ok(_), _) if !end => return Ok(false),
                    (Ok(_), _) => None,
                };
                if let Some(problem) = problem {
                    self.check_finished();
                    self.update_blocks();
                    return Err(ReadError::new(without_folder(&problem)));
                }
                true
            }
        };
        self.grown |= changed;
        let state_changed = self.check_finished();
        if changed || state_changed {
            self.update_blocks();
        }
        Ok(changed || state_changed)
    }

    fn resume_command(&self) -> Result<String, NoResume> {
        match &self.live.borrow().origin {
            Origin::Jp(_) => Err(NoResume::Jp),
            Origin::Stream(_) => Err(NoResume::Stream),
            Origin::Eve(path) => super::resume::command(path),
        }
    }

    fn modified(&self) -> Option<SystemTime> {
        let path = match &self.live.borrow().origin {
            Origin::Jp(dir) => dir.events_path(),
            Origin::Stream(_) => return None,
            Origin::Eve(path) => return crate::source::opencode::modified(path),
        };
        std::fs::metadata(path).and_then(|m| m.modified()).ok()
    }

    fn polls(&self) -> bool {
        let live = self.live.borrow();
        self.unreadable.borrow().to_read_whole()
            || !self.replayed
                && !self.removed
                && (live.follows_subagents() || live.waits_for_a_commit())
    }

    fn unproven(&self) -> bool {
        // A change that waited for a proof that failed is still read.
        self.refresh_waiting || self.live.borrow().unproven()
    }

    fn prove(&mut self) -> Result<bool, ReadError> {
        let proven = self.live.get_mut().prove_step(PROOF_STEP);
        let Some(proven) = proven.map_err(|e| ReadError::new(without_folder(&e.to_string())))?
        else {
            return Ok(false);
        };
        let mut changed = proven != Refresh::Unchanged;
        if std::mem::take(&mut self.refresh_waiting) {
            changed |= self.refresh()?;
        }
        self.grown |= changed;
        let state_changed = self.check_finished();
        if changed || state_changed {
            self.update_blocks();
        }
        Ok(changed || state_changed)
    }

    fn poll(&mut self) -> Result<bool, ReadError> {
        if let Some(problem) = self.unreadable.get_mut().take_read_whole() {
            // A turn emptied of its texts could not be decoded again: what
            // is shown is read whole from the file as it is now.
            let live = self.live.get_mut();
            if live.has_hollow()
                && let Err(e) = live.reread()
            {
                let e = without_folder(&e.to_string());
                *self.unreadable.get_mut() = resident::Unreadable::UntilChanged(problem);
                return Err(ReadError::new(e));
            }
            self.rebuild();
            return Err(ReadError::new(format!("{problem}: read again whole")));
        }
        let changed = self.refresh()?;
        if changed {
            self.update_blocks();
        }
        Ok(changed)
    }

    fn tick(&mut self) {
        if self.replayed {
            return;
        }
        self.now = now_millis();
        if self.check_finished() {
            self.update_blocks();
        }
    }
}

impl EarlierTurns for LiveDocument {
    fn earlier(&self) -> usize {
        self.earlier
    }

    fn begin_view_change(&mut self) -> bool {
        self.begin_building_next_view()
    }

    fn view_step(&mut self) -> Option<usize> {
        self.build_next_view_step()
    }

    fn cancel_view_change(&mut self) {
        self.building = None;
    }

    fn earlier_unread(&self) -> usize {
        self.live.borrow().earlier_turns()
    }

    fn read_earlier(&mut self, amount: EarlierAmount) -> Result<bool, ReadError> {
        if self.earlier == 0 {
            return Ok(false);
        }
        // Turns decoded by earlier steps whose blocks wait (see below) are
        // what the view coming near them gets first.
        let live = self.live.get_mut();
        let waiting = self.earlier > live.earlier_turns();
        let bytes = match amount {
            EarlierAmount::Near if waiting => 0,
            EarlierAmount::Near => EARLIER_STEP,
            EarlierAmount::Step => DECODE_SPAN,
        };
        let read = live
            .read_earlier(bytes)
            .map_err(|e| ReadError::new(without_folder(&e.to_string())))?;
        match read {
            EarlierRead::Turns(0) if !waiting => Ok(false),
            EarlierRead::Turns(_) => {
                let now = live.earlier_turns();
                // The turns read are where the view goes: the decoded
                // turns furthest from them are emptied first.
                live.hollow_far_from(now, self.earlier);
                self.near.set(now);
                // A step of reading every turn puts the blocks of the turns
                // it decoded first only once they are as many as the turns
                // with blocks, or BATCH_TURNS (or none are left): putting
                // blocks first moves those after them, and building them
                // walks the turns before, so blocks put first at each step
                // would cost the whole conversation at each step.
                let built = live.conversation.turns.len() - self.earlier;
                let batch = built.min(BATCH_TURNS);
                if amount == EarlierAmount::Step && now > 0 && self.earlier - now < batch {
                    return Ok(true);
                }
                let added = self.doc.prepend_turns(
                    &live.conversation,
                    &self.options,
                    now + 1..=self.earlier,
                );
                self.earlier = now;
                let revisions = self.revisions.get_mut();
                revisions.splice(0..0, std::iter::repeat_n(NOT_YET, added));
                Ok(true)
            }
            EarlierRead::Reloaded => {
                self.rebuild();
                Ok(true)
            }
        }
    }
}

impl Replaying for LiveDocument {
}

/// A problem naming a file, with the file's folder left out: the status bar
/// is narrow, and the folder is the one being viewed.
pub(super) fn without_folder(problem: &str) -> String {
    match problem.split_once(": ") {
        Some((path, rest)) if path.contains(std::path::MAIN_SEPARATOR) => {
            let file = std::path::Path::new(path).file_name().map_or_else(
                || path.to_string(),
                |name| name.to_string_lossy().into_owned(),
            );
            format!("{file}: {rest}")
        }
        _ => problem.to_string(),
    }
}

/// This machine's clock, in milliseconds since the epoch.
fn now_millis() -> Option<i64> {
    let now = SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    i64::try_from(now.as_millis()).ok()
}

mod resident;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod highlight_tests;
