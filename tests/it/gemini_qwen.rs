//! Gemini CLI and Qwen Code through the binary (spec agent-transcripts-2
//! §2, §4, §9): the turns, tool calls by name, failures and replies that
//! `overhear events` reads equal a count made here by the spec's counting
//! rules — a small walk over the JSON written for this test, not the
//! readers' code — for the synthetic Gemini chats of
//! `tests/fixtures/gemini/` and the real Qwen Code chats of
//! `../shared/fixtures/qwen` (skipped with a line when absent; with
//! `CI=true` a missing folder fails). Renders at 40, 80 and 200 columns are
//! pinned in `snapshots/`, and discovery is run under a fake HOME.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Output;

use overhear::text::width::display_width;
use serde_json::Value;

use crate::common::agents::{Counts, counts_of_events};

fn gemini_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gemini/chats")
}

const GEMINI_MAIN: &str = "session-2026-11-30T10-00-5e55a0b1.jsonl";
const GEMINI_COMPRESSED: &str = "session-2026-11-30T11-00-c0c0a0b1.jsonl";
const GEMINI_LEGACY: &str = "session-2026-01-15T09-30-1e9ac100.json";
const GEMINI_SUBAGENT: &str =
    "5e55a0b1-1111-4222-8333-944455556666/9a8b7c6d-aaaa-4bbb-8ccc-ddddeeeeffff.jsonl";

/// The real Qwen Code chats, or `None` after saying the test is skipped
/// (with `CI=true`, a missing folder fails).
fn qwen_chats() -> Option<Vec<PathBuf>> {
    let dir = std::env::var_os("OVERHEAR_AGENT_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures"))
        .join("qwen/v0.21.6-tool-errors/projects/-work/chats");
    if !dir.is_dir() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI: the Qwen Code chats are missing at {}",
            dir.display()
        );
        eprintln!("skipped: no Qwen Code chats at {}", dir.display());
        return None;
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the chats folder is readable")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 3, "the three chats of the sample");
    Some(files)
}

