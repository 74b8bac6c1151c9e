//! The document as a scrollable sheet of lines, without ever counting all of
//! them: a position is (block, line within the block), and every move lays out
//! only the blocks it passes over. Opening a huge conversation at its end lays
//! out one screen.

use super::blocks::Blocks;
use super::cache::{CacheKey, Laid, LayoutCache, Wanted};
use super::fold::Folds;
use crate::render::lazy_highlight::Colour;

/// A place in the document: a block and a line within its layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Pos {
    /// Block index.
    pub block: usize,
    /// Line within the block's layout.
    pub line: usize,
}

impl Pos {
    /// The position of `line` in `block`.
    pub fn new(block: usize, line: usize) -> Self {
        Pos { block, line }
    }
}

/// The document laid out at one width with the current folds.
pub struct Sheet<'a, D: Blocks> {
    /// The document.
    pub doc: &'a D,
    /// Laid-out blocks.
    pub cache: &'a mut LayoutCache<D::Key>,
    /// Fold state.
    pub folds: &'a Folds<D::Key>,
    /// Columns.
    pub width: usize,
    /// Rows of text on screen: code is highlighted through what is shown
    /// and one screen more.
    pub rows: usize,
}

impl<D: Blocks> Sheet<'_, D> {
    /// Whether block `i` is drawn folded (a piece as the block it belongs to).
    pub fn is_folded(&self, i: usize) -> bool {
        let owner = self.doc.owner(i);
        self.doc.foldable(owner)
            && self.folds.is_folded(
                &self.doc.key(owner),
                self.doc.class(owner),
                self.doc.limited(owner),
            )
    }

    /// Block `i`'s lines (none when its kind is hidden).
    pub fn lines(&mut self, i: usize) -> Laid {
        let doc = self.doc;
        if self.folds.is_hidden(doc.class(i)) {
            return Vec::new().into();
        }
        let folded = self.is_folded(i);
        self.lines_as(i, folded)
    }

    /// Block `i`'s lines as they are when unfolded (for search).
    pub fn lines_unfolded(&mut self, i: usize) -> Laid {
        self.lines_as(i, false)
    }

    fn lines_as(&mut self, i: usize, folded: bool) -> Laid {
        self.coloured_as(i, folded, 0)
    }

    /// Block `i`'s lines with the code in its first `shown` lines coloured
    /// (as far as a key may wait for it: see [`Sheet::colour`]).
    fn coloured_as(&mut self, i: usize, folded: bool, shown: usize) -> Laid {
        let doc = self.doc;
        let key = CacheKey {
            key: doc.key(i),
            revision: doc.revision(i),
            width: self.width,
            folded,
            view: doc.view_name(),
        };
        let width = self.width;
        let wanted = Wanted {
            shown,
            colour: self.colour(shown),
            generation: doc.colour_generation(),
        };
        self.cache.get_coloured(key, wanted, |colour| {
            let (lines, plain_from) = doc.lines_coloured(i, width, folded, colour);
            (lines, plain_from, doc.colour_generation())
        })
    }

    /// What a layout showing the first `shown` lines of a block colours:
    /// those and one screen more (a block coming into view from above gets
    /// its first two screens), at once when that is at most two screens of
    /// highlighting; further (a jump into a long block) it is left to be
    /// done between keys.
    fn colour(&self, shown: usize) -> Colour {
        let screen = self.rows.max(1);
        Colour {
            through: shown.max(screen).saturating_add(screen),
            at_once: 2 * screen,
        }
    }

    /// How many lines block `i` takes.
    pub fn height(&mut self, i: usize) -> usize {
        self.lines(i).len()
    }

    /// The nearest valid position: inside a block that has lines.
    pub fn normalize(&mut self, pos: Pos) -> Pos {
        let len = self.doc.len();
        if len == 0 {
            return Pos::default();
        }
        let block = pos.block.min(len - 1);
        let line = if block == pos.block {
            pos.line
        } else {
            usize::MAX
        };
        let height = self.height(block);
        if height > 0 {
            return Pos::new(block, line.min(height - 1));
        }
        if let Some(next) = (block + 1..len).find(|&b| self.height(b) > 0) {
            return Pos::new(next, 0);
        }
        match (0..block).rev().find(|&b| self.height(b) > 0) {
            Some(prev) => Pos::new(prev, self.height(prev) - 1),
            None => Pos::default(),
        }
    }

    /// `n` lines further down, stopping at the last line of the document.
    pub fn forward(&mut self, pos: Pos, n: usize) -> Pos {
        let len = self.doc.len();
        let mut pos = self.normalize(pos);
        let mut remaining = n;
        while remaining > 0 && len > 0 {
            let height = self.height(pos.block);
            let left_in_block = height.saturating_sub(pos.line + 1);
            if remaining <= left_in_block {
                pos.line += remaining;
                break;
            }
            match (pos.block + 1..len).find(|&b| self.height(b) > 0) {
                Some(next) => {
                    remaining -= left_in_block + 1;
                    pos = Pos::new(next, 0);
                }
                None => {
                    pos.line = height.saturating_sub(1);
                    break;
                }
            }
        }
        pos
    }

    /// `n` lines further up, stopping at the first line of the document.
    pub fn back(&mut self, pos: Pos, n: usize) -> Pos {
        let mut pos = self.normalize(pos);
        let mut remaining = n;
        while remaining > pos.line {
            remaining -= pos.line + 1;
            match (0..pos.block).rev().find(|&b| self.height(b) > 0) {
                Some(prev) => pos = Pos::new(prev, self.height(prev) - 1),
                None => return Pos::new(pos.block, 0),
            }
        }
        pos.line -= remaining;
        pos
    }

    /// The top of the last screenful of `rows` lines: where following sits,
    /// and the furthest the view scrolls down.
    pub fn end_top(&mut self, rows: usize) -> Pos {
        let len = self.doc.len();
        let mut seen = 0;
        for b in (0..len).rev() {
            let height = self.height(b);
            if height == 0 {
                continue;
            }
            seen += height;
            if seen >= rows {
                return Pos::new(b, seen - rows);
            }
        }
        self.normalize(Pos::default())
    }

    /// How many rows below `from` the position `to` is, if it is less than `limit`.
    pub fn rows_between(&mut self, from: Pos, to: Pos, limit: usize) -> Option<usize> {
        if to < from {
            return None;
        }
        let mut rows = 0;
        let mut pos = from;
        while pos.block < to.block {
            rows += self.height(pos.block).saturating_sub(pos.line);
            if rows >= limit {
                return None;
            }
            pos = Pos::new(pos.block + 1, 0);
        }
        rows += to.line.saturating_sub(pos.line);
        (rows < limit).then_some(rows)
    }

    /// The `rows` positions and lines on screen from `top` down.
    pub fn rows(&mut self, top: Pos, rows: usize) -> Vec<(Pos, Laid)> {
        let len = self.doc.len();
        let mut out = Vec::with_capacity(rows);
        if len == 0 {
            return out;
        }
        let top = self.normalize(top);
        let mut block = top.block;
        let mut line = top.line;
        while out.len() < rows && block < len {
            let height = self.height(block);
            let shown = height.min(line + (rows - out.len()));
            let lines = if shown > 0 {
                self.coloured_as(block, self.is_folded(block), shown)
            } else {
                self.lines(block)
            };
            while line < lines.len() && out.len() < rows {
                out.push((Pos::new(block, line), lines.clone()));
                line += 1;
            }
            block += 1;
            line = 0;
        }
        out
    }
}
