//! How reasoning is shown (`style.reasoning.display`): read from the
//! configuration by [`super::turn`], overridden by the viewer's [`super::overlay`].

use serde_json::Value;

use super::error::StyleError;

/// How reasoning is shown (`style.reasoning.display`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReasoningDisplay {
    /// All of it (`"full"`, the default).
    #[default]
    Full,
    /// None of it (`"hidden"`).
    Hidden,
    /// The first N characters (a number N).
    Chars(usize),
    /// Collapsed to a one-line summary that can be expanded (any other value, e.g.
    /// JP's `summary`, `static`, `progress`, `timer`).
    Summary,
}

impl ReasoningDisplay {
    /// Reads a `style.reasoning.display` value. Any string other than `full` and
    /// `hidden` means [`ReasoningDisplay::Summary`]; a value that is neither a
    /// string nor a whole number ≥ 0 also collapses to `Summary` and comes back
    /// with an error to report.
    pub fn from_value(value: &Value, path: &str) -> (Self, Option<StyleError>) {
        match value {
            Value::String(s) if s == "full" => (ReasoningDisplay::Full, None),
            Value::String(s) if s == "hidden" => (ReasoningDisplay::Hidden, None),
            Value::String(s) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => {
                match s.parse() {
                    Ok(n) => (ReasoningDisplay::Chars(n), None),
                    Err(_) => (ReasoningDisplay::Summary, None),
                }
            }
            Value::String(_) => (ReasoningDisplay::Summary, None),
            Value::Number(n) => match n.as_u64().and_then(|n| usize::try_from(n).ok()) {
                Some(n) => (ReasoningDisplay::Chars(n), None),
                None => (
                    ReasoningDisplay::Summary,
                    Some(StyleError::new(
                        path,
                        value,
                        "is not a character count (expected a whole number ≥ 0); reasoning is collapsed",
                    )),
                ),
            },
            _ => (
                ReasoningDisplay::Summary,
                Some(StyleError::new(
                    path,
                    value,
                    "is not a reasoning display (expected \"full\", \"hidden\", a number or a name); \
                     reasoning is collapsed",
                )),
            ),
        }
    }
}
