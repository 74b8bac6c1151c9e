use serde_json::{Value, json};

use super::*;
use crate::policy::decide::{Audience, BlockDisplay};
use crate::policy::merge_config;

/// A conversation config shaped like a real `base_config.json`: a fully filled `"*"`.
fn real_like_config() -> Value {
    json!({
        "conversation": {"tools": {
            "*": {"run": "unattended", "style": {
                "hidden": false,
                "inline_results": {"truncate": {"lines": 10}},
                "results_file_link": "osc8",
                "parameters": "json"
            }},
            "fs_read_file": {"enable": true, "style": {"inline_results": "off", "parameters": "function_call"}},
            "fs_modify_file": {"style": {"parameters": "just serve-tools {{context}} {{tool}}"}},
            "cargo_check": {"enable": false}
        }},
        "style": {"reasoning": {"display": "full", "background": 236}, "tool_call": {"show": true}}
    })
}

fn policy(config: &Value) -> TurnPolicy {
    TurnPolicy::new(config, &Overlay::default())
}

#[test]
fn a_tool_style_replaces_star_as_a_whole_and_missing_fields_are_built_in() {
    let p = policy(&real_like_config());
    let read = p.tool_style("fs_read_file");
    assert_eq!(read.inline_results, InlineResults::both(ResultSetting::Off));
    assert_eq!(read.parameters, Parameters::FunctionCall);
    // "*" says osc8, but fs_read_file has its own style: the built-in `full` applies.
    assert_eq!(read.results_file_link, LinkStyle::Full);
    let modify = p.tool_style("fs_modify_file");
    assert_eq!(
        modify.parameters,
        Parameters::Custom("just serve-tools {{context}} {{tool}}".into())
    );
    assert_eq!(modify.results_file_link, LinkStyle::Full);
    assert!(p.warnings().is_empty(), "{:?}", p.warnings());
}

#[test]
fn tools_without_a_style_and_unknown_tools_use_star() {
    let p = policy(&real_like_config());
    for tool in ["cargo_check", "never_configured"] {
        let style = p.tool_style(tool);
        assert_eq!(style.results_file_link, LinkStyle::Osc8, "{tool}");
        assert_eq!(
            style.inline_results,
            InlineResults::both(ResultSetting::Lines(10)),
            "{tool}"
        );
    }
}

#[test]
fn empty_config_gives_built_in_defaults() {
    let p = policy(&json!({}));
    assert_eq!(p.tool_style("anything"), &ToolStyle::default());
    assert!(p.tool_calls_shown());
    assert_eq!(p.reasoning(), ReasoningDisplay::Full);
    assert!(p.warnings().is_empty());
}

#[test]
fn message_tools_keep_their_built_in_style_over_star() {
    let p = policy(&real_like_config());
    for tool in MESSAGE_TOOLS {
        let style = p.tool_style(tool);
        assert!(!style.header, "{tool}");
        assert_eq!(style.parameters, Parameters::Off);
        assert_eq!(style.results_file_link, LinkStyle::Off);
        assert_eq!(
            style.block_display(Audience::User, false),
            BlockDisplay::Speech
        );
        assert_eq!(
            style.block_display(Audience::Assistant, false),
            BlockDisplay::Hidden
        );
        // Failures are unannotated: shown in full as result display.
        assert_eq!(
            style.block_display(Audience::Both, true),
            BlockDisplay::Full
        );
    }
}

#[test]
fn a_message_tools_own_style_builds_on_its_built_in_style() {
    let mut config = real_like_config();
    merge_config(
        &mut config,
        &json!({"conversation": {"tools": {"tell_user": {"style": {"header": "on"}}}}}),
    );
    let p = policy(&config);
    let style = p.tool_style("tell_user");
    assert!(style.header);
    assert_eq!(style.parameters, Parameters::Off);
    assert_eq!(style.inline_results.user, ResultSetting::Chat);
    // send_channel_update is unaffected.
    assert!(!p.tool_style("send_channel_update").header);
}

#[test]
fn deltas_merge_field_wise_into_a_tools_stored_style() {
    let mut config = real_like_config();
    merge_config(
        &mut config,
        &json!({"conversation": {"tools": {"fs_read_file": {"style": {"results_file_link": "off"}}}}}),
    );
    let style = policy(&config).tool_style("fs_read_file").clone();
    assert_eq!(style.results_file_link, LinkStyle::Off);
    assert_eq!(style.parameters, Parameters::FunctionCall);
    assert_eq!(
        style.inline_results,
        InlineResults::both(ResultSetting::Off)
    );
}

