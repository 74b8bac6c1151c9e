//! Messages: what the user said, what the assistant said (markdown in a
//! pane), tool blocks shown as speech, structured output and questions.

use std::borrow::Cow;

use ratatui::text::{Line, Span};
use serde_json::Value;

use crate::model::InquiryPair;
use crate::model::message_tools::SEND_CHANNEL_UPDATE;
use crate::model::{ChatResponse, Content, EventKind, facts};
use crate::render::document::{Piece, ToolSpeech, message_parts, speech_text};
use crate::render::split::{PieceForm, slice_of_parts};
use crate::text::wrap::wrap_spans;

use super::lines::{
    as_written_body, clean, indent, json_value_lines, pane, pane_part, speech_body,
};
use super::{BODY_INDENT, LayoutContext};

pub(super) fn user_message(
    event: usize,
    piece: Option<&Piece>,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    let e = &ctx.conv.events[event];
    let EventKind::ChatRequest {
        content, author, ..
    } = &e.kind
    else {
        return Vec::new();
    };
    let name = author
        .as_deref()
        .map_or(Cow::Borrowed("user"), |a| clean(a, ctx))
        .into_owned();
    let mut label = vec![Span::styled(name, ctx.theme.styles.user_label)];
    if facts::steering(e) {
        label.push(Span::styled(
            " · steering (sent mid-turn)",
            ctx.theme.styles.turn_rule,
        ));
    }
    let text = piece.map_or(content.as_str(), |p| &content[p.range.clone()]);
    pane_part(label, None, piece_body(text, piece, ctx), piece, ctx)
}

pub(super) fn assistant_message(
    events: &[usize],
    final_reply: bool,
    piece: Option<&Piece>,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    let mut label = vec![Span::styled("assistant", ctx.theme.styles.assistant_label)];
    if final_reply {
        label.push(Span::styled(" · final reply", ctx.theme.styles.final_label));
    }
    let parts = message_parts(ctx.conv, events);
    let body = if parts.is_empty() {
        vec![Line::from(vec![
            Span::raw(BODY_INDENT),
            Span::styled(
                "(no message — the assistant chose to stay silent)",
                ctx.theme.styles.turn_rule,
            ),
        ])]
    } else {
        let whole = 0..parts.iter().map(|p| p.len()).sum();
        let range = piece.map_or(whole, |p| p.range.clone());
        piece_body(&slice_of_parts(&parts, range), piece, ctx)
    };
    pane_part(label, None, body, piece, ctx)
}

