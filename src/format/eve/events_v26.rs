//! Generation A events (stream versions 16–26, and v26 records riding inside
//! v27 lines) → canonical events, per eve-format §2 and §13.
//!
//! `session.started`, `turn.started`, `task.started` and `task.ended` exist in
//! both vocabularies; their handlers here take either shape.

use serde_json::{Value, json};

use super::builder::{AnswerKind, Builder, CallResult, Stamp};
use super::text;
use crate::model::facts::{SessionOutcome, TaskState, TurnEnd};
use crate::model::{ChatResponse, EventKind, InProgress, InProgressKind};

fn str_of<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// The retryable unit of gen A: one model step of one turn (§7).
pub(super) fn step_group(turn: Option<&str>, step: Option<i64>) -> String {
    format!("step:{}/{}", turn.unwrap_or(""), step.unwrap_or(-1))
}

/// Maps one gen A event onto the builder.
pub(super) fn apply(b: &mut Builder, kind: &str, data: &Value, stamp: &Stamp) {
    let turn = b.turn_of(str_of(data, "turnId"));
    let turn = turn.as_deref();
    let step = data.get("stepIndex").and_then(Value::as_i64);
    let group = step_group(turn, step);
    match kind {
        "session.completed" => b.end_session(SessionOutcome::Completed, None, stamp),
        "session.failed" => {
            b.end_session(SessionOutcome::Failed, text::error_info(Some(data)), stamp);
        }
        "turn.started" => {
            if let Some(t) = str_of(data, "turnId") {
                b.start_turn(t, stamp);
            }
        }
        "turn.completed" | "turn.waiting" | "turn.failed" | "turn.cancelled" => {
            turn_end(b, kind, data, turn);
        }
        "message.received" => message_received(b, data, turn, stamp),
        "message.appended" | "reasoning.appended" => appended(b, kind, data, turn, &group),
        "message.completed" | "reasoning.completed" | "result.completed" => {
            completed(b, kind, data, turn, &group, stamp);
        }
        "step.started" => {
            if let Some(t) = turn {
                b.set_running(t);
                if let Some(model) = str_of(data, "modelId") {
                    b.update_turn(t, |info| info.model = Some(model.to_string()));
                }
            }
            if b.begin_attempt(&group) {
                // The retry's deltas start over: the interrupted attempt's are orphans.
                b.take_progress(|p| p.key.ends_with(&group));
            }
        }
        "step.completed" => {
            if let (Some(t), Some(usage)) = (turn, data.get("usage")) {
                b.add_usage(t, usage);
            }
        }
        "step.failed" => {
            if let Some(t) = turn {
                let error = text::error_info(Some(data));
                b.update_turn(t, |info| info.error = error);
            }
            if let Some(p) = b.take_progress(|p| p.key.ends_with(&group)) {
                b.keep_interrupted(p, &group, stamp);
            }
        }
        "action.input.appended" => {
            let (Some(call), Some(delta)) =
                (str_of(data, "callId"), str_of(data, "inputTextDelta"))
            else {
                return;
            };
            let tool = str_of(data, "toolName").map(str::to_string);
            let turn_id = turn.map(str::to_string);
            let make = || InProgress {
                kind: InProgressKind::ToolInput,
                text: String::new(),
                turn_id,
                call_id: Some(call.to_string()),
                tool_name: tool,
            };
            b.delta(format!("input:{call}"), None, make, delta, false);
        }
        "actions.requested" => {
            let actions = data.get("actions").and_then(Value::as_array);
            for (k, action) in actions.into_iter().flatten().enumerate() {
                let Some(call) = str_of(action, "callId") else {
                    continue;
                };
                let name = action_name(action);
                let input = action.get("input").cloned().unwrap_or(json!({}));
                b.request_call(&group, call, &name, input, stamp, k);
                b.clear_progress(&format!("input:{call}"));
            }
        }
        "action.partial" => {
            let result = data.get("result").unwrap_or(&Value::Null);
            let Some(call) = str_of(result, "callId") else {
                return;
            };
            let snapshot = text::output_text(result.get("output"));
            let turn_id = turn.map(str::to_string);
            let tool = str_of(result, "toolName").map(str::to_string);
            let make = || InProgress {
                kind: InProgressKind::ToolOutput,
                text: String::new(),
                turn_id,
                call_id: Some(call.to_string()),
                tool_name: tool,
            };
            b.delta(format!("output:{call}"), None, make, &snapshot, true);
        }
        "action.result" => action_result(b, data, stamp),
        "task.started" | "agent.started" => task_started(b, kind, data),
        "task.detached" => {
            let reason = str_of(data, "reason").map(str::to_string);
            let call = str_of(data, "callId");
            let settled = call.is_some_and(|c| b.task_settled(c));
            b.update_task(call, str_of(data, "taskId"), |t| {
                if !settled {
                    t.status = Some(TaskState::Detached);
                }
                t.reason = reason;
            });
        }
        "task.settled" => task_settled(b, data),
        "task.ended" => task_ended(b, data),
        "input.requested" => input_requested(b, data, stamp),
        "input.resolved" => {
            let resolutions = data.get("resolutions").and_then(Value::as_array);
            for (k, r) in resolutions.into_iter().flatten().enumerate() {
                if let Some(id) = str_of(r, "requestId") {
                    let outcome = str_of(r, "outcome").unwrap_or("answered");
                    b.inquiry_response(id, outcome, r.get("response"), stamp, k);
                }
            }
        }
        // session.started/waiting, approvals, sign-ins, compaction, legacy
        // subagent.*: raw view only.
        _ => {}
    }
}

