use std::sync::Arc;

use super::message::answer_text;
use super::*;
use crate::model::{Block, Content, Event, EventKind};
use crate::render::document::Piece;
use crate::render::document::{DocOptions, DocView, Document};
use crate::render::split::SplitLimits;
use crate::text::width::{display_width, line_text};
use serde_json::json;

fn conv(events: Vec<EventKind>, base: Option<Value>) -> Conversation {
    let events = events
        .into_iter()
        .map(|k| Event::new(Some("2026-04-10 17:04:20.531233".into()), k))
        .collect();
    Conversation::new(events, base, None)
}

fn render(conv: &Conversation, width: usize, view: DocView) -> Vec<String> {
    render_code(conv, width, None, view)
}

fn render_code(
    conv: &Conversation,
    width: usize,
    code_width: Option<usize>,
    view: DocView,
) -> Vec<String> {
    let theme = Theme::dark();
    let ctx = LayoutContext {
        conv,
        theme: &theme,
        width,
        code_width,
        sanitize: SanitizeMode::Strip,
        highlighting: Highlighting::Whole,
        wrap_results: true,
    };
    let doc = Document::build(
        conv,
        &DocOptions {
            view,
            finished: true,
            ..DocOptions::default()
        },
    );
    doc.blocks
        .iter()
        .flat_map(|b| layout(b, false, &ctx))
        .map(|l| line_text(&l))
        .collect()
}

fn sample() -> Conversation {
    conv(
        vec![
            EventKind::TurnStart,
            EventKind::ChatRequest {
                content:
                    "日本語のテキスト and a very long word: supercalifragilisticexpialidocious"
                        .into(),
                author: None,
                schema: None,
            },
            EventKind::ToolCallRequest {
                id: "a".into(),
                name: "fs_read_file".into(),
                arguments: Arc::new(json!({"path": "src/lib.rs", "deep": {"x": [1, 2, 3]}})),
            },
            EventKind::ToolCallResponse {
                id: "a".into(),
                content: Content::Text("{\"k\": \"v\", \"list\": [1, 2, 3]}".into()),
                is_error: false,
            },
            EventKind::ToolCallRequest {
                id: "b".into(),
                name: "tell_user".into(),
                arguments: Arc::new(json!({"message": "hi"})),
            },
            EventKind::ToolCallResponse {
                id: "b".into(),
                content: Content::Blocks(vec![
                    Block::text(
                        "**Progress:** 50%",
                        Some("text/markdown"),
                        Some(crate::model::Audience::User),
                    ),
                    Block::text("ok", None, Some(crate::model::Audience::Assistant)),
                ]),
                is_error: false,
            },
            EventKind::ChatResponse(ChatResponse::Message(Some(
                "| a | b |\n|---|---|\n| 1 | 2 |".into(),
            ))),
        ],
        None,
    )
}

#[test]
fn timestamps_are_absolute_and_utc() {
    assert_eq!(
        display_timestamp("2026-04-10 17:04:20.531233"),
        "2026-04-10 17:04:20 UTC"
    );
    assert_eq!(
        display_timestamp("2026-01-01T00:00:01.000Z"),
        "2026-01-01 00:00:01 UTC"
    );
    assert_eq!(
        display_timestamp("2026-01-01T02:00:01+02:00"),
        "2026-01-01 02:00:01 +02:00"
    );
    assert_eq!(
        display_timestamp("2026-03-05 19:31:45.7"),
        "2026-03-05 19:31:45 UTC"
    );
}

#[test]
fn no_line_is_wider_than_the_width() {
    let conv = sample();
    for view in [DocView::Terminal, DocView::User, DocView::Raw] {
        for width in [1, 2, 5, 10, 20, 40, 80, 200] {
            for line in render(&conv, width, view) {
                assert!(display_width(&line) <= width, "{view:?} {width}: {line:?}");
            }
        }
    }
}

