//! The canonical event list under construction, with the indexes that let a
//! later eve event change an earlier canonical one in place (a call's result,
//! a retry, a task settling, a turn being held or ending).
//!
//! Both generations map onto the operations here, so the rules for pairing,
//! retries, attempts, final replies and tasks exist once. Calls, tasks and
//! inquiries are in [`calls`].

mod calls;

use std::collections::{HashMap, HashSet};

use compact_str::{CompactString, format_compact};
use serde_json::Value;

use self::calls::Call;
pub(in crate::format::eve) use self::calls::{AnswerKind, CallResult};
use crate::model::facts::{self, ErrorInfo, SessionEnd, SessionOutcome, TurnEnd, TurnInfo};
use crate::model::{ChatResponse, Event, EventKind, InProgress, InProgressKind};

/// Where one eve record came from: its id (stored or synthesized) and time.
#[derive(Debug, Clone, Default)]
pub(super) struct Stamp {
    /// `meta.id`, or `evt_<line>_<index>` for records of v27 lines.
    pub(super) id: Option<CompactString>,
    /// `meta.at`, or the v27 line's `at`.
    pub(super) at: Option<CompactString>,
}

impl Stamp {
    /// The `k`-th canonical event made from this record (`id`, `id.1`, `id.2`, …).
    pub(super) fn event(&self, k: usize, kind: EventKind) -> Event {
        let mut event = Event::new(None, kind);
        event.timestamp.clone_from(&self.at);
        event.event_id = self.id.as_ref().map(|id| {
            if k == 0 {
                id.clone()
            } else {
                format_compact!("{id}.{k}")
            }
        });
        event
    }
}

/// The text in progress with what the reader matches it by.
#[derive(Debug, Clone)]
pub(super) struct Streaming {
    /// What is shown.
    pub(super) shown: InProgress,
    /// What the deltas are keyed by (`input:<call>`, `part:<id>`, …): a new
    /// key replaces whatever was in progress.
    pub(super) key: String,
    /// The v27 run it belongs to.
    pub(super) run_id: Option<String>,
}

/// The kind of a completed block, for matching a retry's block to the one it replaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SlotKind {
    Message,
    Reasoning,
    Data,
    Request,
}

#[derive(Debug, Clone, Copy)]
struct Slot {
    kind: SlotKind,
    index: usize,
    /// The block's [`fingerprint`] as this reader made it (0 for a request):
    /// the event itself may since have been redacted in the conversation.
    made: u64,
}

/// A hash of a speech block's content, to spot a replayed identical block.
fn fingerprint(kind: &EventKind) -> u64 {
    use std::hash::Hasher as _;
    let mut hasher = twox_hash::XxHash3_64::new();
    match kind {
        EventKind::ChatResponse(ChatResponse::Message(Some(text))) => {
            hasher.write(b"m");
            hasher.write(text.as_bytes());
        }
        EventKind::ChatResponse(ChatResponse::Message(None)) => hasher.write(b"n"),
        EventKind::ChatResponse(ChatResponse::Reasoning(text)) => {
            hasher.write(b"r");
            hasher.write(text.as_bytes());
        }
        EventKind::ChatResponse(ChatResponse::Data(value)) => {
            hasher.write(b"d");
            hasher.write(value.to_string().as_bytes());
        }
        _ => hasher.write(b"?"),
    }
    hasher.finish()
}

/// The blocks of one retryable unit (a gen A step, a v27 turn's runs).
#[derive(Debug, Default)]
struct Group {
    attempt: u32,
    current: Vec<Slot>,
    /// Blocks of superseded attempts, waiting for the retry's replacement.
    pool: Vec<Slot>,
}

#[derive(Debug, Default)]
struct Turn {
    start: Option<usize>,
    info: TurnInfo,
    finals: Vec<usize>,
    running: bool,
}

/// The canonical events and the indexes over them.
#[derive(Debug, Default)]
pub(super) struct Builder {
    pub(super) events: Vec<Event>,
    pub(super) revision: u64,
    /// The lowest index changed in place since [`Builder::take_changed_from`].
    changed_from: Option<usize>,
    pub(super) in_progress: Option<Streaming>,
    pub(super) finished: bool,
    /// The 128-bit hashes of the ids seen (a flood's ids would otherwise be
    /// kept a second time, as strings, just to spot replays).
    seen: HashSet<u128>,
    turns: HashMap<String, Turn>,
    current_turn: Option<String>,
    calls: HashMap<String, Call>,
    task_calls: HashMap<String, String>,
    groups: HashMap<String, Group>,
    inquiries: HashMap<String, AnswerKind>,
}

