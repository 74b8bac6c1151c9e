//! What the viewer draws: an ordered list of blocks, each laid out on demand.
//!
//! The viewer's core (scrolling, caching, search, folding) is written against
//! these small traits rather than against the render module's document, so it
//! can be tested with a hand-made document and so it depends on no more of the
//! rendering internals than it draws. They are split by role: [`Blocks`] is
//! the document (what is drawn, searched, folded), [`Follow`] what keeps it
//! up to date as the conversation is written, [`EarlierTurns`] reading the
//! turns a large conversation opened at its end does not have yet, and
//! [`Replaying`] the controls of `overhear replay`. [`Viewable`] is all four,
//! what the viewer's [`super::app::App`] holds; parts that only draw (the
//! [`super::lazy_layout::Sheet`]) ask for [`Blocks`] alone.

use std::fmt::Debug;
use std::hash::Hash;
use std::time::SystemTime;

use ratatui::text::Line;

use super::resume::NoResume;
use crate::render::lazy_highlight::{Colour, ColourStep};

/// What kind of block it is, as far as the viewer's keys care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockClass {
    /// A tool call card: foldable by `Enter` and `z`, a target of `{` / `}`.
    ToolCard,
    /// Reasoning: folded, shown or hidden by `r`.
    Reasoning,
    /// Everything else (speech, turn rules, notices).
    Other,
}

/// A block people look for first in a long run, a target of its own jump keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Landmark {
    /// A tool call that failed (`x` / `X`).
    Failure,
    /// A message to the user: the assistant's speech (`)` / `(`).
    Speech,
}

/// How many earlier turns one [`EarlierTurns::read_earlier`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EarlierAmount {
    /// What the view coming near them needs: a few screens' worth, read
    /// in a few milliseconds (scrolling up).
    Near,
    /// One step of reading them all (a key that needs every turn): larger,
    /// but short enough that the viewer answers keys, signals and appends
    /// between two steps.
    Step,
}

/// What a user who is not looking may want to be told (`--notify`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Attention {
    /// How many turns have ended.
    pub ended_turns: usize,
    /// How many questions the agent asked the user.
    pub questions: usize,
    /// The text of the latest question (raw: the notifier cleans it).
    pub last_question: String,
}

/// Whether anyone is still writing the conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LiveState {
    /// An agent is (or may be) writing: new content can arrive.
    #[default]
    Live,
    /// No agent holds the conversation any more, or the stream ended.
    Finished,
    /// The file was removed; the viewer keeps showing what it had.
    Removed,
}

/// What a replay asks for, by key (`overhear replay`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplayControl {
    /// Pause, or play on (from the start again at the end).
    Pause,
    /// One step forward (pauses).
    Forward,
    /// One step back (pauses).
    Back,
    /// Play faster.
    Faster,
    /// Play slower.
    Slower,
}

/// Where a replay is, for the status bar: `replay · event 57/212 · 4× · 17:07:09`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayStatus {
    /// Steps shown.
    pub step: usize,
    /// Steps in all.
    pub total: usize,
    /// What a step is: `event`, or `line` for an eve stream.
    pub unit: &'static str,
    /// The speed as shown: `4×`, `0.5×`, `max`.
    pub speed: String,
    /// Whether it is playing (not paused, not at the end).
    pub playing: bool,
    /// When the step shown was written.
    pub moment: Option<SystemTime>,
}

/// Why a document could not take in what changed, read its earlier turns,
/// or be opened from the picker: one line for the status bar, naming the
/// file without its folder. The viewer keeps showing what it had.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ReadError(String);

impl ReadError {
    /// The note, already in the words the status bar shows.
    pub fn new(note: impl Into<String>) -> ReadError {
        ReadError(note.into())
    }
}

