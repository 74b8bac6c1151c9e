//! Search, as in less and vim: `/` types a query searched forward, `?` one
//! searched backward; `n` goes on in the search's direction and `N` against
//! it. ↑ / ↓ in the prompt recall this session's earlier queries. The status
//! bar counts the matches (`match 3/17`), in the blocks' full text.
//!
//! Blocks are searched in their full text, folded content included, without
//! laying them out; the block that matches is unfolded and laid out to find
//! the line to show. A match in content the block does not display (a result
//! cut by its style) lands on the block with a note pointing to `o`.

use std::hash::Hash;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::app::{App, Mode};
use super::blocks::{Viewable, turn_start};
use super::everywhere::FoundHit;
use super::lazy_layout::Pos;
use super::text::Matcher;
use crate::text::width::display_width;
use crate::text::width::line_text;

/// The search prompt being typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct SearchPrompt {
    /// The query so far.
    pub text: String,
    /// `/` (forward) rather than `?` (backward).
    pub forward: bool,
    /// Which earlier query ↑ / ↓ brought back (index into the history).
    recall: Option<usize>,
}

impl SearchPrompt {
    /// An empty prompt searching `forward` or backward.
    pub fn new(forward: bool) -> Self {
        SearchPrompt {
            text: String::new(),
            forward,
            recall: None,
        }
    }

    /// The prompt as shown: `/query` or `?query`.
    pub fn shown(&self) -> String {
        let sigil = if self.forward { '/' } else { '?' };
        format!("{sigil}{}", self.text)
    }
}

/// How many matches the current search has, per block, and which one the
/// last jump landed on.
#[derive(Debug, Clone)]
pub(super) struct HitCounts<K> {
    /// Matches in each block's full text, by identity and revision.
    /// (foldhash: seeded per process, and quick: a search of a 1 GB
    /// conversation looks half a million blocks up.)
    per_block: foldhash::HashMap<(K, u64), usize>,
    /// The match landed on and how many there are (1-based).
    pub at: Option<(usize, usize)>,
}

impl<K> Default for HitCounts<K> {
    fn default() -> Self {
        HitCounts {
            per_block: foldhash::HashMap::default(),
            at: None,
        }
    }
}

impl<K: Clone + Eq + Hash> HitCounts<K> {
    /// Makes room for the counts of `blocks` blocks at once: growing a
    /// table of half a million counts step by step would copy it whole
    /// within one step.
    pub(super) fn reserve(&mut self, blocks: usize) {
        self.per_block
            .reserve(blocks.saturating_sub(self.per_block.len()));
    }

    /// The matches in a block's text, counted once per revision; and how
    /// many bytes of text were searched for it now (0: counted before).
    fn count(
        &mut self,
        key: K,
        revision: u64,
        text: impl FnOnce() -> String,
        m: &Matcher,
    ) -> (usize, usize) {
        let mut searched = 0;
        let n = *self.per_block.entry((key, revision)).or_insert_with(|| {
            let text = text();
            searched = text.len();
            // Most blocks hold no match: the quick test first.
            if m.is_in(&text) { m.find(&text).len() } else { 0 }
        });
        (n, searched)
    }
}

