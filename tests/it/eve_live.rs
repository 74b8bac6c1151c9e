//! A stream followed as it is written (`overhear -`, a growing file): pushed
//! in pieces split inside JSON objects and inside UTF-8 characters, the
//! followed conversation renders exactly as the same bytes read whole, every
//! change that shows is reported, completed text is never on screen twice,
//! and text being written is shown until its completed event replaces it.

use crate::common::eve_support;

use overhear::format::eve::EveReader;
use overhear::load::{Live, Refresh};
use overhear::model::{ChatResponse, Conversation, EventKind};
use overhear::render::document::{DocOptions, DocView};
use overhear::render::print::{CodeOverflow, PrintOptions, render_to_string};
use overhear::render::theme::Theme;
use overhear::text::sanitize::SanitizeMode;

const STREAMS: &[&str] = &[
    "streaming.ndjson",
    "legacy-appends.ndjson",
    "v27-update-reply.ndjson",
    "v27-abandoned-retry.ndjson",
    "update-then-final.ndjson",
    "update-retried.ndjson",
    "retried-step.ndjson",
    "held-resumed.ndjson",
    "malformed-line.ndjson",
];

/// Each line cut in two inside its JSON object, and once more inside its
/// first multi-byte character when it has one.
fn pieces(bytes: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        let mut cuts = vec![line.len() / 2];
        if let Some(at) = line.iter().position(|&b| b >= 0xC0) {
            cuts.push(at + 1);
        }
        cuts.sort_unstable();
        cuts.dedup();
        let mut start = 0;
        for cut in cuts.into_iter().filter(|&c| c > 0 && c < line.len()) {
            out.push(&line[start..cut]);
            start = cut;
        }
        out.push(&line[start..]);
    }
    out
}

fn render(conv: &Conversation, view: DocView, finished: bool) -> String {
    let doc = DocOptions {
        view,
        finished,
        ..DocOptions::default()
    };
    let print = PrintOptions {
        width: 200,
        color: false,
        theme: Theme::dark(),
        sanitize: SanitizeMode::Strip,
        turns: None,
        code: CodeOverflow::Wrap,
    };
    render_to_string(conv, &doc, &print)
}

/// How many lines show `text` whole (with or without the streaming cursor).
fn shown(screen: &str, text: &str) -> usize {
    screen
        .lines()
        .map(str::trim)
        .filter(|l| *l == text || l.strip_suffix('▍') == Some(text))
        .count()
}

#[test]
fn followed_streams_render_like_streams_read_whole() {
    for name in STREAMS {
        let bytes = eve_support::fixture(name);
        let mut live = Live::stdin();
        let mut fed = 0;
        let mut before = render(&live.conversation, DocView::Terminal, false);
        for piece in pieces(&bytes) {
            let refresh = live.push_stream(piece, false).unwrap();
            fed += piece.len();
            let mut reader = EveReader::new();
            reader.push(&bytes[..fed]);
            let whole = reader.conversation();
            let what = format!("{name} after {fed} bytes");

            let now = render(&live.conversation, DocView::Terminal, false);
            assert_eq!(now, render(&whole, DocView::Terminal, false), "{what}");
            assert_eq!(
                live.conversation.originals, whole.originals,
                "{what}: stored lines"
            );
            if now != before {
                assert_ne!(refresh, Refresh::Unchanged, "{what}: change not reported");
            }

            for event in reader.events() {
                if let EventKind::ChatResponse(ChatResponse::Message(Some(text))) = &event.kind
                    && !text.contains('\n')
                {
                    assert!(shown(&now, text) <= 1, "{what}: {text:?} twice:\n{now}");
                }
            }
            if let Some(p) = reader.in_progress().filter(|p| !p.text.contains('\n')) {
                assert!(
                    shown(&now, p.text.trim()) <= 1,
                    "{what}: streaming twice:\n{now}"
                );
            }
            before = now;
        }
        live.push_stream(&[], true).unwrap();
        assert_eq!(
            render(&live.conversation, DocView::Terminal, true),
            render(
                &EveReader::read_all(&bytes).conversation(),
                DocView::Terminal,
                true
            ),
            "{name} at its end"
        );
        assert_eq!(
            render(&live.conversation, DocView::Raw, true),
            render(
                &EveReader::read_all(&bytes).conversation(),
                DocView::Raw,
                true
            ),
            "{name}: raw view at its end"
        );
    }
}

