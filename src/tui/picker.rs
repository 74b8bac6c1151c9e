//! The picker: the conversations of the folder — a JP workspace's, and the
//! Claude Code and Codex sessions of the current folder — most recent first
//! (the order they are given in), filtered by typing.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::chrome::Chrome;
use super::list::ListScreen;
use crate::text::sanitize::echo_line;
use crate::text::truncate::truncate;
use crate::text::width::display_width;

/// One conversation as the picker lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConversationRow {
    /// What opens it: a JP conversation's id (its folder name), an agent
    /// session's path.
    pub id: String,
    /// The agent whose session it is (`claude`, `codex`); `None` for a JP
    /// conversation.
    pub agent: Option<&'static str>,
    /// Its title, when it has one.
    pub title: Option<String>,
    /// When it was last active, as stored (`2025-12-09 21:20:34.512239`,
    /// UTC), or an agent session file's time (`2025-12-09T21:20:34Z`).
    pub last_activity: Option<String>,
    /// How many events it holds, when they were counted.
    pub events: Option<usize>,
    /// Pinned by the user.
    pub pinned: bool,
    /// Archived.
    pub archived: bool,
    /// Being written right now: a live `jp query` holds the JP
    /// conversation's lock, or the agent session's file was written in the
    /// last minute (docs/agents.md "Finding sessions").
    pub live: bool,
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
    /// A picker over `rows` (most recent first), with `current` selected.
    pub fn new(rows: Vec<ConversationRow>, current: Option<&str>) -> Picker {
        let selected = current
            .and_then(|id| rows.iter().position(|r| r.id == id))
            .unwrap_or(0);
        Picker {
            rows,
            filter: String::new(),
            selected,
        }
    }

    /// Indices of the rows matching the filter (case-insensitive, title, id
    /// or agent).
    pub fn visible(&self) -> Vec<usize> {
        let needle = self.filter.to_lowercase();
        (0..self.rows.len())
            .filter(|&i| {
                let row = &self.rows[i];
                needle.is_empty()
                    || row.id.to_lowercase().contains(&needle)
                    || row.agent.is_some_and(|a| a.contains(&needle))
                    || row
                        .title
                        .as_deref()
                        .is_some_and(|t| t.to_lowercase().contains(&needle))
            })
            .collect()
    }

    /// The filter typed so far.
    #[cfg(any(test, feature = "internals"))]
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
    pub fn draw(&self, area: Rect, buf: &mut Buffer, chrome: &Chrome) {
        let count = self.rows.len();
        let headers = [
            format!(" Conversations ({count}) — type to filter, Enter opens, Esc goes back"),
            format!(" Conversations ({count}) — Enter opens, Esc goes back"),
            format!(" Conversations ({count}) · Esc: back"),
            format!(" Conversations ({count})"),
        ];
        let visible = self.visible();
        let columns = Columns::measure(
            visible.iter().map(|&i| &self.rows[i]),
            usize::from(area.width),
        );
        let screen = ListScreen {
            headers: &headers,
            label: " filter: ",
            typed: self.filter.clone(),
            after: None,
            rows: visible.len(),
            selected: Some(self.selected),
        };
        let list = screen.draw(area, buf, chrome, |i| {
            columns.line(&self.rows[visible[i]], chrome)
        });
        if let Some(list) = list
            && visible.is_empty()
        {
            let none = Span::styled("  no conversation matches", chrome.secondary);
            buf.set_span(list.x, list.y, &none, list.width);
        }
    }
}

/// Column widths shared by every row, so that the list reads as a table.
/// A column of width 0 is not shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Columns {
    agent: usize,
    title: usize,
    id: usize,
    when: usize,
    events: usize,
    flags: usize,
}

/// Width of `YYYY-MM-DD HH:MM`.
const WHEN: usize = 16;
/// Width of `YYYY-MM-DD`.
const DATE: usize = 10;
/// The title keeps at least this many columns (or its natural width) while
/// other columns can make room.
const TITLE_MIN: usize = 24;
/// Width of the agent column (`claude`, `codex`, `jp`); a longer name widens it.
const AGENT: usize = 6;
/// Width of the marker in front of each row (` ● ` for a live conversation).
const MARKER: usize = 3;
/// Space between columns.
const GAP: usize = 2;

