//! The HTML export as a web page, through the binary: Markdown rendered as
//! HTML (code highlighted by classes, links kept only to the web and mail,
//! raw HTML as text), card summaries that say what happened, the session's
//! header and each turn's figures, anchors and a table of contents, CSS-only
//! show/hide, images embedded as `data:` URIs, and large sessions cut into
//! linked pages of at most a limit each.

use std::path::{Path, PathBuf};

use overhear::export::foreign_tag;
use serde_json::json;

use crate::common::agents::claude::user;
use crate::common::export_session::{ExportSession, assistant, run};

/// The reply of the session: Markdown with what a page must render and
/// what it must not pass.
const REPLY: &str = "## Key Points Captured\n\n\
* one **bold** point\n* a [safe link](https://example.com/docs) and a \
[bad one](javascript:alert(1)) and [a file](file:///etc/passwd)\n\n\
| name | value |\n|---|---|\n| a | 1 |\n\n\
```rust\nfn main() { let s = \"<b>\"; }\n```\n\n\
<script>alert(2)</script> and the end of the reply: all done here.";

/// A Claude Code session: a prompt, a Bash call that fails with 19 lines,
/// a Read whose result is fine, and the reply.
fn session(dir: &Path) -> PathBuf {
    ExportSession {
        prompt: "Build it, then **summarise**.",
        log: (1..=19).map(|n| format!("error line {n}")).collect(),
        failed: true,
        second: ("Read", json!({"file_path": "src/lib.rs"})),
        second_result: "pub fn a() {}",
        reply: REPLY,
    }
    .write(dir)
}

/// The HTML export of `path` on stdout.
fn page(path: &Path) -> String {
    run(&["export", path.to_str().unwrap(), "--format", "html"])
}

#[test]
fn markdown_is_rendered_with_highlighted_code_and_only_safe_links() {
    let dir = tempfile::tempdir().unwrap();
    let html = page(&session(dir.path()));
    assert_eq!(foreign_tag(&html), None);
    assert!(html.contains("<h2>Key Points Captured</h2>"), "{html}");
    assert!(html.contains("<strong>bold</strong>"));
    assert!(html.contains("<table>"));
    assert!(html.contains("<a href=\"https://example.com/docs\">safe link</a>"));
    assert!(!html.contains("javascript:"), "a javascript: link passed");
    assert!(!html.contains("file:///etc"), "a file: link passed");
    assert!(html.contains("bad one"), "the unsafe link's text is kept");
    assert!(html.contains("<pre class=\"hl-code\"><code>"));
    assert!(
        html.contains("class=\"hl-"),
        "code is highlighted by classes"
    );
    assert!(html.contains("&lt;script&gt;alert(2)&lt;/script&gt;"));
    assert!(!html.contains("<script"));
    // The prompt is set apart from the reply, itself marked as such.
    assert!(html.contains("<div class=\"speech user\">"));
    assert!(html.contains("<strong>summarise</strong>"));
    assert!(html.contains("<div class=\"speech assistant"));
    // Syntect's stylesheet for both schemes.
    let (light, dark) = html.split_once("prefers-color-scheme: dark").unwrap();
    assert!(light.contains(".hl-code"));
    assert!(dark.contains(".hl-code"));
}

#[test]
fn card_summaries_say_what_the_call_did_and_how_it_went() {
    let dir = tempfile::tempdir().unwrap();
    let html = page(&session(dir.path()));
    let summaries: Vec<&str> = html
        .split("<summary>")
        .skip(1)
        .map(|s| s.split("</summary>").next().unwrap())
        .collect();
    let bash = summaries
        .iter()
        .find(|s| s.contains("Bash"))
        .expect("a summary for the Bash call");
    assert!(bash.contains("Build everything"), "{bash}");
    assert!(
        bash.contains("<span class=\"outcome failed\">failed</span>"),
        "{bash}"
    );
    assert!(bash.contains("3s"), "its duration: {bash}");
    assert!(bash.contains("19 lines, "), "its size: {bash}");
    assert!(!bash.contains("folded"), "{bash}");
    let read = summaries.iter().find(|s| s.contains("Read")).unwrap();
    assert!(read.contains("src/lib.rs"), "{read}");
    assert!(read.contains("1 line, 13 bytes"), "{read}");
    assert!(html.contains("<details class=\"card tool failed\">"));
    // Every line of the failed result is in its card.
    assert!(html.contains("error line 19"));
}

