//! The HTML export in a real browser: headless Chromium (Debian's
//! `chromium`, which `.ci/run` installs) loads exports of the repository's
//! fixture and of the shared Claude Code, Codex, JP and eve fixtures, and
//! each one:
//!
//! * logs no console message, no refused load (`Refused to …`: the
//!   Content-Security-Policy stopped something) and no network error
//!   (`ERR_…`) — the page requests nothing;
//! * has its final reply in the DOM the browser built;
//! * gives non-empty screenshots 1280 and 390 pixels wide.
//!
//! Without Chromium the test prints `skipped:`; in CI (`CI=true`) a missing
//! Chromium fails it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common;

/// The browser, if installed; `None` after saying so (a failure in CI).
fn chromium() -> Option<PathBuf> {
    let found = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists());
    if found.is_none() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true and Chromium is not installed (.ci/run installs Debian's chromium)"
        );
        eprintln!("skipped: chromium is not installed (apt-get install chromium)");
    }
    found
}

/// Runs headless Chromium on `url` with `extra` arguments, its profile in `profile`.
fn browse(chromium: &Path, profile: &Path, extra: &[&str], url: &str) -> Output {
    Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--enable-logging=stderr",
            "--v=0",
            &format!("--user-data-dir={}", profile.display()),
        ])
        .args(extra)
        .arg(url)
        .output()
        .expect("chromium runs")
}

/// The text of `html` without tags, entities decoded, blanks collapsed.
fn text_of(html: &str) -> String {
    let mut text = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                text.push(' ');
            }
            _ if !in_tag => text.push(c),
            _ => {}
        }
    }
    let text = text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Words of the last reply of an exported page (its last assistant speech).
fn final_reply(html: &str) -> Option<String> {
    let start = html.rfind("<div class=\"speech assistant")?;
    let rest = &html[start..];
    let body = &rest[rest.find("<div class=\"prose\">")?..];
    let text = text_of(&body[..body.find("</div>").unwrap_or(body.len())]);
    let words: Vec<&str> = text.split(' ').take(8).collect();
    (!words.is_empty()).then(|| words.join(" "))
}

/// Exports `input` to the HTML page `page`; its text.
fn export_page(input: &Path, page: &Path) -> String {
    let out = crate::common::overhear()
        .args([
            "export",
            input.to_str().unwrap(),
            "-o",
            page.to_str().unwrap(),
        ])
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "{}: {}",
        input.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read_to_string(page).unwrap()
}

/// Exports `input` to HTML and checks it in the browser.
fn check(chromium: &Path, input: &Path, dir: &Path) {
    let name = input.display().to_string();
    let page = dir.join("page.html");
    let html = export_page(input, &page);
    let profile = dir.join("profile");
    let url = format!("file://{}", page.display());
    let dom = browse(chromium, &profile, &["--dump-dom"], &url);
    assert!(dom.status.success(), "{name}: chromium failed");
    let log = String::from_utf8_lossy(&dom.stderr);
    for line in log.lines() {
        for sign in ["CONSOLE", "Refused to", "ERR_"] {
            assert!(!line.contains(sign), "{name}: {line}");
        }
    }
    let dom_text = text_of(&String::from_utf8_lossy(&dom.stdout));
    assert!(
        dom_text.contains("tool cards"),
        "{name}: the page did not load"
    );
    if let Some(reply) = final_reply(&html) {
        assert!(
            dom_text.contains(&reply),
            "{name}: the final reply ({reply}) is not in the DOM"
        );
    }
    for (width, height) in [(1280, 900), (390, 844)] {
        let shot = dir.join(format!("shot-{width}.png"));
        let taken = browse(
            chromium,
            &profile,
            &[
                &format!("--screenshot={}", shot.display()),
                &format!("--window-size={width},{height}"),
            ],
            &url,
        );
        assert!(
            taken.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&taken.stderr)
        );
        let png = std::fs::read(&shot).expect("a screenshot was written");
        assert!(png.starts_with(b"\x89PNG"), "{name}: not a PNG");
        assert!(
            png.len() > 8_000,
            "{name} at {width} px: a nearly empty screenshot ({} bytes)",
            png.len()
        );
    }
}