fn overhear(args: &[&str], path: &Path) -> Output {
    let out = crate::common::overhear()
        .args(args)
        .arg(path)
        .output()
        .expect("overhear runs");
    assert!(
        out.status.success(),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// What overhear reads: `overhear events PATH --view provider --jsonl`
/// (what the conversation is after replay: nothing superseded), the
/// parent's events apart from each sub-agent's.
fn read_by_overhear(path: &Path) -> (Counts, BTreeMap<String, Counts>) {
    let out = overhear(&["events", "--view", "provider", "--jsonl"], path);
    counts_of_events(&out.stdout)
}

fn records(path: &Path) -> Vec<Value> {
    let bytes = std::fs::read(path).expect("the fixture is readable");
    if let Ok(whole) = serde_json::from_slice::<Value>(&bytes) {
        return vec![whole];
    }
    bytes
        .split(|&b| b == b'\n')
        .filter_map(|line| serde_json::from_slice::<Value>(line).ok())
        .filter(Value::is_object)
        .collect()
}

/// The text parts of a genai `PartListUnion` that are not thoughts.
fn part_text(content: &Value) -> String {
    match content {
        Value::String(text) => text.clone(),
        Value::Array(parts) => parts.iter().map(part_text).collect(),
        Value::Object(part) if part.get("thought") != Some(&Value::Bool(true)) => part
            .get("text")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        _ => String::new(),
    }
}

/// §2.3 replay, then §9's counts. Messages a checkpoint brings in (a
/// compression summary) are context, not prompts (docs/agents.md, "Gemini
/// CLI").
fn gemini_counts(records: &[Value]) -> Counts {
    let mut order: Vec<(String, Value, bool)> = Vec::new();
    let upsert = |order: &mut Vec<(String, Value, bool)>, message: &Value, checkpoint: bool| {
        let id = message["id"].as_str().unwrap_or("").to_string();
        match order.iter_mut().find(|(known, ..)| *known == id) {
            Some(entry) => entry.1 = message.clone(),
            None => order.push((id, message.clone(), checkpoint)),
        }
    };
    for record in records {
        if let Some(messages) = record["messages"].as_array()
            && record.get("projectHash").is_some()
        {
            messages.iter().for_each(|m| upsert(&mut order, m, false));
        } else if let Some(id) = record["$rewindTo"].as_str() {
            let at = order
                .iter()
                .position(|(known, ..)| known == id)
                .unwrap_or(0);
            order.truncate(at);
        } else if let Some(messages) = record["$set"]["messages"].as_array() {
            let old = std::mem::take(&mut order);
            for message in messages {
                match old
                    .iter()
                    .find(|(id, ..)| Some(id.as_str()) == message["id"].as_str())
                {
                    Some(kept) => order.push(kept.clone()),
                    None => upsert(&mut order, message, true),
                }
            }
        } else if record["id"].is_string() {
            upsert(&mut order, record, false);
        }
    }
    let mut counts = Counts::default();
    for (_, message, from_checkpoint) in &order {
        let text = part_text(&message["content"]);
        match message["type"].as_str() {
            Some("user") => {
                let responses_only = message["content"].as_array().is_some_and(|parts| {
                    !parts.is_empty() && parts.iter().all(|p| p.get("functionResponse").is_some())
                });
                let trimmed = text.trim_start();
                let hidden = responses_only
                    || trimmed.starts_with("<session_context>")
                    || trimmed.starts_with("<hook_context>")
                    || trimmed.starts_with("I ran the following shell command:");
                if !hidden && !from_checkpoint {
                    counts.turns += 1;
                }
            }
            Some("gemini") => {
                if !text.trim().is_empty() {
                    counts.replies += 1;
                }
                let mut seen = HashSet::new();
                for call in message["toolCalls"].as_array().into_iter().flatten() {
                    if !seen.insert(call["id"].as_str().unwrap_or("").to_string()) {
                        continue;
                    }
                    let name = call["name"].as_str().unwrap_or("").to_string();
                    *counts.calls.entry(name).or_default() += 1;
                    if call["status"] == "error" {
                        counts.errors += 1;
                    }
                }
            }
            _ => {}
        }
    }
    counts
}

/// §9 for Qwen Code: main-chain prompts with text; calls once per id from
/// `functionCall` parts, `tool_result` records and `tool_call` telemetry;
/// failures by status, response error or telemetry `success == false`;
/// replies: assistant text, plus telemetry text no assistant record
/// carries (§4.5).
fn qwen_counts(records: &[Value]) -> Counts {
    let mut counts = Counts::default();
    let mut names: Vec<(String, String)> = Vec::new();
    let mut failed: HashSet<String> = HashSet::new();
    let mut pending_text: Option<String> = None;
    let name_of = |id: &str, name: &str, names: &mut Vec<(String, String)>| {
        if !names.iter().any(|(known, _)| known == id) {
            names.push((id.to_string(), name.to_string()));
        }
    };
    for record in records {
        if record["isSidechain"] == true {
            continue;
        }
        let parts = record["message"]["parts"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        match (record["type"].as_str(), record["subtype"].as_str()) {
            (Some("user"), None) if !part_text(&Value::Array(parts.clone())).trim().is_empty() => {
                counts.turns += 1;
            }
            (Some("assistant"), _) => {
                let text = part_text(&Value::Array(parts.clone()));
                if !text.trim().is_empty() {
                    counts.replies += 1;
                    if pending_text.as_deref().map(str::trim) == Some(text.trim()) {
                        pending_text = None;
                    }
                }
                for part in &parts {
                    if let Some(call) = part.get("functionCall") {
                        let id = call["id"].as_str().unwrap_or("");
                        name_of(id, call["name"].as_str().unwrap_or(""), &mut names);
                    }
                }
            }
            (Some("tool_result"), _) => {
                let result = &record["toolCallResult"];
                let response = parts.iter().find_map(|p| p.get("functionResponse"));
                let id = result["callId"].as_str().unwrap_or("");
                let name = response.and_then(|r| r["name"].as_str()).unwrap_or("");
                name_of(id, name, &mut names);
                let error = response.is_some_and(|r| r["response"].get("error").is_some());
                if result["status"] == "error" || error {
                    failed.insert(id.to_string());
                }
            }
            (Some("system"), Some("ui_telemetry")) => {
                let event = &record["systemPayload"]["uiEvent"];
                match event["event.name"].as_str() {
                    Some("qwen-code.api_response") => {
                        if pending_text.take().is_some() {
                            counts.replies += 1;
                        }
                        pending_text = event["response_text"]
                            .as_str()
                            .filter(|t| !t.trim().is_empty())
                            .map(str::to_string);
                    }
                    Some("qwen-code.tool_call") => {
                        let id = event["call_id"].as_str().unwrap_or("");
                        if !names.iter().any(|(known, _)| known == id) {
                            name_of(
                                id,
                                event["function_name"].as_str().unwrap_or(""),
                                &mut names,
                            );
                            if event["success"] == false {
                                failed.insert(id.to_string());
                            }
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    if pending_text.is_some() {
        counts.replies += 1;
    }
    for (_, name) in names {
        *counts.calls.entry(name).or_default() += 1;
    }
    counts.errors = failed.len();
    counts
}

#[test]
fn gemini_chats_count_as_the_spec_says() {
    let mut seen = Vec::new();
    for file in [
        GEMINI_MAIN,
        GEMINI_COMPRESSED,
        GEMINI_LEGACY,
        GEMINI_SUBAGENT,
    ] {
        let path = gemini_dir().join(file);
        let expected = gemini_counts(&records(&path));
        let (parent, subagents) = read_by_overhear(&path);
        assert_eq!(parent, expected, "{file}");
        seen.push((file, parent, subagents));
    }
    // The main chat: four prompts (one rewound away), five calls, one
    // failure (a cancelled call is not one), five replies, each once; its
    // sub-agent read from its own file, nested under the call.
    let (_, main, subagents) = &seen[0];
    assert_eq!((main.turns, main.errors, main.replies), (4, 1, 5));
    assert_eq!(main.calls.values().sum::<usize>(), 5);
    let sub = gemini_counts(&records(&gemini_dir().join(GEMINI_SUBAGENT)));
    assert_eq!(subagents.get("invoke_agent-5"), Some(&sub));
    assert_eq!((sub.turns, sub.replies), (1, 1));
    assert_eq!(seen[1].1.turns, 2, "the compressed chat");
    assert_eq!(seen[2].1.calls.len(), 1, "the legacy file");
}

#[test]
fn qwen_chats_count_as_the_spec_says() {
    let Some(chats) = qwen_chats() else { return };
    let mut totals = Counts::default();
    for path in &chats {
        let expected = qwen_counts(&records(path));
        let (parent, subagents) = read_by_overhear(path);
        assert_eq!(parent, expected, "{}", path.display());
        assert!(subagents.is_empty());
        totals.turns += parent.turns;
        totals.errors += parent.errors;
        totals.replies += parent.replies;
        for (name, n) in parent.calls {
            *totals.calls.entry(name).or_default() += n;
        }
    }
    // The sample's README: three one-prompt chats; write_file fails twice,
    // list_directory twice (telemetry only); four replies, one of them only
    // in telemetry.
    assert_eq!((totals.turns, totals.errors, totals.replies), (3, 4, 4));
    let calls: Vec<(&str, usize)> = totals.calls.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(
        calls,
        [("list_directory", 2), ("read_file", 2), ("write_file", 2)]
    );
}

/// Renders `path` at `width` columns, no colour.
fn render(path: &Path, width: usize) -> String {
    let out = overhear(
        &["render", "--color", "never", "--width", &width.to_string()],
        path,
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

fn pin(name: &str, path: &Path) {
    for width in [40, 80, 200] {
        let text = render(path, width);
        for line in text.lines() {
            assert!(display_width(line) <= width, "{name} at {width}: {line:?}");
        }
        insta::with_settings!({
            snapshot_path => concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots"),
            prepend_module_to_snapshot => false,
            description => path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        }, {
            insta::assert_snapshot!(format!("agent-{name}-{width}"), text);
        });
    }
}

#[test]
fn gemini_chats_render_at_40_80_and_200_columns() {
    pin("gemini-main", &gemini_dir().join(GEMINI_MAIN));
    pin("gemini-compressed", &gemini_dir().join(GEMINI_COMPRESSED));
    pin("gemini-legacy", &gemini_dir().join(GEMINI_LEGACY));
}

#[test]
fn qwen_chats_render_at_40_80_and_200_columns() {
    let Some(chats) = qwen_chats() else { return };
    for (name, path) in ["qwen-tool-errors", "qwen-eacces", "qwen-telemetry-only"]
        .into_iter()
        .zip(&chats)
    {
        pin(name, path);
    }
}

/// A fake home holding the Gemini chats and a Qwen chat of `project`, each
/// under its agent's own layout.
struct Home {
    _dir: tempfile::TempDir,
    root: PathBuf,
    project: PathBuf,
}

impl Home {
    fn new() -> Home {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().canonicalize().expect("real path");
        let project = root.join("work/my.app");
        std::fs::create_dir_all(&project).expect("project");
        Home {
            _dir: dir,
            root,
            project,
        }
    }

    /// Gemini's layout under `base` (`$GEMINI_CLI_HOME` or HOME): the
    /// project's slug folder with its `.project_root`, and another
    /// project's folder that must not be listed.
    fn gemini(&self, base: &Path, age: u64) {
        for (slug, root) in [
            ("my-app", self.project.clone()),
            ("other", self.root.clone()),
        ] {
            let dir = base.join(".gemini/tmp").join(slug);
            std::fs::create_dir_all(dir.join("chats")).expect("chats folder");
            std::fs::write(dir.join(".project_root"), root.to_string_lossy().as_bytes())
                .expect(".project_root");
            let name = format!("session-2026-11-30T10-00-{slug}.jsonl");
            copy_aged(
                &gemini_dir().join(GEMINI_MAIN),
                &dir.join("chats").join(name),
                age,
            );
        }
    }

    /// Qwen's layout under `base`: `projects/<slug>/chats/<id>.jsonl`.
    fn qwen(&self, base: &Path, age: u64) {
        let slug: String = self
            .project
            .to_string_lossy()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        let dir = base.join("projects").join(slug).join("chats");
        std::fs::create_dir_all(&dir).expect("chats folder");
        let line = serde_json::json!({"uuid": "u1", "parentUuid": null, "sessionId": "q1",
            "timestamp": "2026-11-30T10:00:00.000Z", "type": "user", "cwd": self.project,
            "version": "0.21.6", "message": {"role": "user", "parts": [{"text": "Qwen prompt"}]}});
        std::fs::write(dir.join("q1.jsonl"), format!("{line}\n")).expect("chat");
        set_age(&dir.join("q1.jsonl"), age);
    }

    fn run(&self, args: &[&str], env: &[(&str, &Path)]) -> Output {
        let mut command = crate::common::overhear();
        command
            .args(args)
            .current_dir(&self.project)
            .env("HOME", self.root.join("home"))
            .env_remove("GEMINI_CLI_HOME")
            .env_remove("QWEN_HOME")
            .env_remove("QWEN_RUNTIME_DIR")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME");
        for (name, value) in env {
            command.env(name, value);
        }
        command.output().expect("overhear runs")
    }
}

fn set_age(path: &Path, age: u64) {
    let when = std::time::SystemTime::now() - std::time::Duration::from_secs(age);
    std::fs::File::options()
        .write(true)
        .open(path)
        .and_then(|f| f.set_modified(when))
        .expect("mtime set");
}

fn copy_aged(from: &Path, to: &Path, age: u64) {
    std::fs::copy(from, to).expect("copied");
    set_age(to, age);
}

fn first_prompt(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .skip_while(|l| !l.contains("── user"))
        .find(|l| !l.trim().is_empty() && !l.contains("── user"))
        .unwrap_or("")
        .trim()
        .to_string()
}

#[test]
fn the_newest_session_of_the_folder_is_found_among_all_agents() {
    let home = Home::new();
    let home_dir = home.root.join("home");
    home.gemini(&home_dir, 600);
    home.qwen(&home_dir.join(".qwen"), 60);
    let render = ["render", "--width", "80", "--color", "never"];
    assert_eq!(first_prompt(&home.run(&render, &[])), "Qwen prompt");
    let gemini = [&render[..], &["--agent", "gemini"]].concat();
    assert_eq!(
        first_prompt(&home.run(&gemini, &[])),
        "Fix the failing test in @src/app.ts"
    );
    let claude = [&render[..], &["--agent", "claude"]].concat();
    let out = home.run(&claude, &[]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--agent claude: no session"));
}

#[test]
fn the_variables_that_move_the_homes_are_followed() {
    let home = Home::new();
    let gemini_home = home.root.join("gemini-home");
    let qwen_home = home.root.join("qwen-home");
    let runtime = home.root.join("qwen-runtime");
    home.gemini(&gemini_home, 60);
    home.qwen(&qwen_home, 60);
    let events = ["events", "--jsonl"];
    let gemini = [&events[..], &["--agent", "gemini"]].concat();
    assert!(!home.run(&gemini, &[]).status.success(), "not under HOME");
    let found = home.run(&gemini, &[("GEMINI_CLI_HOME", &gemini_home)]);
    assert!(
        found.status.success(),
        "{}",
        String::from_utf8_lossy(&found.stderr)
    );
    let qwen = [&events[..], &["--agent", "qwen"]].concat();
    assert!(!home.run(&qwen, &[]).status.success());
    assert!(
        home.run(&qwen, &[("QWEN_HOME", &qwen_home)])
            .status
            .success()
    );
    // QWEN_RUNTIME_DIR comes first: an empty one hides QWEN_HOME's chats.
    std::fs::create_dir_all(&runtime).expect("runtime dir");
    let out = home.run(
        &qwen,
        &[("QWEN_HOME", &qwen_home), ("QWEN_RUNTIME_DIR", &runtime)],
    );
    assert!(!out.status.success());
}

#[test]
fn a_gemini_chat_exports_and_travels_in_time() {
    let path = gemini_dir().join(GEMINI_MAIN);
    let markdown =
        String::from_utf8(overhear(&["export", "--format", "md"], &path).stdout).expect("UTF-8");
    assert!(markdown.contains("Fix the failing test in @src/app.ts"));
    assert!(markdown.contains("run_shell_command"));
    assert!(
        !markdown.contains("Actually, delete the test file"),
        "rewound"
    );
    let html =
        String::from_utf8(overhear(&["export", "--format", "html"], &path).stdout).expect("UTF-8");
    assert!(html.contains("You&#39;re welcome.") || html.contains("You're welcome."));
    // At 10:01:30 the second turn has run; the third has not started.
    let then = overhear(
        &["render", "--color", "never", "--at", "2026-11-30T10:01:30Z"],
        &path,
    );
    let text = String::from_utf8_lossy(&then.stdout);
    assert!(text.contains("Run the tests"));
    assert!(!text.contains("Ask a helper agent"));
}