#[test]
fn every_block_ends_with_one_blank_line() {
    let conv = sample();
    let theme = Theme::dark();
    let ctx = LayoutContext {
        conv: &conv,
        theme: &theme,
        width: 60,
        code_width: None,
        sanitize: SanitizeMode::Strip,
        highlighting: Highlighting::Whole,
        wrap_results: true,
    };
    let doc = Document::build(&conv, &DocOptions::default());
    for block in &doc.blocks {
        let lines = layout(block, false, &ctx);
        assert!(
            lines
                .last()
                .is_some_and(|l| crate::text::width::line_width(l) == 0),
            "{:?}",
            block.kind
        );
    }
}

#[test]
fn folded_card_is_one_line_with_a_count() {
    let conv = sample();
    let theme = Theme::dark();
    let ctx = LayoutContext {
        conv: &conv,
        theme: &theme,
        width: 80,
        code_width: None,
        sanitize: SanitizeMode::Strip,
        highlighting: Highlighting::Whole,
        wrap_results: true,
    };
    let doc = Document::build(&conv, &DocOptions::default());
    let card = doc.blocks.iter().find(|b| is_foldable(b)).unwrap();
    let folded: Vec<String> = layout(card, true, &ctx).iter().map(line_text).collect();
    assert_eq!(folded.len(), 2);
    assert!(folded[0].starts_with("▸ fs_read_file"), "{folded:?}");
    assert!(folded[0].contains("· 1 line folded"), "{folded:?}");
}

#[test]
fn escapes_in_conversation_text_never_survive() {
    let hostile =
        "\u{1b}]52;c;SGVsbG8=\u{7}\u{1b}[2Jtitle\u{1b}]0;pwned\u{7}\r\u{9b}31mX\u{1b}[8mhidden";
    let conv = conv(
        vec![
            EventKind::ChatRequest {
                content: hostile.into(),
                author: Some(hostile.into()),
                schema: None,
            },
            EventKind::ToolCallRequest {
                id: "a".into(),
                name: hostile.into(),
                arguments: Arc::new(json!({hostile: hostile})),
            },
            EventKind::ToolCallResponse {
                id: "a".into(),
                content: Content::Text(hostile.into()),
                is_error: false,
            },
            EventKind::ChatResponse(ChatResponse::Reasoning(hostile.into())),
            EventKind::ChatResponse(ChatResponse::Message(Some(hostile.into()))),
        ],
        None,
    );
    for view in [DocView::Terminal, DocView::Raw] {
        for line in render(&conv, 80, view) {
            assert!(
                !line.chars().any(|c| c.is_control() && c != '\t'),
                "control character in {line:?}"
            );
        }
    }
}

#[test]
fn search_text_covers_folded_results() {
    let conv = sample();
    let doc = Document::build(&conv, &DocOptions::default());
    let card = doc.blocks.iter().find(|b| is_foldable(b)).unwrap();
    assert!(search_text(card, &conv).contains("\"list\""));
    assert!(full_text(card, &conv).unwrap().contains("[1, 2, 3]"));
}

#[test]
fn answers_read_as_outcomes_and_option_descriptions() {
    let options = [
        json!({"value": "eu", "description": "Europe"}),
        json!({"value": "us"}),
    ];
    assert_eq!(answer_text(&json!(true), None, &[]), "yes");
    assert_eq!(answer_text(&json!(false), Some("answered"), &[]), "no");
    assert_eq!(answer_text(&json!(true), Some("approved"), &[]), "approved");
    assert_eq!(answer_text(&json!(false), Some("denied"), &[]), "denied");
    assert_eq!(answer_text(&json!("eu"), None, &options), "Europe (eu)");
    assert_eq!(answer_text(&json!("us"), None, &options), "us");
    assert_eq!(
        answer_text(&json!("free text"), None, &options),
        "free text"
    );
    assert_eq!(answer_text(&Value::Null, Some("expired"), &[]), "(expired)");
    assert_eq!(answer_text(&Value::Null, None, &[]), "(no answer)");
}

/// A conversation whose code is wider than any window: a fenced block in a
/// message, a JSON result, JSON arguments and structured output.
fn wide_code() -> (Conversation, String) {
    let long = format!("let end = \"{}END\";", "x".repeat(150));
    let prose = "word ".repeat(60);
    let conv = conv(
        vec![
            EventKind::TurnStart,
            EventKind::ChatRequest {
                content: format!("{prose}\n\n```rust\n{long}\n```"),
                author: None,
                schema: None,
            },
            EventKind::ToolCallRequest {
                id: "a".into(),
                name: "run".into(),
                arguments: Arc::new(json!({"script": long})),
            },
            EventKind::ToolCallResponse {
                id: "a".into(),
                content: Content::Text(json!({"out": long}).to_string()),
                is_error: false,
            },
            EventKind::ChatResponse(ChatResponse::Data(Box::new(json!({"value": long})))),
        ],
        None,
    );
    (conv, long)
}

