use super::*;
use crate::render::color_depth::{ANSI16, indexed_rgb};

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

#[test]
fn colours_read_as_ratatui_reads_them() {
    let builtin: Vec<&str> = [DARK, LIGHT]
        .iter()
        .flat_map(|source| source.split('"').skip(1).step_by(2))
        .collect();
    // Every `#` colour of the built-in themes takes the short way (the files' comments
    // quote `#rrggbb` too).
    let hex: Vec<&&str> = builtin
        .iter()
        .filter(|text| text.starts_with('#') && text.parse::<Color>().is_ok())
        .collect();
    assert!(hex.len() > 40);
    assert!(hex.iter().all(|text| hex_color(text).is_some()));
    let odd = [
        "#000000",
        "#FfFfFf",
        "#12345",
        "#1234567",
        "#+f+f+f",
        "#gg0000",
        "# 00000",
        "#ffffff ",
        "red",
        "Light-Blue",
        "12",
        "",
    ];
    let spread = (0..=255u8).map(|n| format!("#{n:02x}{:02X}{n:02x}", 255 - n));
    let texts: Vec<String> = builtin
        .iter()
        .chain(&odd)
        .map(|text| (*text).to_owned())
        .chain(spread)
        .collect();
    for text in &texts {
        let value = toml::Value::String(text.clone());
        assert_eq!(parse_color(&value), text.parse::<Color>().ok(), "{text:?}");
    }
}
