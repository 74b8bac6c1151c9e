//! `overhear sessions` scans a Claude Code transcript or a Codex rollout
//! for its figures instead of building its conversation (docs/sessions.md,
//! "How it is read"). The scan must say what the full reader says, figure
//! for figure: here both read every shared fixture of every agent
//! (`$OVERHEAR_AGENT_FIXTURES`), the usage fixtures, and transcripts made
//! to hold each case the reader treats apart; wherever the scan answers,
//! its title, turns, calls, failures, tokens, cost and times equal the full
//! reader's, and it answers for every Claude Code transcript and Codex
//! rollout it should.

use std::path::{Path, PathBuf};

use overhear::load::sessions::Agents;
use overhear::search::{self, Kinds, Scope, scanned_figures, whole_figures};
use serde_json::{Value, json};

use crate::common::generate::sessions;

/// Every regular file under `dir`, sorted.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.is_file() {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Whether the scan answered for `path`; when it did, it says what the
/// full reader says.
fn agrees(path: &Path) -> bool {
    let Some((title, summary)) = scanned_figures(path) else {
        return false;
    };
    let (whole_title, whole) = whole_figures(path);
    assert_eq!(title, whole_title, "{}: the title", path.display());
    let whole = whole.unwrap_or_else(|e| panic!("{}: read whole: {e}", path.display()));
    assert_eq!(summary, whole, "{}: the figures", path.display());
    true
}

#[test]
fn the_scan_says_what_the_full_reader_says_on_every_fixture() {
    let usage = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/usage");
    let mut files = files_under(&usage);
    let shared = crate::common::agents::fixtures_dir();
    if let Some(shared) = &shared {
        files.extend(files_under(shared));
    }
    let mut scanned = Vec::new();
    for file in &files {
        if agrees(file) {
            scanned.push(file.clone());
        }
    }
    // Every Claude Code transcript and Codex rollout is scanned: the usage
    // fixtures' ones, and each one the shared fixtures hold, sub-agents'
    // files included.
    let of_agent = |agent: &str, folder: &str| -> Vec<&PathBuf> {
        files
            .iter()
            .filter(|f| {
                f.extension().is_some_and(|e| e == "jsonl")
                    && (f.starts_with(&usage) && f.to_string_lossy().contains(agent)
                        || shared
                            .as_ref()
                            .is_some_and(|s| f.starts_with(s.join(folder))))
            })
            .collect()
    };
    let claude = of_agent("claude", "claude-code");
    let codex = of_agent("codex", "codex");
    assert!(claude.len() >= 2, "{claude:?}");
    assert!(!codex.is_empty(), "{codex:?}");
    if shared.is_some() {
        assert!(codex.len() >= 8, "every shared Codex rollout: {codex:?}");
    }
    for file in claude.iter().chain(&codex) {
        assert!(scanned.contains(file), "{} was not scanned", file.display());
    }
    // And nothing else: another agent's file is read whole.
    assert_eq!(scanned.len(), claude.len() + codex.len(), "{scanned:?}");
}

/// A Claude Code record of `kind` at second `s` (the generated sessions'
/// records: `benches/common/sessions.rs`).
fn record(kind: &str, uuid: &str, s: u32, message: Value) -> Value {
    sessions::claude_record(kind, uuid, ("s", "/w"), s, message)
}

fn usage(input: u64, output: u64) -> Value {
    json!({"input_tokens": input, "cache_creation_input_tokens": 7,
        "cache_read_input_tokens": 100, "output_tokens": output})
}

fn write(dir: &Path, name: &str, lines: &[Value]) -> PathBuf {
    let path = dir.join(name);
    sessions::write_lines(&path, lines);
    path
}

