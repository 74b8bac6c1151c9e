//! The help overlay (`H`, `F1`): every key binding, from the same table the keys
//! use, then how the viewer behaves — the same words as `docs/tui.md`.
//!
//! The overlay is laid out for the width it gets (the help text wraps under
//! its key, or below it on a narrow screen) and scrolls when it is taller
//! than the screen: `j`/`k`, the arrows and the page keys scroll, any other
//! key closes it.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Widget};

use super::chrome::Chrome;
use super::keys::BINDINGS;
use crate::text::width::display_width;
use crate::text::wrap::{spaces, wrap_spans};

/// Inputs that are not keys of the table.
const POINTER: &[(&str, &str)] = &[
    ("wheel", "scroll (it arrives as ↑ ↓)"),
    ("click", "with --mouse: move the cursor to the line"),
];

/// How the viewer behaves, by topic; `docs/tui.md` says the same at length.
pub const NOTES: &[(&str, &str)] = &[
    (
        "The cursor",
        "The highlighted line is the cursor. j and k move it; the view scrolls \
         when it reaches an edge. Enter, o and y act on the block under it.",
    ),
    (
        "Following",
        "At the end the view follows new content (● following). Scrolling up \
         pauses it (‖ paused, counting what is new); G, F or scrolling back \
         to the end resumes. ○ finished: no agent is writing any more (a Claude \
         Code or Codex file: unwritten for a minute after its turn ended, \
         or for 15 minutes mid-turn).",
    ),
    (
        "Wide lines",
        "Text wraps at the window's width; code never wraps. A dim → at the \
         right edge marks a line that goes on: h and l scroll sideways.",
    ),
    (
        "Search",
        "/ searches forward, ? backward; n goes on the same way, N the other. \
         Every block is searched, folded ones too; case is ignored unless the \
         query has a capital. ↑ ↓ in the prompt recall earlier queries. A \
         match in a part not shown points to o.",
    ),
    (
        "Replay",
        "In overhear replay (and the demo) Space pauses and plays on, . or → \
         steps one event forward, , or ← one back, + and - change the speed \
         (0.25× to max). Waits longer than 2 s are cut to 2 s at 1×. The \
         status bar reads replay · event 57/212 · 4× · 17:07:09.",
    ),
    (
        "Counts",
        "A number before a key repeats it (5j, 3]) or picks a place: 10G is \
         line 10, 12t is turn 12. x and ) go to the next failed tool call and \
         the next message to the user.",
    ),
    (
        "The picker",
        "p lists the conversations of this folder — the JP workspace's, \
         Claude Code's and Codex's sessions — most recent first; ● marks one \
         an agent is writing. Type to filter, ↑ ↓ choose, Enter opens, Esc \
         goes back.",
    ),
    (
        "All sessions",
        "S (Ctrl-s in the picker) searches every session of every agent: type \
         a pattern, Enter searches; hits stream in with their turn and kind. \
         Enter opens one at its turn, the match highlighted; Esc there comes \
         back to the list. Esc in the list stops a search, then goes back.",
    ),
];

/// The widest the overlay gets: a comfortable reading width.
const MAX_WIDTH: usize = 68;

/// Below this many columns for the text beside the keys, the text goes
/// under its key.
const MIN_TEXT: usize = 20;

/// What a key does to the open overlay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HelpKey {
    /// Scroll to this line.
    Scroll(usize),
    /// Close the overlay.
    Close,
}

/// Where the overlay goes on `area` and what it shows: the box, and the
/// lines of its content laid out for the box.
fn layout(area: Rect) -> (Rect, Vec<Line<'static>>) {
    let width = usize::from(area.width).min(MAX_WIDTH);
    let inner = width.saturating_sub(4).max(1);
    let lines = content(inner);
    let height = (lines.len() + 2).min(usize::from(area.height));
    let rect = Rect {
        x: area.x + (area.width - width as u16) / 2,
        y: area.y + (area.height - height as u16) / 2,
        width: width as u16,
        height: height as u16,
    };
    (rect, lines)
}

/// The rows of content the box shows at once.
fn visible_rows(rect: Rect) -> usize {
    usize::from(rect.height.saturating_sub(2))
}

/// How far the content of the overlay on `area` can scroll.
pub fn max_scroll(area: Rect) -> usize {
    let (rect, lines) = layout(area);
    lines.len().saturating_sub(visible_rows(rect))
}

/// What `key` does to the overlay on `area` scrolled to `scroll`.
pub fn handle(key: &KeyEvent, scroll: usize, area: Rect) -> HelpKey {
    let (rect, _) = layout(area);
    let page = visible_rows(rect).max(1);
    let max = max_scroll(area);
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let to = match key.code {
        KeyCode::Char('j') | KeyCode::Down if !ctrl => scroll + 1,
        KeyCode::Char('k') | KeyCode::Up if !ctrl => scroll.saturating_sub(1),
        KeyCode::Char(' ') | KeyCode::PageDown => scroll + page,
        KeyCode::Char('f' | 'd') if ctrl => scroll + page,
        KeyCode::Char('b') | KeyCode::PageUp if !ctrl => scroll.saturating_sub(page),
        KeyCode::Char('b' | 'u') if ctrl => scroll.saturating_sub(page),
        KeyCode::Char('g') | KeyCode::Home => 0,
        KeyCode::Char('G') | KeyCode::End => max,
        _ => return HelpKey::Close,
    };
    HelpKey::Scroll(to.min(max))
}

