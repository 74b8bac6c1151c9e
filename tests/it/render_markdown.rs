//! Golden renders of the markdown renderer and result presentation, at widths 40, 80 and 120.
//!
//! Each snapshot shows every width; each line is padded to the width and closed with `|`, so a
//! reviewer sees at a glance that nothing crosses the edge. One snapshot pins the colour bytes.

use crate::common;

use std::path::Path;

use common::snapshot::snapshot;
use overhear::render::markdown::markdown_to_lines;
use overhear::render::output::{lines_to_string, write_lines};
use overhear::render::result::{classify_result, present};
use overhear::render::theme::Theme;
use overhear::text::width::{display_width, line_width};
use ratatui::text::Line;

const WIDTHS: [usize; 3] = [40, 80, 120];

/// The lines as text, each padded to `width` and closed by `|`.
fn framed(lines: &[Line<'_>], width: usize) -> String {
    for line in lines {
        assert!(line_width(line) <= width, "line wider than {width}");
    }
    let mut out = String::new();
    for row in lines_to_string(lines).lines() {
        out.push_str(row);
        out.push_str(&" ".repeat(width - display_width(row)));
        out.push_str("|\n");
    }
    out
}

fn all_widths(render: impl Fn(usize) -> Vec<Line<'static>>) -> String {
    let mut out = String::new();
    for width in WIDTHS {
        out.push_str(&format!("── width {width} ──\n"));
        out.push_str(&framed(&render(width), width));
    }
    out
}

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/markdown")
        .join(format!("{name}.md"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn markdown_snapshot(name: &str) {
    let text = fixture(name);
    let theme = Theme::dark();
    let rendered = all_widths(|width| markdown_to_lines(&text, width, &theme));
    snapshot(&format!("markdown_{name}"), &rendered);
}

#[test]
fn markdown_headings() {
    markdown_snapshot("headings");
}

#[test]
fn markdown_inline() {
    markdown_snapshot("inline");
}

#[test]
fn markdown_lists() {
    markdown_snapshot("lists");
}

#[test]
fn markdown_quotes() {
    markdown_snapshot("quotes");
}

#[test]
fn markdown_code() {
    markdown_snapshot("code");
}

#[test]
fn markdown_tables() {
    markdown_snapshot("tables");
}

#[test]
fn markdown_wide_table() {
    markdown_snapshot("wide_table");
}

#[test]
fn markdown_html_footnotes() {
    markdown_snapshot("html_footnotes");
}

#[test]
fn markdown_cjk_emoji() {
    markdown_snapshot("cjk_emoji");
}

#[test]
fn results_by_presentation() {
    let theme = Theme::dark();
    let cases: [(&str, &str, Option<&str>); 5] = [
        (
            "json",
            r#"{"files": ["src/main.rs", "src/lib.rs"], "count": 2, "big": 123456789012345678901234567890}"#,
            None,
        ),
        (
            "fenced",
            "```python\ndef greet(name):\n    return f\"hello {name}\"\n```\n",
            None,
        ),
        (
            "xml",
            "<result>\n  <path>src/render/markdown.rs</path>\n</result>",
            None,
        ),
        (
            "markdown",
            "## Summary\n\n- **3** files changed\n- see `render`",
            Some("text/markdown"),
        ),
        (
            "plain",
            "\x1b[32mok\x1b[0m: 12 tests passed in 0.4s; the longest line of plain output wraps at the width like prose does\n\tindented with a tab",
            None,
        ),
    ];
    let mut out = String::new();
    for (label, text, mime) in cases {
        let (presentation, normalized) = classify_result(text, mime);
        out.push_str(&format!("━━ {label}: {presentation:?}\n"));
        out.push_str(&all_widths(|width| {
            present(&presentation, &normalized, width, width, &theme)
        }));
    }
    snapshot("results_by_presentation", &out);
}

#[test]
fn colour_output_bytes() {
    let text = "# Title\n\nSome *em*, **strong**, `code` and a [link](https://l.example).\n\n\
                > quoted\n\n- [x] done\n\n```rust\nlet x = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n";
    let lines = markdown_to_lines(text, 40, &Theme::dark());
    let mut bytes = Vec::new();
    write_lines(&mut bytes, &lines, true).unwrap();
    let text = String::from_utf8(bytes).unwrap().replace('\x1b', "\\e");
    snapshot("markdown_colour_bytes", &text);
}

#[test]
fn light_theme_and_depths_render_the_same_text() {
    let text = fixture("inline");
    let dark = lines_to_string(&markdown_to_lines(&text, 80, &Theme::dark()));
    let light = Theme::builtin("light").unwrap();
    assert_eq!(lines_to_string(&markdown_to_lines(&text, 80, &light)), dark);
    for depth in [
        overhear::render::theme::ColorDepth::Ansi256,
        overhear::render::theme::ColorDepth::Ansi16,
        overhear::render::theme::ColorDepth::None,
    ] {
        let theme = light.with_depth(depth);
        assert_eq!(lines_to_string(&markdown_to_lines(&text, 80, &theme)), dark);
    }
}
