//! The viewer's own colours — cursor row, status bar, search, picker, help —
//! taken from the theme, so that they follow `--theme` like the conversation
//! does. Without colour (`NO_COLOR`, `--color never`) the pieces that colour
//! alone told apart get attributes instead: the cursor row and the status bar
//! in reverse video, search matches bold and underlined.

use ratatui::style::{Modifier, Style};

use crate::render::theme::{ColorDepth, Theme};

/// The styles of everything the viewer draws around the conversation.
#[derive(Debug, Clone, PartialEq)]
pub struct Chrome {
    /// The cursor row (patched over the line's own style).
    pub cursor_line: Style,
    /// A search match.
    pub search_hit: Style,
    /// The status bar and the picker's header.
    pub status_bar: Style,
    /// A note in the status bar.
    pub status_note: Style,
    /// `● following`.
    pub status_following: Style,
    /// `‖ paused`.
    pub status_paused: Style,
    /// `✗ file removed`.
    pub status_removed: Style,
    /// The search being typed.
    pub search_prompt: Style,
    /// Separators, secondary columns, notes.
    pub secondary: Style,
    /// The picker's selected row.
    pub picker_selected: Style,
    /// The picker's marker of a conversation being written.
    pub picker_live: Style,
    /// The picker's flags.
    pub picker_flags: Style,
    /// The help overlay.
    pub help: Style,
}

impl Chrome {
    /// The chrome of `theme` (already adapted to the terminal's colour depth).
    pub fn from_theme(theme: &Theme) -> Chrome {
        let s = &theme.styles;
        let chrome = Chrome {
            cursor_line: s.cursor_line,
            search_hit: s.search_hit,
            status_bar: s.status_bar,
            // The pieces of the bar are drawn on the bar: what they do not
            // set comes from it.
            status_note: s.status_bar.patch(s.status_note),
            status_following: s.status_bar.patch(s.status_following),
            status_paused: s.status_bar.patch(s.status_paused),
            status_removed: s.status_bar.patch(s.status_removed),
            search_prompt: s.status_bar.patch(s.search_prompt),
            secondary: s.secondary,
            picker_selected: s.picker_selected,
            picker_live: s.picker_live,
            picker_flags: s.picker_flags,
            help: s.help,
        };
        if theme.depth == ColorDepth::None {
            chrome.without_colour()
        } else {
            chrome
        }
    }

    /// Attributes where colours told things apart.
    fn without_colour(self) -> Chrome {
        let reverse = Style::new().add_modifier(Modifier::REVERSED);
        Chrome {
            cursor_line: self.cursor_line.patch(reverse),
            search_hit: self
                .search_hit
                .add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            status_bar: self.status_bar.patch(reverse),
            status_note: self.status_note.patch(reverse),
            status_following: self.status_following.patch(reverse),
            status_paused: self.status_paused.patch(reverse),
            status_removed: self.status_removed.patch(reverse),
            search_prompt: self.search_prompt.patch(reverse),
            picker_selected: self.picker_selected.patch(reverse),
            ..self
        }
    }
}

impl Default for Chrome {
    fn default() -> Self {
        Chrome::from_theme(&Theme::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::Color;

    #[test]
    fn chrome_takes_its_colours_from_the_theme() {
        let light = Theme::builtin("light").unwrap();
        let chrome = Chrome::from_theme(&light);
        assert_eq!(chrome.status_bar, light.styles.status_bar);
        assert_eq!(chrome.cursor_line.bg, light.styles.cursor_line.bg);
        assert_ne!(
            Chrome::from_theme(&Theme::dark()).help,
            chrome.help,
            "dark and light give different help overlays"
        );
        // A piece of the bar without a background of its own sits on the bar's.
        let mut mine = light.clone();
        mine.styles.status_following = Style::new().fg(Color::Rgb(1, 2, 3));
        let chrome = Chrome::from_theme(&mine);
        assert_eq!(chrome.status_following.bg, light.styles.status_bar.bg);
        assert_eq!(chrome.status_following.fg, Some(Color::Rgb(1, 2, 3)));
    }

    #[test]
    fn without_colour_the_cursor_and_matches_keep_attributes() {
        let plain = Theme::dark().with_depth(ColorDepth::None);
        let chrome = Chrome::from_theme(&plain);
        assert!(chrome.cursor_line.add_modifier.contains(Modifier::REVERSED));
        assert!(chrome.status_bar.add_modifier.contains(Modifier::REVERSED));
        let hit = chrome.search_hit.add_modifier;
        assert!(hit.contains(Modifier::BOLD | Modifier::UNDERLINED));
        assert_eq!(chrome.cursor_line.bg, None);
    }
}