fn turn_end(b: &mut Builder, kind: &str, data: &Value, turn: Option<&str>) {
    let Some(t) = turn else {
        return;
    };
    match kind {
        "turn.completed" if data.get("held").and_then(Value::as_bool) == Some(true) => {
            b.hold(t, true);
        }
        "turn.waiting" => b.hold(t, true),
        "turn.completed" => b.end_turn(t, TurnEnd::Completed, None),
        "turn.failed" => b.end_turn(t, TurnEnd::Failed, text::error_info(Some(data))),
        _ => b.end_turn(t, TurnEnd::Cancelled, None),
    }
}

fn message_received(b: &mut Builder, data: &Value, turn: Option<&str>, stamp: &Stamp) {
    let message = str_of(data, "message");
    if str_of(data, "kind") == Some("task.result") {
        // Not speech: the delivered result of each task, attached to its call.
        let tasks = data.get("taskIds").and_then(Value::as_array);
        for task in tasks.into_iter().flatten().filter_map(Value::as_str) {
            let block = message.map(|m| text::task_result_block(m, task));
            b.update_task(None, Some(task), |t| {
                t.delivered = true;
                t.result_message = block;
            });
        }
        return;
    }
    let content = match message {
        Some(m) => m.to_string(),
        None => {
            let parts = data.get("parts").and_then(Value::as_array);
            text::parts_text(parts.map_or(&[][..], Vec::as_slice))
        }
    };
    b.chat_request(turn, content, stamp);
}

fn appended(b: &mut Builder, kind: &str, data: &Value, turn: Option<&str>, group: &str) {
    let (prefix, field, progress_kind) = if kind == "message.appended" {
        ("message", "message", InProgressKind::Message)
    } else {
        ("reasoning", "reasoning", InProgressKind::Reasoning)
    };
    // v25+ carries only the delta; v21–v24 add the cumulative text (`…SoFar`),
    // one v25 revision an offset: the delta is what is appended either way.
    let (delta, replace) = match (
        str_of(data, &format!("{field}Delta")),
        str_of(data, &format!("{field}SoFar")),
    ) {
        (Some(d), _) => (d, false),
        (None, Some(so_far)) => (so_far, true),
        (None, None) => return,
    };
    let turn_id = turn.map(str::to_string);
    let make = || InProgress {
        kind: progress_kind,
        text: String::new(),
        turn_id,
        call_id: None,
        tool_name: None,
    };
    b.delta(format!("{prefix}:{group}"), None, make, delta, replace);
}

