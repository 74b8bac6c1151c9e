//! overhear's own facts about an event: what a reader knows that JP's
//! vocabulary has no field for.
//!
//! A reader (eve's, Claude Code's, Codex's) learns things the renderer must
//! show but the canonical event cannot say — that a message is the turn's
//! final reply, that a call was attempted three times, how its background
//! task ended, what a turn cost. They are typed fields of [`Facts`], held on
//! the event ([`Event::facts`], boxed: most events have none). Readers set
//! them with [`set_flag`] and [`set_value`] and a key below; the renderer and
//! the model read them with the accessors ([`final_reply`], [`turn_info`],
//! …), so the names and shapes live in one place.
//!
//! Each fact has a name under `overhear.*`: `overhear events` writes the
//! facts under those names in an event's `metadata`, and a JP entry whose
//! `metadata` holds one (such output, saved) has it read back as the fact —
//! its `metadata` stays as written. docs/eve-mapping.md lists every fact.

use compact_str::CompactString;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::call_view::CallView;
use super::event::Event;

/// A yes/no fact, set with [`set_flag`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flag {
    /// [`FINAL_REPLY`].
    FinalReply,
    /// [`STEERING`].
    Steering,
    /// [`SUPERSEDED`].
    Superseded,
    /// [`INTERRUPTED`].
    Interrupted,
}

impl Flag {
    /// Every flag, in the order `overhear events` writes them.
    const ALL: [Flag; 4] = [
        Flag::FinalReply,
        Flag::Steering,
        Flag::Superseded,
        Flag::Interrupted,
    ];

    /// The name the flag is written under in `metadata`.
    pub const fn name(self) -> &'static str {
        match self {
            Flag::FinalReply => "overhear.final_reply",
            Flag::Steering => "overhear.steering",
            Flag::Superseded => "overhear.superseded",
            Flag::Interrupted => "overhear.interrupted",
        }
    }

    fn slot(self, facts: &mut Facts) -> &mut bool {
        match self {
            Flag::FinalReply => &mut facts.final_reply,
            Flag::Steering => &mut facts.steering,
            Flag::Superseded => &mut facts.superseded,
            Flag::Interrupted => &mut facts.interrupted,
        }
    }

    fn get(self, facts: &Facts) -> bool {
        match self {
            Flag::FinalReply => facts.final_reply,
            Flag::Steering => facts.steering,
            Flag::Superseded => facts.superseded,
            Flag::Interrupted => facts.interrupted,
        }
    }
}

/// A fact holding a `T`, set with [`set_value`]: its name under `overhear.*`
/// and where in [`Facts`] it goes.
pub struct Key<T: ?Sized> {
    name: &'static str,
    set: fn(&mut Facts, &T) -> bool,
}

impl<T: ?Sized> Key<T> {
    /// The name the fact is written under in `metadata`.
    #[cfg(any(test, feature = "internals"))]
    pub const fn name(&self) -> &'static str {
        self.name
    }
}

impl<T: ?Sized> Clone for Key<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for Key<T> {}

impl<T: ?Sized> std::fmt::Debug for Key<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// Puts `value` in `slot`; returns whether that changed it.
fn replace<T: PartialEq>(slot: &mut T, value: T) -> bool {
    if *slot == value {
        return false;
    }
    *slot = value;
    true
}

/// On a `chat_response` (`message` or `data`): this is the turn's final
/// reply, as opposed to narration between tool calls or text of a held turn.
pub const FINAL_REPLY: Flag = Flag::FinalReply;

/// On a `tool_call_request` and its `tool_call_response`: how often the call
/// with this id was requested or answered (retried steps repeat a call id; it
/// is shown once). Below 2 it is not marked (one attempt).
pub const ATTEMPTS: Key<u32> = Key {
    name: "overhear.attempts",
    set: |facts, n| replace(&mut facts.attempts, if *n >= 2 { *n } else { 0 }),
};

