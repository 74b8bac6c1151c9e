//! The workspace picker: the conversations of a JP workspace, most recent
//! first, filtered by typing.

use std::time::SystemTime;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use super::clock::Clock;
use super::text::truncate;

/// One conversation as the picker lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConversationRow {
    /// The conversation's id (its folder name).
    pub id: String,
    /// Its title, when it has one.
    pub title: Option<String>,
    /// When it last changed.
    pub last_activity: Option<SystemTime>,
    /// How many events it holds.
    pub events: usize,
    /// Pinned by the user.
    pub pinned: bool,
    /// Archived.
    pub archived: bool,
    /// An agent holds its lock right now.
    pub locked: bool,
}

/// What a key did in the picker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PickerOutcome {
    /// Still picking.
    Stay,
    /// Open this conversation.
    Open(String),
    /// Close the picker.
    Back,
}

/// The picker's state.
#[derive(Debug, Clone)]
pub struct Picker {
    rows: Vec<ConversationRow>,
    filter: String,
    selected: usize,
}

impl Picker {
    /// A picker over `rows`, sorted most recent first, with `current` selected.
    pub fn new(mut rows: Vec<ConversationRow>, current: Option<&str>) -> Picker {
        rows.sort_by(|a, b| {
            b.last_activity
                .cmp(&a.last_activity)
                .then_with(|| b.id.cmp(&a.id))
        });
        let selected = current
            .and_then(|id| rows.iter().position(|r| r.id == id))
            .unwrap_or(0);
        Picker {
            rows,
            filter: String::new(),
            selected,
        }
    }

    /// Indices of the rows matching the filter (case-insensitive, title or id).
    pub fn visible(&self) -> Vec<usize> {
        let needle = self.filter.to_lowercase();
        (0..self.rows.len())
            .filter(|&i| {
                let row = &self.rows[i];
                needle.is_empty()
                    || row.id.to_lowercase().contains(&needle)
                    || row
                        .title
                        .as_deref()
                        .is_some_and(|t| t.to_lowercase().contains(&needle))
            })
            .collect()
    }

    /// The filter typed so far.
    pub fn filter(&self) -> &str {
        &self.filter
    }

    /// The id of the selected row, if any row matches.
    pub fn selected_id(&self) -> Option<&str> {
        let visible = self.visible();
        let i = visible.get(self.selected.min(visible.len().saturating_sub(1)))?;
        Some(&self.rows[*i].id)
    }

    /// Handles one key; `page` is how many rows a page holds.
    pub fn handle(&mut self, key: &KeyEvent, page: usize) -> PickerOutcome {
        let count = self.visible().len();
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Esc => return PickerOutcome::Back,
            KeyCode::Char('c') if ctrl => return PickerOutcome::Back,
            KeyCode::Enter => {
                return match self.selected_id() {
                    Some(id) => PickerOutcome::Open(id.to_string()),
                    None => PickerOutcome::Stay,
                };
            }
            KeyCode::Down => self.selected += 1,
            KeyCode::Char('n') if ctrl => self.selected += 1,
            KeyCode::Up => self.selected = self.selected.saturating_sub(1),
            KeyCode::Char('p') if ctrl => self.selected = self.selected.saturating_sub(1),
            KeyCode::PageDown => self.selected += page.max(1),
            KeyCode::PageUp => self.selected = self.selected.saturating_sub(page.max(1)),
            KeyCode::Home => self.selected = 0,
            KeyCode::End => self.selected = count.saturating_sub(1),
            KeyCode::Backspace => {
                self.filter.pop();
                self.selected = 0;
            }
            KeyCode::Char('u') if ctrl => {
                self.filter.clear();
                self.selected = 0;
            }
            KeyCode::Char(c) if !ctrl => {
                self.filter.push(c);
                self.selected = 0;
            }
            _ => {}
        }
        self.selected = self.selected.min(self.visible().len().saturating_sub(1));
        PickerOutcome::Stay
    }

    /// Draws the picker over the whole of `area`.
    pub fn draw(&self, area: Rect, buf: &mut Buffer, clock: Clock) {
        if area.height < 3 {
            return;
        }
        let width = usize::from(area.width);
        let bar = Style::new().add_modifier(Modifier::REVERSED);
        let header = format!(
            " Conversations ({}) — type to filter, Enter opens, Esc goes back",
            self.rows.len()
        );
        buf.set_style(Rect { height: 1, ..area }, bar);
        buf.set_stringn(area.x, area.y, truncate(&header, width), width, bar);
        let filter = Line::from(vec![
            Span::styled(" filter: ", Style::new().add_modifier(Modifier::DIM)),
            Span::raw(self.filter.clone()),
            Span::styled("▏", Style::new().add_modifier(Modifier::SLOW_BLINK)),
        ]);
        buf.set_line(area.x, area.y + 1, &filter, area.width);

        let visible = self.visible();
        let list_rows = usize::from(area.height - 2);
        let first = self.selected.saturating_sub(list_rows.saturating_sub(1));
        if visible.is_empty() {
            let none = Span::styled(
                "  no conversation matches",
                Style::new().add_modifier(Modifier::DIM),
            );
            buf.set_span(area.x, area.y + 2, &none, area.width);
        }
        for (n, &i) in visible.iter().skip(first).take(list_rows).enumerate() {
            let y = area.y + 2 + n as u16;
            let line = self.row_line(&self.rows[i], width, clock);
            buf.set_line(area.x, y, &line, area.width);
            if first + n == self.selected {
                buf.set_style(
                    Rect {
                        y,
                        height: 1,
                        ..area
                    },
                    Style::new().bg(Color::DarkGray),
                );
            }
        }
    }

    fn row_line(&self, row: &ConversationRow, width: usize, clock: Clock) -> Line<'static> {
        let dim = Style::new().add_modifier(Modifier::DIM);
        let mut flags = Vec::new();
        if row.pinned {
            flags.push("pinned");
        }
        if row.archived {
            flags.push("archived");
        }
        let when = row
            .last_activity
            .map_or_else(|| "—".to_string(), |t| clock.date_time(t));
        let right = format!(
            "  {}  {when}  {:>6} events{}",
            row.id,
            row.events,
            if flags.is_empty() {
                String::new()
            } else {
                format!("  {}", flags.join(" "))
            }
        );
        let marker = if row.locked {
            Span::styled(" ● ", Style::new().fg(Color::Green))
        } else {
            Span::raw("   ")
        };
        let title_width = width.saturating_sub(3 + right.chars().count()).max(8);
        let title = row.title.as_deref().unwrap_or("(untitled)");
        let title_style = if row.archived { dim } else { Style::new() };
        let title = truncate(&clean(title), title_width);
        let pad = title_width.saturating_sub(unicode_width::UnicodeWidthStr::width(title.as_str()));
        Line::from(vec![
            marker,
            Span::styled(title, title_style),
            Span::raw(" ".repeat(pad)),
            Span::styled(right, dim),
        ])
    }
}

