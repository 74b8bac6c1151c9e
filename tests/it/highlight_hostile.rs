//! A hostile code block cannot stall highlighting: lines built to make grammar
//! regexes backtrack (long runs of one character, of tabs, unclosed quotes and
//! brackets, deep nesting), fenced in the languages agents show most, are
//! highlighted by the real binary in bounded time and shown whole. A regex
//! that backtracks without end stops at the engine's limit and counts as no
//! match (docs/architecture.md, "Highlighting engine"); were the limit lost, the
//! render would not end and the deadline below would fail the test.

use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::common::support::Conversation;

/// Longer than any render of this conversation takes in a debug build on a
/// loaded machine; a hang ends here.
const DEADLINE: Duration = Duration::from_secs(120);

/// Bytes of each hostile line: a block holds it and half of it again, under
/// the 64 KiB above which code is not highlighted at all, and each line
/// under the 4 KiB above which a line is shown plain.
const LINE: usize = 4_000;

/// (fence token, hostile line) pairs: shapes that took longest per byte in a
/// sweep of 20 shapes over 50 languages.
fn blocks() -> Vec<(&'static str, String)> {
    let run = |piece: &str| piece.repeat(LINE / piece.len());
    vec![
        ("asm", format!("{}x", run("\t"))),
        ("c", format!("{}x", run("\t"))),
        ("asm", format!("{}!", run("a "))),
        ("asm", run("a(b[c{d\"e'f")),
        ("asm", run("a.")),
        ("rust", format!("\"{}", run("\\"))),
        ("sh", run("${")),
        ("html", format!("<div {}", run("a=\""))),
        ("js", run("/*")),
        ("python", format!("'{}", run("a"))),
        ("ts", run("Vec<")),
        ("yaml", run("a::")),
    ]
}

/// `text` without its SGR sequences (`ESC [ … m`).
fn without_sgr(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("\x1b[") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let end = after.find('m').map_or(after.len(), |m| m + 1);
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

#[test]
fn hostile_code_lines_are_highlighted_in_bounded_time_and_shown_whole() {
    let blocks = blocks();
    let message: String = blocks
        .iter()
        .map(|(lang, line)| format!("```{lang}\n{line}\n{}\n```\n\n", &line[..line.len() / 2]))
        .collect();
    let conv = Conversation::from_events(&[
        json!({"timestamp": "2026-06-02 09:14:03.1", "type": "turn_start"}),
        json!({"timestamp": "2026-06-02 09:14:03.2", "type": "chat_request", "content": "x"}),
        json!({"timestamp": "2026-06-02 09:14:04.1", "type": "chat_response", "message": message}),
    ]);
    let start = Instant::now();
    let mut child = crate::common::overhear()
        .args(["render", "--width", "10000", "--color", "always"])
        .arg(conv.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("overhear runs");
    // Read stdout on another thread so a full pipe cannot stall the child.
    let mut stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut bytes).map(|_| bytes)
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("waits") {
            break status;
        }
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("render of hostile code still running after {DEADLINE:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status:?}");
    let printed = without_sgr(
        &String::from_utf8(reader.join().expect("reader").expect("read")).expect("UTF-8"),
    );
    let shown: Vec<&str> = printed.lines().map(str::trim).collect();
    for (lang, line) in &blocks {
        let tabs_expanded = line.replace('\t', "    ");
        for expected in [
            tabs_expanded.as_str(),
            &tabs_expanded[..tabs_expanded.len() / 2],
        ] {
            assert!(
                shown.iter().any(|shown| *shown == expected.trim()),
                "{lang}: a line of {} bytes is not shown whole",
                expected.len()
            );
        }
    }
    eprintln!(
        "hostile code: {} blocks rendered in {:?}",
        blocks.len(),
        start.elapsed()
    );
}
