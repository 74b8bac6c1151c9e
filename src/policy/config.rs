//! Effective configuration at a point in a conversation: the base config merged
//! with the `config_delta`s before that point, the way JP merges partial configs
//! (jp-format §4.4).
//!
//! This works on `serde_json::Value` so that it needs no other module; it does
//! not read files and knows nothing of legacy generations (that is `format`'s job).

use serde_json::Value;

use super::style::{ERROR_VALUE_KEYS, STYLE_VALUE_KEYS};

/// Merges a `config_delta` into `base`, as JP's `PartialConfig::merge` does.
///
/// * Objects merge recursively, key by key; keys new to `base` are appended (in
///   the delta's order).
/// * `null` in the delta means "not set" (JP's partial config deserializes it to
///   `None`): the base value stays.
/// * Any other value replaces — including the single values of a tool style
///   (`conversation.tools.<name>.style.{hidden, header, parameters,
///   inline_results, results_file_link}` and `….style.error.{inline_results,
///   results_file_link}`), whose object forms (`{"truncate":…}`, `{"user":…}`,
///   `{"program":…}`) are one value in JP and are never mixed key by key.
/// * A delta that is not an object is ignored (JP treats an invalid delta as empty).
///
/// So a delta naming `conversation.tools.X.style.inline_results` changes only that
/// field of X's stored style. That a tool's own style replaces the `"*"` style as a
/// whole is a rule of lookup ([`super::TurnPolicy`]), not of merging.
pub fn merge_config(base: &mut Value, delta: &Value) {
    if !delta.is_object() {
        return;
    }
    let mut path = Vec::new();
    merge_at(base, delta, &mut path);
}

/// Folds `deltas` (in order) into a copy of `base`: the configuration in force
/// after the last of them.
#[cfg(any(test, feature = "internals"))]
pub fn effective_config<'a, I>(base: &Value, deltas: I) -> Value
where
    I: IntoIterator<Item = &'a Value>,
{
    let mut config = if base.is_object() {
        base.clone()
    } else {
        Value::Object(serde_json::Map::new())
    };
    for delta in deltas {
        merge_config(&mut config, delta);
    }
    config
}

/// Recursive step; `path` holds the keys from the root to `base`.
fn merge_at<'d>(base: &mut Value, delta: &'d Value, path: &mut Vec<&'d str>) {
    let (Value::Object(target), Value::Object(changes)) = (&mut *base, delta) else {
        if !delta.is_null() {
            *base = delta.clone();
        }
        return;
    };
    for (key, change) in changes {
        if change.is_null() {
            continue;
        }
        path.push(key);
        match target.get_mut(key.as_str()) {
            Some(existing) if !is_single_value(path) => merge_at(existing, change, path),
            Some(existing) => *existing = change.clone(),
            None => {
                target.insert(key.clone(), change.clone());
            }
        }
        path.pop();
    }
}

/// Whether `path` names a style value that replaces rather than merges.
fn is_single_value(path: &[&str]) -> bool {
    match path {
        ["conversation", "tools", _, "style", key] => STYLE_VALUE_KEYS.contains(key),
        ["conversation", "tools", _, "style", "error", key] => ERROR_VALUE_KEYS.contains(key),
        _ => false,
    }
}

#[cfg(test)]
mod tests;
