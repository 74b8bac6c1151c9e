use super::{escape, foreign_tag};
use crate::export::{ExportFormat, ExportOptions, Results, export};
use crate::model::{Conversation, Event, EventKind};
use crate::render::document::DocOptions;

/// The HTML export of `events` titled `title`.
fn page(events: Vec<Event>, title: &str) -> String {
    let mut conv = Conversation::new(events, None, None);
    let doc = DocOptions {
        finished: true,
        ..DocOptions::default()
    };
    let options = ExportOptions {
        format: ExportFormat::Html,
        turns: None,
        title: title.into(),
        results: Results::Whole,
        home: None,
        agent: None,
        project: None,
    };
    let mut out = Vec::new();
    export(&mut out, &mut conv, &doc, &options).unwrap();
    String::from_utf8(out).unwrap()
}

fn prompt(text: &str) -> Vec<Event> {
    vec![
        Event::new(Some("2026-04-10 17:04:00".into()), EventKind::TurnStart),
        Event::new(
            Some("2026-04-10 17:04:01".into()),
            EventKind::ChatRequest {
                content: text.into(),
                author: None,
                schema: None,
            },
        ),
    ]
}

#[test]
fn markup_in_the_title_and_the_text_comes_out_as_text() {
    let hostile = "<script>alert(1)</script><img src=x onerror=y></pre><a href=z>";
    let html = page(prompt(hostile), hostile);
    assert_eq!(foreign_tag(&html), None, "{html}");
    assert!(!html.contains("<script"), "{html}");
    assert!(!html.contains("<a href=z"), "{html}");
    assert!(html.contains("<title>&lt;script&gt;"), "{html}");
    assert_eq!(foreign_tag(&format!("{html}<script>")), Some("script"));
}

#[test]
fn every_special_character_is_escaped() {
    assert_eq!(
        escape(r#"<a href="x">'&'</a>"#),
        "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
    );
}

#[test]
fn a_prompt_is_markdown_in_a_turn_with_an_anchor_and_a_contents_entry() {
    let html = page(prompt("## Key Points\n\n* one\n* two"), "t");
    assert!(html.contains("<h2 id=\"turn-1\">"), "{html}");
    assert!(html.contains("<div class=\"speech user\">"), "{html}");
    assert!(html.contains("<h2>Key Points</h2>"), "{html}");
    assert!(html.contains("<li>one</li>"), "{html}");
    assert!(html.contains("<a href=\"#turn-1\">## Key Points</a>"), "{html}");
    assert!(html.contains("img-src data:"), "{html}");
}
