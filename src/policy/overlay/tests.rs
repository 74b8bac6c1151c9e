use std::io::Write;

use super::*;
use crate::policy::style::{ErrorStyle, InlineResults, LinkStyle, Parameters, ResultSetting};

fn toml(text: &str) -> Result<Overlay, OverlayError> {
    Overlay::from_toml_str(text, "viewer.toml")
}

#[test]
fn toml_file_with_jp_key_paths_is_read() {
    let overlay = toml(
        r#"
[conversation.tools.fs_read_file.style]
inline_results = "full"
results_file_link = false

[conversation.tools."*".style]
header = "off"
parameters = { program = "fmt", args = ["--tool"] }

[conversation.tools.tell_user.style.inline_results]
user = "chat"
assistant = 3

[conversation.tools.git.style.error]
inline_results = { truncate = { lines = 4 } }

[style.reasoning]
display = "hidden"

[style.tool_call]
show = false
"#,
    )
    .unwrap();
    let read = overlay.tool("fs_read_file").unwrap();
    assert_eq!(
        read.inline_results,
        Some(InlineResults::both(ResultSetting::Full))
    );
    assert_eq!(read.results_file_link, Some(LinkStyle::Off));
    assert_eq!(read.header, None);
    let star = overlay.tool("*").unwrap();
    assert_eq!(star.header, Some(false));
    assert_eq!(
        star.parameters,
        Some(Parameters::Custom("fmt --tool".into()))
    );
    assert_eq!(
        overlay.tool("tell_user").unwrap().inline_results,
        Some(InlineResults {
            user: ResultSetting::Chat,
            assistant: ResultSetting::Lines(3)
        })
    );
    assert_eq!(
        overlay.tool("git").unwrap().error,
        ErrorStyle {
            inline_results: Some(InlineResults::both(ResultSetting::Lines(4))),
            results_file_link: None
        }
    );
    assert_eq!(overlay.reasoning(), Some(ReasoningDisplay::Hidden));
    assert_eq!(overlay.tool_calls_shown(), Some(false));
    let names: Vec<&str> = overlay.tool_names().collect();
    assert_eq!(names, ["*", "fs_read_file", "git", "tell_user"]);
}

#[test]
fn toml_value_errors_name_file_key_and_value() {
    let err =
        toml("[conversation.tools.fs_read_file.style.inline_results]\nassistant = \"chat\"\n")
            .unwrap_err();
    assert_eq!(
        err.to_string(),
        "viewer.toml: conversation.tools.fs_read_file.style.inline_results.assistant: \"chat\" is only valid for user"
    );
    let err = toml("[conversation.tools.x.style]\ninline_results = -2\n").unwrap_err();
    assert!(
        err.to_string().starts_with(
            "viewer.toml: conversation.tools.x.style.inline_results: -2 is not a valid line count"
        ),
        "{err}"
    );
}

#[test]
fn toml_unknown_keys_are_errors() {
    for (text, path) in [
        (
            "[conversation.tools.x.style]\ninline_result = 5\n",
            "conversation.tools.x.style.inline_result",
        ),
        (
            "[conversation.tools.x]\nenable = false\n",
            "conversation.tools.x.enable",
        ),
        ("[conversation]\nfoo = 1\n", "conversation.foo"),
        ("[style.markdown]\ntheme = \"x\"\n", "style.markdown"),
        (
            "[style.reasoning]\nbackground = 236\n",
            "style.reasoning.background",
        ),
        ("theme = \"dark\"\n", "theme"),
        (
            "[conversation.tools.x.style.error]\nheader = \"off\"\n",
            "conversation.tools.x.style.error.header",
        ),
    ] {
        match toml(text) {
            Err(OverlayError::Invalid { origin, source }) => {
                assert_eq!(origin, "viewer.toml");
                assert_eq!(source.path, path, "{text}");
            }
            other => panic!("{text}: {other:?}"),
        }
    }
}

#[test]
fn toml_wrong_shapes_are_errors() {
    for text in [
        "conversation = 1\n",
        "[conversation]\ntools = \"all\"\n",
        "[style.tool_call]\nshow = \"no\"\n",
        "[style.reasoning]\ndisplay = true\n",
        "[conversation.tools.x]\nstyle = \"off\"\n",
    ] {
        assert!(
            matches!(toml(text), Err(OverlayError::Invalid { .. })),
            "{text}"
        );
    }
}

