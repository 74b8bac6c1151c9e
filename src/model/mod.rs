//! The conversation: turns, request/response pairing, joined speech and the
//! three views.
//!
//! Everything here is derived from the event list alone, by JP's own rules
//! (jp-format §1.10, §1.11): no display configuration is involved.

pub(crate) mod bounded_value;
pub mod call_view;
mod event;
pub mod facts;
mod in_progress;
mod json_text;
pub mod message_tools;
mod original;
mod originals;
mod pairing;
pub mod timestamp;
pub mod views;

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;

use serde_json::Value;

use self::pairing::{Pairing, Side, Touched};

#[cfg(all(test, feature = "cli"))]
pub(crate) use event::FORGOTTEN;
pub use event::{Audience, Block, ChatResponse, Content, Event, EventKind, Metadata};
pub use in_progress::{InProgress, InProgressKind};
pub use json_text::JsonText;
pub use original::{Original, StreamPiece};
pub use originals::Originals;
pub use views::View;

/// One conversation, read and grouped.
#[derive(Debug, Clone, Default)]
pub struct Conversation {
    /// The decoded events, in stored order.
    pub events: Vec<Event>,
    /// The base configuration (`base_config.json` or a legacy leading delta).
    pub base_config: Option<Value>,
    /// The title from `metadata.json`, if any.
    pub title: Option<String>,
    /// Turns, in order.
    pub turns: Vec<Turn>,
    /// The stored records as read, when the format's records are not the
    /// events themselves (eve's lines, malformed ones included), for the raw
    /// view. Empty when the events are what is stored (JP).
    pub originals: Originals,
    /// Text the agent is writing right now (eve's deltas), not yet an event:
    /// shown live at the end and replaced by the completed event.
    pub in_progress: Option<InProgress>,
    /// The conversations of the sub-agents its tool calls started, by the
    /// call's id (a Claude Code `Task`/`Agent`, a Codex `spawn_agent`): each
    /// read from its own records by the same reader, shown nested under its
    /// call's card, counted on its own (docs/agents.md, "Sub-agents").
    pub subagents: BTreeMap<String, Conversation>,
    /// Tool calls paired with their responses, kept so that
    /// [`Conversation::extend`] pairs only the new events.
    calls: Pairing,
    /// Inquiries paired with their answers, likewise.
    inquiries: Pairing,
    /// How many of the events are paired and grouped into turns.
    grouped: usize,
    /// The turns before this one have no items yet: a conversation read in
    /// outline ([`Conversation::in_outline`]) groups a turn's items when its
    /// events are decoded ([`Conversation::group_items_from`]). 0 for any
    /// other.
    items_from: usize,
    /// How many turns the conversation has that are not held (a
    /// conversation read to print its last turns, whose earlier ones were
    /// folded into their count: [`Conversation::number_turns`]); the turns'
    /// numbers count them. 0 for any other.
    turns_before: usize,
}

/// The stored lines (by index in [`Conversation::originals`]) that the
/// images of `events` are read from ([`facts::images`]).
#[cfg(feature = "cli")]
pub fn image_lines(events: &[Event]) -> std::collections::BTreeSet<usize> {
    events
        .iter()
        .flat_map(|event| facts::images(event).iter().map(|at| at.line))
        .collect()
}

/// A turn: the events from one `turn_start` that opened a turn to the next.
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    /// 1-based number shown to users.
    pub number: usize,
    /// The indices of the events in this turn.
    pub events: Range<usize>,
    /// What the turn holds, in display order.
    pub items: Vec<Item>,
}