#[test]
fn overlay_replaces_only_the_fields_it_names() {
    let mut overlay = Overlay::default();
    overlay
        .set("conversation.tools.fs_read_file.style.inline_results=full")
        .unwrap();
    overlay
        .set("conversation.tools.\"*\".style.header=off")
        .unwrap();
    let p = TurnPolicy::new(&real_like_config(), &overlay);
    let read = p.tool_style("fs_read_file");
    assert_eq!(
        read.inline_results,
        InlineResults::both(ResultSetting::Full)
    );
    assert_eq!(read.parameters, Parameters::FunctionCall);
    assert!(!read.header);
    let other = p.tool_style("not_in_config");
    assert!(!other.header);
    assert_eq!(other.results_file_link, LinkStyle::Osc8);
    // The overlay "*" reaches message tools too; their other fields stay built-in.
    assert_eq!(
        p.tool_style("tell_user").inline_results.user,
        ResultSetting::Chat
    );
}

#[test]
fn a_tools_own_overlay_wins_over_the_overlay_star() {
    let mut overlay = Overlay::default();
    overlay
        .set("conversation.tools.x.style.results_file_link=full")
        .unwrap();
    overlay
        .set("conversation.tools.\"*\".style.results_file_link=off")
        .unwrap();
    let p = TurnPolicy::new(&json!({}), &overlay);
    assert_eq!(p.tool_style("x").results_file_link, LinkStyle::Full);
    assert_eq!(p.tool_style("y").results_file_link, LinkStyle::Off);
}

#[test]
fn tool_call_show_and_reasoning_display() {
    let cases = [
        (json!("full"), ReasoningDisplay::Full),
        (json!("hidden"), ReasoningDisplay::Hidden),
        (json!(120), ReasoningDisplay::Chars(120)),
        (json!("summary"), ReasoningDisplay::Summary),
        (json!("timer"), ReasoningDisplay::Summary),
        (json!("progress"), ReasoningDisplay::Summary),
    ];
    for (display, expected) in cases {
        let p = policy(
            &json!({"style": {"reasoning": {"display": display}, "tool_call": {"show": false}}}),
        );
        assert_eq!(p.reasoning(), expected, "{display}");
        assert!(!p.tool_calls_shown());
        assert!(p.warnings().is_empty());
    }
}

#[test]
fn overlay_overrides_reasoning_and_tool_call_show() {
    let mut overlay = Overlay::default();
    overlay.set("style.reasoning.display=hidden").unwrap();
    overlay.set("style.tool_call.show=false").unwrap();
    let p = TurnPolicy::new(&real_like_config(), &overlay);
    assert_eq!(p.reasoning(), ReasoningDisplay::Hidden);
    assert!(!p.tool_calls_shown());
}

#[test]
fn bad_stored_values_fall_back_per_field_and_become_warnings() {
    let config = json!({
        "conversation": {"tools": {
            "*": {"style": {"inline_results": "lots", "results_file_link": "off"}},
            "fs_read_file": {"style": {"inline_results": {"assistant": "chat"}, "parameters": "off"}},
            "weird": 5,
            "odd_style": {"style": "off"}
        }},
        "style": {"tool_call": {"show": "yes"}, "reasoning": {"display": [1]}}
    });
    let p = policy(&config);
    let star = p.tool_style("unknown");
    assert_eq!(star.inline_results, InlineResults::default());
    assert_eq!(star.results_file_link, LinkStyle::Off);
    let read = p.tool_style("fs_read_file");
    assert_eq!(read.inline_results, InlineResults::default());
    assert_eq!(read.parameters, Parameters::Off);
    // A style that is not an object is reported and the tool falls back to "*".
    assert_eq!(p.tool_style("odd_style").results_file_link, LinkStyle::Off);
    assert!(p.tool_calls_shown());
    assert_eq!(p.reasoning(), ReasoningDisplay::Summary);
    let paths: Vec<&str> = p.warnings().iter().map(|w| w.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "conversation.tools.\"*\".style.inline_results",
            "conversation.tools.fs_read_file.style.inline_results.assistant",
            "conversation.tools.weird",
            "conversation.tools.odd_style.style",
            "style.tool_call.show",
            "style.reasoning.display",
        ]
    );
}

#[test]
fn tools_that_is_not_a_map_is_a_warning_not_a_failure() {
    let p = policy(&json!({"conversation": {"tools": []}}));
    assert_eq!(p.tool_style("x"), &ToolStyle::default());
    assert_eq!(p.warnings().len(), 1);
}

/// Claude Code's built-in styles (`format::agent_tools`) read as styles: shell
/// tools fold their output, plans show whole, and eve has none.
#[test]
fn the_agent_formats_built_in_styles_read_as_styles() {
    use crate::format::agent_tools::{RENDERED, default_config};
    use crate::format::detect::LineFormat;
    use crate::policy::style::{Parameters, ResultSetting};

    let config = default_config(LineFormat::ClaudeCode).expect("a config");
    let policy = TurnPolicy::new(&config, &Default::default());
    let bash = policy.tool_style("Bash");
    assert_eq!(bash.parameters, Parameters::Custom(RENDERED.into()));
    assert_eq!(bash.inline_results.user, ResultSetting::Lines(8));
    assert_eq!(
        policy.tool_style("TodoWrite").inline_results.user,
        ResultSetting::Full
    );
    assert!(default_config(LineFormat::Eve).is_none());
}
