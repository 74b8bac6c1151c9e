//! The Copilot CLI reader on arbitrary bytes: a log fed whole and in two
//! pieces (byte 0 and 1: where it splits) reads the same events, opening
//! it as a file (sub-agents nested from the same log) does not panic or
//! overflow the stack, every warning is one line, and the rendered
//! conversation (terminal and raw views, width 60) has no line wider than
//! 60 columns.

#![no_main]

use libfuzzer_sys::fuzz_target;
use overhear::format::StreamReader;
use overhear::format::ndjson::NdjsonReader;
use overhear::text::width::display_width;
use overhear::{Conversation, RenderOptions, View, render};

fuzz_target!(|data: &[u8]| {
    let [a, b, log @ ..] = data else {
        return;
    };
    let split = usize::from(u16::from_le_bytes([*a, *b])) % (log.len() + 1);
    let mut whole = Vec::new();
    let _ = NdjsonReader::read_all(log, &mut whole);
    let mut pieces = Vec::new();
    let mut reader = NdjsonReader::new();
    reader.feed(&log[..split], &mut pieces);
    reader.feed(&log[split..], &mut pieces);
    reader.finish(&mut pieces);
    assert_eq!(whole, pieces, "fed in two pieces at {split}");

    let dir = std::env::temp_dir().join(format!("overhear-fuzz-copilot-{}", std::process::id()));
    let folder = dir.join("session-state/5e55a0e1");
    std::fs::create_dir_all(&folder).expect("a temporary folder");
    let path = folder.join("events.jsonl");
    std::fs::write(&path, log).expect("log written");
    if let Ok(conversation) = Conversation::open(&path) {
        for warning in conversation.warnings() {
            assert!(!warning.contains('\n'), "warning spans lines: {warning:?}");
        }
        for view in [View::Terminal, View::Raw] {
            let options = RenderOptions::default().with_width(60).with_view(view);
            let text = render(&conversation, &options);
            for line in text.lines() {
                assert!(display_width(line) <= 60, "{view:?}: {line:?}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
});
