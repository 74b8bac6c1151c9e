//! Every error a person can meet, as they meet it: one line on stderr,
//! `overhear: <file>: <place>: <problem>[; <fix>]`, exit 1 for input that
//! cannot be read and 2 for a mistake in the command line. Problems that do
//! not stop reading are warnings: the conversation is printed all the same.
//! The catalogue these tests check is `docs/errors.md`.

// This test drives the real binary through system calls that have no safe
// wrapper (signals, FIFOs, ptys, locks, process groups); every unsafe block
// says why it is sound (clippy's undocumented_unsafe_blocks).
#![allow(unsafe_code)]

use crate::common;

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::pty::{Viewer, replace};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/jp");

/// What one run printed and how it ended.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs `overhear ARGS…` in `cwd`, JP's user data folder inside it.
fn overhear(cwd: &Path, args: &[&str]) -> Run {
    run(cwd, args, false)
}

fn run(cwd: &Path, args: &[&str], as_nobody: bool) -> Run {
    let mut cmd = crate::common::overhear();
    cmd.args(args)
        .current_dir(cwd)
        .env("JP_USER_DATA_DIR", cwd.join("no-user-data"));
    if as_nobody {
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            cmd.pre_exec(|| {
                if libc::setgid(65534) != 0 || libc::setuid(65534) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    let output = cmd.output().unwrap();
    Run {
        code: output.status.code().unwrap(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Asserts the run failed with exactly `message` (one line) and `code`.
fn assert_error(run: &Run, code: i32, message: &str) {
    assert_eq!(run.stderr, format!("overhear: {message}\n"));
    assert_eq!(run.code, code, "{}", run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
}

/// Asserts the run printed the conversation and exactly these warnings.
fn assert_warnings(run: &Run, warnings: &[String]) {
    let expected: String = warnings
        .iter()
        .map(|w| format!("overhear: warning: {w}\n"))
        .collect();
    assert_eq!(run.stderr, expected);
    assert_eq!(run.code, 0);
    assert!(
        !run.stdout.is_empty(),
        "the conversation is printed all the same"
    );
}

struct Scratch {
    _tmp: tempfile::TempDir,
    root: PathBuf,
}

impl Scratch {
    fn new() -> Scratch {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().to_path_buf();
        Scratch { _tmp: tmp, root }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.root.join(name)
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.path(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }

    /// A copy of fixture folder `name` as `<as_name>`.
    fn fixture(&self, name: &str, as_name: &str) -> PathBuf {
        let dir = self.path(as_name);
        std::fs::create_dir_all(&dir).unwrap();
        for entry in std::fs::read_dir(Path::new(FIXTURES).join(name)).unwrap() {
            let entry = entry.unwrap();
            std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
        }
        dir
    }
}

fn shown(path: &Path) -> String {
    path.display().to_string()
}

// --- Paths that name nothing to open (exit 1) ------------------------------

#[test]
fn paths_that_name_no_conversation() {
    let s = Scratch::new();
    assert_error(
        &overhear(&s.root, &["render", "missing.json"]),
        1,
        &format!("{}: no such file or folder", shown(&s.path("missing.json"))),
    );
    std::fs::create_dir(s.path("empty")).unwrap();
    assert_error(
        &overhear(&s.root, &["render", "empty"]),
        1,
        &format!(
            "{}: empty folder, not a JP conversation",
            shown(&s.path("empty"))
        ),
    );
    s.write("notes/todo.txt", "x");
    assert_error(
        &overhear(&s.root, &["render", "notes"]),
        1,
        &format!(
            "{}: not a JP conversation (no events.json) and not inside a JP workspace (no .jp/ here or above)",
            shown(&s.path("notes"))
        ),
    );
    let text = s.write("readme.md", "\n  # Title\n");
    assert_error(
        &overhear(&s.root, &["events", "readme.md"]),
        1,
        &format!(
            "{}: line 2, column 3: '#' starts neither a JP events file (a JSON array, `[`) nor an eve stream (JSON objects, one per line, `{{`)",
            shown(&text)
        ),
    );
    let empty = s.write("session.json", "");
    assert_error(
        &overhear(&s.root, &["render", "session.json"]),
        1,
        &format!(
            "{}: empty file; a stream that has not started yet is followed when its name ends in .ndjson or .jsonl",
            shown(&empty)
        ),
    );
}

#[test]
fn no_path_outside_a_workspace_asks_for_one() {
    let s = Scratch::new();
    // Not a terminal: `overhear` prints like `render`.
    assert_error(
        &overhear(&s.root, &[]),
        1,
        &format!(
            "{}: not inside a JP workspace (no .jp/ here or above) and no Claude Code or Codex session of this folder; give a PATH",
            shown(&s.root)
        ),
    );
}

#[test]
fn workspaces_without_the_conversation_asked_for() {
    let s = Scratch::new();
    std::fs::create_dir_all(s.path(".jp/conversations")).unwrap();
    assert_error(
        &overhear(&s.root, &["render", "."]),
        1,
        &format!("{}: JP workspace without conversations", shown(&s.root)),
    );
    s.fixture("current", ".jp/conversations/17760760747-x");
    assert_error(
        &overhear(&s.root, &["render", "jp-c123"]),
        1,
        &format!(
            "123: no such conversation in the JP workspace at {}",
            shown(&s.root)
        ),
    );
}

// --- Files that cannot be read (exit 1) -------------------------------------

#[test]
fn events_files_that_are_not_json_name_line_and_column() {
    let s = Scratch::new();
    let cases = [
        (
            "[{\"type\":\"turn_start\"} {\"type\":\"turn_start\"}]",
            "line 1, column 24: expected `,` or `]`",
        ),
        (
            "[\n  {\"type\": \"turn_start\"},\n",
            "line 3, column 1: the file ends where a value should follow; it is cut short",
        ),
        (
            "[\n  {\"type\": \"turn_start\"}\n",
            "line 3, column 1: the file ends inside an array; it is cut short",
        ),
        (
            "[] []",
            "line 1, column 4: more text after the JSON value; the file must hold one",
        ),
        (
            "{\"type\": \"turn_start\"}",
            "line 1, column 1: found a JSON object, expected a JSON array of conversation events",
        ),
        (
            // The array, the entry and 126 more levels: 128, one past the limit.
            &format!(
                "[{{\"type\": \"config_delta\", \"delta\": {}1{}}}]",
                "[".repeat(126),
                "]".repeat(126)
            ),
            "line 1, column 161: nested deeper than 127 levels, more than overhear reads",
        ),
    ];
    for (i, (text, place)) in cases.into_iter().enumerate() {
        let file = s.write(&format!("c{i}/events.json"), text);
        assert_error(
            &overhear(&s.root, &["render", &format!("c{i}")]),
            1,
            &format!("{}: {place}", shown(&file)),
        );
    }
}

#[test]
fn a_broken_base_config_is_named() {
    let s = Scratch::new();
    let dir = s.fixture("current", "conv");
    std::fs::write(dir.join("base_config.json"), "{\"style\": }").unwrap();
    assert_error(
        &overhear(&s.root, &["render", "conv"]),
        1,
        &format!(
            "{}: line 1, column 11: expected value",
            shown(&dir.join("base_config.json"))
        ),
    );
}

#[test]
fn an_unreadable_file_says_overhear_only_reads() {
    let s = Scratch::new();
    let dir = s.fixture("current", "conv");
    let events = dir.join("events.json");
    std::fs::set_permissions(&events, std::fs::Permissions::from_mode(0o000)).unwrap();
    // Root reads anything: run overhear as `nobody` then.
    // SAFETY: geteuid has no preconditions and cannot fail.
    let root = unsafe { libc::geteuid() } == 0;
    if root {
        for folder in [&s.root, &dir] {
            std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    }
    let conversation = shown(&dir);
    assert_error(
        &run(&s.root, &["render", &conversation], root),
        1,
        &format!(
            "{}: permission denied; overhear needs read access (it never writes)",
            shown(&events)
        ),
    );
}

#[test]
fn a_self_referencing_events_link_says_so() {
    let s = Scratch::new();
    let dir = s.path("conv");
    std::fs::create_dir(&dir).unwrap();
    let events = dir.join("events.json");
    std::os::unix::fs::symlink("events.json", &events).unwrap();
    let message = format!(
        "{}: a symbolic link that leads back to itself (a loop of links)",
        shown(&events)
    );
    for path in [&dir, &events] {
        assert_error(&overhear(&s.root, &["render", &shown(path)]), 1, &message);
    }
}

// --- Problems that do not stop reading (warnings, exit 0) -------------------

#[test]
fn an_unreadable_metadata_file_costs_only_the_title() {
    let s = Scratch::new();
    let dir = s.fixture("current", "conv");
    let metadata = dir.join("metadata.json");
    std::fs::set_permissions(&metadata, std::fs::Permissions::from_mode(0o000)).unwrap();
    // Root reads anything: run overhear as `nobody` then.
    // SAFETY: geteuid has no preconditions and cannot fail.
    let root = unsafe { libc::geteuid() } == 0;
    if root {
        for folder in [&s.root, &dir] {
            std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        for file in ["events.json", "base_config.json"] {
            std::fs::set_permissions(dir.join(file), std::fs::Permissions::from_mode(0o644))
                .unwrap();
        }
    }
    assert_warnings(
        &run(&s.root, &["render", &shown(&dir)], root),
        &[format!(
            "{}: permission denied; overhear needs read access (it never writes); the title is not shown",
            shown(&metadata)
        )],
    );
}

#[test]
fn malformed_events_are_named_by_index_and_the_rest_is_shown() {
    let s = Scratch::new();
    let dir = s.fixture("malformed", "conv");
    let run = overhear(&s.root, &["render", "conv"]);
    assert_warnings(
        &run,
        &[format!(
            "{}: event 2: tool_call_request: missing key `id`",
            shown(&dir.join("events.json"))
        )],
    );
}

#[test]
fn a_malformed_stream_line_is_named_by_line_and_column() {
    let s = Scratch::new();
    let stream = s.write(
        "session.ndjson",
        "{\"type\":\"message.created\",\"data\":{\"role\":\"user\",\"content\":\"hi\"}}\n{oops}\n",
    );
    let run = overhear(&s.root, &["render", "session.ndjson"]);
    assert_eq!(
        run.stderr,
        format!(
            "overhear: warning: {}: line 2, column 2: not JSON: key must be a string\n",
            shown(&stream)
        )
    );
    assert_eq!(run.code, 0);
}

#[test]
fn rejected_stored_styles_name_the_file_and_the_event() {
    let s = Scratch::new();
    let dir = s.fixture("current", "conv");
    std::fs::write(
        dir.join("base_config.json"),
        r#"{"conversation":{"tools":{"fs_read_file":{"style":{"inline_results":"bogus"}}}}}"#,
    )
    .unwrap();
    assert_warnings(
        &overhear(&s.root, &["render", "conv"]),
        &[format!(
            "{}: conversation.tools.fs_read_file.style.inline_results: \"bogus\" is not an inline_results value (expected \"off\", \"full\", true, false, a line count, a digit string, {{\"truncate\":{{\"lines\":N}}}} or {{\"user\":…,\"assistant\":…}})",
            shown(&dir.join("base_config.json"))
        )],
    );

    // A legacy conversation: the base is stored event 0, a delta later on.
    let legacy = s.fixture("legacy-wrapped", "legacy");
    let events_path = legacy.join("events.json");
    let mut events: Vec<serde_json::Value> =
        serde_json::from_slice(&std::fs::read(&events_path).unwrap()).unwrap();
    events[0]["delta"]["style"] = serde_json::json!({"tool_call": {"show": "yes"}});
    events[4]["delta"]["conversation"]["tools"]["fs_read_file"]["style"]["inline_results"] =
        serde_json::json!(-2);
    std::fs::write(&events_path, serde_json::to_vec(&events).unwrap()).unwrap();
    let run = overhear(&s.root, &["render", "legacy"]);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{}", run.stderr);
    assert_eq!(
        lines[0],
        format!(
            "overhear: warning: {}: event 0: style.tool_call.show: \"yes\" is not a boolean (expected true or false); tool calls are shown",
            shown(&events_path)
        )
    );
    assert!(
        lines[1].starts_with(&format!(
            "overhear: warning: {}: event 4: config_delta: conversation.tools.fs_read_file.style.inline_results: -2 ",
            shown(&events_path)
        )),
        "{}",
        lines[1]
    );
    assert_eq!(run.code, 0);
}

#[test]
fn a_broken_metadata_file_costs_only_the_title() {
    let s = Scratch::new();
    let dir = s.fixture("current", "conv");
    std::fs::write(dir.join("metadata.json"), "{title: 1}").unwrap();
    assert_warnings(
        &overhear(&s.root, &["render", "conv"]),
        &[format!(
            "{}: line 1, column 2: key must be a string; the title is not shown",
            shown(&dir.join("metadata.json"))
        )],
    );
}

// --- Mistakes in the command line (exit 2) ----------------------------------

#[test]
fn bad_options_are_usage_errors_naming_the_option() {
    let s = Scratch::new();
    s.fixture("current", "conv");
    let cases: &[(&[&str], &str)] = &[
        (
            &["--turn", "0"],
            "--turn 0: turns are numbered from 1 (-1 is the last)",
        ),
        (
            &["--turn", "two"],
            "--turn two: not a turn: use 3, 2..4, -1 or 2..",
        ),
        (
            &["--width", "0"],
            "--width 0: expected a number of columns from 1 to 10000, e.g. 100",
        ),
        (
            &["--view", "everything"],
            "--view everything: expected one of terminal, user, raw",
        ),
        (
            &["--color", "sometimes"],
            "--color sometimes: expected one of auto, always, never",
        ),
        (
            &["--widht", "80"],
            "--widht: no such option; did you mean --width?",
        ),
        (
            &["--theme", "solarized"],
            "--theme solarized: no such theme (built-in themes: dark, light) and no such file",
        ),
        (
            &["--set", "inline_results"],
            "--set inline_results: expected KEY=VALUE, e.g. conversation.tools.fs_read_file.style.inline_results=full",
        ),
        (
            &["--set", "conversation.tools.x.style.header=maybe"],
            "--set conversation.tools.x.style.header=maybe: conversation.tools.x.style.header: \"maybe\" is not a header value (expected true, false, \"on\" or \"off\")",
        ),
    ];
    for (options, message) in cases {
        let mut args = vec!["render", "conv"];
        args.extend_from_slice(options);
        assert_error(&overhear(&s.root, &args), 2, message);
    }
    // No PATH: the latest conversation of the folder, and here there is none.
    assert_error(
        &overhear(&s.root, &["render"]),
        1,
        &format!(
            "{}: not inside a JP workspace (no .jp/ here or above) and no Claude Code or Codex session of this folder; give a PATH",
            shown(&s.root)
        ),
    );
}

#[test]
fn bad_configuration_and_theme_files_are_usage_errors_naming_the_place() {
    let s = Scratch::new();
    s.fixture("current", "conv");
    s.write("syntax.toml", "[conversation.tools.x.style]\nheader = \n");
    s.write("key.toml", "[style.reasoning]\nshow = true\n");
    s.write("theme.toml", "base = \"dark\"\n[styles\n");
    s.write("colour.toml", "[styles]\nh1 = { fg = \"mauve\" }\n");
    let cases: &[(&[&str], String)] = &[
        (
            &["--config", "syntax.toml"],
            "syntax.toml: line 2, column 10: string values must be quoted, expected literal string"
                .to_string(),
        ),
        (
            &["--config", "key.toml"],
            "key.toml: style.reasoning.show: true is set under an unknown key (the viewer configuration holds conversation.tools.<name>.style.<key>, style.reasoning.display and style.tool_call.show)".to_string(),
        ),
        (
            &["--config", "nothing.toml"],
            "nothing.toml: cannot read the viewer configuration: no such file or folder".to_string(),
        ),
        (
            &["--theme", "theme.toml"],
            "theme.toml: line 2, column 8: unclosed table, expected `]`".to_string(),
        ),
        (
            &["--theme", "colour.toml"],
            "colour.toml: `styles.h1.fg` = \"mauve\": expected \"#rrggbb\", a colour name like \"light-blue\", or 0–255".to_string(),
        ),
    ];
    for (options, message) in cases {
        let mut args = vec!["render", "conv"];
        args.extend_from_slice(options);
        assert_error(&overhear(&s.root, &args), 2, message);
    }
}

#[test]
fn a_theme_that_is_not_a_file_says_what_it_is() {
    let s = Scratch::new();
    s.fixture("current", "conv");
    std::fs::create_dir(s.path("themes")).unwrap();
    let made = Command::new("mkfifo")
        .arg(s.path("fifo.toml"))
        .status()
        .unwrap();
    assert!(made.success());
    for (theme, message) in [
        ("themes", "themes: a folder, not a file"),
        ("fifo.toml", "fifo.toml: a FIFO, not a file"),
        ("/dev/zero", "/dev/zero: a device, not a file"),
    ] {
        assert_error(
            &overhear(&s.root, &["render", "conv", "--theme", theme]),
            2,
            message,
        );
    }
}

#[test]
fn a_time_past_the_last_that_can_be_placed_is_out_of_range() {
    let s = Scratch::new();
    s.fixture("current", "conv");
    assert_error(
        &overhear(&s.root, &["render", "conv", "--at", "9999-12-31T23:59:59Z"]),
        2,
        "--at 9999-12-31T23:59:59Z: out of range: times from -9999-01-02 to 9999-12-30 can be placed",
    );
}

#[test]
fn a_number_too_large_in_the_configuration_is_worded_as_toml() {
    let s = Scratch::new();
    s.fixture("current", "conv");
    s.write(
        "big.toml",
        "[conversation.tools.x.style]\ninline_results = 99999999999999999999999\n",
    );
    assert_error(
        &overhear(&s.root, &["render", "conv", "--config", "big.toml"]),
        2,
        "big.toml: line 2, column 18: 99999999999999999999999 is too large for a TOML integer (64 bits)",
    );
}

#[test]
fn widths_past_ten_thousand_columns_are_refused_or_ignored() {
    let s = Scratch::new();
    s.fixture("current", "conv");
    for width in ["10001", "4294967296", "18446744073709551615"] {
        assert_error(
            &overhear(&s.root, &["render", "conv", "--width", width]),
            2,
            &format!("--width {width}: expected a number of columns from 1 to 10000, e.g. 100"),
        );
    }
    for columns in ["100000000", "18446744073709551616"] {
        let out = crate::common::overhear()
            .args(["render", "conv", "--color", "never"])
            .current_dir(&s.root)
            .env("JP_USER_DATA_DIR", s.path("no-user-data"))
            .env("COLUMNS", columns)
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!("overhear: warning: COLUMNS={columns}: more than 10000 columns; ignored\n")
        );
        assert_eq!(out.status.code(), Some(0));
        let stdout = String::from_utf8_lossy(&out.stdout);
        let widest = stdout.lines().map(|l| l.chars().count()).max().unwrap_or(0);
        assert!(
            (40..=80).contains(&widest),
            "COLUMNS={columns}: printed at {widest} columns, not the 80 of no COLUMNS"
        );
    }
}

// --- The viewer keeps what it could read ------------------------------------

#[test]
fn the_viewer_keeps_the_conversation_when_the_file_breaks_and_says_why() {
    let s = Scratch::new();
    let dir = s.fixture("current", "17760760747-conv");
    let staging = s.path("staging");
    std::fs::create_dir(&staging).unwrap();
    let mut viewer = Viewer::spawn(&[&dir], &s.root, &s.path("user"), 24, 100);
    viewer.wait_for_text("24 events");
    viewer.wait_for_text("Run the checks again.");

    let events = dir.join("events.json");
    let good = std::fs::read(&events).unwrap();
    replace(&staging, &events, &good[..good.len() / 2]);
    let screen = viewer.wait_until("the problem", Duration::from_secs(20), |s| {
        s.contents().contains("events.json: line")
    });
    let text = screen.contents();
    assert!(text.contains("the file ends inside"), "{text}");
    assert!(
        text.contains("Run the checks again."),
        "still shown:\n{text}"
    );

    replace(&staging, &events, &good);
    viewer.wait_until("the note to go", Duration::from_secs(20), |s| {
        let text = s.contents();
        !text.contains("events.json: line") && text.contains("24 events")
    });
    viewer.quit();
}

#[test]
fn the_viewer_opens_on_a_malformed_conversation_with_the_first_problem() {
    let s = Scratch::new();
    let dir = s.fixture("malformed", "conv");
    let mut viewer = Viewer::spawn(&[&dir], &s.root, &s.path("user"), 24, 160);
    viewer.wait_for_text("events.json: event 2: tool_call_request: missing key `id`");
    viewer.quit();
}
