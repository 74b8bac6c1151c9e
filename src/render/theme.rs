//! Colour themes: one ratatui [`Style`] per document element, loaded from TOML.
//!
//! Two themes are built in (`themes/dark.toml`, `themes/light.toml`, embedded in the binary); a
//! user theme is a TOML file of the same shape that may name a built-in `base` and override only
//! some elements. The theme also names the syntect theme used for code, and records the colour
//! depth of the terminal: [`Theme::with_depth`] maps every colour down to what the terminal can
//! show ([`super::color_depth`]), and [`super::highlight`] maps syntax colours through the same
//! [`downgrade`]. It does not detect the terminal's background colour; the caller picks dark or
//! light.

use std::path::Path;

use ratatui::style::{Color, Modifier, Style};
use thiserror::Error;
use two_face::theme::{EmbeddedLazyThemeSet, EmbeddedThemeName};

#[cfg(feature = "cli")]
pub use super::color_depth::detect_color_depth;
pub use super::color_depth::{ColorDepth, downgrade_style};

/// The built-in dark theme's TOML.
const DARK: &str = include_str!("../../themes/dark.toml");
/// The built-in light theme's TOML.
const LIGHT: &str = include_str!("../../themes/light.toml");

/// Why a theme could not be loaded. Every variant names the file.
#[derive(Debug, Error)]
pub enum ThemeError {
    /// The name is neither a built-in theme nor a readable file.
    #[cfg(feature = "cli")]
    #[error("{name}: no such theme (built-in themes: dark, light) and no such file")]
    NotFound {
        /// The name or path asked for.
        name: String,
    },
    /// The file could not be read.
    #[cfg(feature = "cli")]
    #[error("{path}: {source}")]
    Io {
        /// The theme file.
        path: String,
        /// What went wrong: it is not a file, or it cannot be read.
        source: crate::files::read::SettingError,
    },
    /// The file is not valid TOML.
    #[error("{path}: {message}")]
    Syntax {
        /// The theme file.
        path: String,
        /// Where and what: `line 2, column 8: unclosed table, expected `]``.
        message: String,
    },
    /// A key the theme format does not have (usually a typo).
    #[error("{path}: unknown key `{key}`")]
    UnknownKey {
        /// The theme file.
        path: String,
        /// The key, dotted (`styles.heding1`).
        key: String,
    },
    /// A key with a value it cannot take.
    #[error("{path}: `{key}` = {value}: {reason}")]
    BadValue {
        /// The theme file.
        path: String,
        /// The key, dotted (`styles.h1.fg`).
        key: String,
        /// The value as written.
        value: String,
        /// What was expected.
        reason: String,
    },
}

