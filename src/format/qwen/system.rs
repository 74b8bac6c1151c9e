//! Qwen Code's `system` records (spec agent-transcripts-2 §4.2, §4.7, §4.8):
//! telemetry mined for usage and for what no other record shows, notices,
//! the title; the rest kept for the raw view.

use serde_json::Value;

use super::{FROM_TELEMETRY, State};
use crate::format::transcript::{Sink, str_at};
use crate::model::{ChatResponse, Content, EventKind};

impl State {
    pub(super) fn system(
        &mut self,
        sink: &mut Sink,
        value: &Value,
        subtype: &str,
        time: Option<String>,
    ) {
        let payload = value.get("systemPayload").unwrap_or(&Value::Null);
        match subtype {
            "ui_telemetry" => {
                let event = payload.get("uiEvent").unwrap_or(&Value::Null);
                match str_at(event, "event.name") {
                    Some("qwen-code.api_response") => self.api_response(sink, event, time),
                    Some("qwen-code.tool_call") => self.telemetry_call(sink, event, time),
                    _ => sink.opaque(time, value),
                }
                return;
            }
            "custom_title" => {
                if let Some(title) = str_at(payload, "customTitle").filter(|t| !t.trim().is_empty())
                {
                    self.title = Some(title.to_string());
                }
            }
            "chat_compression" => {
                sink.notice(time, "info", "context compacted".to_string());
                return;
            }
            "rewind" => {
                let text = match payload.get("truncatedCount").and_then(Value::as_u64) {
                    Some(n) => format!("rewound: {n} items removed"),
                    None => "rewound".to_string(),
                };
                sink.notice(time, "info", text);
                return;
            }
            "slash_command" if str_at(payload, "phase") != Some("result") => {
                let command = str_at(payload, "rawCommand").unwrap_or("/");
                sink.notice(time, "info", command.to_string());
                return;
            }
            "notification" | "background_task_completed" | "cron" | "mid_turn_user_message" => {
                if let Some(text) = str_at(payload, "displayText").filter(|t| !t.trim().is_empty())
                {
                    sink.notice(time, "info", text.to_string());
                    return;
                }
            }
            _ => {}
        }
        sink.opaque(time, value);
    }

    /// `qwen-code.api_response`: one model request's tokens (the turn's
    /// usage), and its text, shown only if no `assistant` record carries it.
    fn api_response(&mut self, sink: &mut Sink, event: &Value, time: Option<String>) {
        let count = |key: &str| event.get(key).and_then(Value::as_u64).unwrap_or(0);
        let add = [
            count("input_token_count"),
            count("output_token_count"),
            count("cached_content_token_count"),
        ];
        let sum = self.telemetry_usage.get_or_insert([0; 3]);
        sum.iter_mut().zip(add).for_each(|(s, a)| *s += a);
        if let Some(model) = str_at(event, "model") {
            self.model = Some(model.to_string());
        }
        self.store_usage(sink);
        // An earlier copy no record matched stays, as telemetry-only speech.
        self.telemetry_speech = None;
        if let Some(text) = str_at(event, "response_text").filter(|t| !t.trim().is_empty()) {
            let at = sink.push_kind(
                time,
                EventKind::ChatResponse(ChatResponse::Message(Some(format!(
                    "{FROM_TELEMETRY} {text}"
                )))),
            );
            self.telemetry_speech = Some((at, text.to_string()));
        }
    }

    /// `qwen-code.tool_call`: a call no record shows is made from it,
    /// marked as telemetry's (§4.4).
    fn telemetry_call(&mut self, sink: &mut Sink, event: &Value, time: Option<String>) {
        let Some(id) = str_at(event, "call_id") else {
            return;
        };
        if self.known_calls.contains(id) {
            return;
        }
        let id = id.to_string();
        let name = str_at(event, "function_name").unwrap_or("tool");
        let args = event.get("function_args").cloned().unwrap_or(Value::Null);
        self.call(sink, time.clone(), id.clone(), name, args);
        let failed = event.get("success").and_then(Value::as_bool) == Some(false);
        let detail = match event.get("error") {
            Some(Value::String(error)) if !error.is_empty() => error.clone(),
            _ => str_at(event, "status").unwrap_or("").to_string(),
        };
        self.calls.answer(&id);
        sink.push_kind(
            time,
            EventKind::ToolCallResponse {
                id,
                content: Content::Text(format!("{FROM_TELEMETRY} {detail}")),
                is_error: failed,
            },
        );
    }
}
