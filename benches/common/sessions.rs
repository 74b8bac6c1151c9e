//! Generated agent sessions: Claude Code transcripts and Codex rollouts
//! written under a home folder where `overhear sessions` finds them. The
//! `session_list` bench times listing 10,000 of them; the integration tests
//! (`sessions_fast`) build their transcripts from the same records and
//! check the scan against the full reader on a small home of them.

use std::path::Path;

use serde_json::{Value, json};

/// A Claude Code record of `kind` in session `session`, run in `cwd`, at
/// second `second` of 2026-11-30 10:00.
pub fn claude_record(
    kind: &str,
    uuid: &str,
    (session, cwd): (&str, &str),
    second: u32,
    message: Value,
) -> Value {
    json!({"type": kind, "uuid": uuid, "sessionId": session, "cwd": cwd,
        "timestamp": format!("2026-11-30T10:00:{second:02}.000Z"), "message": message})
}

/// A Codex rollout line of `kind` at second `second` of 2026-11-30 11:00.
pub fn codex_record(kind: &str, second: u32, payload: Value) -> Value {
    json!({"timestamp": format!("2026-11-30T11:00:{second:02}.000Z"), "type": kind,
        "payload": payload})
}

/// Writes `lines` as JSON Lines to `path`.
pub fn write_lines(path: &Path, lines: &[Value]) {
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(path, text).expect("a generated session written");
}

/// Writes `claude` Claude Code sessions in 100 project folders (a prompt,
/// a tool call and its 740-byte result — every 7th failed —, a reply,
/// usage on each response; ~3 kB each) and `codex` Codex rollouts (a
/// prompt, a reply, a `token_count`) under `home`.
pub fn write_home(home: &Path, claude: usize, codex: usize) {
    for n in 0..claude {
        let project = format!("/work/project{}", n % 100);
        let dir = home
            .join(".claude/projects")
            .join(project.replace('/', "-"));
        if n < 100 {
            std::fs::create_dir_all(&dir).expect("claude folder");
        }
        let usage = |i: u64| {
            json!({"input_tokens": 10 + i, "cache_creation_input_tokens": 500,
            "cache_read_input_tokens": 20_000 + i, "output_tokens": 300})
        };
        let session = (format!("s{n}"), project.as_str());
        let record = |kind, uuid, second, message| {
            claude_record(kind, uuid, (&session.0, session.1), second, message)
        };
        let model = "claude-sonnet-4-5-20250929";
        write_lines(
            &dir.join(format!("s{n}.jsonl")),
            &[
                record(
                    "user",
                    "u1",
                    0,
                    json!({"role": "user", "content": format!("Fix bug {n} in the parser")}),
                ),
                record(
                    "assistant",
                    "a1",
                    2,
                    json!({"id": "m1", "model": model, "role": "assistant", "usage": usage(1),
                    "content": [{"type": "tool_use", "id": "t1", "name": "Bash",
                        "input": {"command": "cargo test parser"}}]}),
                ),
                record(
                    "user",
                    "u2",
                    5,
                    json!({"role": "user", "content": [{"type": "tool_result",
                    "tool_use_id": "t1", "is_error": n % 7 == 0,
                    "content": "test parser::tests::it_reads ... ok\n".repeat(20)}]}),
                ),
                record(
                    "assistant",
                    "a2",
                    9,
                    json!({"id": "m2", "model": model, "role": "assistant", "usage": usage(2),
                    "content": [{"type": "text", "text": "The parser reads it now. ".repeat(20)}]}),
                ),
            ],
        );
    }
    let folder = home.join(".codex/sessions/2026/11/30");
    std::fs::create_dir_all(&folder).expect("codex folder");
    for n in 0..codex {
        write_lines(
            &folder.join(format!("rollout-2026-11-30T11-00-00-{n}.jsonl")),
            &[
                codex_record(
                    "session_meta",
                    0,
                    json!({"id": format!("c{n}"), "timestamp": "2026-11-30T11:00:00Z",
                    "cwd": format!("/work/project{}", n % 100), "originator": "codex_cli_rs",
                    "cli_version": "0.80.0"}),
                ),
                codex_record(
                    "turn_context",
                    1,
                    json!({"cwd": "/work", "model": "gpt-5-codex"}),
                ),
                codex_record(
                    "event_msg",
                    1,
                    json!({"type": "user_message", "message": format!("Task {n}"),
                    "kind": "plain"}),
                ),
                codex_record(
                    "event_msg",
                    4,
                    json!({"type": "agent_message", "message": "Done. ".repeat(40)}),
                ),
                codex_record(
                    "event_msg",
                    5,
                    json!({"type": "token_count", "info": {"total_token_usage":
                    {"input_tokens": 20_000, "cached_input_tokens": 15_000, "output_tokens": 1_200}}}),
                ),
                codex_record("event_msg", 6, json!({"type": "task_complete"})),
            ],
        );
    }
}
