//! The `[view]` table of the user configuration: the view choices the
//! viewer remembers (`r`: reasoning shown, folded or hidden; `z`: tool cards
//! folded) and whether it remembers them (docs/config.md, "Remembered view
//! choices").
//!
//! Read with the rest of the file at start; written by the viewer each time
//! a choice changes, by editing only these keys of the file as it is then
//! (`toml_edit` keeps every comment, blank line and key order), through
//! `files::write` (atomic, never through a link). A file that is no longer
//! TOML is left as it is.

use std::path::Path;

use serde_json::Value;
use toml_edit::{DocumentMut, Item, Table, value};

use crate::files::write::{OwnSettingError, read_own_setting, replace_own_setting};
use crate::tui::fold::ReasoningMode;
use crate::tui::view_prefs::{SaveChoices, ViewChoices, ViewStart};

/// What the `[view]` table says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ViewConfig {
    /// `reasoning`: `"shown"`, `"folded"` or `"hidden"`.
    pub reasoning: Option<ReasoningMode>,
    /// `tool_cards`: `"folded"` (`true`) or `"unfolded"`.
    pub cards_folded: Option<bool>,
    /// `remember`: whether the viewer writes its choices here (default yes).
    pub remember: bool,
}

impl Default for ViewConfig {
    fn default() -> ViewConfig {
        ViewConfig {
            reasoning: None,
            cards_folded: None,
            remember: true,
        }
    }
}

/// A `[view]` key or value that is wrong; the message names the file and
/// the key.
#[derive(Debug, thiserror::Error)]
#[error("{file}: view{key}: {value} {problem}")]
pub struct ViewConfigError {
    file: String,
    /// `.reasoning`, or empty for the table itself.
    key: String,
    /// The value as written, in JSON.
    value: String,
    problem: &'static str,
}

/// The `tool_cards` values, folded first.
const CARDS: [&str; 2] = ["folded", "unfolded"];

impl ViewConfig {
    /// The `[view]` table's value (`file`: the configuration's name, for errors).
    pub fn from_value(table: Value, file: &str) -> Result<ViewConfig, ViewConfigError> {
        let wrong = |key: &str, value: &Value, problem| ViewConfigError {
            file: file.to_owned(),
            key: if key.is_empty() {
                String::new()
            } else {
                format!(".{key}")
            },
            value: value.to_string(),
            problem,
        };
        let Value::Object(table) = table else {
            return Err(wrong("", &table, "is not a table (expected [view])"));
        };
        let mut config = ViewConfig::default();
        for (key, item) in &table {
            match (key.as_str(), item) {
                ("reasoning", Value::String(name)) if ReasoningMode::from_name(name).is_some() => {
                    config.reasoning = ReasoningMode::from_name(name);
                }
                ("reasoning", _) => {
                    return Err(wrong(
                        key,
                        item,
                        "is not a reasoning mode (expected \"shown\", \"folded\" or \"hidden\")",
                    ));
                }
                ("tool_cards", Value::String(name)) if CARDS.contains(&name.as_str()) => {
                    config.cards_folded = Some(name == CARDS[0]);
                }
                ("tool_cards", _) => {
                    return Err(wrong(
                        key,
                        item,
                        "is not how tool cards are shown (expected \"folded\" or \"unfolded\")",
                    ));
                }
                ("remember", Value::Bool(on)) => config.remember = *on,
                ("remember", _) => return Err(wrong(key, item, "is not true or false")),
                _ => {
                    return Err(wrong(
                        key,
                        item,
                        "is not a view key (expected reasoning, tool_cards or remember)",
                    ));
                }
            }
        }
        Ok(config)
    }

    /// How the viewer starts: `flags` (`--reasoning`, `--tool-cards`) over
    /// the remembered choices, over shown and unfolded.
    pub fn start(&self, flags: ViewChoices) -> ViewStart {
        ViewStart {
            reasoning: flags.reasoning.or(self.reasoning).unwrap_or_default(),
            cards_folded: flags.cards_folded.or(self.cards_folded).unwrap_or(false),
        }
    }
}

/// Why a choice was not remembered, for the status bar: the problem first
/// (the bar may cut the end), then the file, home written `~`.
fn not_remembered(err: &OwnSettingError) -> String {
    match err {
        OwnSettingError::Link(path) => format!(
            "config is a symbolic link: view not remembered (not written through) {}",
            shown(path)
        ),
        OwnSettingError::NotAFile { path, kind } => {
            format!("config is {kind}: view not remembered {}", shown(path))
        }
        OwnSettingError::NotText(path) => format!(
            "config is not UTF-8 text: view not remembered, file left as it is {}",
            shown(path)
        ),
        OwnSettingError::Io { path, problem } => format!(
            "cannot write config: {problem}; view not remembered {}",
            shown(path)
        ),
    }
}

/// A path with the home folder written `~`.
fn shown(path: &Path) -> String {
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    match home
        .as_deref()
        .and_then(|home| path.strip_prefix(home).ok())
    {
        Some(rest) => Path::new("~").join(rest).display().to_string(),
        None => path.display().to_string(),
    }
}

/// What saves choices into the configuration file at `file`.
pub fn saver(file: &Path) -> SaveChoices {
    let file = file.to_path_buf();
    SaveChoices::new(move |choices| save(&file, choices))
}

