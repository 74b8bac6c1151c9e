//! The document: a conversation turned into displayable blocks by the policy.
//!
//! Building a document is cheap: a block records *what* to show (event
//! indices and the decisions of the display policy), not how it looks. Lines
//! are made per block and width by [`super::layout`], lazily, so the TUI lays
//! out only what is visible and `overhear render` streams turn by turn. The
//! same document feeds both, so the screen and a snapshot cannot disagree.

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;

use serde_json::Value;

use super::duration;
use super::result::{Presentation, classify_result};
use super::split::{SplitLimits, line_pieces, markdown_pieces};
use crate::format::eve::InProgressKind;
use crate::format::{Audience, ChatResponse, Content, Event, EventKind, ext};
use crate::model::{Conversation, InquiryPair, Item, ToolCall};
use crate::policy::{
    BlockDisplay, Overlay, ReasoningDisplay, StyleError, ToolStyle, TurnPolicy, merge_config,
};
use crate::text::sanitize::is_clean;

/// Which rendering of the conversation to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
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
    pub fn next(self) -> Self {
        match self {
            DocView::Terminal => DocView::User,
            DocView::User => DocView::Raw,
            DocView::Raw => DocView::Terminal,
        }
    }

    /// The view's name as shown in the status bar.
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
    pub piece: usize,
}

/// How an event is identified.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Anchor {
    /// RFD 097 `event_id`.
    Id(String),
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
    /// that are laid out one at a time; `None` for a whole block.
    pub piece: Option<Piece>,
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
}

impl Piece {
    /// Whether the piece carries the block's head.
    pub fn is_first(&self) -> bool {
        self.index == 0
    }
}