/// On a `tool_call_request` (or, when the stream never requested the call,
/// its `tool_call_response`): the call's background task.
pub const TASK: Key<TaskStatus> = Key {
    name: "overhear.task",
    set: |facts, task| replace(&mut facts.rare_mut().task, Some(Box::new(task.clone()))),
};

/// On a `turn_start`: model, tokens, cost, held state, error and how the
/// turn ended.
pub const TURN: Key<TurnInfo> = Key {
    name: "overhear.turn",
    set: |facts, info| replace(&mut facts.turn, Some(Box::new(info.clone()))),
};

/// On a `chat_request`: the message arrived while the turn was already
/// running (steering, or a follow-up joining a held turn).
pub const STEERING: Flag = Flag::Steering;

/// On any event: an attempt that a retry replaced (a retried model step, an
/// abandoned v27 model run). Renderers hide or dim it; it is not speech.
pub const SUPERSEDED: Flag = Flag::Superseded;

/// On a `chat_response`: text a failed or cancelled model step streamed but
/// never completed.
pub const INTERRUPTED: Flag = Flag::Interrupted;

/// On a `tool_call_response` (`completed`, `failed`, `rejected`,
/// `interrupted`, `abandoned`) or an `inquiry_response` (`answered`,
/// `approved`, `denied`, `accepted`, `declined`, …): the outcome as the
/// source stated it.
pub const OUTCOME: Key<str> = Key {
    name: "overhear.outcome",
    set: |facts, outcome| {
        replace(
            &mut facts.rare_mut().outcome,
            Some(CompactString::from(outcome)),
        )
    },
};

/// The [`OUTCOME`] of a tool call the user (or a rule of theirs) refused: not
/// a failure of the tool. Shown as refused, with [`REASON`] when given; the
/// viewer's `x` skips it and no count of failures includes it.
pub const REFUSED: &str = "rejected";

/// On a refused `tool_call_response`: the reason the user gave.
pub const REASON: Key<str> = Key {
    name: "overhear.reason",
    set: |facts, reason| replace(&mut facts.rare_mut().reason, Some(reason.into())),
};

/// On a `tool_call_request`: what the call did, in a few words (a shell
/// call's description or command, a file tool's path, a search's pattern, a
/// sub-agent's description), for the card's header.
pub const SUBJECT: Key<str> = Key {
    name: "overhear.subject",
    set: |facts, subject| replace(&mut facts.subject, Some(subject.into())),
};

/// On a `tool_call_request`: what a well-known tool's call says (a command,
/// a diff, a checklist, questions), as facts the render stage lays out
/// ([`CallView`]).
pub const CALL_VIEW: Key<CallView> = Key {
    name: "overhear.call_view",
    set: |facts, view| replace(&mut facts.call_view, Some(Box::new(view.clone()))),
};

/// On an `inquiry_request`: the id of the tool call the question is about
/// (the caller's call for a relayed child approval).
pub const CALL_ID: Key<str> = Key {
    name: "overhear.call_id",
    set: |facts, call| replace(&mut facts.call_id, Some(CompactString::from(call))),
};

/// On the last `turn_start`: the session ended (completed, or failed with an
/// error). A session that fails before its first turn gets a `turn_start` of
/// its own to carry it.
pub const SESSION: Key<SessionEnd> = Key {
    name: "overhear.session",
    set: |facts, end| replace(&mut facts.rare_mut().session, Some(Box::new(end.clone()))),
};

/// The `type` of an [`EventKind::Unknown`](crate::model::EventKind::Unknown)
/// event that is a notice of the source (an interruption, an API error, a
/// compaction: `{type, level, text}`), shown as a one-line notice.
pub const NOTICE: &str = "notice";

/// The `level` of a notice that is only a note (the IDE context of a prompt,
/// a hook's outcome): shown dim, without the warning mark.
pub const NOTE: &str = "note";