/// Declares the styled elements once: the struct fields, their TOML keys and the mapping.
macro_rules! elements {
    ($($(#[doc = $doc:literal])+ $field:ident,)+) => {
        /// The styles of a theme, one per document element. Keys in the TOML `[styles]` table
        /// are the field names.
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct Styles {
            $($(#[doc = $doc])+ pub $field: Style,)+
        }

        impl Styles {
            /// Every element key, in declaration order.
            #[cfg(any(test, feature = "internals"))]
            pub const KEYS: &'static [&'static str] = &[$(stringify!($field),)+];

            fn get_mut(&mut self, key: &str) -> Option<&mut Style> {
                match key {
                    $(stringify!($field) => Some(&mut self.$field),)+
                    _ => None,
                }
            }

            fn map(&self, f: impl Fn(Style) -> Style) -> Styles {
                Styles { $($field: f(self.$field),)+ }
            }

            /// Each element's style in `self` and in `other`, combined by
            /// `f` (called once per element, in declaration order): how the
            /// exports lay out once for two themes.
            #[cfg(feature = "cli")]
            pub fn zip_map(&self, other: &Styles, mut f: impl FnMut(Style, Style) -> Style) -> Styles {
                Styles { $($field: f(self.$field, other.$field),)+ }
            }
        }
    };
}

elements! {
    /// Heading level 1.
    h1,
    /// Heading level 2.
    h2,
    /// Heading level 3.
    h3,
    /// Heading level 4.
    h4,
    /// Heading level 5.
    h5,
    /// Heading level 6.
    h6,
    /// `*emphasis*`.
    emphasis,
    /// `**strong**`.
    strong,
    /// `~~strikethrough~~`.
    strikethrough,
    /// Bullets, numbers and task boxes of lists.
    list_marker,
    /// `` `inline code` ``: sets foreground and background so it reads on any terminal.
    inline_code,
    /// Code blocks without highlighting (unknown language).
    code_block,
    /// The fence lines around a code block.
    code_fence,
    /// The `│` gutter of block quotes.
    quote_gutter,
    /// Text inside block quotes.
    quote_text,
    /// The text of a link.
    link_text,
    /// The URL shown after a link's text.
    link_url,
    /// `---` thematic breaks.
    thematic_break,
    /// Table borders.
    table_border,
    /// Table header cells.
    table_header,
    /// Footnote references and notes.
    footnote,
    /// Raw HTML shown as text.
    html,
    /// Label of the user's speech.
    user_label,
    /// Label of the assistant's speech.
    assistant_label,
    /// Label of an assistant update sent mid-turn (`send_channel_update`).
    update_label,
    /// Label of the turn's final reply.
    final_label,
    /// Tool call card header.
    tool_header,
    /// Argument names in a tool call.
    tool_arg_key,
    /// Tool result text.
    result_text,
    /// The note saying how many lines were cut.
    truncation_note,
    /// Errors (failed tools, unreadable input).
    error,
    /// A tool call the user refused (not a failure): its mark and reason.
    refused,
    /// Notes in a turn: a hook's outcome, a prompt's IDE context, what a
    /// command is for.
    note,
    /// A diff's file names.
    diff_file,
    /// A diff's hunk headers (`@@ -1,2 +1,3 @@`).
    diff_hunk,
    /// Lines a diff adds.
    diff_added,
    /// Lines a diff removes.
    diff_removed,
    /// A plan's items that are done.
    plan_done,
    /// A plan's item being worked on.
    plan_active,
    /// Reasoning text.
    reasoning,
    /// A pending or running tool call.
    pending,
    /// The rule between turns.
    turn_rule,
    /// The status bar of the TUI (also the picker's header).
    status_bar,
    /// A search hit.
    search_hit,
    /// Warnings and flags (a turn without a final reply).
    warning,
    /// The viewer's cursor row (usually a background only).
    cursor_line,
    /// A one-off note in the status bar (a result, a problem).
    status_note,
    /// The status bar's `● following`.
    status_following,
    /// The status bar's `‖ paused` (bold when new events arrived).
    status_paused,
    /// The status bar's `✗ file removed`.
    status_removed,
    /// The search being typed in the status bar.
    search_prompt,
    /// Secondary text of the viewer's chrome: separators, the picker's columns, notes.
    secondary,
    /// The selected row of the conversation picker.
    picker_selected,
    /// The picker's `●` of a conversation an agent is writing.
    picker_live,
    /// The picker's `pinned` / `archived` flags.
    picker_flags,
    /// The help overlay: its text, border and background.
    help,
}

/// A colour theme.
#[derive(Debug, Clone, PartialEq)]
pub struct Theme {
    /// The theme's name (a built-in name or the file it came from).
    pub name: String,
    /// The style of each element.
    pub styles: Styles,
    /// The syntect theme for code blocks, from two-face's embedded set.
    pub syntax_theme: EmbeddedThemeName,
    /// The colour depth colours are mapped to (also applied to syntax colours).
    pub depth: ColorDepth,
    /// The terminal background the theme is made for (`background` in the file); styles
    /// without a background of their own are read against it. Only a declaration: the
    /// viewer never paints the terminal's background.
    pub background: Option<Color>,
    /// The terminal foreground the theme is made for (`foreground`), the colour of text
    /// whose style sets none.
    pub foreground: Option<Color>,
}

impl Theme {
    /// A built-in theme by name (`dark`, `light`), case-insensitive.
    pub fn builtin(name: &str) -> Option<Theme> {
        let source = match name.to_ascii_lowercase().as_str() {
            "dark" => DARK,
            "light" => LIGHT,
            _ => return None,
        };
        // The built-in files are tested to parse; an error here would be a build defect.
        parse(source, name, None).ok()
    }

    /// The built-in dark theme.
    pub fn dark() -> Theme {
        Self::builtin("dark").unwrap_or_else(Self::fallback)
    }

    /// Only reached if an embedded theme failed to parse, which the tests rule out.
    fn fallback() -> Theme {
        Theme {
            name: "fallback".into(),
            styles: Styles::default(),
            syntax_theme: EmbeddedThemeName::Base16OceanDark,
            depth: ColorDepth::TrueColor,
            background: None,
            foreground: None,
        }
    }

    /// A built-in theme by name, else a TOML theme file at that path.
    #[cfg(feature = "cli")]
    pub fn load(name_or_path: &str) -> Result<Theme, ThemeError> {
        if let Some(theme) = Self::builtin(name_or_path) {
            return Ok(theme);
        }
        let path = Path::new(name_or_path);
        // A name that is no file is a theme asked for by name; anything else
        // (a folder, a FIFO, a device) is a file, and says what it is.
        if std::fs::symlink_metadata(path).is_err() {
            return Err(ThemeError::NotFound {
                name: name_or_path.to_string(),
            });
        }
        let source = crate::files::read_setting(path).map_err(|source| ThemeError::Io {
            path: name_or_path.to_string(),
            source,
        })?;
        parse(&source, name_or_path, Some(path))
    }

    /// The style of heading `level` (1–6; deeper levels use level 6).
    pub fn heading(&self, level: u8) -> Style {
        let s = &self.styles;
        match level {
            0 | 1 => s.h1,
            2 => s.h2,
            3 => s.h3,
            4 => s.h4,
            5 => s.h5,
            _ => s.h6,
        }
    }

    /// This theme for a terminal of `depth`: RGB mapped to the nearest 256-colour, then
    /// 16-colour value; no colours at all for [`ColorDepth::None`], attributes kept.
    pub fn with_depth(&self, depth: ColorDepth) -> Theme {
        Theme {
            name: self.name.clone(),
            styles: self.styles.map(|s| downgrade_style(s, depth)),
            syntax_theme: self.syntax_theme,
            depth,
            background: self.background,
            foreground: self.foreground,
        }
    }

    /// A style colour mapped to this theme's depth (for colours that do not come from the
    /// theme, like syntax highlighting or ANSI in tool output).
    pub fn adapt(&self, style: Style) -> Style {
        downgrade_style(style, self.depth)
    }
}

impl Default for Theme {
    fn default() -> Self {
        Self::dark()
    }
}

/// The syntect theme called `name` (case-insensitive).
fn syntax_theme_by_name(name: &str) -> Option<EmbeddedThemeName> {
    EmbeddedLazyThemeSet::theme_names()
        .iter()
        .copied()
        .find(|t| t.as_name().eq_ignore_ascii_case(name))
}

/// Parses a theme file. `path` is `None` for the built-ins.
fn parse(source: &str, label: &str, path: Option<&Path>) -> Result<Theme, ThemeError> {
    let file = path.map_or_else(
        || format!("<built-in {label}>"),
        |p| p.display().to_string(),
    );
    let bad = |key: &str, value: &toml::Value, reason: &str| ThemeError::BadValue {
        path: file.clone(),
        key: key.to_string(),
        value: value.to_string(),
        reason: reason.to_string(),
    };
    let table: toml::Table = source
        .parse()
        .map_err(|e: toml::de::Error| ThemeError::Syntax {
            path: file.clone(),
            message: crate::policy::error::toml_problem(source, &e),
        })?;

    let mut theme = match (path, table.get("base")) {
        (_, Some(value)) => {
            let name = value
                .as_str()
                .ok_or_else(|| bad("base", value, "expected a string"))?;
            if path.is_none() {
                return Err(bad("base", value, "built-in themes have no base"));
            }
            Theme::builtin(name)
                .ok_or_else(|| bad("base", value, "expected a built-in theme: dark or light"))?
        }
        (Some(_), None) => Theme::dark(),
        (None, None) => Theme {
            name: label.to_string(),
            styles: Styles::default(),
            syntax_theme: EmbeddedThemeName::Base16OceanDark,
            depth: ColorDepth::TrueColor,
            background: None,
            foreground: None,
        },
    };
    theme.name = label.to_string();

    for (key, value) in &table {
        match key.as_str() {
            "base" => {}
            "name" => {
                theme.name = value
                    .as_str()
                    .ok_or_else(|| bad("name", value, "expected a string"))?
                    .to_string();
            }
            "background" | "foreground" => {
                let color = parse_color(value).ok_or_else(|| {
                    bad(
                        key,
                        value,
                        "expected \"#rrggbb\", a colour name like \"white\", or 0–255",
                    )
                })?;
                if key == "background" {
                    theme.background = Some(color);
                } else {
                    theme.foreground = Some(color);
                }
            }
            "syntax_theme" => {
                let name = value
                    .as_str()
                    .ok_or_else(|| bad(key, value, "expected a string"))?;
                theme.syntax_theme = syntax_theme_by_name(name).ok_or_else(|| {
                    bad(
                        key,
                        value,
                        "not a syntax theme known to two-face (see `bat --list-themes`)",
                    )
                })?;
            }
            "styles" => {
                let styles = value
                    .as_table()
                    .ok_or_else(|| bad(key, value, "expected a table of element styles"))?;
                for (element, spec) in styles {
                    let dotted = format!("styles.{element}");
                    let slot =
                        theme
                            .styles
                            .get_mut(element)
                            .ok_or_else(|| ThemeError::UnknownKey {
                                path: file.clone(),
                                key: dotted.clone(),
                            })?;
                    *slot = parse_style(spec, &dotted, &file)?;
                }
            }
            _ => {
                return Err(ThemeError::UnknownKey {
                    path: file.clone(),
                    key: key.clone(),
                });
            }
        }
    }
    Ok(theme)
}

/// One element's style: `{ fg = "#rrggbb", bg = "blue", bold = true, … }`.
fn parse_style(spec: &toml::Value, key: &str, file: &str) -> Result<Style, ThemeError> {
    let bad = |key: String, value: &toml::Value, reason: &str| ThemeError::BadValue {
        path: file.to_string(),
        key,
        value: value.to_string(),
        reason: reason.to_string(),
    };
    let table = spec.as_table().ok_or_else(|| {
        bad(
            key.to_string(),
            spec,
            "expected a table like { fg = \"#88c0d0\" }",
        )
    })?;
    let mut style = Style::new();
    for (field, value) in table {
        let dotted = format!("{key}.{field}");
        match field.as_str() {
            "fg" | "bg" => {
                let color = parse_color(value).ok_or_else(|| {
                    bad(
                        dotted.clone(),
                        value,
                        "expected \"#rrggbb\", a colour name like \"light-blue\", or 0–255",
                    )
                })?;
                style = if field == "fg" {
                    style.fg(color)
                } else {
                    style.bg(color)
                };
            }
            "bold" | "dim" | "italic" | "underline" | "reverse" | "strikethrough" => {
                let on = value
                    .as_bool()
                    .ok_or_else(|| bad(dotted.clone(), value, "expected true or false"))?;
                let modifier = match field.as_str() {
                    "bold" => Modifier::BOLD,
                    "dim" => Modifier::DIM,
                    "italic" => Modifier::ITALIC,
                    "underline" => Modifier::UNDERLINED,
                    "reverse" => Modifier::REVERSED,
                    _ => Modifier::CROSSED_OUT,
                };
                if on {
                    style = style.add_modifier(modifier);
                }
            }
            _ => {
                return Err(ThemeError::UnknownKey {
                    path: file.to_string(),
                    key: dotted,
                });
            }
        }
    }
    Ok(style)
}

fn parse_color(value: &toml::Value) -> Option<Color> {
    match value {
        toml::Value::Integer(i) => u8::try_from(*i).ok().map(Color::Indexed),
        toml::Value::String(s) => hex_color(s).or_else(|| s.parse().ok()),
        _ => None,
    }
}

/// `#rrggbb` as ratatui's `Color::from_str` reads it, without the eight
/// lowercased and replaced copies it makes of every name first (a quarter of
/// loading a built-in theme, which every run does); `None` for anything else.
fn hex_color(text: &str) -> Option<Color> {
    let digits = text.strip_prefix('#')?;
    if digits.len() != 6 || !digits.bytes().all(|byte| byte.is_ascii_hexdigit()) {
        return None;
    }
    let channel = |at: usize| u8::from_str_radix(&digits[at..at + 2], 16).ok();
    Some(Color::Rgb(channel(0)?, channel(2)?, channel(4)?))
}

#[cfg(test)]
mod tests;
