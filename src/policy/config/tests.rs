use serde_json::json;

use super::*;

#[test]
fn objects_merge_key_by_key_and_new_keys_are_appended() {
    let mut base = json!({"a": {"x": 1, "y": 2}, "b": 1});
    merge_config(&mut base, &json!({"a": {"y": 3, "z": 4}, "c": [1]}));
    assert_eq!(
        base,
        json!({"a": {"x": 1, "y": 3, "z": 4}, "b": 1, "c": [1]})
    );
    let keys: Vec<&String> = base["a"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["x", "y", "z"]);
    let keys: Vec<&String> = base.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["a", "b", "c"]);
}

#[test]
fn non_object_values_replace_and_null_keeps_the_base() {
    let mut base = json!({"a": [1, 2], "b": {"x": 1}, "c": "keep"});
    merge_config(&mut base, &json!({"a": [3], "b": 5, "c": null}));
    assert_eq!(base, json!({"a": [3], "b": 5, "c": "keep"}));
}

#[test]
fn an_invalid_delta_changes_nothing() {
    let mut base = json!({"a": 1});
    merge_config(&mut base, &json!("garbage"));
    merge_config(&mut base, &json!(null));
    assert_eq!(base, json!({"a": 1}));
}

#[test]
fn a_delta_naming_one_style_field_merges_into_the_tool_style_field_wise() {
    let mut base = json!({"conversation": {"tools": {
        "git_add_intent": {"enable": true, "style": {"hidden": false, "inline_results": "off", "results_file_link": "osc8", "parameters": "json"}}
    }}});
    merge_config(
        &mut base,
        &json!({"conversation": {"tools": {"git_add_intent": {"style": {"inline_results": "full"}}}}}),
    );
    assert_eq!(
        base["conversation"]["tools"]["git_add_intent"],
        json!({"enable": true, "style": {"hidden": false, "inline_results": "full", "results_file_link": "osc8", "parameters": "json"}})
    );
}

#[test]
fn style_values_with_object_forms_replace_instead_of_mixing() {
    let mut base = json!({"conversation": {"tools": {"x": {"style": {
        "inline_results": {"truncate": {"lines": 10}},
        "parameters": {"program": "fmt", "args": ["a"]},
        "error": {"inline_results": {"user": "full", "assistant": 3}}
    }}}}});
    merge_config(
        &mut base,
        &json!({"conversation": {"tools": {"x": {"style": {
            "inline_results": {"user": "chat"},
            "parameters": {"program": "other"},
            "error": {"inline_results": {"truncate": {"lines": 2}}}
        }}}}}),
    );
    assert_eq!(
        base["conversation"]["tools"]["x"]["style"],
        json!({
            "inline_results": {"user": "chat"},
            "parameters": {"program": "other"},
            "error": {"inline_results": {"truncate": {"lines": 2}}}
        })
    );
}

#[test]
fn a_new_tool_in_a_delta_is_added_and_star_is_merged_field_wise() {
    let mut base = json!({"conversation": {"tools": {"*": {"style": {"inline_results": "off", "results_file_link": "osc8"}}}}});
    merge_config(
        &mut base,
        &json!({"conversation": {"tools": {
            "*": {"style": {"results_file_link": "off"}},
            "git_list_patches": {"enable": true, "style": {"inline_results": "off"}}
        }}}),
    );
    assert_eq!(
        base,
        json!({"conversation": {"tools": {
            "*": {"style": {"inline_results": "off", "results_file_link": "off"}},
            "git_list_patches": {"enable": true, "style": {"inline_results": "off"}}
        }}})
    );
}

#[test]
fn effective_config_folds_deltas_in_order_and_leaves_the_base_alone() {
    let base = json!({"style": {"reasoning": {"display": "full"}}});
    let deltas = [
        json!({"style": {"reasoning": {"display": "hidden"}}}),
        json!({"style": {"tool_call": {"show": false}}}),
        json!({"style": {"reasoning": {"display": 40}}}),
    ];
    let config = effective_config(&base, &deltas);
    assert_eq!(
        config,
        json!({"style": {"reasoning": {"display": 40}, "tool_call": {"show": false}}})
    );
    assert_eq!(base, json!({"style": {"reasoning": {"display": "full"}}}));
    assert_eq!(
        effective_config(&json!(null), &deltas[..1]),
        json!({"style": {"reasoning": {"display": "hidden"}}})
    );
}