#[test]
fn code_keeps_its_columns_up_to_the_code_width_and_prose_still_wraps() {
    let (conv, _) = wide_code();
    let wide = render_code(&conv, 40, Some(1000), DocView::Raw);
    let whole = wide.iter().filter(|l| l.contains("END")).count();
    assert!(
        whole >= 4,
        "fence, arguments, result and data keep their ends: {wide:#?}"
    );
    assert!(wide.iter().all(|l| !l.ends_with('…')), "{wide:#?}");
    assert!(wide.iter().any(|l| display_width(l) > 150));
    for line in wide.iter().filter(|l| l.contains("word")) {
        assert!(display_width(line) <= 40, "prose wraps: {line:?}");
    }
}

#[test]
fn without_a_code_width_code_is_cut_at_the_width() {
    let (conv, _) = wide_code();
    let cut = render_code(&conv, 40, None, DocView::Raw);
    assert!(cut.iter().all(|l| display_width(l) <= 40), "{cut:#?}");
    assert!(!cut.iter().any(|l| l.contains("END")), "{cut:#?}");
    assert!(cut.iter().filter(|l| l.ends_with('…')).count() >= 4);
}

#[test]
fn a_code_width_still_cuts_code_at_that_width() {
    let (conv, _) = wide_code();
    let lines = render_code(&conv, 40, Some(100), DocView::Raw);
    assert!(lines.iter().all(|l| display_width(l) <= 100), "{lines:#?}");
    assert!(
        lines
            .iter()
            .any(|l| display_width(l) == 100 && l.ends_with('…'))
    );
}

/// A turn where the user sends `message` and `fs_read_file` returns `result`,
/// shown in full (every tool's results are), then `more`.
fn message_and_full_result(message: &str, result: String, more: Vec<EventKind>) -> Conversation {
    let config = json!({"conversation": {"tools": {"*": {"style": {"inline_results": "full"}}}}});
    let mut events = vec![
        EventKind::TurnStart,
        EventKind::ChatRequest {
            content: message.into(),
            author: None,
            schema: None,
        },
        EventKind::ToolCallRequest {
            id: "a".into(),
            name: "fs_read_file".into(),
            arguments: Arc::new(json!({"path": "big.txt"})),
        },
        EventKind::ToolCallResponse {
            id: "a".into(),
            content: Content::Text(result),
            is_error: false,
        },
    ];
    events.extend(more);
    conv(events, Some(config))
}

/// A conversation whose blocks are cut into pieces at small limits: a user
/// message, an assistant message of two events, a card whose full result
/// has many lines, and an error result.
fn pieced_sample() -> Conversation {
    let prose = "A paragraph that wraps over a few lines at a narrow width.\n\n\
                 - a list\n- of two\n\nThen `code`:\n\n```rust\nfn main() {}\n\nfn b() {}\n```\n\n\
                 > a quote\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\nThe end.";
    let lines: String = (1..=20).map(|i| format!("line {i}\n")).collect();
    message_and_full_result(
        prose,
        lines.clone(),
        vec![
            EventKind::ToolCallRequest {
                id: "b".into(),
                name: "cargo_test".into(),
                arguments: Arc::new(json!({})),
            },
            EventKind::ToolCallResponse {
                id: "b".into(),
                content: Content::Text(lines.trim_end().into()),
                is_error: true,
            },
            EventKind::ChatResponse(ChatResponse::Message(Some(prose[..40].into()))),
            EventKind::ChatResponse(ChatResponse::Message(Some(prose[40..].into()))),
        ],
    )
}

const SMALL: SplitLimits = SplitLimits {
    above: 0,
    bytes: 0,
    lines: 3,
};

