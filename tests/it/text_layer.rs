//! The one text layer through the real binary: what
//! `overhear render` prints is measured with the ruler the layout uses, and
//! characters that reorder or hide text never reach the terminal raw.

// This test drives the real binary through system calls that have no safe
// wrapper (signals, FIFOs, ptys, locks, process groups); every unsafe block
// says why it is sound (clippy's undocumented_unsafe_blocks).
#![allow(unsafe_code)]

use crate::common::inputs;
use crate::common::support;

use serde_json::{Value, json};

use overhear::text::width::display_width;
use support::{Conversation, overhear};

/// A family emoji: four people joined by three zero-width joiners.
const FAMILY: &str = "\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}";

/// A turn whose one tool call takes `arguments` and answers `ok`.
fn tool_call_events(arguments: Value) -> Vec<Value> {
    vec![
        json!({"timestamp": "2026-01-01 00:00:00.0", "type": "turn_start"}),
        json!({"timestamp": "2026-01-01 00:00:01.0", "type": "chat_request", "content": "go"}),
        json!({"timestamp": "2026-01-01 00:00:02.0", "type": "tool_call_request",
               "id": "call_1", "name": "fs_read_file", "arguments": arguments}),
        json!({"timestamp": "2026-01-01 00:00:03.0", "type": "tool_call_response",
               "id": "call_1", "content": "ok", "is_error": false}),
    ]
}

fn render(conv: &Conversation, width: usize) -> String {
    let run = overhear([
        "render".as_ref(),
        conv.path().as_os_str(),
        "--width".as_ref(),
        width.to_string().as_ref(),
        "--color".as_ref(),
        "never".as_ref(),
    ]);
    run.expect_code(0);
    String::from_utf8(run.stdout).expect("render prints UTF-8")
}

#[test]
fn zwj_emoji_in_a_json_argument_stay_within_the_width() {
    let conv = Conversation::from_events(&tool_call_events(
        json!({"path": FAMILY.repeat(10), "note": format!("a {FAMILY} b")}),
    ));
    for width in [10, 20, 40, 80] {
        let out = render(&conv, width);
        if width >= 40 {
            assert!(out.contains(FAMILY), "{out}");
        }
        for line in out.lines() {
            let used = display_width(line);
            assert!(used <= width, "{used} > {width}: {line:?}");
        }
    }
}

/// Characters that reorder text (Trojan Source) or smuggle it invisibly.
const REORDERING: &[char] = &[
    '\u{202A}',
    '\u{202B}',
    '\u{202C}',
    '\u{202D}',
    '\u{202E}',
    '\u{2066}',
    '\u{2067}',
    '\u{2068}',
    '\u{2069}',
    '\u{200E}',
    '\u{200F}',
    '\u{061C}',
    '\u{E0041}',
];

#[test]
fn render_prints_no_bidi_control_in_any_block() {
    let h = "txt\u{202E}exe.\u{2066}x\u{2069} \u{200F}\u{061C}\u{E0041}\u{E0042}";
    let mut events = inputs::message_events(&format!("message {h}\n\n```\ncode {h}\n```"));
    events.extend(tool_call_events(json!({"path": h, h: 1})));
    events.push(
        json!({"timestamp": "2026-01-01 00:00:05.0", "type": "chat_response",
                       "reasoning": format!("reasoning {h}")}),
    );
    let conv = Conversation::from_events(&events);
    for width in [20, 80] {
        let out = render(&conv, width);
        assert!(out.contains("txtexe."), "{out}");
        let found: Vec<char> = out.chars().filter(|c| REORDERING.contains(c)).collect();
        assert!(found.is_empty(), "{found:?} at {width}:\n{out}");
    }
    // Visualized on request, by code point.
    let run = overhear([
        "render".as_ref(),
        conv.path().as_os_str(),
        "--sanitize".as_ref(),
        "visualize".as_ref(),
    ]);
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(out.contains("txt<U+202E>exe."), "{out}");
}
