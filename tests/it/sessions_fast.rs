//! `overhear sessions` scans a Claude Code transcript for its figures
//! instead of building its conversation (docs/sessions.md, "How it is
//! read"). The scan must say what the full reader says, figure for figure:
//! here both read every shared fixture of every agent
//! (`$OVERHEAR_AGENT_FIXTURES`), the usage fixtures, and transcripts made
//! to hold each case the reader treats apart; wherever the scan answers,
//! its title, turns, calls, failures, tokens, cost and times equal the full
//! reader's, and it answers for every Claude Code transcript it should.

use std::path::{Path, PathBuf};

use overhear::search::{scanned_figures, whole_figures};
use serde_json::{Value, json};

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
    // Every Claude Code transcript is scanned: the usage fixtures' two, and
    // each one the shared fixtures hold, sub-agents' files included.
    let claude: Vec<&PathBuf> = files
        .iter()
        .filter(|f| {
            f.extension().is_some_and(|e| e == "jsonl")
                && (f.starts_with(&usage) && f.to_string_lossy().contains("claude")
                    || shared
                        .as_ref()
                        .is_some_and(|s| f.starts_with(s.join("claude-code"))))
        })
        .collect();
    assert!(claude.len() >= 2, "{claude:?}");
    for file in &claude {
        assert!(scanned.contains(file), "{} was not scanned", file.display());
    }
    // And nothing else: another agent's file is read whole.
    assert_eq!(scanned.len(), claude.len(), "{scanned:?}");
}

/// A Claude Code record of `kind` at second `s`.
fn record(kind: &str, uuid: &str, s: u32, message: Value) -> Value {
    json!({"type": kind, "uuid": uuid, "sessionId": "s", "cwd": "/w",
        "timestamp": format!("2026-11-30T10:00:{s:02}.000Z"), "message": message})
}

fn usage(input: u64, output: u64) -> Value {
    json!({"input_tokens": input, "cache_creation_input_tokens": 7,
        "cache_read_input_tokens": 100, "output_tokens": output})
}

fn write(dir: &Path, name: &str, lines: &[Value]) -> PathBuf {
    let path = dir.join(name);
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&path, text).unwrap();
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