#[test]
fn the_scan_follows_each_rule_of_the_reader() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let model = "claude-sonnet-4-5-20250929";
    let cases = [
        (
            // Speech before the first prompt is a turn of its own; a
            // response streamed over lines counts its usage once; a record
            // written twice counts once; a failed call.
            "before-and-twice",
            vec![
                record(
                    "assistant",
                    "a0",
                    1,
                    json!({"id": "m0", "model": model,
                    "content": [{"type": "text", "text": "hello"}], "usage": usage(5, 5)}),
                ),
                record("user", "u1", 2, json!({"content": "Fix it\nplease"})),
                record(
                    "assistant",
                    "a1",
                    3,
                    json!({"id": "m1", "model": model,
                    "content": [{"type": "thinking", "thinking": ""}], "usage": usage(10, 1)}),
                ),
                record(
                    "assistant",
                    "a2",
                    4,
                    json!({"id": "m1", "model": model,
                    "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}],
                    "usage": usage(10, 20)}),
                ),
                record(
                    "assistant",
                    "a2",
                    4,
                    json!({"id": "m1", "model": model,
                    "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}],
                    "usage": usage(10, 20)}),
                ),
                record(
                    "user",
                    "u2",
                    5,
                    json!({"content": [{"type": "tool_result",
                    "tool_use_id": "t1", "is_error": true, "content": "no"}]}),
                ),
                record(
                    "assistant",
                    "a3",
                    6,
                    json!({"id": "m2", "model": model,
                    "content": "Done.", "usage": usage(3, 4)}),
                ),
            ],
        ),
        (
            // Harness text, local command output, an interruption and an
            // empty prompt open no turn; an API error's record; responses
            // of empty texts only (no event: their time does not count); a
            // title record wins over the first prompt; usage with an
            // unknown model, then `null` usage under a priced one.
            "not-prompts",
            vec![
                record(
                    "user",
                    "u0",
                    1,
                    json!({"content": "<local-command-stdout>hi</local-command-stdout>"}),
                ),
                json!({"type": "user", "uuid": "u1", "isMeta": true, "timestamp": "2026-11-30T10:00:02Z",
                    "message": {"content": "Caveat: harness"}}),
                record(
                    "user",
                    "u2",
                    3,
                    json!({"content": [{"type": "text", "text": "  "}]}),
                ),
                record(
                    "user",
                    "u3",
                    4,
                    json!({"content": "<command-name>/init</command-name>"}),
                ),
                record(
                    "assistant",
                    "a1",
                    5,
                    json!({"id": "m1", "model": "no-such-model",
                    "content": [{"type": "text", "text": ""}], "usage": usage(10, 10)}),
                ),
                json!({"type": "assistant", "uuid": "a2", "isApiErrorMessage": true,
                    "timestamp": "2026-11-30T10:00:06Z", "message": {"content": "API Error"}}),
                record(
                    "user",
                    "u4",
                    7,
                    json!({"content": "[Request interrupted by user]"}),
                ),
                record(
                    "assistant",
                    "a3",
                    8,
                    json!({"id": "m2", "model": model,
                    "content": [{"type": "text", "text": ""}], "usage": null}),
                ),
                json!({"type": "summary", "summary": "A summary", "leafUuid": "a3"}),
                record(
                    "assistant",
                    "a4",
                    59,
                    json!({"id": "m3", "content": [{"type": "text", "text": ""}]}),
                ),
            ],
        ),
        (
            // An inline sub-agent's records count for nothing but their
            // time; an unsupported block and a bare string are speech.
            "inline-sidechain",
            vec![
                record("user", "u1", 1, json!({"content": "Review"})),
                record(
                    "assistant",
                    "a1",
                    2,
                    json!({"id": "m1", "model": model,
                    "content": [{"type": "tool_use", "id": "t1", "name": "Task",
                        "input": {"prompt": "look"}}, 7, "said"], "usage": usage(1, 1)}),
                ),
                json!({"type": "user", "uuid": "s1", "isSidechain": true, "parentUuid": null,
                    "timestamp": "2026-11-30T10:00:03Z", "message": {"content": "look"}}),
                json!({"type": "assistant", "uuid": "s2", "isSidechain": true, "parentUuid": "s1",
                    "timestamp": "2026-11-30T10:00:09Z", "message": {"id": "x", "model": model,
                    "content": [{"type": "tool_use", "id": "t9", "name": "Read", "input": {}}],
                    "usage": usage(1000, 1000)}}),
                record(
                    "user",
                    "u2",
                    4,
                    json!({"content": [{"type": "tool_result",
                    "tool_use_id": "t1", "content": "ok"}]}),
                ),
            ],
        ),
    ];
    for (name, lines) in cases {
        let path = write(dir, &format!("{name}.jsonl"), &lines);
        assert!(agrees(&path), "{name}: not scanned");
    }
    let (title, figures) = scanned_figures(&dir.join("before-and-twice.jsonl")).unwrap();
    assert_eq!(title.as_deref(), Some("Fix it"));
    assert_eq!(
        (figures.turns, figures.tool_calls, figures.failures),
        (2, 1, 1)
    );
    let (title, figures) = scanned_figures(&dir.join("not-prompts.jsonl")).unwrap();
    assert_eq!(title.as_deref(), Some("A summary"));
    // One prompt (`/init`); the last time is the interruption's: the
    // responses of empty texts after it made no event.
    assert_eq!(figures.turns, 1, "{figures:?}");
    assert_eq!(
        figures.last.map(|t| t.to_string()).as_deref(),
        Some("2026-11-30T10:00:07Z")
    );

    // A call written again while unanswered, with other arguments, is a
    // call of its own: only the arguments tell, which the scan skips, so
    // such a file is read whole.
    let again = write(
        dir,
        "again.jsonl",
        &[
            record("user", "u1", 1, json!({"content": "Go"})),
            record(
                "assistant",
                "a1",
                2,
                json!({"id": "m1", "content": [{"type": "tool_use",
                "id": "t1", "name": "Bash", "input": {"command": "ls"}}]}),
            ),
            record(
                "assistant",
                "a2",
                3,
                json!({"id": "m2", "content": [{"type": "tool_use",
                "id": "t1", "name": "Bash", "input": {"command": "rm"}}]}),
            ),
        ],
    );
    assert!(scanned_figures(&again).is_none());
    assert_eq!(whole_figures(&again).1.unwrap().tool_calls, 2);
    // A line that is not JSON is the reader's to report.
    let broken = dir.join("broken.jsonl");
    std::fs::write(
        &broken,
        format!(
            "{}\n{{not json\n",
            record("user", "u1", 1, json!({"content": "Go"}))
        ),
    )
    .unwrap();
    assert!(scanned_figures(&broken).is_none());
}

