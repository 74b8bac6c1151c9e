//! Colour depth: how many colours the terminal shows (from the environment),
//! and every colour mapped down to what it can show — the nearest of the 256
//! or 16 palette colours, or none at all under `NO_COLOR`. Themes and syntax
//! highlighting go through the same [`downgrade`].

use ratatui::style::{Color, Style};

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
#[cfg(feature = "cli")]
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
pub(super) const ANSI16: [(Color, (u8, u8, u8)); 16] = [
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
pub(super) fn indexed_rgb(index: u8) -> (u8, u8, u8) {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
