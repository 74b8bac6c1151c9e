//! The price table: US dollars per million tokens for each model, built in
//! (`prices.toml`) and overridden by the user configuration's `[prices]`.

use std::collections::HashMap;

use serde::Deserialize;
#[cfg(feature = "cli")]
use serde_json::Value;

/// The built-in table, with its source, date and licence in its comments.
const BUILTIN: &str = include_str!("prices.toml");

/// What a model costs, in US dollars per million tokens.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Price {
    /// Input tokens not read from or written to the prompt cache.
    pub input: f64,
    /// Output tokens (reasoning included).
    pub output: f64,
    /// Input tokens read from the prompt cache; `input` when absent.
    #[serde(default)]
    pub cache_read: Option<f64>,
    /// Input tokens written to the prompt cache; `input` when absent.
    #[serde(default)]
    pub cache_write: Option<f64>,
}

/// The built-in file's shape (its `source` and `date` are for its readers).
#[derive(Deserialize)]
struct Builtin {
    models: HashMap<String, Price>,
}

/// Prices by model id.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Prices {
    models: HashMap<String, Price>,
}

/// A `[prices]` table of the user configuration that cannot be used: the
/// message names the file and the key.
#[cfg(feature = "cli")]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {key}: {problem}")]
pub struct PriceError {
    /// The configuration file.
    pub file: String,
    /// The key path, `prices."gpt-5".input`.
    pub key: String,
    /// What is wrong with it.
    pub problem: String,
}

/// The provider prefixes a model id may carry (`anthropic/claude-…`,
/// Gemini's `models/gemini-…`), dropped when the id itself is not priced.
const PREFIXES: &[&str] = &[
    "anthropic/",
    "openai/",
    "google/",
    "gemini/",
    "models/",
    "vertex_ai/",
    "azure/",
    "bedrock/",
];

impl Prices {
    /// The built-in table (`src/usage/prices.toml`).
    pub fn builtin() -> Prices {
        let table: Builtin = toml::from_str(BUILTIN).expect("src/usage/prices.toml is valid");
        Prices {
            models: table.models,
        }
    }

    /// The price of `model`: its exact id, else the id normalised — provider
    /// prefixes dropped (`anthropic/`, `models/`, …), a date suffix dropped
    /// (`-20250929`, `-2025-08-07`), and a Claude version written with dots
    /// (`claude-sonnet-4.5`, as Copilot CLI names it) written with dashes.
    pub fn of(&self, model: &str) -> Option<Price> {
        if let Some(price) = self.models.get(model) {
            return Some(*price);
        }
        let mut id = model.trim();
        while let Some(rest) = PREFIXES.iter().find_map(|p| id.strip_prefix(p)) {
            id = rest;
        }
        let id = without_date(id);
        let id = if id.starts_with("claude-") {
            id.replace('.', "-")
        } else {
            id.to_owned()
        };
        self.models.get(&id).copied()
    }

    /// This table with the user configuration's `[prices]` table over it:
    /// each key a model id, each value a table of `input`, `output`,
    /// `cache_read`, `cache_write` (dollars per million tokens, not
    /// negative). A model the table prices keeps the keys not given; a new
    /// model needs `input` and `output`.
    #[cfg(feature = "cli")]
    pub fn with_overrides(mut self, table: &Value, file: &str) -> Result<Prices, PriceError> {
        let error = |key: String, problem: String| PriceError {
            file: file.to_owned(),
            key,
            problem,
        };
        let Value::Object(models) = table else {
            return Err(error(
                "prices".into(),
                format!("{table} is not a table (expected [prices.\"MODEL\"] tables)"),
            ));
        };
        for (model, fields) in models {
            let place = format!("prices.{}", quoted(model));
            let Value::Object(fields) = fields else {
                return Err(error(
                    place,
                    format!("{fields} is not a table (expected input = 3.0, output = 15.0, …)"),
                ));
            };
            // NaN: not given yet (a model of its own needs input and output).
            let mut price = self.models.get(model).copied().unwrap_or(Price {
                input: f64::NAN,
                output: f64::NAN,
                cache_read: None,
                cache_write: None,
            });
            for (key, value) in fields {
                let number = value
                    .as_f64()
                    .filter(|n| n.is_finite() && *n >= 0.0)
                    .ok_or_else(|| {
                        error(
                            format!("{place}.{key}"),
                            format!(
                                "{value} is not a price (expected dollars per million tokens, a number not below 0)"
                            ),
                        )
                    })?;
                match key.as_str() {
                    "input" => price.input = number,
                    "output" => price.output = number,
                    "cache_read" => price.cache_read = Some(number),
                    "cache_write" => price.cache_write = Some(number),
                    _ => {
                        return Err(error(
                            format!("{place}.{key}"),
                            "no such key (expected input, output, cache_read or cache_write)"
                                .into(),
                        ));
                    }
                }
            }
            for (name, value) in [("input", price.input), ("output", price.output)] {
                if value.is_nan() {
                    return Err(error(
                        place.clone(),
                        format!("{name} is missing (a model not in the built-in table needs input and output)"),
                    ));
                }
            }
            self.models.insert(model.clone(), price);
        }
        Ok(self)
    }
}

