//! With no PATH, `render`, `events` and the viewer take the latest
//! conversation of the current folder among the JP workspace around it,
//! Claude Code's project folder for it and the Codex sessions whose
//! `session_meta.cwd` is it; `--agent` limits the search (docs/agents.md
//! "Finding sessions"). HOME, CODEX_HOME and CLAUDE_CONFIG_DIR point at
//! temporary folders holding generated sessions.

use crate::common;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, SystemTime};

use common::pty::{Viewer, rows};

/// A home with a project folder, Claude Code and Codex folders, all empty.
struct Home {
    _dir: tempfile::TempDir,
    home: PathBuf,
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
            home: root.join("home"),
            project,
        }
    }

    /// A Claude Code transcript of the project whose prompt is `prompt`,
    /// written `age` ago.
    fn claude(&self, name: &str, prompt: &str, age: u64) -> PathBuf {
        // The slug is the whole path with `/` and `.` as `-`.
        let slug = self.project.to_string_lossy().replace(['/', '.'], "-");
        let dir = self.home.join(".claude/projects").join(slug);
        std::fs::create_dir_all(&dir).expect("project folder");
        let line = serde_json::json!({"type": "user", "uuid": "u1", "sessionId": name,
            "message": {"role": "user", "content": prompt}});
        write_aged(
            &dir.join(format!("{name}.jsonl")),
            &format!("{line}\n"),
            age,
        )
    }

    /// A Codex rollout run in `cwd` whose prompt is `prompt`, written `age`
    /// ago, with `tail` after its lines.
    fn codex(&self, folder: &str, name: &str, cwd: &Path, prompt: &str, age: u64, tail: &str) {
        let dir = self.home.join(".codex").join(folder).join("2026/11/30");
        std::fs::create_dir_all(&dir).expect("sessions folder");
        let meta = serde_json::json!({"timestamp": "2026-11-30T10:00:00Z", "type": "session_meta",
            "payload": {"id": name, "timestamp": "2026-11-30T10:00:00Z",
                "cwd": cwd.to_string_lossy(), "originator": "codex_cli_rs",
                "cli_version": "0.80.0", "instructions": "x".repeat(80_000)}});
        let user = serde_json::json!({"timestamp": "2026-11-30T10:00:01Z", "type": "event_msg",
            "payload": {"type": "user_message", "message": prompt}});
        write_aged(
            &dir.join(format!("rollout-{name}.jsonl")),
            &format!("{meta}\n{user}\n{tail}"),
            age,
        );
    }

    /// `overhear ARGS…` in the project folder.
    fn overhear(&self, args: &[&str]) -> Output {
        crate::common::overhear()
            .args(args)
            .current_dir(&self.project)
            .env("HOME", &self.home)
            .env("JP_USER_DATA_DIR", self.home.join("jp"))
            .env_remove("CODEX_HOME")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("XDG_CONFIG_HOME")
            .output()
            .expect("overhear runs")
    }

    /// `overhear render` (no PATH) and ARGS, which must succeed.
    fn render(&self, args: &[&str]) -> String {
        let mut all = vec!["render", "--color", "never", "--width", "80"];
        all.extend_from_slice(args);
        let out = self.overhear(&all);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("UTF-8")
    }
}

/// Writes `text` to `path` and dates it `age` seconds ago.
fn write_aged(path: &Path, text: &str, age: u64) -> PathBuf {
    std::fs::write(path, text).expect("written");
    let when = SystemTime::now() - Duration::from_secs(age);
    File::options()
        .write(true)
        .open(path)
        .and_then(|file| file.set_modified(when))
        .expect("dated");
    path.to_owned()
}

