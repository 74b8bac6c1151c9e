//! `overhear sessions` through the binary, with a fake HOME holding Claude
//! Code, Codex, Gemini CLI and Qwen Code sessions of two project folders:
//! the selection is `overhear search`'s (`--project`, `--all-projects`,
//! `--agent`, `--since`), `--all-projects` finds every project's Gemini CLI
//! and Qwen Code chats (in `search` too), each session's figures and cost
//! are those of its transcript, the table fits the width and shows nothing
//! raw, and the exit codes are 0 listed, 1 none, 2 a mistake.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common::support::{Run, overhear_with, unsafe_bytes};

/// The project folder most sessions ran in (the usage fixtures' `cwd`).
const APP: &str = "/w/app";
/// Another project folder.
const OTHER: &str = "/w/other";

struct Home {
    dir: tempfile::TempDir,
}

impl Home {
    fn new() -> Home {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path();
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let copy = |from: PathBuf, to: PathBuf| {
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(from, to).unwrap();
        };
        let claude = home.join(".claude/projects/-w-app");
        copy(
            fixtures.join("usage/claude-priced.jsonl"),
            claude.join("5e55a0e1-0000-4000-8000-0000000c0570.jsonl"),
        );
        copy(
            fixtures.join("usage/claude-not-priced.jsonl"),
            claude.join("5e55a0e1-0000-4000-8000-0000000c0571.jsonl"),
        );
        copy(
            fixtures.join("usage/codex-priced.jsonl"),
            home.join(".codex/sessions/2026/08/03/rollout-2026-08-03T10-48-00-0c0570.jsonl"),
        );
        // Gemini CLI: one project folder per project, named by `.project_root`.
        for (hash, root) in [("aaaa", APP), ("bbbb", OTHER)] {
            let project = home.join(".gemini/tmp").join(hash);
            copy(
                fixtures.join("gemini/chats/session-2026-11-30T11-00-c0c0a0b1.jsonl"),
                project.join("chats/session-2026-11-30T11-00-c0c0a0b1.jsonl"),
            );
            std::fs::write(project.join(".project_root"), root).unwrap();
        }
        // Qwen Code: `projects/<slug>/chats/`.
        for (slug, root, word) in [
            ("-w-app", APP, "kiwi-app"),
            ("-w-other", OTHER, "kiwi-other"),
        ] {
            let chats = home.join(".qwen/projects").join(slug).join("chats");
            std::fs::create_dir_all(&chats).unwrap();
            let line = json!({"uuid": "q1", "parentUuid": null, "sessionId": format!("q{slug}"),
                "timestamp": "2026-11-30T12:00:00.000Z", "type": "user", "cwd": root,
                "message": {"role": "user", "parts": [{"text": format!("Find {word}")}]}});
            std::fs::write(chats.join(format!("q{slug}.jsonl")), format!("{line}\n")).unwrap();
        }
        Home { dir }
    }

    fn run(&self, args: &[&str], env: &[(&str, &str)]) -> Run {
        let home = self.dir.path().to_str().unwrap();
        let mut all = vec![
            ("HOME", home),
            ("XDG_CONFIG_HOME", home),
            ("XDG_DATA_HOME", home),
        ];
        all.extend_from_slice(env);
        overhear_with(args, &all)
    }

    /// `sessions ARGS --json`, each object.
    fn listed(&self, args: &[&str]) -> Vec<Value> {
        let mut all = vec!["sessions"];
        all.extend_from_slice(args);
        all.push("--json");
        let run = self.run(&all, &[]);
        run.expect_code(0);
        String::from_utf8(run.stdout)
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
            .collect()
    }
}

