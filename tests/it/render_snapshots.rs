//! Rendering of the repository's hand-written conversations, pinned as insta
//! snapshots in `snapshots/` at 40, 80 and 120 columns, plus the assertions a
//! reader of the display policy would check by eye.

use crate::common;

use std::path::Path;

use common::snapshot::snapshot;
use overhear::load;
use overhear::policy::Overlay;
use overhear::render::document::{DocOptions, DocView};
use overhear::render::print::{CodeOverflow, PrintOptions, render_to_string};
use overhear::render::theme::Theme;
use overhear::text::sanitize::SanitizeMode;

fn render(fixture: &str, view: DocView, width: usize, color: bool) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/jp")
        .join(fixture);
    let loaded = load::Live::read_once(path.to_str().unwrap()).unwrap();
    let doc = DocOptions {
        view,
        overlay: Overlay::default(),
        finished: true,
    };
    let options = PrintOptions {
        width,
        color,
        theme: Theme::builtin("dark").unwrap(),
        sanitize: SanitizeMode::Strip,
        turns: None,
        code: CodeOverflow::Wrap,
    };
    render_to_string(&loaded.conversation, &doc, &options)
}

fn assert_width(text: &str, width: usize) {
    for line in text.lines() {
        let w = overhear::text::width::display_width(line);
        assert!(w <= width, "line wider than {width} ({w}): {line:?}");
    }
}

#[test]
fn fixtures_at_three_widths() {
    for fixture in [
        "current",
        "legacy-wrapped",
        "legacy-flattened",
        "blocks",
        "policy",
        "updates",
    ] {
        for width in [40, 80, 120] {
            let text = render(fixture, DocView::Terminal, width, false);
            assert_width(&text, width);
            snapshot(&format!("jp-{fixture}-{width}"), &text);
        }
    }
}

#[test]
fn user_and_raw_views() {
    for view in [DocView::User, DocView::Raw] {
        for fixture in ["blocks", "updates"] {
            let text = render(fixture, view, 80, false);
            assert_width(&text, 80);
            snapshot(&format!("jp-{fixture}-{}-80", view.name()), &text);
        }
    }
}

#[test]
fn color_always_pins_styles() {
    let text = render("updates", DocView::Terminal, 80, true);
    assert!(text.contains("\u{1b}["), "no SGR written");
    snapshot("jp-updates-color-80", &text);
}

fn section<'t>(text: &'t str, from: &str, to: &str) -> &'t str {
    let start = text
        .find(from)
        .unwrap_or_else(|| panic!("{from:?} not rendered:\n{text}"));
    let end = text[start..].find(to).map_or(text.len(), |e| start + e);
    &text[start..end]
}

#[test]
fn rfd_094_table_rows() {
    let text = render("policy", DocView::Terminal, 80, false);
    // off/off: the call's header shows, no result line.
    let off = section(&text, "off_off", "u10_aoff");
    assert!(!off.contains("line 1"), "{off}");
    // 10/off and 5/10 and omitted/off: first 10 lines, then a note.
    for (from, to) in [
        ("u10_aoff", "u5_a10"),
        ("u5_a10", "ufull_a10"),
        ("omitted_aoff", "u10_aoff"),
    ] {
        let part = section(&text, from, to);
        assert!(
            part.contains("line 10") && !part.contains("line 11"),
            "{part}"
        );
        assert!(part.contains("5 more lines not shown"), "{part}");
    }
    // full/10 and chat/off: everything, as result display.
    for (from, to) in [("ufull_a10", "uchat_aoff"), ("uchat_aoff", "omitted_aoff")] {
        let part = section(&text, from, to);
        assert!(
            part.contains("line 15") && !part.contains("more lines"),
            "{part}"
        );
    }
}

#[test]
fn audience_maps_chat_hidden_header_and_errors() {
    let text = render("policy", DocView::Terminal, 80, false);
    assert!(text.contains("user line 10") && !text.contains("user line 11"));
    assert!(!text.contains("assistant only: hidden"));
    assert!(text.contains("assistant · uchat_aoff"));
    assert!(text.contains("unannotated, shown as result display"));
    assert!(!text.contains("a user block of a hidden tool must not show"));
    assert!(!text.contains("hidden_tool"));
    assert!(text.contains("result of a headerless call") && !text.contains("● headerless"));
    assert!(
        text.contains("params_call(lines: 15, path: \"src/lib.rs\", recursive: true)")
            || text.contains("params_call(path: \"src/lib.rs\", lines: 15, recursive: true)")
    );
    assert!(text.contains("formatted by just fmt"));
    let err = section(&text, "err_overlay · failed", "ok_1");
    assert!(err.contains("line 3") && !err.contains("line 4"), "{err}");
}

#[test]
fn updates_final_reply_and_lost_answer() {
    let text = render("updates", DocView::Terminal, 80, false);
    assert!(text.contains("assistant · tell_user"));
    assert!(text.contains("assistant · update (send_channel_update)"));
    assert!(text.contains("delivered"));
    assert!(text.contains("failed") && text.contains("channel unavailable: 503"));
    assert!(text.contains("assistant · final reply"));
    // Turn 2 ended (turn 3 started) with an update and no reply.
    let turn2 = section(&text, "turn 2", "turn 3");
    assert!(
        turn2.contains("no final reply — the answer may be lost"),
        "{turn2}"
    );
    // Updates are never rendered as tool cards.
    assert!(!text.contains("● send_channel_update") && !text.contains("● tell_user"));
}
