//! The Qwen Code reader (spec agent-transcripts-2 §4) on arbitrary bytes
//! after a Qwen prompt record: glued lines, telemetry, tool results and
//! sidechains must not panic, a chat fed in pieces must read as fed whole,
//! and the render (terminal and raw views, width 60) has no line wider
//! than 60 columns.
//!
//! Byte 0: where the input is cut into two pieces.

#![no_main]

use libfuzzer_sys::fuzz_target;

mod agent_chat;

fuzz_target!(|data: &[u8]| {
    agent_chat::check(
        data,
        b"{\"uuid\":\"u\",\"sessionId\":\"s\",\"type\":\"user\",\"message\":{\"parts\":[{\"text\":\"hi\"}]}}\n",
    );
});
