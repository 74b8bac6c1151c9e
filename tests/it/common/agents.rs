//! The real Claude Code transcripts and Codex rollouts the spec pins
//! (`../shared/fixtures/{claude-code,codex}`, or the folder
//! `$OVERHEAR_AGENT_FIXTURES` names), listed once for the tests that read
//! them. When they are absent a line on stderr says the test was skipped:
//! `cargo test` on a fresh clone needs nothing outside the repository (with
//! `CI=true`, as `.ci/run` sets it, their absence fails).

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The folder holding `claude-code/` and `codex/`, or `None` after saying so.
pub fn fixtures_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("OVERHEAR_AGENT_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures"));
    if dir.join("claude-code").is_dir() && dir.join("codex").is_dir() {
        Some(dir)
    } else {
        let message = format!(
            "no agent transcripts at {} (set OVERHEAR_AGENT_FIXTURES)",
            dir.display()
        );
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{message} (CI=true: the fixtures must be there)"
        );
        eprintln!("skipped: {message}");
        None
    }
}

/// Which agent wrote a transcript.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    /// Claude Code.
    ClaudeCode,
    /// Codex CLI.
    Codex,
}

/// Every transcript (`*.jsonl`, sub-agent files included) of both agents, sorted.
pub fn transcripts() -> Option<Vec<(Agent, PathBuf)>> {
    let dir = fixtures_dir()?;
    let mut out = Vec::new();
    for (agent, name) in [(Agent::ClaudeCode, "claude-code"), (Agent::Codex, "codex")] {
        let mut files = Vec::new();
        walk(&dir.join(name), &mut files);
        files.sort();
        assert!(!files.is_empty(), "no transcripts under {name}");
        out.extend(files.into_iter().map(|f| (agent, f)));
    }
    Some(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{} is readable: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            walk(&path, out);
        } else if path.extension().is_some_and(|e| e == "jsonl") {
            out.push(path);
        }
    }
}

/// A fixture's path relative to the fixtures folder, for messages.
pub fn name(path: &Path) -> String {
    let dir = fixtures_dir().unwrap_or_default();
    path.strip_prefix(&dir)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// `line` (one record of a transcript) as written `ago` before now: the
/// time it states moved there. A viewer takes a file whose records all
/// state old times as written long ago, whatever the file's own time says
/// (docs/agents.md), so a test of a transcript being written now states now.
pub fn stated_ago(line: &str, ago: std::time::Duration) -> String {
    let then = jiff::Timestamp::now() - jiff::SignedDuration::try_from(ago).expect("a short time");
    let stamp = then.strftime("%Y-%m-%dT%H:%M:%S.%3fZ").to_string();
    let start = line.find("\"timestamp\":\"").expect("a timestamp") + 13;
    let end = start + line[start..].find('"').expect("its end");
    format!("{}{stamp}{}", &line[..start], &line[end..])
}

/// Hand-written Claude Code records for a session with one sub-agent, for
/// tests that build their own transcript (its file `SESSION.jsonl`, the
/// sub-agent's `SESSION/subagents/agent-AGENT.jsonl`).
pub mod claude {
    use serde_json::{Value, json};

    /// The session's id.
    pub const SESSION: &str = "5e55a0e1-0000-4000-8000-00000000c0de";
    /// The sub-agent's id.
    pub const AGENT: &str = "a1b2c3d4e5f6a7b8c";

    /// One record at second `second` (`sidechain`: the sub-agent's), as a line.
    pub fn record(kind: &str, uuid: &str, second: u32, sidechain: bool, message: Value) -> String {
        let mut line = json!({
            "type": kind, "uuid": uuid, "sessionId": SESSION, "isSidechain": sidechain,
            "timestamp": format!("2026-01-22T10:00:{second:02}.000Z"), "message": message,
        });
        if sidechain {
            line["agentId"] = Value::from(AGENT);
        }
        line.to_string() + "\n"
    }

    /// A `user` record holding `content`.
    pub fn user(uuid: &str, second: u32, sidechain: bool, content: Value) -> String {
        let message = json!({"role": "user", "content": content});
        record("user", uuid, second, sidechain, message)
    }

    /// An `assistant` record holding `content`, its message id made from `uuid`.
    pub fn assistant(uuid: &str, second: u32, sidechain: bool, content: Value) -> String {
        let message = json!({"id": format!("msg_{uuid}"), "role": "assistant", "content": content});
        record("assistant", uuid, second, sidechain, message)
    }
}

/// Turns (prompts), tool calls by name, failed calls and replies: what the
/// spec's counting rules count, for comparing a reader with the file.
#[derive(Debug, Default, PartialEq)]
pub struct Counts {
    pub turns: usize,
    pub calls: std::collections::BTreeMap<String, usize>,
    pub errors: usize,
    pub replies: usize,
}

/// The [`Counts`] of `overhear events --jsonl` output: the parent's, and each
/// sub-agent's by the id of the call that started it.
pub fn counts_of_events(stdout: &[u8]) -> (Counts, std::collections::BTreeMap<String, Counts>) {
    use serde_json::Value;
    let mut parent = Counts::default();
    let mut subagents: std::collections::BTreeMap<String, Counts> = Default::default();
    for line in stdout.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let event: Value = serde_json::from_slice(line).expect("events prints JSON lines");
        let counts = match event["overhear.subagent"].as_str() {
            Some(call) => subagents.entry(call.to_string()).or_default(),
            None => &mut parent,
        };
        match event["type"].as_str() {
            Some("chat_request") => counts.turns += 1,
            Some("tool_call_request") => {
                let name = event["name"].as_str().unwrap_or("").to_string();
                *counts.calls.entry(name).or_default() += 1;
            }
            Some("tool_call_response") if event["is_error"] == Value::Bool(true) => {
                counts.errors += 1
            }
            Some("chat_response") if event["message"].is_string() => counts.replies += 1,
            _ => {}
        }
    }
    (parent, subagents)
}
