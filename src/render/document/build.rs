//! Building the document: walking the conversation's turns with the policy in
//! force at each ([`PolicyTimeline`]), and keeping the blocks the view shows,
//! each with the decision the policy took for it. Nothing here resolves
//! styles or merges configurations: the policy decides, the document records.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;
use twox_hash::XxHash3_64;

use super::read::{
    SplitText, final_reply_item, notice_text, response_id, split_text, turn_cancelled, turn_ended,
    turn_has_ended,
};
use super::{
    Anchor, BlockKey, BlockKind, DocBlock, DocOptions, DocView, Document, Piece, SubAgent,
    ToolCard, ToolSpeech,
};
use crate::model::InProgressKind;
use crate::model::message_tools::is_message_tool;
use crate::model::{Conversation, Item, ToolCall, Turn};
use crate::model::{EventKind, facts};
use crate::policy::{
    BlockDisplay, PolicyChange, PolicyTimeline, ReasoningDisplay, ToolStyle, TurnPolicy,
};
use crate::problem::StyleWarning;
use crate::render::duration;
use crate::render::split::{PieceForm, line_pieces, markdown_pieces, with_as_written};

/// The document of `conv` from turn `skip + 1` on, appended to `out` (which
/// holds the blocks of the first `skip` turns), with the blocks of only the
/// turns `shown` keeps (by 1-based number) when it is given.
pub(super) fn run(
    conv: &Conversation,
    options: &DocOptions,
    out: Document,
    skip: usize,
    shown: Option<&dyn Fn(usize) -> bool>,
) -> Document {
    let mut builder = Builder {
        conv,
        options,
        out,
        skip,
        shown,
        last: usize::MAX,
        styles: Vec::new(),
    };
    builder.run();
    builder.out
}

/// The blocks of turns `turns` (1-based numbers) alone: the walk stops
/// after the last of them, so neither the warnings of the turns after it
/// nor the text being written at the end are in the result. Reading the
/// earlier turns of a long conversation a step at a time then costs the
/// turns before the step, not the whole conversation, per step.
#[cfg(feature = "cli")]
pub(super) fn run_turns(
    conv: &Conversation,
    options: &DocOptions,
    out: Document,
    turns: std::ops::RangeInclusive<usize>,
) -> Document {
    let shown = |number: usize| turns.contains(&number);
    let mut builder = Builder {
        conv,
        options,
        out,
        skip: 0,
        shown: Some(&shown),
        last: *turns.end(),
        styles: Vec::new(),
    };
    builder.run();
    builder.out
}

/// The document of a conversation a turn at a time: what [`run`] makes,
/// handed out turn by turn, for a reader that lays each turn out and
/// lets it go (the export, [`super::Document::turn_by_turn`]). It keeps
/// no borrow of the conversation between two turns: the caller may
/// change what earlier turns hold (forget their texts), never what a
/// later turn reads.
#[cfg(feature = "cli")]
pub struct TurnWalk<'o> {
    options: &'o DocOptions,
    timeline: PolicyTimeline<'o>,
    /// The index of the next turn to walk; the conversation's turn count
    /// for the text being written at the end, past it when done.
    next: usize,
    styles: Vec<Arc<ToolStyle>>,
}

#[cfg(feature = "cli")]
impl<'o> TurnWalk<'o> {
    /// A walk of `conv`'s turns with `options`.
    pub(super) fn new(conv: &Conversation, options: &'o DocOptions) -> Self {
        TurnWalk {
            options,
            timeline: PolicyTimeline::detached(conv, &options.overlay),
            next: 0,
            styles: Vec::new(),
        }
    }

    /// The blocks of the next turn of `conv` (the conversation the walk
    /// was made for), or of what is being written after the last turn;
    /// `None` when the walk is done. The raw view of a stream's stored
    /// lines comes whole, as the first step.
    pub fn next(&mut self, conv: &Conversation) -> Option<Vec<DocBlock>> {
        let at = self.next;
        if at > conv.turns.len() {
            return None;
        }
        let mut builder = Builder {
            conv,
            options: self.options,
            out: Document {
                turns: conv.turn_count(),
                ..Document::default()
            },
            skip: 0,
            shown: None,
            last: usize::MAX,
            styles: std::mem::take(&mut self.styles),
        };
        if self.options.view == DocView::Raw && !conv.originals.is_empty() {
            builder.originals();
            self.next = usize::MAX;
        } else if let Some(turn) = conv.turns.get(at) {
            builder.step(&mut self.timeline, turn);
            self.next += 1;
        } else {
            let policy = self.timeline.current().clone();
            builder.in_progress(&policy);
            self.next += 1;
        }
        self.styles = builder.styles;
        Some(builder.out.blocks)
    }
}

struct Builder<'a> {
    conv: &'a Conversation,
    options: &'a DocOptions,
    out: Document,
    /// Turns up to this number already have their blocks in `out`.
    skip: usize,
    /// Which turns get blocks; all when `None`.
    shown: Option<&'a dyn Fn(usize) -> bool>,
    /// The walk stops after this turn (number).
    last: usize,
    /// The tool styles of the cards built so far, each once.
    styles: Vec<Arc<ToolStyle>>,
}