#[test]
fn deltas_are_reported_as_streaming_and_completion_replaces_them() {
    let bytes = eve_support::fixture("streaming.ndjson");
    let lines: Vec<&[u8]> = bytes.split_inclusive(|&b| b == b'\n').collect();
    let mut live = Live::stdin();
    for line in &lines[..8] {
        live.push_stream(line, false).unwrap();
    }
    // message.appended: no event, new text being written.
    assert_eq!(
        live.push_stream(lines[8], false).unwrap(),
        Refresh::Streaming
    );
    let screen = render(&live.conversation, DocView::Terminal, false);
    assert_eq!(shown(&screen, "Checking the log first."), 1, "{screen}");
    assert!(screen.contains("assistant · typing…"));

    // message.completed: the event arrives, the streaming text goes.
    assert_ne!(
        live.push_stream(lines[9], false).unwrap(),
        Refresh::Unchanged
    );
    assert!(live.conversation.in_progress.is_none());
    let screen = render(&live.conversation, DocView::Terminal, false);
    assert_eq!(shown(&screen, "Checking the log first."), 1, "{screen}");
    assert!(!screen.contains("typing…") && !screen.contains('▍'));
}

#[test]
fn the_raw_view_of_a_followed_stream_lists_each_stored_line_once() {
    let bytes = eve_support::fixture("malformed-line.ndjson");
    let mut live = Live::stdin();
    for piece in pieces(&bytes) {
        live.push_stream(piece, false).unwrap();
    }
    live.push_stream(&[], true).unwrap();
    let numbers: Vec<usize> = live.conversation.originals.iter().map(|o| o.line).collect();
    let mut sorted = numbers.clone();
    sorted.dedup();
    assert_eq!(numbers, sorted, "each line once, in order");
    let screen = render(&live.conversation, DocView::Raw, true);
    for original in &live.conversation.originals {
        let n = original.line;
        let rows = screen
            .lines()
            .filter(|l| {
                l.starts_with(&format!("line {n} · "))
                    || l.starts_with(&format!("⚠ malformed line {n}: "))
                    || l.starts_with(&format!("⚠ malformed line {n}, column "))
            })
            .count();
        assert_eq!(rows, 1, "line {n}:\n{screen}");
    }
}

/// With `--redact`, the events the reader writes are redacted in place (the
/// conversation holds the only copy); a completed message delivered again
/// (same step, new id) is still recognised as the same block and shown once,
/// and the secret is still replaced.
#[test]
fn a_redacted_message_delivered_twice_is_shown_once() {
    let at = r#""at":"2026-02-01T10:00:00Z""#;
    let secret = "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789";
    let lines = [
        format!(r#"{{"type":"turn.started","data":{{"turnId":"t1"}},"meta":{{"id":"e1",{at}}}}}"#),
        format!(
            r#"{{"type":"message.completed","data":{{"turnId":"t1","stepIndex":0,"message":"token {secret} here"}},"meta":{{"id":"e2",{at}}}}}"#
        ),
        format!(
            r#"{{"type":"message.completed","data":{{"turnId":"t1","stepIndex":0,"message":"token {secret} here"}},"meta":{{"id":"e3",{at}}}}}"#
        ),
    ];
    let messages = |conv: &Conversation| {
        conv.events
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::ChatResponse(ChatResponse::Message(Some(text))) => Some(text.clone()),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    let whole = EveReader::read_all(format!("{}\n", lines.join("\n")).as_bytes());
    assert_eq!(messages(&whole.conversation()).len(), 1, "read whole");
    let mut live = Live::stream("-".into());
    live.redact_with(std::sync::Arc::new(
        overhear::redact::Redactor::builtin().expect("the built-in rules"),
    ));
    for line in &lines {
        live.push_stream(format!("{line}\n").as_bytes(), false)
            .expect("an eve line");
    }
    live.push_stream(&[], true).expect("the end");
    let shown = messages(&live.conversation);
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert!(!shown[0].contains(secret), "{shown:?}");
}