/// A document the viewer can draw.
///
/// Blocks are addressed by index; a block's [`Blocks::key`] is its identity
/// across reloads (folding, the scroll anchor and the layout cache are keyed by
/// it) and its [`Blocks::revision`] changes whenever what it shows may have.
pub trait Blocks {
    /// Identity of a block that survives reloads.
    type Key: Clone + Eq + Hash + Debug;
    /// How many blocks there are.
    fn len(&self) -> usize;
    /// Whether there are no blocks.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The stable identity of block `i`.
    fn key(&self, i: usize) -> Self::Key;
    /// A fingerprint of block `i`'s content: equal revisions lay out equally.
    fn revision(&self, i: usize) -> u64;
    /// The 1-based turn block `i` belongs to; never decreases with `i`.
    fn turn(&self, i: usize) -> usize;
    /// What kind of block `i` is.
    fn class(&self, i: usize) -> BlockClass;
    /// Whether block `i` is `landmark`; only the first piece of a cut block is.
    fn is(&self, i: usize, landmark: Landmark) -> bool;
    /// Whether the policy shows block `i` only in part (a tool card whose
    /// results it cuts or hides): its folded form is then what the policy
    /// shows, it starts folded, and unfolding shows everything.
    fn limited(&self, i: usize) -> bool;
    /// Whether block `i` can be folded to its header.
    fn foldable(&self, i: usize) -> bool;
    /// The block that block `i` is a piece of (see
    /// [`crate::render::document::Piece`]): the first of its pieces, whose
    /// key folds them all, whose header `{` / `}` land on. `i` itself for a
    /// whole block.
    fn owner(&self, i: usize) -> usize {
        i
    }
    /// Block `i` laid out for `width` columns. Text lines fit the width; lines
    /// that must not wrap (code) may be wider and are scrolled with `h`/`l`.
    /// The last line is blank.
    fn lines(&self, i: usize, width: usize, folded: bool) -> Vec<Line<'static>>;
    /// [`Blocks::lines`] with the code in the block highlighted only as far
    /// as `colour` asks, the rest in the plain code style (the same text in
    /// the same cells, so the same lines); the lines, and the first line of
    /// the block whose code may still be plain (`usize::MAX`: none). By
    /// default the whole block is highlighted.
    fn lines_coloured(
        &self,
        i: usize,
        width: usize,
        folded: bool,
        colour: Colour,
    ) -> (Vec<Line<'static>>, usize) {
        let _ = colour;
        (self.lines(i, width, folded), usize::MAX)
    }
    /// Changes whenever code that [`Blocks::lines_coloured`] left plain may
    /// have been highlighted since (a layout would come out more coloured).
    fn colour_generation(&self) -> u64 {
        0
    }
    /// Highlights a few more lines of the code left plain; called between
    /// keys, while no event waits.
    fn colour_more(&self) -> ColourStep {
        ColourStep::Idle
    }
    /// All the text of block `i`, folded parts included, for search.
    fn search_text(&self, i: usize) -> String;
    /// The complete text of block `i` for the pager and copying, if it has one.
    fn full_text(&self, i: usize) -> Option<String>;
    /// The conversation's title for the status bar.
    fn title(&self) -> String;
    /// Shows the sub-agent of block `i` (a card whose call started one) in
    /// place of the conversation; its name, or `None` when the block has
    /// none. The blocks are then the sub-agent's.
    fn open_subagent(&mut self, _i: usize) -> Option<String> {
        None
    }
    /// Shows again the conversation the open sub-agent belongs to; whether
    /// one was open.
    fn close_subagent(&mut self) -> bool {
        false
    }
    /// How many events the conversation holds.
    fn event_count(&self) -> usize;
    /// The conversation's token totals, when its turns count tokens.
    fn usage(&self) -> Option<String> {
        None
    }
    /// What the conversation's turns cost so far (`~$0.0421`, `not
    /// priced`), when any turn states its cost or its tokens.
    fn cost(&self) -> Option<String> {
        None
    }
    /// The name of the current view (`terminal`, `user`, `raw`).
    fn view_name(&self) -> &'static str;
    /// Switches to the next view (the `v` key).
    fn cycle_view(&mut self);
}

/// A document that follows its conversation as it is written: what the
/// watcher reports is applied with [`Follow::update`], files no watcher
/// reports are polled, and the status bar says whether anyone still writes.
pub trait Follow {
    /// What a reload delivers (the new conversation), sent from another thread.
    type Update: Send + 'static;