/// What a reader learned about one event beyond JP's fields; every fact is
/// absent (`false`, `None`, one attempt) until a reader sets it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Facts {
    final_reply: bool,
    steering: bool,
    superseded: bool,
    interrupted: bool,
    /// Below 2: one attempt, not marked.
    attempts: u32,
    subject: Option<String>,
    call_id: Option<CompactString>,
    call_view: Option<Box<CallView>>,
    turn: Option<Box<TurnInfo>>,
    /// The facts few events have, behind one pointer: the facts of most
    /// events (a call's, a turn's) are then 80 bytes, not 160 (a 100 MB
    /// transcript has 50,000 events with facts).
    rare: Option<Box<RareFacts>>,
}

/// The facts of [`Facts`] that few events have.
#[derive(Debug, Clone, PartialEq, Default)]
struct RareFacts {
    outcome: Option<CompactString>,
    reason: Option<String>,
    task: Option<Box<TaskStatus>>,
    session: Option<Box<SessionEnd>>,
    /// Where the event's images are in its stored line: not a fact of the
    /// JP form (never written as metadata), only of this reading.
    images: Vec<ImageAt>,
}

/// Where the bytes of an image of an event are: in the stored line the
/// event was read from ([`crate::model::Conversation::originals`]), which
/// keeps them anyway for the raw view; the event holds only a placeholder
/// text. So an export can embed the image without every event carrying
/// its base64.
#[derive(Debug, Clone, PartialEq)]
pub struct ImageAt {
    /// The stored line: its index in the conversation's originals.
    pub line: usize,
    /// A JSON pointer into that line to a string: the image's base64, or a
    /// `data:` URL holding it.
    pub data: Box<str>,
    /// Its media type as the record states it beside the data (`None` for a
    /// `data:` URL, which states its own).
    pub mime: Option<CompactString>,
}

impl Facts {
    fn is_empty(&self) -> bool {
        *self == Facts::default()
    }

    /// The rare facts, made when there are none yet ([`Facts::tidy`] drops
    /// them again when a change left none).
    fn rare_mut(&mut self) -> &mut RareFacts {
        self.rare.get_or_insert_default()
    }

    /// Drops the rare facts when none is left.
    fn tidy(&mut self) {
        if self.rare.as_deref().is_some_and(|rare| *rare == RareFacts::default()) {
            self.rare = None;
        }
    }

    /// The facts named in a stored `metadata` map (a JP entry that holds
    /// `overhear.*` keys: `overhear events` output, saved), `None` when it
    /// names none. A value of the wrong shape is not a fact, as if absent.
    pub(crate) fn from_metadata(map: &Map<String, Value>) -> Option<Box<Facts>> {
        if !map.keys().any(|key| key.starts_with("overhear.")) {
            return None;
        }
        fn object<T: serde::de::DeserializeOwned>(value: Option<&Value>) -> Option<Box<T>> {
            serde_json::from_value(value?.clone()).ok().map(Box::new)
        }
        let text = |key: &Key<str>| map.get(key.name).and_then(Value::as_str);
        let mut facts = Facts {
            attempts: map
                .get(ATTEMPTS.name)
                .and_then(Value::as_u64)
                .map_or(0, |n| u32::try_from(n).unwrap_or(u32::MAX)),
            subject: text(&SUBJECT).map(Into::into),
            call_id: text(&CALL_ID).map(Into::into),
            call_view: object(map.get(CALL_VIEW.name)),
            turn: object(map.get(TURN.name)),
            rare: Some(Box::new(RareFacts {
                outcome: text(&OUTCOME).map(Into::into),
                reason: text(&REASON).map(Into::into),
                task: object(map.get(TASK.name)),
                session: object(map.get(SESSION.name)),
                images: Vec::new(),
            })),
            ..Facts::default()
        };
        facts.tidy();
        for flag in Flag::ALL {
            *flag.slot(&mut facts) = map.get(flag.name()) == Some(&Value::Bool(true));
        }
        (!facts.is_empty()).then(|| Box::new(facts))
    }

