//! The full-screen list both the picker (`p`) and the search over every
//! session (`S`) draw: a header in the status bar's colours (the longest
//! wording that fits), a prompt row, then the rows, scrolled so that the
//! selected one is on screen, and highlighted.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::chrome::Chrome;
use crate::text::truncate::{cut_to_width, truncate};
use crate::text::width::display_width;

/// A list to draw over a whole area.
pub(super) struct ListScreen<'a> {
    /// The header's wordings, longest first: the first that fits is shown,
    /// else the last cut to the width.
    pub headers: &'a [String],
    /// The prompt row: its label, what was typed (already clean) and what
    /// follows the cursor.
    pub label: &'a str,
    pub typed: String,
    pub after: Option<Span<'static>>,
    /// How many rows there are and which is selected.
    pub rows: usize,
    pub selected: Option<usize>,
}

impl ListScreen<'_> {
    /// Draws the list over `area`, each row as `row` lays it out (only the
    /// rows on screen are asked for); returns the area under the prompt
    /// row (`None`: too short to draw).
    pub fn draw(
        &self,
        area: Rect,
        buf: &mut Buffer,
        chrome: &Chrome,
        row: impl Fn(usize) -> Line<'static>,
    ) -> Option<Rect> {
        if area.height < 3 {
            return None;
        }
        let width = usize::from(area.width);
        let header = self
            .headers
            .iter()
            .find(|h| display_width(h) <= width)
            .or(self.headers.last())
            .map_or("", String::as_str);
        buf.set_style(Rect { height: 1, ..area }, chrome.status_bar);
        buf.set_stringn(
            area.x,
            area.y,
            truncate(header, width),
            width,
            chrome.status_bar,
        );
        let mut prompt = vec![
            Span::styled(self.label.to_owned(), chrome.secondary),
            Span::raw(self.typed.clone()),
            Span::styled("▏", Style::new().add_modifier(Modifier::SLOW_BLINK)),
        ];
        prompt.extend(self.after.clone());
        buf.set_line(
            area.x,
            area.y + 1,
            &cut_to_width(&Line::from(prompt), width),
            area.width,
        );
        let list = Rect {
            y: area.y + 2,
            height: area.height - 2,
            ..area
        };
        let shown = usize::from(list.height);
        let first = self
            .selected
            .map_or(0, |s| s.saturating_sub(shown.saturating_sub(1)));
        for (n, i) in (first..self.rows).take(shown).enumerate() {
            let y = list.y + n as u16;
            buf.set_line(list.x, y, &row(i), list.width);
            if self.selected == Some(i) {
                buf.set_style(
                    Rect {
                        y,
                        height: 1,
                        ..list
                    },
                    chrome.picker_selected,
                );
            }
        }
        Some(list)
    }
}
