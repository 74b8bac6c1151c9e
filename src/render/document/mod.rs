//! The document: a conversation turned into displayable blocks by the policy.
//!
//! Building a document is cheap: a block records *what* to show (event
//! indices and the decisions of the display policy), not how it looks. Lines
//! are made per block and width by [`super::layout`], lazily, so the TUI lays
//! out only what is visible and `overhear render` streams turn by turn. The
//! same document feeds both, so the screen and a snapshot cannot disagree.
//!
//! The document is a stage of its own between the policy and the layout: the
//! policy decides (the [`crate::policy::TurnPolicy`] of each turn, from
//! [`crate::policy::PolicyTimeline`]; each result block's
//! [`BlockDisplay`]); `build` keeps the blocks the view shows, each with
//! its decision; `read` holds what is read back from the conversation for a
//! block. The layout only draws what the document says.

use std::ops::Range;
use std::sync::Arc;

use super::split::{PieceForm, SplitLimits};
use crate::model::InProgressKind;
use crate::model::{Conversation, InquiryPair, ToolCall};
#[cfg(feature = "cli")]
use crate::model::EventKind;
use crate::model::facts;
use crate::policy::{BlockDisplay, Overlay, ReasoningDisplay, ToolStyle};
use crate::problem::StyleWarning;

/// Which rendering of the conversation to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DocView {
    /// The display policy applied: what a person should see.
    #[default]
    Terminal,
    /// Only what is addressed to the user, as a chat.
    User,
    /// Everything, every result block labelled with its audience.
    Raw,
}

impl DocView {
    /// The next view, for the TUI's `v` key.
    #[cfg(feature = "cli")]
    pub fn next(self) -> Self {
        match self {
            DocView::Terminal => DocView::User,
            DocView::User => DocView::Raw,
            DocView::Raw => DocView::Terminal,
        }
    }

    /// The view's name as shown in the status bar.
    #[cfg(feature = "cli")]
    pub fn name(self) -> &'static str {
        match self {
            DocView::Terminal => "terminal",
            DocView::User => "user",
            DocView::Raw => "raw",
        }
    }
}

/// Choices that shape the document but are not the conversation's own.
#[derive(Debug, Clone, Default)]
pub struct DocOptions {
    /// Which view.
    pub view: DocView,
    /// The viewer's style overlay (`--config`, `--set`).
    pub overlay: Overlay,
    /// Whether the conversation has ended (no agent writing it any more):
    /// pending calls are then "no response" rather than "running…", and the
    /// last turn can be flagged for a lost final reply.
    pub finished: bool,
}

/// Identity of a block that survives reloads: the event's `event_id` when
/// stored, else its position, plus which part of the event it is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BlockKey {
    /// The event the block starts at.
    pub anchor: Anchor,
    /// Which block of that event (a response can yield several).
    pub part: u16,
    /// Which piece of a block cut into pieces ([`Piece::index`]; 0 when whole).
    pub piece: u32,
}

/// How an event is identified.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Anchor {
    /// RFD 097 `event_id`, by its 64-bit hash: a followed stream keeps a
    /// block per event, and a copy of each id would be as large as the block.
    Id(u64),
    /// Position in the stored stream.
    Index(usize),
    /// A stored line (1-based) of a stream whose lines are not the events
    /// themselves (eve's raw view).
    Line(usize),
    /// The text being written at the end of a live stream.
    Streaming,
}

/// One displayable block of the document.
#[derive(Debug, Clone)]
pub struct DocBlock {
    /// Stable identity for folding, cursor and caches.
    pub key: BlockKey,
    /// The 1-based turn the block belongs to.
    pub turn: usize,
    /// What the block shows.
    pub kind: BlockKind,
    /// The part of a huge block this is, when the block is cut into pieces
    /// that are laid out one at a time; `None` for a whole block (boxed: most
    /// blocks are whole, and a followed stream keeps a block per event).
    pub piece: Option<Box<Piece>>,
}

/// One piece of a block whose text was cut ([`super::split`]): the blocks of
/// the pieces follow one another and share the block's kind; laid out one
/// after another they give the lines of the whole block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// Its place among the pieces: 0 carries the block's head (label, card
    /// header), and folding the block is keyed by piece 0.
    pub index: usize,
    /// Whether it is the last piece, which carries the block's end.
    pub last: bool,
    /// The bytes of the cut text it shows: the joined message of a speech
    /// block, the one result shown by a tool card.
    pub range: Range<usize>,
    /// Whether it is laid out or shown as written.
    pub form: PieceForm,
}