fn completed(
    b: &mut Builder,
    kind: &str,
    data: &Value,
    turn: Option<&str>,
    group: &str,
    stamp: &Stamp,
) {
    let held = turn.is_some_and(|t| b.is_held(t));
    let (response, final_reply, key) = match kind {
        "message.completed" => {
            let message = str_of(data, "message")
                .filter(|m| !text::is_silence_marker(m))
                .map(str::to_string);
            let final_reply = str_of(data, "finishReason") != Some("tool-calls")
                && data.get("interim").and_then(Value::as_bool) != Some(true)
                && !held;
            (ChatResponse::Message(message), final_reply, "message")
        }
        "reasoning.completed" => {
            let reasoning = str_of(data, "reasoning").unwrap_or("").to_string();
            (ChatResponse::Reasoning(reasoning), false, "reasoning")
        }
        _ => {
            let result = data.get("result").cloned().unwrap_or(Value::Null);
            (ChatResponse::Data(Box::new(result)), !held, "")
        }
    };
    let event = stamp.event(0, EventKind::ChatResponse(response));
    b.speech(group, turn, event, final_reply, true);
    b.clear_progress(&format!("{key}:{group}"));
}

/// The displayed name of a requested action (`RuntimeActionRequest`).
fn action_name(action: &Value) -> String {
    ["toolName", "subagentName", "remoteAgentName", "name"]
        .iter()
        .find_map(|k| str_of(action, k))
        .map(str::to_string)
        .unwrap_or_else(|| match str_of(action, "kind") {
            Some("load-skill") => "load_skill".to_string(),
            Some(other) => other.to_string(),
            None => "tool".to_string(),
        })
}

fn action_result(b: &mut Builder, data: &Value, stamp: &Stamp) {
    let result = data.get("result").unwrap_or(&Value::Null);
    let Some(call) = str_of(result, "callId") else {
        return;
    };
    let status = str_of(data, "status").unwrap_or("completed");
    let output = result.get("output");
    let is_error = matches!(status, "failed" | "rejected")
        || result.get("isError").and_then(Value::as_bool) == Some(true);
    let name = str_of(result, "toolName").or_else(|| str_of(result, "subagentName"));
    // A backgrounded call answers with a receipt; a wait call with the settled task.
    if let Some(task) = output.and_then(|o| str_of(o, "taskId")) {
        match output.and_then(|o| str_of(o, "status")) {
            Some("working") => b.update_task(Some(call), Some(task), |t| {
                t.status.get_or_insert(TaskState::Working);
            }),
            Some("settled") => b.update_task(None, Some(task), |t| t.delivered = true),
            _ => {}
        }
    }
    let result = CallResult {
        output: output.cloned(),
        is_error,
        outcome: status.to_string(),
        error: text::error_info(data.get("error")),
    };
    b.respond_call(call, name, result, stamp, false);
}

fn task_started(b: &mut Builder, kind: &str, data: &Value) {
    let call = str_of(data, "callId").or_else(|| {
        data.get("startedBy")
            .and_then(|s| s.get("callId"))
            .and_then(Value::as_str)
    });
    let task = str_of(data, "taskId");
    let settled = call.is_some_and(|c| b.task_settled(c));
    let remote = data.get("remote").is_some()
        || data.get("child").is_some_and(|c| c.get("remote").is_some());
    let name = str_of(data, "name").map(str::to_string);
    let task_kind = str_of(data, "kind").map(str::to_string);
    let mode = str_of(data, "mode").map(str::to_string);
    let agent = kind == "agent.started";
    b.update_task(call, task, |t| {
        if !settled && !agent && t.status != Some(TaskState::Detached) {
            t.status = Some(TaskState::Working);
        }
        t.status.get_or_insert(TaskState::Working);
        if name.is_some() {
            t.name = name;
        }
        if task_kind.is_some() && !agent {
            t.kind = task_kind;
        }
        if mode.is_some() {
            t.mode = mode;
        }
        t.remote |= remote;
    });
}

