//! A JSON value held as its compact text, for values a conversation may
//! hold by the hundred thousand that are read only now and then: a
//! `config_delta`'s change (merged once, when its turn comes; shown in the
//! raw view). A `serde_json::Value` of small nested objects costs about
//! thirty times its text (each object a map of its own), which broke the
//! memory rule (docs/hardening.md, "Bounded work") on a file made of such
//! changes.

use serde_json::Value;

/// A valid JSON value, kept as its compact text and parsed where it is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonText(Box<str>);

impl JsonText {
    /// The compact text of `value`.
    pub fn of(value: &Value) -> JsonText {
        JsonText(value.to_string().into_boxed_str())
    }

    /// The value, parsed again.
    pub fn value(&self) -> Value {
        // The text is `serde_json`'s own serialization of a value, which it
        // parses back to the same value; `null` is there for the type only.
        serde_json::from_str(&self.0).unwrap_or(Value::Null)
    }

    /// Changes the value with `change` (redaction) and keeps the text of
    /// what it made.
    pub fn change(&mut self, change: impl FnOnce(&mut Value)) {
        let mut value = self.value();
        change(&mut value);
        *self = JsonText::of(&value);
    }
}

impl From<Value> for JsonText {
    fn from(value: Value) -> Self {
        JsonText::of(&value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_value_comes_back_as_it_was_stored_in_order_and_number() {
        let value = json!({"z": {"b": 1, "a": [1.5, -2, 18446744073709551615u64, null]}, "a": "é\n\"x\""});
        let text = JsonText::of(&value);
        assert_eq!(text.value(), value);
        assert_eq!(
            text.value().to_string(),
            r#"{"z":{"b":1,"a":[1.5,-2,18446744073709551615,null]},"a":"é\n\"x\""}"#,
            "keys in stored order"
        );
    }

    #[test]
    fn a_change_is_kept_as_the_text_of_the_value_it_made() {
        let mut text = JsonText::of(&json!({"a": 1, "b": {"c": "secret"}}));
        text.change(|value| value["b"]["c"] = json!("[redacted]"));
        assert_eq!(text.value(), json!({"a": 1, "b": {"c": "[redacted]"}}));
    }
}