/// Titles come from the conversation's files: drop control characters.
fn clean(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, UNIX_EPOCH};

    use super::*;

    pub(crate) fn rows() -> Vec<ConversationRow> {
        let at = |s: u64| Some(UNIX_EPOCH + Duration::from_secs(1_767_225_600 + s));
        let row = |id: &str, title: Option<&str>, t, events| ConversationRow {
            id: id.into(),
            title: title.map(String::from),
            last_activity: t,
            events,
            pinned: false,
            archived: false,
            locked: false,
        };
        vec![
            row(
                "17653152345-agentic-shepherd",
                Some("Agentic shepherd: open issues"),
                at(60),
                120,
            ),
            ConversationRow {
                locked: true,
                ..row(
                    "17760760747-replace-prefill",
                    Some("Replace prefill logic"),
                    at(7200),
                    48,
                )
            },
            ConversationRow {
                pinned: true,
                ..row(
                    "17673969718-iana-reference",
                    Some("IANA reference site"),
                    at(3600),
                    9,
                )
            },
            ConversationRow {
                archived: true,
                ..row("17662304290-listing-perf", None, None, 300)
            },
        ]
    }

    fn key(c: KeyCode) -> KeyEvent {
        KeyEvent::new(c, KeyModifiers::NONE)
    }

    #[test]
    fn most_recent_comes_first() {
        let picker = Picker::new(rows(), None);
        assert_eq!(picker.selected_id(), Some("17760760747-replace-prefill"));
        let order: Vec<&str> = picker
            .visible()
            .iter()
            .map(|&i| picker.rows[i].id.as_str())
            .collect();
        assert_eq!(
            order[3], "17662304290-listing-perf",
            "no activity time sorts last"
        );
    }

    #[test]
    fn typing_filters_by_title_or_id_and_enter_opens() {
        let mut picker = Picker::new(rows(), None);
        for c in "iana".chars() {
            assert_eq!(
                picker.handle(&key(KeyCode::Char(c)), 10),
                PickerOutcome::Stay
            );
        }
        assert_eq!(picker.visible().len(), 1);
        assert_eq!(
            picker.handle(&key(KeyCode::Enter), 10),
            PickerOutcome::Open("17673969718-iana-reference".into())
        );
        picker.handle(&key(KeyCode::Backspace), 10);
        picker.handle(&key(KeyCode::Backspace), 10);
        picker.handle(&key(KeyCode::Backspace), 10);
        picker.handle(&key(KeyCode::Backspace), 10);
        for c in "perf".chars() {
            picker.handle(&key(KeyCode::Char(c)), 10);
        }
        assert_eq!(picker.selected_id(), Some("17662304290-listing-perf"));
    }

    #[test]
    fn arrows_move_and_escape_goes_back() {
        let mut picker = Picker::new(rows(), Some("17673969718-iana-reference"));
        assert_eq!(picker.selected_id(), Some("17673969718-iana-reference"));
        picker.handle(&key(KeyCode::Down), 10);
        assert_eq!(picker.selected_id(), Some("17653152345-agentic-shepherd"));
        picker.handle(&key(KeyCode::Up), 10);
        picker.handle(&key(KeyCode::Up), 10);
        picker.handle(&key(KeyCode::Up), 10);
        assert_eq!(picker.selected_id(), Some("17760760747-replace-prefill"));
        assert_eq!(picker.handle(&key(KeyCode::Esc), 10), PickerOutcome::Back);
    }

    #[test]
    fn no_match_opens_nothing() {
        let mut picker = Picker::new(rows(), None);
        for c in "zzz".chars() {
            picker.handle(&key(KeyCode::Char(c)), 10);
        }
        assert_eq!(picker.selected_id(), None);
        assert_eq!(picker.handle(&key(KeyCode::Enter), 10), PickerOutcome::Stay);
    }
}