#[test]
fn exports_load_in_headless_chromium_with_no_error_no_request_and_their_reply() {
    let Some(chromium) = chromium() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut inputs = vec![PathBuf::from("tests/fixtures/jp/secrets")];
    if let Some(shared) = common::agents::fixtures_dir() {
        inputs.push(shared.join("claude-code/v2.0.24-thinking/claude-code-pomodoro-timer.jsonl"));
        inputs.push(shared.join(
            "codex/v0.40.0-sandbox-denied/rollout-2025-09-25T08-02-05-0199812e-64f0-7f73-91fc-095dda01c36e.jsonl",
        ));
    }
    inputs.extend(common::corpus::jp_conversations().and_then(|c| c.into_iter().next()));
    inputs.extend(common::corpus::eve_streams().and_then(|s| s.into_iter().next()));
    for input in &inputs {
        check(&chromium, input, dir.path());
    }
}

/// A Claude Code session of one `Bash` call whose result holds a line far
/// wider than any screen, then a short one.
fn session_with_a_long_result_line(path: &Path, long: &str) {
    let line = |uuid: &str, kind: &str, message: serde_json::Value| {
        serde_json::json!({"type": kind, "uuid": uuid, "sessionId": "s-1", "cwd": "/work",
            "timestamp": "2026-11-30T10:00:00.000Z", "message": message})
        .to_string()
    };
    let lines = [
        line(
            "u1",
            "user",
            serde_json::json!({"role": "user", "content": "run it"}),
        ),
        line(
            "u2",
            "assistant",
            serde_json::json!({"id": "m1", "role": "assistant", "model": "claude-test",
                "content": [{"type": "tool_use", "id": "t1", "name": "Bash",
                             "input": {"command": "make"}}]}),
        ),
        line(
            "u3",
            "user",
            serde_json::json!({"role": "user", "content": [{"type": "tool_result",
                "tool_use_id": "t1", "content": format!("{long}\nsecond line")}]}),
        ),
        line(
            "u4",
            "assistant",
            serde_json::json!({"id": "m2", "role": "assistant", "model": "claude-test",
                "content": [{"type": "text", "text": "Done."}]}),
        ),
    ];
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

/// A result's lines copied from the page (selected, as a reader copies
/// them) come back as the tool wrote them: a long line whole, not cut at
/// the export's 100 columns, and no gutter (`│`) in front of any. The page
/// is copied without its Content-Security-Policy and with a script that
/// selects the card's text and writes what a copy would take into the DOM.
#[test]
fn a_result_copied_from_the_page_is_its_lines_whole_without_the_gutter() {
    let Some(chromium) = chromium() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("session.jsonl");
    let long = (0..60)
        .map(|i| format!("word{i}"))
        .collect::<Vec<_>>()
        .join(" ");
    session_with_a_long_result_line(&input, &long);
    let html = export_page(&input, &dir.path().join("page.html"));
    let policy_start = html
        .find("<meta http-equiv=\"Content-Security-Policy\"")
        .unwrap();
    let policy_end = policy_start + html[policy_start..].find('>').unwrap() + 1;
    let probe = format!(
        "{}{}",
        &html[..policy_start],
        &html[policy_end..].replace(
            "</body>",
            "<script>const card = document.querySelector('details.card');\
             card.open = true;\
             getSelection().selectAllChildren(card.querySelector('pre'));\
             document.body.dataset.copied = getSelection().toString();</script></body>",
        )
    );
    let probe_path = dir.path().join("probe.html");
    std::fs::write(&probe_path, probe).unwrap();
    let dom = browse(
        &chromium,
        &dir.path().join("profile"),
        &["--dump-dom"],
        &format!("file://{}", probe_path.display()),
    );
    let dom = String::from_utf8_lossy(&dom.stdout);
    let copied = dom
        .split("data-copied=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the script wrote what a copy takes");
    assert!(
        copied.ends_with(&format!("\n{long}\nsecond line")),
        "copied: {copied:?}"
    );
    assert!(!copied.contains('│'), "copied: {copied:?}");
}