/// What a block shows; indices point into the conversation's events.
#[derive(Debug, Clone)]
pub enum BlockKind {
    /// The rule that opens a turn.
    TurnRule {
        /// 1-based turn number.
        number: usize,
        /// The turn's first timestamp.
        timestamp: Option<String>,
        /// Model, tokens, cost and outcome, when the format records them
        /// (boxed: every block is as large as the largest kind).
        info: Option<Box<ext::TurnInfo>>,
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
    /// A user-addressed tool block rendered as assistant speech (`chat`).
    ToolSpeech(ToolSpeech),
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

/// Whether the format records that `turn` ended (eve's `turn.completed`,
/// `turn.failed`, `turn.cancelled`).
fn turn_ended(conv: &Conversation, turn: &crate::model::Turn) -> bool {
    turn.items.iter().any(|item| {
        matches!(item, Item::TurnStart(i)
            if ext::turn_info(&conv.events[*i]).is_some_and(|t| t.ended.is_some()))
    })
}

/// How many turns of `conv` have ended: every turn but the last, and the last
/// too when the format says it ended or `finished` (no one writes any more).
pub fn ended_turns(conv: &Conversation, finished: bool) -> usize {
    let n = conv.turns.len();
    match conv.turns.last() {
        Some(last) if finished || turn_ended(conv, last) => n,
        _ => n.saturating_sub(1),
    }
}

/// What a reader looks for first in a long run (the viewer's jump keys).
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
    pub fn is(&self, landmark: Landmark, conv: &Conversation) -> bool {
        let failed = |response: Option<usize>| {
            response.is_some_and(|r| {
                let event = &conv.events[r];
                matches!(
                    event.kind,
                    EventKind::ToolCallResponse { is_error: true, .. }
                ) && ext::outcome(event) != Some("rejected")
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
    /// The tool's resolved style.
    pub style: ToolStyle,
    /// Per result block: its index and how to show it (speech blocks
    /// excluded). Blocks the policy hides come last, as `Hidden`: the card
    /// counts their lines, and the viewer shows them on request.
    pub results: Vec<(usize, BlockDisplay)>,
    /// Whether the call may still be running (the conversation is live).
    pub live: bool,
    /// The background task's status, when the format records one.
    pub task: Option<ext::TaskStatus>,
    /// Whether every result block is labelled with its audience (raw view).
    pub label_audience: bool,
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
}

/// A style value stored in the conversation that was rejected (the field keeps
/// the value of the layer below), and where it is stored, so that the message
/// can name the file and the place: the document does not know file names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StyleWarning {
    /// `None`: the base configuration. `Some(i)`: it first appears once the
    /// `config_delta` at event `i` (among the conversation's events) is merged.
    pub delta: Option<usize>,
    /// The key path, the value and what is wrong.
    pub error: StyleError,
}

impl Document {
    /// Builds the document of `conv` (cheap: no layout happens here).
    pub fn build(conv: &Conversation, options: &DocOptions) -> Document {
        Document::build_with(conv, options, SplitLimits::default())
    }

    /// [`Document::build`] cutting huge blocks into pieces by `limits`
    /// (tests cut small texts to check that pieces lay out like the whole).
    pub fn build_with(conv: &Conversation, options: &DocOptions, limits: SplitLimits) -> Document {
        let mut builder = Builder {
            conv,
            options,
            out: Document {
                limits,
                ..Document::default()
            },
            skip: 0,
        };
        builder.run();
        builder.out
    }

    /// Brings the document up to date after events were appended to its
    /// conversation, keeping the blocks of the turns that cannot have
    /// changed: the first `untouched` turns (as [`Conversation::extend`]
    /// counts them), except the last turn the document had, whose blocks
    /// depend on whether a turn follows it. `options` may differ from the
    /// ones the document was built with only in `finished`. The result is
    /// what [`Document::build`] makes; returns how many blocks were kept.
    pub fn rebuild(
        &mut self,
        conv: &Conversation,
        options: &DocOptions,
        untouched: usize,
    ) -> usize {
        // The raw view of a stream's stored lines is not made turn by turn.
        let by_lines = options.view == DocView::Raw && !conv.originals.is_empty();
        let skip = if by_lines {
            0
        } else {
            untouched.min(self.turns.saturating_sub(1))
        };
        let kept = self.blocks.partition_point(|b| b.turn <= skip);
        let mut blocks = std::mem::take(&mut self.blocks);
        blocks.truncate(kept);
        let mut builder = Builder {
            conv,
            options,
            out: Document {
                blocks,
                limits: self.limits,
                ..Document::default()
            },
            skip,
        };
        builder.run();
        *self = builder.out;
        kept
    }
}

struct Builder<'a> {
    conv: &'a Conversation,
    options: &'a DocOptions,
    out: Document,
    /// Turns up to this number already have their blocks in `out`.
    skip: usize,
}

/// The configuration in force, re-resolved only when a delta changes it.
struct ConfigTrack {
    config: Value,
    policy: Rc<TurnPolicy>,
    dirty: bool,
}

impl Builder<'_> {
    fn run(&mut self) {
        let conv = self.conv;
        self.out.turns = conv.turns.len();
        if self.options.view == DocView::Raw && !conv.originals.is_empty() {
            self.originals();
            return;
        }
        let base = conv
            .base_config
            .clone()
            .unwrap_or(Value::Object(Default::default()));
        let mut track = ConfigTrack {
            policy: Rc::new(TurnPolicy::new(&base, &self.options.overlay)),
            config: base,
            dirty: false,
        };
        self.collect_warnings(&track.policy, None);
        let mut next_delta = 0;
        let mut last_delta = None;
        let last_turn = conv.turns.len();
        for turn in &conv.turns {
            // The turn is displayed with the configuration at its first event.
            let first = turn
                .events
                .clone()
                .find(|&i| !matches!(conv.events[i].kind, EventKind::ConfigDelta { .. }))
                .unwrap_or(turn.events.end);
            while next_delta < first {
                if let EventKind::ConfigDelta { delta } = &conv.events[next_delta].kind {
                    merge_config(&mut track.config, delta);
                    track.dirty = true;
                    last_delta = Some(next_delta);
                }
                next_delta += 1;
            }
            if track.dirty {
                track.policy = Rc::new(TurnPolicy::new(&track.config, &self.options.overlay));
                track.dirty = false;
                self.collect_warnings(&track.policy, last_delta);
            }
            if turn.number > self.skip {
                let live = !self.options.finished && turn.number == last_turn;
                self.turn(turn, &track.policy, live);
            }
        }
        self.in_progress(&track.policy);
    }

    /// The text being written, at the end, where the view shows its kind.
    fn in_progress(&mut self, policy: &TurnPolicy) {
        let Some(progress) = &self.conv.in_progress else {
            return;
        };
        let view = self.options.view;
        let shown = match progress.kind {
            InProgressKind::Message => true,
            InProgressKind::Reasoning => match view {
                DocView::User => false,
                DocView::Terminal => !matches!(policy.reasoning(), ReasoningDisplay::Hidden),
                DocView::Raw => true,
            },
            InProgressKind::ToolInput | InProgressKind::ToolOutput => match view {
                DocView::User => false,
                DocView::Terminal => {
                    let name = progress.tool_name.as_deref().unwrap_or_default();
                    policy.tool_calls_shown() && !policy.tool_style(name).hidden
                }
                DocView::Raw => true,
            },
        };
        if !shown {
            return;
        }
        self.out.blocks.push(DocBlock {
            key: BlockKey {
                anchor: Anchor::Streaming,
                part: 0,
                piece: 0,
            },
            turn: self.conv.turns.len().max(1),
            kind: BlockKind::InProgress {
                kind: progress.kind,
                live: !self.options.finished,
            },
            piece: None,
        });
    }

    /// The raw view of a stream whose stored lines are not the events: every
    /// line as read, under the rule of the turn it belongs to.
    fn originals(&mut self) {
        let conv = self.conv;
        let mut numbers: HashMap<String, usize> = HashMap::new();
        for turn in &conv.turns {
            for item in &turn.items {
                if let Item::TurnStart(i) = item
                    && let Some(id) = ext::turn_info(&conv.events[*i]).and_then(|t| t.turn_id)
                {
                    numbers.entry(id).or_insert(turn.number);
                }
            }
        }
        let mut current = 0;
        for (index, original) in conv.originals.iter().enumerate() {
            let named = original.turn_id().and_then(|id| numbers.get(id).copied());
            // Turns only move forward: a late line of an earlier turn (a task
            // settling) stays where it was written.
            let number = named.unwrap_or(current).max(current).max(1);
            while current < number.min(conv.turns.len()) {
                current += 1;
                self.turn_rule(&conv.turns[current - 1]);
            }
            current = current.max(number);
            self.out.blocks.push(DocBlock {
                key: BlockKey {
                    anchor: Anchor::Line(original.line),
                    part: 0,
                    piece: 0,
                },
                turn: number,
                kind: BlockKind::Original { index },
                piece: None,
            });
        }
    }

    fn collect_warnings(&mut self, policy: &TurnPolicy, delta: Option<usize>) {
        for error in policy.warnings() {
            if !self.out.warnings.iter().any(|w| w.error == *error) {
                self.out.warnings.push(StyleWarning {
                    delta,
                    error: error.clone(),
                });
            }
        }
    }

    fn key(&self, event: usize, part: u16) -> BlockKey {
        let anchor = match &self.conv.events[event].event_id {
            Some(id) => Anchor::Id(id.clone()),
            None => Anchor::Index(event),
        };
        BlockKey {
            anchor,
            part,
            piece: 0,
        }
    }

    fn push(&mut self, turn: usize, event: usize, part: u16, kind: BlockKind) {
        let key = self.key(event, part);
        let block = DocBlock {
            key,
            turn,
            kind,
            piece: None,
        };
        let text = split_text(&block, self.conv, self.out.limits.above);
        let pieces = match text {
            Some(SplitText::Markdown(text)) => markdown_pieces(&text, &self.out.limits),
            Some(SplitText::Lines(text)) => line_pieces(text, &self.out.limits),
            None => Vec::new(),
        };
        if pieces.len() < 2 {
            self.out.blocks.push(block);
            return;
        }
        let last = pieces.len() - 1;
        for (index, range) in pieces.into_iter().enumerate() {
            let mut piece = block.clone();
            piece.key.piece = index;
            piece.piece = Some(Piece {
                index,
                last: index == last,
                range,
            });
            self.out.blocks.push(piece);
        }
    }

    /// The rule that opens `turn`, with its timestamp and facts.
    fn turn_rule(&mut self, turn: &crate::model::Turn) {
        let conv = self.conv;
        let number = turn.number;
        let rule_event = turn
            .items
            .iter()
            .find_map(|item| match item {
                Item::TurnStart(i) => Some(*i),
                _ => None,
            })
            .unwrap_or(turn.events.start);
        if turn.events.is_empty() {
            return;
        }
        let timestamp = turn
            .events
            .clone()
            .filter(|&i| !matches!(conv.events[i].kind, EventKind::ConfigDelta { .. }))
            .find_map(|i| conv.events[i].timestamp.clone());
        let info = conv
            .events
            .get(rule_event)
            .and_then(ext::turn_info)
            .map(Box::new);
        // A turn has ended when the format says so, when another follows it,
        // or when no one writes the conversation any more; its duration runs
        // from its first stored time to its last.
        let ended = turn_ended(conv, turn) || number < conv.turns.len() || self.options.finished;
        let duration = ended
            .then(|| {
                let last = turn
                    .events
                    .clone()
                    .rev()
                    .find_map(|i| conv.events[i].timestamp.as_deref())?;
                duration::between(timestamp.as_deref()?, last)
            })
            .flatten();
        self.push(
            number,
            rule_event,
            u16::MAX,
            BlockKind::TurnRule {
                number,
                timestamp,
                info,
                duration,
            },
        );
    }

    fn turn(&mut self, turn: &crate::model::Turn, policy: &TurnPolicy, live: bool) {
        let conv = self.conv;
        let view = self.options.view;
        let number = turn.number;
        if turn.events.is_empty() {
            return;
        }
        // A turn the format says has ended gets no more replies.
        let live = live && !turn_ended(conv, turn);
        self.turn_rule(turn);

        let final_reply = final_reply_item(conv, &turn.items);
        let mut updates = 0usize;
        for item in &turn.items {
            match item {
                Item::TurnStart(_) => {}
                Item::UserMessage(i) => {
                    self.push(number, *i, 0, BlockKind::UserMessage { event: *i })
                }
                Item::Speech(events)
                    if view != DocView::Raw
                        && events.iter().all(|&i| ext::superseded(&conv.events[i])) => {}
                Item::Speech(events) => {
                    let is_final = final_reply == Some(events[0]);
                    self.push(
                        number,
                        events[0],
                        0,
                        BlockKind::AssistantMessage {
                            events: events.clone(),
                            final_reply: is_final,
                        },
                    );
                }
                Item::Reasoning(events) => {
                    let display = policy.reasoning();
                    let hidden = matches!(display, ReasoningDisplay::Hidden);
                    if view == DocView::User || (view == DocView::Terminal && hidden) {
                        continue;
                    }
                    let display = if view == DocView::Raw {
                        ReasoningDisplay::Full
                    } else {
                        display
                    };
                    self.push(
                        number,
                        events[0],
                        0,
                        BlockKind::Reasoning {
                            events: events.clone(),
                            display,
                        },
                    );
                }
                Item::Data(i) => self.push(number, *i, 0, BlockKind::Data { event: *i }),
                Item::ToolCall(call) => updates += self.tool_call(number, call, policy, live),
                Item::OrphanResponse(i) => {
                    if view != DocView::User {
                        self.push(
                            number,
                            *i,
                            0,
                            BlockKind::Notice {
                                text: format!(
                                    "tool result with no matching call (id {})",
                                    response_id(&conv.events[*i])
                                ),
                            },
                        );
                    }
                }
                Item::Inquiry(pair) => {
                    if view != DocView::User {
                        self.push(number, pair.request, 0, BlockKind::Inquiry(pair.clone()));
                    }
                }
                Item::ConfigDelta(i) => {
                    if view == DocView::Raw {
                        self.push(number, *i, 0, BlockKind::ConfigDelta { event: *i });
                    }
                }
                Item::Compaction(i) | Item::Unknown(i) => {
                    if view == DocView::Raw {
                        self.push(number, *i, 0, BlockKind::Unknown { event: *i });
                    } else if let Some(text) = notice_text(&conv.events[*i]) {
                        let text = text.to_string();
                        self.push(number, *i, 0, BlockKind::Notice { text });
                    }
                }
            }
        }
        let ended = !live || turn_has_ended(conv, turn);
        if updates > 0 && final_reply.is_none() && ended {
            let last = turn.events.end.saturating_sub(1);
            self.push(
                number,
                last,
                u16::MAX - 1,
                BlockKind::Notice {
                    text: "no final reply — the answer may be lost".into(),
                },
            );
        }
        if updates == 0 {
            self.unmark_final_reply(number);
        }
    }

    /// The final reply is labelled only in turns that sent updates, where it
    /// must not be confused with them.
    fn unmark_final_reply(&mut self, turn: usize) {
        for block in self
            .out
            .blocks
            .iter_mut()
            .rev()
            .take_while(|b| b.turn == turn)
        {
            if let BlockKind::AssistantMessage { final_reply, .. } = &mut block.kind {
                *final_reply = false;
            }
        }
    }

    /// Pushes the blocks of one tool call; returns how many updates it sent.
    fn tool_call(
        &mut self,
        turn: usize,
        call: &ToolCall,
        policy: &TurnPolicy,
        live: bool,
    ) -> usize {
        let conv = self.conv;
        let view = self.options.view;
        let EventKind::ToolCallRequest {
            name, arguments, ..
        } = &conv.events[call.request].kind
        else {
            return 0;
        };
        let style = policy.tool_style(name);
        if view != DocView::Raw && ext::superseded(&conv.events[call.request]) {
            return 0;
        }
        let response = call.response.map(|i| &conv.events[i]);
        let (blocks, is_error) = match response.map(|e| &e.kind) {
            Some(EventKind::ToolCallResponse {
                content, is_error, ..
            }) => (content.views(), *is_error),
            _ => (Vec::new(), false),
        };
        let attempts =
            ext::attempts(&conv.events[call.request]).max(response.map(ext::attempts).unwrap_or(1));

        if view == DocView::Raw {
            let results = (0..blocks.len()).map(|b| (b, BlockDisplay::Full)).collect();
            self.push_card(turn, call, style.clone(), results, live, true);
            return 0;
        }
        if view == DocView::Terminal && (style.hidden || !policy.tool_calls_shown()) {
            return 0;
        }

        let mut speech = Vec::new();
        let mut results = Vec::new();
        let mut hidden = Vec::new();
        for (b, block) in blocks.iter().enumerate() {
            let audience = block.audience;
            let display = style.block_display(audience, is_error);
            match (view, display) {
                (_, BlockDisplay::Speech) => speech.push(b),
                (DocView::User, _) if !audience.includes_user() => {}
                (DocView::User, BlockDisplay::Hidden) => {}
                // Kept so that the card can say what the policy hides (and
                // the viewer can show it on Enter); never laid out as is.
                (_, BlockDisplay::Hidden) => hidden.push((b, BlockDisplay::Hidden)),
                (_, display) => results.push((b, display)),
            }
        }
        // A message tool still running has its text only in the arguments.
        let pending_speech = response.is_none()
            && is_message_tool(name)
            && arguments.get("message").and_then(Value::as_str).is_some();

        let show_card = match view {
            DocView::User => !results.is_empty(),
            _ => style.header || !results.is_empty() || (response.is_none() && !pending_speech),
        };
        if show_card {
            let live_card = live && response.is_none();
            results.extend(hidden);
            self.push_card(turn, call, style.clone(), results, live_card, false);
        }
        for (part, b) in speech.iter().enumerate() {
            self.push(
                turn,
                call.request,
                part as u16 + 1,
                BlockKind::ToolSpeech(ToolSpeech {
                    tool: name.clone(),
                    response: call.response,
                    request: call.request,
                    block: *b,
                    attempts,
                    live,
                }),
            );
        }
        if pending_speech && speech.is_empty() {
            self.push(
                turn,
                call.request,
                1,
                BlockKind::ToolSpeech(ToolSpeech {
                    tool: name.clone(),
                    response: None,
                    request: call.request,
                    block: 0,
                    attempts,
                    live,
                }),
            );
            return 1;
        }
        speech.len()
    }

    fn push_card(
        &mut self,
        turn: usize,
        call: &ToolCall,
        style: ToolStyle,
        results: Vec<(usize, BlockDisplay)>,
        live: bool,
        label_audience: bool,
    ) {
        let task = ext::task(&self.conv.events[call.request])
            .or_else(|| call.response.and_then(|r| ext::task(&self.conv.events[r])));
        self.push(
            turn,
            call.request,
            0,
            BlockKind::ToolCard(Box::new(ToolCard {
                call: call.clone(),
                style,
                results,
                live,
                task,
                label_audience,
            })),
        );
    }
}

/// The text a block may be cut in, and how.
enum SplitText<'c> {
    /// Markdown speech, cut between top-level blocks.
    Markdown(Cow<'c, str>),
    /// A plain result, cut between lines.
    Lines(&'c str),
}

/// The text of `block` that pieces would cut, when it is longer than
/// `above` bytes: a message's, or the result of a card that shows one plain,
/// clean result in full.
fn split_text<'c>(block: &DocBlock, conv: &'c Conversation, above: usize) -> Option<SplitText<'c>> {
    match &block.kind {
        BlockKind::UserMessage { event } => match &conv.events[*event].kind {
            EventKind::ChatRequest { content, .. } if content.len() > above => {
                Some(SplitText::Markdown(Cow::Borrowed(content)))
            }
            _ => None,
        },
        BlockKind::AssistantMessage { events, .. } => {
            let parts = message_parts(conv, events);
            if parts.iter().map(|p| p.len()).sum::<usize>() <= above {
                return None;
            }
            let text = match parts.as_slice() {
                [one] => Cow::Borrowed(*one),
                many => Cow::Owned(many.concat()),
            };
            Some(SplitText::Markdown(text))
        }
        BlockKind::ToolCard(card) => {
            let text = shown_result(card, conv).filter(|t| t.len() > above)?;
            // Cleaned or classified as a whole, the pieces could differ.
            let plain = is_clean(text) && classify_result(text, None).0 == Presentation::Plain;
            plain.then_some(SplitText::Lines(text))
        }
        _ => None,
    }
}

/// The text of a card's only result when it is shown in full, unlabelled
/// and without a mime type: the one result pieces of a card can cut.
pub fn shown_result<'c>(card: &ToolCard, conv: &'c Conversation) -> Option<&'c str> {
    let mut shown = card
        .results
        .iter()
        .filter(|(_, d)| !matches!(d, BlockDisplay::Hidden));
    let (Some((b, BlockDisplay::Full)), None) = (shown.next(), shown.next()) else {
        return None;
    };
    if card.label_audience {
        return None;
    }
    match &conv.events[card.call.response?].kind {
        EventKind::ToolCallResponse { content, .. } => {
            let view = content.views().into_iter().nth(*b)?;
            view.mime_type.is_none().then_some(view.text?)
        }
        _ => None,
    }
}

