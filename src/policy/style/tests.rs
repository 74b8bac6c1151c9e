use serde_json::{Value, json};

use super::*;

const P: &str = "conversation.tools.fs_read_file.style.inline_results";

fn inline(value: Value) -> Result<InlineResults, StyleError> {
    InlineResults::from_value(&value, P)
}

fn both(setting: ResultSetting) -> InlineResults {
    InlineResults::both(setting)
}

#[test]
fn every_scalar_inline_results_form_parses() {
    use ResultSetting::*;
    let cases = [
        (json!("off"), both(Off)),
        (json!("full"), both(Full)),
        (json!(false), both(Off)),
        (json!(true), both(Full)),
        (json!(25), both(Lines(25))),
        (json!(0), both(Off)),
        (json!("7"), both(Lines(7))),
        (json!("0"), both(Off)),
        (json!({"truncate": {"lines": 3}}), both(Lines(3))),
        (json!({"truncate": {"lines": 10}}), both(Lines(10))),
    ];
    for (value, expected) in cases {
        assert_eq!(inline(value.clone()).unwrap(), expected, "{value}");
    }
}

#[test]
fn audience_map_forms_parse_and_omitted_keys_default_to_ten_lines() {
    use ResultSetting::*;
    let cases = [
        (json!({"user": "chat", "assistant": "off"}), Chat, Off),
        (json!({"user": 10, "assistant": "off"}), Lines(10), Off),
        (json!({"user": "chat"}), Chat, Lines(10)),
        (json!({"assistant": "full"}), Lines(10), Full),
        (json!({"user": true, "assistant": false}), Full, Off),
        (
            json!({"user": "5", "assistant": {"truncate": {"lines": 2}}}),
            Lines(5),
            Lines(2),
        ),
        (json!({}), Lines(10), Lines(10)),
    ];
    for (value, user, assistant) in cases {
        assert_eq!(
            inline(value.clone()).unwrap(),
            InlineResults { user, assistant },
            "{value}"
        );
    }
}

#[test]
fn rejected_inline_results_forms_name_key_and_value() {
    let cases = [
        (
            json!({"user": "chat", "assistant": "chat"}),
            format!("{P}.assistant: \"chat\" is only valid for user"),
        ),
        (
            json!("chat"),
            format!("{P}: \"chat\" is only valid for user"),
        ),
        (
            json!(-3),
            format!("{P}: -3 is not a valid line count (it is negative)"),
        ),
        (
            json!("-3"),
            format!("{P}: \"-3\" is not an inline_results value"),
        ),
        (
            json!("abc"),
            format!("{P}: \"abc\" is not an inline_results value"),
        ),
        (
            json!(2.5),
            format!("{P}: 2.5 is not a valid line count (it is not a whole number)"),
        ),
        (
            json!({"truncate": {}}),
            format!("{P}: {{\"truncate\":{{}}}} is not a valid truncation"),
        ),
        (
            json!({"truncate": {"lines": -1}}),
            format!("{P}: {{\"truncate\":{{\"lines\":-1}}}} is not a valid truncation"),
        ),
        (
            json!({"truncate": 5}),
            format!("{P}: {{\"truncate\":5}} is not a valid truncation"),
        ),
        (
            json!({"user": "full", "both": "off"}),
            format!("{P}: {{\"user\":\"full\",\"both\":\"off\"}} has unknown key both"),
        ),
        (
            json!({"user": -1}),
            format!("{P}.user: -1 is not a valid line count"),
        ),
        (
            json!([10]),
            format!("{P}: [10] is not an inline_results value"),
        ),
        (
            json!(" 10"),
            format!("{P}: \" 10\" is not an inline_results value"),
        ),
        (
            json!("Full"),
            format!("{P}: \"Full\" is not an inline_results value"),
        ),
    ];
    for (value, prefix) in cases {
        let err = inline(value.clone()).unwrap_err().to_string();
        assert!(
            err.starts_with(&prefix),
            "{value}: got {err:?}, want prefix {prefix:?}"
        );
    }
}

#[test]
fn results_file_link_forms() {
    let p = "x.results_file_link";
    for (value, expected) in [
        (json!("full"), LinkStyle::Full),
        (json!("osc8"), LinkStyle::Osc8),
        (json!("off"), LinkStyle::Off),
        (json!(true), LinkStyle::Full),
        (json!(false), LinkStyle::Off),
    ] {
        assert_eq!(
            LinkStyle::from_value(&value, p).unwrap(),
            expected,
            "{value}"
        );
    }
    for value in [json!("OSC8"), json!(1), json!(null), json!({"full": true})] {
        let err = LinkStyle::from_value(&value, p).unwrap_err();
        assert_eq!(err.path, p);
        assert!(
            err.to_string().contains("is not a results_file_link value"),
            "{err}"
        );
    }
}

#[test]
fn parameters_forms() {
    let p = "x.parameters";
    for (value, expected) in [
        (json!("json"), Parameters::Json),
        (json!("function_call"), Parameters::FunctionCall),
        (json!("off"), Parameters::Off),
        (
            json!("just serve-tools {{context}} {{tool}}"),
            Parameters::Custom("just serve-tools {{context}} {{tool}}".into()),
        ),
        (json!({"program": "fmt"}), Parameters::Custom("fmt".into())),
        (
            json!({"program": "just", "args": ["serve-tools", "{{tool}}"], "shell": false}),
            Parameters::Custom("just serve-tools {{tool}}".into()),
        ),
    ] {
        assert_eq!(
            Parameters::from_value(&value, p).unwrap(),
            expected,
            "{value}"
        );
    }
    for (value, problem) in [
        (json!(""), "is not a parameters value"),
        (json!(true), "is not a parameters value"),
        (json!({"args": ["a"]}), "program must be a non-empty string"),
        (
            json!({"program": "x", "args": "a"}),
            "args must be an array of strings",
        ),
        (json!({"program": "x", "args": [1]}), "args must be strings"),
        (
            json!({"program": "x", "shell": "yes"}),
            "shell must be true or false",
        ),
        (
            json!({"program": "x", "env": {}}),
            "takes only program, args and shell",
        ),
    ] {
        let err = Parameters::from_value(&value, p).unwrap_err().to_string();
        assert!(
            err.starts_with("x.parameters: ") && err.contains(problem),
            "{value}: {err}"
        );
    }
}

