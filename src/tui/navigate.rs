//! Moving around: the cursor, scrolling, jumps between turns and tool cards.
//!
//! The cursor is a highlighted screen row. `j`/`k` move it and scroll only
//! at the screen's edges (vim's way); page keys and the wheel scroll the view
//! under it. The cursor row picks the block `Enter`, `o` and `y` act on.
//! Reaching the end by scrolling down resumes following; leaving it pauses.

use super::app::{App, HSCROLL_STEP};
use super::blocks::{BlockClass, Blocks, turn_start};
use super::sheet::Pos;
use crate::text::width::display_width;
use crate::text::width::line_text;

impl<D: Blocks> App<D> {
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
