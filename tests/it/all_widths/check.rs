//! Shared by `tests/it/all_widths.rs` (a property test) and the `all_widths` fuzz
//! target: a conversation carrying one untrusted text in every block kind,
//! rendered, and the two bounds of the text layer checked on what comes out.

use overhear::format::jp;
use overhear::model::Conversation;
use overhear::policy::Overlay;
use overhear::render::document::{DocOptions, DocView};
use overhear::render::print::{CodeOverflow, PrintOptions, render_to_string};
use overhear::render::theme::Theme;
use overhear::text::sanitize::{SanitizeMode, is_bidi_control};
use overhear::text::width::display_width;
use serde_json::{Value, json};

/// JP events putting `text` in every block kind: user message, assistant
/// markdown (with a code fence and a table), reasoning, tool call arguments
/// (keys and values, nested), plain, JSON and block tool results, an error
/// result, an inquiry, structured data, an unknown event and a notice (a
/// result whose call is missing, named by its id).
pub fn events(text: &str) -> Value {
    let markdown = format!(
        "# {text}\n\n{text} **{text}** `{text}`\n\n- {text}\n  > {text}\n\n\
         | {text} | b |\n|---|---|\n| {text} | d |\n\n```rust\n{text}\n```\n"
    );
    let as_json = json!({"key": text, "list": [text, 1], text: {"deep": text}}).to_string();
    json!([
        {"timestamp": "2026-01-01 00:00:00.0", "type": "turn_start"},
        {"timestamp": "2026-01-01 00:00:01.0", "type": "chat_request", "content": text},
        {"timestamp": "2026-01-01 00:00:02.0", "type": "chat_response", "reasoning": text},
        {"timestamp": "2026-01-01 00:00:03.0", "type": "chat_response", "message": markdown},
        {"timestamp": "2026-01-01 00:00:04.0", "type": "tool_call_request", "id": "c1",
         "name": "fs_read_file", "arguments": {"path": text, text: {"nested": [text]}}},
        {"timestamp": "2026-01-01 00:00:05.0", "type": "tool_call_response", "id": "c1",
         "content": text, "is_error": false},
        {"timestamp": "2026-01-01 00:00:06.0", "type": "tool_call_request", "id": "c2",
         "name": text, "arguments": {"query": text}},
        {"timestamp": "2026-01-01 00:00:07.0", "type": "tool_call_response", "id": "c2",
         "content": as_json, "is_error": false},
        {"timestamp": "2026-01-01 00:00:08.0", "type": "tool_call_request", "id": "c3",
         "name": "blocks", "arguments": {}},
        {"timestamp": "2026-01-01 00:00:09.0", "type": "tool_call_response", "id": "c3",
         "is_error": true, "content": [
            {"type": "text", "text": text},
            {"type": "text", "text": markdown, "mimeType": "text/markdown"}]},
        {"timestamp": "2026-01-01 00:00:10.0", "type": "inquiry_request", "id": "c3.q",
         "source": {"source": "tool", "name": text},
         "question": {"text": text, "answer_type": "boolean"}},
        {"timestamp": "2026-01-01 00:00:11.0", "type": "tool_call_response", "id": text,
         "content": text, "is_error": false},
        {"timestamp": "2026-01-01 00:00:12.0", "type": "chat_response", "data": {text: text}},
        {"timestamp": "2026-01-01 00:00:13.0", "type": text, "text": text},
        {"timestamp": "2026-01-01 00:00:14.0", "type": "chat_response", "message": text},
    ])
}

/// `text` in every block kind, loaded as the viewer loads a conversation.
pub fn conversation(text: &str) -> Conversation {
    let bytes = serde_json::to_vec(&events(text)).expect("events serialize");
    let load = jp::load(&bytes, None).expect("the events load");
    Conversation::new(load.events, None, Some(text.to_string()))
}

/// Renders `conv` at `width` in the terminal and raw views, with colour, and
/// returns why the output breaks a bound: a line wider than `width` by the
/// one ruler, or a byte outside the allowed SGR set (`ESC [ digits ; : m`, no
/// conceal), a control character or a bidi control.
pub fn violation(conv: &Conversation, width: usize) -> Option<String> {
    let modes = [DocView::Terminal, DocView::Raw]
        .into_iter()
        .flat_map(|view| [CodeOverflow::Wrap, CodeOverflow::Cut].map(|code| (view, code)));
    for (view, code) in modes {
        let doc = DocOptions {
            view,
            overlay: Overlay::default(),
            finished: true,
        };
        let options = PrintOptions {
            width,
            color: true,
            theme: Theme::builtin("dark").expect("the dark theme"),
            sanitize: SanitizeMode::Strip,
            turns: None,
            code,
        };
        let out = render_to_string(conv, &doc, &options);
        for line in out.lines() {
            let plain = match without_sgr(line) {
                Ok(plain) => plain,
                Err(why) => return Some(format!("{view:?}/{code:?} at {width}: {why}: {line:?}")),
            };
            if let Some(c) = plain
                .chars()
                .find(|&c| c.is_control() || is_bidi_control(c))
            {
                return Some(format!("{view:?}/{code:?} at {width}: {c:?} in {plain:?}"));
            }
            let used = display_width(&plain);
            if used > width {
                return Some(format!(
                    "{view:?}/{code:?} at {width}: {used} columns: {plain:?}"
                ));
            }
        }
    }
    None
}

/// `line` without its SGR sequences; an error for any other escape or for
/// conceal (a standalone `8`).
fn without_sgr(line: &str) -> Result<String, String> {
    let mut plain = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find('\u{1b}') {
        plain.push_str(&rest[..at]);
        let body = rest[at + 1..]
            .strip_prefix('[')
            .ok_or("an escape other than CSI")?;
        let end = body
            .find(|c: char| !(c.is_ascii_digit() || c == ';' || c == ':'))
            .ok_or("an unterminated CSI")?;
        if !body[end..].starts_with('m') {
            return Err("a CSI other than SGR".into());
        }
        if crate::sgr::conceals(&body[..end]) {
            return Err("SGR conceal".into());
        }
        rest = &body[end + 1..];
    }
    plain.push_str(rest);
    Ok(plain)
}
