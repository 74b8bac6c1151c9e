//! overhear's own metadata keys: facts a reader knows that JP's vocabulary has
//! no field for.
//!
//! JP events carry a free `metadata` map. Readers (today the eve reader) put
//! what the renderer must show but the canonical event cannot say — that a
//! message is the turn's final reply, that a call was attempted three times,
//! how its background task ended, what a turn cost — under the `overhear.*`
//! keys below. The renderer and the model read them only through the accessors
//! here, so the key names and value shapes live in one place.
//! docs/eve-mapping.md lists every key.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::event::Event;

/// `bool` on a `chat_response` (`message` or `data`): this is the turn's final
/// reply, as opposed to narration between tool calls or text of a held turn.
pub const FINAL_REPLY: &str = "overhear.final_reply";

/// `number` (≥ 2, absent means 1) on a `tool_call_request` and its
/// `tool_call_response`: how often the call with this id was requested or
/// answered (retried steps repeat a call id; it is shown once).
pub const ATTEMPTS: &str = "overhear.attempts";

/// Object ([`TaskStatus`]) on a `tool_call_request` (or, when the stream never
/// requested the call, its `tool_call_response`): the call's background task.
pub const TASK: &str = "overhear.task";

/// Object ([`TurnInfo`]) on a `turn_start`: model, tokens, cost, held state,
/// error and how the turn ended.
pub const TURN: &str = "overhear.turn";

/// `bool` on a `chat_request`: the message arrived while the turn was already
/// running (steering, or a follow-up joining a held turn).
pub const STEERING: &str = "overhear.steering";

/// `bool` on any event: an attempt that a retry replaced (a retried model step,
/// an abandoned v27 model run). Renderers hide or dim it; it is not speech.
pub const SUPERSEDED: &str = "overhear.superseded";

/// `bool` on a `chat_response`: text a failed or cancelled model step streamed
/// but never completed.
pub const INTERRUPTED: &str = "overhear.interrupted";

/// `string` on a `tool_call_response` (`completed`, `failed`, `rejected`,
/// `interrupted`, `abandoned`) or an `inquiry_response` (`answered`,
/// `approved`, `denied`, `accepted`, `declined`, …): the outcome as the source
/// stated it.
pub const OUTCOME: &str = "overhear.outcome";

/// The [`OUTCOME`] of a tool call the user (or a rule of theirs) refused: not
/// a failure of the tool. Shown as refused, with [`REASON`] when given; the
/// viewer's `x` skips it and no count of failures includes it.
pub const REFUSED: &str = "rejected";

/// `string` on a refused `tool_call_response`: the reason the user gave.
pub const REASON: &str = "overhear.reason";

/// `string` on a `tool_call_request`: what the call did, in a few words (a
/// shell call's description or command, a file tool's path, a search's
/// pattern, a sub-agent's description), for the card's header.
pub const SUBJECT: &str = "overhear.subject";

/// Object ([`crate::model::call_view::CallView`]) on a `tool_call_request`:
/// what a well-known tool's call says (a command, a diff, a checklist,
/// questions), as facts the render stage lays out.
pub const CALL_VIEW: &str = "overhear.call_view";

/// `string` on an `inquiry_request`: the id of the tool call the question is
/// about (the caller's call for a relayed child approval).
pub const CALL_ID: &str = "overhear.call_id";

/// Object ([`SessionEnd`]) on the last `turn_start`: the session ended
/// (completed, or failed with an error). A session that fails before its first
/// turn gets a `turn_start` of its own to carry it.
pub const SESSION: &str = "overhear.session";

/// The `type` of an [`EventKind::Unknown`](crate::model::EventKind::Unknown)
/// event that is a notice of the source (an interruption, an API error, a
/// compaction: `{type, level, text}`), shown as a one-line notice.
pub const NOTICE: &str = "notice";

/// The `level` of a notice that is only a note (the IDE context of a prompt,
/// a hook's outcome): shown dim, without the warning mark.
pub const NOTE: &str = "note";

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

/// What became of a call's background task (`overhear.task`).
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

/// Per-turn facts (`overhear.turn`).
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

/// How the session ended (`overhear.session`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SessionOutcome {
    /// The session completed.
    Completed,
    /// The session failed (see [`SessionEnd::error`]).
    Failed,
}

/// The end of a session (`overhear.session`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionEnd {
    /// Completed or failed.
    pub outcome: SessionOutcome,
    /// The failure, for a failed session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorInfo>,
}

fn flag(event: &Event, key: &str) -> bool {
    event.metadata.get(key).and_then(Value::as_bool) == Some(true)
}

fn object<T: serde::de::DeserializeOwned>(event: &Event, key: &str) -> Option<T> {
    event
        .metadata
        .get(key)
        .and_then(|v| serde_json::from_value(v.clone()).ok())
}

/// Whether the event is marked as its turn's final reply.
pub fn final_reply(event: &Event) -> bool {
    flag(event, FINAL_REPLY)
}

/// How often the call was attempted (1 when not marked).
pub fn attempts(event: &Event) -> u32 {
    event
        .metadata
        .get(ATTEMPTS)
        .and_then(Value::as_u64)
        .map_or(1, |n| u32::try_from(n).unwrap_or(u32::MAX).max(1))
}