#[test]
fn the_header_and_each_turn_say_the_figures_and_the_contents_link_the_turns() {
    let dir = tempfile::tempdir().unwrap();
    let html = page(&session(dir.path()));
    for fact in [
        "<dt>agent</dt><dd>Claude Code</dd>",
        "<dt>model</dt><dd>claude-test-1</dd>",
        "<dt>started</dt><dd>2026-01-22 10:00:00 UTC</dd>",
        "<dt>duration</dt><dd>8s</dd>",
        "<dt>turns</dt><dd>1</dd>",
        "<dt>tool calls</dt><dd>2 (1 failed, 0 refused)</dd>",
        "<dt>cost</dt><dd>not priced</dd>",
    ] {
        assert!(html.contains(fact), "{fact} not in the header");
    }
    assert!(
        html.contains(
            "<dt>tokens</dt><dd>18,810 in / 1,020 out (cache 15,000 read, 210 written)</dd>"
        ),
        "{html}"
    );
    assert!(html.contains("<h2 id=\"turn-1\"><a href=\"#turn-1\">turn 1</a></h2>"));
    let meta = html.split("<p class=\"turn-meta\">").nth(1).unwrap();
    let meta = meta.split("</p>").next().unwrap();
    assert!(
        meta.contains("claude-test-1 · 2 tool calls, 1 failed"),
        "{meta}"
    );
    assert!(meta.ends_with("not priced"), "{meta}");
    assert!(
        html.contains("<li value=\"1\"><a href=\"#turn-1\">Build it, then **summarise**.</a>"),
        "{html}"
    );
    // Show/hide by CSS alone: the switches come before the page they rule.
    let switches = html.find("id=\"show-tools\"").unwrap();
    assert!(switches < html.find("<main>").unwrap());
    assert!(html.contains("#show-tools:not(:checked)~main .tool{display:none}"));
    assert!(html.contains("@media print"));
}

/// A JP conversation whose tool result holds `image` blocks.
fn conversation_with_images(dir: &Path) -> PathBuf {
    let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    let svg = base64::Engine::encode(
        &base64::engine::general_purpose::STANDARD,
        "<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>",
    );
    let events = json!([
        {"timestamp": "2026-04-10 17:04:00", "type": "turn_start"},
        {"timestamp": "2026-04-10 17:04:01", "type": "chat_request", "content": "Take a screenshot."},
        {"timestamp": "2026-04-10 17:04:02", "type": "tool_call_request", "id": "c1",
         "name": "screenshot", "arguments": {}},
        {"timestamp": "2026-04-10 17:04:03", "type": "tool_call_response", "id": "c1", "content": [
            {"type": "text", "text": "here it is"},
            {"type": "image", "data": png, "mimeType": "image/png"},
            {"type": "image", "data": svg, "mimeType": "image/svg+xml"},
            {"type": "image", "data": svg, "mimeType": "image/png"},
        ]},
        {"timestamp": "2026-04-10 17:04:04", "type": "chat_response", "message": "Done."},
    ]);
    let conv = dir.join("conv");
    std::fs::create_dir(&conv).unwrap();
    std::fs::write(conv.join("events.json"), events.to_string()).unwrap();
    conv
}

#[test]
fn images_are_embedded_as_data_uris_and_only_safe_types() {
    let dir = tempfile::tempdir().unwrap();
    let html = page(&conversation_with_images(dir.path()));
    assert_eq!(foreign_tag(&html), None);
    assert!(
        html.contains(
            "<img class=\"figure\" alt=\"image\" src=\"data:image/png;base64,iVBORw0KGgo"
        ),
        "{html}"
    );
    assert_eq!(html.matches("<img").count(), 1, "only the PNG is embedded");
    assert!(html.contains("not embedded: only PNG, JPEG, GIF and WebP are"));
    assert!(html.contains("not embedded: its bytes are not image/png"));
    assert!(!html.contains("onload"));
    assert!(
        html.contains("img-src data:"),
        "the CSP lets data: images in"
    );
}

