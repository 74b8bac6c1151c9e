//! `overhear export --all` through the binary, on a fake home folder with a
//! Claude Code session and a Codex session of two projects under the home
//! folder and a JP workspace in the current one: a page per session, an
//! index grouped by project (the home folder shown as `~`) with each
//! session's figures, secrets redacted; a second run writes nothing, a
//! touched session is written again; `--agent` and `--since` narrow it; a
//! session that cannot be read is reported and the rest still exported.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use serde_json::{Value, json};

use crate::common::agents::claude::{AGENT, SESSION, assistant, user};
use crate::common::pty::jp_workspace;

const CODEX_FILE: &str = "rollout-2026-01-22T11-00-00-019a.jsonl";
const CLAUDE_PAGE: &str = "claude-5e55a0e1-0000-4000-8000-00000000c0de.html";
const CODEX_PAGE: &str = "codex-rollout-2026-01-22T11-00-00-019a.html";
const JP_PAGE: &str = "jp-c17758406187.html";

/// A home folder (`home/`) with `home/src/app` (Claude Code and JP) and
/// `home/src/api` (Codex), and an output folder beside it.
struct Home {
    _tmp: tempfile::TempDir,
    home: PathBuf,
    app: PathBuf,
    api: PathBuf,
    out: PathBuf,
}

struct Output {
    code: Option<i32>,
    stderr: String,
}

impl Home {
    fn new() -> Home {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        let app = home.join("src/app");
        let api = home.join("src/api");
        std::fs::create_dir_all(&app).unwrap();
        std::fs::create_dir_all(&api).unwrap();
        let out = tmp.path().join("out");
        let made = Home {
            _tmp: tmp,
            home,
            app,
            api,
            out,
        };
        made.write_claude();
        made.write_codex();
        made.write_jp();
        made
    }

    fn claude_file(&self) -> PathBuf {
        let slug: String = self
            .app
            .to_str()
            .unwrap()
            .chars()
            .map(|c| if c == '/' || c == '.' { '-' } else { c })
            .collect();
        self.home
            .join(".claude/projects")
            .join(slug)
            .join(format!("{SESSION}.jsonl"))
    }

    fn codex_file(&self) -> PathBuf {
        self.home
            .join(".codex/sessions/2026/01/22")
            .join(CODEX_FILE)
    }

    fn write_claude(&self) {
        let file = self.claude_file();
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        let cwd = self.app.to_str().unwrap().to_owned();
        let with_cwd = |line: String| {
            let mut record: Value = serde_json::from_str(&line).unwrap();
            record["cwd"] = Value::from(cwd.as_str());
            if record["type"] == "assistant" {
                record["message"]["usage"] = json!({"input_tokens": 1200, "output_tokens": 300});
                record["message"]["model"] = json!("claude-sonnet-4-5");
            }
            record.to_string() + "\n"
        };
        let home = self.home.to_str().unwrap();
        let lines = [
            user(
                "u1",
                0,
                false,
                json!("Fix the login; the key is AKIAIOSFODNN7EXAMPLE"),
            ),
            assistant(
                "a1",
                2,
                false,
                json!([{"type": "tool_use", "id": "toolu_sh", "name": "Bash",
                        "input": {"command": format!("ls {home}/src/app/missing")}}]),
            ),
            user(
                "u2",
                3,
                false,
                json!([{"type": "tool_result", "tool_use_id": "toolu_sh", "is_error": true,
                        "content": "ls: cannot access: No such file or directory"}]),
            ),
            assistant(
                "a2",
                59,
                false,
                json!([{"type": "text", "text": "The login works now."}]),
            ),
        ];
        let text: String = lines.into_iter().map(with_cwd).collect();
        std::fs::write(file, text).unwrap();
    }

    fn write_codex(&self) {
        let file = self.codex_file();
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        let at = |s: u32| format!("2026-01-22T11:00:{s:02}.000Z");
        let lines = [
            json!({"timestamp": at(0), "type": "session_meta",
                "payload": {"id": "019a", "timestamp": at(0), "cwd": self.api.to_str().unwrap(),
                    "originator": "codex_cli_rs", "cli_version": "0.80.0"}}),
            json!({"timestamp": at(1), "type": "event_msg",
                "payload": {"type": "user_message", "message": "Deploy the api", "kind": "plain"}}),
            json!({"timestamp": at(2), "type": "event_msg",
                "payload": {"type": "agent_message", "message": "Deployed."}}),
            json!({"timestamp": at(3), "type": "event_msg",
                "payload": {"type": "task_complete"}}),
        ];
        let text: String = lines.iter().map(|l| l.to_string() + "\n").collect();
        std::fs::write(file, text).unwrap();
    }