/// Writes `choices` into the `[view]` table of the file at `file` as it is
/// now, leaving everything else as it is; a file that is a link, is not a
/// file, or is not TOML is not written.
fn save(file: &Path, choices: ViewChoices) -> Result<(), String> {
    let before = read_own_setting(file).map_err(|err| not_remembered(&err))?;
    let text = before.as_deref().unwrap_or_default();
    let after = edited(text, choices).map_err(|problem| {
        format!(
            "config {problem}: view not remembered, file left as it is {}",
            shown(file)
        )
    })?;
    if before.as_deref() == Some(after.as_str()) {
        return Ok(());
    }
    replace_own_setting(file, &after).map_err(|err| not_remembered(&err))
}

/// `text` with the `[view]` keys of `choices` set, every other byte kept.
fn edited(text: &str, choices: ViewChoices) -> Result<String, String> {
    let mut doc: DocumentMut = text.parse().map_err(|err: toml_edit::TomlError| {
        let message = err.message().trim_end_matches('.').to_owned();
        match err.span().map(|span| line_column(text, span.start)) {
            Some((line, column)) => {
                format!("is not TOML (line {line}, column {column}: {message})")
            }
            None => format!("is not TOML ({message})"),
        }
    })?;
    let view = doc
        .entry("view")
        .or_insert_with(|| Item::Table(Table::new()))
        .as_table_like_mut()
        .ok_or_else(|| "has a view that is not a table".to_owned())?;
    let mut set = |key: &str, new: &str| match view.get_mut(key).and_then(Item::as_value_mut) {
        Some(old) => {
            let decor = old.decor().clone();
            *old = new.into();
            *old.decor_mut() = decor;
        }
        None => {
            view.insert(key, value(new));
        }
    };
    if let Some(mode) = choices.reasoning {
        set("reasoning", mode.name());
    }
    if let Some(folded) = choices.cards_folded {
        set("tool_cards", CARDS[usize::from(!folded)]);
    }
    Ok(doc.to_string())
}

/// The 1-based line and column of byte `at` of `text`.
fn line_column(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choose(reasoning: Option<ReasoningMode>, cards_folded: Option<bool>) -> ViewChoices {
        ViewChoices {
            reasoning,
            cards_folded,
        }
    }

    /// Only the `[view]` keys change: comments, blank lines, the order of
    /// keys and tables, and a comment after a value stay as they were.
    #[test]
    fn only_the_view_keys_change() {
        let text = "# my settings\ntheme = \"light\"   # the light one\n\n\
                    [view]\nreasoning = \"shown\"  # as I like it\n\n\
                    [prices.\"m\"]\ninput = 1\noutput = 2\n";
        let after = edited(text, choose(Some(ReasoningMode::Hidden), None)).unwrap();
        assert_eq!(
            after,
            text.replace("reasoning = \"shown\"", "reasoning = \"hidden\"")
        );
        let after = edited(&after, choose(None, Some(true))).unwrap();
        assert_eq!(
            after,
            "# my settings\ntheme = \"light\"   # the light one\n\n\
             [view]\nreasoning = \"hidden\"  # as I like it\ntool_cards = \"folded\"\n\n\
             [prices.\"m\"]\ninput = 1\noutput = 2\n"
        );
    }

    /// No file, or one without `[view]`: the table is added at the end.
    #[test]
    fn a_view_table_is_added() {
        assert_eq!(
            edited("", choose(Some(ReasoningMode::Folded), Some(false))).unwrap(),
            "[view]\nreasoning = \"folded\"\ntool_cards = \"unfolded\"\n"
        );
        assert_eq!(
            edited("theme = \"dark\"\n", choose(None, Some(true))).unwrap(),
            "theme = \"dark\"\n\n[view]\ntool_cards = \"folded\"\n"
        );
    }

    /// A file that is not TOML, or whose `view` is not a table, is refused
    /// with the place of the problem.
    #[test]
    fn a_broken_file_is_refused() {
        let err = edited("theme = \"dark\"\n[view\n", choose(None, Some(true))).unwrap_err();
        assert!(err.starts_with("is not TOML (line 2, column "), "{err}");
        let err = edited("view = 3\n", choose(None, Some(true))).unwrap_err();
        assert_eq!(err, "has a view that is not a table");
    }

    /// Reading: each key and its mistakes, named with the file.
    #[test]
    fn the_table_is_read_and_its_mistakes_named() {
        let table =
            serde_json::json!({"reasoning": "hidden", "tool_cards": "folded", "remember": false});
        let config = ViewConfig::from_value(table, "c.toml").unwrap();
        assert_eq!(
            config,
            ViewConfig {
                reasoning: Some(ReasoningMode::Hidden),
                cards_folded: Some(true),
                remember: false,
            }
        );
        let err = ViewConfig::from_value(serde_json::json!({"reasoning": "sideways"}), "c.toml")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("c.toml: view.reasoning: \"sideways\" is not a reasoning mode"),
            "{err}"
        );
        let err = ViewConfig::from_value(serde_json::json!({"colour": 1}), "c.toml")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("c.toml: view.colour: 1 is not a view key"),
            "{err}"
        );
        let err = ViewConfig::from_value(serde_json::json!(3), "c.toml")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("c.toml: view: 3 is not a table"), "{err}");
    }

    /// Flags win over the file, the file over the defaults.
    #[test]
    fn flags_win_over_the_remembered_choices() {
        let config = ViewConfig {
            reasoning: Some(ReasoningMode::Hidden),
            cards_folded: Some(true),
            remember: true,
        };
        let start = config.start(choose(Some(ReasoningMode::Folded), None));
        assert_eq!(start.reasoning, ReasoningMode::Folded);
        assert!(start.cards_folded);
        assert_eq!(
            ViewConfig::default().start(ViewChoices::default()),
            ViewStart::default()
        );
    }
}
