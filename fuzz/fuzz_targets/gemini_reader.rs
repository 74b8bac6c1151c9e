//! The Gemini CLI reader (spec agent-transcripts-2 §2) on arbitrary bytes
//! after a Gemini metadata line: replays (upserts, rewinds, checkpoints)
//! and legacy whole files must not panic, a chat fed in pieces must read
//! as fed whole, and the render (terminal and raw views, width 60) has no
//! line wider than 60 columns.
//!
//! Byte 0: where the input is cut into two pieces. The rest follows a
//! metadata line unless it starts with `{` alone on a line (a legacy file,
//! read whole).

#![no_main]

use libfuzzer_sys::fuzz_target;

mod agent_chat;

fuzz_target!(|data: &[u8]| {
    agent_chat::check(data, b"{\"sessionId\":\"s\",\"projectHash\":\"h\"}\n");
});