    /// Whether anyone is still writing the conversation.
    fn live(&self) -> LiveState;
    /// Applies what the watcher reported; returns whether the content
    /// changed, or a one-line note when it could not be read.
    fn update(&mut self, update: Self::Update) -> Result<bool, ReadError>;
    /// When the conversation's file last changed, if there is a file.
    fn modified(&self) -> Option<SystemTime> {
        None
    }
    /// The command that resumes the conversation in the agent that wrote
    /// it (`R`), or why there is none.
    fn resume_command(&self) -> Result<String, NoResume> {
        Err(NoResume::NotASession)
    }
    /// Turns ended and questions asked so far, for `--notify`.
    fn attention(&self) -> Attention;
    /// Called about once a second: a chance to notice what no file change
    /// reports (an agent releasing its lock).
    fn tick(&mut self) {}
    /// Whether what the last [`Follow::update`] showed waits to be proven
    /// ([`Follow::prove`]): a rewrite's new entries are shown before the
    /// bytes before them are read again, and a change reported meanwhile
    /// waits for the proof.
    fn unproven(&self) -> bool {
        false
    }
    /// A step of proving what the last update showed before reading all it
    /// rests on; whether the content changed (it was wrong, and read again
    /// whole, or a change that came meanwhile was read). Called once the
    /// change is drawn, a step between keys until it is no longer
    /// [`Follow::unproven`].
    fn prove(&mut self) -> Result<bool, ReadError> {
        Ok(false)
    }
    /// Whether [`Follow::poll`] has files to read at each tick.
    fn polls(&self) -> bool {
        false
    }
    /// Called with [`Follow::tick`] when it [`Follow::polls`]: reads what
    /// changed in files no watcher reports (a sub-agent's own file);
    /// whether the blocks changed.
    fn poll(&mut self) -> Result<bool, ReadError> {
        Ok(false)
    }
}

/// A document opened at its end, whose earlier turns are read when the view
/// needs them (a large conversation). A document read whole has none: the
/// defaults say so.
pub trait EarlierTurns {
    /// How many leading turns have no blocks yet: a large conversation
    /// opened at its end reads its earlier turns when the view needs them
    /// ([`EarlierTurns::read_earlier`]).
    fn earlier(&self) -> usize {
        0
    }
    /// How many of the [`EarlierTurns::earlier`] turns are still to be read from
    /// the file (the others were read and wait to be given blocks): how far
    /// reading every earlier turn is.
    fn earlier_unread(&self) -> usize {
        self.earlier()
    }
    /// Reads earlier turns — as many as `amount` says, the last ones
    /// first — and puts their blocks first (the blocks already there keep
    /// their keys); whether any were added, or a one-line note when they
    /// could not be read.
    fn read_earlier(&mut self, _amount: EarlierAmount) -> Result<bool, ReadError> {
        Ok(false)
    }
    /// Starts switching to the next view a step at a time, when building
    /// its blocks decodes again turns emptied to save memory (a large
    /// conversation read whole): true, and [`EarlierTurns::view_step`] goes
    /// on with it. False: [`Blocks::cycle_view`] switches at once.
    fn begin_view_change(&mut self) -> bool {
        false
    }
    /// One step of the view change begun: how far it is (percent) while it
    /// goes on, `None` once the view is switched.
    fn view_step(&mut self) -> Option<usize> {
        None
    }
    /// Drops the view change begun (`Esc`): the view stays as it was.
    fn cancel_view_change(&mut self) {}
}

/// A document played back in time (`overhear replay`). Any other ignores the
/// controls: the defaults say so.
pub trait Replaying {
    /// Where the replay is, when the document is one (`overhear replay`).
    fn replay(&self) -> Option<ReplayStatus> {
        None
    }
    /// Acts on a replay; returns whether what is shown changed, and a note
    /// for the status bar. A document that is not a replay ignores it.
    fn control(&mut self, _control: ReplayControl) -> (bool, Option<String>) {
        (false, None)
    }
}

/// Everything the viewer needs of a document: drawn, followed, completed with
/// its earlier turns, replayed. Implemented for every type that has the four
/// roles.
pub trait Viewable: Blocks + Follow + EarlierTurns + Replaying {}

impl<D: Blocks + Follow + EarlierTurns + Replaying> Viewable for D {}

/// Index of the block with `key`, looking at `hint` first (reloads rarely move blocks).
pub fn find_key<D: Blocks>(doc: &D, key: &D::Key, hint: usize) -> Option<usize> {
    if hint < doc.len() && doc.key(hint) == *key {
        return Some(hint);
    }
    (0..doc.len()).find(|&i| doc.key(i) == *key)
}

/// Index of the first block of turn `turn` or later.
pub fn turn_start<D: Blocks>(doc: &D, turn: usize) -> usize {
    partition_point(doc.len(), |i| doc.turn(i) < turn)
}

/// The first index in `0..len` for which `pred` is false (`pred` is monotonic).
fn partition_point(len: usize, pred: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, len);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if pred(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}