    fn write_jp(&self) {
        let folder = jp_workspace(&self.app).join("17758406187-notes");
        std::fs::create_dir_all(&folder).unwrap();
        let events = json!([
            {"timestamp": "2026-04-10 17:04:00.5", "type": "turn_start"},
            {"timestamp": "2026-04-10 17:04:01.5", "type": "chat_request", "content": "Write the notes"},
            {"timestamp": "2026-04-10 17:04:02.5", "type": "chat_response", "message": "Notes written."},
        ]);
        std::fs::write(folder.join("events.json"), events.to_string()).unwrap();
    }

    /// Runs `overhear export --all -o OUT ARGS…` in the `app` folder.
    fn export(&self, args: &[&str]) -> Output {
        let output = crate::common::overhear()
            .args(["export", "--all", "-o", self.out.to_str().unwrap()])
            .args(args)
            .current_dir(&self.app)
            .env("HOME", &self.home)
            .env("XDG_DATA_HOME", self.home.join(".local/share"))
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME")
            .env_remove("GEMINI_CLI_HOME")
            .env_remove("QWEN_HOME")
            .env_remove("QWEN_RUNTIME_DIR")
            .env_remove("COPILOT_HOME")
            .env_remove("OVERHEAR_CONFIG")
            .output()
            .expect("the binary runs");
        Output {
            code: output.status.code(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.out.join(name))
            .unwrap_or_else(|err| panic!("{name}: {err}; out holds {:?}", self.files()))
    }

    /// The output folder's files and their modification times.
    fn mtimes(&self) -> BTreeMap<String, SystemTime> {
        std::fs::read_dir(&self.out)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (
                    e.file_name().to_string_lossy().into_owned(),
                    e.metadata().unwrap().modified().unwrap(),
                )
            })
            .collect()
    }

    fn files(&self) -> Vec<String> {
        self.mtimes().into_keys().collect()
    }
}

fn expect(output: &Output, code: i32) {
    assert_eq!(output.code, Some(code), "stderr:\n{}", output.stderr);
}

#[test]
fn every_session_gets_a_page_and_the_index_groups_them_by_project() {
    let home = Home::new();
    let run = home.export(&[]);
    expect(&run, 0);
    assert!(
        run.stderr.contains("3 written, 0 unchanged, 0 failed"),
        "{}",
        run.stderr
    );
    assert_eq!(
        home.files(),
        [
            ".overhear-export.json",
            CLAUDE_PAGE,
            CODEX_PAGE,
            "index.html",
            JP_PAGE
        ]
    );
    let index = home.read("index.html");
    // Grouped by project, the home folder as `~`, in name order.
    let api = index.find("<h2>~/src/api</h2>").expect(&index);
    let app = index.find("<h2>~/src/app</h2>").expect(&index);
    assert!(api < app);
    let (codex_part, app_part) = index.split_at(app);
    assert!(codex_part.contains(&format!("<a href=\"{CODEX_PAGE}\">Deploy the api</a>")));
    assert!(app_part.contains(&format!("<a href=\"{JP_PAGE}\">Write the notes</a>")));
    // The Claude Code session's row: its title (redacted), start, duration
    // (0:00 to 0:59), one turn, one tool call, one failure, its tokens and
    // their cost at claude-sonnet-4-5's list price ($3 / $15 a million:
    // 2,400 × 3 + 600 × 15 = $0.0162).
    let row = app_part
        .lines()
        .find(|l| l.contains(CLAUDE_PAGE))
        .expect(&index);
    assert_eq!(
        row,
        format!(
            "<tr><td>claude</td><td><a href=\"{CLAUDE_PAGE}\">Fix the login; the key is \
             [redacted aws-access-token]</a></td><td>2026-01-22 10:00 UTC</td>\
             <td class=\"n\">59s</td><td class=\"n\">1</td><td class=\"n\">1</td>\
             <td class=\"n\">1</td><td class=\"n\">2.4k in / 600 out</td>\
             <td class=\"n\">~$0.02</td></tr>"
        )
    );
    // Each page is the session's export: redacted, no local home folder.
    let claude = home.read(CLAUDE_PAGE);
    assert!(claude.contains("The login works now."));
    assert!(claude.contains("~/src/app/missing"), "{claude}");
    assert!(claude.contains("[redacted aws-access-token]"));
    for name in home.files() {
        let text = home.read(&name);
        assert!(!text.contains("AKIAIOSFODNN7EXAMPLE"), "{name}");
        if name != ".overhear-export.json" {
            assert!(
                !text.contains(home.home.to_str().unwrap()),
                "{name}: {text}"
            );
        }
    }
    assert!(home.read(CODEX_PAGE).contains("Deployed."));
    assert!(home.read(JP_PAGE).contains("Notes written."));
}