/// A 1×1 PNG, base64.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/// The `<img>` data of `html`: each embedded image's `data:` URI.
fn embedded(html: &str) -> Vec<&str> {
    html.split("<img class=\"figure\" alt=\"image\" src=\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap())
        .collect()
}

/// A Claude Code session with a pasted image in its prompt, a screenshot
/// in a tool's result, and an image past the cap in another result.
fn claude_with_images(dir: &Path) -> PathBuf {
    let image = |data: &str| json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": data}});
    // A PNG's first bytes and 3 MiB more: past the 2 MiB an export embeds.
    let mut big = b"\x89PNG\r\n\x1a\n".to_vec();
    big.resize(3 << 20, 0);
    let big = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, &big);
    let records = [
        user(
            "u1",
            0,
            false,
            json!([{"type": "text", "text": "What is wrong here?"}, image(PNG)]),
        ),
        assistant(
            "a1",
            1,
            json!([{"type": "tool_use", "id": "toolu_shot", "name": "Screenshot", "input": {}},
                   {"type": "tool_use", "id": "toolu_big", "name": "Screenshot", "input": {"full": true}}]),
        ),
        user(
            "u2",
            2,
            false,
            json!([{"type": "tool_result", "tool_use_id": "toolu_shot",
                    "content": [{"type": "text", "text": "the screen"}, image(PNG)]},
                   {"type": "tool_result", "tool_use_id": "toolu_big",
                    "content": [image(&big)]}]),
        ),
        assistant("a2", 3, json!([{"type": "text", "text": "A red pixel."}])),
    ];
    let path = dir.join("images.jsonl");
    std::fs::write(&path, records.concat()).unwrap();
    path
}

#[test]
fn claude_code_images_in_a_prompt_and_a_result_are_embedded() {
    let dir = tempfile::tempdir().unwrap();
    let html = page(&claude_with_images(dir.path()));
    assert_eq!(foreign_tag(&html), None);
    let want = format!("data:image/png;base64,{PNG}");
    assert_eq!(
        embedded(&html),
        [want.as_str(), want.as_str()],
        "the prompt's and the result's"
    );
    // The prompt's image is in the prompt, the result's in its card.
    let prompt = html.split("<div class=\"speech user\">").nth(1).unwrap();
    let prompt = prompt.split("</div>\n").next().unwrap();
    assert!(prompt.contains(&want), "{prompt}");
    let card = html.split("<details class=\"card tool").nth(1).unwrap();
    assert!(card.split("</details>").next().unwrap().contains(&want));
    assert!(
        html.contains("[image: image/png, 3 MiB, not embedded: over the 2 MiB an export embeds]"),
        "the image past the cap is a placeholder"
    );
}

#[test]
fn codex_images_as_data_urls_are_embedded() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("data:image/png;base64,{PNG}");
    let at = |s: u32| format!("2026-01-22T11:00:{s:02}.000Z");
    let lines = [
        json!({"timestamp": at(0), "type": "session_meta",
            "payload": {"id": "019a", "timestamp": at(0), "cwd": "/tmp/api",
                "originator": "codex_cli_rs", "cli_version": "0.80.0"}}),
        json!({"timestamp": at(1), "type": "event_msg",
            "payload": {"type": "user_message", "message": "Look at this", "kind": "plain",
                "images": [url]}}),
        json!({"timestamp": at(2), "type": "response_item",
            "payload": {"type": "function_call", "name": "view_image", "call_id": "c1",
                "arguments": "{\"path\": \"shot.png\"}"}}),
        json!({"timestamp": at(3), "type": "response_item",
            "payload": {"type": "function_call_output", "call_id": "c1",
                "output": [{"type": "input_text", "text": "the file"},
                           {"type": "input_image", "image_url": url},
                           {"type": "input_image", "image_url": "data:image/svg+xml;base64,PHN2Zy8+"}]}}),
        json!({"timestamp": at(4), "type": "event_msg",
            "payload": {"type": "agent_message", "message": "Seen."}}),
        json!({"timestamp": at(5), "type": "event_msg", "payload": {"type": "task_complete"}}),
    ];
    let path = dir.path().join("rollout-2026-01-22T11-00-00-019a.jsonl");
    let text: String = lines.iter().map(|l| l.to_string() + "\n").collect();
    std::fs::write(&path, text).unwrap();
    let html = page(&path);
    assert_eq!(foreign_tag(&html), None);
    assert_eq!(
        embedded(&html),
        [url.as_str(), url.as_str()],
        "the prompt's and the result's"
    );
    assert!(
        html.contains("[image: image/svg+xml, not embedded: only PNG, JPEG, GIF and WebP are]")
    );
    assert!(
        !html.contains("PHN2Zy8+"),
        "the SVG's bytes are not in the page"
    );
}