/// `text`'s characters with each run of white space one space, trimmed.
fn squeezed(text: &str) -> Vec<char> {
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        if c.is_whitespace() {
            if out.last().is_some_and(|&last| last != ' ') {
                out.push(' ');
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// How many characters `shown` and `stored` have in common next to a
/// match: their ends (`before`: the text before it), else their starts.
fn agreement(shown: &[char], stored: &[char], before: bool) -> usize {
    let trim = |s: &[char]| -> Vec<char> {
        let s: Vec<char> = s.to_vec();
        if before {
            s.into_iter().rev().skip_while(|&c| c == ' ').collect()
        } else {
            s.into_iter().skip_while(|&c| c == ' ').collect()
        }
    };
    let (a, b) = (trim(shown), trim(stored));
    a.iter().zip(&b).take_while(|(x, y)| x == y).count()
}

/// Queries kept for ↑ / ↓ in the prompt.
const HISTORY: usize = 100;

/// How many bytes of text one step of counting a search's matches searches
/// (a few milliseconds, more where turns emptied to save memory are
/// decoded again): keys, signals and appends are answered between two
/// steps. A block counted before costs [`COUNTED_COST`].
const COUNT_STEP: usize = 2 << 20;

/// What looking up a block counted before costs a step, in bytes of
/// [`COUNT_STEP`]: `n` in a conversation of half a million blocks takes a
/// few steps.
const COUNTED_COST: usize = 16;

impl<D: Viewable> App<D> {
    /// A key typed in the search prompt.
    pub(super) fn prompt_key(&mut self, key: &KeyEvent, mut prompt: SearchPrompt) {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Esc => self.mode = Mode::Normal,
            KeyCode::Char('c') if ctrl => self.mode = Mode::Normal,
            KeyCode::Enter => {
                self.mode = Mode::Normal;
                // An empty query repeats the last one, as in less and vim.
                let query = if prompt.text.is_empty() {
                    self.search.as_ref().map(|m| m.query().to_string())
                } else {
                    Some(prompt.text)
                };
                let Some(query) = query else { return };
                self.remember(&query);
                self.search = Matcher::new(&query);
                self.hits = HitCounts::default();
                self.search_forward = prompt.forward;
                if self.search.is_some() {
                    self.search_stepwise(prompt.forward, true);
                }
            }
            KeyCode::Backspace => {
                if prompt.text.pop().is_some() {
                    self.mode = Mode::Prompt(prompt);
                } else {
                    self.mode = Mode::Normal;
                }
            }
            KeyCode::Up | KeyCode::Down => {
                let older = key.code == KeyCode::Up;
                let len = self.history.len();
                let recall = match (prompt.recall, older) {
                    (None, true) => len.checked_sub(1),
                    (None, false) => None,
                    (Some(i), true) => Some(i.saturating_sub(1)),
                    (Some(i), false) => (i + 1 < len).then_some(i + 1),
                };
                prompt.text = recall.map_or_else(String::new, |i| self.history[i].clone());
                prompt.recall = recall;
                self.mode = Mode::Prompt(prompt);
            }
            KeyCode::Char('u') if ctrl => {
                prompt.text.clear();
                prompt.recall = None;
                self.mode = Mode::Prompt(prompt);
            }
            KeyCode::Char(c) if !ctrl => {
                prompt.text.push(c);
                self.mode = Mode::Prompt(prompt);
            }
            _ => self.mode = Mode::Prompt(prompt),
        }
    }

    /// Adds `query` to the history, last, once.
    fn remember(&mut self, query: &str) {
        self.history.retain(|q| q != query);
        self.history.push(query.to_string());
        if self.history.len() > HISTORY {
            self.history.remove(0);
        }
    }

    /// `n` / `N`: the next match going `forward` or backward.
    pub(super) fn find(&mut self, forward: bool) {
        if self.search.is_none() {
            self.note("no search yet: press / to search");
            return;
        }
        self.search_stepwise(forward, false);
    }

    /// Shows a hit of the search over every session in the conversation
    /// just opened for it: every earlier turn read (a step at a time, keys
    /// answered between steps, as for `g`), then the hit itself under the
    /// cursor, highlighted as `/` would (the pattern becomes the viewer's
    /// search: `n` goes on). `Esc`, once the highlights are cleared, goes
    /// back to the list.
    pub fn show_hit(&mut self, hit: &FoundHit) {
        self.from_list = true;
        self.pause();
        if self.doc.earlier() > 0 {
            self.read_all_then_show(hit.clone());
        } else {
            self.land_on_hit(hit);
        }
    }

    /// Puts the cursor on `hit` once every turn is read: the place in its
    /// turn whose match has the hit's context around it (the
    /// `alike_before`-th of those that read the same), else the first match
    /// from its turn on.
    pub(in crate::tui) fn land_on_hit(&mut self, hit: &FoundHit) {
        let pattern = self.everywhere.pattern().unwrap_or_default().to_owned();
        self.go_to_turn(hit.turn);
        self.remember(&pattern);
        self.search = Matcher::new(&pattern);
        self.hits = HitCounts::default();
        self.search_forward = true;
        let Some(matcher) = self.search.clone() else {
            return;
        };
        match self.place_of(&matcher, hit) {
            Some(pos) => self.land(&matcher, pos, true, false),
            None => self.search_stepwise(true, true),
        }
    }

    /// The line of `hit`'s turn holding it: of the matches in the turn's
    /// lines, those whose text around them agrees longest with the hit's
    /// line; the `alike_before`-th of them (the engine reads the stored
    /// text, the viewer shows it laid out, so the two lines are compared,
    /// not their places).
    fn place_of(&mut self, m: &Matcher, hit: &FoundHit) -> Option<Pos> {
        let first = hit.matches.first()?;
        let before = hit.line.get(..first.start)?;
        let after = hit.line.get(first.end..)?;
        let (before, after) = (squeezed(before), squeezed(after));
        let blocks = turn_start(&self.doc, hit.turn)..turn_start(&self.doc, hit.turn + 1);
        let mut best: (usize, Vec<Pos>) = (0, Vec::new());
        for b in blocks {
            if self.folds.is_hidden(self.doc.class(b)) || !m.is_in(&self.doc.search_text(b)) {
                continue;
            }
            let lines = self.sheet().lines_unfolded(b);
            for (i, line) in lines.iter().enumerate() {
                let text = line_text(line);
                for found in m.find(&text) {
                    let score = agreement(&squeezed(&text[..found.start]), &before, true)
                        + agreement(&squeezed(&text[found.end..]), &after, false);
                    if score > best.0 || best.1.is_empty() {
                        best = (score, Vec::new());
                    }
                    if score == best.0 {
                        best.1.push(Pos::new(b, i));
                    }
                }
            }
        }
        let places = best.1;
        places
            .get(hit.alike_before)
            .or(places.last())
            .copied()
    }

    /// `match 3/17`: which match of how many the cursor is on, once a
    /// search has landed.
    pub(super) fn match_status(&self) -> Option<String> {
        self.search.as_ref()?;
        self.hits.at.map(|(at, of)| format!("match {at}/{of}"))
    }

    /// Counts the matches: all of them, and those before line `line` of
    /// block `block`, to say which one the cursor landed on.
    fn count_hits(&mut self, m: &Matcher, block: usize, line: usize) {
        let mut before = 0;
        let mut total = 0;
        for b in 0..self.doc.len() {
            let n = self.hit_count(m, b);
            total += n;
            if b < block {
                before += n;
            } else if b == block {
                let lines = self.sheet().lines_unfolded(b);
                let above: usize = lines
                    .iter()
                    .take(line)
                    .map(|l| m.find(&line_text(l)).len())
                    .sum();
                before += above.min(n.saturating_sub(1));
            }
        }
        self.hits.at = (total > 0).then_some((before + 1, total));
    }

    /// Counts the search's matches in the blocks from `from` on, one step
    /// of them ([`COUNT_STEP`]); the first block not counted (the number of
    /// blocks: all are). Counts are kept by block and revision, so that
    /// landing, `match 3/17` and `n` look each block's text up once.
    pub(super) fn count_matches(&mut self, from: usize) -> usize {
        let Some(m) = self.search.clone() else {
            return self.doc.len();
        };
        let mut spent = 0;
        let mut b = from;
        while b < self.doc.len() && spent < COUNT_STEP {
            spent += self.hit_count_searching(&m, b).1.max(COUNTED_COST);
            b += 1;
        }
        b
    }

    /// How many matches block `b`'s text has (none when its kind is hidden).
    fn hit_count(&mut self, m: &Matcher, b: usize) -> usize {
        self.hit_count_searching(m, b).0
    }

    /// [`App::hit_count`], and how many bytes of text were searched for it.
    fn hit_count_searching(&mut self, m: &Matcher, b: usize) -> (usize, usize) {
        if self.folds.is_hidden(self.doc.class(b)) {
            return (0, 0);
        }
        let doc = &self.doc;
        self.hits
            .count(doc.key(b), doc.revision(b), || doc.search_text(b), m)
    }

    /// Lands on the next match going `forward` or back, every block's
    /// matches counted ([`App::count_matches`]).
    pub(super) fn find_counted(&mut self, forward: bool, inclusive: bool) {
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
            if self.hit_count(&matcher, b) == 0 {
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
                    self.count_hits(&matcher, b, 0);
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
            self.folds
                .set(&key, self.doc.class(b), self.doc.limited(b), false);
        }
    }

    /// Shows the match at `pos`, scrolled horizontally into view if needed.
    fn land(&mut self, m: &Matcher, pos: Pos, forward: bool, wrapped: bool) {
        self.unfold(pos.block);
        self.goto(pos, forward);
        self.count_hits(m, pos.block, pos.line);
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
