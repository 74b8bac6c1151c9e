//! `overhear search`'s printout on a narrow and a wide terminal (docs/search.md,
//! "What a hit says"): a long place label is shortened in its middle and the
//! context before a match is cut from its start, so that the match always
//! shows, marked in colour (and without colour under `NO_COLOR`); a line's
//! indentation is left out; a Codex child rollout's hits are reported once,
//! under its parent, as a sub-agent.

use std::path::{Path, PathBuf};

use overhear::text::width::display_width;
use serde_json::json;

use crate::common::agents::claude::{AGENT, SESSION, assistant, user};
use crate::common::support::overhear_with;

/// A Claude Code transcript (named as a path) whose sub-agent, "Round 2:
/// alice comparison", says `kiwi-late` far into an indented line.
fn write_session(dir: &Path) -> PathBuf {
    let transcript = dir.join(format!("{SESSION}.jsonl"));
    let main = [
        user("u1", 0, false, json!("Compare the two rounds")),
        assistant(
            "a1",
            1,
            false,
            json!([{"type": "tool_use", "id": "toolu_agent", "name": "Agent",
                    "input": {"description": "Round 2: alice comparison", "subagent_type": "general",
                              "prompt": "Compare round 2"}}]),
        ),
        json!({"type": "user", "uuid": "u2", "sessionId": SESSION,
            "timestamp": "2026-01-22T10:00:20.000Z",
            "toolUseResult": {"status": "completed", "agentId": AGENT},
            "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_agent",
                "content": [{"type": "text", "text": "done"}]}]}})
        .to_string()
            + "\n",
    ]
    .concat();
    std::fs::write(&transcript, main).unwrap();
    let reply = format!(
        "Summary:\n        {} and then kiwi-late appears at the end",
        "the first round was long and slow, the second one shorter"
    );
    let agent = [
        user("s1", 12, true, json!("Compare round 2")),
        assistant("s2", 13, true, json!([{"type": "text", "text": reply}])),
    ]
    .concat();
    let folder = dir.join(SESSION).join("subagents");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join(format!("agent-{AGENT}.jsonl")), agent).unwrap();
    transcript
}

/// `search` with `args`, stdout as text (a fake HOME: no store is found).
fn search(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> String {
    let home = dir.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let mut all = vec!["search"];
    all.extend_from_slice(args);
    all.extend(["--project", home.to_str().unwrap()]);
    let mut vars = vec![("HOME", home.to_str().unwrap())];
    vars.extend_from_slice(env);
    let run = overhear_with(all, &vars);
    run.expect_code(0);
    String::from_utf8(run.stdout).unwrap()
}

/// `text` without its SGR sequences.
fn plain(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("\u{1b}[") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let end = after.find('m').map_or(after.len(), |i| i + 1);
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

fn hit_line(out: &str) -> String {
    plain(out)
        .lines()
        .find(|line| line.contains("sub-agent"))
        .unwrap_or_else(|| panic!("no hit line in {out}"))
        .to_owned()
}

#[test]
fn on_a_narrow_terminal_the_match_stays_in_view() {
    let dir = tempfile::tempdir().unwrap();
    let transcript = write_session(dir.path());
    let path = transcript.to_str().unwrap();
    let coloured = search(
        dir.path(),
        &["--width", "40", "--color", "always", "kiwi-late", path],
        &[],
    );
    for line in plain(&coloured).lines() {
        assert!(display_width(line) <= 40, "{line:?} is wider than 40");
    }
    let line = hit_line(&coloured);
    assert!(line.contains("kiwi-late"), "{line}");
    assert!(line.starts_with("   1  sub-agent"), "{line}");
    assert!(
        !line.contains("Round 2: alice comparison"),
        "the label is shortened in its middle: {line}"
    );
    assert!(line.contains("› reply"), "{line}");
    assert!(
        line.contains("  …"),
        "the context is cut before the match: {line}"
    );
    // The match is marked: red and bold around it, nowhere else.
    assert!(
        coloured.contains("\u{1b}[1;31mkiwi-late") || coloured.contains("kiwi-late\u{1b}[0m"),
        "{coloured:?}"
    );
    let marked = coloured.find("kiwi-late").unwrap();
    assert!(coloured[..marked].ends_with('m'), "{coloured:?}");
    // Without colour, the same text and no escape sequence at all.
    let bare = search(
        dir.path(),
        &["--width", "40", "kiwi-late", path],
        &[("NO_COLOR", "1")],
    );
    assert!(!bare.contains('\u{1b}'), "{bare:?}");
    assert_eq!(hit_line(&bare), line);
}

#[test]
fn on_a_wide_terminal_the_line_is_whole_without_its_indentation() {
    let dir = tempfile::tempdir().unwrap();
    let transcript = write_session(dir.path());
    let path = transcript.to_str().unwrap();
    for env in [&[][..], &[("NO_COLOR", "1")][..]] {
        let out = search(dir.path(), &["--width", "200", "kiwi-late", path], env);
        let line = hit_line(&out);
        assert!(
            line.starts_with("   1  sub-agent Round 2: alice comparison › reply  the first round"),
            "{line}"
        );
        assert!(line.ends_with("kiwi-late appears at the end"), "{line}");
        assert!(display_width(&line) <= 200);
    }
    // --json: the indentation is left out and the match moved with it.
    let json = search(dir.path(), &["--json", "kiwi-late", path], &[]);
    let hit: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    let line = hit["line"].as_str().unwrap();
    assert!(line.starts_with("the first round"), "{line}");
    let [start, end] = [0, 1].map(|i| hit["matches"][0][i].as_u64().unwrap() as usize);
    assert_eq!(&line[start..end], "kiwi-late");
}

#[test]
fn a_codex_child_rollouts_hits_are_reported_once_under_its_parent() {
    let dir = tempfile::tempdir().unwrap();
    crate::subagents::write_session(dir.path());
    let parent = dir.path().join(crate::subagents::PARENT);
    let child = dir.path().join(crate::subagents::CHILD);
    let args = [
        "--json",
        "rg -c TODO",
        parent.to_str().unwrap(),
        child.to_str().unwrap(),
    ];
    let out = search(dir.path(), &args, &[]);
    let hits: Vec<serde_json::Value> = out
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert!(!hits.is_empty(), "{out}");
    for hit in &hits {
        assert_eq!(hit["path"], parent.to_str().unwrap(), "{out}");
        assert_eq!(hit["subagents"], json!(["explorer"]), "{out}");
    }
    // The child alone is searched as a session of its own.
    let alone = search(
        dir.path(),
        &["--json", "rg -c TODO", child.to_str().unwrap()],
        &[],
    );
    assert_eq!(alone.lines().count(), hits.len(), "{alone}");
    assert!(alone.contains(child.to_str().unwrap()), "{alone}");
}