#[test]
fn a_second_run_writes_nothing_and_a_touched_session_is_written_again() {
    let home = Home::new();
    expect(&home.export(&[]), 0);
    let first = home.mtimes();
    std::thread::sleep(Duration::from_millis(20));
    let again = home.export(&[]);
    expect(&again, 0);
    assert!(
        again.stderr.contains("0 written, 3 unchanged, 0 failed"),
        "{}",
        again.stderr
    );
    assert_eq!(home.mtimes(), first);

    // The Codex session goes on.
    let mut text = std::fs::read_to_string(home.codex_file()).unwrap();
    text.push_str(
        &json!({"timestamp": "2026-01-22T11:00:09.000Z", "type": "event_msg",
            "payload": {"type": "user_message", "message": "Roll it back", "kind": "plain"}})
        .to_string(),
    );
    text.push('\n');
    std::fs::write(home.codex_file(), text).unwrap();
    let touched = home.export(&[]);
    expect(&touched, 0);
    assert!(
        touched.stderr.contains("1 written, 2 unchanged, 0 failed"),
        "{}",
        touched.stderr
    );
    let after = home.mtimes();
    for name in [CLAUDE_PAGE, JP_PAGE] {
        assert_eq!(after[name], first[name], "{name}");
    }
    for name in [CODEX_PAGE, "index.html", ".overhear-export.json"] {
        assert_ne!(after[name], first[name], "{name}");
    }
    assert!(home.read(CODEX_PAGE).contains("Roll it back"));
    // The index counts the new turn.
    let index = home.read("index.html");
    let row = index.lines().find(|l| l.contains(CODEX_PAGE)).unwrap();
    assert!(row.contains("<td class=\"n\">2</td>"), "{row}");
}

#[test]
fn agent_and_since_narrow_the_sessions_exported() {
    let home = Home::new();
    expect(&home.export(&["--agent", "codex"]), 0);
    assert_eq!(
        home.files(),
        [".overhear-export.json", CODEX_PAGE, "index.html"]
    );
    assert!(!home.read("index.html").contains("~/src/app"));

    let home = Home::new();
    let old = SystemTime::UNIX_EPOCH + Duration::from_secs(1_600_000_000);
    std::fs::File::options()
        .write(true)
        .open(home.claude_file())
        .unwrap()
        .set_modified(old)
        .unwrap();
    expect(&home.export(&["--since", "2021-01-01"]), 0);
    assert_eq!(
        home.files(),
        [".overhear-export.json", CODEX_PAGE, "index.html", JP_PAGE]
    );
}

#[test]
fn pages_of_sessions_no_longer_listed_are_removed_but_never_a_users_file() {
    let home = Home::new();
    expect(&home.export(&[]), 0);
    // A file of the user's in the folder, and a page the manifest lists
    // that the user replaced with a file of their own.
    std::fs::write(home.out.join("notes.html"), "<p>mine</p>").unwrap();
    std::fs::write(home.out.join(JP_PAGE), "<!DOCTYPE html>\n<p>my version</p>").unwrap();
    let narrowed = home.export(&["--agent", "codex"]);
    expect(&narrowed, 0);
    assert!(
        narrowed
            .stderr
            .contains("0 written, 1 unchanged, 0 failed, 1 removed"),
        "{}",
        narrowed.stderr
    );
    assert_eq!(
        home.files(),
        [
            ".overhear-export.json",
            CODEX_PAGE,
            "index.html",
            JP_PAGE,
            "notes.html"
        ]
    );
    assert_eq!(home.read("notes.html"), "<p>mine</p>");
    assert_eq!(home.read(JP_PAGE), "<!DOCTYPE html>\n<p>my version</p>");
    // A session that fails keeps its earlier page.
    std::fs::remove_file(home.out.join(JP_PAGE)).unwrap();
    expect(&home.export(&[]), 0);
    let page = home.read(JP_PAGE);
    let events = jp_workspace(&home.app).join("17758406187-notes/events.json");
    std::fs::write(&events, "[{\"type\": ").unwrap();
    let failing = home.export(&[]);
    expect(&failing, 2);
    assert!(!failing.stderr.contains("removed"), "{}", failing.stderr);
    assert_eq!(home.read(JP_PAGE), page);
}