/// Draws the overlay over `area`, its content scrolled by `scroll` lines.
pub fn draw(area: Rect, scroll: usize, buf: &mut Buffer, chrome: &Chrome) {
    let (rect, lines) = layout(area);
    if rect.width < 4 || rect.height < 3 {
        return;
    }
    let rows = visible_rows(rect);
    let scroll = scroll.min(lines.len().saturating_sub(rows));
    let more = lines.len() > rows;
    let footers = if more {
        vec![
            format!(
                " {}–{} of {} · j k scroll · other keys close ",
                scroll + 1,
                (scroll + rows).min(lines.len()),
                lines.len()
            ),
            " j k scroll · other keys close ".to_string(),
            " j k scroll ".to_string(),
        ]
    } else {
        vec![" any key closes ".to_string()]
    };
    Clear.render(rect, buf);
    let mut block = Block::new()
        .borders(Borders::ALL)
        .title(" help ")
        .style(chrome.help);
    if let Some(footer) = footers
        .into_iter()
        .find(|f| display_width(f) + 2 <= usize::from(rect.width))
    {
        block = block.title_bottom(footer);
    }
    block.render(rect, buf);
    let inner = Rect {
        x: rect.x + 2,
        y: rect.y + 1,
        width: rect.width.saturating_sub(4),
        height: rect.height.saturating_sub(2),
    };
    for (i, line) in lines.iter().skip(scroll).take(rows).enumerate() {
        buf.set_line(inner.x, inner.y + i as u16, line, inner.width);
    }
}

/// The overlay's content laid out for `width` columns.
pub fn content(width: usize) -> Vec<Line<'static>> {
    let entries: Vec<(&str, &str)> = BINDINGS
        .iter()
        .filter(|b| !b.help.is_empty())
        .map(|b| (b.label, b.help))
        .chain(POINTER.iter().copied())
        .collect();
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let key_width = entries
        .iter()
        .map(|(k, _)| display_width(k))
        .max()
        .unwrap_or(0);
    let beside = width >= key_width + 2 + MIN_TEXT;
    let mut lines = vec![Line::default()];
    for (key, help) in entries {
        let text = [Span::raw(help)];
        if beside {
            let first = [
                Span::styled(key, bold),
                spaces(key_width - display_width(key) + 2),
            ];
            lines.extend(wrap_spans(&text, width, &first, &[spaces(key_width + 2)]));
        } else {
            lines.extend(wrap_spans(&[Span::styled(key, bold)], width, &[], &[]));
            lines.extend(wrap_spans(&text, width, &[spaces(2)], &[spaces(2)]));
        }
    }
    for (topic, text) in NOTES {
        lines.push(Line::default());
        lines.push(Line::from(Span::styled(*topic, bold)));
        lines.extend(wrap_spans(&[Span::raw(*text)], width, &[], &[]));
    }
    lines.push(Line::default());
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::width::{line_text, line_width};

    fn text(width: usize) -> Vec<String> {
        content(width).iter().map(line_text).collect()
    }

    #[test]
    fn every_key_and_note_is_there_at_any_width() {
        for width in [20, 36, 64] {
            let all = text(width).join("\n");
            for binding in BINDINGS {
                assert!(all.contains(binding.label), "{width}: {}", binding.label);
            }
            for (topic, _) in NOTES {
                assert!(all.contains(topic), "{width}: {topic}");
            }
            for line in content(width) {
                assert!(line_width(&line) <= width, "{width}: {}", line_text(&line));
            }
        }
    }

    #[test]
    fn docs_tui_md_lists_every_key_and_topic() {
        let docs = include_str!("../../docs/tui.md");
        for binding in BINDINGS {
            assert!(docs.contains(binding.label), "{}", binding.label);
        }
        for (topic, _) in NOTES {
            assert!(docs.contains(&format!("## {topic}")), "{topic}");
        }
    }

    #[test]
    fn narrow_help_goes_under_its_key() {
        let lines = text(24);
        let at = lines.iter().position(|l| l == "PgDn Space").unwrap();
        assert_eq!(lines[at + 1], "  a screen down");
        let wide = text(60);
        assert!(
            wide.iter()
                .any(|l| l.starts_with("PgDn Space  a screen down"))
        );
    }

    #[test]
    fn scroll_keys_scroll_within_bounds_and_others_close() {
        let area = Rect::new(0, 0, 40, 12);
        let max = max_scroll(area);
        assert!(max > 0, "the help is taller than 12 rows");
        let key = |c| KeyEvent::new(c, KeyModifiers::NONE);
        assert_eq!(
            handle(&key(KeyCode::Char('j')), 0, area),
            HelpKey::Scroll(1)
        );
        assert_eq!(handle(&key(KeyCode::Up), 0, area), HelpKey::Scroll(0));
        assert_eq!(handle(&key(KeyCode::End), 0, area), HelpKey::Scroll(max));
        assert_eq!(
            handle(&key(KeyCode::Char(' ')), max, area),
            HelpKey::Scroll(max)
        );
        assert_eq!(handle(&key(KeyCode::Char('q')), 3, area), HelpKey::Close);
        assert_eq!(handle(&key(KeyCode::Esc), 3, area), HelpKey::Close);
    }
}