impl Piece {
    /// Whether the piece carries the block's head.
    pub fn is_first(&self) -> bool {
        self.index == 0
    }

    /// Whether it goes on from the lines of the piece before, with no blank
    /// line between.
    pub fn goes_on(&self) -> bool {
        self.form == PieceForm::AsWrittenMore
    }
}

/// What a block shows; indices point into the conversation's events.
#[derive(Debug, Clone)]
pub enum BlockKind {
    /// The rule that opens a turn.
    TurnRule {
        /// 1-based turn number.
        number: usize,
        /// The turn's first timestamp (a boxed `str`: two words instead of
        /// three make every block smaller, a followed stream keeps a block
        /// per event).
        timestamp: Option<Box<str>>,
        /// Model, tokens, cost and outcome, when the format records them
        /// (boxed: every block is as large as the largest kind).
        info: Option<Box<facts::TurnInfo>>,
        /// How long the turn took (milliseconds), once it has ended.
        duration: Option<u64>,
    },
    /// What the user said.
    UserMessage {
        /// The `chat_request`.
        event: usize,
    },
    /// What the assistant said (adjacent messages joined).
    AssistantMessage {
        /// The `chat_response` messages.
        events: Vec<usize>,
        /// Whether this is the turn's final reply in a turn that sent updates.
        final_reply: bool,
    },
    /// A user-addressed tool block rendered as assistant speech (`chat`;
    /// boxed: every block is as large as the largest kind).
    ToolSpeech(Box<ToolSpeech>),
    /// Reasoning.
    Reasoning {
        /// The reasoning events (adjacent ones joined).
        events: Vec<usize>,
        /// How the conversation's configuration says to show it.
        display: ReasoningDisplay,
    },
    /// A tool call card.
    ToolCard(Box<ToolCard>),
    /// Structured output.
    Data {
        /// The `chat_response` with `data`.
        event: usize,
    },
    /// A question asked outside a tool card.
    Inquiry(InquiryPair),
    /// A visible flag from the rules (a lost final reply, a malformed event).
    Notice {
        /// What to say.
        text: String,
        /// Only a note (a hook's outcome, a prompt's IDE context): shown
        /// dim, without the warning mark.
        note: bool,
    },
    /// A configuration change (raw view).
    ConfigDelta {
        /// The `config_delta`.
        event: usize,
    },
    /// An entry the viewer does not understand, shown as stored (raw view).
    Unknown {
        /// The entry.
        event: usize,
    },
    /// Text the agent is writing right now ([`Conversation::in_progress`]),
    /// at the end of the document until the completed event replaces it.
    InProgress {
        /// What is being written (the text itself stays in the conversation).
        kind: InProgressKind,
        /// Whether more can come; `false` once the stream ended without the
        /// completed event (the text is then shown as unfinished).
        live: bool,
    },
    /// One stored line of the source as read ([`Conversation::originals`]),
    /// malformed ones included: the raw view of a format whose lines are not
    /// the events (eve).
    Original {
        /// Index into the conversation's originals.
        index: usize,
    },
}

/// What a reader looks for first in a long run (the viewer's jump keys).
#[cfg(feature = "cli")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Landmark {
    /// A tool call that failed (a refused call is not a failure).
    Failure,
    /// A message to the user: the assistant's speech or a tool block shown as it.
    Speech,
}

impl DocBlock {
    /// Whether the block is `landmark` (every piece of a cut block is, as
    /// the whole is).
    #[cfg(feature = "cli")]
    pub fn is(&self, landmark: Landmark, conv: &Conversation) -> bool {
        let failed = |response: Option<usize>| {
            response.is_some_and(|r| {
                let event = &conv.events[r];
                matches!(
                    event.kind,
                    EventKind::ToolCallResponse { is_error: true, .. }
                ) && !facts::refused(event)
            })
        };
        match (&self.kind, landmark) {
            (BlockKind::ToolCard(card), Landmark::Failure) => failed(card.call.response),
            (BlockKind::ToolSpeech(speech), Landmark::Failure) => failed(speech.response),
            (BlockKind::AssistantMessage { .. } | BlockKind::ToolSpeech(_), Landmark::Speech) => {
                true
            }
            _ => false,
        }
    }
}

