//! Nothing the agent wrote is lost from view, each
//! through the binary: a lone surrogate escape (a string cut inside an
//! emoji) reads as U+FFFD with one warning, in every format; two calls
//! sharing an id are both shown, each with its result; `--at TIME` places
//! the lines of a Claude Code or Codex transcript by their timestamps; a
//! turn's time comes from its own records; a followed file rewritten in
//! place is read again, and one overwritten with what cannot be read keeps
//! the last readable version with a note.

use crate::common;

use std::path::{Path, PathBuf};

use common::support::overhear;
use serde_json::{Value, json};

fn write(dir: &Path, name: &str, lines: &[Value]) -> PathBuf {
    let path = dir.join(name);
    let text: String = lines.iter().map(|line| format!("{line}\n")).collect();
    std::fs::write(&path, text).expect("written");
    path
}

fn at(second: u32) -> String {
    format!("2026-08-03T10:48:{second:02}.000Z")
}

/// A Claude Code transcript whose second call reuses the first's id; the
/// second call fails.
fn claude_reused_id(dir: &Path) -> PathBuf {
    let call = |uuid: &str, s: u32, command: &str| {
        json!({"type": "assistant", "uuid": uuid, "sessionId": "s", "timestamp": at(s),
            "message": {"id": uuid, "role": "assistant", "content": [{"type": "tool_use",
                "id": "toolu_1", "name": "Bash", "input": {"command": command}}]}})
    };
    let result = |uuid: &str, s: u32, text: &str, error: bool| {
        json!({"type": "user", "uuid": uuid, "sessionId": "s", "timestamp": at(s),
            "message": {"role": "user", "content": [{"type": "tool_result",
                "tool_use_id": "toolu_1", "content": text, "is_error": error}]}})
    };
    write(
        dir,
        "reused.jsonl",
        &[
            json!({"type": "user", "uuid": "u1", "sessionId": "s", "timestamp": at(0),
                "message": {"role": "user", "content": "Clean up my home folder"}}),
            call("a1", 2, "ls ~"),
            result("u2", 3, "important", false),
            call("a2", 4, "rm -rf ~/important"),
            result("u3", 5, "rm: cannot remove: permission denied", true),
            json!({"type": "assistant", "uuid": "a3", "sessionId": "s", "timestamp": at(6),
                "message": {"id": "m3", "role": "assistant",
                    "content": [{"type": "text", "text": "The folder is protected."}]}}),
        ],
    )
}

/// A Codex rollout whose second call reuses the first's `call_id`.
fn codex_reused_id(dir: &Path) -> PathBuf {
    let call = |s: u32, command: &str| {
        json!({"timestamp": at(s), "type": "response_item",
            "payload": {"type": "function_call", "name": "shell", "call_id": "call_1",
                "arguments": json!({"command": ["bash", "-lc", command]}).to_string()}})
    };
    let output = |s: u32, text: &str, code: u32| {
        json!({"timestamp": at(s), "type": "response_item",
            "payload": {"type": "function_call_output", "call_id": "call_1",
                "output": json!({"output": text, "metadata": {"exit_code": code}}).to_string()}})
    };
    write(
        dir,
        "rollout-reused.jsonl",
        &[
            json!({"timestamp": at(0), "type": "session_meta",
                "payload": {"id": "x", "timestamp": at(0), "cwd": "/w",
                    "originator": "codex_cli_rs", "cli_version": "0.80.0"}}),
            json!({"timestamp": at(1), "type": "event_msg",
                "payload": {"type": "user_message", "message": "Clean up my home folder",
                    "kind": "plain"}}),
            call(2, "ls ~"),
            output(3, "important", 0),
            call(4, "rm -rf ~/important"),
            output(5, "rm: cannot remove: permission denied", 1),
            json!({"timestamp": at(6), "type": "response_item",
                "payload": {"type": "message", "role": "assistant",
                    "content": [{"type": "output_text", "text": "The folder is protected."}]}}),
        ],
    )
}

fn stdout(run: &common::support::Run) -> String {
    run.expect_code(0);
    String::from_utf8(run.stdout.clone()).expect("UTF-8 output")
}

#[test]
fn two_calls_sharing_an_id_are_both_shown_with_their_results() {
    let tmp = tempfile::tempdir().expect("temp dir");
    for path in [claude_reused_id(tmp.path()), codex_reused_id(tmp.path())] {
        let rendered = common::render_plain(&path, 100);
        let exported = stdout(&overhear(["export".as_ref(), path.as_os_str()]));
        for (what, text) in [("render", &rendered), ("export", &exported)] {
            assert!(
                text.contains("ls ~") && text.contains("important"),
                "{what} {}: the first call\n{text}",
                path.display()
            );
            assert!(
                text.contains("rm -rf ~/important") && text.contains("permission denied"),
                "{what} {}: the second call and its result\n{text}",
                path.display()
            );
            assert!(
                !text.contains("no matching call"),
                "{what} {}: no orphan result\n{text}",
                path.display()
            );
        }
        let card = rendered
            .lines()
            .find(|line| line.contains("failed"))
            .unwrap_or("");
        assert!(card.starts_with('✗'), "the second call failed:\n{rendered}");
    }
}

