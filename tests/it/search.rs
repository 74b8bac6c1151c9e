//! `overhear search` through the binary: texts planted in every kind of
//! block of a Claude Code session (its sub-agent included), a Codex rollout
//! and a JP conversation whose tool result is stored base64-encoded are each
//! found once, with their session, turn and kind; case modes, regular
//! expressions, `--agent`, `--since` and the exit codes behave as ripgrep's
//! users expect; nothing a session holds reaches the terminal raw.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common::agents::claude::{AGENT, SESSION, assistant, user};
use crate::common::home::FakeHome;
use crate::common::inputs::b64;
use crate::common::pty::jp_workspace;
use crate::common::support::{overhear_with, unsafe_bytes};

/// A home with one session of each agent for the project folder `app`.
struct Homes(FakeHome);

impl Homes {
    fn new() -> Homes {
        let fake = FakeHome::new();
        write_claude(&fake);
        write_codex(&fake.home, &fake.project);
        write_jp(&fake.project);
        Homes(fake)
    }

    fn search(&self, args: &[&str]) -> crate::common::support::Run {
        let mut all = vec!["search"];
        all.extend_from_slice(args);
        all.extend(["--project", self.project.to_str().unwrap()]);
        overhear_with(all, &[("HOME", self.home.to_str().unwrap())])
    }

    /// The hits of `--json`, as values.
    fn hits(&self, args: &[&str]) -> Vec<Value> {
        let mut all = args.to_vec();
        all.push("--json");
        let run = self.search(&all);
        run.expect_code(0);
        String::from_utf8(run.stdout)
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
            .collect()
    }
}

/// The home and project, read through.
impl std::ops::Deref for Homes {
    type Target = FakeHome;

    fn deref(&self) -> &FakeHome {
        &self.0
    }
}

fn write_claude(fake: &FakeHome) {
    let project = &fake.project;
    let folder = fake.claude_folder();
    std::fs::create_dir_all(folder.join(SESSION).join("subagents")).unwrap();
    let with_cwd = |line: String| {
        let mut record: Value = serde_json::from_str(&line).unwrap();
        record["cwd"] = Value::from(project.to_str().unwrap());
        record.to_string() + "\n"
    };
    let lines = [
        user("u1", 0, false, json!("Why does kiwi-prompt fail?")),
        assistant(
            "a1",
            1,
            false,
            json!([{"type": "thinking", "thinking": "Maybe kiwi-reasoning is the cause", "signature": "x"}]),
        ),
        assistant(
            "a2",
            2,
            false,
            json!([{"type": "tool_use", "id": "toolu_sh", "name": "Bash",
                    "input": {"command": "grep -rn kiwi-arguments src/", "description": "Look"}}]),
        ),
        user(
            "u2",
            3,
            false,
            json!([{"type": "tool_result", "tool_use_id": "toolu_sh",
                    "content": "src/a.rs:3: kiwi-result here\nsrc/b.rs:9: nothing"}]),
        ),
        assistant("a3", 4, false, json!([{"type": "text", "text": "We say \"kiwi-quoted\" now."}])),
        user("u3", 10, false, json!("Now ask a helper")),
        assistant(
            "a4",
            11,
            false,
            json!([{"type": "tool_use", "id": "toolu_agent", "name": "Agent",
                    "input": {"description": "Explore the logs", "subagent_type": "Explore",
                              "prompt": "Read the logs"}}]),
        ),
        json!({"type": "user", "uuid": "u4", "sessionId": SESSION,
            "timestamp": "2026-01-22T10:00:20.000Z",
            "toolUseResult": {"status": "completed", "agentId": AGENT},
            "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_agent",
                "content": [{"type": "text", "text": "done"}]}]}})
        .to_string()
            + "\n",
    ];
    let main: Vec<String> = lines.into_iter().map(with_cwd).collect();
    fake.claude_session(SESSION, &main);
    let agent: String = [
        user("s1", 12, true, json!("Read the logs")),
        assistant(
            "s2",
            13,
            true,
            json!([{"type": "text", "text": "The logs say kiwi-subagent twice."}]),
        ),
    ]
    .into_iter()
    .map(with_cwd)
    .collect();
    std::fs::write(
        folder
            .join(SESSION)
            .join("subagents")
            .join(format!("agent-{AGENT}.jsonl")),
        agent,
    )
    .unwrap();
}

