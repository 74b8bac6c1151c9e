//! The OpenCode reader on arbitrary rows: what OpenCode stores as a
//! message's or a part's JSON text (`data`, decoded by the reader) comes
//! from the input, the rows around it are well formed, as the store's
//! source makes them.
//!
//! The input is cut at each `0xFF` byte into rows. A row's first byte picks
//! its table (session, message, part), its session (the main one or a
//! child: a sub-agent's rows) and its id among a few (a row sent again is
//! an update in place); the rest is its `data`, read as UTF-8 with
//! replacements. Reading must not panic, a row read again must leave the
//! events as many or more (the reader never removes one), and the
//! conversation must group and project into every view.

#![no_main]

use libfuzzer_sys::fuzz_target;
use overhear::format::opencode::OpenCodeReader;
use overhear::model::{Conversation, View};
use serde_json::json;

fuzz_target!(|data: &[u8]| {
    let mut lines = Vec::new();
    let session = json!({"opencode": "session", "id": "ses_m", "title": "t"});
    lines.push(session.to_string());
    let child = json!({"opencode": "session", "id": "ses_c", "parent_id": "ses_m"});
    lines.push(child.to_string());
    for row in data.split(|b| *b == 0xFF) {
        let Some((&pick, text)) = row.split_first() else {
            continue;
        };
        let text = String::from_utf8_lossy(text);
        let session = if pick & 0x08 != 0 { "ses_c" } else { "ses_m" };
        let id = pick >> 4;
        let record = match pick % 3 {
            0 => json!({"opencode": "message", "id": format!("msg_{id}"),
                        "session_id": session, "time_created": i64::from(id), "data": text}),
            1 => json!({"opencode": "part", "id": format!("prt_{id}"),
                        "message_id": format!("msg_{}", id % 4), "session_id": session,
                        "data": text}),
            _ => json!({"opencode": "session", "id": session, "data": text}),
        };
        lines.push(record.to_string());
    }
    let mut reader = OpenCodeReader::new();
    let mut count = 0;
    for line in &lines {
        reader.push(format!("{line}\n").as_bytes());
        assert!(reader.events().len() >= count, "an event was removed");
        count = reader.events().len();
    }
    reader.finish();
    let _ = reader.take_subagents();
    let conversation = Conversation::new(reader.events().to_vec(), None, None);
    for view in [View::Raw, View::User, View::Provider] {
        for event in conversation.view(view).iter() {
            let _ = event.to_json();
        }
    }
});
