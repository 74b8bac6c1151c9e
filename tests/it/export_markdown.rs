//! The Markdown export of a hand-written Claude Code session
//! (`tests/fixtures/claude/export-markdown.jsonl`) as GitHub will read it,
//! pinned as a snapshot: turn headings, the message's own headings under
//! them, tool calls and reasoning as `<details>` whose summary says the tool,
//! what it did, its outcome, duration and size, results fenced with a fence
//! longer than any backtick run inside; no HTML from the conversation outside
//! a fence; the home folder as `~`.

use crate::common::snapshot::snapshot;
use crate::common::support::overhear_with;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/claude/export-markdown.jsonl"
);

fn markdown() -> String {
    let run = overhear_with(
        ["export", FIXTURE, "--format", "md"],
        &[("HOME", "/home/ada")],
    );
    run.expect_code(0);
    String::from_utf8(run.stdout).unwrap()
}

#[test]
fn a_session_exports_as_markdown_that_reads_well_on_github() {
    let md = markdown();
    snapshot("export-markdown", &md);
}

/// Outside fences, the only tags are the export's own `<details>` and
/// `<summary>`, and every fence that opens closes.
#[test]
fn no_tag_of_the_conversation_is_live_markdown() {
    let md = markdown();
    let mut fence: Option<String> = None;
    for line in md.lines() {
        let ticks: String = line.chars().take_while(|c| *c == '`').collect();
        match &fence {
            Some(open) if ticks.len() >= open.len() && line.trim() == ticks => fence = None,
            Some(_) => {}
            None if ticks.len() >= 3 => fence = Some(ticks),
            None => {
                let mut rest = line;
                while let Some(at) = rest.find('<') {
                    let tag = &rest[at..];
                    assert!(
                        ["<details>", "</details>", "<summary>", "</summary>"]
                            .iter()
                            .any(|own| tag.starts_with(own)),
                        "a live tag in {line:?}"
                    );
                    rest = &rest[at + 1..];
                }
            }
        }
    }
    assert_eq!(fence, None, "a fence left open");
    assert!(md.contains("~/src/shop/Makefile"), "{md}");
    assert!(!md.contains("/home/ada"), "{md}");
}
