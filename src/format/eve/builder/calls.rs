//! Tool calls, their background tasks and inquiries: pairing by call id,
//! attempts of a repeated id, the channel-update shape, task status.

use std::sync::Arc;

use serde_json::Value;

use super::super::text;
use super::{Builder, Slot, SlotKind, Stamp};
use crate::model::facts::{self, ErrorInfo, TaskStatus};
use crate::model::{Content, Event, EventKind};

#[derive(Debug, Default)]
pub(super) struct Call {
    pub(super) name: String,
    pub(super) request: Option<usize>,
    pub(super) response: Option<usize>,
    pub(super) requests: u32,
    pub(super) results: u32,
    /// A channel update's message (the `message` argument).
    pub(super) update: Option<String>,
    pub(super) task: Option<TaskStatus>,
    /// The outcome of the stored response.
    pub(super) outcome: Option<String>,
}

/// How an inquiry is answered, to turn eve's outcome into JP's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::format::eve) enum AnswerKind {
    Boolean,
    Select,
    Text,
}

/// A call's result as the source reported it.
#[derive(Debug, Clone, Default)]
pub(in crate::format::eve) struct CallResult {
    pub(in crate::format::eve) output: Option<Value>,
    pub(in crate::format::eve) is_error: bool,
    pub(in crate::format::eve) outcome: String,
    pub(in crate::format::eve) error: Option<ErrorInfo>,
}

impl Builder {
    /// A tool call request. A repeated call id is the same call attempted
    /// again: the request is updated in place and its attempts counted.
    /// Returns the request's index.
    pub(in crate::format::eve) fn request_call(
        &mut self,
        group: &str,
        call_id: &str,
        name: &str,
        arguments: Value,
        stamp: &Stamp,
        k: usize,
    ) -> usize {
        let update = text::is_channel_update(name)
            .then(|| arguments.get("message").and_then(Value::as_str))
            .flatten()
            .map(str::to_string);
        let call = self.calls.entry(call_id.to_string()).or_default();
        call.requests += 1;
        call.name = name.to_string();
        if update.is_some() {
            call.update = update;
        }
        let index = if let Some(index) = call.request {
            self.modify(Some(index), |e| {
                let changed = facts::set_flag(e, facts::SUPERSEDED, false);
                if let EventKind::ToolCallRequest { arguments: a, .. } = &mut e.kind
                    && **a != arguments
                {
                    *a = Arc::new(arguments);
                    return true;
                }
                changed
            });
            let g = self.groups.entry(group.to_string()).or_default();
            if let Some(pos) = g.pool.iter().position(|s| s.index == index) {
                g.pool.remove(pos);
            }
            if !g.current.iter().any(|s| s.index == index) {
                g.current.push(Slot {
                    kind: SlotKind::Request,
                    index,
                    made: 0,
                });
            }
            index
        } else {
            let event = stamp.event(
                k,
                EventKind::ToolCallRequest {
                    id: call_id.to_string(),
                    name: name.to_string(),
                    arguments: Arc::new(arguments),
                },
            );
            let index = self.push(event);
            self.calls.entry(call_id.to_string()).or_default().request = Some(index);
            let g = self.groups.entry(group.to_string()).or_default();
            g.current.push(Slot {
                kind: SlotKind::Request,
                index,
                made: 0,
            });
            self.write_task(call_id);
            index
        };
        self.write_attempts(call_id);
        if self
            .calls
            .get(call_id)
            .is_some_and(|c| c.response.is_some())
        {
            self.rewrite_response(call_id);
        }
        index
    }

