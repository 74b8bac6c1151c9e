//! The library API used the way a tool author uses it: `insta` snapshots of
//! `overhear::card(…)` and `overhear::render(…)` (stored in `snapshots/`,
//! reviewed like code), and checks that the library prints exactly what the
//! binary prints.

use std::path::{Path, PathBuf};

use serde_json::json;

/// Snapshots of this repository live in `snapshots/` at its root (a tool author's own
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
    let out = crate::common::overhear()
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
            let out = crate::common::overhear()
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

/// A width outside 1..=10 000 is taken into it, as the commands take
/// theirs: set through `with_width` or on the field, the widest a caller
/// can ask renders as 10 000 columns (not a line of `usize::MAX` columns,
/// which no memory holds), and 0 as 1 column, what `render --width 1` prints.
#[test]
fn a_width_outside_what_the_commands_accept_is_taken_into_it() {
    let conversation = overhear::Conversation::open(fixture("blocks")).unwrap();
    let options = |width| overhear::RenderOptions::default().with_width(width);
    let widest = overhear::render(&conversation, &options(overhear::MAX_WIDTH));
    assert_eq!(
        overhear::render(&conversation, &options(usize::MAX)),
        widest
    );
    let mut set_on_the_field = overhear::RenderOptions::default();
    set_on_the_field.width = usize::MAX;
    assert_eq!(overhear::render(&conversation, &set_on_the_field), widest);
    assert!(
        widest
            .lines()
            .any(|line| line.chars().count() == overhear::MAX_WIDTH)
    );

    let out = crate::common::overhear()
        .arg("render")
        .arg(fixture("blocks"))
        .args(["--width", "1"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let narrowest = overhear::render(&conversation, &options(0));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), narrowest);

    let card = |options: &overhear::CardOptions| {
        overhear::card("deploy", &deploy_args(), &deploy_result(), options)
    };
    let mut card_options = overhear::CardOptions::default();
    card_options.width = usize::MAX;
    assert_eq!(
        card(&card_options),
        card(&overhear::CardOptions::default().with_width(overhear::MAX_WIDTH))
    );
    assert_eq!(
        card(&overhear::CardOptions::default().with_width(0)),
        card(&overhear::CardOptions::default().with_width(1))
    );
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
    assert_eq!(missing.kind(), overhear::ErrorKind::NotFound);
    assert_eq!(broken.kind(), overhear::ErrorKind::Malformed);
}

#[test]
fn a_caller_can_match_on_what_went_wrong() {
    use overhear::ErrorKind;
    let dir = tempfile::tempdir().expect("a temporary folder");
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).expect("a folder");
    let not_a_conversation = overhear::Conversation::open(&empty).unwrap_err();
    assert_eq!(
        not_a_conversation.kind(),
        ErrorKind::NotAConversation,
        "{not_a_conversation}"
    );
    let unreadable_styles = overhear::Styles::from_file(dir.path().join("none.toml")).unwrap_err();
    assert_eq!(
        unreadable_styles.kind(),
        ErrorKind::Io,
        "{unreadable_styles}"
    );
    let mut styles = overhear::Styles::default();
    let unknown_key = styles.set("style.no_such_key=1").unwrap_err();
    assert_eq!(unknown_key.kind(), ErrorKind::Style, "{unknown_key}");
    let bad_value = styles
        .set_tool("deploy", "inline_results=maybe")
        .unwrap_err();
    assert_eq!(bad_value.kind(), ErrorKind::Style, "{bad_value}");
    let not_a_result = overhear::ToolResult::from_json(r#"{"content": 3}"#).unwrap_err();
    assert_eq!(not_a_result.kind(), ErrorKind::ToolResult, "{not_a_result}");
}