/// `(agent, project)` of each listed session, sorted.
fn agents_and_projects(listed: &[Value]) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = listed
        .iter()
        .map(|s| {
            (
                s["agent"].as_str().unwrap().to_owned(),
                s["project"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    pairs.sort();
    pairs
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, p)| (a.to_string(), p.to_string()))
        .collect()
}

#[test]
fn the_sessions_of_a_folder_and_of_every_folder() {
    let home = Home::new();
    let mine = home.listed(&["--project", APP]);
    assert_eq!(
        agents_and_projects(&mine),
        pairs(&[
            ("claude", APP),
            ("claude", APP),
            ("codex", APP),
            ("gemini", APP),
            ("qwen", APP),
        ])
    );
    // Every project's Gemini CLI and Qwen Code chats too.
    let every = home.listed(&["--all-projects"]);
    assert_eq!(
        agents_and_projects(&every),
        pairs(&[
            ("claude", APP),
            ("claude", APP),
            ("codex", APP),
            ("gemini", APP),
            ("gemini", OTHER),
            ("qwen", APP),
            ("qwen", OTHER),
        ])
    );
    let codex = home.listed(&["--all-projects", "--agent", "codex"]);
    assert_eq!(agents_and_projects(&codex), pairs(&[("codex", APP)]));
    // Written long ago by their own times, but the files are new: --since
    // goes by when a session was written.
    assert_eq!(home.listed(&["--all-projects", "--since", "1h"]).len(), 7);
    let run = home.run(
        &["sessions", "--all-projects", "--since", "2999-01-01"],
        &[],
    );
    run.expect_code(1);
    assert!(run.stdout.is_empty());
}

#[test]
fn search_all_projects_finds_every_projects_qwen_and_gemini_chats() {
    let home = Home::new();
    let run = home.run(&["search", "kiwi-other", "--all-projects", "--json"], &[]);
    run.expect_code(0);
    let hit: Value =
        serde_json::from_slice(run.stdout.split(|&b| b == b'\n').next().unwrap()).unwrap();
    assert_eq!(
        (hit["agent"].as_str(), hit["project"].as_str()),
        (Some("qwen"), Some(OTHER))
    );
    let run = home.run(
        &["search", "Summarise the repo", "--all-projects", "--json"],
        &[],
    );
    run.expect_code(0);
    let projects: Vec<String> = String::from_utf8(run.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["project"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert!(projects.contains(&OTHER.to_owned()), "{projects:?}");
    assert!(projects.contains(&APP.to_owned()), "{projects:?}");
    // Without --all-projects, only this folder's.
    let run = home.run(&["search", "kiwi-other", "--project", APP], &[]);
    run.expect_code(1);
}

#[test]
fn each_session_has_the_figures_and_cost_of_its_transcript() {
    let home = Home::new();
    let listed = home.listed(&["--project", APP, "--agent", "claude", "--sort", "cost"]);
    assert_eq!(listed.len(), 2);
    let (priced, unpriced) = (&listed[0], &listed[1]);
    // claude-sonnet-4-5: $3 in, $15 out, $0.30 cache read, $3.75 cache write
    // (src/usage/prices.toml): 1,010 fresh input tokens, 103,000 read from
    // the cache, 2,100 written to it, 800 out.
    let dollars = (1_010.0 * 3.0 + 103_000.0 * 0.3 + 2_100.0 * 3.75 + 800.0 * 15.0) / 1e6;
    assert!(
        (priced["cost_usd"].as_f64().unwrap() - dollars).abs() < 1e-9,
        "{priced}"
    );
    assert_eq!(priced["cost"], "~$0.0538");
    assert_eq!(priced["cost_estimated"], true);
    assert_eq!(priced["title"], "Count the lines");
    assert_eq!(priced["turns"], 1);
    assert_eq!(priced["tool_calls"], 1);
    assert_eq!(priced["failures"], 0);
    assert_eq!(priced["input_tokens"], 106_110);
    assert_eq!(priced["output_tokens"], 800);
    assert_eq!(priced["start"], "2026-01-22T10:00:00Z");
    assert_eq!(priced["last"], "2026-01-22T10:00:05Z");
    assert_eq!(priced["duration_seconds"], 5);
    assert_eq!(priced["live"], true, "written just now");
    // A model without a price: no figure, and it says so.
    assert_eq!(unpriced["cost_usd"], Value::Null);
    assert_eq!(unpriced["cost"], "not priced");
    assert_eq!(unpriced["turns_not_priced"], 1);
    // The user configuration prices it.
    let dir = home.dir.path().join("overhear");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("config.toml"),
        "[prices.\"claude-imaginary-9\"]\ninput = 3\noutput = 15\ncache_read = 0.3\ncache_write = 3.75\n",
    )
    .unwrap();
    let listed = home.listed(&["--project", APP, "--agent", "claude", "--sort", "cost"]);
    assert!(listed.iter().all(|s| s["cost"] == "~$0.0538"), "{listed:?}");
    // …and a wrong one is a mistake naming the file and the key.
    std::fs::write(dir.join("config.toml"), "[prices.gpt-5]\noutput = -2\n").unwrap();
    let run = home.run(&["sessions", "--all-projects"], &[]);
    run.expect_code(2);
    assert!(
        run.stderr.contains("config.toml: prices.gpt-5.output: -2"),
        "{}",
        run.stderr
    );
}

#[test]
fn the_table_fits_the_width_and_shows_nothing_raw() {
    let home = Home::new();
    // A title holding an escape sequence.
    let hostile = json!({"type": "user", "uuid": "u1", "sessionId": "h", "cwd": APP,
        "timestamp": "2026-01-23T10:00:00.000Z",
        "message": {"role": "user", "content": "\u{1b}]0;pwned\u{7}\u{1b}[2Jwipe the screen"}});
    std::fs::write(
        home.dir
            .path()
            .join(".claude/projects/-w-app/hostile.jsonl"),
        format!("{hostile}\n"),
    )
    .unwrap();
    for columns in ["200", "100", "80", "50"] {
        let run = home.run(&["sessions", "--all-projects"], &[("COLUMNS", columns)]);
        run.expect_code(0);
        assert_eq!(unsafe_bytes(&run.stdout), None);
        let text = String::from_utf8(run.stdout.clone()).unwrap();
        let width: usize = columns.parse().unwrap();
        for line in text.lines() {
            let shown = overhear::text::width::display_width(line);
            assert!(shown <= width, "{columns}: {line:?}");
        }
        assert_eq!(text.lines().count(), 9, "a heading and 8 sessions:\n{text}");
        let heading = text.lines().next().unwrap();
        for column in ["agent", "title", "cost"] {
            assert!(heading.contains(column), "{columns}: {heading}");
        }
        assert!(
            text.contains("~$0.0538") && text.contains("not priced"),
            "{text}"
        );
        assert!(text.contains("␛"), "the escape shown as ␛:\n{text}");
    }
    let wide = home.run(&["sessions", "--all-projects"], &[("COLUMNS", "200")]);
    let text = String::from_utf8(wide.stdout).unwrap();
    for column in [
        "project",
        "start (UTC)",
        "last (UTC)",
        "duration",
        "turns",
        "tools",
        "failed",
        "tokens",
    ] {
        assert!(text.lines().next().unwrap().contains(column), "{text}");
    }
    assert!(text.contains("106.1k/800"), "{text}");
}

#[test]
fn mistakes_exit_2() {
    let home = Home::new();
    let run = home.run(&["sessions", "--sort", "size"], &[]);
    run.expect_code(2);
    assert!(run.stderr.contains("--sort size"), "{}", run.stderr);
    home.run(&["sessions", "--since", "yesterday"], &[])
        .expect_code(2);
    home.run(&["sessions", "--project", APP, "--all-projects"], &[])
        .expect_code(2);
}
