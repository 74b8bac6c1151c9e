//! The user's configuration file (`$XDG_CONFIG_HOME/overhear/config.toml`,
//! docs/config.md), through the real binary: its tool styles apply to every
//! format, a JP conversation's own configuration still wins for JP,
//! `--config`/`--set` win over it, its `theme` is the default theme, and its
//! mistakes name the file and the key — sanitized.

use crate::common;

use std::io::Write;
use std::path::Path;
use std::process::{Output, Stdio};

use common::pty::{Viewer, rows};

/// A Claude Code transcript: a prompt, a `Bash` call and its 30-line result.
fn claude_transcript() -> String {
    let output: Vec<String> = (1..=30).map(|n| format!("row {n}")).collect();
    [
        serde_json::json!({"type": "user", "uuid": "u1", "sessionId": "s",
            "message": {"role": "user", "content": "Show the rows"}}),
        serde_json::json!({"type": "assistant", "uuid": "a1", "sessionId": "s",
            "message": {"id": "m1", "content": [{"type": "tool_use", "id": "t1", "name": "Bash",
                "input": {"command": "cat rows.txt"}}]}}),
        serde_json::json!({"type": "user", "uuid": "u2", "sessionId": "s",
            "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
                "content": output.join("\n")}]}}),
    ]
    .iter()
    .map(|v| format!("{v}\n"))
    .collect()
}

/// A folder standing for `$XDG_CONFIG_HOME`, holding `overhear/config.toml`
/// with `text`.
fn config_home(text: &str) -> tempfile::TempDir {
    let home = tempfile::tempdir().expect("temp dir");
    let dir = home.path().join("overhear");
    std::fs::create_dir_all(&dir).expect("config folder");
    std::fs::write(dir.join("config.toml"), text).expect("config written");
    home
}

/// `overhear ARGS…` with `$XDG_CONFIG_HOME` at `home` and `input` on stdin.
fn overhear(home: &Path, args: &[&str], input: &str) -> Output {
    let mut child = crate::common::overhear()
        .args(args)
        .env("XDG_CONFIG_HOME", home)
        .env("COLORTERM", "truecolor")
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("overhear runs");
    // overhear may refuse its options before it reads stdin: a closed pipe
    // here is its answer, not a failure of the test.
    let _ = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes());
    child.wait_with_output().expect("overhear ends")
}

/// `overhear render --color never --width 80 ARGS…`, which must succeed.
fn render(home: &Path, args: &[&str], input: &str) -> String {
    let mut all = vec!["render", "--color", "never", "--width", "80"];
    all.extend_from_slice(args);
    let out = overhear(home, &all, input);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

const JP_POLICY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/jp/policy");

#[test]
fn the_user_file_styles_a_claude_code_transcript_and_set_wins_over_it() {
    let none = tempfile::tempdir().expect("temp dir");
    let built_in = render(none.path(), &["-"], &claude_transcript());
    assert!(
        built_in.contains("row 8\n") && !built_in.contains("row 9\n"),
        "{built_in}"
    );

    let home = config_home("[conversation.tools.Bash.style]\ninline_results = 3\n");
    let screen = render(home.path(), &["-"], &claude_transcript());
    assert!(
        screen.contains("row 3\n") && !screen.contains("row 4\n"),
        "{screen}"
    );
    assert!(screen.contains("27 more lines not shown"), "{screen}");
    // The rest of the built-in shell style stays: the command as the header.
    assert!(screen.contains("$ cat rows.txt"), "{screen}");

    // `--set` wins over the file.
    let screen = render(
        home.path(),
        &[
            "--set",
            "conversation.tools.Bash.style.inline_results=5",
            "-",
        ],
        &claude_transcript(),
    );
    assert!(
        screen.contains("row 5\n") && !screen.contains("row 6\n"),
        "{screen}"
    );

    // So does a `--config` file, key by key.
    let extra = home.path().join("extra.toml");
    std::fs::write(
        &extra,
        "[conversation.tools.Bash.style]\nparameters = \"json\"\n",
    )
    .expect("written");
    let extra = extra.to_str().expect("UTF-8 path");
    let screen = render(home.path(), &["--config", extra, "-"], &claude_transcript());
    assert!(screen.contains("\"command\": \"cat rows.txt\""), "{screen}");
    assert!(
        screen.contains("row 3\n") && !screen.contains("row 4\n"),
        "{screen}"
    );
}

#[test]
fn a_star_style_in_the_user_file_reaches_every_tool_of_a_transcript() {
    let home = config_home("[style.tool_call]\nshow = false\n");
    let screen = render(home.path(), &["-"], &claude_transcript());
    assert!(screen.contains("Show the rows"), "{screen}");
    assert!(!screen.contains("row 1"), "{screen}");

    let home = config_home("[conversation.tools.\"*\".style]\nhidden = true\n");
    let screen = render(home.path(), &["-"], &claude_transcript());
    assert!(!screen.contains("cat rows.txt"), "{screen}");
}

#[test]
fn a_jp_conversation_s_own_config_wins_over_the_user_file() {
    let none = tempfile::tempdir().expect("temp dir");
    let stored = render(none.path(), &[JP_POLICY], "");
    assert!(stored.contains("● u10_aoff"), "{stored}");

    // The conversation styles u10_aoff itself (10 lines for the user): the
    // user file's 2 does not apply; it says nothing of `style.tool_call`, so
    // the file's `show = false` does.
    let home = config_home(
        "[conversation.tools.u10_aoff.style]\ninline_results = 2\n\
         [style.tool_call]\nshow = false\n",
    );
    let screen = render(home.path(), &[JP_POLICY], "");
    assert!(!screen.contains("● u10_aoff"), "{screen}");
    assert!(screen.contains("Exercise every style."), "{screen}");

    let home = config_home("[conversation.tools.u10_aoff.style]\ninline_results = 2\n");
    let screen = render(home.path(), &[JP_POLICY], "");
    assert_eq!(screen, stored);

    // `--set` wins over the conversation.
    let screen = render(
        home.path(),
        &[
            "--set",
            "conversation.tools.u10_aoff.style.inline_results=2",
            JP_POLICY,
        ],
        "",
    );
    let card = screen
        .split("● u10_aoff")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .expect("the u10_aoff card");
    assert!(
        card.contains("line 2\n") && !card.contains("line 3\n"),
        "{card}"
    );
}

#[test]
fn the_user_file_names_the_default_theme_and_theme_wins_over_it() {
    let dark = tempfile::tempdir().expect("temp dir");
    let colour = ["render", "--color", "always", "--width", "80", "-"];
    let out = overhear(dark.path(), &colour, &claude_transcript());
    let dark_bytes = out.stdout;
    let home = config_home("theme = \"light\"\n");
    let light_bytes = overhear(home.path(), &colour, &claude_transcript()).stdout;
    assert_ne!(light_bytes, dark_bytes, "the file's light theme is used");
    let light_flag = [
        "render", "--color", "always", "--width", "80", "--theme", "light", "-",
    ];
    assert_eq!(
        overhear(dark.path(), &light_flag, &claude_transcript()).stdout,
        light_bytes
    );
    let dark_flag = [
        "render", "--color", "always", "--width", "80", "--theme", "dark", "-",
    ];
    assert_eq!(
        overhear(home.path(), &dark_flag, &claude_transcript()).stdout,
        dark_bytes
    );

    let home = config_home("theme = \"sepia\"\n");
    let out = overhear(home.path(), &colour, &claude_transcript());
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("overhear/config.toml: theme"), "{stderr}");
    assert!(stderr.contains("sepia"), "{stderr}");
}