impl Builder {
    /// Records an id; true when it was seen before (a replayed event to drop).
    pub(super) fn is_duplicate(&mut self, id: Option<&str>) -> bool {
        match id {
            Some(id) => !self
                .seen
                .insert(twox_hash::XxHash3_128::oneshot(id.as_bytes())),
            None => false,
        }
    }

    fn push(&mut self, event: Event) -> usize {
        self.events.push(event);
        self.events.len() - 1
    }

    fn modify(&mut self, index: Option<usize>, change: impl FnOnce(&mut Event) -> bool) {
        if let Some(i) = index
            && let Some(event) = self.events.get_mut(i)
            && change(event)
        {
            self.changed(i);
        }
    }

    /// Notes that event `index` changed in place.
    fn changed(&mut self, index: usize) {
        self.revision += 1;
        self.changed_from = Some(self.changed_from.map_or(index, |low| low.min(index)));
    }

    /// The lowest index changed in place since the last call, if any.
    pub(super) fn take_changed_from(&mut self) -> Option<usize> {
        self.changed_from.take()
    }

    // ----- turns -------------------------------------------------------

    /// The turn an event belongs to: its own `turnId`, else the current turn.
    pub(super) fn turn_of(&self, explicit: Option<&str>) -> Option<String> {
        explicit
            .map(str::to_string)
            .or_else(|| self.current_turn.clone())
    }

    /// `turn.started`: a `turn_start`, once per turn id (a resumed held turn keeps its id).
    pub(super) fn start_turn(&mut self, turn_id: &str, stamp: &Stamp) {
        self.current_turn = Some(turn_id.to_string());
        if self.turns.get(turn_id).is_some_and(|t| t.start.is_some()) {
            return;
        }
        let mut event = stamp.event(0, EventKind::TurnStart);
        let info = TurnInfo {
            turn_id: Some(turn_id.to_string()),
            ..TurnInfo::default()
        };
        facts::set_value(&mut event, facts::TURN, &info);
        let index = self.push(event);
        let turn = self.turns.entry(turn_id.to_string()).or_default();
        turn.start = Some(index);
        turn.info.turn_id = Some(turn_id.to_string());
    }

    /// Changes a turn's facts and writes them to its `turn_start`.
    pub(super) fn update_turn(&mut self, turn_id: &str, change: impl FnOnce(&mut TurnInfo)) {
        let turn = self.turns.entry(turn_id.to_string()).or_default();
        change(&mut turn.info);
        let (start, info) = (turn.start, turn.info.clone());
        self.modify(start, |e| facts::set_value(e, facts::TURN, &info));
    }

    /// The model started working in the turn: later input is steering, a
    /// held turn continues.
    pub(super) fn set_running(&mut self, turn_id: &str) {
        let turn = self.turns.entry(turn_id.to_string()).or_default();
        turn.running = true;
        if turn.info.held {
            self.update_turn(turn_id, |info| info.held = false);
        }
    }

    /// Whether the model already worked in the turn.
    pub(super) fn is_running(&self, turn_id: &str) -> bool {
        self.turns.get(turn_id).is_some_and(|t| t.running)
    }

    /// Whether the turn is held right now.
    pub(super) fn is_held(&self, turn_id: &str) -> bool {
        self.turns.get(turn_id).is_some_and(|t| t.info.held)
    }

    /// The turn is held open. Gen A reports a held turn's text as narration,
    /// so replies marked final so far lose the mark (`clear_finals`).
    pub(super) fn hold(&mut self, turn_id: &str, clear_finals: bool) {
        self.update_turn(turn_id, |info| info.held = true);
        if clear_finals {
            let finals = self
                .turns
                .get_mut(turn_id)
                .map(|t| std::mem::take(&mut t.finals))
                .unwrap_or_default();
            for index in finals {
                self.modify(Some(index), |e| facts::set_flag(e, facts::FINAL_REPLY, false));
            }
        }
    }