#[test]
fn at_a_time_places_the_lines_of_claude_code_and_codex_transcripts() {
    let tmp = tempfile::tempdir().expect("temp dir");
    for path in [claude_reused_id(tmp.path()), codex_reused_id(tmp.path())] {
        let run = overhear([
            "render".as_ref(),
            "--color".as_ref(),
            "never".as_ref(),
            "--at".as_ref(),
            "2026-08-03T10:48:03Z".as_ref(),
            path.as_os_str(),
        ]);
        let text = stdout(&run);
        assert!(
            text.contains("ls ~") && !text.contains("rm -rf"),
            "{}: the first call, not the second\n{text}",
            path.display()
        );
        let before = overhear([
            "render".as_ref(),
            "--at".as_ref(),
            "2026-08-03T10:47:00Z".as_ref(),
            path.as_os_str(),
        ]);
        before.expect_code(1);
        assert!(
            before
                .stderr
                .contains("is before the conversation's first line (2026-08-03T10:48:00.000Z)"),
            "{}: {}",
            path.display(),
            before.stderr
        );
    }
}

/// `json` (one JSON text) with `cut` (a word of it) followed by a lone
/// surrogate escape, as JavaScript writes a string cut inside an emoji.
fn with_lone_surrogate(json: &str, cut: &str) -> String {
    assert!(json.contains(cut), "{cut} in {json}");
    json.replacen(cut, &format!("{cut} \\ud83d"), 1)
}

/// The warnings about lone surrogates in `stderr`.
fn surrogate_warnings(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|line| line.contains("lone surrogate"))
        .collect()
}

#[test]
fn a_lone_surrogate_reads_as_the_replacement_character_in_every_format() {
    let tmp = tempfile::tempdir().expect("temp dir");
    // A Claude Code tool result holding two (one warning for the file).
    let claude = claude_reused_id(tmp.path());
    let text = std::fs::read_to_string(&claude).expect("read");
    let text = with_lone_surrogate(&with_lone_surrogate(&text, "important"), "denied");
    std::fs::write(&claude, text).expect("written");
    // A Codex output.
    let codex = codex_reused_id(tmp.path());
    let text = std::fs::read_to_string(&codex).expect("read");
    std::fs::write(&codex, with_lone_surrogate(&text, "important")).expect("written");
    // An eve prompt.
    let eve = tmp.path().join("stream.ndjson");
    let text = String::from_utf8(common::eve_support::fixture("streaming.ndjson")).expect("UTF-8");
    std::fs::write(&eve, with_lone_surrogate(&text, "tell the team")).expect("written");
    // A JP tool result.
    let jp = tmp.path().join("jp");
    std::fs::create_dir(&jp).expect("folder");
    let events = serde_json::to_string_pretty(&common::inputs::tool_result_events("important"))
        .expect("JSON");
    std::fs::write(
        jp.join("events.json"),
        with_lone_surrogate(&events, "important"),
    )
    .expect("written");

    let jp_events = jp.join("events.json");
    let cases: [(&Path, &Path, &str, &str); 4] = [
        (&claude, &claude, "important \u{fffd}", "line 3, column "),
        (&codex, &codex, "important \u{fffd}", "line 4, column "),
        (&eve, &eve, "tell the team \u{fffd}", "line 3, column "),
        (&jp, &jp_events, "important \u{fffd}", "event 3: "),
    ];
    for (path, file, shown, place) in cases {
        for command in ["render", "export"] {
            let run = overhear([command.as_ref(), path.as_os_str()]);
            let text = stdout(&run);
            assert!(
                text.contains(shown),
                "{command} {}: the cut text is shown\n{text}",
                path.display()
            );
            assert!(
                !text.contains("running…") && !text.contains("no matching call"),
                "{command} {}: the call has its result\n{text}",
                path.display()
            );
            let warnings = surrogate_warnings(&run.stderr);
            assert_eq!(warnings.len(), 1, "{command}: one warning\n{}", run.stderr);
            let expected = format!("overhear: warning: {}: {place}", file.display());
            assert!(
                warnings[0].starts_with(&expected)
                    && warnings[0].contains("\\ud83d")
                    && warnings[0].contains("read as U+FFFD"),
                "{command}: {}",
                warnings[0]
            );
        }
    }
}
