//! `overhear events`: the built binary on the repository's own fixtures.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/jp")
        .join(name)
}

fn overhear(args: &[&str]) -> Output {
    crate::common::overhear()
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout_json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

#[test]
fn user_view_equals_the_hand_written_expectation() {
    let out = overhear(&[
        "events",
        fixture("blocks").to_str().unwrap(),
        "--view",
        "user",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let expected: Value =
        serde_json::from_slice(&std::fs::read(fixture("blocks.user-view.json")).unwrap()).unwrap();
    assert_eq!(stdout_json(&out), expected);
}

#[test]
fn raw_view_is_decoded_and_excludes_a_legacy_base() {
    let out = overhear(&["events", fixture("legacy-wrapped").to_str().unwrap()]);
    assert!(out.status.success());
    let events = stdout_json(&out);
    let events = events.as_array().unwrap();
    // The leading base config is not an event; the later delta is.
    assert_eq!(events[0]["type"], "chat_request");
    assert_eq!(
        events
            .iter()
            .filter(|e| e["type"] == "config_delta")
            .count(),
        1
    );
    assert_eq!(events[1]["arguments"]["path"], "ISSUES.md");
}

#[test]
fn provider_view_replaces_withheld_content() {
    let out = overhear(&[
        "events",
        fixture("blocks").to_str().unwrap(),
        "--view",
        "provider",
        "--jsonl",
    ]);
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let failed = lines
        .iter()
        .find(|e| e["id"] == "call_2" && e["type"] == "tool_call_response")
        .unwrap();
    assert_eq!(failed["content"][0]["text"], "Tool failed.");
    assert_eq!(failed["is_error"], true);
}

#[test]
fn events_file_path_works_like_its_folder() {
    let by_file = overhear(&["events", fixture("current/events.json").to_str().unwrap()]);
    let by_dir = overhear(&["events", fixture("current").to_str().unwrap()]);
    assert!(by_file.status.success());
    assert_eq!(by_file.stdout, by_dir.stdout);
}

#[test]
fn a_file_that_is_not_json_names_line_and_column() {
    let out = overhear(&["events", fixture("not-json").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("events.json: line 3, column 3: expected `,` or `]`"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn a_malformed_event_is_reported_and_the_rest_is_kept() {
    let out = overhear(&["events", fixture("malformed").to_str().unwrap(), "--jsonl"]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("events.json: event 2: tool_call_request: missing key `id`"),
        "{stderr}"
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 4);
}

#[test]
fn a_missing_path_is_one_clear_line() {
    let out = overhear(&["events", "/no/such/conversation"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("/no/such/conversation"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn usage_errors_exit_2() {
    // No PATH is no mistake (the latest conversation of the folder), but
    // an `--agent` that names no kind is.
    assert_eq!(
        overhear(&["events", "--agent", "nope"]).status.code(),
        Some(2)
    );
    assert_eq!(
        overhear(&["events", "x", "--view", "nope"]).status.code(),
        Some(2)
    );
}

/// An eve stream's events carry overhear's facts (the final reply, a
/// call's outcome, the turn's tokens) under their `overhear.*` names, and
/// that output saved as a JP `events.json` reads back as the same facts:
/// it renders as the stream does and prints the same events.
#[test]
fn eve_facts_printed_and_saved_as_jp_read_back_the_same() {
    let stream =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/eve/update-then-final.ndjson");
    let stream = stream.to_str().unwrap();
    let out = overhear(&["events", stream]);
    assert!(out.status.success());
    let events = stdout_json(&out);
    let metadata = |type_name: &str| {
        events
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["type"] == type_name)
            .map(|e| e["metadata"].clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        metadata("turn_start")[0]["overhear.turn"]["input_tokens"],
        200
    );
    assert_eq!(
        metadata("tool_call_response")[0]["overhear.outcome"],
        "completed"
    );
    assert!(
        metadata("chat_response")
            .iter()
            .any(|m| m["overhear.final_reply"] == true)
    );

    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("events.json");
    std::fs::write(&saved, &out.stdout).unwrap();
    let saved = saved.to_str().unwrap();
    assert_eq!(stdout_json(&overhear(&["events", saved])), events);
    let render = |path: &str| overhear(&["render", path, "--width", "80"]).stdout;
    assert_eq!(render(saved), render(stream));
}
