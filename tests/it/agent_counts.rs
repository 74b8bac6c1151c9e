//! Every real Claude Code transcript and Codex rollout: the turns, the tool
//! calls per tool name and the tool errors that `overhear events` reads equal
//! a count made here by the counting rules of spec agent-transcripts §6 — a
//! small walk over the JSON lines written for this test, not the readers'
//! code. And every transcript renders at 40, 80 and 200 columns with no line
//! wider than the width (by the crate's one width ruler).

use crate::common;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use common::agents::{Agent, name, transcripts};
use overhear::text::width::display_width;
use serde_json::Value;

/// Turns, tool calls by name, tool errors.
#[derive(Debug, Default, PartialEq)]
struct Counts {
    turns: usize,
    calls: BTreeMap<String, usize>,
    errors: usize,
}

fn records(path: &Path) -> Vec<Value> {
    let bytes = std::fs::read(path).expect("the fixture is readable");
    bytes
        .split(|&b| b == b'\n')
        .filter_map(|line| serde_json::from_slice::<Value>(line).ok())
        .filter(Value::is_object)
        .collect()
}

fn text(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or("").to_string()
}

/// What overhear reads: `overhear events PATH --view raw --jsonl`, the
/// parent's events (no `overhear.subagent` key) apart from each
/// sub-agent's (by the id of the call that started it).
fn read_by_overhear(path: &Path) -> (Counts, BTreeMap<String, Counts>) {
    let out = crate::common::overhear()
        .args(["events", "--view", "raw", "--jsonl"])
        .arg(path)
        .output()
        .expect("overhear runs");
    assert!(
        out.status.success(),
        "{}: {}",
        name(path),
        String::from_utf8_lossy(&out.stderr)
    );
    let mut parent = Counts::default();
    let mut subagents: BTreeMap<String, Counts> = BTreeMap::new();
    for line in out.stdout.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let event: Value = serde_json::from_slice(line).expect("events prints JSON lines");
        let counts = match event["overhear.subagent"].as_str() {
            Some(call) => subagents.entry(call.to_string()).or_default(),
            None => &mut parent,
        };
        match event["type"].as_str() {
            Some("chat_request") => counts.turns += 1,
            Some("tool_call_request") => {
                *counts.calls.entry(text(&event, "name")).or_default() += 1;
            }
            Some("tool_call_response") if event["is_error"] == Value::Bool(true) => {
                counts.errors += 1
            }
            _ => {}
        }
    }
    (parent, subagents)
}

/// §2.8 for Claude Code, written apart from the reader: each `Task`/`Agent`
/// call's sub-agent counted as its own main chain — an inline sidechain
/// (its chain followed by `parentUuid` from a root whose text is the call's
/// prompt) or the `agent-<agentId>.jsonl` its result names, beside the file
/// or in `<session>/subagents/`.
fn claude_code_subagents(path: &Path, records: &[Value]) -> BTreeMap<String, Counts> {
    let mut prompts: Vec<(String, String)> = Vec::new();
    let mut out = BTreeMap::new();
    for record in records {
        let Some(blocks) = record["message"]["content"].as_array() else {
            continue;
        };
        for block in blocks {
            if block["type"] == "tool_use"
                && matches!(block["name"].as_str(), Some("Task" | "Agent"))
            {
                prompts.push((text(block, "id"), text(&block["input"], "prompt")));
            }
            let agent = record["toolUseResult"]["agentId"].as_str();
            if block["type"] == "tool_result"
                && let Some(agent) = agent
            {
                let dir = path.parent().expect("a folder");
                let session = text(record, "sessionId");
                let name = format!("agent-{agent}.jsonl");
                let file = [
                    dir.join(&name),
                    dir.join(&session).join("subagents").join(&name),
                ]
                .into_iter()
                .find(|f| f.is_file())
                .expect("the agent file the result names is there");
                out.insert(
                    text(block, "tool_use_id"),
                    claude_code_counts(&self::records(&file)),
                );
            }
        }
    }
    // Inline chains: every sidechain record, by the root it descends from.
    let mut root_of: HashMap<String, String> = HashMap::new();
    let mut chains: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for record in records
        .iter()
        .filter(|r| r["isSidechain"] == Value::Bool(true))
    {
        let uuid = text(record, "uuid");
        let root = match record["parentUuid"].as_str() {
            None => uuid.clone(),
            Some(parent) => match root_of.get(parent) {
                Some(root) => root.clone(),
                None => continue,
            },
        };
        root_of.insert(uuid, root.clone());
        chains.entry(root).or_default().push(record.clone());
    }
    for chain in chains.values() {
        let content = &chain[0]["message"]["content"];
        let asked = match content {
            Value::String(s) => s.clone(),
            _ => content
                .as_array()
                .into_iter()
                .flatten()
                .map(|b| text(b, "text"))
                .collect(),
        };
        if let Some((call, _)) = prompts.iter().find(|(_, p)| p.trim() == asked.trim()) {
            out.insert(call.clone(), claude_code_counts(chain));
        }
    }
    out
}