/// The body of a speech block, or of the piece of it `piece` is.
fn piece_body(text: &str, piece: Option<&Piece>, ctx: &LayoutContext<'_>) -> Vec<Line<'static>> {
    match piece.map(|p| p.form) {
        Some(form @ (PieceForm::AsWrittenFrom { .. } | PieceForm::AsWrittenMore)) => {
            as_written_body(text, form, ctx)
        }
        form => speech_body(text, form == Some(PieceForm::Plain), ctx),
    }
}

pub(super) fn tool_speech(speech: &ToolSpeech, ctx: &LayoutContext<'_>) -> Vec<Line<'static>> {
    // An update says so before the tool's name (`assistant · update
    // (send_channel_update)`); any other speaking tool is named alone
    // (`assistant · tell_user`).
    let tool = clean(&speech.tool, ctx);
    let kind = if speech.tool == SEND_CHANNEL_UPDATE {
        format!(" · update ({tool})")
    } else {
        format!(" · {tool}")
    };
    let label = vec![
        Span::styled("assistant", ctx.theme.styles.assistant_label),
        Span::styled(kind, ctx.theme.styles.update_label),
    ];
    let (outcome, error) = delivery(speech, ctx);
    let mut detail = outcome.to_string();
    if speech.attempts > 1 {
        detail.push_str(&format!(" · attempts: {}", speech.attempts));
    }
    let detail_style = if error.is_some() {
        ctx.theme.styles.error
    } else {
        ctx.theme.styles.turn_rule
    };
    let text = speech_text(ctx.conv, speech).unwrap_or_default();
    let mut body = speech_body(&text, false, ctx);
    if let Some(error) = error {
        let spans = [Span::styled(
            format!("✗ not delivered: {}", clean(&error, ctx)),
            ctx.theme.styles.error,
        )];
        body.push(Line::default());
        body.extend(indent(
            wrap_spans(&spans, ctx.width.saturating_sub(2).max(1), &[], &[]),
            BODY_INDENT,
            ctx.width,
        ));
    }
    pane(label, Some(Span::styled(detail, detail_style)), body, ctx)
}

/// Delivered, failed (with the error text), pending, or without a reply
/// in a conversation that ended.
pub(super) fn delivery(
    speech: &ToolSpeech,
    ctx: &LayoutContext<'_>,
) -> (&'static str, Option<String>) {
    match speech.response.map(|r| &ctx.conv.events[r].kind) {
        Some(EventKind::ToolCallResponse {
            content,
            is_error: true,
            ..
        }) => {
            let error = match content {
                Content::Text(text) => text.clone(),
                Content::Blocks(blocks) => blocks
                    .iter()
                    .filter(|b| !b.audience().includes_user() || b.audience().includes_assistant())
                    .filter_map(|b| b.display_text())
                    .collect::<Vec<_>>()
                    .join(" "),
            };
            ("failed", Some(error))
        }
        Some(_) => ("delivered", None),
        None if speech.live => ("pending", None),
        // The conversation ended without the tool's reply.
        None => ("no reply", None),
    }
}

pub(super) fn data(event: usize, ctx: &LayoutContext<'_>) -> Vec<Line<'static>> {
    let EventKind::ChatResponse(ChatResponse::Data(data)) = &ctx.conv.events[event].kind else {
        return Vec::new();
    };
    let label = vec![Span::styled(
        "assistant · structured output",
        ctx.theme.styles.assistant_label,
    )];
    let body = json_value_lines(data, ctx);
    pane(label, None, body, ctx)
}

pub(super) fn inquiry_lines(
    pair: &InquiryPair,
    prefix: &'static str,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    let conv = ctx.conv;
    let question = match &conv.events[pair.request].kind {
        EventKind::InquiryRequest { question, .. } => question
            .get("text")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        _ => String::new(),
    };
    let first = clean(question.lines().next().unwrap_or(""), ctx).into_owned();
    let answer = match pair.response.map(|r| &conv.events[r]) {
        Some(response) => match &response.kind {
            EventKind::InquiryResponse { answer, .. } => {
                let options = match &conv.events[pair.request].kind {
                    EventKind::InquiryRequest { question, .. } => question
                        .get("answer_type")
                        .and_then(|t| t.get("options"))
                        .and_then(Value::as_array)
                        .map(Vec::as_slice),
                    _ => None,
                };
                clean(
                    &answer_text(answer, facts::outcome(response), options.unwrap_or(&[])),
                    ctx,
                )
                .into_owned()
            }
            _ => String::new(),
        },
        None => "(no answer yet)".to_string(),
    };
    let spans = [
        Span::styled(format!("? {first}"), ctx.theme.styles.tool_header),
        Span::styled(format!(" → {answer}"), ctx.theme.styles.result_text),
    ];
    wrap_spans(
        &spans,
        ctx.width,
        &[Span::raw(prefix)],
        &[Span::raw(prefix), Span::raw("  ")],
    )
}

/// An answer as a person reads it: an approval's outcome as stated, yes or
/// no, a chosen option by its description, or why there is no answer.
pub(super) fn answer_text(answer: &Value, outcome: Option<&str>, options: &[Value]) -> String {
    match answer {
        Value::Bool(yes) => match outcome {
            Some(o @ ("approved" | "denied" | "accepted" | "declined")) => o.to_string(),
            _ => if *yes { "yes" } else { "no" }.to_string(),
        },
        Value::Null => match outcome {
            Some(o) => format!("({o})"),
            None => "(no answer)".to_string(),
        },
        chosen => {
            let value = match chosen {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let description = options
                .iter()
                .find(|o| o.get("value") == Some(chosen))
                .and_then(|o| o.get("description"))
                .and_then(Value::as_str)
                .filter(|d| *d != value);
            match description {
                Some(d) => format!("{d} ({value})"),
                None => value,
            }
        }
    }
}