#[test]
fn toml_syntax_errors_name_the_file_and_position() {
    let err = toml("[conversation.tools.x.style\nheader = off\n").unwrap_err();
    let message = err.to_string();
    assert!(matches!(err, OverlayError::Syntax { .. }));
    assert!(message.starts_with("viewer.toml: "), "{message}");
    assert!(message.contains("line 1"), "{message}");
}

#[test]
fn from_toml_file_reads_the_file_and_names_it_in_errors() {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    writeln!(
        file,
        "[conversation.tools.\"*\".style]\nresults_file_link = \"osc9\""
    )
    .unwrap();
    let name = file.path().display().to_string();
    let err = Overlay::from_toml_file(file.path())
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with(&format!(
            "{name}: conversation.tools.\"*\".style.results_file_link: \"osc9\""
        )),
        "{err}"
    );

    let missing = file.path().with_extension("missing");
    let err = Overlay::from_toml_file(&missing).unwrap_err();
    assert!(matches!(err, OverlayError::Read { .. }));
    assert!(
        err.to_string().starts_with(&missing.display().to_string()),
        "{err}"
    );

    let mut good = tempfile::NamedTempFile::new().unwrap();
    writeln!(good, "[style.reasoning]\ndisplay = 200").unwrap();
    let overlay = Overlay::from_toml_file(good.path()).unwrap();
    assert_eq!(overlay.reasoning(), Some(ReasoningDisplay::Chars(200)));
}

#[test]
fn set_parses_json_values_and_falls_back_to_strings() {
    let mut overlay = Overlay::default();
    assert!(overlay.is_empty());
    overlay
        .set("conversation.tools.a.style.hidden=true")
        .unwrap();
    overlay
        .set("conversation.tools.a.style.inline_results=10")
        .unwrap();
    overlay
        .set("conversation.tools.b.style.inline_results={\"user\":\"chat\"}")
        .unwrap();
    overlay
        .set("conversation.tools.c.style.inline_results=full")
        .unwrap();
    overlay
        .set("conversation.tools.c.style.parameters=just serve-tools {{tool}}")
        .unwrap();
    overlay
        .set("conversation.tools.c.style.error.results_file_link=osc8")
        .unwrap();
    overlay
        .set("conversation.tools.\"mcp.x\".style.header=\"off\"")
        .unwrap();
    let a = overlay.tool("a").unwrap();
    assert_eq!(a.hidden, Some(true));
    assert_eq!(
        a.inline_results,
        Some(InlineResults::both(ResultSetting::Lines(10)))
    );
    let b = overlay.tool("b").unwrap();
    assert_eq!(b.inline_results.map(|i| i.user), Some(ResultSetting::Chat));
    assert_eq!(
        b.inline_results.map(|i| i.assistant),
        Some(ResultSetting::Lines(10))
    );
    let c = overlay.tool("c").unwrap();
    assert_eq!(
        c.inline_results,
        Some(InlineResults::both(ResultSetting::Full))
    );
    assert_eq!(
        c.parameters,
        Some(Parameters::Custom("just serve-tools {{tool}}".into()))
    );
    assert_eq!(c.error.results_file_link, Some(LinkStyle::Osc8));
    assert_eq!(overlay.tool("mcp.x").unwrap().header, Some(false));
    assert!(!overlay.is_empty());
}

#[test]
fn later_sets_replace_earlier_ones_field_by_field() {
    let mut overlay = Overlay::from_toml_str(
        "[conversation.tools.x.style]\nheader = \"off\"\ninline_results = 5\n",
        "v.toml",
    )
    .unwrap();
    overlay
        .set("conversation.tools.x.style.inline_results=off")
        .unwrap();
    let x = overlay.tool("x").unwrap();
    assert_eq!(x.header, Some(false));
    assert_eq!(
        x.inline_results,
        Some(InlineResults::both(ResultSetting::Off))
    );
}