impl Builder<'_> {
    fn run(&mut self) {
        let conv = self.conv;
        self.out.turns = conv.turn_count();
        if self.options.view == DocView::Raw && !conv.originals.is_empty() {
            self.originals();
            return;
        }
        let mut timeline = PolicyTimeline::new(conv, &self.options.overlay);
        self.collect_warnings(timeline.base_change());
        for turn in &conv.turns {
            if turn.number > self.last {
                return;
            }
            self.step(&mut timeline, turn);
        }
        let policy = timeline.current().clone();
        self.in_progress(&policy);
    }

    /// Moves `timeline` to `turn` and adds the turn's blocks when they are
    /// asked for.
    fn step(&mut self, timeline: &mut PolicyTimeline<'_>, turn: &Turn) {
        // The turn is displayed with the configuration at its first event.
        if let Some(change) = timeline.advance(self.conv, turn) {
            self.collect_warnings(change);
        }
        if turn.number > self.skip && self.shown.is_none_or(|shown| shown(turn.number)) {
            let live = !self.options.finished && turn.number == self.conv.turn_count();
            let policy = timeline.current().clone();
            self.turn(turn, &policy, live);
        }
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
                    policy.shows_tool(progress.tool_name.as_deref().unwrap_or_default())
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
            turn: self.conv.turn_count().max(1),
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
        let mut numbers: HashMap<&str, usize> = HashMap::new();
        for turn in &conv.turns {
            for item in &turn.items {
                if let Item::TurnStart(i) = item
                    && let Some(id) = facts::turn_id(&conv.events[*i])
                {
                    numbers.entry(id).or_insert(turn.number);
                }
            }
        }
        // Going on after the blocks kept by a rebuild: from the line after
        // the last one they show, in that line's turn.
        let (from, mut current) = match self.out.blocks.last() {
            Some(DocBlock {
                kind: BlockKind::Original { index },
                turn,
                ..
            }) => (index + 1, *turn),
            _ => (0, 0),
        };
        let originals = &conv.originals;
        for index in from..originals.len() {
            let id = originals.turn_id(index);
            let named = id.and_then(|id| numbers.get(id).copied());
            if id.is_some() && named.is_none() && self.out.unresolved.is_none() {
                self.out.unresolved = Some(self.out.blocks.len());
            }
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
                    anchor: Anchor::Line(originals.line(index).unwrap_or_default()),
                    part: 0,
                    piece: 0,
                },
                turn: number,
                kind: BlockKind::Original { index },
                piece: None,
            });
        }
    }

    fn collect_warnings(&mut self, change: PolicyChange<'_>) {
        for error in change.warnings {
            if !self.out.warnings.iter().any(|w| w.error == *error) {
                self.out.warnings.push(StyleWarning {
                    delta: change.delta,
                    error: error.clone(),
                });
            }
        }
    }

    fn key(&self, event: usize, part: u16) -> BlockKey {
        let anchor = match &self.conv.events[event].event_id {
            Some(id) => Anchor::Id(XxHash3_64::oneshot(id.as_bytes())),
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
        let limits = &self.out.limits;
        let pieces = match text {
            Some(SplitText::Markdown(text)) => {
                with_as_written(&text, markdown_pieces(&text, limits), limits)
            }
            Some(SplitText::Lines(text)) => line_pieces(text, limits)
                .into_iter()
                .map(|range| (range, PieceForm::Laid))
                .collect(),
            None => Vec::new(),
        };
        if pieces.len() < 2 {
            self.out.blocks.push(block);
            return;
        }
        let last = pieces.len() - 1;
        for (index, (range, form)) in pieces.into_iter().enumerate() {
            let mut piece = block.clone();
            piece.key.piece = u32::try_from(index).unwrap_or(u32::MAX);
            piece.piece = Some(Box::new(Piece {
                index,
                last: index == last,
                range,
                form,
            }));
            self.out.blocks.push(piece);
        }
    }

    /// The rule that opens `turn`, with its timestamp and facts.
    fn turn_rule(&mut self, turn: &Turn) {
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
            .find_map(|i| conv.events[i].timestamp.as_deref().map(Box::from));
        let info = conv
            .events
            .get(rule_event)
            .and_then(facts::turn_info)
            .map(Box::new);
        // A turn has ended when the format says so, when another follows it,
        // or when no one writes the conversation any more; its duration runs
        // from its first stored time to the last time of its own steps. A turn whose times are all
        // one (a slash command and its output) has no duration to show.
        let ended = turn_ended(conv, turn) || number < conv.turn_count() || self.options.finished;
        let duration = ended
            .then(|| {
                // The turn's own steps: a record kept only for the raw view
                // (the next prompt's queue) or a note (a hook's outcome) is
                // not work of the turn, and may come after the user has been
                // away; the source's own word on when the turn ended wins.
                let stated = info.as_ref().and_then(|i| i.ended_at.as_deref());
                let last = stated.or_else(|| turn
                    .events
                    .clone()
                    .rev()
                    .filter(|&i| is_step(&conv.events[i]))
                    .find_map(|i| conv.events[i].timestamp.as_deref()))?;
                duration::between(timestamp.as_deref()?, last)
            })
            .flatten()
            .filter(|&ms| ms > 0);
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

    fn turn(&mut self, turn: &Turn, policy: &TurnPolicy, live: bool) {
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
            if view != DocView::Raw && replaced(conv, item) {
                continue;
            }
            match item {
                Item::TurnStart(_) => {}
                Item::UserMessage(i) => {
                    self.push(number, *i, 0, BlockKind::UserMessage { event: *i })
                }
                Item::Speech(events)
                    if view != DocView::Raw
                        && events.clone().all(|i| facts::superseded(&conv.events[i])) => {}
                Item::Speech(events) => {
                    let is_final = final_reply == Some(events.start);
                    self.push(
                        number,
                        events.start,
                        0,
                        BlockKind::AssistantMessage {
                            events: events.clone().collect(),
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
                        events.start,
                        0,
                        BlockKind::Reasoning {
                            events: events.clone().collect(),
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
                                note: false,
                            },
                        );
                    }
                }
                Item::Inquiry(pair) => {
                    if view != DocView::User {
                        self.push(
                            number,
                            pair.request,
                            0,
                            BlockKind::Inquiry((**pair).clone()),
                        );
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
                    } else if let Some((text, note)) = notice_text(&conv.events[*i]) {
                        let text = text.to_string();
                        self.push(number, *i, 0, BlockKind::Notice { text, note });
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
                    note: false,
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
        if view != DocView::Raw && facts::superseded(&conv.events[call.request]) {
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
            facts::attempts(&conv.events[call.request]).max(response.map(facts::attempts).unwrap_or(1));

        if view == DocView::Raw {
            let results = (0..blocks.len()).map(|b| (b, BlockDisplay::Full)).collect();
            self.push_card(turn, call, style.clone(), results, live, true);
            return 0;
        }
        if view == DocView::Terminal && !policy.shows_tool(name) {
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
                BlockKind::ToolSpeech(Box::new(ToolSpeech {
                    tool: name.clone(),
                    response: call.response,
                    request: call.request,
                    block: *b,
                    attempts,
                    live,
                })),
            );
        }
        if pending_speech && speech.is_empty() {
            self.push(
                turn,
                call.request,
                1,
                BlockKind::ToolSpeech(Box::new(ToolSpeech {
                    tool: name.clone(),
                    response: None,
                    request: call.request,
                    block: 0,
                    attempts,
                    live,
                })),
            );
            return 1;
        }
        speech.len()
    }

    /// `style`, shared with the cards built before that have it: a
    /// conversation's tools have a handful of styles between them.
    fn shared(&mut self, style: ToolStyle) -> Arc<ToolStyle> {
        /// The most styles looked through (a configuration giving each of
        /// thousands of tools a style of its own costs no more than this).
        const KEPT: usize = 32;
        if let Some(kept) = self.styles.iter().find(|kept| ***kept == style) {
            return Arc::clone(kept);
        }
        let style = Arc::new(style);
        if self.styles.len() < KEPT {
            self.styles.push(Arc::clone(&style));
        }
        style
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
        let task = facts::task(&self.conv.events[call.request])
            .or_else(|| call.response.and_then(|r| facts::task(&self.conv.events[r])))
            .map(Box::new);
        let subagent = match &self.conv.events[call.request].kind {
            EventKind::ToolCallRequest { id, .. } => self.conv.subagents.get(id).map(|sub| {
                Box::new(SubAgent {
                    call: id.clone(),
                    document: Document::build_with(sub, self.options, self.out.limits),
                })
            }),
            _ => None,
        };
        let aborted = call.response.is_none()
            && self
                .conv
                .turns
                .get(turn.wrapping_sub(1))
                .is_some_and(|t| turn_cancelled(self.conv, t));
        let style = self.shared(style);
        self.push(
            turn,
            call.request,
            0,
            BlockKind::ToolCard(Box::new(ToolCard {
                call: call.clone(),
                style,
                results: results.into_boxed_slice(),
                live,
                aborted,
                task,
                label_audience,
                subagent,
            })),
        );
    }
}

/// Whether `item` was replaced or taken back by the format (every event
/// of it superseded: a Gemini message written again or rewound): shown in
/// the raw view only. Speech and tool calls say it themselves.
fn replaced(conv: &Conversation, item: &Item) -> bool {
    let superseded = |i: &usize| facts::superseded(&conv.events[*i]);
    match item {
        Item::UserMessage(i) | Item::Data(i) | Item::OrphanResponse(i) | Item::Unknown(i) => {
            superseded(i)
        }
        Item::Reasoning(events) => events.clone().all(|i| superseded(&i)),
        _ => false,
    }
}

/// Whether `event` is a step of its turn, for how long the turn took: not a
/// configuration change, a record kept only for the raw view, or a note.
fn is_step(event: &crate::model::Event) -> bool {
    match event.kind {
        EventKind::ConfigDelta { .. } => false,
        EventKind::Unknown(_) => notice_text(event).is_some_and(|(_, note)| !note),
        _ => true,
    }
}