/// §6 for Claude Code: prompts by §2.5 rule 6 on the main chain, `tool_use`
/// blocks once per id, `tool_result.is_error` on the main chain. A file whose
/// first conversation record is a sidechain is a sub-agent's own transcript.
fn claude_code_counts(records: &[Value]) -> Counts {
    let mut counts = Counts::default();
    let mut uuids = HashSet::new();
    let mut ids = HashSet::new();
    let conversation = |r: &&Value| matches!(r["type"].as_str(), Some("user" | "assistant"));
    let own_sidechain = records
        .iter()
        .find(conversation)
        .is_some_and(|r| r["isSidechain"] == Value::Bool(true));
    for record in records.iter().filter(conversation) {
        if let Some(uuid) = record["uuid"].as_str()
            && !uuids.insert(uuid.to_string())
        {
            continue;
        }
        if record["isSidechain"] == Value::Bool(true) && !own_sidechain {
            continue;
        }
        let content = &record["message"]["content"];
        let blocks: Vec<&Value> = content
            .as_array()
            .map(|a| a.iter().collect())
            .unwrap_or_default();
        if record["type"] == "assistant" {
            if record["isApiErrorMessage"] == Value::Bool(true) {
                continue;
            }
            for block in blocks.iter().filter(|b| b["type"] == "tool_use") {
                if ids.insert(text(block, "id")) {
                    *counts.calls.entry(text(block, "name")).or_default() += 1;
                }
            }
            continue;
        }
        let results: Vec<&&Value> = blocks
            .iter()
            .filter(|b| b["type"] == "tool_result")
            .collect();
        if !results.is_empty() {
            counts.errors += results
                .iter()
                .filter(|b| b["is_error"] == Value::Bool(true))
                .count();
            continue;
        }
        let flagged = ["isCompactSummary", "isMeta", "isVisibleInTranscriptOnly"]
            .iter()
            .any(|k| record[*k] == Value::Bool(true));
        let typed: String = match content {
            Value::String(s) => s.clone(),
            _ => blocks
                .iter()
                .map(|b| match b["type"].as_str() {
                    Some("text") => text(b, "text"),
                    Some("image") => "image".into(),
                    _ => b.as_str().unwrap_or("").to_string(),
                })
                .collect(),
        };
        let typed = typed.trim_start();
        let harness = [
            "<local-command-stdout>",
            "<local-command-stderr>",
            "<bash-stdout>",
            "<bash-stderr>",
            "[Request interrupted by user",
        ]
        .iter()
        .any(|tag| typed.starts_with(tag));
        if !flagged && !harness && !typed.is_empty() {
            counts.turns += 1;
        }
    }
    counts
}

