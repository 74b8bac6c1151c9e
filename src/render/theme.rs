//! Colour themes: one ratatui [`Style`] per document element, loaded from TOML.
//!
//! Two themes are built in (`themes/dark.toml`, `themes/light.toml`, embedded in the binary); a
//! user theme is a TOML file of the same shape that may name a built-in `base` and override only
//! some elements. The theme also names the syntect theme used for code, and records the colour
//! depth of the terminal: [`Theme::with_depth`] maps every colour down to what the terminal can
//! show, and [`super::highlight`] maps syntax colours through the same [`downgrade`]. It does not
//! detect the terminal's background colour; the caller picks dark or light.

use std::path::Path;

use ratatui::style::{Color, Modifier, Style};
use thiserror::Error;
use two_face::theme::{EmbeddedLazyThemeSet, EmbeddedThemeName};

/// The built-in dark theme's TOML.
const DARK: &str = include_str!("../../themes/dark.toml");
/// The built-in light theme's TOML.
const LIGHT: &str = include_str!("../../themes/light.toml");

/// Why a theme could not be loaded. Every variant names the file.
#[derive(Debug, Error)]
pub enum ThemeError {
    /// The name is neither a built-in theme nor a readable file.
    #[error("{name}: no such theme (built-in themes: dark, light) and no such file")]
    NotFound {
        /// The name or path asked for.
        name: String,
    },
    /// The file could not be read.
    #[error("{path}: {}", crate::problem::io_problem(.source))]
    Io {
        /// The theme file.
        path: String,
        /// What went wrong.
        source: std::io::Error,
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

/// How many colours the terminal shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColorDepth {
    /// 24-bit colour.
    #[default]
    TrueColor,
    /// The xterm 256-colour palette.
    Ansi256,
    /// The 16 ANSI colours.
    Ansi16,
    /// No colour at all (`NO_COLOR`); bold, italic and the like remain.
    None,
}

/// The colour depth the environment asks for: `NO_COLOR` (set, non-empty) → none;
/// `COLORTERM` `truecolor`/`24bit` → true colour; a `TERM` containing `256color` → 256 colours;
/// else 16. `env` looks a variable up (`|k| std::env::var(k).ok()`), so tests need no process
/// environment.
pub fn detect_color_depth(env: impl Fn(&str) -> Option<String>) -> ColorDepth {
    if env("NO_COLOR").is_some_and(|v| !v.is_empty()) {
        return ColorDepth::None;
    }
    if env("COLORTERM").is_some_and(|v| {
        let v = v.to_ascii_lowercase();
        v == "truecolor" || v == "24bit"
    }) {
        return ColorDepth::TrueColor;
    }
    if env("TERM").is_some_and(|v| v.contains("256color")) {
        return ColorDepth::Ansi256;
    }
    ColorDepth::Ansi16
}

/// The RGB values of the 16 ANSI colours (xterm defaults), to find the nearest one.
const ANSI16: [(Color, (u8, u8, u8)); 16] = [
    (Color::Black, (0, 0, 0)),
    (Color::Red, (205, 0, 0)),
    (Color::Green, (0, 205, 0)),
    (Color::Yellow, (205, 205, 0)),
    (Color::Blue, (0, 0, 238)),
    (Color::Magenta, (205, 0, 205)),
    (Color::Cyan, (0, 205, 205)),
    (Color::Gray, (229, 229, 229)),
    (Color::DarkGray, (127, 127, 127)),
    (Color::LightRed, (255, 0, 0)),
    (Color::LightGreen, (0, 255, 0)),
    (Color::LightYellow, (255, 255, 0)),
    (Color::LightBlue, (92, 92, 255)),
    (Color::LightMagenta, (255, 0, 255)),
    (Color::LightCyan, (0, 255, 255)),
    (Color::White, (255, 255, 255)),
];

/// The six levels of the xterm colour cube.
const CUBE: [u8; 6] = [0, 95, 135, 175, 215, 255];

/// The RGB value of an xterm palette index.
fn indexed_rgb(index: u8) -> (u8, u8, u8) {
    match index {
        0..=15 => ANSI16[index as usize].1,
        16..=231 => {
            let i = index - 16;
            (
                CUBE[(i / 36) as usize],
                CUBE[(i / 6 % 6) as usize],
                CUBE[(i % 6) as usize],
            )
        }
        _ => {
            let v = 8 + 10 * (index - 232);
            (v, v, v)
        }
    }
}

fn distance(a: (u8, u8, u8), b: (u8, u8, u8)) -> u32 {
    let d = |x: u8, y: u8| (i32::from(x) - i32::from(y)).unsigned_abs();
    // Weighted for the eye's sensitivity to green.
    3 * d(a.0, b.0).pow(2) + 4 * d(a.1, b.1).pow(2) + 2 * d(a.2, b.2).pow(2)
}

/// The nearest index of the 256-colour palette outside the 16 terminal-defined ones.
fn nearest_256(rgb: (u8, u8, u8)) -> u8 {
    let level = |v: u8| {
        CUBE.iter()
            .enumerate()
            .min_by_key(|(_, c)| (i32::from(**c) - i32::from(v)).unsigned_abs())
            .map_or(0, |(i, _)| i as u8)
    };
    let cube = 16 + 36 * level(rgb.0) + 6 * level(rgb.1) + level(rgb.2);
    let grey_level = ((u32::from(rgb.0) + u32::from(rgb.1) + u32::from(rgb.2)) / 3) as u8;
    let grey = 232 + (grey_level.saturating_sub(3) / 10).min(23);
    if distance(indexed_rgb(grey), rgb) < distance(indexed_rgb(cube), rgb) {
        grey
    } else {
        cube
    }
}

/// The nearest of the 16 ANSI colours.
fn nearest_16(rgb: (u8, u8, u8)) -> Color {
    ANSI16
        .iter()
        .min_by_key(|(_, c)| distance(*c, rgb))
        .map_or(Color::Reset, |(color, _)| *color)
}

/// `color` as a terminal of `depth` can show it; `None` when it shows no colour.
pub fn downgrade(color: Color, depth: ColorDepth) -> Option<Color> {
    match (depth, color) {
        (ColorDepth::None, _) => None,
        (ColorDepth::TrueColor, c) => Some(c),
        (ColorDepth::Ansi256, Color::Rgb(r, g, b)) => Some(Color::Indexed(nearest_256((r, g, b)))),
        (ColorDepth::Ansi256, c) => Some(c),
        (ColorDepth::Ansi16, Color::Rgb(r, g, b)) => Some(nearest_16((r, g, b))),
        (ColorDepth::Ansi16, Color::Indexed(i)) => Some(nearest_16(indexed_rgb(i))),
        (ColorDepth::Ansi16, c) => Some(c),
    }
}

/// `style` with its colours mapped down to `depth` (modifiers untouched).
pub fn downgrade_style(style: Style, depth: ColorDepth) -> Style {
    let mut out = style;
    out.fg = style.fg.and_then(|c| downgrade(c, depth));
    out.bg = style.bg.and_then(|c| downgrade(c, depth));
    out
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
    pub fn load(name_or_path: &str) -> Result<Theme, ThemeError> {
        if let Some(theme) = Self::builtin(name_or_path) {
            return Ok(theme);
        }
        let path = Path::new(name_or_path);
        if !path.is_file() {
            return Err(ThemeError::NotFound {
                name: name_or_path.to_string(),
            });
        }
        let source = std::fs::read_to_string(path).map_err(|source| ThemeError::Io {
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
        toml::Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_load_and_define_every_element() {
        for name in ["dark", "light", "DARK"] {
            let theme = Theme::builtin(name).expect(name);
            let table: toml::Table = match name.to_ascii_lowercase().as_str() {
                "dark" => DARK,
                _ => LIGHT,
            }
            .parse()
            .unwrap();
            let styles = table["styles"].as_table().unwrap();
            for key in Styles::KEYS {
                assert!(styles.contains_key(*key), "{name} lacks {key}");
            }
            assert_ne!(theme.styles.h1, Style::new());
        }
        assert!(Theme::builtin("solarized").is_none());
    }

    #[test]
    fn inline_code_sets_foreground_and_background() {
        for name in ["dark", "light"] {
            let theme = Theme::builtin(name).unwrap();
            assert!(theme.styles.inline_code.fg.is_some(), "{name}");
            assert!(theme.styles.inline_code.bg.is_some(), "{name}");
        }
    }

    #[test]
    fn user_theme_overrides_a_base() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mine.toml");
        std::fs::write(
            &path,
            "base = \"light\"\nsyntax_theme = \"nord\"\n[styles]\nh1 = { fg = \"#ff0000\", bold = true }\n",
        )
        .unwrap();
        let theme = Theme::load(path.to_str().unwrap()).unwrap();
        assert_eq!(
            theme.styles.h1,
            Style::new()
                .fg(Color::Rgb(255, 0, 0))
                .add_modifier(Modifier::BOLD)
        );
        assert_eq!(theme.styles.h2, Theme::builtin("light").unwrap().styles.h2);
        assert_eq!(theme.syntax_theme, EmbeddedThemeName::Nord);
    }

    #[test]
    fn bad_theme_file_error_names_file_key_and_value() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.toml");
        std::fs::write(&path, "[styles]\nh2 = { fg = \"#12345z\" }\n").unwrap();
        let err = Theme::load(path.to_str().unwrap()).unwrap_err().to_string();
        assert!(err.contains("bad.toml"), "{err}");
        assert!(err.contains("styles.h2.fg"), "{err}");
        assert!(err.contains("#12345z"), "{err}");

        std::fs::write(&path, "[styles]\nheding1 = { bold = true }\n").unwrap();
        let err = Theme::load(path.to_str().unwrap()).unwrap_err().to_string();
        assert!(err.contains("styles.heding1"), "{err}");

        std::fs::write(&path, "[styles]\nh1 = { bold = \"yes\" }\n").unwrap();
        let err = Theme::load(path.to_str().unwrap()).unwrap_err().to_string();
        assert!(
            err.contains("styles.h1.bold") && err.contains("\"yes\""),
            "{err}"
        );

        std::fs::write(&path, "syntax_theme = \"nope\"\n").unwrap();
        let err = Theme::load(path.to_str().unwrap()).unwrap_err().to_string();
        assert!(
            err.contains("syntax_theme") && err.contains("nope"),
            "{err}"
        );

        std::fs::write(&path, "[styles\n").unwrap();
        let err = Theme::load(path.to_str().unwrap()).unwrap_err().to_string();
        assert!(err.contains("bad.toml"), "{err}");

        let err = Theme::load("/no/such/theme.toml").unwrap_err().to_string();
        assert!(err.contains("/no/such/theme.toml"), "{err}");
    }

    #[test]
    fn color_depth_from_environment() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(
            detect_color_depth(env(&[("NO_COLOR", "1"), ("COLORTERM", "truecolor")])),
            ColorDepth::None
        );
        assert_eq!(
            detect_color_depth(env(&[("NO_COLOR", ""), ("COLORTERM", "truecolor")])),
            ColorDepth::TrueColor
        );
        assert_eq!(
            detect_color_depth(env(&[("COLORTERM", "24bit")])),
            ColorDepth::TrueColor
        );
        assert_eq!(
            detect_color_depth(env(&[("TERM", "xterm-256color")])),
            ColorDepth::Ansi256
        );
        assert_eq!(
            detect_color_depth(env(&[("TERM", "xterm")])),
            ColorDepth::Ansi16
        );
        assert_eq!(detect_color_depth(env(&[])), ColorDepth::Ansi16);
    }

    #[test]
    fn downgrade_maps_to_nearest_colours() {
        assert_eq!(
            downgrade(Color::Rgb(255, 0, 0), ColorDepth::Ansi256),
            Some(Color::Indexed(196))
        );
        assert_eq!(
            downgrade(Color::Rgb(128, 128, 128), ColorDepth::Ansi256),
            Some(Color::Indexed(244))
        );
        assert_eq!(
            downgrade(Color::Rgb(0, 0, 0), ColorDepth::Ansi256),
            Some(Color::Indexed(16))
        );
        assert_eq!(
            downgrade(Color::Rgb(250, 10, 10), ColorDepth::Ansi16),
            Some(Color::LightRed)
        );
        assert_eq!(
            downgrade(Color::Rgb(20, 20, 30), ColorDepth::Ansi16),
            Some(Color::Black)
        );
        assert_eq!(
            downgrade(Color::Indexed(196), ColorDepth::Ansi16),
            Some(Color::LightRed)
        );
        assert_eq!(
            downgrade(Color::Blue, ColorDepth::Ansi16),
            Some(Color::Blue)
        );
        assert_eq!(downgrade(Color::Blue, ColorDepth::None), None);
        assert_eq!(
            downgrade(Color::Rgb(1, 2, 3), ColorDepth::TrueColor),
            Some(Color::Rgb(1, 2, 3))
        );
    }

    #[test]
    fn with_depth_keeps_attributes_and_drops_colours() {
        let theme = Theme::dark();
        let plain = theme.with_depth(ColorDepth::None);
        assert_eq!(plain.styles.h1.fg, None);
        assert_eq!(plain.styles.inline_code.bg, None);
        assert_eq!(plain.styles.h1.add_modifier, theme.styles.h1.add_modifier);
        let sixteen = theme.with_depth(ColorDepth::Ansi16);
        let is_16 = |c: Option<Color>| !matches!(c, Some(Color::Rgb(..) | Color::Indexed(_)));
        for key in Styles::KEYS {
            let mut probe = sixteen.styles.clone();
            let style = *probe.get_mut(key).unwrap();
            assert!(is_16(style.fg) && is_16(style.bg), "{key}: {style:?}");
        }
        assert_eq!(sixteen.depth, ColorDepth::Ansi16);
    }

    /// The sRGB value of a theme colour (`None` for the terminal's default).
    fn rgb(color: Color) -> Option<(u8, u8, u8)> {
        match color {
            Color::Rgb(r, g, b) => Some((r, g, b)),
            Color::Indexed(i) => Some(indexed_rgb(i)),
            Color::Reset => None,
            named => ANSI16
                .iter()
                .find(|(c, _)| *c == named)
                .map(|(_, rgb)| *rgb),
        }
    }

    /// WCAG 2 relative luminance.
    fn luminance((r, g, b): (u8, u8, u8)) -> f64 {
        let channel = |v: u8| {
            let c = f64::from(v) / 255.0;
            if c <= 0.03928 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
    }

    /// WCAG 2 contrast ratio of two colours (1 to 21).
    fn contrast(a: (u8, u8, u8), b: (u8, u8, u8)) -> f64 {
        let (la, lb) = (luminance(a), luminance(b));
        (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
    }

    #[test]
    fn contrast_ratio_follows_wcag() {
        let black_on_white = contrast((0, 0, 0), (255, 255, 255));
        assert!((black_on_white - 21.0).abs() < 1e-9, "{black_on_white}");
        assert!((contrast((119, 119, 119), (255, 255, 255)) - 4.48).abs() < 0.01);
    }

    /// Every theme file in `themes/`: each style's text colour against its background
    /// (the theme's declared `foreground` / `background` where the style sets none, swapped
    /// for `reverse`) reads at 4.5:1 or more, WCAG's level AA for text — and so does every
    /// style without a background of its own on the viewer's cursor row.
    #[test]
    fn every_theme_pair_has_a_contrast_of_at_least_4_5() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("themes");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect();
        files.sort();
        assert!(files.len() >= 2, "{files:?}");
        let mut failures = Vec::new();
        for file in &files {
            let theme = Theme::load(file.to_str().unwrap()).unwrap();
            let name = file.file_name().unwrap().to_string_lossy().to_string();
            let (Some(background), Some(foreground)) = (
                theme.background.and_then(rgb),
                theme.foreground.and_then(rgb),
            ) else {
                panic!("{name}: declares no `background` and `foreground`");
            };
            let mut styles = theme.styles.clone();
            for key in Styles::KEYS {
                let style = *styles.get_mut(key).unwrap();
                assert!(
                    !style.add_modifier.contains(Modifier::DIM),
                    "{name}: styles.{key} uses `dim`, whose contrast depends on the terminal"
                );
                let mut fg = style.fg.and_then(rgb).unwrap_or(foreground);
                let mut bg = style.bg.and_then(rgb).unwrap_or(background);
                if style.add_modifier.contains(Modifier::REVERSED) {
                    std::mem::swap(&mut fg, &mut bg);
                }
                let ratio = contrast(fg, bg);
                if ratio < 4.5 {
                    failures.push(format!("{name}: styles.{key} {fg:?} on {bg:?}: {ratio:.2}"));
                }
                let cursor = theme.styles.cursor_line.bg.and_then(rgb);
                if let Some(cursor) = cursor.filter(|_| style.bg.is_none()) {
                    let ratio = contrast(fg, cursor);
                    if ratio < 4.5 {
                        failures.push(format!(
                            "{name}: styles.{key} {fg:?} on the cursor row {cursor:?}: {ratio:.2}"
                        ));
                    }
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}