    /// The turn ended; an error is kept (a later cascade copy does not replace it).
    pub(super) fn end_turn(&mut self, turn_id: &str, end: TurnEnd, error: Option<ErrorInfo>) {
        self.update_turn(turn_id, |info| {
            info.ended = Some(end);
            info.held = false;
            if let Some(error) = error {
                info.error = Some(error);
            }
        });
        if self
            .in_progress
            .as_ref()
            .is_some_and(|p| p.shown.turn_id.as_deref() == Some(turn_id))
        {
            self.in_progress = None;
        }
    }

    /// The session ended. A failure also ends the open turn with its error;
    /// the outcome goes on the last turn (a `turn_start` is made when there is none).
    pub(super) fn end_session(
        &mut self,
        outcome: SessionOutcome,
        error: Option<ErrorInfo>,
        stamp: &Stamp,
    ) {
        self.finished = true;
        self.in_progress = None;
        let turn_id = self
            .current_turn
            .clone()
            .unwrap_or_else(|| "session".to_string());
        if self.turns.get(&turn_id).is_none_or(|t| t.start.is_none()) {
            // No turn_start to carry the outcome (a stream joined mid-turn,
            // or a failure before the first turn): make one.
            self.start_turn(&turn_id, stamp);
            let info = self.turns.get(&turn_id).map(|t| t.info.clone());
            if let Some(info) = info {
                self.update_turn(&turn_id, |i| *i = info);
            }
        }
        if outcome == SessionOutcome::Failed {
            let open = self
                .turns
                .get(&turn_id)
                .is_some_and(|t| t.info.ended.is_none());
            if open {
                self.update_turn(&turn_id, |info| {
                    info.ended = Some(TurnEnd::Failed);
                    info.held = false;
                    if info.error.is_none() {
                        info.error.clone_from(&error);
                    }
                });
            }
        }
        let start = self.turns.get(&turn_id).and_then(|t| t.start);
        let end = SessionEnd { outcome, error };
        self.modify(start, |e| facts::set_value(e, facts::SESSION, &end));
    }

    /// Adds usage to a turn's totals.
    pub(super) fn add_usage(&mut self, turn_id: &str, usage: &Value) {
        let input = usage.get("inputTokens").and_then(Value::as_u64);
        let output = usage.get("outputTokens").and_then(Value::as_u64);
        let cost = usage.get("costUsd").and_then(Value::as_f64);
        if input.is_none() && output.is_none() && cost.is_none() {
            return;
        }
        self.update_turn(turn_id, |info| {
            if let Some(n) = input {
                info.input_tokens = Some(info.input_tokens.unwrap_or(0) + n);
            }
            if let Some(n) = output {
                info.output_tokens = Some(info.output_tokens.unwrap_or(0) + n);
            }
            if let Some(c) = cost {
                info.cost = Some(info.cost.unwrap_or(0.0) + c);
            }
        });
    }

    // ----- speech ------------------------------------------------------

    /// What the user said; `steering` when the turn was already running.
    pub(super) fn chat_request(&mut self, turn_id: Option<&str>, content: String, stamp: &Stamp) {
        let steering = turn_id.is_some_and(|t| self.is_running(t));
        let mut event = stamp.event(
            0,
            EventKind::ChatRequest {
                content,
                author: None,
                schema: None,
            },
        );
        if steering {
            facts::set_flag(&mut event, facts::STEERING, true);
        }
        self.push(event);
    }

    /// A new attempt of a retryable unit: the previous attempt's blocks are
    /// marked superseded and wait to be replaced by the retry's.
    /// Returns whether this was a retry.
    pub(super) fn begin_attempt(&mut self, group: &str) -> bool {
        let g = self.groups.entry(group.to_string()).or_default();
        g.attempt += 1;
        if g.attempt == 1 {
            return false;
        }
        let indices: Vec<usize> = g.current.iter().map(|s| s.index).collect();
        self.supersede(group, &indices);
        true
    }

    /// Marks these blocks of a group superseded (a call that already has its
    /// result stays: it ran) and keeps them for replacement by a retry.
    pub(super) fn supersede(&mut self, group: &str, indices: &[usize]) {
        let Some(g) = self.groups.get_mut(group) else {
            return;
        };
        let (moved, kept): (Vec<Slot>, Vec<Slot>) = g
            .current
            .drain(..)
            .partition(|s| indices.contains(&s.index));
        g.current = kept;
        let answered: HashSet<usize> = self
            .calls
            .values()
            .filter(|c| {
                c.response.is_some()
                    && !matches!(c.outcome.as_deref(), Some("abandoned" | "interrupted"))
            })
            .filter_map(|c| c.request)
            .collect();
        let mut marked = Vec::new();
        for slot in moved {
            if slot.kind == SlotKind::Request && answered.contains(&slot.index) {
                continue;
            }
            marked.push(slot);
        }
        for slot in &marked {
            self.modify(Some(slot.index), |e| {
                facts::set_flag(e, facts::SUPERSEDED, true)
            });
        }
        if let Some(g) = self.groups.get_mut(group) {
            g.pool.extend(marked);
        }
    }