/// §6 for Codex: `user_message` events of kind absent or `plain` (a file with
/// none: user messages that are not injected context), calls once per
/// `call_id`, errors by §3.8.
fn codex_counts(records: &[Value]) -> Counts {
    let mut counts = Counts::default();
    // Legacy lines are bare items; envelope lines carry them in `payload`.
    let items: Vec<(&str, &Value)> = records
        .iter()
        .map(|r| match r.get("payload") {
            Some(p) => (r["type"].as_str().unwrap_or(""), p),
            None => ("response_item", r),
        })
        .collect();
    let prompts = items
        .iter()
        .filter(|(kind, p)| *kind == "event_msg" && p["type"] == "user_message")
        .filter(|(_, p)| p["kind"].as_str().is_none_or(|k| k == "plain"))
        .count();
    counts.turns = if prompts > 0 {
        prompts
    } else {
        items
            .iter()
            .filter(|(kind, p)| {
                *kind == "response_item" && p["type"] == "message" && p["role"] == "user"
            })
            .filter(|(_, p)| {
                p["content"].as_array().into_iter().flatten().any(|c| {
                    let t = text(c, "text");
                    let t = t.trim_start();
                    !t.is_empty()
                        && !t.starts_with('<')
                        && !t.starts_with("# AGENTS.md instructions for")
                })
            })
            .count()
    };
    let mut verdicts: HashMap<String, bool> = HashMap::new();
    for (kind, p) in &items {
        if *kind != "event_msg" {
            continue;
        }
        let verdict = match p["type"].as_str() {
            Some("exec_command_end") => p["exit_code"].as_i64().map(|c| c != 0),
            Some("patch_apply_end") => p["success"].as_bool().map(|s| !s),
            Some("mcp_tool_call_end") => Some(
                p["result"].get("Err").is_some()
                    || p["result"]["Ok"]["isError"] == Value::Bool(true),
            ),
            _ => None,
        };
        if let Some(verdict) = verdict {
            verdicts.insert(text(p, "call_id"), verdict);
        }
    }
    // A call is counted once however often it is written while unanswered
    // (the same id, name and input again); an id used again after its
    // answer is another call (docs/agents.md, "Calls that share an id").
    let mut unanswered: HashMap<String, Value> = HashMap::new();
    for (kind, p) in &items {
        if *kind != "response_item" {
            continue;
        }
        match p["type"].as_str() {
            Some(t @ ("function_call" | "custom_tool_call" | "local_shell_call")) => {
                let mut call = (*p).clone();
                if let Some(fields) = call.as_object_mut() {
                    fields.remove("id");
                }
                let id = text(p, "call_id");
                if unanswered.get(&id) == Some(&call) {
                    continue;
                }
                unanswered.insert(id, call);
                let name = if t == "local_shell_call" {
                    "local_shell".to_string()
                } else {
                    text(p, "name")
                };
                *counts.calls.entry(name).or_default() += 1;
            }
            Some("function_call_output" | "custom_tool_call_output") => {
                unanswered.remove(&text(p, "call_id"));
                let failed = match verdicts.get(&text(p, "call_id")) {
                    Some(v) => *v,
                    None => output_failed(&p["output"]),
                };
                counts.errors += usize::from(failed);
            }
            _ => {}
        }
    }
    counts
}

/// Rules 2–4 of §3.8 on an output's text.
fn output_failed(output: &Value) -> bool {
    let text = match output {
        Value::String(s) => s.clone(),
        Value::Array(items) => items
            .iter()
            .map(|i| text(i, "text"))
            .collect::<Vec<_>>()
            .join("\n"),
        other => text(other, "text"),
    };
    if let Ok(json) = serde_json::from_str::<Value>(&text)
        && let Some(code) = json["metadata"]["exit_code"].as_i64()
    {
        return code != 0;
    }
    for line in text.lines().map(str::trim) {
        for lead in ["Exit code:", "Process exited with code"] {
            if let Some(code) = line
                .strip_prefix(lead)
                .and_then(|r| r.trim().parse::<i64>().ok())
            {
                return code != 0;
            }
        }
    }
    [
        "failed in sandbox",
        "execution error",
        "apply_patch verification failed",
        "aborted",
    ]
    .iter()
    .any(|p| text.starts_with(p))
}

#[test]
fn every_transcript_reads_as_the_counting_rules_say() {
    let Some(transcripts) = transcripts() else {
        return;
    };
    let mut total = Counts::default();
    let mut sub_total = 0;
    for (agent, path) in &transcripts {
        let records = records(path);
        let expected = match agent {
            Agent::ClaudeCode => claude_code_counts(&records),
            Agent::Codex => codex_counts(&records),
        };
        let (read, subagents) = read_by_overhear(path);
        assert_eq!(read, expected, "{}", name(path));
        let expected_subagents = match agent {
            Agent::ClaudeCode => claude_code_subagents(path, &records),
            Agent::Codex => BTreeMap::new(),
        };
        assert_eq!(subagents, expected_subagents, "{}: sub-agents", name(path));
        sub_total += subagents
            .values()
            .map(|c| c.calls.values().sum::<usize>())
            .sum::<usize>();
        total.turns += read.turns;
        total.errors += read.errors;
        for (tool, n) in read.calls {
            *total.calls.entry(tool).or_default() += n;
        }
    }
    // The fixtures are real conversations: the comparison is not of zeros.
    assert!(total.turns >= 20, "{total:?}");
    assert!(total.calls.values().sum::<usize>() >= 100, "{total:?}");
    assert!(total.errors >= 5, "{total:?}");
    // Three generations of Claude Code sub-agents are there, with their calls.
    assert!(sub_total >= 100, "{sub_total} sub-agent calls");
}

#[test]
fn every_transcript_renders_at_every_width_within_the_width() {
    let Some(transcripts) = transcripts() else {
        return;
    };
    for (_, path) in &transcripts {
        for width in [40usize, 80, 200] {
            let screen = common::render_plain(path, width);
            assert!(
                screen.lines().count() > 3,
                "{} at {width}: {screen}",
                name(path)
            );
            for line in screen.lines() {
                assert!(
                    display_width(line) <= width,
                    "{} at {width}: {} columns: {line:?}",
                    name(path),
                    display_width(line)
                );
            }
        }
    }
}