/// A model id as a TOML key: bare when it can be, else quoted.
#[cfg(feature = "cli")]
fn quoted(model: &str) -> String {
    let bare = !model.is_empty()
        && model
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if bare {
        model.to_owned()
    } else {
        format!("{model:?}")
    }
}

/// `id` without a date suffix: `-20250929` or `-2025-08-07`.
fn without_date(id: &str) -> &str {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if let Some((stem, date)) = id.rsplit_once('-')
        && date.len() == 8
        && digits(date)
    {
        return stem;
    }
    let parts: Vec<&str> = id.rsplitn(4, '-').collect();
    if let [day, month, year, stem] = parts[..]
        && year.len() == 4
        && month.len() == 2
        && day.len() == 2
        && [year, month, day].into_iter().all(digits)
    {
        return stem;
    }
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_table_says_where_its_prices_come_from() {
        let table: toml::Table = toml::from_str(BUILTIN).unwrap();
        assert!(table["source"].as_str().unwrap().contains("LiteLLM"));
        assert!(table["date"].as_str().is_some());
        assert!(BUILTIN.contains("MIT License") && BUILTIN.contains("Berri AI"));
    }

    #[test]
    fn the_builtin_table_prices_the_common_models() {
        let prices = Prices::builtin();
        let sonnet = prices.of("claude-sonnet-4-5").expect("priced");
        assert_eq!((sonnet.input, sonnet.output), (3.0, 15.0));
        assert_eq!((sonnet.cache_read, sonnet.cache_write), (Some(0.3), Some(3.75)));
        assert!(prices.of("gpt-5-codex").is_some());
        assert!(prices.of("gemini-2.5-pro").is_some());
        assert!(prices.of("qwen3:0.6b").is_none());
    }

    #[test]
    fn ids_are_normalised_when_not_found_as_written() {
        let prices = Prices::builtin();
        let sonnet = prices.of("claude-sonnet-4-5");
        assert_eq!(prices.of("claude-sonnet-4-5-20250929"), sonnet);
        assert_eq!(prices.of("anthropic/claude-sonnet-4-5"), sonnet);
        assert_eq!(prices.of("claude-sonnet-4.5"), sonnet);
        assert_eq!(prices.of("models/gemini-2.5-pro"), prices.of("gemini-2.5-pro"));
        assert_eq!(prices.of("gpt-5-mini-2025-08-07"), prices.of("gpt-5-mini"));
        // A dated id with a price of its own keeps it.
        assert_ne!(prices.of("gpt-4o-2024-05-13"), prices.of("gpt-4o"));
        // gpt-4.1's dot is part of its name.
        assert_eq!(prices.of("gpt-4.1").map(|p| p.input), Some(2.0));
    }

    #[cfg(feature = "cli")]
    #[test]
    fn overrides_change_a_price_and_add_a_model() {
        use serde_json::json;
        let table = json!({
            "claude-sonnet-4-5": {"input": 1.0},
            "qwen3:0.6b": {"input": 0.1, "output": 0.2},
        });
        let prices = Prices::builtin().with_overrides(&table, "c.toml").unwrap();
        let sonnet = prices.of("claude-sonnet-4-5").unwrap();
        assert_eq!((sonnet.input, sonnet.output), (1.0, 15.0));
        assert_eq!(prices.of("qwen3:0.6b").map(|p| p.output), Some(0.2));
    }

    #[cfg(feature = "cli")]
    #[test]
    fn a_bad_override_names_the_file_and_the_key() {
        use serde_json::json;
        let bad = |table: Value| {
            Prices::builtin()
                .with_overrides(&table, "/c/config.toml")
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            bad(json!({"gpt-5": {"input": "cheap"}})),
            "/c/config.toml: prices.gpt-5.input: \"cheap\" is not a price (expected dollars per million tokens, a number not below 0)"
        );
        assert!(bad(json!({"gpt-5": {"input": -1}})).contains("prices.gpt-5.input: -1"));
        assert!(bad(json!({"gpt-5": {"inptu": 1}})).contains("prices.gpt-5.inptu: no such key"));
        assert!(
            bad(json!({"my.model": {"input": 1}}))
                .contains("prices.\"my.model\": output is missing")
        );
        assert!(bad(json!({"gpt-5": 3})).contains("prices.gpt-5: 3 is not a table"));
        assert!(bad(json!(3)).contains("prices: 3 is not a table"));
    }
}