/// Gives the Claude Code session a sub-agent (an `Agent` call, its file
/// `SESSION/subagents/agent-AGENT.jsonl`) whose reply is `reply`; returns
/// the sub-agent's file.
fn add_subagent(home: &Home, reply: &str) -> PathBuf {
    let file = home.claude_file();
    let mut text = std::fs::read_to_string(&file).unwrap();
    if !text.contains("toolu_agent") {
        text.push_str(&assistant(
            "a3",
            4,
            false,
            json!([{"type": "tool_use", "id": "toolu_agent", "name": "Agent",
                    "input": {"description": "Explore", "subagent_type": "Explore",
                              "prompt": "Look around"}}]),
        ));
        text.push_str(
            &(json!({"type": "user", "uuid": "u3", "sessionId": SESSION,
                "timestamp": "2026-01-22T10:00:41.000Z",
                "toolUseResult": {"status": "completed", "agentId": AGENT},
                "message": {"role": "user", "content": [{"type": "tool_result",
                    "tool_use_id": "toolu_agent", "content": [{"type": "text", "text": "done"}]}]}})
            .to_string()
                + "\n"),
        );
        std::fs::write(&file, text).unwrap();
    }
    let folder = file.with_extension("").join("subagents");
    std::fs::create_dir_all(&folder).unwrap();
    let agent = folder.join(format!("agent-{AGENT}.jsonl"));
    let records = [
        user("s1", 5, true, json!("Look around")),
        assistant("s2", 40, true, json!([{"type": "text", "text": reply}])),
    ];
    std::fs::write(&agent, records.concat()).unwrap();
    agent
}

#[test]
fn a_change_to_a_sub_agents_file_alone_writes_its_session_again() {
    let home = Home::new();
    add_subagent(&home, "Found the first thing.");
    expect(&home.export(&[]), 0);
    assert!(home.read(CLAUDE_PAGE).contains("Found the first thing."));
    let manifest = home.read(".overhear-export.json");
    assert!(
        manifest.contains(&format!("agent-{AGENT}.jsonl")),
        "{manifest}"
    );
    let first = home.mtimes();
    std::thread::sleep(Duration::from_millis(20));
    let parent = std::fs::metadata(home.claude_file()).unwrap();
    add_subagent(&home, "Found the second thing.");
    // The session's own transcript is as it was.
    assert_eq!(
        std::fs::metadata(home.claude_file())
            .unwrap()
            .modified()
            .unwrap(),
        parent.modified().unwrap()
    );
    let again = home.export(&[]);
    expect(&again, 0);
    assert!(
        again.stderr.contains("1 written, 2 unchanged, 0 failed"),
        "{}",
        again.stderr
    );
    assert_ne!(home.mtimes()[CLAUDE_PAGE], first[CLAUDE_PAGE]);
    assert!(home.read(CLAUDE_PAGE).contains("Found the second thing."));
    let still = home.export(&[]);
    assert!(
        still.stderr.contains("0 written, 3 unchanged, 0 failed"),
        "{}",
        still.stderr
    );
}

#[test]
fn a_session_that_cannot_be_read_is_reported_and_the_rest_exported() {
    let home = Home::new();
    let broken = home.app.join(".jp/conversations/17758406999-broken");
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::write(broken.join("events.json"), "[{\"type\": ").unwrap();
    let run = home.export(&[]);
    expect(&run, 2);
    assert!(
        run.stderr
            .contains(&format!("{}", broken.join("events.json").display())),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("3 written, 0 unchanged, 1 failed"),
        "{}",
        run.stderr
    );
    assert!(home.out.join(CLAUDE_PAGE).is_file());
    assert!(!home.read("index.html").contains("broken"));
}

#[test]
fn markdown_pages_and_index_with_format_md() {
    let home = Home::new();
    expect(&home.export(&["--format", "md"]), 0);
    let index = home.read("index.md");
    assert!(index.contains("## ~/src/app"), "{index}");
    assert!(
        index.contains("[Deploy the api](codex-rollout-2026-01-22T11-00-00-019a.md)"),
        "{index}"
    );
    assert!(
        home.read("claude-5e55a0e1-0000-4000-8000-00000000c0de.md")
            .contains("The login works now.")
    );
}

#[test]
fn no_folder_among_an_agents_sessions_is_written() {
    let home = Home::new();
    let inside = home.claude_file().parent().unwrap().join("pages");
    let output = crate::common::overhear()
        .args(["export", "--all", "-o", inside.to_str().unwrap()])
        .current_dir(&home.app)
        .env("HOME", &home.home)
        .env("XDG_DATA_HOME", home.home.join(".local/share"))
        .env_remove("CLAUDE_CONFIG_DIR")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("where claude keeps its sessions"),
        "{stderr}"
    );
    assert!(!inside.exists());
}

/// A page that is a link (to a session, here) is not written through.
#[test]
fn a_link_in_place_of_a_page_is_not_followed() {
    let home = Home::new();
    std::fs::create_dir_all(&home.out).unwrap();
    std::os::unix::fs::symlink(home.codex_file(), home.out.join(CODEX_PAGE)).unwrap();
    let before = std::fs::read(home.codex_file()).unwrap();
    let run = home.export(&[]);
    expect(&run, 2);
    assert!(run.stderr.contains("a link"), "{}", run.stderr);
    assert_eq!(std::fs::read(home.codex_file()).unwrap(), before);
}
