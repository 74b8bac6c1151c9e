//! The conversation: turns, request/response pairing, joined speech and the
//! three views.
//!
//! Everything here is derived from the event list alone, by JP's own rules
//! (jp-format §1.10, §1.11): no display configuration is involved.

pub mod views;

use std::collections::HashMap;
use std::ops::Range;

use serde_json::Value;

use crate::format::eve::{EveReader, InProgress, Original};
use crate::format::{ChatResponse, Event, EventKind, ext};

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
    pub originals: Vec<Original>,
    /// Text the agent is writing right now (eve's deltas), not yet an event:
    /// shown live at the end and replaced by the completed event.
    pub in_progress: Option<InProgress>,
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
    /// Adjacent assistant `message`s, joined (providers split text mid-word).
    Speech(Vec<usize>),
    /// Adjacent reasoning, joined.
    Reasoning(Vec<usize>),
    /// Structured output.
    Data(usize),
    /// A tool call with its response (none yet: pending) and its inquiries.
    ToolCall(ToolCall),
    /// A response whose request is not in the stream.
    OrphanResponse(usize),
    /// An inquiry not tied to a tool call in this turn.
    Inquiry(InquiryPair),
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
    /// Inquiries asked during the call (ids `<call id>.<question>`).
    pub inquiries: Vec<InquiryPair>,
}

/// An inquiry request and its answer.
#[derive(Debug, Clone, PartialEq)]
pub struct InquiryPair {
    /// Index of the `inquiry_request`.
    pub request: usize,
    /// Index of the `inquiry_response`, if answered.
    pub response: Option<usize>,
}

impl Conversation {
    /// Groups `events` into turns and items.
    pub fn new(events: Vec<Event>, base_config: Option<Value>, title: Option<String>) -> Self {
        let turns = group(&events);
        Conversation {
            events,
            base_config,
            title,
            turns,
            originals: Vec::new(),
            in_progress: None,
        }
    }

    /// The conversation an eve stream holds so far: its events, its stored
    /// lines (for the raw view) and the text being written.
    pub fn from_eve(reader: &EveReader) -> Self {
        Conversation {
            originals: reader.originals().to_vec(),
            in_progress: reader.in_progress().cloned(),
            ..Conversation::new(reader.events().to_vec(), None, None)
        }
    }

    /// Appends events read from a growing conversation and regroups (cheap:
    /// grouping looks at event kinds and ids, never copies text).
    pub fn extend(&mut self, events: Vec<Event>) {
        if events.is_empty() {
            return;
        }
        self.events.extend(events);
        self.turns = group(&self.events);
    }

    /// The events of `view` (display-policy §2).
    pub fn view(&self, view: View) -> Vec<Event> {
        views::apply(view, &self.events)
    }

    /// The turn that holds event `index`.
    pub fn turn_of(&self, index: usize) -> Option<&Turn> {
        self.turns.iter().find(|t| t.events.contains(&index))
    }
}