/// The call's background task, when it has one.
pub fn task(event: &Event) -> Option<TaskStatus> {
    object(event, TASK)
}

/// The turn's facts, on a `turn_start`.
pub fn turn_info(event: &Event) -> Option<TurnInfo> {
    object(event, TURN)
}

/// The source's turn id among a `turn_start`'s facts, read in place: the
/// raw view asks it of every turn at each update, and [`turn_info`]
/// deserializes a copy of all the facts.
pub fn turn_id(event: &Event) -> Option<&str> {
    event.metadata.get(TURN)?.get("turn_id")?.as_str()
}

/// Whether a `chat_request` arrived mid-turn.
pub fn steering(event: &Event) -> bool {
    flag(event, STEERING)
}

/// Whether a retry replaced this event (hide or dim it).
pub fn superseded(event: &Event) -> bool {
    flag(event, SUPERSEDED)
}

/// Whether this is text of a step that never completed.
pub fn interrupted(event: &Event) -> bool {
    flag(event, INTERRUPTED)
}

/// The stated outcome of a tool result or inquiry answer.
pub fn outcome(event: &Event) -> Option<&str> {
    event.metadata.get(OUTCOME).and_then(Value::as_str)
}

/// Whether a tool result says the call was refused (not a failure).
pub fn refused(event: &Event) -> bool {
    outcome(event) == Some(REFUSED)
}

/// The reason given for refusing a call, when there was one.
pub fn refusal_reason(event: &Event) -> Option<&str> {
    event.metadata.get(REASON).and_then(Value::as_str)
}

/// Marks a tool result as a refused call, with the reason given; returns
/// whether it changed. The one call a reader makes for a refusal.
pub fn set_refused(event: &mut Event, reason: Option<&str>) -> bool {
    let mut changed = set_value(event, OUTCOME, &REFUSED);
    if let Some(reason) = reason.map(str::trim).filter(|r| !r.is_empty()) {
        changed |= set_value(event, REASON, &reason);
    }
    changed
}

/// Stores what a call did (its subject), on its request; returns whether
/// it changed. Blank text stores nothing.
pub fn set_subject(event: &mut Event, subject: &str) -> bool {
    let subject = subject.trim();
    !subject.is_empty() && set_value(event, SUBJECT, &subject)
}

/// What a call did, in a few words, when its reader said.
pub fn subject(event: &Event) -> Option<&str> {
    event.metadata.get(SUBJECT).and_then(Value::as_str)
}

/// The call an inquiry is about.
pub fn call_id(event: &Event) -> Option<&str> {
    event.metadata.get(CALL_ID).and_then(Value::as_str)
}

/// How the session ended, on the turn that carries it.
pub fn session_end(event: &Event) -> Option<SessionEnd> {
    object(event, SESSION)
}

/// Sets (`true`) or removes (`false`) a boolean key; returns whether it changed.
pub fn set_flag(event: &mut Event, key: &str, on: bool) -> bool {
    if on {
        event.metadata.insert(key.into(), Value::Bool(true)) != Some(Value::Bool(true))
    } else {
        event.metadata.remove(key).is_some()
    }
}

/// Stores a serializable value under a key; returns whether it changed.
pub fn set_value<T: Serialize>(event: &mut Event, key: &str, value: &T) -> bool {
    let Ok(value) = serde_json::to_value(value) else {
        return false;
    };
    let old = event.metadata.insert(key.into(), value.clone());
    old.as_ref() != Some(&value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::EventKind;

    fn blank() -> Event {
        Event::new(None, EventKind::TurnStart)
    }

    #[test]
    fn absent_keys_read_as_defaults() {
        let e = blank();
        assert!(!final_reply(&e));
        assert_eq!(attempts(&e), 1);
        assert!(task(&e).is_none());
        assert!(turn_info(&e).is_none());
        assert!(!steering(&e) && !superseded(&e) && !interrupted(&e));
    }

    #[test]
    fn task_round_trips_with_documented_keys() {
        let mut e = blank();
        let t = TaskStatus {
            status: Some(TaskState::Failed),
            code: Some("TIMED_OUT".into()),
            ended: true,
            ..TaskStatus::default()
        };
        assert!(set_value(&mut e, TASK, &t));
        assert!(!set_value(&mut e, TASK, &t));
        assert_eq!(
            e.metadata[TASK],
            serde_json::json!({"status": "failed", "code": "TIMED_OUT", "ended": true})
        );
        assert_eq!(task(&e), Some(t));
    }

    #[test]
    fn turn_info_serializes_snake_case() {
        let mut e = blank();
        let info = TurnInfo {
            held: true,
            ended: Some(TurnEnd::Cancelled),
            ..TurnInfo::default()
        };
        set_value(&mut e, TURN, &info);
        assert_eq!(
            e.metadata[TURN],
            serde_json::json!({"held": true, "ended": "cancelled"})
        );
        assert_eq!(turn_info(&e), Some(info));
    }

    #[test]
    fn flags_set_and_clear() {
        let mut e = blank();
        assert!(set_flag(&mut e, FINAL_REPLY, true));
        assert!(final_reply(&e));
        assert!(set_flag(&mut e, FINAL_REPLY, false));
        assert!(!final_reply(&e));
        assert!(!set_flag(&mut e, FINAL_REPLY, false));
    }
}