/// A Claude Code session of `turns` turns, each a prompt, a call with a
/// 40-line result and a reply.
fn long_session(dir: &Path, turns: u32) -> PathBuf {
    let mut records = String::new();
    for turn in 0..turns {
        let s = turn * 3;
        let result: Vec<String> = (0..40)
            .map(|n| format!("turn {turn} output line {n}"))
            .collect();
        records.push_str(&user(
            &format!("u{turn}"),
            s % 60,
            false,
            json!(format!("Prompt number {turn}")),
        ));
        records.push_str(&assistant(
            &format!("a{turn}"),
            (s + 1) % 60,
            json!([{"type": "tool_use", "id": format!("toolu_{turn}"), "name": "Bash",
                    "input": {"command": format!("step {turn}")}}]),
        ));
        records.push_str(&user(
            &format!("r{turn}"),
            (s + 2) % 60,
            false,
            json!([{"type": "tool_result", "tool_use_id": format!("toolu_{turn}"), "content": result.join("\n")}]),
        ));
        records.push_str(&assistant(
            &format!("b{turn}"),
            (s + 2) % 60,
            json!([{"type": "text", "text": format!("Reply number {turn}.")}]),
        ));
    }
    let path = dir.join("long.jsonl");
    std::fs::write(&path, records).unwrap();
    path
}

