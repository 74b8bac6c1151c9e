//! The eve reader on arbitrary bytes in arbitrary pieces.
//!
//! The first byte gives a number of cuts (0–15), the next two bytes per cut give
//! their positions; the rest is the stream. Pushing the pieces one by one must
//! read exactly what pushing the stream whole reads — a line (or a UTF-8
//! character) split across two reads may not change anything. What is read is
//! then grouped into a conversation and projected into every view.

#![no_main]

use libfuzzer_sys::fuzz_target;
use overhear::format::eve::EveReader;
use overhear::model::{Conversation, View};

fuzz_target!(|data: &[u8]| {
    let Some((&cuts, rest)) = data.split_first() else {
        return;
    };
    let cuts = usize::from(cuts % 16);
    if rest.len() < 2 * cuts {
        return;
    }
    let (positions, stream) = rest.split_at(2 * cuts);
    let mut at: Vec<usize> = positions
        .chunks_exact(2)
        .map(|p| usize::from(u16::from_le_bytes([p[0], p[1]])) % (stream.len() + 1))
        .collect();
    at.sort_unstable();

    let whole = EveReader::read_all(stream);
    let mut pieces = EveReader::new();
    let mut start = 0;
    for cut in at {
        pieces.push(&stream[start..cut]);
        start = cut;
    }
    pieces.push(&stream[start..]);
    pieces.finish();

    assert_eq!(pieces.events(), whole.events(), "events differ");
    assert_eq!(pieces.originals(), whole.originals(), "originals differ");
    assert_eq!(pieces.diagnostics(), whole.diagnostics(), "diagnostics differ");
    assert_eq!(pieces.in_progress(), whole.in_progress(), "text in progress differs");
    assert_eq!(pieces.finished(), whole.finished());
    assert_eq!(pieces.revision(), whole.revision());
    for diagnostic in whole.diagnostics() {
        let line = diagnostic.to_string();
        assert!(!line.contains('\n'), "diagnostic spans lines: {line:?}");
    }

    let conversation = Conversation::new(whole.events().to_vec(), None, None);
    for view in [View::Raw, View::User, View::Provider] {
        for event in conversation.view(view).iter() {
            let _ = event.to_json();
        }
    }
});
