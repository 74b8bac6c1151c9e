//! Tool-style parsing on arbitrary values, and the viewer's overlay on arbitrary text.
//!
//! The input is read as JSON (else as one JSON string) and handed to every style
//! parser, both as a style and placed at every configuration path a conversation
//! can hold it; the same bytes as text are applied line by line as `--set`
//! assignments and read as a TOML configuration. Every message built from
//! conversation data must be free of control characters (it reaches the terminal).

#![no_main]

use libfuzzer_sys::fuzz_target;
use overhear::policy::{
    self, Audience, InlineResults, LinkStyle, Overlay, Parameters, PartialToolStyle,
    ReasoningDisplay, Strictness, StyleError, ToolStyle, TurnPolicy,
};
use serde_json::{Value, json};

const TOOLS: [&str; 4] = ["*", "tell_user", "fs_read_file", "a.b\u{1b}[31m"];

fuzz_target!(|data: &[u8]| {
    let value: Value = serde_json::from_slice(data)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(data).into_owned()));
    let text = String::from_utf8_lossy(data);

    for tool in TOOLS {
        if let Err(err) = ToolStyle::parse(&value, tool) {
            check(&err);
        }
    }
    for strictness in [Strictness::Lenient, Strictness::Strict] {
        let (_, errors) = PartialToolStyle::parse(&value, "p", strictness);
        errors.iter().for_each(check);
    }
    if let Err(err) = InlineResults::from_value(&value, "p") {
        check(&err);
    }
    if let Err(err) = Parameters::from_value(&value, "p") {
        check(&err);
    }
    if let Err(err) = LinkStyle::from_value(&value, "p") {
        check(&err);
    }
    if let Err(err) = policy::style::parse_header(&value, "p") {
        check(&err);
    }
    if let Err(err) = policy::style::parse_hidden(&value, "p") {
        check(&err);
    }
    if let (_, Some(err)) = ReasoningDisplay::from_value(&value, "p") {
        check(&err);
    }

    let configs = [
        value.clone(),
        json!({"conversation": {"tools": {"*": {"style": value}, "x": {"style": value}}}}),
        json!({"conversation": {"tools": value}, "style": {"reasoning": {"display": value},
              "tool_call": {"show": value}}}),
    ];
    let mut overlay = Overlay::default();
    for line in text.lines() {
        let _ = overlay.set(line);
    }
    let from_toml = Overlay::from_toml_str(&text, "fuzz.toml").unwrap_or_default();
    for config in &configs {
        let mut merged = config.clone();
        policy::merge_config(&mut merged, &value);
        let effective = policy::effective_config(config, [&value, config]);
        for overlay in [&Overlay::default(), &overlay, &from_toml] {
            for config in [config, &merged, &effective] {
                use_policy(&TurnPolicy::new(config, overlay));
            }
        }
    }
});

fn use_policy(policy: &TurnPolicy) {
    policy.warnings().iter().for_each(check);
    for tool in TOOLS.iter().chain(["x", "send_channel_update", "other"].iter()) {
        let style = policy.tool_style(tool);
        for is_error in [false, true] {
            for audience in [Audience::User, Audience::Assistant, Audience::Both] {
                let _ = style.block_display(audience, is_error);
            }
            let _ = style.file_link(is_error);
        }
        let _ = style.header_shown();
    }
    let _ = (policy.reasoning(), policy.tool_calls_shown());
}

fn check(err: &StyleError) {
    let line = err.to_string();
    assert!(
        !line.chars().any(char::is_control),
        "control character in a style error: {line:?}"
    );
}
