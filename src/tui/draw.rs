//! Painting a frame: the visible lines, the status bar, and the overlays
//! (search prompt, help, picker). Only the blocks on screen are laid out.

use std::time::SystemTime;

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use super::app::{App, Mode};
use super::blocks::{LiveState, ReplayStatus, Viewable};
use super::text::highlight;
use crate::text::count::thousands;
use crate::text::sanitize::echo_line;
use crate::text::truncate::{shift, truncate, truncate_start};
use crate::text::width::{display_width, line_width};

/// The view a conversation opens in, not named in the status bar.
const DEFAULT_VIEW: &str = "terminal";
/// At the right edge of a line that goes on (`l` shows the rest).
const MORE: &str = "→";

impl<D: Viewable> App<D> {
    /// Draws the whole screen.
    pub fn draw(&mut self, frame: &mut Frame<'_>) {
        let area = frame.area();
        if area.width == 0 || area.height == 0 {
            return;
        }
        self.resize(usize::from(area.width), usize::from(area.height));
        let buf = frame.buffer_mut();
        if self.mode == Mode::Picker {
            if let Some(picker) = &self.picker {
                picker.draw(area, buf, &self.chrome);
            }
            return;
        }
        if self.mode == Mode::Everywhere {
            self.everywhere.draw(area, buf, &self.chrome);
            return;
        }
        let text = Rect {
            height: area.height - 1,
            ..area
        };
        self.draw_text(text, buf);
        let bar = Rect {
            y: area.bottom() - 1,
            height: 1,
            ..area
        };
        if let Some(cursor) = self.draw_status(bar, buf) {
            frame.set_cursor_position(cursor);
        }
        if let Mode::Help(scroll) = self.mode {
            super::help::draw(area, scroll, frame.buffer_mut(), &self.chrome);
        }
    }

    fn draw_text(&mut self, area: Rect, buf: &mut Buffer) {
        let (top, rows, hscroll, cursor) = (
            self.top,
            usize::from(area.height),
            self.hscroll,
            self.cursor,
        );
        if self.doc.is_empty() {
            let note = match self.doc.live() {
                LiveState::Live => "nothing here yet: waiting for the first events",
                _ => "this conversation has no events",
            };
            let line = Line::from(Span::styled(format!("  {note}"), self.chrome.secondary));
            buf.set_line(area.x, area.y, &line, area.width);
            return;
        }
        let search = self.search.clone();
        let (cursor_style, match_style) = (self.chrome.cursor_line, self.chrome.search_hit);
        let drawn = self.sheet().rows(top, rows);
        for (y, (pos, lines)) in drawn.iter().enumerate() {
            let y = area.y + y as u16;
            if y - area.y == cursor as u16 {
                buf.set_style(
                    Rect {
                        y,
                        height: 1,
                        ..area
                    },
                    cursor_style,
                );
            }
            let full = &lines[pos.line];
            let line = match &search {
                Some(m) => shift(&highlight(full, m, match_style), hscroll),
                None => shift(full, hscroll),
            };
            buf.set_line(area.x, y, &line, area.width);
            if line_width(&line) > usize::from(area.width) {
                mark_more(buf, area.right() - 1, y);
            }
        }
    }

