use serde_json::json;

use super::*;
use crate::policy::style::{ErrorStyle, InlineResults, LinkStyle, ResultSetting, ToolStyle};

fn style(inline_results: serde_json::Value) -> ToolStyle {
    ToolStyle::parse(&json!({ "inline_results": inline_results }), "t").unwrap()
}

#[test]
fn audience_from_annotation() {
    assert_eq!(Audience::from_names(["user"]), Audience::User);
    assert_eq!(Audience::from_names(["assistant"]), Audience::Assistant);
    assert_eq!(Audience::from_names(["user", "assistant"]), Audience::Both);
    assert_eq!(Audience::from_names(["assistant", "user"]), Audience::Both);
    assert_eq!(Audience::from_names(Vec::<&str>::new()), Audience::Both);
    assert_eq!(Audience::from_names(["system"]), Audience::Both);
    assert_eq!(Audience::from_names(["user", "system"]), Audience::User);
}

/// The normative table of display-policy §3.2 (RFD 094), for an unannotated block.
#[test]
fn rfd_094_normative_table_for_unannotated_blocks() {
    let rows = [
        (
            json!({"user": "off", "assistant": "off"}),
            BlockDisplay::Hidden,
        ),
        (
            json!({"user": 10, "assistant": "off"}),
            BlockDisplay::Lines(10),
        ),
        (json!({"user": 5, "assistant": 10}), BlockDisplay::Lines(10)),
        (json!({"user": "full", "assistant": 10}), BlockDisplay::Full),
        (
            json!({"user": "chat", "assistant": "off"}),
            BlockDisplay::Full,
        ),
        (json!({"assistant": "off"}), BlockDisplay::Lines(10)),
    ];
    for (value, expected) in rows {
        assert_eq!(
            style(value.clone()).block_display(Audience::Both, false),
            expected,
            "{value}"
        );
    }
}

#[test]
fn more_permissive_rule_is_symmetric() {
    let s = style(json!({"user": 3, "assistant": "full"}));
    assert_eq!(s.block_display(Audience::Both, false), BlockDisplay::Full);
    let s = style(json!({"user": 30, "assistant": 4}));
    assert_eq!(
        s.block_display(Audience::Both, false),
        BlockDisplay::Lines(30)
    );
    let s = style(json!({"user": "off", "assistant": 4}));
    assert_eq!(
        s.block_display(Audience::Both, false),
        BlockDisplay::Lines(4)
    );
}

#[test]
fn user_ten_assistant_off_truncates_user_blocks_and_hides_assistant_blocks() {
    let s = style(json!({"user": 10, "assistant": "off"}));
    assert_eq!(
        s.block_display(Audience::User, false),
        BlockDisplay::Lines(10)
    );
    assert_eq!(
        s.block_display(Audience::Assistant, false),
        BlockDisplay::Hidden
    );
}

#[test]
fn user_chat_renders_user_blocks_as_speech_and_unannotated_as_result_display() {
    let s = style(json!({"user": "chat"}));
    assert_eq!(s.block_display(Audience::User, false), BlockDisplay::Speech);
    assert_eq!(s.block_display(Audience::Both, false), BlockDisplay::Full);
    assert_eq!(
        s.block_display(Audience::Assistant, false),
        BlockDisplay::Lines(10)
    );
}

#[test]
fn scalar_forms_apply_to_every_audience() {
    for audience in [Audience::User, Audience::Assistant, Audience::Both] {
        assert_eq!(
            style(json!("off")).block_display(audience, false),
            BlockDisplay::Hidden
        );
        assert_eq!(
            style(json!(3)).block_display(audience, false),
            BlockDisplay::Lines(3)
        );
        assert_eq!(
            style(json!(true)).block_display(audience, false),
            BlockDisplay::Full
        );
        assert_eq!(
            ToolStyle::default().block_display(audience, false),
            BlockDisplay::Lines(10)
        );
    }
}

#[test]
fn error_overlay_applies_only_to_error_results() {
    let s = ToolStyle::parse(
        &json!({
            "inline_results": "off",
            "results_file_link": "off",
            "error": {"inline_results": "full", "results_file_link": "osc8"}
        }),
        "t",
    )
    .unwrap();
    assert_eq!(s.block_display(Audience::Both, false), BlockDisplay::Hidden);
    assert_eq!(s.block_display(Audience::Both, true), BlockDisplay::Full);
    assert_eq!(s.file_link(false), LinkStyle::Off);
    assert_eq!(s.file_link(true), LinkStyle::Osc8);
}

#[test]
fn unset_error_overlay_keeps_top_level_values() {
    let s = ToolStyle::parse(
        &json!({"inline_results": 4, "error": {"results_file_link": "off"}}),
        "t",
    )
    .unwrap();
    assert_eq!(
        s.block_display(Audience::Both, true),
        BlockDisplay::Lines(4)
    );
    assert_eq!(s.file_link(true), LinkStyle::Off);
    assert_eq!(s.file_link(false), LinkStyle::Full);
}

#[test]
fn error_overlay_audience_map_replaces_the_whole_setting() {
    let s = ToolStyle {
        error: ErrorStyle {
            inline_results: Some(InlineResults {
                user: ResultSetting::Off,
                assistant: ResultSetting::Full,
            }),
            results_file_link: None,
        },
        ..style(json!({"user": "chat", "assistant": "off"}))
    };
    assert_eq!(s.block_display(Audience::User, true), BlockDisplay::Hidden);
    assert_eq!(
        s.block_display(Audience::Assistant, true),
        BlockDisplay::Full
    );
    assert_eq!(s.block_display(Audience::User, false), BlockDisplay::Speech);
}

#[test]
fn hidden_hides_every_block_including_user_speech_and_the_link() {
    let s = ToolStyle {
        hidden: true,
        ..style(json!({"user": "chat", "assistant": "full"}))
    };
    for audience in [Audience::User, Audience::Assistant, Audience::Both] {
        for is_error in [false, true] {
            assert_eq!(s.block_display(audience, is_error), BlockDisplay::Hidden);
        }
    }
    assert_eq!(s.file_link(false), LinkStyle::Off);
    assert!(!s.header_shown());
    assert!(ToolStyle::default().header_shown());
}

#[test]
fn zero_lines_is_off() {
    let s = ToolStyle {
        inline_results: InlineResults::both(ResultSetting::Lines(0)),
        ..ToolStyle::default()
    };
    assert_eq!(s.block_display(Audience::Both, false), BlockDisplay::Hidden);
    let s = ToolStyle {
        inline_results: InlineResults {
            user: ResultSetting::Lines(0),
            assistant: ResultSetting::Lines(2),
        },
        ..ToolStyle::default()
    };
    assert_eq!(
        s.block_display(Audience::Both, false),
        BlockDisplay::Lines(2)
    );
}