#[test]
fn mistakes_in_the_user_file_name_the_file_and_the_key_sanitized() {
    let home = config_home("[conversation.tools.Bash.style]\ninline_results = \"lots\"\n");
    let out = overhear(home.path(), &["render", "-"], &claude_transcript());
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let file = home.path().join("overhear/config.toml");
    assert!(
        stderr.starts_with(&format!("overhear: {}: ", file.display())),
        "{stderr}"
    );
    assert!(
        stderr.contains("conversation.tools.Bash.style.inline_results"),
        "{stderr}"
    );

    // A key holding an escape sequence is shown, never obeyed.
    let home = config_home("[conversation.tools.\"\\u001b[2Jx\".style]\nbogus = 1\n");
    let out = overhear(home.path(), &["render", "-"], &claude_transcript());
    assert_eq!(out.status.code(), Some(2));
    assert!(!out.stderr.contains(&0x1b), "{:?}", out.stderr);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("bogus"), "{stderr}");

    let home = config_home("[conversation.tools.Bash.style\n");
    let out = overhear(home.path(), &["events", "-"], &claude_transcript());
    assert!(out.status.success(), "events reads no styles");
    let out = overhear(home.path(), &["render", "-"], &claude_transcript());
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("config.toml: line 1"), "{stderr}");
}

#[test]
fn a_relative_xdg_config_home_is_ignored_for_home_s_config() {
    let home = tempfile::tempdir().expect("temp dir");
    let dir = home.path().join(".config/overhear");
    std::fs::create_dir_all(&dir).expect("config folder");
    std::fs::write(
        dir.join("config.toml"),
        "[conversation.tools.Bash.style]\ninline_results = 3\n",
    )
    .expect("written");
    let mut child = crate::common::overhear()
        .args(["render", "--color", "never", "--width", "80", "-"])
        .env("XDG_CONFIG_HOME", "relative/dir")
        .env("HOME", home.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("overhear runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(claude_transcript().as_bytes())
        .expect("written");
    let out = child.wait_with_output().expect("overhear ends");
    let screen = String::from_utf8_lossy(&out.stdout);
    assert!(
        screen.contains("row 3\n") && !screen.contains("row 4\n"),
        "{screen}"
    );
}

#[test]
fn the_viewer_applies_the_user_file_at_every_width() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("session.jsonl");
    std::fs::write(&file, claude_transcript()).expect("written");
    let home = config_home("[conversation.tools.Bash.style]\ninline_results = 3\n");
    for cols in [40, 80, 200] {
        let mut cmd = Viewer::command(dir.path(), dir.path());
        cmd.env("XDG_CONFIG_HOME", home.path());
        cmd.arg(&file);
        let mut viewer = Viewer::start(cmd, 30, cols);
        viewer.wait_for_text("row 3");
        let screen = rows(&viewer.settled_screen()).join("\n");
        assert!(!screen.contains("row 4"), "{cols} columns:\n{screen}");
        assert!(
            screen.contains("27 more lines"),
            "{cols} columns:\n{screen}"
        );
        viewer.quit();
    }
}
