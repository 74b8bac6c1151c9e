//! Remembered view choices (docs/config.md, "Remembered view choices"): `r`
//! and `z` in the viewer are written to the user configuration's `[view]`
//! table and read at the next start; the command line wins; a link is not
//! written through; a file that is no longer TOML is left byte for byte.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::common::pty::Viewer;

/// A Claude Code session with reasoning, a tool card and a reply.
fn session(dir: &Path) -> PathBuf {
    let id = "0d3a8e6f-0000-4000-8000-00000000abcd";
    let path = dir.join(format!("{id}.jsonl"));
    let message = |uuid: &str, id: &str, content: serde_json::Value| {
        serde_json::json!({"type": "assistant", "uuid": uuid, "sessionId": id,
            "message": {"id": id, "role": "assistant", "model": "claude-x", "content": content}})
    };
    let lines = [
        serde_json::json!({"type": "user", "uuid": "u1", "sessionId": id,
            "message": {"role": "user", "content": "List the files"}}),
        message(
            "a1",
            "m1",
            serde_json::json!([{"type": "thinking", "thinking": "Pondering the listing.", "signature": "x"}]),
        ),
        message(
            "a2",
            "m1",
            serde_json::json!([{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}}]),
        ),
        serde_json::json!({"type": "user", "uuid": "u2", "sessionId": id,
            "message": {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "t1", "content": "alpha.txt\nbeta.txt"}]}}),
        message(
            "a3",
            "m2",
            serde_json::json!([{"type": "text", "text": "Two files are there."}]),
        ),
    ];
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&path, text).unwrap();
    path
}

/// The viewer on `session` with its user configuration in `config_home`,
/// remembering, 120 columns wide.
fn viewer(dir: &Path, config_home: &Path, session: &Path, flags: &[&str]) -> Viewer {
    let mut cmd = Viewer::command(dir, &dir.join("jp"));
    cmd.env("HOME", dir);
    cmd.env("XDG_CONFIG_HOME", config_home);
    cmd.env_remove("OVERHEAR_NO_REMEMBER");
    for flag in flags {
        cmd.arg(flag);
    }
    cmd.arg(session);
    let viewer = Viewer::start(cmd, 24, 120);
    viewer.wait_for_text("Two files are there.");
    viewer
}

/// What the screen shows of the reasoning and the card.
fn shown(viewer: &Viewer) -> (bool, bool, bool) {
    let text = viewer.settled_screen().contents();
    (
        text.contains("Pondering the listing."),
        text.contains("thinking"),
        text.contains("alpha.txt"),
    )
}

fn wait_for_note(viewer: &Viewer, note: &str) {
    viewer.wait_until(note, Duration::from_secs(10), |s| {
        s.contents().contains(note)
    });
}

#[test]
fn r_and_z_are_remembered_and_a_flag_wins() {
    let dir = tempfile::tempdir().unwrap();
    let session = session(dir.path());
    let config_home = dir.path().join("config");
    let config = config_home.join("overhear").join("config.toml");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(&config, "# mine\ntheme = \"dark\"   # always\n").unwrap();

    let mut first = viewer(dir.path(), &config_home, &session, &[]);
    assert_eq!(
        shown(&first),
        (true, true, true),
        "shown and unfolded at first"
    );
    first.send(b"r");
    wait_for_note(&first, "reasoning folded");
    first.send(b"r");
    wait_for_note(&first, "reasoning hidden");
    first.send(b"z");
    wait_for_note(&first, "all tool cards folded");
    first.quit();
    assert_eq!(
        std::fs::read_to_string(&config).unwrap(),
        "# mine\ntheme = \"dark\"   # always\n\n[view]\nreasoning = \"hidden\"\ntool_cards = \"folded\"\n",
        "the last choices, the rest of the file as it was"
    );

    let mut again = viewer(dir.path(), &config_home, &session, &[]);
    assert_eq!(
        shown(&again),
        (false, false, false),
        "hidden and folded again"
    );
    again.quit();

    let mut flags = viewer(
        dir.path(),
        &config_home,
        &session,
        &["--reasoning", "folded", "--tool-cards", "unfolded"],
    );
    assert_eq!(shown(&flags), (false, true, true), "the flags win");
    flags.quit();

    let mut not = viewer(dir.path(), &config_home, &session, &["--no-remember"]);
    not.send(b"z");
    wait_for_note(&not, "all tool cards unfolded");
    not.quit();
    assert!(
        std::fs::read_to_string(&config)
            .unwrap()
            .ends_with("tool_cards = \"folded\"\n"),
        "neither the flags nor --no-remember's choice were written"
    );
}

#[test]
fn a_symlinked_config_is_not_written_through() {
    let dir = tempfile::tempdir().unwrap();
    let session = session(dir.path());
    let config_home = dir.path().join("config");
    std::fs::create_dir_all(config_home.join("overhear")).unwrap();
    let real = dir.path().join("dotfiles.toml");
    let text = "# kept in my dotfiles\n[view]\nreasoning = \"shown\"\n";
    std::fs::write(&real, text).unwrap();
    let link = config_home.join("overhear").join("config.toml");
    std::os::unix::fs::symlink(&real, &link).unwrap();

    let mut viewer = viewer(dir.path(), &config_home, &session, &[]);
    viewer.send(b"r");
    wait_for_note(&viewer, "config is a symbolic link: view not remembered");
    // Said once: the next choice's note stays.
    viewer.send(b"z");
    wait_for_note(&viewer, "all tool cards folded");
    std::thread::sleep(Duration::from_secs(1));
    let text_now = viewer.screen().contents();
    assert!(text_now.contains("all tool cards folded"), "{text_now}");
    assert!(
        !text_now.contains("symbolic link"),
        "said once only: {text_now}"
    );
    viewer.quit();
    assert_eq!(std::fs::read_to_string(&real).unwrap(), text);
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    let names: Vec<_> = std::fs::read_dir(config_home.join("overhear"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["config.toml"], "no file beside the link");
}

#[test]
fn a_config_broken_while_the_viewer_runs_is_left_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let session = session(dir.path());
    let config_home = dir.path().join("config");
    let config = config_home.join("overhear").join("config.toml");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(&config, "theme = \"dark\"\n").unwrap();

    let mut viewer = viewer(dir.path(), &config_home, &session, &[]);
    // Being edited: half a table header, a line ending of another system.
    let broken: &[u8] = b"theme = \"dark\"  # mine\n[view\nreasoning = \"shown\"\r\n";
    std::fs::write(&config, broken).unwrap();
    viewer.send(b"r");
    wait_for_note(&viewer, "config is not TOML (line 2");
    assert_eq!(
        std::fs::read(&config).unwrap(),
        broken,
        "left byte for byte"
    );
    // Bytes that are not UTF-8 are not text to edit either.
    let not_text: &[u8] = b"theme = \"da\xffrk\"\n";
    std::fs::write(&config, not_text).unwrap();
    viewer.send(b"z");
    wait_for_note(&viewer, "config is not UTF-8 text");
    viewer.send(b"j");
    assert!(
        viewer.settled_screen().contents().contains("Two files"),
        "the viewer goes on"
    );
    viewer.quit();
    assert_eq!(std::fs::read(&config).unwrap(), not_text);
    let names: Vec<_> = std::fs::read_dir(config.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["config.toml"], "no temporary file left");
}
