//! Code highlighted only as far as the viewer shows it.
//!
//! Highlighting is sequential within a code block (each line starts from the
//! state the line before left), so a key that brings a long block into view
//! would wait for all of it to be highlighted. The
//! viewer instead lays a block out with its code coloured through a given
//! line of the block plus a margin, and the rest of the code in the plain
//! code style: the same text in the same cells, so the layout's line count
//! (scroll positions, search hits, folding) does not depend on colour.
//!
//! A block short enough to highlight whole while a key waits
//! ([`Colour::at_once`] lines) is highlighted whole, as always. A longer
//! one's highlighting is kept here ([`Resumable`], keyed by its text and
//! language, the least recently used given up past `KEPT_LINES`) and goes
//! on from where it stopped: scrolling down a page highlights one more page. When what a layout asks for is more than
//! [`Colour::at_once`] lines past what is done (a jump into the middle or
//! the end of a long block), nothing is highlighted while the key waits; the
//! lines are left plain and the request is queued, to be done a few lines at
//! a time between keys ([`LazyHighlight::colour_more`]), after which the
//! viewer draws again. Code line `j` of any block is at least at line `j` of
//! the block it is in, so colouring every code block of a layout through
//! line `through` colours everything on screen above that line.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use ratatui::text::Line;
use std::hash::Hasher as _;

use twox_hash::XxHash3_64;

use super::highlight::{Resumable, highlight, unhighlighted};
use super::theme::Theme;

/// Lines highlighted per step between keys: a few milliseconds at most.
#[cfg(feature = "cli")]
const STEP_LINES: usize = 100;

/// Highlighted lines kept for blocks no longer asked for: a few large blocks
/// (a line of Rust holds about half a kilobyte of spans).
const KEPT_LINES: usize = 10_000;

/// How much of the code a layout colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Colour {
    /// Lines of the block, from its top, whose code must be coloured (what is
    /// on screen and a margin).
    pub through: usize,
    /// At most this many lines are highlighted while the layout waits; more
    /// is left to [`LazyHighlight::colour_more`].
    pub at_once: usize,
}

/// How a layout highlights code.
#[derive(Clone, Copy)]
pub enum Highlighting<'a> {
    /// All of it, at once (`overhear render` in colour, the HTML export).
    Whole,
    /// None of it: the same text, in the plain code style (`overhear
    /// render` without colour, the Markdown export).
    Plain,
    /// As far as the viewer asked, the rest later.
    // Only the viewer (`cli`) makes a `LazyHighlight`; the variant keeps the type's lifetime.
    #[cfg_attr(not(feature = "cli"), allow(dead_code))]
    Lazy(&'a LazyHighlight),
}

impl Highlighting<'_> {
    /// `code` as `lang` in lines, like [`highlight`]: whole, or coloured as
    /// far as the layout under way asked and plain after that.
    pub fn code(&self, code: &str, lang: Option<&str>, theme: &Theme) -> Vec<Line<'static>> {
        match self {
            Highlighting::Whole => highlight(code, lang, theme),
            Highlighting::Plain => unhighlighted(code, theme),
            Highlighting::Lazy(lazy) => lazy.code(code, lang, theme),
        }
    }
}

/// One code block's highlighting so far.
struct Memo {
    code: Resumable,
    /// The clock when a layout last used it.
    used: u64,
}

/// What the layout under way asked for, and how far it got.
#[derive(Clone, Copy)]
struct Request {
    colour: Colour,
    /// The first line of the block whose code may be plain.
    coloured: usize,
}

/// The highlighting of the code blocks a viewer laid out, kept and carried
/// on as far as it is shown. One per document (one theme).
pub struct LazyHighlight {
    #[cfg(feature = "cli")]
    theme: Theme,
    memos: RefCell<HashMap<u64, Memo>>,
    clock: Cell<u64>,
    request: Cell<Request>,
    /// Blocks to colour between keys, and through which line, oldest first.
    queue: RefCell<Vec<(u64, usize)>>,
    /// Changes whenever more code is coloured.
    generation: Cell<u64>,
    /// Lines highlighted so far, for tests.
    #[cfg(test)]
    highlighted: Cell<usize>,
}

/// What one [`LazyHighlight::colour_more`] did.
#[cfg(feature = "cli")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColourStep {
    /// Nothing was waiting.
    Idle,
    /// Some lines were coloured; more are waiting.
    Working,
    /// A block is now coloured as far as it was asked: draw again.
    Done,
}

impl LazyHighlight {
    /// Highlighting in `theme` (the document's).
    #[cfg(feature = "cli")]
    pub fn new(theme: &Theme) -> Self {
        LazyHighlight {
            theme: theme.clone(),
            memos: RefCell::new(HashMap::new()),
            clock: Cell::new(0),
            request: Cell::new(Request {
                colour: Colour {
                    through: usize::MAX,
                    at_once: usize::MAX,
                },
                coloured: usize::MAX,
            }),
            queue: RefCell::new(Vec::new()),
            generation: Cell::new(0),
            #[cfg(test)]
            highlighted: Cell::new(0),
        }
    }