/// A tool block shown as speech, with its delivery outcome.
#[derive(Debug, Clone)]
pub struct ToolSpeech {
    /// The tool's name (`tell_user`, `send_channel_update`, …).
    pub tool: String,
    /// The response holding the block (`None`: pending, text from arguments).
    pub response: Option<usize>,
    /// The request.
    pub request: usize,
    /// Which block of the response.
    pub block: usize,
    /// How many attempts the call took (retries with one id).
    pub attempts: u32,
    /// Whether a reply may still come (the conversation is live); an update
    /// with no reply in a conversation that ended lost its reply.
    pub live: bool,
}

/// A tool call with everything the policy decided about it.
#[derive(Debug, Clone)]
pub struct ToolCard {
    /// The request, response and inquiries.
    pub call: ToolCall,
    /// The tool's resolved style, shared by the cards of a tool built
    /// together with the same one (a card of a 1 GB conversation's 280,000
    /// would hold 104 bytes for it).
    pub style: Arc<ToolStyle>,
    /// Per result block: its index and how to show it (speech blocks
    /// excluded). Blocks the policy hides come last, as `Hidden`: the card
    /// counts their lines, and the viewer shows them on request.
    ///
    /// A slice, not a vector: a vector keeps room for four, and a 1 GB
    /// conversation has 280,000 cards of one result each.
    pub results: Box<[(usize, BlockDisplay)]>,
    /// Whether the call may still be running (the conversation is live).
    pub live: bool,
    /// Unanswered in a turn that was aborted (Codex `turn_aborted`, a Claude
    /// Code interruption): it will never have a result.
    pub aborted: bool,
    /// The background task's status, when the format records one (boxed:
    /// rare, and a card of a 1 GB conversation's 280,000 would hold 290
    /// bytes for it).
    pub task: Option<Box<facts::TaskStatus>>,
    /// Whether every result block is labelled with its audience (raw view).
    pub label_audience: bool,
    /// The conversation of the sub-agent the call started, when it has one
    /// ([`Conversation::subagents`]), as blocks of its own.
    pub subagent: Option<Box<SubAgent>>,
}

/// A sub-agent's conversation under the card of the call that started it.
#[derive(Debug, Clone)]
pub struct SubAgent {
    /// The call's id: its conversation is `conv.subagents[call]`.
    pub call: String,
    /// Its blocks, built with the parent's view and overlay; the layout
    /// indents them under the card.
    pub document: Document,
}

/// A conversation as blocks.
#[derive(Debug, Clone, Default)]
pub struct Document {
    /// The blocks, in reading order.
    pub blocks: Vec<DocBlock>,
    /// Problems with the stored styles (shown once, not fatal).
    pub warnings: Vec<StyleWarning>,
    /// How many turns the conversation had when the document was built.
    turns: usize,
    /// When blocks are cut into pieces.
    limits: SplitLimits,
    /// In the raw view of a stream's lines: the first block whose line
    /// names a turn that had not started when it was built (its turn may
    /// still change), so a rebuild keeps only the blocks before it.
    unresolved: Option<usize>,
}

impl Document {
    /// Builds the document of `conv` (cheap: no layout happens here).
    pub fn build(conv: &Conversation, options: &DocOptions) -> Document {
        Document::build_with(conv, options, SplitLimits::default())
    }

    /// [`Document::build`] cutting huge blocks into pieces by `limits`
    /// (tests cut small texts to check that pieces lay out like the whole).
    pub fn build_with(conv: &Conversation, options: &DocOptions, limits: SplitLimits) -> Document {
        let out = Document {
            limits,
            ..Document::default()
        };
        build::run(conv, options, out, 0, None)
    }

    /// [`Document::build`] with the blocks of only the turns `shown` keeps
    /// (by 1-based number), for a printout of some turns (`render --turn`):
    /// the configuration and its warnings still come from every turn, and
    /// the blocks kept are the ones [`Document::build`] makes of them.
    #[cfg(feature = "cli")]
    pub fn build_turns(
        conv: &Conversation,
        options: &DocOptions,
        shown: &dyn Fn(usize) -> bool,
    ) -> Document {
        build::run(conv, options, Document::default(), 0, Some(shown))
    }

