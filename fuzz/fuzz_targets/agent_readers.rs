//! The Claude Code and Codex readers with sub-agent linking, on arbitrary
//! bytes split into a parent transcript and its sub-agent's file.
//!
//! Byte 0: mode — bit 0 picks the format (Claude Code, Codex), bit 1 makes
//! the child a copy of the parent (a file that is its own sub-agent's
//! target: a cycle). Bytes 1–2: where the rest splits into the parent and
//! the child. The child is named as the parent's first `agentId` (Claude
//! Code: `agent-<id>.jsonl`) or `agent_id` (Codex: `rollout-…-<id>.jsonl`)
//! says, so links are followed whenever the bytes make one; the parent is
//! named the same way when the child links back. Opening the parent must
//! not panic or overflow the stack, every warning is one line, and the
//! rendered conversation (terminal and raw views, width 60) has no line
//! wider than 60 columns.

#![no_main]

use std::path::PathBuf;

use libfuzzer_sys::fuzz_target;
use overhear::text::width::display_width;
use overhear::{Conversation, RenderOptions, View, render};

/// The first plain id after `key` in `bytes` (letters, digits, `-`, `_`).
fn id_after(bytes: &[u8], key: &[u8]) -> Option<String> {
    let at = bytes.windows(key.len()).position(|w| w == key)? + key.len();
    let id: String = bytes[at..]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'-' || **b == b'_')
        .map(|b| char::from(*b))
        .collect();
    // A longer id names no file the system can make (the harness's limit,
    // not the reader's): such an input links to the default names instead.
    (!id.is_empty() && id.len() <= 200).then_some(id)
}

/// A folder of this process's own, emptied for each input.
fn folder() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("overhear-fuzz-agents-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

fuzz_target!(|data: &[u8]| {
    let [mode, a, b, rest @ ..] = data else {
        return;
    };
    let split = usize::from(u16::from_le_bytes([*a, *b])) % (rest.len() + 1);
    let (parent, child) = rest.split_at(split);
    let child = if mode & 2 != 0 { parent } else { child };
    let codex = mode & 1 != 0;
    let (key, name): (&[u8], fn(&str) -> String) = if codex {
        (b"\"agent_id\\\":\\\"", |id| {
            format!("rollout-2026-01-01T00-00-00-{id}.jsonl")
        })
    } else {
        (b"\"agentId\":\"", |id| format!("agent-{id}.jsonl"))
    };
    let dir = folder();
    let child_id = id_after(parent, key).unwrap_or_else(|| "c".into());
    let parent_id = id_after(child, key)
        .filter(|id| *id != child_id)
        .unwrap_or_else(|| "p".into());
    let parent_path = dir.join(name(&parent_id));
    std::fs::write(&parent_path, parent).expect("parent written");
    std::fs::write(dir.join(name(&child_id)), child).expect("child written");

    if let Ok(conversation) = Conversation::open(&parent_path) {
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
