//! The viewer's `--redact` in a real pseudo-terminal: secrets of the
//! conversation as opened and of events appended while it is followed are
//! shown as `[redacted RULE]`.

use crate::common;

use std::path::Path;

use common::pty::{TIMEOUT, Viewer};
use serde_json::{Value, json};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/jp/secrets");

fn planted() -> Vec<String> {
    let text = std::fs::read_to_string(Path::new(FIXTURE).join("secrets.json")).unwrap();
    let map: serde_json::Map<String, Value> = serde_json::from_str(&text).unwrap();
    map.values()
        .filter_map(Value::as_str)
        .map(|s| {
            s.lines()
                .next()
                .unwrap_or_default()
                .chars()
                .take(10)
                .collect()
        })
        .collect()
}

/// A copy of the fixture, as a JP conversation folder in `tmp`.
fn conversation(tmp: &Path) -> std::path::PathBuf {
    let dir = tmp.join("17760760747-secrets");
    std::fs::create_dir_all(&dir).unwrap();
    for file in ["base_config.json", "metadata.json", "events.json"] {
        std::fs::copy(Path::new(FIXTURE).join(file), dir.join(file)).unwrap();
    }
    dir
}

#[test]
fn viewer_redacts_at_every_width_theme_and_without_colour() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = conversation(tmp.path());
    for (cols, theme, no_color) in [
        (40, "dark", false),
        (80, "light", false),
        (200, "dark", true),
    ] {
        let mut cmd = Viewer::command(&dir, &dir.join("no-user-data"));
        cmd.args([
            dir.as_os_str(),
            "--redact".as_ref(),
            "--theme".as_ref(),
            theme.as_ref(),
        ]);
        if no_color {
            cmd.env("NO_COLOR", "1");
        }
        let mut viewer = Viewer::start(cmd, 40, cols);
        viewer.wait_for_text("[redacted");
        let screen = viewer.settled_screen().contents();
        for secret in planted() {
            assert!(
                !screen.contains(&secret),
                "{cols} {theme}: {secret} on screen:\n{screen}"
            );
        }
        viewer.quit();
    }
}

#[test]
fn viewer_redacts_what_it_opens_and_what_arrives() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = conversation(tmp.path());
    let mut cmd = Viewer::command(&dir, &dir.join("no-user-data"));
    cmd.arg(&dir);
    cmd.arg("--redact");
    let mut viewer = Viewer::start(cmd, 40, 120);
    viewer.wait_for_text("[redacted");
    let screen = viewer.settled_screen().contents();
    for secret in planted() {
        assert!(!screen.contains(&secret), "{secret} on screen:\n{screen}");
    }

    // An event appended while following: redacted as it arrives.
    let mut events: Vec<Value> =
        serde_json::from_slice(&std::fs::read(dir.join("events.json")).unwrap()).unwrap();
    events.push(json!({
        "timestamp": "2026-04-10 17:04:06.5",
        "type": "chat_response",
        "message": "late key AKIAZXCVBNMASDFGHJKL here"
    }));
    let staging = dir.join("events.json.tmp");
    std::fs::write(&staging, serde_json::to_vec_pretty(&events).unwrap()).unwrap();
    std::fs::rename(&staging, dir.join("events.json")).unwrap();
    viewer.wait_until("the appended message", TIMEOUT, |s| {
        s.contents()
            .contains("late key [redacted aws-access-token] here")
    });
    assert!(!viewer.screen().contents().contains("AKIAZXCV"));
    viewer.quit();
}