    /// The blocks [`Document::build`] makes of `conv`, a turn at a time
    /// ([`TurnWalk::next`]): a reader that lays each turn out and lets it
    /// go holds one turn's blocks, never the document (the export).
    #[cfg(feature = "cli")]
    pub fn turn_by_turn<'o>(conv: &Conversation, options: &'o DocOptions) -> TurnWalk<'o> {
        TurnWalk::new(conv, options)
    }

    /// Brings the document up to date after events were appended to its
    /// conversation, keeping the blocks of the turns that cannot have
    /// changed: the first `untouched` turns (as [`Conversation::extend`]
    /// counts them), except the last turn the document had, whose blocks
    /// depend on whether a turn follows it. `options` may differ from the
    /// ones the document was built with only in `finished`. The result is
    /// what [`Document::build`] makes; returns how many blocks were kept.
    /// The raw view of a stream's lines is kept likewise, up to the last
    /// line of those turns, and goes on from the next line: a flood shown
    /// raw costs its new lines, not the whole stream, per update.
    #[cfg(any(test, feature = "internals"))]
    pub fn rebuild(
        &mut self,
        conv: &Conversation,
        options: &DocOptions,
        untouched: usize,
    ) -> usize {
        self.rebuild_after(conv, options, untouched, 0)
    }

    /// [`Document::rebuild`] of a document that holds the blocks of only
    /// the turns after the first `earlier` (a conversation opened at its
    /// end whose earlier turns are not decoded yet): the result is what
    /// [`Document::build_turns`] makes of those turns.
    #[cfg(feature = "cli")]
    pub fn rebuild_after(
        &mut self,
        conv: &Conversation,
        options: &DocOptions,
        untouched: usize,
        earlier: usize,
    ) -> usize {
        let skip = untouched.min(self.turns.saturating_sub(1));
        let mut kept = self.blocks.partition_point(|b| b.turn <= skip);
        if options.view == DocView::Raw && !conv.originals.is_empty() {
            kept = self.raw_lines_kept(conv, kept);
        }
        let mut blocks = std::mem::take(&mut self.blocks);
        blocks.truncate(kept);
        let out = Document {
            blocks,
            limits: self.limits,
            ..Document::default()
        };
        let shown = |number: usize| number > earlier;
        let shown: Option<&dyn Fn(usize) -> bool> = (earlier > 0).then_some(&shown);
        *self = build::run(conv, options, out, skip, shown);
        kept
    }

    /// Puts the blocks of turns `turns` (1-based numbers, all before the
    /// turns the document has blocks of) first: what
    /// [`Document::build_turns`] makes of the turns shown now and these.
    /// Returns how many blocks were added. The warnings are the document's
    /// already: they come from every turn's configuration, whichever turns
    /// have blocks.
    #[cfg(feature = "cli")]
    pub fn prepend_turns(
        &mut self,
        conv: &Conversation,
        options: &DocOptions,
        turns: std::ops::RangeInclusive<usize>,
    ) -> usize {
        let earlier = build::run_turns(
            conv,
            options,
            Document {
                limits: self.limits,
                ..Document::default()
            },
            turns,
        );
        let mut blocks = earlier.blocks;
        let added = blocks.len();
        // The fewer blocks are copied into the vector of the others (grown
        // in place): for a moment they are there twice.
        if added >= self.blocks.len() {
            blocks.append(&mut self.blocks);
            self.blocks = blocks;
        } else {
            self.blocks.splice(0..0, blocks);
        }
        added
    }

    /// How many of the first `kept` blocks of the raw view of a stream's
    /// lines stay: up to the last line's block among them (the build goes
    /// on from the next line), none past a line whose turn was not known
    /// yet, and none at all when that line is no longer where it was (the
    /// stream was read again).
    #[cfg(feature = "cli")]
    fn raw_lines_kept(&self, conv: &Conversation, kept: usize) -> usize {
        let kept = kept.min(self.unresolved.unwrap_or(usize::MAX));
        let last_line = self.blocks[..kept]
            .iter()
            .rposition(|block| matches!(block.kind, BlockKind::Original { .. }));
        let Some(at) = last_line else {
            return 0;
        };
        let block = &self.blocks[at];
        let BlockKind::Original { index } = block.kind else {
            return 0;
        };
        let same_line =
            conv.originals.line(index).map(Anchor::Line) == Some(block.key.anchor.clone());
        if same_line { at + 1 } else { 0 }
    }
}

mod build;
mod read;

#[cfg(feature = "cli")]
pub use build::TurnWalk;

#[cfg(feature = "cli")]
pub use read::ended_turns;
pub use read::{audience_label, message_parts, shown_result, speech_text};

#[cfg(test)]
mod tests;
