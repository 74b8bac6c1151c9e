//! `overhear export` through the binary: secrets planted in every kind of
//! text are redacted (and kept with `--no-redact`), ordinary text survives,
//! content cannot inject HTML, `-o` refuses the conversation's own files
//! (every other spelling of them: `writes.rs`),
//! and every real conversation exports (the HTML in a real browser:
//! `export_browser.rs`).

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

const SECRETS: &str = "tests/fixtures/jp/secrets";

fn overhear(args: &[&str]) -> Output {
    crate::common::overhear()
        .args(args)
        .env_remove("NO_COLOR")
        .output()
        .expect("the binary runs")
}

fn stdout_of(args: &[&str]) -> String {
    let out = overhear(args);
    assert!(
        out.status.success(),
        "overhear {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("output is UTF-8")
}

/// Rule id → the secret planted for it (see the fixture's make.py).
fn planted() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(Path::new(SECRETS).join("secrets.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The outputs that must be redacted: Markdown, HTML, `render --redact`.
fn redacted_outputs() -> Vec<(&'static str, String)> {
    vec![
        ("md", stdout_of(&["export", SECRETS, "--format", "md"])),
        ("html", stdout_of(&["export", SECRETS, "--format", "html"])),
        (
            "render --redact",
            stdout_of(&[
                "render", SECRETS, "--redact", "--color", "never", "--width", "100",
            ]),
        ),
    ]
}

/// The text of an output with HTML tags removed and the continuation lines
/// of wrapped code (`↪`) joined to the line they continue, blanks collapsed.
fn joined(out: &str) -> String {
    let mut text = String::new();
    let mut in_tag = false;
    for c in out.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if !in_tag => text.push(c),
            _ => {}
        }
    }
    let mut lines: Vec<String> = Vec::new();
    for line in text.lines() {
        match (line.trim_start().strip_prefix('↪'), lines.last_mut()) {
            (Some(rest), Some(last)) => last.push_str(rest),
            _ => lines.push(line.to_string()),
        }
    }
    // Prose wraps at spaces: one space for any run of blanks and breaks.
    lines
        .join("\n")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn every_planted_secret_is_redacted_in_export_and_render() {
    let planted = planted();
    assert_eq!(planted.len(), 14, "one secret of each kind");
    for (what, out) in redacted_outputs() {
        let out = joined(&out);
        for (rule, secret) in &planted {
            // Wrapped lines may cut a secret: look for a distinctive piece too.
            let piece = &secret[secret.len() / 2..][..8.min(secret.len() / 2)];
            assert!(!out.contains(secret.as_str()), "{what}: {rule} shown");
            assert!(
                !out.contains(piece),
                "{what}: part of {rule} shown ({piece})"
            );
            // Planted in the message, reasoning, arguments, result and reply.
            let marks = out.matches(&format!("[redacted {rule}]")).count();
            assert!(marks >= 5, "{what}: {rule} marked {marks} times, not 5");
        }
    }
}

#[test]
fn no_redact_keeps_the_secrets_and_render_keeps_them_by_default() {
    let planted = planted();
    let md = stdout_of(&["export", SECRETS, "--no-redact"]);
    let render = stdout_of(&["render", SECRETS, "--color", "never", "--width", "400"]);
    for (rule, secret) in &planted {
        let first_line = secret.lines().next().unwrap_or_default();
        assert!(md.contains(first_line), "export --no-redact lost {rule}");
        assert!(render.contains(first_line), "render lost {rule}");
    }
    assert!(!md.contains("[redacted"));
}

#[test]
fn ordinary_text_is_left_alone() {
    let ordinary = [
        "3f786850e387550fdab836ed7e6dc881de23001b",
        "123e4567-e89b-12d3-a456-426614174000",
        "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
        "MAX_KEY=3",
    ];
    let md = stdout_of(&["export", SECRETS, "--view", "user"]);
    let render = stdout_of(&[
        "render", SECRETS, "--redact", "--color", "never", "--width", "400",
    ]);
    for text in ordinary {
        assert!(md.contains(text), "export dropped {text}");
        assert!(render.contains(text), "render --redact dropped {text}");
    }
}

#[test]
fn html_export_escapes_content_and_is_self_contained() {
    let html = stdout_of(&["export", SECRETS, "--format", "html"]);
    assert!(html.starts_with("<!DOCTYPE html>"));
    for forbidden in [
        "<script",
        "<img",
        "onerror=alert(2)>",
        "<b>bold",
        "@import",
        "url(",
    ] {
        assert!(!html.contains(forbidden), "HTML holds {forbidden}");
    }
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(html.contains("&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"));
    assert!(html.contains("Content-Security-Policy"));
    assert!(html.contains("prefers-color-scheme: dark"));
    // Links only within the page (anchors) or to the web and mail.
    for (at, _) in html.match_indices("href=\"") {
        let target = &html[at + 6..];
        assert!(
            ["#", "https://", "http://", "mailto:"]
                .iter()
                .any(|start| target.starts_with(start)),
            "a link to {}",
            &target[..target.find('"').unwrap_or(target.len())]
        );
    }
    // Tool cards and reasoning fold (and the table of contents);
    // nothing of the content closes them early.
    assert_eq!(
        html.matches("<details").count(),
        html.matches("</details>").count()
    );
    assert_eq!(html.matches("<details class=\"card").count(), 1);
    assert_eq!(html.matches("<details class=\"reasoning").count(), 1);
    assert!(
        !html.bytes().any(|b| b == 0x1b),
        "an escape byte reached the HTML"
    );
}

/// The lines of `md` outside fenced code blocks.
fn prose_lines(md: &str) -> Vec<&str> {
    let mut fence: Option<&str> = None;
    let mut out = Vec::new();
    for line in md.lines() {
        let ticks = line.len() - line.trim_start_matches('`').len();
        match fence {
            Some(open) if ticks >= open.len() && line.trim_matches('`').is_empty() => fence = None,
            Some(_) => {}
            None if ticks >= 3 => fence = Some(&line[..ticks]),
            None => out.push(line),
        }
    }
    out
}

#[test]
fn markdown_export_neutralises_html_in_prose_and_folds_cards() {
    let md = stdout_of(&["export", SECRETS]);
    for line in prose_lines(&md) {
        for forbidden in ["<script", "<img", "</summary></", "<b>"] {
            assert!(
                !line.contains(forbidden),
                "prose line holds {forbidden}: {line}"
            );
        }
    }
    assert!(md.starts_with("# Planted secrets &lt;b>bold&lt;/b>\n"));
    assert!(md.contains("## turn 1 · 2026-04-10 17:04:00 UTC"));
    assert!(md.contains("<details>\n<summary>run_command · "));
    assert!(md.contains("<details>\n<summary>thinking"));
    let prose = prose_lines(&md);
    let opened = prose.iter().filter(|l| **l == "<details>").count();
    let closed = prose.iter().filter(|l| **l == "</details>").count();
    assert_eq!((opened, closed), (2, 2));
}

#[test]
fn output_file_takes_its_format_from_the_extension_and_never_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("share.html");
    let out = overhear(&["export", SECRETS, "-o", html.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty());
    let written = std::fs::read_to_string(&html).unwrap();
    assert!(written.starts_with("<!DOCTYPE html>"));

    // A copy of the conversation: -o naming any of its files is refused, untouched.
    let conv = dir.path().join("conv");
    std::fs::create_dir(&conv).unwrap();
    for name in ["events.json", "metadata.json", "base_config.json"] {
        std::fs::copy(Path::new(SECRETS).join(name), conv.join(name)).unwrap();
    }
    let before = std::fs::read(conv.join("events.json")).unwrap();
    for target in ["events.json", "metadata.json", "new.md"] {
        let target = conv.join(target);
        let out = overhear(&[
            "export",
            conv.to_str().unwrap(),
            "-o",
            target.to_str().unwrap(),
        ]);
        assert_eq!(
            out.status.code(),
            Some(2),
            "-o {} accepted",
            target.display()
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("choose another output file"), "{err}");
    }
    assert_eq!(std::fs::read(conv.join("events.json")).unwrap(), before);
    assert!(!conv.join("new.md").exists());
}

#[test]
fn every_real_conversation_and_stream_exports() {
    let paths: Vec<PathBuf> = common::corpus::jp_conversations()
        .into_iter()
        .chain(common::corpus::eve_streams())
        .flatten()
        .collect();
    for path in &paths {
        let path = path.to_str().unwrap();
        for format in ["md", "html"] {
            let out = stdout_of(&["export", path, "--format", format]);
            assert!(
                !out.bytes().any(|b| b == 0x1b),
                "{path} {format}: escape byte"
            );
            assert!(
                out.bytes().all(|b| b >= 0x20 || b == b'\n' || b == b'\t'),
                "{path} {format}: a control byte"
            );
            if format == "html" {
                assert!(out.ends_with("</html>\n"), "{path}: HTML not complete");
                assert!(!out.contains("<script"), "{path}: script in HTML");
            }
        }
    }
}

#[test]
fn hostile_bytes_never_reach_the_export() {
    // Escape sequences, NUL, CR: removed by the project's sanitizer.
    for case in ["bom", "crlf", "escaped-nul"] {
        let path = format!("tests/fixtures/hostile/{case}");
        for format in ["md", "html"] {
            let out = stdout_of(&["export", &path, "--format", format]);
            assert!(
                out.bytes().all(|b| b >= 0x20 || b == b'\n' || b == b'\t'),
                "{case} {format}: a control byte"
            );
        }
    }
}

#[test]
fn a_followed_stream_is_redacted_line_by_line_and_while_streaming() {
    use overhear::load::Live;
    use overhear::model::EventKind;
    use overhear::redact::Redactor;

    let fixture = std::fs::read_to_string("tests/fixtures/eve/streaming.ndjson").unwrap();
    let secret = "AKIAQWERTYUIOPASDFGH";
    let planted = fixture.replace(
        "Summarize the build",
        &format!("Use {secret} to summarize the build"),
    );
    assert_ne!(planted, fixture);
    let mut live = Live::stdin();
    live.redact_with(std::sync::Arc::new(Redactor::builtin().unwrap()));
    for line in planted.split_inclusive('\n') {
        live.push_stream(line.as_bytes(), false)
            .expect("an eve line");
        let conv = &live.conversation;
        let shown = format!(
            "{:?}{:?}{:?}",
            conv.events, conv.originals, conv.in_progress
        );
        assert!(!shown.contains(secret), "after {line}");
    }
    live.push_stream(b"", true).expect("the stream's end");
    let request = live.conversation.events.iter().find_map(|e| match &e.kind {
        EventKind::ChatRequest { content, .. } => Some(content.clone()),
        _ => None,
    });
    assert_eq!(
        request.as_deref(),
        Some("Use [redacted aws-access-token] to summarize the build and tell the team.")
    );
}