/// One displayable unit of a turn; indices point into [`Conversation::events`].
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A `turn_start` (its timestamp dates the turn).
    TurnStart(usize),
    /// What the user said.
    UserMessage(usize),
    /// Adjacent assistant `message`s, joined (providers split text
    /// mid-word): the events' indices, a range since they are adjacent (two
    /// words where a vector takes three, and no allocation).
    Speech(Range<usize>),
    /// Adjacent reasoning, joined (the events' indices).
    Reasoning(Range<usize>),
    /// Structured output.
    Data(usize),
    /// A tool call with its response (none yet: pending) and its inquiries
    /// (boxed: an item is as large as the largest kind, and a followed
    /// stream keeps one item per event).
    ToolCall(Box<ToolCall>),
    /// A response whose request is not in the stream.
    OrphanResponse(usize),
    /// An inquiry not tied to a tool call in this turn (boxed, as a tool
    /// call: rare, and an item is as large as its largest kind).
    Inquiry(Box<InquiryPair>),
    /// A configuration change.
    ConfigDelta(usize),
    /// A compaction overlay.
    Compaction(usize),
    /// An unknown or malformed entry.
    Unknown(usize),
}

/// A tool request and what answered it.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// Index of the `tool_call_request`.
    pub request: usize,
    /// Index of its `tool_call_response`, `None` while pending.
    pub response: Option<usize>,
    /// Inquiries asked during the call (ids `<call id>.<question>`). A
    /// boxed slice, not a vector: few calls have any, and a call's 8 bytes
    /// less make its box 48 bytes instead of 64 (a 100 MB conversation's
    /// 28,663 calls, all grouped when it opens).
    pub inquiries: Box<[InquiryPair]>,
}

/// An inquiry request and its answer.
#[derive(Debug, Clone, PartialEq)]
pub struct InquiryPair {
    /// Index of the `inquiry_request`.
    pub request: usize,
    /// Index of the `inquiry_response`, if answered.
    pub response: Option<usize>,
}

impl Turn {
    /// Every event the turn's items name: its own, and a response or
    /// answer stored in a later turn (a call answered after the turn
    /// ended). What showing the turn reads.
    #[cfg(feature = "cli")]
    pub fn events_named(&self) -> impl Iterator<Item = usize> + '_ {
        self.items.iter().flat_map(|item| -> Vec<usize> {
            let pair = |p: &InquiryPair| [Some(p.request), p.response];
            match item {
                Item::TurnStart(i)
                | Item::UserMessage(i)
                | Item::Data(i)
                | Item::OrphanResponse(i)
                | Item::ConfigDelta(i)
                | Item::Compaction(i)
                | Item::Unknown(i) => vec![*i],
                Item::Speech(events) | Item::Reasoning(events) => events.clone().collect(),
                Item::ToolCall(call) => [Some(call.request), call.response]
                    .into_iter()
                    .chain(call.inquiries.iter().flat_map(pair))
                    .flatten()
                    .collect(),
                Item::Inquiry(inquiry) => pair(inquiry).into_iter().flatten().collect(),
            }
        })
    }
}

/// Every part of a [`Conversation`] whose text a user can be shown, borrowed
/// to be changed in place (redaction). Made by destructuring the whole
/// conversation, so a field added to it does not compile until it is
/// classified here: shown (listed) or not text (named in
/// [`Conversation::shown_parts`]). A place that shows text cannot be
/// forgotten by redaction.
pub struct ShownParts<'a> {
    /// The events.
    pub events: &'a mut [Event],
    /// The base configuration (the configuration view).
    pub base_config: &'a mut Option<Value>,
    /// The title (the Markdown `# title`, the HTML `<title>`, the status bar).
    pub title: &'a mut Option<String>,
    /// The stored lines, for the raw view.
    pub originals: &'a mut Originals,
    /// The text being written right now.
    pub in_progress: &'a mut Option<InProgress>,
    /// The sub-agents' conversations, each shown as a conversation of its own.
    pub subagents: &'a mut BTreeMap<String, Conversation>,
}

impl Conversation {
    /// Groups `events` into turns and items.
    pub fn new(events: Vec<Event>, base_config: Option<Value>, title: Option<String>) -> Self {
        let mut conv = Conversation {
            base_config,
            title,
            ..Conversation::default()
        };
        conv.extend(events);
        conv
    }