fn write_codex(home: &Path, project: &Path) {
    let folder = home.join(".codex/sessions/2026/01/22");
    std::fs::create_dir_all(&folder).unwrap();
    let at = |s: u32| format!("2026-01-22T11:00:{s:02}.000Z");
    let lines = [
        json!({"timestamp": at(0), "type": "session_meta",
            "payload": {"id": "019a", "timestamp": at(0), "cwd": project.to_str().unwrap(),
                "originator": "codex_cli_rs", "cli_version": "0.80.0"}}),
        json!({"timestamp": at(1), "type": "event_msg",
            "payload": {"type": "user_message", "message": "Warm up", "kind": "plain"}}),
        json!({"timestamp": at(2), "type": "event_msg",
            "payload": {"type": "agent_message", "message": "Ready."}}),
        json!({"timestamp": at(3), "type": "event_msg",
            "payload": {"type": "task_complete"}}),
        json!({"timestamp": at(4), "type": "event_msg",
            "payload": {"type": "user_message", "message": "Deploy kiwi-codex please", "kind": "plain"}}),
    ];
    let text: String = lines.iter().map(|l| l.to_string() + "\n").collect();
    std::fs::write(folder.join("rollout-2026-01-22T11-00-00-019a.jsonl"), text).unwrap();
}

fn write_jp(project: &Path) {
    let conversations = jp_workspace(project);
    let folder = conversations.join("17758406187-kiwi");
    std::fs::create_dir_all(&folder).unwrap();
    let result = b64("line one\nthe kiwi-jp result\nline three");
    let events = json!([
        {"timestamp": "2026-04-10 17:04:00.5", "type": "turn_start"},
        {"timestamp": "2026-04-10 17:04:01.5", "type": "chat_request", "content": "List the files"},
        {"timestamp": "2026-04-10 17:04:02.5", "type": "tool_call_request", "id": "c1",
         "name": "fs_list", "arguments": {}},
        {"timestamp": "2026-04-10 17:04:03.5", "type": "tool_call_response", "id": "c1",
         "content": result, "is_error": false},
    ]);
    std::fs::write(folder.join("events.json"), events.to_string()).unwrap();
}

fn summary(hit: &Value) -> (String, u64, String, Vec<String>) {
    (
        hit["agent"].as_str().unwrap().to_owned(),
        hit["turn"].as_u64().unwrap(),
        hit["kind"].as_str().unwrap().to_owned(),
        hit["subagents"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_owned())
            .collect(),
    )
}

#[test]
fn every_planted_text_is_found_once_with_its_session_turn_and_kind() {
    let homes = Homes::new();
    let hits = homes.hits(&["kiwi-"]);
    let mut found: Vec<_> = hits.iter().map(summary).collect();
    found.sort();
    let s = |agent: &str, turn, kind: &str, sub: &[&str]| {
        (
            agent.to_owned(),
            turn,
            kind.to_owned(),
            sub.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>(),
        )
    };
    let mut expected = vec![
        s("claude", 1, "prompt", &[]),
        s("claude", 1, "reasoning", &[]),
        s("claude", 1, "tool Bash arguments", &[]),
        s("claude", 1, "tool Bash result", &[]),
        s("claude", 1, "reply", &[]),
        s("claude", 2, "reply", &["Explore the logs"]),
        s("codex", 2, "prompt", &[]),
        s("jp", 1, "tool fs_list result", &[]),
    ];
    expected.sort();
    assert_eq!(found, expected, "{hits:#?}");
    let jp = hits.iter().find(|h| h["agent"] == "jp").unwrap();
    assert_eq!(jp["line"], "the kiwi-jp result");
    assert_eq!(jp["matches"], json!([[4, 9]]));
    assert_eq!(jp["session"], "jp-c17758406187");
    let result = hits
        .iter()
        .find(|h| h["kind"] == "tool Bash result")
        .unwrap();
    assert_eq!(result["line"], "src/a.rs:3: kiwi-result here");
    assert_eq!(result["session"], SESSION);
    assert_eq!(result["project"], homes.project.to_str().unwrap());
}