#[test]
fn a_large_session_is_cut_into_linked_pages_under_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let input = long_session(dir.path(), 80);
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let first = out.join("run.html");
    let whole = page(&input);
    let limit = 60_000;
    assert!(
        whole.len() > 2 * limit,
        "the test needs a page over the limit"
    );
    run(&[
        "export",
        input.to_str().unwrap(),
        "-o",
        first.to_str().unwrap(),
        "--page-limit",
        &limit.to_string(),
    ]);
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort_by_key(|n| (n.len(), n.clone()));
    assert!(names.len() >= 3, "{names:?}");
    assert_eq!(names[0], "run.html");
    assert_eq!(names[1], "run-2.html");
    let mut anchors = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let html = std::fs::read_to_string(out.join(name)).unwrap();
        assert!(html.len() <= limit, "{name}: {} bytes", html.len());
        assert!(html.ends_with("</html>\n"), "{name} is whole");
        assert_eq!(foreign_tag(&html), None);
        assert_eq!(
            html.matches("<details").count(),
            html.matches("</details>").count()
        );
        // The contents of the page's own turns on every page, and every
        // other page linked with the turns it holds.
        assert!(html.contains("<nav class=\"toc\">"), "{name}");
        assert!(html.contains("<nav class=\"toc pages-list\">"), "{name}");
        for (j, other) in names.iter().enumerate() {
            if j != i {
                assert!(
                    html.contains(&format!("<a href=\"{other}\">{}</a> (turn", j + 1)),
                    "{name}: {other}"
                );
            }
        }
        if i > 0 {
            assert!(
                html.contains(&format!("<a rel=\"prev\" href=\"{}\">", names[i - 1])),
                "{name}"
            );
        }
        if i + 1 < names.len() {
            assert!(
                html.contains(&format!("<a rel=\"next\" href=\"{}\">", names[i + 1])),
                "{name}"
            );
        }
        let here: Vec<String> = html
            .match_indices("<h2 id=\"turn-")
            .map(|(at, _)| html[at..].split('"').nth(1).unwrap().to_string())
            .collect();
        // Each turn whose heading is here is in this page's contents,
        // linked to its anchor on this page, with its prompt.
        let n = |a: &String| a.trim_start_matches("turn-").parse::<usize>().unwrap();
        for anchor in &here {
            let k = n(anchor);
            assert!(
                html.contains(&format!(
                    "<li value=\"{k}\"><a href=\"#{anchor}\">Prompt number {}</a>",
                    k - 1
                )),
                "{name}: {anchor}"
            );
        }
        // The list of pages says which turns this one holds.
        let (first, last) = (n(&here[0]), n(here.last().unwrap()));
        for other in names.iter().filter(|&other| other != name) {
            let listed = std::fs::read_to_string(out.join(other)).unwrap();
            let range = if first == last {
                format!(" (turn {first})")
            } else {
                format!(" (turns {first}–{last})")
            };
            assert!(
                listed.contains(&format!("<a href=\"{name}\">{}</a>{range}", i + 1)),
                "{other} lists {name} as {range}"
            );
        }
        anchors.extend(here);
    }
    let expected: Vec<String> = (1..=80).map(|n| format!("turn-{n}")).collect();
    assert_eq!(anchors, expected, "every turn once, in order");
    // Without a limit's need, one page.
    let single = dir.path().join("single.html");
    run(&[
        "export",
        input.to_str().unwrap(),
        "-o",
        single.to_str().unwrap(),
    ]);
    assert!(!dir.path().join("single-2.html").exists());
}

#[test]
fn an_export_that_needs_fewer_pages_removes_the_later_pages_it_wrote_before() {
    let dir = tempfile::tempdir().unwrap();
    let input = long_session(dir.path(), 80);
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let first = out.join("run.html");
    let export = |limit: &str| {
        crate::common::support::overhear([
            "export",
            input.to_str().unwrap(),
            "-o",
            first.to_str().unwrap(),
            "--page-limit",
            limit,
        ])
    };
    export("60000").expect_code(0);
    let pages = (2..)
        .take_while(|n| out.join(format!("run-{n}.html")).exists())
        .count()
        + 1;
    assert!(pages >= 3, "{pages} pages");
    // What overhear did not write is kept, whatever its name: a user's file
    // named as the next page would be, and a link named as a page.
    let mine = out.join(format!("run-{}.html", pages + 1));
    std::fs::write(&mine, "<!DOCTYPE html>\n<p>my notes</p>\n").unwrap();
    let linked = dir.path().join("kept.html");
    std::fs::copy(out.join("run-2.html"), &linked).unwrap();
    std::os::unix::fs::symlink(&linked, out.join(format!("run-{}.html", pages + 2))).unwrap();
    let again = export("100000000");
    again.expect_code(0);
    for n in 2..=pages {
        let page = out.join(format!("run-{n}.html"));
        assert!(!page.exists(), "run-{n}.html is left behind");
        assert!(
            again
                .stderr
                .contains(&format!("removed {}", page.display())),
            "{}",
            again.stderr
        );
    }
    assert!(first.is_file());
    assert!(
        !std::fs::read_to_string(&first)
            .unwrap()
            .contains("rel=\"next\"")
    );
    assert_eq!(
        std::fs::read_to_string(&mine).unwrap(),
        "<!DOCTYPE html>\n<p>my notes</p>\n"
    );
    assert!(linked.is_file(), "nothing is removed through a link");
}

#[test]
fn the_page_structure_is_pinned() {
    let dir = tempfile::tempdir().unwrap();
    let html = page(&session(dir.path()));
    // The body (the stylesheet and the version are not structure); one
    // line per element that starts a line, as written.
    let body = &html[html.find("<body>").expect("a body")..];
    crate::common::snapshot::snapshot("export-html-page", body);
}