    /// [`Conversation::new`] for events read in outline, whose turns get
    /// their items only once their events are decoded
    /// ([`Conversation::group_items_from`]): the viewer opening a large
    /// conversation at its end shows its last turns only, and the items of
    /// the others (a boxed call per tool call) were a tenth of its memory.
    /// The turns, the pairing and the turns appended later are as `new`
    /// makes them.
    #[cfg(feature = "cli")]
    pub fn in_outline(events: Vec<Event>, base_config: Option<Value>, title: Option<String>) -> Self {
        let mut conv = Conversation {
            base_config,
            title,
            items_from: usize::MAX,
            ..Conversation::default()
        };
        conv.extend(events);
        conv.items_from = conv.turns.len();
        conv
    }

    /// Numbers the turns held when turns between them were read but not
    /// kept (`render --turn -1` of a long conversation folds turns before
    /// the ones it prints into their count): `numbers` holds each turn's,
    /// in order, increasing; [`Conversation::turn_count`] is then the last
    /// one. For printing: regrouping numbers the turns it groups again one
    /// after the other.
    #[cfg(feature = "cli")]
    pub fn number_turns(&mut self, numbers: &[usize]) {
        debug_assert_eq!(numbers.len(), self.turns.len());
        debug_assert!(numbers.windows(2).all(|pair| pair[0] < pair[1]));
        for (turn, &number) in self.turns.iter_mut().zip(numbers) {
            turn.number = number;
        }
        let last = numbers.last().copied().unwrap_or(0);
        self.turns_before = last.saturating_sub(self.turns.len());
    }

    /// How many turns the conversation has: the last turn's number, the
    /// turns not held ([`Conversation::number_turns`]) included.
    pub fn turn_count(&self) -> usize {
        self.turns_before + self.turns.len()
    }

    /// Groups the items of the turns from `turn` (0-based) on that have none
    /// yet ([`Conversation::in_outline`]), before anything reads them.
    #[cfg(feature = "cli")]
    pub fn group_items_from(&mut self, turn: usize) {
        for t in turn..self.items_from.min(self.turns.len()) {
            let range = self.turns[t].events.clone();
            self.turns[t].items = items(&self.events, range, &self.calls, &self.inquiries);
        }
        self.items_from = self.items_from.min(turn);
    }