#[test]
fn a_text_stored_escaped_is_found_as_written() {
    let homes = Homes::new();
    let hits = homes.hits(&["say \"kiwi-quoted\""]);
    assert_eq!(hits.len(), 1, "{hits:#?}");
    assert_eq!(hits[0]["line"], "We say \"kiwi-quoted\" now.");
}

#[test]
fn the_printout_groups_hits_under_their_session() {
    let homes = Homes::new();
    let run = homes.search(&["kiwi-codex"]);
    run.expect_code(0);
    let out = String::from_utf8(run.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("codex  "), "{out}");
    assert!(lines[0].contains(homes.project.to_str().unwrap()), "{out}");
    assert!(
        lines[1].ends_with("rollout-2026-01-22T11-00-00-019a.jsonl"),
        "{out}"
    );
    assert!(lines[1].starts_with("~/.codex/sessions/"), "{out}");
    assert_eq!(lines[2], "   2  prompt  Deploy kiwi-codex please", "{out}");
    assert_eq!(lines.len(), 4, "{out}");
}

#[test]
fn case_modes_follow_ripgrep() {
    let homes = Homes::new();
    assert_eq!(homes.search(&["KIWI-CODEX"]).status.code(), Some(1));
    assert_eq!(homes.hits(&["-i", "KIWI-CODEX"]).len(), 1);
    assert_eq!(homes.hits(&["--smart-case", "kiwi-codex"]).len(), 1);
    assert_eq!(homes.search(&["-S", "Kiwi-codex"]).status.code(), Some(1));
    // Ignoring case, the JP result is decoded rather than prefiltered.
    assert_eq!(homes.hits(&["-i", "KIWI-JP"]).len(), 1);
}

#[test]
fn a_regular_expression_matches_decoded_text() {
    let homes = Homes::new();
    let hits = homes.hits(&["--regex", r"kiwi-(jp|codex)\b"]);
    let agents: Vec<&str> = hits.iter().map(|h| h["agent"].as_str().unwrap()).collect();
    assert_eq!(agents.len(), 2, "{hits:#?}");
    assert!(agents.contains(&"jp") && agents.contains(&"codex"));
    let bad = homes.search(&["--regex", "kiwi("]);
    bad.expect_code(2);
    assert!(
        bad.stderr.contains("not a regular expression"),
        "{}",
        bad.stderr
    );
}

#[test]
fn agent_and_since_narrow_the_sessions() {
    let homes = Homes::new();
    let codex = homes.hits(&["--agent", "codex", "kiwi-"]);
    assert!(codex.iter().all(|h| h["agent"] == "codex") && codex.len() == 1);
    let jp = homes.hits(&["--agent", "jp", "kiwi-"]);
    assert!(jp.iter().all(|h| h["agent"] == "jp") && jp.len() == 1);
    assert_eq!(
        homes
            .search(&["--since", "2999-01-01", "kiwi-"])
            .status
            .code(),
        Some(1)
    );
    assert_eq!(homes.hits(&["--since", "1d", "kiwi-"]).len(), 8);
    let bad = homes.search(&["--since", "someday", "kiwi-"]);
    bad.expect_code(2);
}

#[test]
fn nothing_found_exits_1_and_prints_nothing() {
    let homes = Homes::new();
    let run = homes.search(&["no such text anywhere"]);
    run.expect_code(1);
    assert!(run.stdout.is_empty());
    assert!(run.stderr.is_empty(), "{}", run.stderr);
}

#[test]
fn a_session_cannot_drive_the_terminal() {
    let homes = Homes::new();
    let hostile = homes.project.join("hostile.jsonl");
    // A Claude Code transcript named on the command line, whose prompt and
    // tool name carry escape sequences and a bidi override.
    let text = [
        user(
            "h1",
            0,
            false,
            json!("evil \u{1b}]0;PWNED\u{7} kiwi-hostile \u{202e}desrever"),
        ),
        assistant(
            "h2",
            1,
            false,
            json!([{"type": "tool_use", "id": "t1", "name": "B\u{1b}[2Jash",
                    "input": {"command": "kiwi-hostile"}}]),
        ),
    ]
    .concat();
    std::fs::write(&hostile, text).unwrap();
    for color in ["never", "always"] {
        let run = homes.search(&["--color", color, "kiwi-hostile", hostile.to_str().unwrap()]);
        run.expect_code(0);
        assert_eq!(unsafe_bytes(&run.stdout), None, "--color {color}");
        let out = String::from_utf8_lossy(&run.stdout);
        assert!(!out.contains('\u{202e}'), "{out}");
    }
}

