//! The library API used the way a tool author uses it: `insta` snapshots of
//! `overhear::card(…)` and `overhear::render(…)` (stored in `snapshots/`,
//! reviewed like code), and checks that the library prints exactly what the
//! binary prints.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::json;

/// Snapshots of this repository live in `snapshots/` (a tool author's own
/// tests can leave insta's default, `tests/snapshots/`).
macro_rules! snapshot {
    ($name:expr, $text:expr) => {
        insta::with_settings!({snapshot_path => "../../snapshots", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $text);
        })
    };
}

/// A tool's result as an MCP server returns it: a summary for the user,
/// details for the model, and a note for both.
fn deploy_result() -> overhear::ToolResult {
    overhear::ToolResult::from_value(json!({
        "content": [
            {"type": "text", "text": "Deployed **web** to staging in 42 s.", "mimeType": "text/markdown",
             "annotations": {"audience": ["user"]}},
            {"type": "text", "text": "build 1f3c2e0\n3 pods restarted\nhealth check ok",
             "annotations": {"audience": ["assistant"]}},
            {"type": "text", "text": "{\"url\": \"https://staging.example.com\", \"pods\": 3}",
             "mimeType": "application/json"},
        ],
        "isError": false,
    }))
    .expect("a valid CallToolResult")
}

fn deploy_args() -> serde_json::Value {
    json!({"service": "web", "environment": "staging"})
}

#[test]
fn a_tool_card_under_the_default_style() {
    let options = overhear::CardOptions::default().with_width(60);
    snapshot!(
        "library-card-default-60",
        overhear::card("deploy", &deploy_args(), &deploy_result(), &options)
    );
}

#[test]
fn a_tool_card_for_every_audience_under_the_shipped_style() {
    let mut styles = overhear::Styles::default();
    styles
        .set_tool("deploy", "inline_results.user=chat")
        .unwrap();
    styles
        .set_tool("deploy", "inline_results.assistant=off")
        .unwrap();
    styles
        .set_tool("deploy", "parameters=function_call")
        .unwrap();
    let options = overhear::CardOptions::default()
        .with_width(72)
        .with_view(overhear::CardView::All)
        .with_styles(styles);
    snapshot!(
        "library-card-all-72",
        overhear::card("deploy", &deploy_args(), &deploy_result(), &options)
    );
}

#[test]
fn the_library_card_is_what_the_command_prints() {
    let dir = tempfile::tempdir().unwrap();
    let result = json!({"content": [
        {"type": "text", "text": "Saved.", "annotations": {"audience": ["user"]}},
        {"type": "text", "text": "wrote 3 files", "annotations": {"audience": ["assistant"]}},
    ], "isError": true});
    let file = dir.path().join("result.json");
    std::fs::write(&file, result.to_string()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_overhear"))
        .args(["card", "--tool", "save", "--args", r#"{"n":3}"#, "--result"])
        .arg(&file)
        .args([
            "--view",
            "all",
            "--width",
            "50",
            "--set",
            "inline_results.user=chat",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let mut styles = overhear::Styles::default();
    styles.set_tool("save", "inline_results.user=chat").unwrap();
    let options = overhear::CardOptions::default()
        .with_width(50)
        .with_view(overhear::CardView::All)
        .with_styles(styles);
    let library = overhear::card(
        "save",
        &json!({"n": 3}),
        &overhear::ToolResult::from_value(result).unwrap(),
        &options,
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap(), library);
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/jp")
        .join(name)
}

#[test]
fn the_last_turn_of_a_conversation() {
    let conversation = overhear::Conversation::open(fixture("blocks")).unwrap();
    let options = overhear::RenderOptions::default()
        .with_width(40)
        .with_turn(-1);
    snapshot!(
        "library-render-blocks-last-turn-40",
        overhear::render(&conversation, &options)
    );
}

#[test]
fn render_prints_what_the_render_command_prints() {
    for (name, file) in [
        ("blocks", fixture("blocks")),
        (
            "updates.ndjson",
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/eve/update-then-final.ndjson"),
        ),
    ] {
        for (width, view, flag) in [
            (40, overhear::View::Terminal, "terminal"),
            (120, overhear::View::User, "user"),
            (80, overhear::View::Raw, "raw"),
        ] {
            let out = Command::new(env!("CARGO_BIN_EXE_overhear"))
                .arg("render")
                .arg(&file)
                .args(["--width", &width.to_string(), "--view", flag])
                .output()
                .unwrap();
            assert!(out.status.success(), "{name}");
            let conversation = overhear::Conversation::open(&file).unwrap();
            let options = overhear::RenderOptions::default()
                .with_width(width)
                .with_view(view);
            let library = overhear::render(&conversation, &options);
            assert!(!library.is_empty(), "{name} {flag}");
            assert_eq!(
                String::from_utf8(out.stdout).unwrap(),
                library,
                "{name} --view {flag} at {width}"
            );
            // The same bytes in memory give the same rendering.
            let bytes = if file.is_dir() {
                std::fs::read(file.join("events.json")).unwrap()
            } else {
                std::fs::read(&file).unwrap()
            };
            let from_bytes = overhear::Conversation::from_bytes(&bytes).unwrap();
            assert_eq!(
                overhear::render(&from_bytes, &options),
                library,
                "{name} from bytes"
            );
        }
    }
}

#[test]
fn colour_and_styles_change_the_rendering() {
    let conversation = overhear::Conversation::open(fixture("blocks")).unwrap();
    let plain = overhear::render(&conversation, &overhear::RenderOptions::default());
    assert!(!plain.contains('\x1b'));
    let coloured = overhear::render(
        &conversation,
        &overhear::RenderOptions::default().with_color(overhear::Color::Ansi256),
    );
    assert!(coloured.contains("\x1b[38;5;"), "256-colour SGR");
    let mut styles = overhear::Styles::default();
    styles.set("style.tool_call.show=false").unwrap();
    let without_tools = overhear::render(
        &conversation,
        &overhear::RenderOptions::default().with_styles(styles),
    );
    assert!(plain.contains("● ") && !without_tools.contains("● "));
}

#[test]
fn a_turn_outside_the_conversation_says_so() {
    let conversation = overhear::Conversation::open(fixture("blocks")).unwrap();
    let turns = conversation.turns();
    let text = overhear::render(
        &conversation,
        &overhear::RenderOptions::default().with_turn(turns as i64 + 1),
    );
    assert_eq!(
        text,
        format!(
            "(turn {}: the conversation has {turns} turn{}, numbered from 1; -1 is the last)\n",
            turns + 1,
            if turns == 1 { "" } else { "s" }
        )
    );
}

#[test]
fn errors_name_the_file_and_the_problem() {
    let missing = overhear::Conversation::open("/nonexistent/events.json").unwrap_err();
    assert!(missing.to_string().contains("/nonexistent"), "{missing}");
    let broken =
        overhear::Conversation::from_bytes(b"[{\"type\": \"turn_start\",, }]").unwrap_err();
    assert!(broken.to_string().contains("line 1, column"), "{broken}");
}