    /// Every part that holds text a user can be shown ([`ShownParts`]).
    /// Changing them keeps the turns as grouped: ids and names are not
    /// in them, and an event's kind must not change.
    pub fn shown_parts(&mut self) -> ShownParts<'_> {
        let Conversation {
            events,
            base_config,
            title,
            turns: _,
            originals,
            in_progress,
            subagents,
            calls: _,
            inquiries: _,
            grouped: _,
            items_from: _,
            turns_before: _,
        } = self;
        ShownParts {
            events,
            base_config,
            title,
            originals,
            in_progress,
            subagents,
        }
    }

    /// Forgets the texts of the stored lines but those an image's bytes are
    /// read from ([`facts::images`]), here and in every sub-agent: all an
    /// export shows of the stored lines (it has no raw view), so that it
    /// neither redacts nor holds the others. The lines' records stay, so an
    /// image still names its line.
    #[cfg(feature = "cli")]
    pub fn keep_only_image_lines(&mut self) {
        let lines = image_lines(&self.events);
        self.originals.keep_texts(|index| lines.contains(&index));
        for child in self.subagents.values_mut() {
            child.keep_only_image_lines();
        }
    }

    /// Appends events read from a growing conversation; returns how many
    /// leading turns are untouched (see [`Conversation::replace_from`]).
    pub fn extend(&mut self, events: Vec<Event>) -> usize {
        self.replace_from(self.events.len(), events)
    }

    /// Replaces the events from index `from` on with `events` (the ones
    /// before stay as they are: an eve stream changed a recent event in
    /// place) and regroups only what that can change: the turns from the one
    /// holding `from`, and an earlier turn whose tool call or inquiry gains
    /// or loses its answer. A followed conversation pays for what changed,
    /// not for its length.
    ///
    /// Returns how many leading turns are untouched: their ranges and items
    /// are exactly what they were (a viewer keeps what it made of them).
    pub fn replace_from(&mut self, from: usize, events: Vec<Event>) -> usize {
        let from = from.min(self.events.len());
        if from == self.events.len() && events.is_empty() && !self.turns.is_empty() {
            return self.turns.len();
        }
        let restart = self.restart_turn(from);
        let mut touched = (Touched::new(), Touched::new());
        self.unpair_from(from, &mut touched);
        self.events.truncate(from);
        if self.events.is_empty() {
            // A first read: the reader's vector is taken as it is, not
            // copied (a 100 MB conversation's events would be held twice).
            self.events = events;
        } else {
            self.events.extend(events);
        }
        self.regroup(from, restart, touched)
    }

    /// Regroups after a reader changed [`Conversation::events`] in place:
    /// events from index `from` on may have changed (never the kind or id of
    /// a tool call or inquiry: a reader updates those in place, it does not
    /// turn one event into another) and events may have been appended since
    /// the last grouping. The events are the reader's and the conversation's
    /// at once (one copy, see `format::StreamReader`). Returns how many
    /// leading turns are untouched, as [`Conversation::replace_from`] does.
    pub fn regroup_from(&mut self, from: usize) -> usize {
        let from = from.min(self.grouped);
        if from == self.events.len() && !self.turns.is_empty() {
            return self.turns.len();
        }
        // Events before `from` are unchanged, and they alone decide where
        // the turns to rebuild start.
        let restart = self.restart_turn(from);
        let mut touched = (Touched::new(), Touched::new());
        self.unpair_from(from, &mut touched);
        self.regroup(from, restart, touched)
    }

    /// How many of the events are grouped into turns: those after were
    /// written by a reader since the last grouping ([`Conversation::regroup_from`]).
    pub fn grouped(&self) -> usize {
        self.grouped
    }

    /// Takes the grouped events from `from` on out of the pairings (latest first).
    fn unpair_from(&mut self, from: usize, touched: &mut (Touched, Touched)) {
        let (calls, inquiries) = touched;
        for i in (from..self.grouped.min(self.events.len())).rev() {
            match pair_side(&self.events[i]) {
                Some((Kind::Call, side, id)) => self.calls.pop(i, side, id, from, calls),
                Some((Kind::Inquiry, side, id)) => self.inquiries.pop(i, side, id, from, inquiries),
                None => {}
            }
        }
    }

    /// Pairs the events from `from` on and rebuilds the turns they can change.
    fn regroup(&mut self, from: usize, restart: usize, touched: (Touched, Touched)) -> usize {
        let (mut calls, mut inquiries) = touched;
        for i in from..self.events.len() {
            match pair_side(&self.events[i]) {
                Some((Kind::Call, side, id)) => self.calls.push(i, side, id, from, &mut calls),
                Some((Kind::Inquiry, side, id)) => {
                    self.inquiries.push(i, side, id, from, &mut inquiries)
                }
                None => {}
            }
        }
        self.grouped = self.events.len();
        // An earlier request that gained or lost its response changes its turn.
        let changed = calls
            .iter()
            .filter(|(request, before)| self.calls.response_of(**request) != **before)
            .chain(
                inquiries
                    .iter()
                    .filter(|(request, before)| self.inquiries.response_of(**request) != **before),
            )
            .map(|(request, _)| *request);
        let first = changed
            .map(|request| self.turns.partition_point(|t| t.events.end <= request))
            .fold(restart, usize::min);
        let start = self.turns.get(restart).map_or(0, |t| t.events.start);
        self.turns.truncate(restart);
        for t in first.max(self.items_from)..restart {
            let range = self.turns[t].events.clone();
            self.turns[t].items = items(&self.events, range, &self.calls, &self.inquiries);
        }
        for range in turn_ranges(&self.events, start) {
            let grouped = self.turns.len() >= self.items_from;
            let turn = Turn {
                number: self.turns_before + self.turns.len() + 1,
                items: if grouped {
                    items(&self.events, range.clone(), &self.calls, &self.inquiries)
                } else {
                    Vec::new()
                },
                events: range,
            };
            self.turns.push(turn);
        }
        first
    }

    /// The first turn whose range a change from event `from` on can alter:
    /// the last turn (after the first) opened by a `turn_start` before
    /// `from`, since everything up to that `turn_start` decided its start.
    fn restart_turn(&self, from: usize) -> usize {
        (1..self.turns.len())
            .rev()
            .find(|&t| {
                self.turns[t]
                    .events
                    .clone()
                    .find(|&i| matches!(self.events[i].kind, EventKind::TurnStart))
                    .is_some_and(|i| i < from)
            })
            .unwrap_or(0)
    }

    /// The events of `view` (display-policy §2).
    pub fn view(&self, view: View) -> std::borrow::Cow<'_, [Event]> {
        views::apply(view, &self.events)
    }

    /// The turn that holds event `index`.
    #[cfg(any(test, feature = "internals"))]
    pub fn turn_of(&self, index: usize) -> Option<&Turn> {
        self.turns.iter().find(|t| t.events.contains(&index))
    }
}

