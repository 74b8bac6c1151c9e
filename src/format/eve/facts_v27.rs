//! Generation B (v27) facts and progress records → canonical events, per
//! eve-format §3 and §13: `call.requested`/`call.settled` are the call,
//! `content.completed` is speech (`phase: "reply"` the final reply),
//! `turn.settled` ends the turn, `model.settled` `abandoned` supersedes a run.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::builder::{Builder, CallResult, Stamp};
use super::events_v26::answer_type;
use super::text;
use crate::model::facts::{SessionOutcome, TaskState, TurnEnd};
use crate::model::{ChatResponse, Content, EventKind, InProgress, InProgressKind};

fn str_of<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

fn nested<'a>(v: &'a Value, outer: &str, inner: &str) -> Option<&'a str> {
    v.get(outer).and_then(|o| str_of(o, inner))
}

#[derive(Debug, Default)]
struct Run {
    turn: Option<String>,
    indices: Vec<usize>,
    settled: bool,
}

/// What the v27 mapping remembers between lines.
#[derive(Debug, Default)]
pub(super) struct State {
    runs: HashMap<String, Run>,
    /// partId → (event index, turn).
    parts: HashMap<String, (usize, Option<String>)>,
    /// partId → (kind, runId) from a delta's announcing record.
    part_kinds: HashMap<String, (Option<String>, Option<String>)>,
    /// `session.ended` was read: nothing after it counts.
    pub(super) ended: bool,
}

/// The retryable unit of v27: a turn's model runs (a retried run replaces
/// the abandoned one's blocks).
fn turn_group(turn: Option<&str>) -> String {
    format!("turn:{}", turn.unwrap_or(""))
}

impl State {
    fn run_turn(&self, run: Option<&str>) -> Option<String> {
        run.and_then(|r| self.runs.get(r))
            .and_then(|r| r.turn.clone())
    }
}

/// Maps one v27 fact onto the builder.
pub(super) fn fact(
    b: &mut Builder,
    st: &mut State,
    kind: &str,
    data: &Value,
    scope: &Value,
    stamp: &Stamp,
) {
    let scope_turn = str_of(scope, "turnId");
    match kind {
        "session.ended" => {
            let outcome = if str_of(data, "outcome") == Some("failed") {
                SessionOutcome::Failed
            } else {
                SessionOutcome::Completed
            };
            b.end_session(outcome, text::error_info(data.get("error")), stamp);
            st.ended = true;
        }
        "delivery.consumed" => {
            let parts = data.get("parts").and_then(Value::as_array);
            let content = text::parts_text(parts.map_or(&[][..], Vec::as_slice));
            if !content.is_empty() {
                let turn = b.turn_of(str_of(data, "turnId").or(scope_turn));
                b.chat_request(turn.as_deref(), content, stamp);
            }
        }
        "turn.paused" | "turn.resumed" | "turn.settled" => {
            if let Some(turn) = b.turn_of(str_of(data, "turnId").or(scope_turn)) {
                turn_change(b, st, kind, data, &turn);
            }
        }
        "model.requested" | "model.started" => {
            let Some(run) = str_of(data, "runId") else {
                return;
            };
            let owner = nested(data, "owner", "turnId").or(scope_turn);
            let entry = st.runs.entry(run.to_string()).or_default();
            if entry.turn.is_none() {
                entry.turn = b.turn_of(owner);
            }
            if let Some(turn) = entry.turn.clone() {
                b.set_running(&turn);
                if let Some(model) = str_of(data, "modelId") {
                    b.update_turn(&turn, |info| info.model = Some(model.to_string()));
                }
            }
        }
        "model.settled" => model_settled(b, st, data, stamp),
        "content.completed" => content_completed(b, st, data, scope, stamp),
        "call.requested" => {
            let Some(call) = str_of(data, "callId") else {
                return;
            };
            let run = nested(data, "owner", "runId").or_else(|| str_of(scope, "runId"));
            let turn = st.run_turn(run).or_else(|| b.turn_of(scope_turn));
            let name = nested(data, "capability", "name").unwrap_or("tool");
            let input = data
                .get("input")
                .or_else(|| data.get("inputRef"))
                .cloned()
                .unwrap_or(json!({}));
            let index = b.request_call(&turn_group(turn.as_deref()), call, name, input, stamp, 0);
            if let Some(r) = run.and_then(|r| st.runs.get_mut(r)) {
                r.indices.push(index);
            }
            b.clear_progress(&format!("input:{call}"));
        }
        "call.started" => {
            if let (Some(call), Some(task)) = (str_of(data, "callId"), str_of(data, "taskId")) {
                b.update_task(Some(call), Some(task), |t| {
                    t.status.get_or_insert(TaskState::Working);
                });
            }
        }
        "call.settled" => call_settled(b, data, stamp),
        "interaction.opened" => interaction_opened(b, data, stamp),
        "interaction.settled" => {
            if let Some(id) = str_of(data, "interactionId") {
                let outcome = str_of(data, "outcome").unwrap_or("accepted");
                b.inquiry_response(id, outcome, data.get("response"), stamp, 0);
            }
        }
        "usage.recorded" => {
            let run = nested(data, "owner", "runId");
            let turn = st.run_turn(run).or_else(|| scope_turn.map(str::to_string));
            if let (Some(turn), Some(usage)) = (turn, data.get("usage")) {
                b.add_usage(&turn, usage);
            }
        }
        // delivery.admitted/settled, response.*, child.opened, context.*:
        // raw view only.
        _ => {}
    }
}