#[test]
fn set_audience_keys_join_an_audience_map_but_other_forms_replace() {
    let mut overlay = Overlay::default();
    overlay
        .set("conversation.tools.x.style.inline_results.user=chat")
        .unwrap();
    overlay
        .set("conversation.tools.x.style.inline_results.assistant=off")
        .unwrap();
    assert_eq!(
        overlay.tool("x").unwrap().inline_results,
        Some(InlineResults {
            user: ResultSetting::Chat,
            assistant: ResultSetting::Off
        })
    );
    overlay
        .set("conversation.tools.x.style.inline_results={\"truncate\":{\"lines\":3}}")
        .unwrap();
    assert_eq!(
        overlay.tool("x").unwrap().inline_results,
        Some(InlineResults::both(ResultSetting::Lines(3)))
    );
    overlay
        .set("conversation.tools.x.style.inline_results.user=full")
        .unwrap();
    assert_eq!(
        overlay.tool("x").unwrap().inline_results,
        Some(InlineResults {
            user: ResultSetting::Full,
            assistant: ResultSetting::Lines(10)
        })
    );
}

#[test]
fn set_errors_name_the_assignment_key_and_value_and_leave_the_overlay_unchanged() {
    let mut overlay = Overlay::default();
    overlay
        .set("conversation.tools.x.style.header=off")
        .unwrap();
    let before = overlay.clone();
    let err = overlay
        .set("conversation.tools.fs_read_file.style.inline_results={\"assistant\":\"chat\"}")
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "--set conversation.tools.fs_read_file.style.inline_results={\"assistant\":\"chat\"}: \
         conversation.tools.fs_read_file.style.inline_results.assistant: \"chat\" is only valid for user"
    );
    for bad in [
        "conversation.tools.x.style.inline_results=abc",
        "conversation.tools.x.style.inline_results=-1",
        "conversation.tools.x.style.hidden=maybe",
        "conversation.tools.x.style.header=null",
        "conversation.tools.x.style.colour=red",
        "conversation.tools.x.enable=false",
        "assistant.model=x",
    ] {
        assert!(
            matches!(overlay.set(bad), Err(OverlayError::Invalid { .. })),
            "{bad}"
        );
    }
    for bad in [
        "conversation.tools.x.style.header",
        "conversation..x=1",
        "conversation.tools.\"*.style.header=off",
        "conversation.tools.\"*\"x.style.header=off",
        "=off",
        "conversation.tools.x.style.=off",
    ] {
        assert!(
            matches!(overlay.set(bad), Err(OverlayError::Assignment { .. })),
            "{bad}"
        );
    }
    assert_eq!(overlay, before);
}

#[test]
fn key_paths_split_on_dots_outside_quotes() {
    assert_eq!(
        parse_key_path("conversation.tools.\"*\".style.header").unwrap(),
        ["conversation", "tools", "*", "style", "header"]
    );
    assert_eq!(parse_key_path("a.\"b.c\".d").unwrap(), ["a", "b.c", "d"]);
    assert_eq!(parse_key_path("a.\"q\\\"x\"").unwrap(), ["a", "q\"x"]);
    assert_eq!(
        parse_key_path("conversation.tools.*.style").unwrap(),
        ["conversation", "tools", "*", "style"]
    );
    assert!(parse_key_path("a.").is_err());
    assert!(parse_key_path("").is_err());
}

/// The user file's layer under `--config`/`--set`: the top wins key by key,
/// audience maps join, and a `--set` keeps the layer under it.
#[test]
fn a_user_layer_sits_under_the_overlay_and_survives_set() {
    let user = toml(
        "[conversation.tools.Bash.style]\ninline_results = { user = 3 }\nheader = \"off\"\n\
         [style.reasoning]\ndisplay = \"hidden\"\n",
    )
    .unwrap();
    let mut top = toml("[conversation.tools.Bash.style]\ninline_results = { assistant = 7 }\n")
        .unwrap()
        .with_user_layer(user.clone());
    top.set("style.tool_call.show=false").unwrap();
    assert!(top.set("style.tool_call.show=\"maybe\"").is_err());
    assert_eq!(top.user_layer(), Some(&user));

    let merged = user.under(&top);
    let bash = merged.tool("Bash").unwrap();
    assert_eq!(
        bash.inline_results,
        Some(InlineResults {
            user: ResultSetting::Lines(3),
            assistant: ResultSetting::Lines(7),
        })
    );
    assert_eq!(bash.header, Some(false));
    assert_eq!(merged.reasoning(), Some(ReasoningDisplay::Hidden));
    assert_eq!(merged.tool_calls_shown(), Some(false));
    assert_eq!(merged.user_layer(), None);

    // An empty file is no layer.
    let plain = Overlay::default().with_user_layer(Overlay::default());
    assert_eq!(plain.user_layer(), None);
}