    /// Runs `layout` (which lays code out through [`Highlighting::Lazy`] on
    /// this) colouring as `colour` asks; its result and the first line of
    /// the block whose code may still be plain (`usize::MAX`: none).
    #[cfg(feature = "cli")]
    pub fn laying_out<R>(&self, colour: Colour, layout: impl FnOnce() -> R) -> (R, usize) {
        let outer = self.request.replace(Request {
            colour,
            coloured: usize::MAX,
        });
        let out = layout();
        let done = self.request.replace(outer);
        (out, done.coloured)
    }

    /// Changes whenever more code has been coloured: a layout with code left
    /// plain may now come out more coloured.
    #[cfg(feature = "cli")]
    pub fn generation(&self) -> u64 {
        self.generation.get()
    }

    /// Whether some code waits to be coloured between keys.
    #[cfg(any(test, feature = "internals"))]
    pub fn is_waiting(&self) -> bool {
        !self.queue.borrow().is_empty()
    }

    /// Colours a few more lines of what the layouts asked for; see [`ColourStep`].
    #[cfg(feature = "cli")]
    pub fn colour_more(&self) -> ColourStep {
        let mut queue = self.queue.borrow_mut();
        let mut memos = self.memos.borrow_mut();
        while let Some(&(key, through)) = queue.first() {
            let Some(memo) = memos.get_mut(&key) else {
                queue.remove(0);
                continue;
            };
            let want = through.min(memo.code.len());
            let before = memo.code.highlighted();
            let now = memo
                .code
                .advance((want.saturating_sub(before)).min(STEP_LINES), &self.theme);
            self.count(now - before);
            if now >= want || now == before {
                queue.remove(0);
                return ColourStep::Done;
            }
            return ColourStep::Working;
        }
        ColourStep::Idle
    }

    /// Lines highlighted since this was made.
    #[cfg(test)]
    pub(crate) fn highlighted(&self) -> usize {
        self.highlighted.get()
    }

    fn count(&self, lines: usize) {
        if lines > 0 {
            self.generation.set(self.generation.get() + 1);
        }
        #[cfg(test)]
        self.highlighted.set(self.highlighted.get() + lines);
    }

    /// [`Highlighting::code`] for the layout under way.
    fn code(&self, code: &str, lang: Option<&str>, theme: &Theme) -> Vec<Line<'static>> {
        let key = memo_key(code, lang);
        let now = self.clock.get() + 1;
        self.clock.set(now);
        let mut memos = self.memos.borrow_mut();
        if !memos.contains_key(&key) {
            let colour = self.request.get().colour;
            if code.lines().count() <= colour.at_once.min(colour.through) {
                // Highlighted whole while the key waits, as it always was:
                // nothing to keep for later (which keeps a conversation
                // rewritten for hours from filling this with dead blocks).
                #[cfg(test)]
                if let Some(whole) = Resumable::new(code, lang, theme) {
                    self.highlighted.set(self.highlighted.get() + whole.len());
                }
                return highlight(code, lang, theme);
            }
            let Some(code) = Resumable::new(code, lang, theme) else {
                // Shown plain whatever is asked: nothing to keep.
                return highlight(code, lang, theme);
            };
            drop(memos);
            self.make_room();
            memos = self.memos.borrow_mut();
            memos.insert(key, Memo { code, used: now });
        }
        let Some(memo) = memos.get_mut(&key) else {
            return highlight(code, lang, theme);
        };
        memo.used = now;
        let mut request = self.request.get();
        let want = request.colour.through.min(memo.code.len());
        let done = memo.code.highlighted();
        if want > done {
            if want - done <= request.colour.at_once {
                let now = memo.code.advance(want - done, theme);
                self.count(now - done);
            } else {
                self.wait_for(key, want);
            }
        }
        let done = memo.code.highlighted();
        if done < memo.code.len() {
            request.coloured = request.coloured.min(done);
            self.request.set(request);
        }
        memo.code.lines(theme)
    }

    /// Queues `key` to be coloured through line `through` between keys.
    fn wait_for(&self, key: u64, through: usize) {
        let mut queue = self.queue.borrow_mut();
        match queue.iter_mut().find(|(k, _)| *k == key) {
            Some((_, was)) => *was = (*was).max(through),
            None => queue.push((key, through)),
        }
    }

    /// Forgets the least recently used blocks down to [`KEPT_LINES`]
    /// highlighted lines, never one waiting to be coloured.
    fn make_room(&self) {
        let mut memos = self.memos.borrow_mut();
        let mut held: usize = memos.values().map(|m| m.code.highlighted()).sum();
        if held <= KEPT_LINES {
            return;
        }
        let queue = self.queue.borrow();
        let mut ages: Vec<(u64, u64)> = memos
            .iter()
            .filter(|(k, _)| !queue.iter().any(|(q, _)| q == *k))
            .map(|(k, m)| (m.used, *k))
            .collect();
        ages.sort_unstable();
        for (_, key) in ages {
            if held <= KEPT_LINES {
                break;
            }
            if let Some(memo) = memos.remove(&key) {
                held -= memo.code.highlighted();
            }
        }
    }
}