fn task_settled(b: &mut Builder, data: &Value) {
    let state = match str_of(data, "status") {
        Some("completed") => TaskState::Completed,
        Some("failed") => TaskState::Failed,
        Some("cancelled") => TaskState::Cancelled,
        _ => return,
    };
    let error = text::error_info(data.get("error"));
    let reason = data
        .get("cancel")
        .and_then(|c| str_of(c, "reason"))
        .map(str::to_string);
    let output = data.get("output").cloned();
    b.update_task(str_of(data, "callId"), str_of(data, "taskId"), |t| {
        t.status = Some(state);
        if output.is_some() {
            t.output = output;
        }
        if let Some(e) = error {
            t.code = Some(e.code).filter(|c| !c.is_empty());
            t.message = Some(e.message).filter(|m| !m.is_empty());
        }
        if reason.is_some() {
            t.reason = reason;
        }
    });
}

/// `task.ended`: v25 `{taskId}` (stops taking input), v27 `{taskId, outcome, reason?, error?}`.
fn task_ended(b: &mut Builder, data: &Value) {
    let state = match str_of(data, "outcome") {
        Some("completed") => Some(TaskState::Completed),
        Some("failed") => Some(TaskState::Failed),
        Some("cancelled") => Some(TaskState::Cancelled),
        _ => None,
    };
    let error = text::error_info(data.get("error"));
    let reason = str_of(data, "reason").map(str::to_string);
    b.update_task(None, str_of(data, "taskId"), |t| {
        t.ended = true;
        if let Some(s) = state {
            t.status = Some(s);
        }
        if let Some(e) = error {
            t.code = Some(e.code).filter(|c| !c.is_empty());
            t.message = Some(e.message).filter(|m| !m.is_empty());
        }
        if reason.is_some() {
            t.reason = reason;
        }
    });
}

fn input_requested(b: &mut Builder, data: &Value, stamp: &Stamp) {
    let task = str_of(data, "taskId");
    let requests = data.get("requests").and_then(Value::as_array);
    for (k, request) in requests.into_iter().flatten().enumerate() {
        let Some(id) = str_of(request, "requestId") else {
            continue;
        };
        let action = request.get("action").unwrap_or(&Value::Null);
        let kind = str_of(request, "kind").unwrap_or("question");
        let source = match kind {
            "tool-approval" => json!({
                "source": "tool",
                "name": str_of(action, "toolName").unwrap_or("tool"),
            }),
            "question" => json!({"source": "assistant"}),
            other => json!({"source": "other", "name": other}),
        };
        let options = request.get("options").and_then(Value::as_array);
        let (answer, answer_type) = answer_type(
            kind == "tool-approval" || str_of(request, "display") == Some("confirmation"),
            options,
        );
        let question = json!({
            "text": str_of(request, "prompt").unwrap_or(""),
            "answer_type": answer_type,
        });
        let call = task
            .and_then(|t| b.task_call(t))
            .or_else(|| str_of(data, "callId").map(str::to_string))
            .or_else(|| str_of(action, "callId").map(str::to_string));
        b.inquiry_request(id, source, question, answer, call, stamp, k);
        if task.is_some() {
            b.update_task(None, task, |t| t.input_requests += 1);
        }
    }
}

/// JP's `answer_type` for an eve request: a confirmation is boolean, options a select.
pub(super) fn answer_type(confirm: bool, options: Option<&Vec<Value>>) -> (AnswerKind, Value) {
    if confirm {
        return (AnswerKind::Boolean, json!({"type": "boolean"}));
    }
    match options.filter(|o| !o.is_empty()) {
        Some(options) => {
            let options: Vec<Value> = options
                .iter()
                .map(|o| {
                    let mut option = json!({"value": o.get("id").cloned().unwrap_or(Value::Null)});
                    if let Some(label) = o.get("label").or_else(|| o.get("description")) {
                        option["description"] = label.clone();
                    }
                    option
                })
                .collect();
            (
                AnswerKind::Select,
                json!({"type": "select", "options": options}),
            )
        }
        None => (AnswerKind::Text, json!({"type": "text"})),
    }
}
