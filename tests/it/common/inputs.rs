// Shared by two test binaries; each uses only some of the inputs.
#![allow(dead_code)]
//! The hostile inputs, generated: big ones are never committed (see
//! `tests/fixtures/hostile/README.md`), so each test builds what it needs.

use serde_json::{Value, json};

/// Every escape-sequence family of display-policy §5, with a name for messages.
/// Payloads that could show text carry a `PWNED` marker that must never appear
/// as a window title, clipboard content or hyperlink.
pub const ESCAPES: &[(&str, &str)] = &[
    ("CSI erase display", "\x1b[2J"),
    ("CSI cursor home", "\x1b[H"),
    ("CSI cursor up", "\x1b[5A"),
    ("CSI alternate screen", "\x1b[?1049h"),
    ("CSI device status query", "\x1b[6n"),
    ("CSI window resize", "\x1b[8;5;5t"),
    ("SGR colour", "\x1b[31m"),
    ("SGR conceal", "\x1b[8m"),
    ("SGR conceal among colours", "\x1b[1;38;5;8;8m"),
    ("OSC 0 title, BEL", "\x1b]0;PWNED-TITLE\x07"),
    ("OSC 2 title, ST", "\x1b]2;PWNED-TITLE\x1b\\"),
    (
        "OSC 8 hyperlink",
        "\x1b]8;;https://pwned.example/\x1b\\link\x1b]8;;\x1b\\",
    ),
    ("OSC 52 clipboard", "\x1b]52;c;UFdORUQ=\x07"),
    ("DCS", "\x1bP1$qm\x1b\\"),
    ("APC", "\x1b_PWNED-APC\x1b\\"),
    ("PM", "\x1b^PWNED-PM\x1b\\"),
    ("SOS", "\x1bXPWNED-SOS\x1b\\"),
    ("ESC c (reset)", "\x1bc"),
    ("ESC 7 (save cursor)", "\x1b7"),
    ("ESC # 8 (screen test)", "\x1b#8"),
    ("carriage return", "\r"),
    ("bell", "\x07"),
    ("backspace", "\x08"),
    ("vertical tab", "\x0b"),
    ("form feed", "\x0c"),
    ("NUL", "\0"),
    ("shift out", "\x0e"),
    ("DEL", "\x7f"),
    ("C1 CSI", "\u{9b}2J"),
    ("C1 OSC", "\u{9d}0;PWNED-TITLE\u{9c}"),
    ("C1 DCS", "\u{90}q\u{9c}"),
    ("C1 NEL", "\u{85}"),
    ("lone ESC", "\x1b"),
];

/// Every family in one text: a line `<name>: before<payload>after` per family,
/// the lone ESC last (nothing may follow it for it to stay lone).
pub fn hostile_text() -> String {
    let mut text = String::new();
    for (name, payload) in ESCAPES {
        text.push_str(&format!("{name}: before{payload}"));
        if *name != "lone ESC" {
            text.push_str("after\n");
        }
    }
    text
}

/// JP's storage encoding of a string (plain base64, jp-format §2).
pub fn b64(text: &str) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(text)
}

/// A conversation carrying `hostile_text()` in every text field a conversation
/// has: user message, author, reasoning, assistant message, structured data, tool
/// name, argument keys and values, `rendered_arguments`, string and block results,
/// inquiry text. The title goes in `metadata.json` (see [`hostile_metadata`]).
pub fn hostile_events() -> Vec<Value> {
    let h = hostile_text();
    let name = format!("tool{h}");
    let mut arguments = serde_json::Map::new();
    arguments.insert(format!("key{h}"), json!(b64(&format!("value{h}"))));
    arguments.insert("plain".into(), json!(format!("value{h}")));
    vec![
        json!({"timestamp": "2026-01-01 00:00:00.0", "type": "turn_start"}),
        json!({"timestamp": "2026-01-01 00:00:01.0", "type": "chat_request",
               "content": format!("request{h}"), "author": format!("author{h}")}),
        json!({"timestamp": "2026-01-01 00:00:02.0", "type": "chat_response",
               "reasoning": format!("reasoning{h}")}),
        json!({"timestamp": "2026-01-01 00:00:03.0", "type": "chat_response",
               "message": format!("message{h}")}),
        json!({"timestamp": "2026-01-01 00:00:04.0", "type": "tool_call_request",
               "id": "call_1", "name": name, "arguments": arguments,
               "metadata": {"rendered_arguments": b64(&b64(&format!("rendered{h}")))}}),
        json!({"timestamp": "2026-01-01 00:00:05.0", "type": "tool_call_response",
               "id": "call_1", "content": b64(&format!("result{h}")), "is_error": false}),
        json!({"timestamp": "2026-01-01 00:00:06.0", "type": "tool_call_request",
               "id": "call_2", "name": "blocks", "arguments": {}}),
        json!({"timestamp": "2026-01-01 00:00:07.0", "type": "tool_call_response",
        "id": "call_2", "is_error": true, "content": [
            {"type": "text", "text": format!("block{h}")},
            {"type": "text", "text": format!("markdown{h}"), "mimeType": "text/markdown"},
            {"type": "text", "text": format!("user{h}"),
             "annotations": {"audience": ["user"]}},
            {"type": "resource", "resource": {"uri": format!("file:///{h}"),
             "mimeType": "text/plain", "text": format!("resource{h}")}},
        ]}),
        json!({"timestamp": "2026-01-01 00:00:08.0", "type": "inquiry_request",
               "id": "call_2.q", "source": {"source": "tool", "name": format!("source{h}")},
               "question": {"text": format!("question{h}"), "answer_type": "boolean"}}),
        json!({"timestamp": "2026-01-01 00:00:09.0", "type": "chat_response",
               "data": {format!("data key{h}"): format!("data value{h}")}}),
    ]
}

