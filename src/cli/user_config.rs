//! The user's configuration file, `$XDG_CONFIG_HOME/overhear/config.toml`
//! (`~/.config/overhear/config.toml` when `XDG_CONFIG_HOME` is unset or not
//! absolute): the tool styles and the theme a user wants for every
//! conversation, in every format (docs/config.md).
//!
//! The style keys are the viewer configuration's (`policy::Overlay`); this
//! module adds where the file is, the keys that are not styles (`theme`), and
//! errors that name the file and the key.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::view_config::{ViewConfig, ViewConfigError};
use crate::policy::{Overlay, OverlayError};
use crate::usage::{PriceError, Prices};

/// What the user's configuration file says.
#[derive(Debug, Clone)]
pub struct UserConfig {
    /// The style keys, as the layer under `--config` and `--set`.
    pub styles: Overlay,
    /// `theme`: a theme name, or a theme file (a relative path is read from
    /// the configuration file's folder).
    pub theme: Option<String>,
    /// The price table: the built-in one with `[prices]` over it.
    pub prices: Prices,
    /// `[view]`: the view choices the viewer remembers.
    pub view: ViewConfig,
}

impl Default for UserConfig {
    fn default() -> UserConfig {
        UserConfig {
            styles: Overlay::default(),
            theme: None,
            prices: Prices::builtin(),
            view: ViewConfig::default(),
        }
    }
}

/// A user configuration file that cannot be used; the message names the file
/// and the key.
#[derive(Debug, thiserror::Error)]
pub enum UserConfigError {
    /// Not readable, not TOML, or a style key or value that is wrong.
    #[error(transparent)]
    Styles(#[from] OverlayError),
    /// `theme` is not a string.
    #[error(
        "{file}: theme = {value}: is not a string (expected a theme name such as \"light\", or a theme file)"
    )]
    Theme {
        /// The configuration file.
        file: String,
        /// The value as written, in JSON.
        value: String,
    },
    /// A `[prices]` entry that is not a price.
    #[error(transparent)]
    Prices(#[from] PriceError),
    /// A `[view]` key or value that is wrong.
    #[error(transparent)]
    View(#[from] ViewConfigError),
}

/// The path of the user's configuration file: `$XDG_CONFIG_HOME` when it is
/// an absolute path (the XDG rule: a relative one is ignored), else
/// `$HOME/.config`; `None` with neither.
pub fn path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|dir| dir.is_absolute())
        .or_else(|| {
            std::env::var_os("HOME")
                .map(PathBuf::from)
                .filter(|home| home.is_absolute())
                .map(|home| home.join(".config"))
        })?;
    Some(base.join("overhear").join("config.toml"))
}

/// Reads the user's configuration file; no file is an empty configuration.
/// Its price table becomes this run's (`usage::use_prices`): every cost
/// shown after this uses it.
pub fn load() -> Result<UserConfig, UserConfigError> {
    let config = match path() {
        Some(file) if file.exists() => read(&file)?,
        _ => UserConfig::default(),
    };
    crate::usage::use_prices(config.prices.clone());
    Ok(config)
}

/// Reads the configuration file at `file`.
pub fn read(file: &Path) -> Result<UserConfig, UserConfigError> {
    let name = file.display().to_string();
    let text = crate::files::read_setting(file).map_err(|source| OverlayError::Read {
        file: name.clone(),
        source,
    })?;
    parse(&text, file)
}

/// Parses the text of the configuration file at `file`.
fn parse(text: &str, file: &Path) -> Result<UserConfig, UserConfigError> {
    let name = file.display().to_string();
    let mut doc: Map<String, Value> = crate::policy::overlay::toml_table(text, &name)?;
    let theme = match doc.remove("theme") {
        None => None,
        Some(Value::String(theme)) => Some(theme_in(&theme, file)),
        Some(other) => {
            return Err(UserConfigError::Theme {
                file: name,
                value: other.to_string(),
            });
        }
    };
    let prices = match doc.remove("prices") {
        None => Prices::builtin(),
        Some(table) => Prices::builtin().with_overrides(&table, &name)?,
    };
    let view = match doc.remove("view") {
        None => ViewConfig::default(),
        Some(table) => ViewConfig::from_value(table, &name)?,
    };
    let styles = Overlay::from_table(doc, &name)?;
    Ok(UserConfig {
        styles,
        theme,
        prices,
        view,
    })
}

/// A theme value as `--theme` takes it: a name stays a name; a path relative
/// to the configuration file's folder becomes a path from there.
fn theme_in(theme: &str, file: &Path) -> String {
    let is_path = theme.contains('/') || theme.ends_with(".toml");
    match file.parent() {
        Some(dir) if is_path && Path::new(theme).is_relative() => {
            dir.join(theme).display().to_string()
        }
        _ => theme.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_at(text: &str) -> Result<UserConfig, UserConfigError> {
        parse(text, Path::new("/home/u/.config/overhear/config.toml"))
    }

    /// Styles and the theme are read; a relative theme file is found beside
    /// the configuration file.
    #[test]
    fn styles_and_theme_are_read() {
        let config = parse_at(
            "theme = \"mine.toml\"\n\
             [conversation.tools.Bash.style]\ninline_results = 5\n",
        )
        .expect("a valid file");
        assert_eq!(
            config.theme.as_deref(),
            Some("/home/u/.config/overhear/mine.toml")
        );
        assert!(config.styles.tool("Bash").is_some());
        let named = parse_at("theme = \"light\"\n").expect("a valid file");
        assert_eq!(named.theme.as_deref(), Some("light"));
    }

    /// A wrong key or value names the file and the key.
    #[test]
    fn errors_name_the_file_and_the_key() {
        let err = parse_at("[conversation.tools.Bash.style]\ninline_results = \"lots\"\n")
            .expect_err("a bad value")
            .to_string();
        assert!(
            err.starts_with("/home/u/.config/overhear/config.toml: "),
            "{err}"
        );
        assert!(
            err.contains("conversation.tools.Bash.style.inline_results"),
            "{err}"
        );
        let err = parse_at("theme = 3\n")
            .expect_err("a bad theme")
            .to_string();
        assert!(err.contains("config.toml: theme = 3"), "{err}");
        let err = parse_at("colour = \"red\"\n")
            .expect_err("unknown key")
            .to_string();
        assert!(err.contains("colour"), "{err}");
        let err = parse_at("[prices.\"gpt-5\"]\ninput = \"free\"\n")
            .expect_err("a bad price")
            .to_string();
        assert!(
            err.starts_with("/home/u/.config/overhear/config.toml: prices.gpt-5.input: \"free\""),
            "{err}"
        );
    }

    /// `[prices]` changes the table: a model's price, or a model added.
    #[test]
    fn prices_are_read_over_the_builtin_table() {
        let config =
            parse_at("[prices.\"qwen3:0.6b\"]\ninput = 0.5\noutput = 1\n").expect("a valid file");
        assert_eq!(config.prices.of("qwen3:0.6b").map(|p| p.input), Some(0.5));
        assert!(config.prices.of("claude-sonnet-4-5").is_some());
    }
}