/// A code block's identity: its text and language.
fn memo_key(code: &str, lang: Option<&str>) -> u64 {
    let mut hasher = XxHash3_64::new();
    hasher.write(lang.unwrap_or("").as_bytes());
    hasher.write(&[0]);
    hasher.write(code.as_bytes());
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::width::line_text;

    /// 300 lines of Rust.
    fn rust() -> String {
        include_str!("code_wrap.rs")
            .lines()
            .cycle()
            .take(300)
            .map(|l| format!("{l}\n"))
            .collect()
    }

    fn texts(lines: &[Line<'_>]) -> Vec<String> {
        lines.iter().map(line_text).collect()
    }

    #[test]
    fn a_layout_highlights_what_it_asks_and_shows_the_rest_plain() {
        let theme = Theme::dark();
        let code = rust();
        let whole = highlight(&code, Some("rs"), &theme);
        let lazy = LazyHighlight::new(&theme);
        let colour = Colour {
            through: 40,
            at_once: 80,
        };
        let (lines, plain_from) = lazy.laying_out(colour, || {
            Highlighting::Lazy(&lazy).code(&code, Some("rs"), &theme)
        });
        assert_eq!(lazy.highlighted(), 40);
        assert_eq!(plain_from, 40);
        assert_eq!(texts(&lines), texts(&whole), "the same text, line for line");
        assert_eq!(lines[..40], whole[..40]);
        assert_ne!(lines[40..], whole[40..]);
        assert!(!lazy.is_waiting());
        // One more page: only that page is highlighted.
        let next = Colour {
            through: 80,
            ..colour
        };
        let (lines, _) = lazy.laying_out(next, || {
            Highlighting::Lazy(&lazy).code(&code, Some("rs"), &theme)
        });
        assert_eq!(lazy.highlighted(), 80);
        assert_eq!(lines[..80], whole[..80]);
    }

    #[test]
    fn a_jump_past_what_a_key_may_wait_for_is_coloured_between_keys() {
        let theme = Theme::builtin("light").unwrap();
        let code = rust();
        let whole = highlight(&code, Some("rs"), &theme);
        let lazy = LazyHighlight::new(&theme);
        let jump = Colour {
            through: 290,
            at_once: 80,
        };
        let layout = || Highlighting::Lazy(&lazy).code(&code, Some("rs"), &theme);
        let (lines, plain_from) = lazy.laying_out(jump, layout);
        assert_eq!(lazy.highlighted(), 0, "the key waits for no highlighting");
        assert_eq!(plain_from, 0);
        assert_eq!(texts(&lines), texts(&whole));
        assert!(lazy.is_waiting());
        let generation = lazy.generation();
        let mut steps = Vec::new();
        loop {
            match lazy.colour_more() {
                ColourStep::Idle => break,
                step => steps.push(step),
            }
        }
        assert_eq!(steps.last(), Some(&ColourStep::Done));
        assert_eq!(steps.len(), 290usize.div_ceil(STEP_LINES));
        assert_eq!(lazy.highlighted(), 290, "as far as asked, no further");
        assert_ne!(lazy.generation(), generation);
        let (lines, plain_from) = lazy.laying_out(jump, layout);
        assert_eq!(plain_from, 290);
        assert_eq!(lines[..290], whole[..290]);
        let all = Colour {
            through: usize::MAX,
            at_once: usize::MAX,
        };
        let (lines, plain_from) = lazy.laying_out(all, layout);
        assert_eq!((lines, plain_from), (whole, usize::MAX));
    }

    #[test]
    fn a_block_highlighted_whole_at_once_is_not_kept() {
        let theme = Theme::dark();
        let lazy = LazyHighlight::new(&theme);
        let code: String = rust().lines().take(30).map(|l| format!("{l}\n")).collect();
        let colour = Colour {
            through: 40,
            at_once: 40,
        };
        let (lines, plain_from) = lazy.laying_out(colour, || {
            Highlighting::Lazy(&lazy).code(&code, Some("rs"), &theme)
        });
        assert_eq!(lines, highlight(&code, Some("rs"), &theme));
        assert_eq!(plain_from, usize::MAX);
        assert!(lazy.memos.borrow().is_empty());
    }

    #[test]
    fn code_shown_plain_is_not_kept() {
        let theme = Theme::dark();
        let lazy = LazyHighlight::new(&theme);
        let colour = Colour {
            through: 10,
            at_once: 10,
        };
        let (lines, plain_from) = lazy.laying_out(colour, || {
            Highlighting::Lazy(&lazy).code("a\nb\n", Some("klingon"), &theme)
        });
        assert_eq!(lines, highlight("a\nb\n", Some("klingon"), &theme));
        assert_eq!(plain_from, usize::MAX);
        assert!(lazy.memos.borrow().is_empty());
    }
}