/// The texts of an assistant message's events, in order (empty: silent).
pub fn message_parts<'c>(conv: &'c Conversation, events: &[usize]) -> Vec<&'c str> {
    events
        .iter()
        .filter_map(|&e| match &conv.events[e].kind {
            EventKind::ChatResponse(ChatResponse::Message(Some(part))) => Some(part.as_str()),
            _ => None,
        })
        .collect()
}

/// Whether `name` is one of the message tools whose text is speech.
pub fn is_message_tool(name: &str) -> bool {
    matches!(name, "tell_user" | "send_channel_update")
}

/// The first event of the turn's final reply: the format's own marker when it
/// has one (eve), else the last assistant speech with no tool call after it.
fn final_reply_item(conv: &Conversation, items: &[Item]) -> Option<usize> {
    let speeches = items.iter().filter_map(|item| match item {
        Item::Speech(events) => Some(events),
        _ => None,
    });
    // A format that marks final replies (eve) is taken at its word.
    let marks_final = items.iter().any(
        |item| matches!(item, Item::TurnStart(i) if ext::turn_info(&conv.events[*i]).is_some()),
    );
    if marks_final {
        return speeches
            .clone()
            .find(|events| events.iter().any(|&i| ext::final_reply(&conv.events[i])))
            .map(|events| events[0]);
    }
    let last_call = items.iter().rposition(|i| matches!(i, Item::ToolCall(_)));
    let last_speech = items.iter().rposition(
        |i| matches!(i, Item::Speech(events) if events.iter().any(|&e| has_text(&conv.events[e]))),
    )?;
    match last_call {
        Some(call) if call > last_speech => None,
        _ => match &items[last_speech] {
            Item::Speech(events) => Some(events[0]),
            _ => None,
        },
    }
}