fn laid_out(doc: &Document, folded: bool, ctx: &LayoutContext<'_>) -> Vec<Line<'static>> {
    doc.blocks
        .iter()
        .flat_map(|b| layout(b, folded && is_foldable(b), ctx))
        .collect()
}

#[test]
fn pieces_lay_out_like_their_whole_block() {
    let conv = pieced_sample();
    let theme = Theme::dark();
    let options = DocOptions::default();
    let whole = Document::build(&conv, &options);
    let pieced = Document::build_with(&conv, &options, SMALL);
    let cut = |kind: fn(&BlockKind) -> bool| {
        pieced
            .blocks
            .iter()
            .filter(|b| kind(&b.kind) && b.piece.is_some())
            .count()
    };
    assert!(cut(|k| matches!(k, BlockKind::UserMessage { .. })) > 3);
    assert!(cut(|k| matches!(k, BlockKind::AssistantMessage { .. })) > 3);
    assert!(
        cut(|k| matches!(k, BlockKind::ToolCard(_))) >= 14,
        "two cards of 7 pieces"
    );
    for (width, code_width) in [(20, None), (60, None), (80, Some(200))] {
        let ctx = LayoutContext {
            conv: &conv,
            theme: &theme,
            width,
            code_width,
            sanitize: SanitizeMode::Strip,
            highlighting: Highlighting::Whole,
            wrap_results: true,
        };
        for folded in [false, true] {
            assert_eq!(
                laid_out(&pieced, folded, &ctx),
                laid_out(&whole, folded, &ctx),
                "width {width}, folded {folded}"
            );
        }
    }
}

#[test]
fn pieces_have_their_own_identity_and_the_first_keeps_the_blocks() {
    let conv = pieced_sample();
    let whole = Document::build(&conv, &DocOptions::default());
    let pieced = Document::build_with(&conv, &DocOptions::default(), SMALL);
    let keys: std::collections::HashSet<_> = pieced.blocks.iter().map(|b| &b.key).collect();
    assert_eq!(
        keys.len(),
        pieced.blocks.len(),
        "every piece has its own key"
    );
    for block in &whole.blocks {
        let first = pieced.blocks.iter().find(|b| b.key == block.key);
        assert!(
            first.is_some_and(|b| b.piece.as_deref().is_none_or(Piece::is_first)),
            "{:?}",
            block.key
        );
    }
    let again = Document::build_with(&conv, &DocOptions::default(), SMALL);
    let same = |a: &Document, b: &Document| {
        a.blocks
            .iter()
            .zip(&b.blocks)
            .all(|(x, y)| x.key == y.key && x.piece == y.piece)
    };
    assert!(same(&pieced, &again), "a rebuild cuts the same pieces");
}

#[test]
fn every_piece_is_found_by_its_own_text() {
    let conv = pieced_sample();
    let doc = Document::build_with(&conv, &DocOptions::default(), SMALL);
    let card_pieces: Vec<String> = doc
        .blocks
        .iter()
        // The card of `fs_read_file`, requested by event 2.
        .filter(|b| matches!(&b.kind, BlockKind::ToolCard(card) if card.call.request == 2))
        .map(|b| search_text(b, &conv))
        .collect();
    for i in 1..=20 {
        let holders = card_pieces
            .iter()
            .filter(|t| t.contains(&format!("line {i}\n")))
            .count();
        assert_eq!(holders, 1, "line {i} is in exactly one piece");
    }
    assert!(card_pieces[0].contains("fs_read_file") && card_pieces[0].contains("big.txt"));
    assert!(!card_pieces[1].contains("fs_read_file"));
}

#[test]
fn a_huge_message_and_result_print_the_same_bytes_cut_or_whole() {
    use crate::render::print::{CodeOverflow, PrintOptions, print_document};
    let sample = "Some prose with *emphasis*, `code` and a [link](https://example.com).\n\n\
                  - a list\n- of items\n\n  continued\n\n1. numbered\n\n2. loose\n\n\
                  ```rust\nfn main() {\n\n    println!(\"hi\");\n}\n```\n\n\
                  > a quote\n> on two lines\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n# Heading\n\n";
    // 100 KB: laid out whole, the message stays within its markdown budget
    // (past it, the whole and the pieces, each with its own budget, differ).
    let message = sample.repeat(100 * 1024 / sample.len() + 1);
    let result: String = (1..=30_000).map(|i| format!("result line {i}\n")).collect();
    let conv = message_and_full_result(
        &message,
        result,
        vec![EventKind::ChatResponse(ChatResponse::Message(Some(
            message.clone(),
        )))],
    );
    let options = DocOptions::default();
    let cut = Document::build_with(
        &conv,
        &options,
        SplitLimits {
            above: 64 * 1024,
            bytes: 8 * 1024,
            ..SplitLimits::default()
        },
    );
    let whole = Document::build_with(
        &conv,
        &options,
        SplitLimits {
            above: usize::MAX,
            ..SplitLimits::default()
        },
    );
    assert!(
        cut.blocks.len() > whole.blocks.len() + 20,
        "the blocks are cut"
    );
    let print = |doc: &Document| {
        let mut out = Vec::new();
        let options = PrintOptions {
            width: 80,
            color: true,
            theme: Theme::dark(),
            sanitize: SanitizeMode::Strip,
            turns: None,
            code: CodeOverflow::Wrap,
        };
        print_document(&mut out, &conv, doc, &options).unwrap();
        out
    };
    assert!(print(&cut) == print(&whole), "the output differs");
}

#[test]
fn a_notice_quoting_the_conversation_is_sanitized() {
    // Found by tests/it/all_widths.rs: the orphan result's id reached the screen raw.
    let conv = conv(
        vec![
            EventKind::TurnStart,
            EventKind::ToolCallResponse {
                id: "id\u{202e}\u{1b}]0;t\u{7}x".into(),
                content: Content::Text("r".into()),
                is_error: false,
            },
        ],
        None,
    );
    let lines = render(&conv, 80, DocView::Terminal);
    let notice = lines
        .iter()
        .find(|l| l.contains("no matching call"))
        .expect("the notice is shown");
    assert!(notice.contains("(id idx)"), "{notice:?}");
}

/// A turn of one call whose arguments are `{"items": [{"a": 0}, {"a": 1},
/// …]}`, `count` objects.
fn call_of_items(count: usize) -> Conversation {
    let items: Vec<Value> = (0..count).map(|i| json!({"a": i})).collect();
    conv(
        vec![
            EventKind::TurnStart,
            EventKind::ToolCallRequest {
                id: "a".into(),
                name: "bulk".into(),
                arguments: Arc::new(json!({ "items": items })),
            },
        ],
        None,
    )
}

/// Arguments of a million small objects (~7 MB of JSON, 3 million lines
/// pretty) are laid out their first `JSON_SHOWN_LINES` lines deep, with a
/// note of the rest: laid out whole they cost gigabytes and seconds
/// (docs/hardening.md, "Bounded work").
#[test]
fn arguments_of_a_million_values_show_their_first_lines_and_say_how_many_more() {
    let lines = render(&call_of_items(1_000_000), 60, DocView::Terminal);
    let is_json = |l: &&String| l.trim_start().starts_with(['{', '}', '"', ']']);
    assert_eq!(lines.iter().filter(is_json).count(), lines::JSON_SHOWN_LINES, "{:?}", &lines[..8]);
    let whole = 3 * 1_000_000 + 4;
    let note = format!("… {} more lines not shown", whole - lines::JSON_SHOWN_LINES);
    assert!(lines.iter().any(|l| l.trim() == note), "{:?}", &lines[lines.len() - 4..]);
    assert!(lines.len() < lines::JSON_SHOWN_LINES + 20, "{} lines", lines.len());
}

#[test]
fn arguments_within_the_cap_are_shown_whole_without_a_note() {
    let c = call_of_items(10);
    let EventKind::ToolCallRequest { arguments, .. } = &c.events[1].kind else {
        panic!("a call");
    };
    let pretty = serde_json::to_string_pretty(arguments.as_ref()).unwrap();
    let lines = render(&c, 60, DocView::Terminal);
    let shown = lines
        .iter()
        .filter(|l| pretty.lines().any(|p| p.trim_start() == l.trim_start()))
        .count();
    assert_eq!(shown, pretty.lines().count(), "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("not shown")), "{lines:?}");
}