/// Codex's rules: the two copies of a prompt and of a reply, injected
/// context, reasoning before the first prompt, an output's failure by its
/// text, by an extended-mode event before or after it, a refused call,
/// usage as the growth of the totals, a model change, an IDE prompt with
/// images, a thread name, and a legacy rollout's bare items.
#[test]
fn the_codex_scan_follows_each_rule_of_the_reader() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let item = |s, payload| sessions::codex_record("response_item", s, payload);
    let event = |s, payload| sessions::codex_record("event_msg", s, payload);
    let tokens = |s, input: u64, output: u64| {
        event(
            s,
            json!({"type": "token_count", "info": {"total_token_usage":
            {"input_tokens": input, "cached_input_tokens": input / 2, "output_tokens": output}}}),
        )
    };
    let said = |role: &str, kind: &str, text: &str| json!({"type": "message", "role": role, "content": [{"type": kind, "text": text}]});
    let rules = write(
        dir,
        "rules.jsonl",
        &[
            sessions::codex_record(
                "session_meta",
                0,
                json!({"id": "c", "cwd": "/w", "instructions": "Be brief."}),
            ),
            sessions::codex_record("turn_context", 1, json!({"cwd": "/w", "model": "gpt-5"})),
            item(
                2,
                json!({"type": "reasoning", "summary": [], "encrypted_content": "xyz"}),
            ),
            item(
                3,
                said(
                    "user",
                    "input_text",
                    "<environment_context>/w</environment_context>",
                ),
            ),
            item(4, said("user", "input_text", "Fix the parser\nplease")),
            event(
                5,
                json!({"type": "user_message", "message": "Fix the parser\nplease", "kind": "plain"}),
            ),
            event(6, json!({"type": "agent_message", "message": "Looking."})),
            item(7, said("assistant", "output_text", "Looking.")),
            item(
                8,
                json!({"type": "function_call", "call_id": "c1", "name": "shell",
                "arguments": "{\"command\":[\"cargo\",\"test\"]}"}),
            ),
            item(
                9,
                json!({"type": "function_call_output", "call_id": "c1",
                "output": "Exit code: 1\nWall time: 1s\nOutput:\nfailed"}),
            ),
            event(
                10,
                json!({"type": "exec_command_end", "call_id": "c1", "exit_code": 0,
                "aggregated_output": "ok"}),
            ),
            item(
                11,
                json!({"type": "function_call", "call_id": "c2", "name": "shell", "arguments": "{}"}),
            ),
            event(
                12,
                json!({"type": "exec_command_end", "call_id": "c2", "exit_code": 2}),
            ),
            item(
                13,
                json!({"type": "function_call_output", "call_id": "c2", "output": "fine"}),
            ),
            item(
                14,
                json!({"type": "custom_tool_call", "call_id": "c3", "name": "apply_patch",
                "input": "*** Begin Patch"}),
            ),
            item(
                15,
                json!({"type": "custom_tool_call_output", "call_id": "c3",
                "output": "patch rejected by user"}),
            ),
            tokens(16, 10_000, 500),
            event(17, json!({"type": "task_complete"})),
            event(
                18,
                json!({"type": "user_message", "kind": "plain", "images": ["data:image/png;base64,AAAA"],
                "message": "# Context from my IDE\nfile.rs\n## My request for Codex:\nAnd the lexer"}),
            ),
            sessions::codex_record(
                "turn_context",
                19,
                json!({"cwd": "/w", "model": "gpt-5-codex"}),
            ),
            tokens(20, 25_000, 900),
            event(21, json!({"type": "agent_message", "message": "Done."})),
            event(
                22,
                json!({"type": "thread_name_updated", "thread_name": "Parser fixes"}),
            ),
            // The reply's other copy: no event, so its time is not the last.
            item(59, said("assistant", "output_text", "Done.")),
        ],
    );
    assert!(agrees(&rules), "not scanned");
    let (title, figures) = scanned_figures(&rules).unwrap();
    assert_eq!(title.as_deref(), Some("Parser fixes"));
    // Reasoning before the first prompt is a turn of its own; c1 failed by
    // its text but its event says it did not, c2 the other way round, c3
    // was refused.
    assert_eq!(
        (figures.turns, figures.tool_calls, figures.failures),
        (3, 3, 2)
    );
    assert_eq!(
        (figures.input_tokens, figures.output_tokens),
        (Some(25_000), Some(900))
    );
    assert_eq!(figures.cost.costed, 2, "{figures:?}");
    assert_eq!(
        figures.last.map(|t| t.to_string()).as_deref(),
        Some("2026-11-30T11:00:22Z")
    );

    // Without a thread name, the first prompt's first line; an IDE
    // prompt's request without its editor context.
    let ide = write(
        dir,
        "ide.jsonl",
        &[
            event(
                1,
                json!({"type": "user_message", "kind": "plain",
                "message": "# Context from my IDE\nfile.rs\n## My request for Codex:\n\n  And the lexer"}),
            ),
            item(2, said("user", "input_text", "And the lexer")),
        ],
    );
    assert!(agrees(&ide), "not scanned");
    assert_eq!(
        scanned_figures(&ide).unwrap().0.as_deref(),
        Some("And the lexer")
    );

    // A legacy rollout: a `{id, timestamp}` line, then bare items.
    let legacy = write(
        dir,
        "legacy.jsonl",
        &[
            json!({"id": "l", "timestamp": "2025-08-01T09:00:00.000Z", "instructions": "x"}),
            json!({"record_type": "state"}),
            json!({"type": "message", "role": "user",
                "content": [{"type": "input_text", "text": "List the files"}]}),
            json!({"type": "function_call", "call_id": "l1", "name": "shell", "arguments": "{}"}),
            json!({"type": "function_call_output", "call_id": "l1",
                "output": "{\"output\":\"denied\",\"metadata\":{\"exit_code\":1}}"}),
        ],
    );
    assert!(agrees(&legacy), "not scanned");
    let (title, figures) = scanned_figures(&legacy).unwrap();
    assert_eq!(title.as_deref(), Some("List the files"));
    assert_eq!(
        (figures.turns, figures.tool_calls, figures.failures),
        (1, 1, 1)
    );

    // A call written again while unanswered is one call if it asks the
    // same, which only its arguments tell: read whole.
    let again = write(
        dir,
        "again.jsonl",
        &[
            event(1, json!({"type": "user_message", "message": "Go"})),
            item(
                2,
                json!({"type": "function_call", "call_id": "c1", "name": "shell", "arguments": "{}"}),
            ),
            item(
                3,
                json!({"type": "function_call", "call_id": "c1", "name": "shell", "arguments": "{}"}),
            ),
        ],
    );
    assert!(scanned_figures(&again).is_none());
    assert_eq!(whole_figures(&again).1.unwrap().tool_calls, 1);
}

