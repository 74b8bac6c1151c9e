//! Moving around: the cursor, scrolling, jumps between turns, tool cards,
//! failed calls and messages to the user, and counts typed before a key
//! (`5j`, `10G`, `12t`, as in vim and less).
//!
//! The cursor is a highlighted screen row. `j`/`k` move it and scroll only
//! at the screen's edges (vim's way); page keys and the wheel scroll the view
//! under it. The cursor row picks the block `Enter`, `o` and `y` act on.
//! Reaching the end by scrolling down resumes following; leaving it pauses.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::app::{App, Effect, HSCROLL_STEP};
use super::blocks::{BlockClass, Landmark, Viewable, turn_start};
use super::keys::Action;
use super::lazy_layout::Pos;
use crate::text::width::{display_width, line_text};

/// The largest count kept: more digits are ignored (vim caps counts too).
const MAX_COUNT: usize = 99_999_999;

impl<D: Viewable> App<D> {
    /// The count after `key` if it is a digit of one: `1`–`9` start a count,
    /// `0` only continues one.
    pub(super) fn count_digit(&self, key: &KeyEvent) -> Option<usize> {
        if key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        {
            return None;
        }
        let KeyCode::Char(c) = key.code else {
            return None;
        };
        let digit = c.to_digit(10)? as usize;
        match self.count {
            None if digit == 0 => None,
            None => Some(digit),
            Some(n) => Some(n.saturating_mul(10).saturating_add(digit).min(MAX_COUNT)),
        }
    }

    /// Does what a key asks, `count` times or at place `count` where the key
    /// takes one (`5j`, `3]`, `2n`; `10G` and `10g` line 10; `12t` turn 12).
    pub fn act_counted(&mut self, action: Action, count: Option<usize>) -> Option<Effect> {
        let Some(n) = count else {
            return self.act(action);
        };
        let rows = self.rows.max(1);
        match action {
            Action::Down => self.cursor_down_by(n),
            Action::Up => self.cursor_up_by(n),
            Action::HalfDown => self.scroll_down((rows / 2).max(1).saturating_mul(n)),
            Action::HalfUp => self.scroll_up((rows / 2).max(1).saturating_mul(n)),
            Action::PageDown => self.scroll_down(rows.saturating_mul(n)),
            Action::PageUp => self.scroll_up(rows.saturating_mul(n)),
            Action::Top | Action::Bottom => self.go_to_line(n),
            Action::GotoTurn => {
                let turns = if self.doc.is_empty() {
                    0
                } else {
                    self.doc.turn(self.doc.len() - 1)
                };
                if n > turns {
                    let s = if turns == 1 { "" } else { "s" };
                    self.note(format!("no turn {n}: the conversation has {turns} turn{s}"));
                } else {
                    self.go_to_turn(n);
                }
            }
            Action::PrevTurn
            | Action::NextTurn
            | Action::PrevCard
            | Action::NextCard
            | Action::NextHit
            | Action::PrevHit
            | Action::NextFailure
            | Action::PrevFailure
            | Action::NextSpeech
            | Action::PrevSpeech
            | Action::Left
            | Action::Right => {
                // Repeats stop at the first one that says it cannot go on.
                for done in 0..n.min(self.doc.len().max(1)) {
                    self.act(action);
                    if self.is_reading() {
                        // The rest waits for the earlier turns.
                        self.repeat_after_reading(n - done);
                        break;
                    }
                    if self.message.is_some() {
                        break;
                    }
                }
            }
            _ => return self.act(action),
        }
        None
    }

    /// `10G`: line `n` (1-based) of the conversation as laid out now, at the
    /// top of the screen with the cursor on it; past the end, the last line.
    pub(super) fn go_to_line(&mut self, n: usize) {
        if self.doc.is_empty() {
            return;
        }
        let target = self.sheet().forward(Pos::default(), n.saturating_sub(1));
        let down = target > self.top;
        self.goto(target, down);
    }

    /// `5j`: the cursor `n` lines down, scrolling what the screen cannot show.
    fn cursor_down_by(&mut self, n: usize) {
        let (top, rows) = (self.top, self.rows);
        let drawn = self.sheet().rows(top, rows).len();
        let last = drawn.saturating_sub(1);
        let want = self.cursor.saturating_add(n);
        if want <= last {
            self.cursor = want;
        } else {
            self.scroll_down(want - last);
            self.cursor = usize::MAX;
            self.settle();
        }
    }

    /// `5k`: the cursor `n` lines up, scrolling what the screen cannot show.
    fn cursor_up_by(&mut self, n: usize) {
        if n <= self.cursor {
            self.cursor -= n;
        } else {
            self.scroll_up(n - self.cursor);
            self.cursor = 0;
        }
    }

    /// `x` / `X`, `)` / `(`: the next / previous block that is `landmark`,
    /// after / before the cursor's block.
    pub(super) fn jump_to(&mut self, landmark: Landmark, forward: bool) {
        let Some(at) = self.cursor_pos() else { return };
        let hit = |doc: &D, i: usize| doc.is(i, landmark) && !self.folds.is_hidden(doc.class(i));
        let head = self.doc.owner(at.block);
        let target = if forward {
            (at.block + 1..self.doc.len()).find(|&i| hit(&self.doc, i))
        } else if (at.line > 0 || head < at.block) && hit(&self.doc, head) {
            Some(head)
        } else {
            (0..at.block).rev().find(|&i| hit(&self.doc, i))
        };
        let what = match landmark {
            Landmark::Failure => "failed tool call",
            Landmark::Speech => "message to the user",
        };
        match target {
            Some(b) => self.goto(Pos::new(b, 0), forward),
            None if !forward && self.doc.earlier() > 0 => {
                self.read_all_then(
                    match landmark {
                        Landmark::Failure => Action::PrevFailure,
                        Landmark::Speech => Action::PrevSpeech,
                    },
                    None,
                );
            }
            None => self.note(format!(
                "no {} {what}",
                if forward { "later" } else { "earlier" }
            )),
        }
    }