/// Splits events into turns by JP's rule: a `turn_start` opens a turn only if
/// the current turn already holds a conversation event; entries before the
/// first `turn_start` are turn 1.
fn turn_ranges(events: &[Event]) -> Vec<Range<usize>> {
    let mut ranges = Vec::new();
    let mut start = 0;
    let mut holds_event = false;
    for (i, event) in events.iter().enumerate() {
        match &event.kind {
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
    if start < events.len() || ranges.is_empty() {
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

fn group(events: &[Event]) -> Vec<Turn> {
    let pairs = pair_responses(events);
    let inquiries = pair_inquiries(events);
    turn_ranges(events)
        .into_iter()
        .enumerate()
        .map(|(n, range)| Turn {
            number: n + 1,
            items: items(events, range.clone(), &pairs, &inquiries),
            events: range,
        })
        .collect()
}

/// For each request index, the index of the response that answers it: a
/// response pairs with the nearest earlier unanswered request of its id (ids
/// repeat, jp-format §1.10). Used for tool calls and for inquiries.
fn pair_by_id<'e>(
    events: &'e [Event],
    request_id: impl Fn(&'e EventKind) -> Option<&'e str>,
    response_id: impl Fn(&'e EventKind) -> Option<&'e str>,
) -> HashMap<usize, usize> {
    let mut open: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut pairs = HashMap::new();
    for (i, event) in events.iter().enumerate() {
        if let Some(id) = request_id(&event.kind) {
            open.entry(id).or_default().push(i);
        } else if let Some(id) = response_id(&event.kind)
            && let Some(request) = open.get_mut(id).and_then(Vec::pop)
        {
            pairs.insert(request, i);
        }
    }
    pairs
}

fn pair_responses(events: &[Event]) -> HashMap<usize, usize> {
    pair_by_id(
        events,
        |kind| match kind {
            EventKind::ToolCallRequest { id, .. } => Some(id),
            _ => None,
        },
        |kind| match kind {
            EventKind::ToolCallResponse { id, .. } => Some(id),
            _ => None,
        },
    )
}

fn pair_inquiries(events: &[Event]) -> HashMap<usize, usize> {
    pair_by_id(
        events,
        |kind| match kind {
            EventKind::InquiryRequest { id, .. } => Some(id),
            _ => None,
        },
        |kind| match kind {
            EventKind::InquiryResponse { id, .. } => Some(id),
            _ => None,
        },
    )
}

fn items(
    events: &[Event],
    range: Range<usize>,
    pairs: &HashMap<usize, usize>,
    inquiries: &HashMap<usize, usize>,
) -> Vec<Item> {
    let answered: std::collections::HashSet<usize> = pairs.values().copied().collect();
    let answered_inquiries: std::collections::HashSet<usize> =
        inquiries.values().copied().collect();
    let mut out: Vec<Item> = Vec::new();
    // Open calls of this turn by id, to attach their inquiries.
    let mut calls_by_id: HashMap<&str, usize> = HashMap::new();
    // A format that records turn facts (eve) stores whole messages: one per
    // step, never split mid-word, so adjacent ones stay apart.
    let whole_messages = range.clone().any(|i| ext::turn_info(&events[i]).is_some());
    for i in range {
        let event = &events[i];
        match &event.kind {
            EventKind::TurnStart => out.push(Item::TurnStart(i)),
            EventKind::ChatRequest { .. } => out.push(Item::UserMessage(i)),
            EventKind::ChatResponse(ChatResponse::Message(_)) => match out.last_mut() {
                Some(Item::Speech(run)) if run.last() == Some(&(i - 1)) && !whole_messages => {
                    run.push(i)
                }
                _ => out.push(Item::Speech(vec![i])),
            },
            EventKind::ChatResponse(ChatResponse::Reasoning(_)) => match out.last_mut() {
                Some(Item::Reasoning(run)) if run.last() == Some(&(i - 1)) => run.push(i),
                _ => out.push(Item::Reasoning(vec![i])),
            },
            EventKind::ChatResponse(ChatResponse::Data(_)) => out.push(Item::Data(i)),
            EventKind::ToolCallRequest { id, .. } => {
                calls_by_id.insert(id, out.len());
                out.push(Item::ToolCall(ToolCall {
                    request: i,
                    response: pairs.get(&i).copied(),
                    inquiries: Vec::new(),
                }));
            }
            EventKind::ToolCallResponse { .. } => {
                if !answered.contains(&i) {
                    out.push(Item::OrphanResponse(i));
                }
            }
            EventKind::InquiryRequest { id, .. } => {
                let pair = InquiryPair {
                    request: i,
                    response: inquiries.get(&i).copied(),
                };
                // JP names the call in the id (`<call id>.<question>`); eve
                // says which call it is about.
                let call = ext::call_id(event)
                    .or_else(|| id.split('.').next())
                    .and_then(|call_id| calls_by_id.get(call_id));
                match call.and_then(|&slot| out.get_mut(slot)) {
                    Some(Item::ToolCall(call)) => call.inquiries.push(pair),
                    _ => out.push(Item::Inquiry(pair)),
                }
            }
            EventKind::InquiryResponse { .. } => {
                if !answered_inquiries.contains(&i) {
                    out.push(Item::Unknown(i));
                }
            }
            EventKind::ConfigDelta { .. } => out.push(Item::ConfigDelta(i)),
            EventKind::Compaction(_) => out.push(Item::Compaction(i)),
            EventKind::Unknown(_) => out.push(Item::Unknown(i)),
        }
    }
    out
}

#[cfg(test)]
#[path = "model_tests.rs"]
mod tests;