    /// Draws the status bar; returns where the terminal cursor goes when typing.
    fn draw_status(&mut self, area: Rect, buf: &mut Buffer) -> Option<Position> {
        let chrome = &self.chrome;
        let bar = chrome.status_bar;
        buf.set_style(area, bar);
        let width = usize::from(area.width);
        let (left, style, typing) = match &self.mode {
            Mode::Prompt(prompt) => (prompt.shown(), chrome.search_prompt, true),
            _ => match &self.message {
                Some(message) => (message.clone(), chrome.status_note, false),
                None => (self.doc.title(), bar.add_modifier(Modifier::BOLD), false),
            },
        };
        // Titles, notes quoting file names and typed queries are untrusted: shown, never obeyed.
        let left = echo_line(&left).into_owned();
        // A note (often a problem to act on) may take all but the live
        // indicator; the prompt half the bar; a title a third. The right side
        // gives up its least useful parts to make that room.
        let share = if self.message.is_some() && !typing {
            width
        } else if typing {
            width / 2
        } else {
            (width / 3).max(12)
        };
        // The margin, the gap before the right side, and the typing cursor.
        let wanted_left = (display_width(&left) + if typing { 3 } else { 2 }).min(share);
        let mut right = self.status_parts();
        let right_width = |parts: &[(&str, Span<'_>)]| {
            parts
                .iter()
                .map(|(_, s)| display_width(&s.content))
                .sum::<usize>()
                + 3 * parts.len().saturating_sub(1)
                + 1
        };
        // `H help` only where it takes nothing from the left side.
        if right_width(&right) + display_width(&left) + 2 > width {
            right.retain(|(name, _)| *name != "help");
        }
        // Drop the least useful parts first until the rest fits.
        for drop in [
            "events", "cost", "tokens", "view", "speed", "time", "cols", "match", "turn", "step",
        ] {
            if right_width(&right) + wanted_left <= width {
                break;
            }
            right.retain(|(name, _)| *name != drop);
        }
        let mut spans: Vec<Span<'static>> = Vec::new();
        for (i, (_, span)) in right.into_iter().enumerate() {
            if i > 0 {
                spans.push(Span::styled(" · ", bar));
            }
            spans.push(span);
        }
        spans.push(Span::raw(" "));
        let right = Line::from(spans);
        let right_width = line_width(&right).min(width);
        let right_x = area.x + (width - right_width) as u16;
        buf.set_line(right_x, area.y, &right, right_width as u16);

        let left_width = width.saturating_sub(right_width + 1);
        let room = left_width.saturating_sub(1);
        // While typing, the end of the query stays in view.
        let left = if typing {
            truncate_start(&left, room.saturating_sub(1))
        } else {
            truncate(&left, room)
        };
        let cursor = typing.then(|| display_width(&left));
        let left = format!(" {left}");
        buf.set_stringn(area.x, area.y, &left, left_width, style);
        cursor.map(|w| Position::new(area.x + 1 + w as u16, area.y))
    }

    /// The right side of the status bar, each part named for dropping.
    fn status_parts(&mut self) -> Vec<(&'static str, Span<'static>)> {
        let bar = self.chrome.status_bar;
        let mut parts = Vec::new();
        let len = self.doc.len();
        if let Some(at) = self.cursor_pos() {
            let turns = self.doc.turn(len - 1);
            parts.push((
                "turn",
                Span::styled(format!("turn {}/{turns}", self.doc.turn(at.block)), bar),
            ));
        }
        if let Some(hits) = self.match_status() {
            parts.push(("match", Span::styled(hits, bar)));
        }
        if let Some(replay) = self.doc.replay() {
            self.replay_parts(&mut parts, &replay);
            return parts;
        }
        let events = self.doc.event_count();
        parts.push((
            "events",
            Span::styled(
                format!(
                    "{} event{}",
                    thousands(events),
                    if events == 1 { "" } else { "s" }
                ),
                bar,
            ),
        ));
        if let Some(usage) = self.doc.usage() {
            parts.push(("tokens", Span::styled(usage, bar)));
        }
        if let Some(cost) = self.doc.cost() {
            parts.push(("cost", Span::styled(cost, bar)));
        }
        self.view_parts(&mut parts);
        parts.push(("live", self.live_indicator()));
        let stamp = self.clock.stamp(self.last_change, SystemTime::now());
        parts.push(("time", Span::styled(stamp, bar)));
        parts.push(("help", Span::styled("H help", bar)));
        parts
    }

    /// The right side of the status bar in a replay, after the turn and the
    /// match: `replay · event 57/212 · 4× · 17:07:09`.
    fn replay_parts(&self, parts: &mut Vec<(&'static str, Span<'static>)>, replay: &ReplayStatus) {
        let chrome = &self.chrome;
        let bar = chrome.status_bar;
        let (state, style) = if replay.playing {
            ("replay".to_string(), chrome.status_following)
        } else if replay.step < replay.total {
            ("replay ‖ paused".to_string(), chrome.status_paused)
        } else {
            ("replay ○ end".to_string(), bar)
        };
        let news = self.news();
        let state = if !self.follow && news > 0 {
            format!("{state} · {news} new")
        } else {
            state
        };
        parts.push(("live", Span::styled(state, style)));
        parts.push((
            "step",
            Span::styled(
                format!("{} {}/{}", replay.unit, replay.step, replay.total),
                bar,
            ),
        ));
        parts.push(("speed", Span::styled(replay.speed.clone(), bar)));
        self.view_parts(parts);
        if let Some(moment) = replay.moment {
            parts.push(("time", Span::styled(self.clock.time(moment), bar)));
        }
        parts.push(("help", Span::styled("H help", bar)));
    }

    /// The view, unless it is the usual one (that goes without saying), and
    /// the columns shown when scrolled sideways.
    fn view_parts(&self, parts: &mut Vec<(&'static str, Span<'static>)>) {
        let bar = self.chrome.status_bar;
        let view = self.doc.view_name();
        if view != DEFAULT_VIEW {
            parts.push(("view", Span::styled(format!("{view} view"), bar)));
        }
        if self.hscroll > 0 {
            let (from, to) = (self.hscroll + 1, self.hscroll + self.width);
            parts.push(("cols", Span::styled(format!("cols {from}–{to}"), bar)));
        }
    }

    /// The live state: a symbol and a word, so that it reads without colour.
    fn live_indicator(&self) -> Span<'static> {
        let chrome = &self.chrome;
        let news = self.news();
        let live = self.doc.live();
        if live == LiveState::Removed {
            Span::styled("✗ file removed", chrome.status_removed)
        } else if !self.follow && news > 0 {
            Span::styled(
                format!("‖ paused · {news} new"),
                chrome.status_paused.add_modifier(Modifier::BOLD),
            )
        } else if live == LiveState::Finished {
            Span::styled("○ finished", chrome.status_bar)
        } else if self.follow {
            Span::styled("● following", chrome.status_following)
        } else {
            Span::styled("‖ paused", chrome.status_paused)
        }
    }
}

/// Puts a dim [`MORE`] in cell (`x`, `y`): the line goes on to the right.
fn mark_more(buf: &mut Buffer, x: u16, y: u16) {
    // A wide character cut by the marker would leave half of itself.
    if x > 0 && display_width(buf[(x - 1, y)].symbol()) > 1 {
        buf[(x - 1, y)].set_symbol(" ");
    }
    let cell = &mut buf[(x, y)];
    let style = cell.style().add_modifier(Modifier::DIM);
    cell.set_symbol(MORE).set_style(style);
}