    /// A tool call's result. A repeated result for a call updates the one
    /// response in place; with `first_wins`, a settled call keeps its first
    /// terminal outcome unless that was `abandoned`/`interrupted`.
    pub(in crate::format::eve) fn respond_call(
        &mut self,
        call_id: &str,
        name_hint: Option<&str>,
        result: CallResult,
        stamp: &Stamp,
        first_wins: bool,
    ) {
        let call = self.calls.entry(call_id.to_string()).or_default();
        if call.name.is_empty()
            && let Some(name) = name_hint
        {
            call.name = name.to_string();
        }
        let retryable = matches!(
            call.outcome.as_deref(),
            Some("abandoned" | "interrupted") | None
        );
        if first_wins && call.response.is_some() && !retryable {
            return;
        }
        call.results += 1;
        call.outcome = Some(result.outcome.clone());
        let content = response_content(call, &result);
        let existing = call.response;
        let apply = |e: &mut Event| {
            let mut changed = false;
            if let EventKind::ToolCallResponse {
                content: c,
                is_error: err,
                ..
            } = &mut e.kind
            {
                changed = *c != content || *err != result.is_error;
                *c = content.clone();
                *err = result.is_error;
            }
            facts::set_value(e, facts::OUTCOME, result.outcome.as_str()) || changed
        };
        if let Some(index) = existing {
            self.modify(Some(index), apply);
        } else {
            let mut event = stamp.event(
                0,
                EventKind::ToolCallResponse {
                    id: call_id.to_string(),
                    content: content.clone(),
                    is_error: result.is_error,
                },
            );
            apply(&mut event);
            let index = self.push(event);
            let call = self.calls.entry(call_id.to_string()).or_default();
            call.response = Some(index);
            if call.request.is_none() {
                self.write_task(call_id);
            }
        }
        // A call that has its result ran: it is no longer a superseded attempt.
        if !matches!(result.outcome.as_str(), "abandoned" | "interrupted") {
            let request = self.calls.get(call_id).and_then(|c| c.request);
            self.modify(request, |e| facts::set_flag(e, facts::SUPERSEDED, false));
        }
        self.write_attempts(call_id);
        self.clear_progress(&format!("output:{call_id}"));
    }

    /// Rebuilds a response's content after the request arrived late (a
    /// channel update's message is in the request).
    fn rewrite_response(&mut self, call_id: &str) {
        let Some(call) = self.calls.get(call_id) else {
            return;
        };
        let Some(update) = &call.update else {
            return;
        };
        let index = call.response;
        let update = update.clone();
        self.modify(index, |e| {
            if let EventKind::ToolCallResponse { content, .. } = &mut e.kind {
                let reply = match content {
                    Content::Text(t) => t.clone(),
                    Content::Blocks(blocks) => blocks
                        .last()
                        .and_then(|b| b.display_text())
                        .unwrap_or("")
                        .to_string(),
                };
                let new = text::update_content(Some(&update), &reply);
                if *content != new {
                    *content = new;
                    return true;
                }
            }
            false
        });
    }

    fn write_attempts(&mut self, call_id: &str) {
        let Some(call) = self.calls.get(call_id) else {
            return;
        };
        let n = call.requests.max(call.results);
        if n < 2 {
            return;
        }
        let targets = [call.request, call.response];
        for index in targets {
            self.modify(index, |e| facts::set_value(e, facts::ATTEMPTS, &n));
        }
    }

    /// The tool name of a known call.
    pub(in crate::format::eve) fn call_name(&self, call_id: &str) -> Option<&str> {
        self.calls
            .get(call_id)
            .map(|c| c.name.as_str())
            .filter(|n| !n.is_empty())
    }

    /// The stored output of a call's response, for v27 `outputOf`.
    pub(in crate::format::eve) fn call_output(&self, call_id: &str) -> Option<Content> {
        let index = self.calls.get(call_id)?.response?;
        match &self.events.get(index)?.kind {
            EventKind::ToolCallResponse { content, .. } => Some(content.clone()),
            _ => None,
        }
    }

    // ----- tasks -------------------------------------------------------

    /// Links a task id to the call it serves.
    pub(in crate::format::eve) fn link_task(&mut self, task_id: &str, call_id: &str) {
        self.task_calls
            .insert(task_id.to_string(), call_id.to_string());
    }

    /// The call a task serves.
    pub(in crate::format::eve) fn task_call(&self, task_id: &str) -> Option<String> {
        self.task_calls.get(task_id).cloned()
    }

