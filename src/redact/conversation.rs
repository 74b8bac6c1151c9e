//! Redaction applied to the model's events: every text a user can be shown
//! (messages, reasoning, tool arguments and results, questions and answers,
//! configuration, unknown entries) passes through [`Redactor::redact`].

use serde_json::Value;

use super::Redactor;
use crate::model::{ChatResponse, Content, Conversation, Event, EventKind};

/// Replaces `*text` by its redaction when that differs.
fn redact_string(redactor: &Redactor, text: &mut String) {
    if let std::borrow::Cow::Owned(clean) = redactor.redact(text) {
        *text = clean;
    }
}

/// Redacts every string leaf of `value` (object keys are left as they are:
/// they are names, not values).
pub fn redact_value(redactor: &Redactor, value: &mut Value) {
    match value {
        Value::String(text) => redact_string(redactor, text),
        Value::Array(items) => items.iter_mut().for_each(|v| redact_value(redactor, v)),
        Value::Object(map) => map.values_mut().for_each(|v| redact_value(redactor, v)),
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// Redacts the text of one event in place. Ids and names are kept, so
/// pairing and turns are the same before and after.
pub fn redact_event(redactor: &Redactor, event: &mut Event) {
    for value in event.metadata.values_mut() {
        redact_value(redactor, value);
    }
    match &mut event.kind {
        EventKind::TurnStart => {}
        EventKind::ChatRequest {
            content, schema, ..
        } => {
            redact_string(redactor, content);
            if let Some(schema) = schema {
                redact_value(redactor, schema);
            }
        }
        EventKind::ChatResponse(ChatResponse::Message(Some(text)))
        | EventKind::ChatResponse(ChatResponse::Reasoning(text)) => redact_string(redactor, text),
        EventKind::ChatResponse(ChatResponse::Message(None)) => {}
        EventKind::ChatResponse(ChatResponse::Data(value)) => redact_value(redactor, value),
        EventKind::ToolCallRequest { arguments, .. } => redact_value(redactor, arguments),
        EventKind::ToolCallResponse { content, .. } => match content {
            Content::Text(text) => redact_string(redactor, text),
            Content::Blocks(blocks) => blocks
                .iter_mut()
                .for_each(|block| redact_value(redactor, &mut block.0)),
        },
        EventKind::InquiryRequest {
            source, question, ..
        } => {
            redact_value(redactor, source);
            redact_value(redactor, question);
        }
        EventKind::InquiryResponse { answer, .. } => redact_value(redactor, answer),
        EventKind::ConfigDelta { delta } => redact_value(redactor, delta),
        EventKind::Compaction(map) => map.values_mut().for_each(|v| redact_value(redactor, v)),
        EventKind::Unknown(value) => redact_value(redactor, value),
    }
}

/// Redacts every event, stored line and the text being written of a
/// conversation already read (the one-shot commands, and the viewer when it
/// starts redacting a conversation it opened).
pub fn redact_conversation(redactor: &Redactor, conv: &mut Conversation) {
    for event in &mut conv.events {
        redact_event(redactor, event);
    }
    redact_stream_tail(redactor, conv, 0);
}

/// Redacts a stream's stored lines from index `from` on (the ones read since
/// the last call) and the text being written right now.
pub fn redact_stream_tail(redactor: &Redactor, conv: &mut Conversation, from: usize) {
    conv.originals.rewrite_from(from, |original| {
        original.rewrite(|value| {
            let before = value.clone();
            redact_value(redactor, value);
            *value != before
        });
        if let Some(error) = &mut original.error
            && let std::borrow::Cow::Owned(clean) = redactor.redact(error)
        {
            *error = clean.into_boxed_str();
        }
    });
    if let Some(progress) = &mut conv.in_progress {
        redact_string(redactor, &mut progress.text);
    }
}
