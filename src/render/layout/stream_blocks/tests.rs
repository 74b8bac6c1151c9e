use super::*;
use crate::format::eve::EveReader;
use crate::policy::Overlay;
use crate::render::document::{DocOptions, DocView, Document};
use crate::render::layout::layout;
use crate::render::lazy_highlight::Highlighting;
use crate::render::theme::Theme;
use crate::text::sanitize::SanitizeMode;
use crate::text::width::line_text;

const STREAMING: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/eve/streaming.ndjson"));
const MALFORMED: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/eve/malformed-line.ndjson"));
const TWO_TURNS: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/eve/null-final.ndjson"));

/// The conversation of the stream's first `lines` lines (`extra`: bytes of
/// the next line already written).
fn prefix(stream: &str, lines: usize, extra: usize) -> Conversation {
    let mut reader = EveReader::new();
    let mut end = 0;
    for line in stream.split_inclusive('\n').take(lines) {
        end += line.len();
    }
    let end = (end + extra).min(stream.len());
    reader.push(&stream.as_bytes()[..end]);
    reader.conversation()
}

fn render_with(conv: &Conversation, options: &DocOptions, width: usize) -> Vec<String> {
    let theme = Theme::dark();
    let ctx = LayoutContext {
        conv,
        theme: &theme,
        width,
        code_width: None,
        sanitize: SanitizeMode::Strip,
        highlighting: Highlighting::Whole,
        wrap_results: true,
    };
    Document::build(conv, options)
        .blocks
        .iter()
        .flat_map(|b| layout(b, false, &ctx))
        .map(|l| line_text(&l))
        .collect()
}

fn render(conv: &Conversation, view: DocView) -> Vec<String> {
    let options = DocOptions {
        view,
        ..DocOptions::default()
    };
    render_with(conv, &options, 60)
}

fn count(lines: &[String], needle: &str) -> usize {
    lines.iter().map(|l| l.matches(needle).count()).sum()
}

#[test]
fn streaming_text_is_last_with_a_cursor_until_completed() {
    let lines = render(&prefix(STREAMING, 9, 0), DocView::Terminal);
    let at = lines
        .iter()
        .position(|l| l.contains("assistant · typing…"))
        .expect("the typing label");
    assert!(
        lines[at..]
            .iter()
            .any(|l| l.trim() == "Checking the log first.▍")
    );
    assert_eq!(count(&lines, "Checking the log"), 1);
    assert!(
        lines[at..]
            .iter()
            .all(|l| !l.contains("──") || l.contains("typing")),
        "nothing after the streaming block: {lines:#?}"
    );

    let done = render(&prefix(STREAMING, 10, 0), DocView::Terminal);
    assert_eq!(count(&done, "Checking the log first."), 1, "{done:#?}");
    assert_eq!(count(&done, "typing…"), 0);
    assert_eq!(count(&done, CURSOR), 0);
}

