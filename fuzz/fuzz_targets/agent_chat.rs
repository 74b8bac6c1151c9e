//! What the `gemini_reader` and `qwen_reader` targets check, on a chat made
//! of a format's first line and the fuzzer's bytes.

use overhear::format::StreamReader;
use overhear::format::ndjson::NdjsonReader;
use overhear::model::Event;
use overhear::text::width::display_width;
use overhear::{Conversation, RenderOptions, View, render};

/// `bytes` read by the seam's reader, fed in two pieces cut at `at`.
fn read(bytes: &[u8], at: usize) -> Vec<Event> {
    let mut reader = NdjsonReader::new();
    let mut events = Vec::new();
    let (head, tail) = bytes.split_at(at.min(bytes.len()));
    reader.feed(head, &mut events);
    reader.feed(tail, &mut events);
    StreamReader::finish(&mut reader, &mut events);
    events
}

/// `head` then `data[1..]` (or `data[1..]` alone when it opens a legacy
/// whole file, `{` alone on its first line): read in two pieces (cut where
/// `data[0]` says) as whole, and rendered within 60 columns.
pub fn check(data: &[u8], head: &[u8]) {
    let [cut, rest @ ..] = data else {
        return;
    };
    let legacy = rest.starts_with(b"{\n");
    let mut bytes = if legacy { Vec::new() } else { head.to_vec() };
    bytes.extend_from_slice(rest);
    let whole = read(&bytes, bytes.len());
    // A legacy file is read when it first parses whole; appended bytes
    // after that are a rewrite, which the viewer reads afresh.
    if !legacy {
        let at = usize::from(*cut) * bytes.len() / 255;
        assert_eq!(read(&bytes, at), whole, "fed in two pieces at {at}");
    }
    if let Ok(conversation) = Conversation::from_bytes(&bytes) {
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
}