    /// Writes the facts into `map` under their names, leaving a name the map
    /// already holds as it is (a JP entry's own `metadata`, as written).
    pub(crate) fn write_into(&self, map: &mut Map<String, Value>) {
        let mut put = |name: &str, value: Value| {
            if !map.contains_key(name) {
                map.insert(name.into(), value);
            }
        };
        for flag in Flag::ALL {
            if flag.get(self) {
                put(flag.name(), Value::Bool(true));
            }
        }
        if self.attempts >= 2 {
            put(ATTEMPTS.name, Value::from(self.attempts));
        }
        let rare = self.rare.as_deref();
        if let Some(task) = rare.and_then(|r| r.task.as_ref()) {
            put(TASK.name, to_value(task));
        }
        if let Some(turn) = &self.turn {
            put(TURN.name, to_value(turn));
        }
        if let Some(outcome) = rare.and_then(|r| r.outcome.as_ref()) {
            put(OUTCOME.name, Value::from(outcome.as_str()));
        }
        if let Some(reason) = rare.and_then(|r| r.reason.as_ref()) {
            put(REASON.name, Value::from(reason.as_str()));
        }
        if let Some(subject) = &self.subject {
            put(SUBJECT.name, Value::from(subject.as_str()));
        }
        if let Some(view) = &self.call_view {
            put(CALL_VIEW.name, to_value(view));
        }
        if let Some(call) = &self.call_id {
            put(CALL_ID.name, Value::from(call.as_str()));
        }
        if let Some(session) = rare.and_then(|r| r.session.as_ref()) {
            put(SESSION.name, to_value(session));
        }
    }

    /// Hands every text a user can be shown to `text` and every free JSON
    /// value to `value`, to change them in place (redaction). The ids that
    /// join events (call, task and turn ids) are left alone, as the events'
    /// own ids are.
    pub(crate) fn texts_mut(
        &mut self,
        text: &mut dyn FnMut(&mut String),
        value: &mut dyn FnMut(&mut Value),
    ) {
        let rare = self.rare.as_deref_mut();
        let (outcome, reason, task, session) = match rare {
            Some(RareFacts {
                outcome,
                reason,
                task,
                session,
                ..
            }) => (outcome.as_mut(), reason.as_mut(), task.as_mut(), session.as_mut()),
            None => (None, None, None, None),
        };
        if let Some(outcome) = outcome {
            let mut owned = outcome.to_string();
            text(&mut owned);
            if owned != outcome.as_str() {
                *outcome = owned.into();
            }
        }
        for field in [reason, self.subject.as_mut()].into_iter().flatten() {
            text(field);
        }
        // A call's view is many small texts: redacted as the JSON it is
        // written as, as every fact was while facts were metadata.
        if let Some(view) = &mut self.call_view {
            let mut written = to_value(view);
            value(&mut written);
            if let Ok(redacted) = serde_json::from_value(written) {
                **view = redacted;
            }
        }
        let mut errors: Vec<&mut ErrorInfo> = Vec::new();
        if let Some(task) = task {
            let TaskStatus {
                name,
                kind,
                mode,
                output,
                code,
                message,
                reason,
                result_message,
                ..
            } = &mut **task;
            [name, kind, mode, code, message, reason, result_message]
                .into_iter()
                .flatten()
                .for_each(&mut *text);
            if let Some(output) = output {
                value(output);
            }
        }
        if let Some(turn) = &mut self.turn {
            if let Some(model) = &mut turn.model {
                text(model);
            }
            errors.extend(turn.error.as_mut());
        }
        errors.extend(session.and_then(|s| s.error.as_mut()));
        for error in errors {
            text(&mut error.code);
            text(&mut error.message);
        }
    }
}

fn to_value<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// A background task's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskState {
    /// Started (or announced by a receipt), not settled yet.
    Working,
    /// Finished with a result.
    Completed,
    /// Finished with an error (`code`, `message`).
    Failed,
    /// Stopped by a cancel (`reason` says why when known).
    Cancelled,
    /// Moved to the background mid-call (steering or timeout); still working.
    Detached,
}