#[test]
fn the_latest_session_of_the_folder_is_taken_among_claude_code_and_codex() {
    let home = Home::new();
    home.claude("old", "Claude, an hour ago", 3600);
    home.claude("new", "Claude, a minute ago", 60);
    home.codex(
        "sessions",
        "a",
        &home.project,
        "Codex, ten minutes ago",
        600,
        "",
    );
    assert!(home.render(&[]).contains("Claude, a minute ago"));

    // A Codex session of the folder, newer still, archived.
    home.codex(
        "archived_sessions",
        "b",
        &home.project,
        "Codex, just now",
        5,
        "",
    );
    // Newer again, but of another folder: not this folder's.
    home.codex("sessions", "c", &home.home, "Codex elsewhere", 1, "");
    let screen = home.render(&[]);
    assert!(screen.contains("Codex, just now"), "{screen}");

    // `--agent` limits the search to one kind.
    assert!(
        home.render(&["--agent", "claude"])
            .contains("Claude, a minute ago")
    );
    let out = home.overhear(&["events", "--agent", "codex", "--jsonl"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("Codex, just now"));
}

#[test]
fn codex_home_and_claude_config_dir_are_honoured() {
    let home = Home::new();
    let claude_dir = home.home.join("elsewhere/claude");
    let slug = home.project.to_string_lossy().replace(['/', '.'], "-");
    std::fs::create_dir_all(claude_dir.join("projects").join(&slug)).expect("folder");
    let line = serde_json::json!({"type": "user", "uuid": "u1", "sessionId": "s",
        "message": {"role": "user", "content": "From CLAUDE_CONFIG_DIR"}});
    write_aged(
        &claude_dir.join("projects").join(&slug).join("s.jsonl"),
        &format!("{line}\n"),
        10,
    );
    let out = crate::common::overhear()
        .args(["render", "--color", "never"])
        .current_dir(&home.project)
        .env("HOME", &home.home)
        .env("CLAUDE_CONFIG_DIR", &claude_dir)
        .env("CODEX_HOME", home.home.join("nothing"))
        .output()
        .expect("overhear runs");
    assert!(String::from_utf8_lossy(&out.stdout).contains("From CLAUDE_CONFIG_DIR"));

    home.codex("sessions", "a", &home.project, "From CODEX_HOME", 5, "");
    let out = crate::common::overhear()
        .args(["render", "--color", "never", "--agent", "codex"])
        .current_dir(&home.project)
        .env("HOME", home.home.join("nobody"))
        .env("CODEX_HOME", home.home.join(".codex"))
        .output()
        .expect("overhear runs");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("From CODEX_HOME"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_newer_jp_conversation_wins_and_agent_jp_keeps_to_the_workspace() {
    let home = Home::new();
    let conversations = common::pty::jp_workspace(&home.project);
    let conversation = conversations.join("17758406187");
    std::fs::create_dir_all(&conversation).expect("conversation folder");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/jp/current");
    for file in ["events.json", "base_config.json", "metadata.json"] {
        std::fs::copy(fixture.join(file), conversation.join(file)).expect("copied");
    }
    let jp_screen = home.render(&["--agent", "jp"]);
    home.claude("old", "Claude, an hour ago", 3600);
    write_aged(
        &conversation.join("events.json"),
        &std::fs::read_to_string(fixture.join("events.json")).expect("fixture"),
        60,
    );
    assert_eq!(home.render(&[]), jp_screen);
    home.claude("new", "Claude, just now", 1);
    assert!(home.render(&[]).contains("Claude, just now"));
    assert_eq!(home.render(&["--agent", "jp"]), jp_screen);
}

#[test]
fn agent_names_a_kind_with_nothing_to_find_as_a_usage_error() {
    let home = Home::new();
    for (agent, message) in [
        ("claude", "--agent claude: no session of "),
        ("codex", "--agent codex: no session of "),
        (
            "eve",
            "--agent eve: eve streams are kept in no known folder",
        ),
    ] {
        let out = home.overhear(&["render", "--agent", agent]);
        assert_eq!(out.status.code(), Some(2), "{agent}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(message), "{stderr}");
    }
    // A PATH given wins over discovery.
    let file = home.claude("s", "Named on the command line", 10);
    let out = home.overhear(&["render", "--agent", "codex", file.to_str().expect("UTF-8")]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("Named on the command line"));
}

#[test]
fn two_thousand_sessions_are_searched_by_their_heads() {
    let home = Home::new();
    let other = home.home.join("other");
    // Garbage after each head: only the first line is read to match a folder.
    let garbage = "\u{0}not json at all\n".repeat(20);
    for n in 0..2000 {
        home.codex(
            "sessions",
            &format!("o{n}"),
            &other,
            "elsewhere",
            100 + n,
            &garbage,
        );
    }
    home.codex(
        "sessions",
        "mine",
        &home.project,
        "Mine, among thousands",
        5000,
        &garbage,
    );
    let screen = home.render(&[]);
    assert!(screen.contains("Mine, among thousands"), "{screen}");
}

#[test]
fn the_viewer_opens_the_latest_session_at_every_width() {
    let home = Home::new();
    home.claude("s", "Opened with no PATH", 10);
    for cols in [40, 80, 200] {
        let mut cmd = Viewer::command(&home.project, &home.home.join("jp"));
        cmd.env("HOME", &home.home);
        cmd.env_remove("CODEX_HOME");
        cmd.env_remove("CLAUDE_CONFIG_DIR");
        let mut viewer = Viewer::start(cmd, 24, cols);
        viewer.wait_for_text("Opened with no");
        let screen = rows(&viewer.settled_screen()).join("\n");
        assert!(screen.contains("Opened with no"), "{cols}:\n{screen}");
        viewer.quit();
    }
}