/// Texts of the conversation at `path`, as decoded: prompts, replies and,
/// with `results`, tool results. An agent transcript's results are left out:
/// for what is not text (an image, a tool reference) the reader writes a
/// placeholder the file does not store, which docs/search.md says is found
/// only where the file holds the pattern's longest word.
fn decoded_texts(path: &Path, results: bool) -> Vec<String> {
    use overhear::model::{ChatResponse, EventKind};
    let live = overhear::load::Live::read_once(path.to_str().unwrap()).expect("the fixture reads");
    live.conversation
        .events
        .iter()
        .filter_map(|event| match &event.kind {
            EventKind::ChatRequest { content, .. } => Some(content.clone()),
            EventKind::ChatResponse(ChatResponse::Message(Some(text))) => Some(text.clone()),
            EventKind::ToolCallResponse { content, .. } if results => {
                Some(content.plain_text().into_owned())
            }
            _ => None,
        })
        // What the reader writes in place of an image (`[image: image/png,
        // 766 kB]`) is no text the file stores: docs/search.md says it is found
        // only where the file holds the pattern's longest word.
        .map(|text| {
            text.lines()
                .filter(|line| !line.starts_with("[image: "))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect()
}

/// Up to three pieces of `text` of 16 characters, preferring pieces that
/// hold a character JSON escapes or base64 scrambles (quotes, backslashes,
/// newlines, non-ASCII).
fn pieces(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() < 16 {
        return Vec::new();
    }
    let hard = |c: char| matches!(c, '"' | '\\' | '\n' | '\t') || !c.is_ascii();
    let mut starts: Vec<usize> = (0..=chars.len() - 16)
        .filter(|&i| chars[i..i + 16].iter().any(|&c| hard(c)))
        .step_by(97)
        .take(2)
        .collect();
    starts.push((chars.len() - 16) / 2);
    starts
        .into_iter()
        .map(|i| chars[i..i + 16].iter().collect::<String>())
        .filter(|piece| !piece.trim().is_empty())
        .collect()
}

/// The prefilter never hides a match: pieces of every real transcript's
/// decoded text (and of the JP corpus, whose results are base64), searched
/// as literals, are found in it.
#[test]
fn the_prefilter_never_hides_what_the_reader_decodes() {
    use overhear::search::{Case, Outcome, Query, Stored, Target, scan};
    let mut files: Vec<(PathBuf, PathBuf, Stored)> = Vec::new();
    if let Some(transcripts) = crate::common::agents::transcripts() {
        for (_, path) in transcripts {
            if path
                .file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("agent-")
            {
                continue;
            }
            files.push((path.clone(), path, Stored::Json));
        }
    }
    if let Some(conversations) = crate::common::corpus::jp_conversations() {
        for dir in conversations {
            files.push((dir.clone(), dir.join("events.json"), Stored::JsonWithBase64));
        }
    }
    let mut checked = 0;
    for (open, bytes, stored) in files {
        let target = Target {
            open: open.clone(),
            bytes,
            stored,
        };
        let stored = target.stored;
        let texts = decoded_texts(&open, stored == Stored::JsonWithBase64);
        for piece in texts.iter().flat_map(|t| pieces(t)).take(40) {
            for case in [Case::Sensitive, Case::Ignore] {
                let query = Query::new(&piece, false, case).unwrap();
                let mut found = false;
                scan(
                    std::slice::from_ref(&target),
                    &query,
                    1,
                    &mut |_, outcome| {
                        found =
                            matches!(outcome, Outcome::Searched { hits, .. } if !hits.is_empty());
                        true
                    },
                );
                assert!(found, "{}: {piece:?} ({case:?}) not found", open.display());
                checked += 1;
            }
        }
    }
    eprintln!("search: {checked} pieces of real conversations found");
}