/// What became of a call's background task ([`TASK`]).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TaskStatus {
    /// Current state.
    pub status: Option<TaskState>,
    /// eve's task id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_id: Option<String>,
    /// Task name (agent or workflow name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `agent`, `workflow`, `tool`, …
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// `foreground`/`background` or `attached`/`detached`, as stored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// The task's output once completed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
    /// Error code of a failed task (`TIMED_OUT`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// Error message of a failed task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Why it was detached or cancelled (`steer`, `timeout`, `task_cancel`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The task stopped taking input (`task.ended`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ended: bool,
    /// The task runs on a remote agent.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub remote: bool,
    /// The result reached the model (a `task.result` input or a wait call's result).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub delivered: bool,
    /// The text of the `task.result` input that delivered it, when there was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_message: Option<String>,
    /// Questions or approvals the task asked for.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub input_requests: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// How a turn ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnEnd {
    /// Ended normally.
    Completed,
    /// Ended with an error (see [`TurnInfo::error`]).
    Failed,
    /// Cancelled (not a failure).
    Cancelled,
}

/// An error as eve reports it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ErrorInfo {
    /// Machine-readable code (`MODEL_CALL_FAILED`, …); may be empty.
    #[serde(default)]
    pub code: String,
    /// Human-readable message.
    #[serde(default)]
    pub message: String,
}

/// Per-turn facts ([`TURN`]).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TurnInfo {
    /// The source's turn id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_id: Option<String>,
    /// The model of the turn's latest step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Input tokens summed over the turn's steps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    /// Output tokens summed over the turn's steps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
    /// Of the input tokens, those read from the prompt cache (agent transcripts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_read_tokens: Option<u64>,
    /// Of the input tokens, those written to the prompt cache (Claude Code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_write_tokens: Option<u64>,
    /// Cost in USD summed over the steps that reported one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<f64>,
    /// The turn is held open, waiting on tasks or a question; it continues later.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub held: bool,
    /// The turn's (or its last step's) failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorInfo>,
    /// When the turn ended, as the source stated it (Codex's
    /// `task_complete`): its duration ends there rather than at its last step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended_at: Option<String>,
    /// How the turn ended; absent while it runs or is held.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<TurnEnd>,
}

/// How the session ended ([`SESSION`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SessionOutcome {
    /// The session completed.
    Completed,
    /// The session failed (see [`SessionEnd::error`]).
    Failed,
}

/// The end of a session ([`SESSION`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionEnd {
    /// Completed or failed.
    pub outcome: SessionOutcome,
    /// The failure, for a failed session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorInfo>,
}

/// The event's facts, when it has any.
fn facts(event: &Event) -> Option<&Facts> {
    event.facts.as_deref()
}

/// Whether the event is marked as its turn's final reply.
pub fn final_reply(event: &Event) -> bool {
    facts(event).is_some_and(|f| f.final_reply)
}

/// How often the call was attempted (1 when not marked).
pub fn attempts(event: &Event) -> u32 {
    facts(event).map_or(1, |f| f.attempts.max(1))
}

/// The call's background task, when it has one.
pub fn task(event: &Event) -> Option<TaskStatus> {
    facts(event)?.rare.as_deref()?.task.as_deref().cloned()
}

/// The turn's facts, on a `turn_start`.
pub fn turn_info(event: &Event) -> Option<TurnInfo> {
    facts(event)?.turn.as_deref().cloned()
}

/// The source's turn id among a `turn_start`'s facts, read in place: the
/// raw view asks it of every turn at each update, and [`turn_info`] copies
/// all the facts.
pub fn turn_id(event: &Event) -> Option<&str> {
    facts(event)?.turn.as_ref()?.turn_id.as_deref()
}

/// Whether a `chat_request` arrived mid-turn.
pub fn steering(event: &Event) -> bool {
    facts(event).is_some_and(|f| f.steering)
}

/// Whether a retry replaced this event (hide or dim it).
pub fn superseded(event: &Event) -> bool {
    facts(event).is_some_and(|f| f.superseded)
}

/// Whether this is text of a step that never completed.
#[cfg(any(test, feature = "internals"))]
pub fn interrupted(event: &Event) -> bool {
    facts(event).is_some_and(|f| f.interrupted)
}