impl Columns {
    /// Fits the columns into `width`. The title matters most; when room is
    /// short the id goes first, then the flags, the event count, the time
    /// of day, the date, and last the agent. A title column never grows past
    /// the longest title, so the other columns stay beside the titles. The
    /// agent column is there when an agent session is listed.
    fn measure<'a>(rows: impl Iterator<Item = &'a ConversationRow>, width: usize) -> Columns {
        let mut natural = Columns {
            agent: 0,
            title: 0,
            id: 0,
            when: WHEN,
            events: 0,
            flags: 0,
        };
        for row in rows {
            if let Some(agent) = row.agent {
                natural.agent = natural.agent.max(AGENT).max(display_width(agent));
            }
            natural.title = natural.title.max(display_width(&clean(title_of(row))));
            natural.id = natural.id.max(display_width(&clean(shown_id(row))));
            if row.agent.is_none() {
                natural.events = natural.events.max(event_count(row).len() + " events".len());
            }
            natural.flags = natural.flags.max(flag_text(row).map_or(0, |f| f.len()));
        }
        let title_min = natural.title.min(TITLE_MIN);
        let mut columns = natural;
        let drops: [fn(&mut Columns); 6] = [
            |c| c.id = 0,
            |c| c.flags = 0,
            |c| c.events = 0,
            |c| c.when = DATE,
            |c| c.when = 0,
            |c| c.agent = 0,
        ];
        for drop in drops {
            if MARKER + title_min + columns.rest() <= width {
                break;
            }
            drop(&mut columns);
        }
        columns.title = width
            .saturating_sub(MARKER + columns.rest())
            .min(natural.title)
            .max(1);
        columns
    }

    /// Columns taken by everything but the marker and the title.
    fn rest(&self) -> usize {
        [self.agent, self.id, self.when, self.events, self.flags]
            .iter()
            .filter(|&&w| w > 0)
            .map(|w| w + GAP)
            .sum()
    }

    fn line(&self, row: &ConversationRow, chrome: &Chrome) -> Line<'static> {
        let dim = chrome.secondary;
        let marker = if row.live {
            Span::styled(" ● ", chrome.picker_live)
        } else {
            Span::raw("   ")
        };
        let mut spans = vec![marker];
        if self.agent > 0 {
            let agent = row.agent.unwrap_or("jp");
            spans.push(Span::styled(format!("{}  ", pad(agent, self.agent)), dim));
        }
        let title = truncate(&clean(title_of(row)), self.title);
        let title_style = if row.archived || row.title.is_none() {
            dim
        } else {
            Style::new()
        };
        spans.push(Span::styled(pad(&title, self.title), title_style));
        if self.id > 0 {
            let id = truncate(&clean(shown_id(row)), self.id);
            spans.push(Span::styled(format!("  {}", pad(&id, self.id)), dim));
        }
        if self.when > 0 {
            let when = row.last_activity.as_deref().map_or_else(
                || "—".to_string(),
                |t| minutes(t).chars().take(self.when).collect(),
            );
            spans.push(Span::styled(format!("  {}", pad(&when, self.when)), dim));
        }
        if self.events > 0 {
            // An agent session's events are not counted: its file is not read.
            let count = match row.agent {
                Some(_) => String::new(),
                None => format!("{} events", event_count(row)),
            };
            spans.push(Span::styled(format!("  {count:>w$}", w = self.events), dim));
        }
        if let Some(flags) = flag_text(row).filter(|_| self.flags > 0) {
            spans.push(Span::styled(format!("  {flags}"), chrome.picker_flags));
        }
        Line::from(spans)
    }
}

/// What the title column shows: the title, else the id (an agent
/// session's file name).
fn title_of(row: &ConversationRow) -> &str {
    match (&row.title, row.agent) {
        (Some(title), _) => title,
        (None, Some(_)) => row.id.rsplit('/').next().unwrap_or(&row.id),
        (None, None) => &row.id,
    }
}

/// What the id column shows: a JP conversation's id. An agent session's is
/// its path, too long to show and saying less than its agent, title and
/// time: the typed filter still matches it.
fn shown_id(row: &ConversationRow) -> &str {
    match row.agent {
        Some(_) => "",
        None => &row.id,
    }
}

/// The event count, `?` when it was not counted.
fn event_count(row: &ConversationRow) -> String {
    row.events
        .map_or_else(|| "?".to_string(), |n| n.to_string())
}

/// A stored time cut to the minute: `2025-12-09 21:20`.
fn minutes(stored: &str) -> String {
    clean(stored)
        .chars()
        .take(WHEN)
        .map(|c| if c == 'T' { ' ' } else { c })
        .collect()
}