#[test]
fn header_and_hidden_forms() {
    let p = "x.header";
    assert!(parse_header(&json!(true), p).unwrap());
    assert!(!parse_header(&json!(false), p).unwrap());
    assert!(parse_header(&json!("on"), p).unwrap());
    assert!(!parse_header(&json!("off"), p).unwrap());
    for value in [json!("yes"), json!(1), json!("true")] {
        let err = parse_header(&value, p).unwrap_err().to_string();
        assert!(
            err.starts_with("x.header: ") && err.contains("is not a header value"),
            "{err}"
        );
    }
    assert!(parse_hidden(&json!(true), "x.hidden").unwrap());
    assert!(!parse_hidden(&json!(false), "x.hidden").unwrap());
    let err = parse_hidden(&json!("off"), "x.hidden").unwrap_err();
    assert_eq!(
        err.to_string(),
        "x.hidden: \"off\" is not a boolean (expected true or false)"
    );
}

#[test]
fn defaults_are_the_built_in_ones_of_section_3() {
    let style = ToolStyle::default();
    assert!(!style.hidden);
    assert!(style.header);
    assert_eq!(style.parameters, Parameters::Json);
    assert_eq!(style.inline_results, both(ResultSetting::Lines(10)));
    assert_eq!(style.results_file_link, LinkStyle::Full);
    assert_eq!(style.error, ErrorStyle::default());
}

#[test]
fn a_whole_style_object_parses_and_fields_left_out_take_defaults() {
    let style = ToolStyle::parse(
        &json!({
            "hidden": false,
            "header": "off",
            "inline_results": {"user": "chat", "assistant": "off"},
            "error": {"inline_results": "full", "results_file_link": false},
            "future_key": 1
        }),
        "tell_user",
    )
    .unwrap();
    assert!(!style.header);
    assert_eq!(style.parameters, Parameters::Json);
    assert_eq!(style.results_file_link, LinkStyle::Full);
    assert_eq!(style.inline_results.user, ResultSetting::Chat);
    assert_eq!(style.error.inline_results, Some(both(ResultSetting::Full)));
    assert_eq!(style.error.results_file_link, Some(LinkStyle::Off));
}

#[test]
fn a_bad_field_falls_back_alone_and_is_reported_with_the_tool_name() {
    let (layer, errors) = PartialToolStyle::parse(
        &json!({"inline_results": {"assistant": "chat"}, "results_file_link": "off", "error": {"inline_results": "x"}}),
        "conversation.tools.fs_read_file.style",
        Strictness::Lenient,
    );
    assert_eq!(layer.inline_results, None);
    assert_eq!(layer.results_file_link, Some(LinkStyle::Off));
    assert_eq!(layer.error.inline_results, None);
    let messages: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        messages[0],
        "conversation.tools.fs_read_file.style.inline_results.assistant: \"chat\" is only valid for user"
    );
    assert!(
        messages[1]
            .starts_with("conversation.tools.fs_read_file.style.error.inline_results: \"x\"")
    );
    assert_eq!(messages.len(), 2);
}

#[test]
fn strict_parsing_rejects_unknown_keys_nulls_and_error_header() {
    let path = "conversation.tools.x.style";
    let strict = |value: Value| PartialToolStyle::parse(&value, path, Strictness::Strict).1;
    let lenient = |value: Value| PartialToolStyle::parse(&value, path, Strictness::Lenient).1;
    for value in [
        json!({"inline_result": "full"}),
        json!({"header": null}),
        json!({"error": {"header": "off"}}),
        json!({"error": {"hidden": true}}),
        json!("off"),
    ] {
        assert_eq!(strict(value.clone()).len(), 1, "{value}");
    }
    assert!(
        lenient(json!({"inline_result": "full", "header": null, "error": {"header": "off"}}))
            .is_empty()
    );
    let err = &strict(json!({"error": {"header": "off"}}))[0];
    assert_eq!(err.path, "conversation.tools.x.style.error.header");
    assert!(err.problem.contains("cannot be set in the error overlay"));
}

#[test]
fn merging_partials_replaces_only_named_fields() {
    let mut low = PartialToolStyle {
        header: Some(false),
        results_file_link: Some(LinkStyle::Osc8),
        error: ErrorStyle {
            results_file_link: Some(LinkStyle::Off),
            inline_results: None,
        },
        ..PartialToolStyle::default()
    };
    let high = PartialToolStyle {
        results_file_link: Some(LinkStyle::Full),
        error: ErrorStyle {
            inline_results: Some(both(ResultSetting::Full)),
            results_file_link: None,
        },
        ..PartialToolStyle::default()
    };
    low.merge_from(&high);
    assert_eq!(low.header, Some(false));
    assert_eq!(low.results_file_link, Some(LinkStyle::Full));
    assert_eq!(low.error.results_file_link, Some(LinkStyle::Off));
    assert_eq!(low.error.inline_results, Some(both(ResultSetting::Full)));
}