/// A `metadata.json` whose title carries every escape family.
pub fn hostile_metadata() -> Vec<u8> {
    serde_json::to_vec(&json!({"title": format!("title{}", hostile_text())})).expect("serializes")
}

/// A base config that shows custom-command `rendered_arguments` for every tool.
pub fn custom_parameters_config() -> Vec<u8> {
    serde_json::to_vec(&json!({"conversation": {"tools": {"*": {"style": {
        "parameters": {"program": "fmt-args"}, "inline_results": "full"}}}}}))
    .expect("serializes")
}

/// A JSON array nested `depth` deep: `[[[…]]]`.
pub fn deep_array(depth: usize) -> Vec<u8> {
    let mut bytes = vec![b'['; depth];
    bytes.extend(std::iter::repeat_n(b']', depth));
    bytes
}

/// A JSON object nested `depth` deep: `{"a":{"a":…1…}}`.
pub fn deep_object(depth: usize) -> String {
    let mut text = "{\"a\":".repeat(depth);
    text.push('1');
    text.push_str(&"}".repeat(depth));
    text
}

/// Markdown nested `depth` deep: a list inside a list …, then quotes inside quotes.
pub fn deep_markdown(depth: usize) -> String {
    let mut text = String::new();
    for level in 0..depth {
        text.push_str(&"  ".repeat(level));
        text.push_str(&format!("- item {level}\n"));
    }
    text.push('\n');
    for level in 0..depth {
        text.push_str(&"> ".repeat(level + 1));
        text.push_str(&format!("quote {level}\n"));
    }
    text
}

/// A markdown table with `columns` columns and three rows.
pub fn wide_table(columns: usize) -> String {
    let row = |f: &dyn Fn(usize) -> String| {
        let cells: Vec<String> = (0..columns).map(f).collect();
        format!("| {} |\n", cells.join(" | "))
    };
    let mut text = row(&|i| format!("h{i}"));
    text.push_str(&row(&|_| "---".into()));
    text.push_str(&row(&|i| format!("a{i}")));
    text.push_str(&row(&|i| format!("b{i}")));
    text
}

/// A turn with a user message and a tool call whose result is `result`.
pub fn tool_result_events(result: &str) -> Vec<Value> {
    vec![
        json!({"timestamp": "2026-01-01 00:00:00.0", "type": "turn_start"}),
        json!({"timestamp": "2026-01-01 00:00:01.0", "type": "chat_request", "content": "go"}),
        json!({"timestamp": "2026-01-01 00:00:02.0", "type": "tool_call_request",
               "id": "call_1", "name": "fs_read_file", "arguments": {"path": "big.txt"}}),
        json!({"timestamp": "2026-01-01 00:00:03.0", "type": "tool_call_response",
               "id": "call_1", "content": result, "is_error": false}),
        json!({"timestamp": "2026-01-01 00:00:04.0", "type": "chat_response", "message": "done"}),
    ]
}

/// A turn whose assistant message is `message`.
pub fn message_events(message: &str) -> Vec<Value> {
    vec![
        json!({"timestamp": "2026-01-01 00:00:00.0", "type": "turn_start"}),
        json!({"timestamp": "2026-01-01 00:00:01.0", "type": "chat_request", "content": "go"}),
        json!({"timestamp": "2026-01-01 00:00:02.0", "type": "chat_response", "message": message}),
    ]
}

/// `lines` numbered lines of text, newline-separated (no trailing newline).
pub fn numbered_lines(lines: usize) -> String {
    let mut text = String::with_capacity(lines * 12);
    for i in 1..=lines {
        if i > 1 {
            text.push('\n');
        }
        text.push_str(&format!("line {i}"));
    }
    text
}

/// About `bytes` bytes of markdown prose: paragraphs of words, one message.
pub fn prose(bytes: usize) -> String {
    const PARAGRAPH: &str = "The quick brown fox jumps over the lazy dog while the agent \
        reads *every* file in the repository, twice, and writes `notes` about them.\n\n";
    PARAGRAPH.repeat(bytes / PARAGRAPH.len() + 1)
}