/// `overhear sessions` over a home of generated sessions (the bench's, 300
/// of them) lists each with the figures the full reader gives it.
#[test]
fn the_listing_of_generated_sessions_says_what_the_full_reader_says() {
    let root = tempfile::tempdir().unwrap();
    let home = root.path().join("home");
    sessions::write_home(&home, 200, 100);
    let env = |name: &str| (name == "HOME").then(|| home.display().to_string());
    let kinds = Kinds {
        agents: Agents::ALL,
        jp: false,
    };
    let chosen = search::sessions(&Scope::AllProjects(root.path().into()), kinds, &[], &env);
    assert_eq!(chosen.len(), 300);
    let paths: Vec<PathBuf> = chosen.iter().map(|s| s.target.open.clone()).collect();
    let listed = search::list(chosen, 2, std::time::SystemTime::now());
    for (listed, path) in listed.iter().zip(&paths) {
        let (title, figures) = whole_figures(path);
        assert_eq!(listed.title, title, "{}", path.display());
        assert_eq!(
            listed.figures.as_ref().ok(),
            figures.as_ref().ok(),
            "{}",
            path.display()
        );
        assert!(listed.figures.is_ok(), "{}", path.display());
        assert!(
            scanned_figures(path).is_some(),
            "{} not scanned",
            path.display()
        );
    }
}