/// Splits the events from `start` on into turns by JP's rule: a
/// `turn_start` opens a turn only if the current turn already holds a
/// conversation event; entries before the first `turn_start` are turn 1.
/// `start` is 0 or where an earlier split of the same events started a turn;
/// the first turn exists even when there are no events.
pub(crate) fn turn_ranges(events: &[Event], start: usize) -> Vec<Range<usize>> {
    let mut ranges = Vec::new();
    let first = start == 0;
    let mut start = start;
    let mut holds_event = false;
    for (i, event) in events.iter().enumerate().skip(start) {
        match &event.kind {
            // Superseded (a replaced or rewound message, a retried step):
            // it neither opens a turn nor holds one open.
            _ if facts::superseded(event) => {}
            EventKind::TurnStart => {
                if holds_event {
                    let boundary = first_trailing_config(events, start, i);
                    ranges.push(start..boundary);
                    start = boundary;
                    holds_event = false;
                }
            }
            EventKind::ConfigDelta { .. } | EventKind::Compaction(_) | EventKind::Unknown(_) => {}
            _ => holds_event = true,
        }
    }
    if start < events.len() || (first && ranges.is_empty()) {
        ranges.push(start..events.len());
    }
    ranges
}

/// Config deltas written just before a `turn_start` belong to the turn they
/// configure, so the boundary moves back over them.
fn first_trailing_config(events: &[Event], start: usize, turn_start: usize) -> usize {
    let mut boundary = turn_start;
    while boundary > start && matches!(events[boundary - 1].kind, EventKind::ConfigDelta { .. }) {
        boundary -= 1;
    }
    boundary
}

/// What a pairing is about.
#[derive(Clone, Copy)]
enum Kind {
    Call,
    Inquiry,
}

/// Where an event takes part in a pairing, and under which id.
fn pair_side(event: &Event) -> Option<(Kind, Side, &str)> {
    match &event.kind {
        EventKind::ToolCallRequest { id, .. } => Some((Kind::Call, Side::Request, id)),
        EventKind::ToolCallResponse { id, .. } => Some((Kind::Call, Side::Response, id)),
        EventKind::InquiryRequest { id, .. } => Some((Kind::Inquiry, Side::Request, id)),
        EventKind::InquiryResponse { id, .. } => Some((Kind::Inquiry, Side::Response, id)),
        _ => None,
    }
}