#[test]
fn each_kind_of_streaming_text_has_its_label() {
    let thinking = render(&prefix(STREAMING, 5, 0), DocView::Terminal);
    assert!(thinking.iter().any(|l| l == "▾ thinking…"), "{thinking:#?}");
    assert!(thinking.iter().any(|l| l.trim() == "The build log▍"));

    let arguments = render(&prefix(STREAMING, 12, 0), DocView::Terminal);
    assert!(
        arguments
            .iter()
            .any(|l| l == "◌ preparing send_channel_update arguments…"),
        "{arguments:#?}"
    );
    assert!(
        arguments
            .iter()
            .any(|l| l.contains(r#"{"message":"Build is green ✅"}▍"#))
    );
    // The request replaces the streamed arguments.
    let requested = render(&prefix(STREAMING, 13, 0), DocView::Terminal);
    assert_eq!(count(&requested, "Build is green ✅"), 1, "{requested:#?}");
    assert_eq!(count(&requested, "preparing"), 0);
}

#[test]
fn a_half_written_line_shows_nothing_of_itself() {
    let stream = STREAMING;
    let line_10 = stream.split_inclusive('\n').nth(9).unwrap();
    // Everything of message.completed but its newline.
    let conv = prefix(stream, 9, line_10.len() - 1);
    assert_eq!(conv.events.len(), prefix(stream, 9, 0).events.len());
    let lines = render(&conv, DocView::Terminal);
    assert_eq!(count(&lines, "typing…"), 1, "still streaming: {lines:#?}");
}

#[test]
fn views_show_the_streaming_text_they_address() {
    let user_thinking = render(&prefix(STREAMING, 5, 0), DocView::User);
    assert_eq!(count(&user_thinking, "thinking"), 0, "{user_thinking:#?}");
    let user_typing = render(&prefix(STREAMING, 9, 0), DocView::User);
    assert_eq!(count(&user_typing, "typing…"), 1);
    let user_arguments = render(&prefix(STREAMING, 12, 0), DocView::User);
    assert_eq!(count(&user_arguments, "preparing"), 0);

    let mut hidden = Overlay::default();
    hidden.set("style.reasoning.display=hidden").unwrap();
    let options = DocOptions {
        overlay: hidden,
        ..DocOptions::default()
    };
    let lines = render_with(&prefix(STREAMING, 5, 0), &options, 60);
    assert_eq!(count(&lines, "thinking"), 0, "{lines:#?}");
}

#[test]
fn text_the_stream_ended_on_is_unfinished() {
    let conv = prefix(STREAMING, 9, 0);
    let options = DocOptions {
        finished: true,
        ..DocOptions::default()
    };
    let lines = render_with(&conv, &options, 60);
    assert!(
        lines.iter().any(|l| l.contains("assistant · unfinished")),
        "{lines:#?}"
    );
    assert!(lines.iter().any(|l| l.trim() == "Checking the log first.…"));
    assert_eq!(count(&lines, CURSOR), 0);
}

#[test]
fn the_cursor_never_widens_a_full_line() {
    let mut conv = prefix(STREAMING, 9, 0);
    if let Some(p) = conv.in_progress.as_mut() {
        p.text = "x".repeat(38);
    }
    let lines = render(&conv, DocView::Terminal);
    let at = lines.iter().position(|l| l.contains("typing")).unwrap();
    for width in [40, 41, 42] {
        let lines = render_with(&conv, &DocOptions::default(), width);
        assert!(
            lines
                .iter()
                .all(|l| crate::text::width::display_width(l) <= width),
            "{lines:#?}"
        );
        assert_eq!(count(&lines, CURSOR), 1);
    }
    assert_eq!(count(&lines[at..], "x"), 38);
}

#[test]
fn raw_view_shows_every_stored_line_malformed_ones_visibly() {
    let mut reader = EveReader::new();
    reader.push(MALFORMED.as_bytes());
    let conv = reader.conversation();
    let lines = render(&conv, DocView::Raw);
    let headers = lines.iter().filter(|l| l.starts_with("line ")).count();
    let malformed = lines
        .iter()
        .filter(|l| l.starts_with("⚠ malformed line "))
        .count();
    assert_eq!(headers + malformed, conv.originals.len());
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("⚠ malformed line 4, column 63: not JSON")),
        "{lines:#?}"
    );
    assert!(lines.iter().any(|l| l.contains("\"hello\": \"world\"")));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("line 3 · message.received  2026-02-01 10:00:03 UTC"))
    );
    // The canonical view does not show them.
    let terminal = render(&conv, DocView::Terminal);
    assert_eq!(count(&terminal, "malformed"), 0);
}

#[test]
fn raw_lines_sit_under_their_turn() {
    let mut reader = EveReader::new();
    reader.push(TWO_TURNS.as_bytes());
    let conv = reader.conversation();
    let doc = Document::build(
        &conv,
        &DocOptions {
            view: DocView::Raw,
            ..DocOptions::default()
        },
    );
    let turn_of_line = |n: usize| {
        doc.blocks
            .iter()
            .find(|b| b.key.anchor == crate::render::document::Anchor::Line(n))
            .map(|b| b.turn)
    };
    assert_eq!(turn_of_line(1), Some(1), "session.started");
    assert_eq!(turn_of_line(7), Some(1), "turn.completed of turn_0");
    assert_eq!(turn_of_line(8), Some(2), "turn.started of turn_1");
    let mut turns: Vec<usize> = doc
        .blocks
        .iter()
        .map(|b| b.turn)
        .filter(|&t| t != 0)
        .collect();
    turns.dedup();
    assert_eq!(turns.len(), 2);
    let rules = doc
        .blocks
        .iter()
        .filter(|b| matches!(b.kind, BlockKind::TurnRule { .. }))
        .count();
    assert_eq!(rules, 2);
}