fn turn_change(b: &mut Builder, st: &State, kind: &str, data: &Value, turn: &str) {
    match kind {
        "turn.paused" => b.hold(turn, false),
        "turn.resumed" => b.update_turn(turn, |info| info.held = false),
        _ => {
            let end = match str_of(data, "outcome") {
                Some("failed") => TurnEnd::Failed,
                Some("cancelled") => TurnEnd::Cancelled,
                _ => TurnEnd::Completed,
            };
            let reply = data.get("reply").and_then(Value::as_array);
            for part in reply.into_iter().flatten().filter_map(Value::as_str) {
                if let Some((index, part_turn)) = st.parts.get(part) {
                    b.mark_final(*index, part_turn.as_deref().or(Some(turn)));
                }
            }
            b.end_turn(turn, end, text::error_info(data.get("error")));
        }
    }
}

fn model_settled(b: &mut Builder, st: &mut State, data: &Value, stamp: &Stamp) {
    let Some(run_id) = str_of(data, "runId") else {
        return;
    };
    let outcome = str_of(data, "outcome").unwrap_or("completed");
    let run = st.runs.entry(run_id.to_string()).or_default();
    if run.settled {
        return; // first terminal wins
    }
    run.settled = true;
    let turn = run.turn.clone();
    let indices = run.indices.clone();
    let group = turn_group(turn.as_deref());
    let progress = b.take_progress(|p| p.run_id.as_deref() == Some(run_id));
    match outcome {
        "abandoned" => b.supersede(&group, &indices),
        "failed" | "interrupted" => {
            if let Some(p) = progress {
                b.keep_interrupted(p, &group, stamp);
            }
            if outcome == "failed"
                && let Some(t) = &turn
            {
                let error = text::error_info(data.get("error"));
                b.update_turn(t, |info| info.error = error);
            }
        }
        _ => {}
    }
}

fn content_completed(b: &mut Builder, st: &mut State, data: &Value, scope: &Value, stamp: &Stamp) {
    let Some(part) = str_of(data, "partId") else {
        return;
    };
    let run_id = str_of(data, "runId").or_else(|| str_of(scope, "runId"));
    if run_id.is_some_and(|r| st.runs.get(r).is_some_and(|r| r.settled)) {
        return; // after its run's terminal: an abandoned leftover
    }
    let turn = st
        .run_turn(run_id)
        .or_else(|| b.turn_of(str_of(scope, "turnId")));
    let kind = str_of(data, "kind").unwrap_or("text");
    let value = data.get("value");
    let reply = str_of(data, "phase") == Some("reply");
    let fallback = || {
        str_of(data, "fallbackText")
            .or_else(|| nested(data, "valueRef", "preview"))
            .map(str::to_string)
    };
    let (response, final_reply) = match kind {
        "text" => {
            let text = match value {
                Some(Value::String(s)) => Some(s.clone()).filter(|s| !text::is_silence_marker(s)),
                Some(Value::Null) => None,
                _ => fallback(),
            };
            (ChatResponse::Message(text), reply)
        }
        "reasoning" => {
            let text = value
                .and_then(Value::as_str)
                .map(str::to_string)
                .or_else(fallback)
                .unwrap_or_default();
            (ChatResponse::Reasoning(text), false)
        }
        "result" => (
            ChatResponse::Data(Box::new(value.cloned().unwrap_or(Value::Null))),
            reply,
        ),
        _ => match fallback() {
            Some(text) => (ChatResponse::Message(Some(text)), reply),
            None => return, // a file or unknown kind without text: raw view only
        },
    };
    let mut event = stamp.event(0, EventKind::ChatResponse(response));
    if data.get("interrupted").and_then(Value::as_bool) == Some(true) {
        crate::model::facts::set_flag(&mut event, crate::model::facts::INTERRUPTED, true);
    }
    let group = turn_group(turn.as_deref());
    let index = b.speech(&group, turn.as_deref(), event, final_reply, false);
    if let Some(r) = run_id {
        st.runs
            .entry(r.to_string())
            .or_default()
            .indices
            .push(index);
    }
    st.parts.insert(part.to_string(), (index, turn));
    b.clear_progress(&format!("part:{part}"));
}