/// `pinned`, `archived`, both or nothing.
fn flag_text(row: &ConversationRow) -> Option<String> {
    let flags: Vec<&str> = [(row.pinned, "pinned"), (row.archived, "archived")]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect();
    (!flags.is_empty()).then(|| flags.join(" "))
}

/// `text` padded with spaces to `width` columns.
fn pad(text: &str, width: usize) -> String {
    format!(
        "{text}{}",
        " ".repeat(width.saturating_sub(display_width(text)))
    )
}

/// Titles, ids (folder names) and times come from the conversation's files: every sequence
/// in them is shown as `␛` and acts on nothing (no leftover `]0;…` of a stripped title).
fn clean(text: &str) -> String {
    echo_line(text).into_owned()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn rows() -> Vec<ConversationRow> {
        let row = |id: &str, title: Option<&str>, t: Option<&str>, events| ConversationRow {
            id: id.into(),
            agent: None,
            title: title.map(String::from),
            last_activity: t.map(String::from),
            events,
            pinned: false,
            archived: false,
            live: false,
        };
        vec![
            ConversationRow {
                live: true,
                ..row(
                    "17760760747",
                    Some("Replace prefill logic"),
                    Some("2026-01-01 02:00:00.5"),
                    Some(48),
                )
            },
            ConversationRow {
                pinned: true,
                ..row(
                    "17673969718",
                    Some("IANA reference site"),
                    Some("2026-01-01T01:00:00Z"),
                    Some(9),
                )
            },
            row(
                "17653152345",
                Some("Agentic shepherd: open issues"),
                Some("2025-12-31 00:01:00"),
                Some(120),
            ),
            ConversationRow {
                archived: true,
                ..row("17662304290", None, None, None)
            },
        ]
    }

    fn key(c: KeyCode) -> KeyEvent {
        KeyEvent::new(c, KeyModifiers::NONE)
    }

    #[test]
    fn the_first_row_is_selected_unless_the_current_one_is_listed() {
        let picker = Picker::new(rows(), None);
        assert_eq!(picker.selected_id(), Some("17760760747"));
        let picker = Picker::new(rows(), Some("17653152345"));
        assert_eq!(picker.selected_id(), Some("17653152345"));
    }

    fn drawn(width: u16) -> Vec<String> {
        drawn_rows(rows(), width)
    }

    #[test]
    fn hostile_titles_and_ids_are_shown_not_obeyed() {
        let mut hostile = rows();
        hostile[0].title = Some("evil\u{1b}]0;PWNED\u{7} title\u{202e}".into());
        hostile[0].id = "id\u{1b}[2J\u{9b}31m".into();
        let picker = Picker::new(hostile, None);
        let mut buf = Buffer::empty(Rect::new(0, 0, 100, 6));
        picker.draw(buf.area, &mut buf, &Chrome::default());
        let row: String = (0..100).map(|x| buf[(x, 2)].symbol()).collect();
        assert!(row.contains("evil␛ title<U+202E>"), "{row}");
        assert!(!row.contains("]0;") && !row.contains("PWNED"), "{row}");
        assert!(row.chars().all(|c| !c.is_control()), "{row:?}");
    }

    #[test]
    fn rows_read_as_a_table() {
        let lines = drawn(100);
        assert_eq!(
            lines[2],
            " ● Replace prefill logic          17760760747  2026-01-01 02:00   48 events"
        );
        assert_eq!(
            lines[5],
            "   17662304290                    17662304290  —                   ? events  archived"
        );
    }

    /// The rows of [`rows`] with a live Claude Code session first and a
    /// Codex one with no prompt.
    fn with_sessions() -> Vec<ConversationRow> {
        let session = |agent, path: &str, title: Option<&str>, live| ConversationRow {
            id: path.into(),
            agent: Some(agent),
            title: title.map(String::from),
            last_activity: Some("2026-01-01T03:00:00Z".into()),
            events: None,
            pinned: false,
            archived: false,
            live,
        };
        let mut all = vec![
            session(
                "claude",
                "/h/.claude/projects/-w/0d3a8e6f.jsonl",
                Some("Fix the parser"),
                true,
            ),
            session("codex", "/h/.codex/sessions/rollout-1.jsonl", None, false),
        ];
        all.extend(rows());
        all
    }

    #[test]
    fn an_agent_name_longer_than_the_column_widens_it_for_every_row() {
        let mut rows = with_sessions();
        rows[1].agent = Some("copilot");
        let lines = drawn_rows(rows, 120);
        let column = |line: &str, text: &str| line.find(text).map(|at| line[..at].chars().count());
        assert_eq!(
            column(&lines[3], "rollout-1"),
            column(&lines[2], "Fix the parser")
        );
        assert!(lines[3].starts_with("   copilot  rollout-1"), "{lines:?}");
    }

    fn drawn_rows(rows: Vec<ConversationRow>, width: u16) -> Vec<String> {
        let picker = Picker::new(rows, None);
        let mut buf = Buffer::empty(Rect::new(0, 0, width, 8));
        picker.draw(buf.area, &mut buf, &Chrome::default());
        (0..8)
            .map(|y| {
                (0..width)
                    .map(|x| buf[(x, y)].symbol())
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            })
            .collect()
    }

    #[test]
    fn agent_sessions_show_their_agent_beside_jp_conversations() {
        let lines = drawn_rows(with_sessions(), 120);
        assert_eq!(
            lines[2],
            " ● claude  Fix the parser                              2026-01-01 03:00"
        );
        assert_eq!(
            lines[3],
            "   codex   rollout-1.jsonl                             2026-01-01 03:00"
        );
        assert_eq!(
            lines[4],
            " ● jp      Replace prefill logic          17760760747  2026-01-01 02:00   48 events"
        );
        // Narrow: the agent stays, the time goes.
        let lines = drawn_rows(with_sessions(), 40);
        assert_eq!(lines[2], " ● claude  Fix the parser");
        assert_eq!(lines[4], " ● jp      Replace prefill logic");
        for width in [10, 20, 40, 80, 200] {
            for line in drawn_rows(with_sessions(), width) {
                assert!(
                    display_width(&line) <= usize::from(width),
                    "{width}: {line}"
                );
            }
        }
    }

    #[test]
    fn typing_an_agent_name_keeps_its_sessions() {
        let mut picker = Picker::new(with_sessions(), None);
        for c in "codex".chars() {
            picker.handle(&key(KeyCode::Char(c)), 10);
        }
        assert_eq!(picker.visible().len(), 1);
        assert_eq!(
            picker.handle(&key(KeyCode::Enter), 10),
            PickerOutcome::Open("/h/.codex/sessions/rollout-1.jsonl".into())
        );
    }

    #[test]
    fn narrow_pickers_keep_the_title_and_drop_the_least_useful_columns() {
        let lines = drawn(60);
        assert_eq!(lines[0], " Conversations (4) — Enter opens, Esc goes back");
        assert_eq!(
            lines[4],
            "   Agentic shepherd: open iss…  2025-12-31 00:01  120 events"
        );
        let lines = drawn(40);
        assert_eq!(lines[0], " Conversations (4) · Esc: back");
        assert_eq!(lines[2], " ● Replace prefill logic      2026-01-01");
        assert_eq!(lines[5], "   17662304290                —");
        let lines = drawn(20);
        assert_eq!(lines[3], "   IANA reference s…");
        for width in [10, 20, 30, 40, 60, 100, 200] {
            for line in drawn(width) {
                assert!(
                    display_width(&line) <= usize::from(width),
                    "{width}: {line}"
                );
            }
        }
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
            PickerOutcome::Open("17673969718".into())
        );
        picker.handle(&key(KeyCode::Backspace), 10);
        picker.handle(&key(KeyCode::Backspace), 10);
        picker.handle(&key(KeyCode::Backspace), 10);
        picker.handle(&key(KeyCode::Backspace), 10);
        for c in "0429".chars() {
            picker.handle(&key(KeyCode::Char(c)), 10);
        }
        assert_eq!(picker.selected_id(), Some("17662304290"));
    }

    #[test]
    fn arrows_move_and_escape_goes_back() {
        let mut picker = Picker::new(rows(), Some("17673969718"));
        assert_eq!(picker.selected_id(), Some("17673969718"));
        picker.handle(&key(KeyCode::Down), 10);
        assert_eq!(picker.selected_id(), Some("17653152345"));
        picker.handle(&key(KeyCode::Up), 10);
        picker.handle(&key(KeyCode::Up), 10);
        picker.handle(&key(KeyCode::Up), 10);
        assert_eq!(picker.selected_id(), Some("17760760747"));
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