    /// Changes the task of a call (by call id, else by task id) and writes it.
    pub(in crate::format::eve) fn update_task(
        &mut self,
        call_id: Option<&str>,
        task_id: Option<&str>,
        change: impl FnOnce(&mut TaskStatus),
    ) {
        let call_id = match (call_id, task_id) {
            (Some(c), _) => c.to_string(),
            (None, Some(t)) => match self.task_calls.get(t) {
                Some(c) => c.clone(),
                None => return,
            },
            (None, None) => return,
        };
        if let Some(t) = task_id {
            self.link_task(t, &call_id);
        }
        let call = self.calls.entry(call_id.clone()).or_default();
        let task = call.task.get_or_insert_with(TaskStatus::default);
        if let Some(t) = task_id {
            task.task_id.get_or_insert_with(|| t.to_string());
        }
        change(task);
        self.write_task(&call_id);
    }

    /// Whether the call's task already settled.
    pub(in crate::format::eve) fn task_settled(&self, call_id: &str) -> bool {
        self.calls
            .get(call_id)
            .and_then(|c| c.task.as_ref())
            .and_then(|t| t.status)
            .is_some_and(|s| !matches!(s, facts::TaskState::Working | facts::TaskState::Detached))
    }

    fn write_task(&mut self, call_id: &str) {
        let Some(call) = self.calls.get(call_id) else {
            return;
        };
        let Some(task) = call.task.clone() else {
            return;
        };
        let index = call.request.or(call.response);
        self.modify(index, |e| facts::set_value(e, facts::TASK, &task));
    }

    // ----- inquiries ---------------------------------------------------

    /// A question or approval request.
    #[allow(clippy::too_many_arguments)]
    pub(in crate::format::eve) fn inquiry_request(
        &mut self,
        id: &str,
        source: Value,
        question: Value,
        answer: AnswerKind,
        call_id: Option<String>,
        stamp: &Stamp,
        k: usize,
    ) {
        self.inquiries.insert(id.to_string(), answer);
        let mut event = stamp.event(
            k,
            EventKind::InquiryRequest {
                id: id.to_string(),
                source: Box::new(source),
                question: Box::new(question),
            },
        );
        if let Some(call) = call_id {
            facts::set_value(&mut event, facts::CALL_ID, &call);
        }
        self.push(event);
    }

    /// The answer to an inquiry, from eve's outcome and response.
    pub(in crate::format::eve) fn inquiry_response(
        &mut self,
        id: &str,
        outcome: &str,
        response: Option<&Value>,
        stamp: &Stamp,
        k: usize,
    ) {
        let kind = self.inquiries.get(id).copied().unwrap_or(AnswerKind::Text);
        let given = response.and_then(|r| {
            let r = r.get("value").unwrap_or(r);
            r.get("text")
                .or_else(|| r.get("optionId"))
                .filter(|v| v.is_string())
                .cloned()
        });
        let yes = matches!(outcome, "approved" | "accepted");
        let no = matches!(outcome, "denied" | "declined");
        let answer = match (kind, given) {
            (AnswerKind::Boolean, _) if yes || no => Value::Bool(yes),
            (_, Some(value)) => value,
            _ if yes || no => Value::Bool(yes),
            _ => Value::Null,
        };
        let mut event = stamp.event(
            k,
            EventKind::InquiryResponse {
                id: id.to_string(),
                answer: Box::new(answer),
            },
        );
        facts::set_value(&mut event, facts::OUTCOME, outcome);
        self.push(event);
    }
}

/// A call result's content: a channel update in the RFD 094 shape, any other
/// call's output as text (`rejected` says so; an error without output shows the error).
fn response_content(call: &Call, result: &CallResult) -> Content {
    let output = text::output_text(result.output.as_ref());
    let error = result.error.as_ref().map(text::error_text);
    let reply = if result.outcome == "rejected" {
        let mut t = match &error {
            Some(e) if !e.is_empty() => format!("Rejected: {e}"),
            _ => "Rejected".to_string(),
        };
        if !output.is_empty() {
            t.push_str("\n\n");
            t.push_str(&output);
        }
        t
    } else {
        match (error.filter(|e| !e.is_empty()), output.is_empty()) {
            (Some(e), true) => e,
            // The error first: the output of a failed call is often a bare
            // status object that does not say what went wrong.
            (Some(e), false) => format!("{e}\n\n{output}"),
            (None, true) if result.outcome != "completed" => result.outcome.clone(),
            (None, _) => output,
        }
    };
    if text::is_channel_update(&call.name) {
        text::update_content(call.update.as_deref(), &reply)
    } else {
        Content::Text(reply)
    }
}
