//! Search: `/` types a query, `n` / `N` go to the next / previous match.
//!
//! Blocks are searched in their full text, folded content included, without
//! laying them out; the block that matches is unfolded and laid out to find
//! the line to show. A match in content the block does not display (a result
//! cut by its style) lands on the block with a note pointing to `o`.

use super::app::App;
use super::blocks::Blocks;
use super::sheet::Pos;
use super::text::Matcher;
use crate::text::width::display_width;
use crate::text::width::line_text;

impl<D: Blocks> App<D> {
    /// After a new query: the first match at or after the cursor line.
    pub(super) fn find_from_cursor(&mut self) {
        self.find_inner(true, true);
    }

    /// `n` (forward) or `N`.
    pub(super) fn find(&mut self, forward: bool) {
        if self.search.is_none() {
            self.note("no search yet: press / to search");
            return;
        }
        self.find_inner(forward, false);
    }

    fn find_inner(&mut self, forward: bool, inclusive: bool) {
        let Some(matcher) = self.search.clone() else {
            return;
        };
        let len = self.doc.len();
        let Some(at) = self.cursor_pos() else {
            self.note(format!("not found: {}", matcher.query()));
            return;
        };
        // The cursor's own block first, beyond the cursor line.
        if let Some(line) =
            self.line_in_block(&matcher, at.block, Some((at.line, inclusive)), forward)
        {
            return self.land(&matcher, Pos::new(at.block, line), forward, false);
        }
        let order: Vec<usize> = if forward {
            (at.block + 1..len).chain(0..=at.block).collect()
        } else {
            (0..at.block).rev().chain((at.block..len).rev()).collect()
        };
        for b in order {
            if self.folds.is_hidden(self.doc.class(b)) || !matcher.is_in(&self.doc.search_text(b)) {
                continue;
            }
            let wrapped = if forward {
                b <= at.block
            } else {
                b >= at.block
            };
            match self.line_in_block(&matcher, b, None, forward) {
                Some(line) => return self.land(&matcher, Pos::new(b, line), forward, wrapped),
                None => {
                    self.unfold(b);
                    self.goto(Pos::new(b, 0), forward);
                    self.note(format!(
                        "\"{}\" is in a part not shown: o opens it in full",
                        matcher.query()
                    ));
                    return;
                }
            }
        }
        self.note(format!("not found: {}", matcher.query()));
    }

    /// The line of block `b` (unfolded) holding a match: the first after
    /// `bound` going forward, the last before it going back; whole block
    /// when there is no bound. `None` if no displayed line matches.
    fn line_in_block(
        &mut self,
        m: &Matcher,
        b: usize,
        bound: Option<(usize, bool)>,
        forward: bool,
    ) -> Option<usize> {
        if self.folds.is_hidden(self.doc.class(b)) {
            return None;
        }
        let lines = self.sheet().lines_unfolded(b);
        let hit = |i: &usize| m.is_in(&line_text(&lines[*i]));
        match (bound, forward) {
            (None, true) => (0..lines.len()).find(hit),
            (None, false) => (0..lines.len()).rev().find(hit),
            (Some((at, inclusive)), true) => {
                let from = if inclusive { at } else { at + 1 };
                (from..lines.len()).find(hit)
            }
            (Some((at, _)), false) => (0..at.min(lines.len())).rev().find(hit),
        }
    }

    fn unfold(&mut self, b: usize) {
        let b = self.doc.owner(b);
        if self.doc.foldable(b) {
            let key = self.doc.key(b);
            self.folds.set(&key, self.doc.class(b), false);
        }
    }

    /// Shows the match at `pos`, scrolled horizontally into view if needed.
    fn land(&mut self, m: &Matcher, pos: Pos, forward: bool, wrapped: bool) {
        self.unfold(pos.block);
        self.goto(pos, forward);
        let lines = self.sheet().lines(pos.block);
        if let Some(line) = lines.get(pos.line) {
            let text = line_text(line);
            if let Some(hit) = m.find(&text).first() {
                let col = display_width(&text[..hit.start]);
                let end = display_width(&text[..hit.end]);
                if col < self.hscroll || end > self.hscroll + self.width {
                    self.hscroll = col.saturating_sub(self.width / 4);
                }
            }
        }
        if wrapped {
            self.note(if forward {
                "search wrapped to the top"
            } else {
                "search wrapped to the bottom"
            });
        }
    }
}
