//! The Claude Code session the export tests read (`export_content`,
//! `export_page`): a prompt, a Bash call whose result is a build log, a
//! second call (an Edit, a Read) and its result, and the reply; and the
//! binary's output for an export of it.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::agents::claude::{record, user};

/// What the session holds.
pub struct ExportSession<'a> {
    /// The prompt.
    pub prompt: &'a str,
    /// The Bash call's result, a line each.
    pub log: Vec<String>,
    /// Whether the Bash call failed.
    pub failed: bool,
    /// The second call: its tool's name and its input.
    pub second: (&'a str, Value),
    /// The second call's result.
    pub second_result: &'a str,
    /// The reply (Markdown).
    pub reply: &'a str,
}

impl ExportSession<'_> {
    /// Writes the session to `dir/session.jsonl`: its prompt at 10:00:00,
    /// the Bash call at :01 answered at :04, the second call at :05
    /// answered at :06, the reply at :08; every assistant record of model
    /// `claude-test-1` with 1,200 tokens in (5,000 read from the cache, 70
    /// written) and 340 out.
    pub fn write(&self, dir: &Path) -> PathBuf {
        let (name, input) = &self.second;
        let records = [
            user("u1", 0, false, json!(self.prompt)),
            assistant(
                "a1",
                1,
                json!([{"type": "tool_use", "id": "toolu_build", "name": "Bash",
                        "input": {"command": "make all", "description": "Build everything"}}]),
            ),
            user(
                "u2",
                4,
                false,
                json!([{"type": "tool_result", "tool_use_id": "toolu_build",
                        "is_error": self.failed, "content": self.log.join("\n")}]),
            ),
            assistant(
                "a2",
                5,
                json!([{"type": "tool_use", "id": "toolu_second", "name": name, "input": input}]),
            ),
            user(
                "u3",
                6,
                false,
                json!([{"type": "tool_result", "tool_use_id": "toolu_second",
                        "content": self.second_result}]),
            ),
            assistant("a3", 8, json!([{"type": "text", "text": self.reply}])),
        ];
        let path = dir.join("session.jsonl");
        std::fs::write(&path, records.concat()).unwrap();
        path
    }
}

/// An `assistant` record of model `claude-test-1` with its usage, holding
/// `content`.
pub fn assistant(uuid: &str, second: u32, content: Value) -> String {
    let message = json!({
        "id": format!("msg_{uuid}"), "role": "assistant", "model": "claude-test-1",
        "content": content,
        "usage": {"input_tokens": 1200, "output_tokens": 340,
                  "cache_read_input_tokens": 5000, "cache_creation_input_tokens": 70},
    });
    record("assistant", uuid, second, false, message)
}

/// `overhear ARGS`'s standard output; the run must succeed.
pub fn run(args: &[&str]) -> String {
    let out = crate::common::overhear()
        .args(args)
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "overhear {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// A long Claude Code session of about `bytes` bytes written to `path`
/// (prompts, replies with usage, `Bash` calls with 500-word results,
/// deterministic); its size.
pub fn long_session(path: &Path, bytes: usize) -> u64 {
    let vocabulary = [
        "build", "cargo", "delta", "error", "field", "green", "index", "kernel",
    ];
    let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
    let mut words = |n: usize| {
        (0..n)
            .map(|_| {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                vocabulary[(seed >> 60) as usize % vocabulary.len()]
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut lines = Vec::new();
    let mut size = 0;
    let mut turn = 0;
    while size < bytes {
        let call = format!("t{turn}");
        let line = |name: &str, kind: &str, message: Value| {
            json!({"type": kind, "uuid": format!("{name}{turn}"), "parentUuid": null,
                   "sessionId": "s", "timestamp": "2026-01-01T00:00:00Z", "message": message})
        };
        let reply = |name: &str, content: Value| {
            line(
                name,
                "assistant",
                json!({"id": format!("m{name}{turn}"),
                "role": "assistant", "model": "claude-sonnet-4-5",
                "usage": {"input_tokens": 1200, "output_tokens": 80}, "content": content}),
            )
        };
        let records = [
            line("p", "user", json!({"role": "user", "content": words(30)})),
            reply(
                "c",
                json!([{"type": "text", "text": words(120)},
                {"type": "tool_use", "id": call, "name": "Bash", "input": {"command": "cargo test"}}]),
            ),
            line(
                "r",
                "user",
                json!({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": call, "content": words(500)}]}),
            ),
            reply("a", json!([{"type": "text", "text": words(60)}])),
        ];
        size += records
            .iter()
            .map(|r| r.to_string().len() + 1)
            .sum::<usize>();
        lines.extend(records);
        turn += 1;
    }
    let text: String = lines.iter().map(|l| l.to_string() + "\n").collect();
    std::fs::write(path, &text).expect("transcript written");
    text.len() as u64
}