    /// A completed block (`message`, `reasoning`, `data`). A retry's block
    /// replaces the superseded block of the same kind in place; with `dedupe`,
    /// a block identical to one of the current attempt is a replay and dropped.
    /// Returns the event's index.
    pub(super) fn speech(
        &mut self,
        group: &str,
        turn_id: Option<&str>,
        mut event: Event,
        final_reply: bool,
        dedupe: bool,
    ) -> usize {
        let kind = match &event.kind {
            EventKind::ChatResponse(ChatResponse::Reasoning(_)) => SlotKind::Reasoning,
            EventKind::ChatResponse(ChatResponse::Data(_)) => SlotKind::Data,
            _ => SlotKind::Message,
        };
        if final_reply {
            facts::set_flag(&mut event, facts::FINAL_REPLY, true);
        }
        let made = fingerprint(&event.kind);
        let g = self.groups.entry(group.to_string()).or_default();
        if dedupe && let Some(slot) = g.current.iter().find(|s| s.kind == kind && s.made == made) {
            return slot.index;
        }
        let index = if let Some(pos) = g.pool.iter().position(|s| s.kind == kind) {
            let mut slot = g.pool.remove(pos);
            slot.made = made;
            g.current.push(slot);
            self.events[slot.index] = event;
            self.changed(slot.index);
            slot.index
        } else {
            let index = self.events.len();
            g.current.push(Slot { kind, index, made });
            self.events.push(event);
            index
        };
        if final_reply && let Some(turn) = turn_id.and_then(|t| self.turns.get_mut(t)) {
            turn.finals.push(index);
        }
        index
    }

    /// Marks an existing block as the final reply (v27 `turn.settled.reply`).
    pub(super) fn mark_final(&mut self, index: usize, turn_id: Option<&str>) {
        self.modify(Some(index), |e| facts::set_flag(e, facts::FINAL_REPLY, true));
        if let Some(turn) = turn_id.and_then(|t| self.turns.get_mut(t))
            && !turn.finals.contains(&index)
        {
            turn.finals.push(index);
        }
    }

    // ----- streaming ---------------------------------------------------

    /// Appends (or, with `replace`, sets) streaming text under a key; a new
    /// key replaces whatever was in progress.
    pub(super) fn delta(
        &mut self,
        key: String,
        run_id: Option<String>,
        make: impl FnOnce() -> InProgress,
        delta: &str,
        replace: bool,
    ) {
        match &mut self.in_progress {
            Some(p) if p.key == key => {
                if replace {
                    p.shown.text.clear();
                }
                p.shown.text.push_str(delta);
            }
            _ => {
                let mut shown = make();
                shown.text = delta.to_string();
                self.in_progress = Some(Streaming { shown, key, run_id });
            }
        }
    }

    /// The completed event for this key arrived: the streaming text goes.
    pub(super) fn clear_progress(&mut self, key: &str) {
        if self.in_progress.as_ref().is_some_and(|p| p.key == key) {
            self.in_progress = None;
        }
    }

    /// Removes and returns the streaming text when it matches.
    pub(super) fn take_progress(
        &mut self,
        matches: impl Fn(&Streaming) -> bool,
    ) -> Option<InProgress> {
        if self.in_progress.as_ref().is_some_and(matches) {
            self.in_progress.take().map(|s| s.shown)
        } else {
            None
        }
    }

    /// Keeps streamed message text of a step that failed as an interrupted message.
    pub(super) fn keep_interrupted(&mut self, progress: InProgress, group: &str, stamp: &Stamp) {
        if progress.kind != InProgressKind::Message || progress.text.is_empty() {
            return;
        }
        let mut event = stamp.event(
            0,
            EventKind::ChatResponse(ChatResponse::Message(Some(progress.text))),
        );
        facts::set_flag(&mut event, facts::INTERRUPTED, true);
        let turn = progress.turn_id.clone();
        self.speech(group, turn.as_deref(), event, false, false);
    }
}