/// The eve turn id a stored line names: a gen A event's `data.turnId`, or
/// the first one among a v27 line's facts (or its progress record), in
/// `scope` or `data`.
fn has_text(event: &Event) -> bool {
    matches!(&event.kind, EventKind::ChatResponse(ChatResponse::Message(Some(t))) if !t.trim().is_empty())
}

/// Whether the format says this turn is over (eve's `turn.completed` etc.) or
/// a later turn exists.
fn turn_has_ended(conv: &Conversation, turn: &crate::model::Turn) -> bool {
    turn.number < conv.turns.len()
        || turn
            .items
            .iter()
            .find_map(|item| match item {
                Item::TurnStart(i) => ext::turn_info(&conv.events[*i]),
                _ => None,
            })
            .is_some_and(|info| info.ended.is_some())
}

/// The text of a source's notice (an interruption, an API error, a
/// compaction: see `format::transcript::NOTICE`), shown as a one-line notice.
fn notice_text(event: &Event) -> Option<&str> {
    match &event.kind {
        EventKind::Unknown(value) if event.type_name() == crate::format::transcript::NOTICE => {
            value.get("text").and_then(serde_json::Value::as_str)
        }
        _ => None,
    }
}

fn response_id(event: &Event) -> &str {
    match &event.kind {
        EventKind::ToolCallResponse { id, .. } => id,
        _ => "",
    }
}

/// The audience label used in the raw view.
pub fn audience_label(audience: Audience) -> &'static str {
    match audience {
        Audience::User => "user",
        Audience::Assistant => "assistant",
        Audience::Both => "user, assistant",
    }
}

/// The text of a tool-speech block, from its response or (pending) the arguments.
pub fn speech_text<'c>(
    conv: &'c Conversation,
    speech: &ToolSpeech,
) -> Option<std::borrow::Cow<'c, str>> {
    match speech.response.map(|r| &conv.events[r].kind) {
        Some(EventKind::ToolCallResponse { content, .. }) => match content {
            Content::Text(text) => Some(std::borrow::Cow::Borrowed(text.as_str())),
            Content::Blocks(blocks) => blocks
                .get(speech.block)
                .and_then(|b| b.display_text())
                .map(std::borrow::Cow::Borrowed),
        },
        _ => match &conv.events[speech.request].kind {
            EventKind::ToolCallRequest { arguments, .. } => arguments
                .get("message")
                .and_then(Value::as_str)
                .map(std::borrow::Cow::Borrowed),
            _ => None,
        },
    }
}

#[cfg(test)]
#[path = "document_tests.rs"]
mod tests;