    /// Moves the view so that `top` is its first line (clamped to the last
    /// screenful) and updates following: leaving the end pauses; a downward
    /// move that reaches the end resumes.
    pub(super) fn move_top(&mut self, top: Pos, down: bool) {
        let rows = self.rows;
        let end = self.sheet().end_top(rows);
        let top = self.sheet().normalize(top).min(end);
        let moved = top != self.top;
        self.top = top;
        if top != end {
            self.pause();
        } else if down && moved && !self.follow {
            self.follow = true;
            self.paused_at = None;
        }
        self.settle();
    }

    pub(super) fn scroll_down(&mut self, n: usize) {
        let top = self.top;
        let next = self.sheet().forward(top, n);
        self.move_top(next, true);
    }

    pub(super) fn scroll_up(&mut self, n: usize) {
        self.lines_above(n);
        let top = self.top;
        let next = self.sheet().back(top, n);
        self.move_top(next, false);
    }

    pub(super) fn cursor_down(&mut self) {
        let (top, rows) = (self.top, self.rows);
        let drawn = self.sheet().rows(top, rows).len();
        if self.cursor.saturating_add(1) < drawn {
            self.cursor += 1;
        } else {
            self.scroll_down(1);
        }
    }

    pub(super) fn cursor_up(&mut self) {
        if self.cursor > 0 {
            self.cursor -= 1;
        } else {
            self.scroll_up(1);
        }
    }

    /// Shows `target` at the top of the screen (or as high as the end
    /// allows) with the cursor on it.
    pub(super) fn goto(&mut self, target: Pos, down: bool) {
        let target = self.sheet().normalize(target);
        self.move_top(target, down);
        let (top, rows) = (self.top, self.rows);
        self.cursor = self.sheet().rows_between(top, target, rows).unwrap_or(0);
    }

    /// Shows the first block of turn `turn` (1-based; past the end: the last
    /// block) at the top of the screen, like `]` does for the next turn. Lays
    /// out only what the jump lands on, so the cost of reaching any place of a
    /// long conversation can be measured (benches/frame.rs).
    pub fn go_to_turn(&mut self, turn: usize) {
        if self.doc.is_empty() {
            return;
        }
        let target = turn_start(&self.doc, turn).min(self.doc.len() - 1);
        let down = Pos::new(target, 0) > self.top;
        self.goto(Pos::new(target, 0), down);
    }

    /// `]` goes to the next turn's first block; `[` to the start of the
    /// cursor's turn, or of the previous one when already there.
    pub(super) fn jump_turn(&mut self, forward: bool) {
        let Some(at) = self.cursor_pos() else { return };
        let turn = self.doc.turn(at.block);
        let target = if forward {
            let next = turn_start(&self.doc, turn + 1);
            if next >= self.doc.len() {
                self.note("no later turn");
                return;
            }
            next
        } else {
            let start = turn_start(&self.doc, turn);
            if Pos::new(start, 0) < at {
                start
            } else if turn > 1 && start > 0 {
                turn_start(&self.doc, self.doc.turn(start - 1))
            } else {
                self.note("no earlier turn");
                return;
            }
        };
        self.goto(Pos::new(target, 0), forward);
    }

    /// `}` / `{`: the next / previous tool card after / before the cursor's block.
    pub(super) fn jump_card(&mut self, forward: bool) {
        let Some(at) = self.cursor_pos() else { return };
        // A card's head: the first of its pieces.
        let is_card = |doc: &D, i: usize| doc.class(i) == BlockClass::ToolCard && doc.owner(i) == i;
        let head = self.doc.owner(at.block);
        let target = if forward {
            (at.block + 1..self.doc.len()).find(|&i| is_card(&self.doc, i))
        } else if (at.line > 0 || head < at.block) && is_card(&self.doc, head) {
            Some(head)
        } else {
            (0..at.block).rev().find(|&i| is_card(&self.doc, i))
        };
        match target {
            Some(b) => self.goto(Pos::new(b, 0), forward),
            None if !forward && self.doc.earlier() > 0 => {
                self.read_all_then(Action::PrevCard, None);
            }
            None => self.note(if forward {
                "no later tool call"
            } else {
                "no earlier tool call"
            }),
        }
    }

    /// `l`: scrolls right while some line on screen is wider than it.
    pub(super) fn scroll_right(&mut self) {
        let widest = self.widest_on_screen();
        if widest <= self.width + self.hscroll {
            if self.hscroll == 0 {
                self.note("no line on screen is wider than the window");
            }
            return;
        }
        self.hscroll += HSCROLL_STEP;
    }

    /// The width of the widest line on screen.
    pub(super) fn widest_on_screen(&mut self) -> usize {
        let (top, rows) = (self.top, self.rows);
        self.sheet()
            .rows(top, rows)
            .iter()
            .map(|(pos, lines)| display_width(&line_text(&lines[pos.line])))
            .max()
            .unwrap_or(0)
    }
}