/// The stated outcome of a tool result or inquiry answer.
pub fn outcome(event: &Event) -> Option<&str> {
    facts(event)?.rare.as_deref()?.outcome.as_deref()
}

/// Whether a tool result says the call was refused (not a failure).
pub fn refused(event: &Event) -> bool {
    outcome(event) == Some(REFUSED)
}

/// The reason given for refusing a call, when there was one.
pub fn refusal_reason(event: &Event) -> Option<&str> {
    facts(event)?.rare.as_deref()?.reason.as_deref()
}

/// Marks a tool result as a refused call, with the reason given; returns
/// whether it changed. The one call a reader makes for a refusal.
pub fn set_refused(event: &mut Event, reason: Option<&str>) -> bool {
    let mut changed = set_value(event, OUTCOME, REFUSED);
    if let Some(reason) = reason.map(str::trim).filter(|r| !r.is_empty()) {
        changed |= set_value(event, REASON, reason);
    }
    changed
}

/// Stores what a call did (its subject), on its request; returns whether
/// it changed. Blank text stores nothing.
pub fn set_subject(event: &mut Event, subject: &str) -> bool {
    let subject = subject.trim();
    !subject.is_empty() && set_value(event, SUBJECT, subject)
}

/// What a call did, in a few words, when its reader said.
pub fn subject(event: &Event) -> Option<&str> {
    facts(event)?.subject.as_deref()
}

/// What a well-known tool's call says, when its reader stored it
/// ([`crate::model::call_view::of`] copies it).
pub fn call_view(event: &Event) -> Option<&CallView> {
    facts(event)?.call_view.as_deref()
}

/// The call an inquiry is about.
pub fn call_id(event: &Event) -> Option<&str> {
    facts(event)?.call_id.as_deref()
}

/// How the session ended, on the turn that carries it.
#[cfg(any(test, feature = "internals"))]
pub fn session_end(event: &Event) -> Option<SessionEnd> {
    facts(event)?.rare.as_deref()?.session.as_deref().cloned()
}

/// Where the event's images are in its stored line (none for most): an
/// export embeds them, which only the program has.
#[cfg(feature = "cli")]
pub fn images(event: &Event) -> &[ImageAt] {
    facts(event)
        .and_then(|facts| facts.rare.as_deref())
        .map_or(&[], |rare| rare.images.as_slice())
}

/// Stores where the event's images are; returns whether it changed.
pub fn set_images(event: &mut Event, images: Vec<ImageAt>) -> bool {
    change(event, |facts| replace(&mut facts.rare_mut().images, images))
}

/// Sets (`true`) or clears (`false`) a yes/no fact; returns whether it
/// changed.
pub fn set_flag(event: &mut Event, key: Flag, on: bool) -> bool {
    change(event, |facts| replace(key.slot(facts), on))
}

/// Sets a fact to `value`; returns whether it changed.
pub fn set_value<T: ?Sized>(event: &mut Event, key: Key<T>, value: &T) -> bool {
    change(event, |facts| (key.set)(facts, value))
}

/// Edits a `turn_start`'s [`TURN`] facts in place, made when it has none;
/// `edit` says whether it changed them. A reader updates its turn's usage
/// at every response: reading the facts ([`turn_info`]) and setting them
/// back ([`set_value`]) copied them twice each time.
pub fn edit_turn(event: &mut Event, edit: impl FnOnce(&mut TurnInfo) -> bool) -> bool {
    change(event, |facts| {
        let made = facts.turn.is_none();
        let changed = edit(facts.turn.get_or_insert_default());
        if made && !changed {
            facts.turn = None;
        }
        changed
    })
}

/// Applies `set` to the event's facts, made when it has none and dropped
/// when none is left; returns what `set` says (whether it changed them).
fn change(event: &mut Event, set: impl FnOnce(&mut Facts) -> bool) -> bool {
    let facts = event.facts.get_or_insert_default();
    let changed = set(facts);
    facts.tidy();
    if facts.is_empty() {
        event.facts = None;
    }
    changed
}


#[cfg(test)]
mod tests;
