//! Time travel through the real binary: `render`, `events` and
//! `export` with `--at-event N` show the conversation exactly as a copy of
//! its file cut after N entries (JP) or N lines (eve) shows it, a turn still
//! running then is shown running for as long as it had been, `--at TIME`
//! cuts on the events' own times, and a cut outside the conversation is an
//! error naming its size. The decisions are in `docs/time-travel.md`.

use crate::common;

use common::corpus;

use std::path::{Path, PathBuf};
use std::process::Stdio;

use serde_json::Value;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

/// What one run printed and how it ended.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// `overhear ARGS…` with pipes, no stdin, no `COLUMNS`.
fn overhear(args: &[&str]) -> Run {
    let output = crate::common::overhear()
        .args(args)
        .env_remove("COLUMNS")
        .env_remove("NO_COLOR")
        .env("TERM", "xterm-256color")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    Run {
        code: output.status.code().unwrap(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Runs and expects success; what it printed.
fn printed(args: &[&str]) -> String {
    let run = overhear(args);
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    run.stdout
}

/// A JP conversation copied into a workspace of its own, its `events.json`
/// cut after `keep` stored entries, JP's lock held (by this test process)
/// when `writing`: the file as it was while the agent was writing it.
fn jp_cut_copy(tmp: &Path, conversation: &Path, keep: usize, writing: bool) -> PathBuf {
    let name = conversation
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let id: String = name.chars().take_while(char::is_ascii_digit).collect();
    let (id, name) = if id.is_empty() {
        ("17000000000".to_string(), "17000000000".to_string())
    } else {
        (id, name)
    };
    let dir = tmp.join(".jp/conversations").join(&name);
    std::fs::create_dir_all(&dir).unwrap();
    let stored: Vec<Value> =
        serde_json::from_slice(&std::fs::read(conversation.join("events.json")).unwrap()).unwrap();
    let cut = Value::Array(stored[..keep].to_vec());
    std::fs::write(
        dir.join("events.json"),
        serde_json::to_vec_pretty(&cut).unwrap(),
    )
    .unwrap();
    for beside in ["base_config.json", "metadata.json"] {
        if conversation.join(beside).is_file() {
            std::fs::copy(conversation.join(beside), dir.join(beside)).unwrap();
        }
    }
    let locks = tmp.join(".jp/locks");
    std::fs::create_dir_all(&locks).unwrap();
    if !writing {
        return dir;
    }
    std::fs::write(
        locks.join(format!("jp-c{id}.lock")),
        format!(r#"{{"pid":{},"session":"test"}}"#, std::process::id()),
    )
    .unwrap();
    dir
}

/// How many events `overhear events` lists for `path`.
fn event_count(path: &str) -> usize {
    let events: Vec<Value> = serde_json::from_str(&printed(&["events", path])).unwrap();
    events.len()
}

/// For every N: `render --at-event N` and `events --at-event N` of the
/// conversation equal those of a copy cut after N events (`offset` stored
/// entries before the first event: a legacy base configuration).
fn every_jp_cut_equals_the_cut_file(conversation: &Path, offset: usize) {
    let path = conversation.display().to_string();
    let count = event_count(&path);
    assert!(count > 1, "{path}: too short to cut");
    for n in 1..=count {
        let tmp = tempfile::tempdir().unwrap();
        // The agent was still writing unless this is the end of a
        // conversation no one holds now.
        let copy = jp_cut_copy(tmp.path(), conversation, n + offset, n < count);
        let copy = copy.display().to_string();
        let at = n.to_string();
        // The copy read plainly holds exactly the events the cut holds.
        assert_eq!(
            printed(&["events", &path, "--at-event", &at]),
            printed(&["events", &copy]),
            "{path}: events at {n}"
        );
        let widths: &[&str] = if n == count || n % 5 == 1 {
            &["40", "80", "200"]
        } else {
            &["80"]
        };
        for width in widths {
            let args = ["--width", width, "--color", "never", "--at-event"];
            let original = printed(&[&["render", &path][..], &args, &[&at]].concat());
            let cut = printed(&[&["render", &copy][..], &args, &[&at]].concat());
            assert_eq!(original, cut, "{path}: render at {n}, {width} columns");
            assert!(
                original.contains("── turn 1"),
                "{path}: at {n} shows nothing"
            );
        }
    }
}

#[test]
fn every_cut_of_a_jp_conversation_equals_its_file_cut_there() {
    every_jp_cut_equals_the_cut_file(&Path::new(FIXTURES).join("jp/current"), 0);
    // A legacy conversation stores its base configuration as entry 0: it is
    // not an event, and the cut keeps it.
    every_jp_cut_equals_the_cut_file(&Path::new(FIXTURES).join("jp/legacy-wrapped"), 1);
}

#[test]
fn every_cut_of_a_real_jp_conversation_equals_its_file_cut_there() {
    let Some(conversations) = corpus::jp_conversations() else {
        return;
    };
    // The shortest real conversation, cut after each of its events.
    let shortest = conversations
        .iter()
        .min_by_key(|c| std::fs::metadata(c.join("events.json")).unwrap().len())
        .unwrap();
    every_jp_cut_equals_the_cut_file(shortest, 0);
}

/// For every N: `render --at-event N` of an eve stream equals that of its
/// first N lines (`head -n N`), and `events --at-event N` equals the events
/// of those lines read plainly.
fn every_eve_cut_equals_the_cut_file(stream: &Path) {
    let path = stream.display().to_string();
    let bytes = std::fs::read(stream).unwrap();
    let lines: Vec<&[u8]> = bytes.split_inclusive(|&b| b == b'\n').collect();
    assert!(lines.len() > 1);
    for n in 1..=lines.len() {
        let tmp = tempfile::tempdir().unwrap();
        let copy = tmp.path().join("head.ndjson");
        std::fs::write(&copy, lines[..n].concat()).unwrap();
        let copy = copy.display().to_string();
        let at = n.to_string();
        assert_eq!(
            printed(&["events", &path, "--at-event", &at]),
            printed(&["events", &copy]),
            "{path}: events at line {n}"
        );
        for view in ["terminal", "raw"] {
            let args = ["--width", "80", "--color", "never", "--view", view];
            let original = printed(&[&["render", &path][..], &args, &["--at-event", &at]].concat());
            let cut = printed(&[&["render", &copy][..], &args, &["--at-event", &at]].concat());
            assert_eq!(original, cut, "{path}: render at line {n}, {view} view");
        }
    }
}

#[test]
fn every_cut_of_an_eve_stream_equals_its_first_lines() {
    every_eve_cut_equals_the_cut_file(&Path::new(FIXTURES).join("eve/streaming.ndjson"));
    every_eve_cut_equals_the_cut_file(&Path::new(FIXTURES).join("eve/malformed-line.ndjson"));
}

#[test]
fn every_cut_of_a_real_eve_stream_equals_its_first_lines() {
    let Some(streams) = corpus::eve_streams() else {
        return;
    };
    every_eve_cut_equals_the_cut_file(&streams[0]);
}

/// A Claude Code transcript and a Codex rollout cut after each line read
/// like their first lines: time travel reads them with their own readers.
#[test]
fn every_cut_of_an_agent_transcript_equals_its_first_lines() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures");
    let transcripts = [
        "claude-code/v2.1.114-subagents/ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents/agent-aef063ba534d73153.jsonl",
        "codex/v0.80-v0.115-desktop-sanitized/sessions/2026/01/22/rollout-2026-01-22T10-15-23-019be37c-2706-70c0-8e0e-51985de49079.jsonl",
    ];
    for transcript in transcripts {
        let path = fixtures.join(transcript);
        if !path.is_file() {
            println!("skipped: {} is absent", path.display());
            continue;
        }
        every_eve_cut_equals_the_cut_file(&path);
    }
}

/// The rule line of turn `n` in printed output.
fn rule(out: &str, n: usize) -> String {
    out.lines()
        .find(|l| l.starts_with(&format!("── turn {n} ")))
        .unwrap_or_else(|| panic!("no rule of turn {n} in:\n{out}"))
        .to_string()
}

#[test]
fn a_turn_still_running_then_shows_running_with_its_elapsed_time() {
    let current = format!("{FIXTURES}/jp/current");
    // Event 6 (17:04:05.5) requests fs_modify_file; the turn began at 17:04:00.5.
    let at6 = printed(&["render", &current, "--at-event", "6", "--color", "never"]);
    assert!(
        rule(&at6, 1).contains("2026-04-10 17:04:00 UTC · running 5s"),
        "{}",
        rule(&at6, 1)
    );
    assert!(at6.contains("running…"), "the pending call runs:\n{at6}");
    assert!(!at6.contains("no response"), "{at6}");
    assert!(!at6.contains("── turn 2"), "{at6}");
    // Once the second turn began, the first one ended: its rule says how long it took.
    let at23 = printed(&["render", &current, "--at-event", "23", "--color", "never"]);
    assert!(
        rule(&at23, 1).ends_with("17:04:00 UTC · 20s ──"),
        "{}",
        rule(&at23, 1)
    );
    assert!(
        rule(&at23, 2).ends_with("17:04:21 UTC · running 1s ──"),
        "{}",
        rule(&at23, 2)
    );
    // The whole of a finished conversation (no lock held) is the plain render.
    let all = printed(&["render", &current, "--at-event", "24", "--color", "never"]);
    assert_eq!(all, printed(&["render", &current, "--color", "never"]));
    assert!(!all.contains("running…"), "{all}");
    assert!(rule(&all, 2).ends_with("17:04:21 UTC · 2s ──"), "{all}");
}

#[test]
fn at_a_time_keeps_the_events_stored_at_or_before_it() {
    let current = format!("{FIXTURES}/jp/current");
    let render =
        |extra: &[&str]| printed(&[&["render", &current, "--color", "never"][..], extra].concat());
    // Event 6 was stored at 17:04:05.5: on the boundary it is in, a
    // microsecond before it is not.
    assert_eq!(
        render(&["--at", "2026-04-10T17:04:05.5Z"]),
        render(&["--at-event", "6"])
    );
    assert_eq!(
        render(&["--at", "2026-04-10T17:04:05.499999Z"]),
        render(&["--at", "2026-04-10T17:04:04.5Z"])
    );
    assert_ne!(
        render(&["--at", "2026-04-10T17:04:05.499999Z"]),
        render(&["--at-event", "6"])
    );
    // Any offset names the same moment.
    assert_eq!(
        render(&["--at", "2026-04-10T19:04:05.5+02:00"]),
        render(&["--at", "2026-04-10T17:04:05.5Z"])
    );
    // Between two events the running turn counts up to the moment asked.
    let later = render(&["--at", "2026-04-10T17:04:07Z"]);
    assert!(
        rule(&later, 1).contains("running 6s"),
        "{}",
        rule(&later, 1)
    );
    // After the last event: all of it.
    assert_eq!(
        render(&["--at", "2027-01-01T00:00:00Z"]),
        render(&["--at-event", "24"])
    );
    // `events` and `export` take it too.
    let events: Vec<Value> = serde_json::from_str(&printed(&[
        "events",
        &current,
        "--at",
        "2026-04-10T17:04:05.5Z",
    ]))
    .unwrap();
    assert_eq!(events.len(), 6);
    let exported = printed(&["export", &current, "--at-event", "2"]);
    assert!(exported.contains("Why does the build print"), "{exported}");
    assert!(!exported.contains("fs_read_file"), "{exported}");
}

#[test]
fn a_cut_outside_the_conversation_names_its_size() {
    let current = format!("{FIXTURES}/jp/current");
    let file = format!("{current}/events.json");
    for n in ["25", "300", "0"] {
        let run = overhear(&["render", &current, "--at-event", n]);
        assert_eq!(run.code, 1);
        assert_eq!(
            run.stderr,
            format!(
                "overhear: {file}: conversation has 24 events; --at-event {n} is out of range (1..=24)\n"
            )
        );
    }
    let run = overhear(&["render", &current, "--at", "2026-04-10T17:00:00Z"]);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr,
        format!(
            "overhear: {file}: --at 2026-04-10T17:00:00Z is before the conversation's first event (2026-04-10 17:04:00.5)\n"
        )
    );
    let stream = format!("{FIXTURES}/eve/streaming.ndjson");
    let lines = std::fs::read_to_string(&stream).unwrap().lines().count();
    let run = overhear(&["events", &stream, "--at-event", "999"]);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr,
        format!(
            "overhear: {stream}: stream has {lines} lines; --at-event 999 is out of range (1..={lines})\n"
        )
    );
    // Mistakes in the option itself are usage errors.
    let run = overhear(&["render", &current, "--at", "yesterday"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "overhear: --at yesterday: expected an RFC 3339 time, e.g. 2026-04-10T17:07:09Z\n"
    );
    let run = overhear(&["render", &current, "--at-event", "x"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "overhear: --at-event x: expected a number of events, e.g. 57\n"
    );
    let run = overhear(&[
        "render",
        &current,
        "--at-event",
        "3",
        "--at",
        "2026-04-10T17:04:05Z",
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "overhear: the argument '--at-event <N>' cannot be used with '--at <TIME>'; \
         `overhear render --help` lists the options\n"
    );
}