fn call_settled(b: &mut Builder, data: &Value, stamp: &Stamp) {
    let Some(call) = str_of(data, "callId") else {
        return;
    };
    let outcome = str_of(data, "outcome").unwrap_or("completed");
    let mut output = data
        .get("output")
        .or_else(|| data.get("outputRef"))
        .cloned();
    if output.is_none()
        && let Some(other) = nested(data, "outputOf", "callId")
    {
        output = b.call_output(other).map(|c| match c {
            Content::Text(t) => Value::from(t),
            Content::Blocks(_) => Value::from(c.plain_text().into_owned()),
        });
    }
    let flagged = output
        .as_ref()
        .and_then(|o| o.get("isError"))
        .and_then(Value::as_bool)
        == Some(true);
    let mut error = text::error_info(data.get("error"));
    if error.is_none()
        && let Some(reason) = str_of(data, "reason")
    {
        error = Some(crate::model::facts::ErrorInfo {
            code: String::new(),
            message: reason.to_string(),
        });
    }
    let result = CallResult {
        output,
        is_error: outcome != "completed" || flagged,
        outcome: outcome.to_string(),
        error,
    };
    b.respond_call(call, None, result, stamp, true);
}

fn interaction_opened(b: &mut Builder, data: &Value, stamp: &Stamp) {
    let Some(id) = str_of(data, "interactionId") else {
        return;
    };
    let request = data.get("request").unwrap_or(&Value::Null);
    let subject = data.get("subject").unwrap_or(&Value::Null);
    let task = str_of(subject, "taskId");
    let call = str_of(subject, "callId")
        .map(str::to_string)
        .or_else(|| task.and_then(|t| b.task_call(t)));
    let kind = str_of(request, "kind").unwrap_or("question");
    let source = match kind {
        "approval" => json!({
            "source": "tool",
            "name": call.as_deref().and_then(|c| b.call_name(c)).unwrap_or("tool"),
        }),
        "question" => json!({"source": "assistant"}),
        other => json!({"source": "other", "name": other}),
    };
    let options = request.get("options").and_then(Value::as_array);
    let (answer, answer_type) = answer_type(
        kind == "approval" || str_of(request, "display") == Some("confirmation"),
        options,
    );
    let prompt = str_of(request, "prompt")
        .or_else(|| str_of(request, "title"))
        .unwrap_or("");
    let question = json!({"text": prompt, "answer_type": answer_type});
    b.inquiry_request(id, source, question, answer, call, stamp, 0);
    if task.is_some() {
        b.update_task(None, task, |t| t.input_requests += 1);
    }
}

/// Maps one v27 progress record onto the live streaming text.
pub(super) fn progress(b: &mut Builder, st: &mut State, kind: &str, data: &Value, scope: &Value) {
    match kind {
        "content.delta" => {
            let (Some(part), Some(delta)) = (str_of(data, "partId"), str_of(data, "delta")) else {
                return;
            };
            if st.parts.contains_key(part) {
                return; // completed already
            }
            let announced = st.part_kinds.entry(part.to_string()).or_default();
            if let Some(k) = str_of(data, "kind") {
                announced.0 = Some(k.to_string());
            }
            if let Some(r) = str_of(scope, "runId") {
                announced.1 = Some(r.to_string());
            }
            let (part_kind, run) = announced.clone();
            if run
                .as_deref()
                .is_some_and(|r| st.runs.get(r).is_some_and(|r| r.settled))
            {
                return; // progress of a closed run is dropped
            }
            let progress_kind = if part_kind.as_deref() == Some("reasoning") {
                InProgressKind::Reasoning
            } else {
                InProgressKind::Message
            };
            let turn = st
                .run_turn(run.as_deref())
                .or_else(|| b.turn_of(str_of(scope, "turnId")));
            let make = || InProgress {
                kind: progress_kind,
                text: String::new(),
                turn_id: turn,
                call_id: None,
                tool_name: None,
            };
            b.delta(format!("part:{part}"), run, make, delta, false);
        }
        "call.input" | "call.progress" => {
            let Some(call) = str_of(data, "callId") else {
                return;
            };
            let (key, progress_kind, delta, replace) = if kind == "call.input" {
                let Some(d) = str_of(data, "delta") else {
                    return;
                };
                (
                    format!("input:{call}"),
                    InProgressKind::ToolInput,
                    d.to_string(),
                    false,
                )
            } else {
                (
                    format!("output:{call}"),
                    InProgressKind::ToolOutput,
                    text::output_text(data.get("output")),
                    true,
                )
            };
            let tool = str_of(data, "name")
                .or_else(|| b.call_name(call))
                .map(str::to_string);
            let turn = b.turn_of(str_of(scope, "turnId"));
            let make = || InProgress {
                kind: progress_kind,
                text: String::new(),
                turn_id: turn,
                call_id: Some(call.to_string()),
                tool_name: tool,
            };
            let run = str_of(scope, "runId").map(str::to_string);
            b.delta(key, run, make, &delta, replace);
        }
        _ => {}
    }
}