fn items(events: &[Event], range: Range<usize>, pairs: &Pairing, inquiries: &Pairing) -> Vec<Item> {
    let mut out: Vec<Item> = Vec::new();
    // The calls of this turn so far by id, to attach their inquiries: made
    // at the turn's first inquiry (most turns have none, and hashing every
    // call's id was a tenth of grouping a 1 GB conversation's outline).
    let mut calls_by_id: Option<HashMap<&str, usize>> = None;
    // A format that records turn facts (eve) stores whole messages: one per
    // step, never split mid-word, so adjacent ones stay apart. Asked at the
    // turn's first adjacent messages (most turns have none).
    let mut whole_messages = None;
    let mut records_turn_facts = || {
        *whole_messages
            .get_or_insert_with(|| range.clone().any(|i| facts::turn_info(&events[i]).is_some()))
    };
    for i in range.clone() {
        let event = &events[i];
        match &event.kind {
            EventKind::TurnStart if facts::superseded(event) => {}
            EventKind::TurnStart => out.push(Item::TurnStart(i)),
            EventKind::ChatRequest { .. } => out.push(Item::UserMessage(i)),
            EventKind::ChatResponse(ChatResponse::Message(_)) => match out.last_mut() {
                Some(Item::Speech(run)) if run.end == i && !records_turn_facts() => run.end += 1,
                _ => out.push(Item::Speech(i..i + 1)),
            },
            EventKind::ChatResponse(ChatResponse::Reasoning(_)) => match out.last_mut() {
                Some(Item::Reasoning(run)) if run.end == i => run.end += 1,
                _ => out.push(Item::Reasoning(i..i + 1)),
            },
            EventKind::ChatResponse(ChatResponse::Data(_)) => out.push(Item::Data(i)),
            EventKind::ToolCallRequest { id, .. } => {
                if let Some(calls) = &mut calls_by_id {
                    calls.insert(id, out.len());
                }
                out.push(Item::ToolCall(Box::new(ToolCall {
                    request: i,
                    response: pairs.response_of(i),
                    inquiries: Box::default(),
                })));
            }
            EventKind::ToolCallResponse { .. } => {
                if !pairs.is_answered(i) {
                    out.push(Item::OrphanResponse(i));
                }
            }
            EventKind::InquiryRequest { id, .. } => {
                let pair = InquiryPair {
                    request: i,
                    response: inquiries.response_of(i),
                };
                // JP names the call in the id (`<call id>.<question>`); eve
                // says which call it is about.
                let calls = calls_by_id.get_or_insert_with(|| calls_so_far(events, &out));
                let call = facts::call_id(event)
                    .or_else(|| id.split('.').next())
                    .and_then(|call_id| calls.get(call_id));
                match call.and_then(|&slot| out.get_mut(slot)) {
                    Some(Item::ToolCall(call)) => {
                        let mut asked = std::mem::take(&mut call.inquiries).into_vec();
                        asked.push(pair);
                        call.inquiries = asked.into_boxed_slice();
                    }
                    _ => out.push(Item::Inquiry(Box::new(pair))),
                }
            }
            EventKind::InquiryResponse { .. } => {
                if !inquiries.is_answered(i) {
                    out.push(Item::Unknown(i));
                }
            }
            EventKind::ConfigDelta { .. } => out.push(Item::ConfigDelta(i)),
            EventKind::Compaction(_) => out.push(Item::Compaction(i)),
            EventKind::Unknown(_) => out.push(Item::Unknown(i)),
        }
    }
    // A followed stream keeps the items of every turn: no spare room.
    out.shrink_to_fit();
    out
}

/// The tool calls among `items` by their id, a later call of an id
/// replacing an earlier one: the slot of each in `items`.
fn calls_so_far<'e>(events: &'e [Event], items: &[Item]) -> HashMap<&'e str, usize> {
    let mut calls = HashMap::new();
    for (slot, item) in items.iter().enumerate() {
        if let Item::ToolCall(call) = item
            && let EventKind::ToolCallRequest { id, .. } = &events[call.request].kind
        {
            calls.insert(id.as_str(), slot);
        }
    }
    calls
}

#[cfg(test)]
mod tests;
