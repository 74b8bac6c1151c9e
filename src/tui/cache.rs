//! The layout cache: a block's lines per (identity, revision, width, folded,
//! view), kept while they are used, so that a frame lays out only what
//! scrolled into view and a reload re-lays only the blocks that changed.
//!
//! The cache is bounded by size — the total number of lines it holds — and
//! gives back the least recently used blocks first, but never a block drawn
//! in the last two frames: a block larger than the whole capacity (a
//! paragraph wrapping to 1,000,000 lines) stays laid out while it is on
//! screen, instead of being laid out again for every frame (which made an
//! idle viewer burn a core). The runner brackets each frame's drawing with
//! [`LayoutCache::begin_frame`] and [`LayoutCache::end_frame`]; what is laid
//! out between frames (a search going through every block) is kept only
//! within the capacity.
//!
//! A block holds one revision per (identity, width, folded, view): laying out
//! a new revision replaces the old one, which can never be asked for again.
//! Without that, a conversation rewritten for hours (each rewrite a new
//! revision of the blocks at its end) fills the cache with dead layouts up to
//! its whole capacity.
//!
//! A layout may leave part of a block's code plain (the viewer highlights
//! only what it shows, `render::lazy_highlight`): the entry remembers from
//! which line on, and a frame that shows more of the block than is coloured
//! lays it out again when that can colour more — with more asked, or after
//! code was highlighted between keys. The lines are the same either way.

use std::collections::HashMap;
use std::hash::Hash;
use std::rc::Rc;

use ratatui::text::Line;

use crate::render::lazy_highlight::Colour;

/// Lines of one laid-out block, shared without copying.
pub type Laid = Rc<[Line<'static>]>;

/// What a layout depends on.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CacheKey<K> {
    /// The block's identity.
    pub key: K,
    /// The block's content fingerprint.
    pub revision: u64,
    /// Columns.
    pub width: usize,
    /// Folded or not.
    pub folded: bool,
    /// The view the block belongs to.
    pub view: &'static str,
}

/// Where a block's layout is kept: its key without the revision.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Slot<K> {
    key: K,
    width: usize,
    folded: bool,
    view: &'static str,
}

impl<K> Slot<K> {
    fn of(key: CacheKey<K>) -> (Slot<K>, u64) {
        let slot = Slot {
            key: key.key,
            width: key.width,
            folded: key.folded,
            view: key.view,
        };
        (slot, key.revision)
    }
}

struct Entry {
    revision: u64,
    lines: Laid,
    used: u64,
    /// The last frame that drew it.
    frame: u64,
    /// The first line whose code may be plain (`usize::MAX`: none).
    coloured: usize,
    /// The lines the layout was made to show coloured: a layout for more
    /// asks for more (to be highlighted at once, or between keys).
    shown: usize,
    /// The highlighting's generation after the layout: until it changes,
    /// only a layout asking for more can colour more.
    generation: u64,
}

/// What a use of a block needs coloured.
#[derive(Debug, Clone, Copy)]
pub struct Wanted {
    /// Lines of the block, from its top, that must have their code coloured
    /// (0: any layout will do, as for counting lines).
    pub shown: usize,
    /// What a layout asks for when one is made.
    pub colour: Colour,
    /// The document's [`crate::tui::Blocks::colour_generation`].
    pub generation: u64,
}

impl Wanted {
    /// Any layout, as colourful as it comes (for tests and callers that
    /// draw nothing).
    #[cfg(any(test, feature = "internals"))]
    pub fn anything() -> Wanted {
        Wanted {
            shown: 0,
            colour: Colour {
                through: usize::MAX,
                at_once: usize::MAX,
            },
            generation: 0,
        }
    }
}

/// A least-recently-used cache of laid-out blocks, bounded by total lines.
pub struct LayoutCache<K> {
    map: HashMap<Slot<K>, Entry>,
    lines: usize,
    clock: u64,
    /// Frames begun so far.
    frame: u64,
    /// Whether a frame is being drawn (uses then mark entries as drawn).
    drawing: bool,
    capacity: usize,
    /// Blocks laid out so far: tests check that a reload lays out only the
    /// blocks that changed.
    #[cfg(test)]
    laid_out: usize,
}

/// Lines kept by default: a few hundred screens.
const DEFAULT_CAPACITY: usize = 50_000;

impl<K: Clone + Eq + Hash> Default for LayoutCache<K> {
    fn default() -> Self {
        LayoutCache::with_capacity(DEFAULT_CAPACITY)
    }
}

impl<K: Clone + Eq + Hash> LayoutCache<K> {
    /// A cache holding about `capacity` lines.
    pub fn with_capacity(capacity: usize) -> Self {
        LayoutCache {
            map: HashMap::new(),
            lines: 0,
            clock: 0,
            frame: 0,
            drawing: false,
            capacity,
            #[cfg(test)]
            laid_out: 0,
        }
    }

    /// How many blocks were laid out since the cache was made.
    #[cfg(test)]
    pub(crate) fn laid_out(&self) -> usize {
        self.laid_out
    }

    /// A frame is about to be drawn: what it and the frame before draw stays
    /// cached, whatever its size.
    pub fn begin_frame(&mut self) {
        self.frame += 1;
        self.drawing = true;
    }

    /// The frame is drawn.
    pub fn end_frame(&mut self) {
        self.drawing = false;
    }

    /// The frame stamp of a use now: the current frame while drawing, else
    /// none (0 is before every frame).
    fn stamp(&self) -> u64 {
        if self.drawing { self.frame } else { 0 }
    }

    /// The lines for `key`, laid out by `layout` when not cached.
    #[cfg(any(test, feature = "internals"))]
    pub fn get_or_layout(
        &mut self,
        key: CacheKey<K>,
        layout: impl FnOnce() -> Vec<Line<'static>>,
    ) -> Laid {
        self.get_coloured(key, Wanted::anything(), |_| (layout(), usize::MAX, 0))
    }

    /// The lines for `key` with their code coloured as `wanted` says: the
    /// cached ones when they are, or when laying out again could colour no
    /// more; else laid out by `layout`, which returns the lines, the first
    /// line whose code may be plain, and the generation after it.
    pub fn get_coloured(
        &mut self,
        key: CacheKey<K>,
        wanted: Wanted,
        layout: impl FnOnce(Colour) -> (Vec<Line<'static>>, usize, u64),
    ) -> Laid {
        self.clock += 1;
        let (slot, revision) = Slot::of(key);
        let stamp = self.stamp();
        if let Some(entry) = self.map.get_mut(&slot)
            && entry.revision == revision
        {
            // Laid out again, the code would be highlighted through what is
            // asked while the key waits when that is little enough, or
            // asked for between keys when more is shown than was asked for;
            // else only what was highlighted between keys since would be new.
            let at_once =
                wanted.colour.through.saturating_sub(entry.coloured) <= wanted.colour.at_once;
            let no_better =
                !at_once && wanted.shown <= entry.shown && wanted.generation == entry.generation;
            if entry.coloured >= wanted.shown || no_better {
                entry.used = self.clock;
                entry.frame = entry.frame.max(stamp);
                return entry.lines.clone();
            }
        }
        let (lines, coloured, generation) = layout(wanted.colour);
        let lines: Laid = lines.into();
        #[cfg(test)]
        {
            self.laid_out += 1;
        }
        self.lines += lines.len();
        let entry = Entry {
            revision,
            lines: lines.clone(),
            used: self.clock,
            frame: stamp,
            coloured,
            shown: wanted.shown,
            generation,
        };
        if let Some(stale) = self.map.insert(slot, entry) {
            self.lines -= stale.lines.len();
        }
        if self.lines > self.capacity {
            self.evict();
        }
        lines
    }

    /// The lines for `key` if they are cached (does not count as a use).
    #[cfg(any(test, feature = "internals"))]
    pub fn peek(&self, key: &CacheKey<K>) -> Option<Laid> {
        let (slot, revision) = Slot::of(key.clone());
        self.map
            .get(&slot)
            .filter(|e| e.revision == revision)
            .map(|e| e.lines.clone())
    }

    /// How many blocks are cached.
    #[cfg(any(test, feature = "internals"))]
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether nothing is cached.
    #[cfg(any(test, feature = "internals"))]
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Drops the least recently used entries down to three quarters of the
    /// capacity, never the one just added nor one drawn in this frame or
    /// the one before.
    fn evict(&mut self) {
        let drawn = |e: &Entry| e.frame > 0 && e.frame.saturating_add(1) >= self.frame;
        let mut ages: Vec<(u64, Slot<K>)> = self
            .map
            .iter()
            .filter(|(_, e)| e.used != self.clock && !drawn(e))
            .map(|(k, e)| (e.used, k.clone()))
            .collect();
        ages.sort_unstable_by_key(|(used, _)| *used);
        let target = self.capacity * 3 / 4;
        for (_, key) in ages {
            if self.lines <= target {
                break;
            }
            if let Some(entry) = self.map.remove(&key) {
                self.lines -= entry.lines.len();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(id: u32, width: usize) -> CacheKey<u32> {
        CacheKey {
            key: id,
            revision: 0,
            width,
            folded: false,
            view: "terminal",
        }
    }

    fn lines(n: usize) -> Vec<Line<'static>> {
        vec![Line::from("x"); n]
    }

    #[test]
    fn a_cached_block_is_not_laid_out_again() {
        let mut cache = LayoutCache::default();
        let mut calls = 0;
        for _ in 0..3 {
            cache.get_or_layout(key(1, 80), || {
                calls += 1;
                lines(2)
            });
        }
        assert_eq!(cache.laid_out(), 1);
        cache.get_or_layout(key(1, 40), || {
            calls += 1;
            lines(4)
        });
        assert_eq!(cache.laid_out(), 2, "another width is another layout");
    }

    #[test]
    fn the_least_recently_used_blocks_go_first() {
        let mut cache = LayoutCache::with_capacity(16);
        // Each use two frames after the one before: none is on screen any more.
        for id in [1, 2, 3, 1, 4] {
            cache.get_or_layout(key(id, 80), || lines(4));
        }
        assert_eq!(cache.len(), 4, "16 lines fit");
        cache.get_or_layout(key(5, 80), || lines(4));
        let kept: Vec<u32> = (1..=5)
            .filter(|&k| cache.peek(&key(k, 80)).is_some())
            .collect();
        assert_eq!(kept, [1, 4, 5], "down to three quarters, oldest use first");
    }

    #[test]
    fn a_new_revision_replaces_the_old_one() {
        let mut cache = LayoutCache::default();
        for revision in 0..100 {
            let key = CacheKey {
                revision,
                ..key(1, 80)
            };
            cache.get_or_layout(key.clone(), || lines(3));
            assert!(cache.peek(&key).is_some());
        }
        assert_eq!(cache.len(), 1, "one layout per block, not per revision");
        assert_eq!(cache.lines, 3);
        assert!(cache.peek(&key(1, 80)).is_none(), "revision 0 is gone");
    }

    #[test]
    fn a_block_larger_than_the_cache_stays_while_it_is_on_screen() {
        let mut cache = LayoutCache::with_capacity(10);
        let mut huge = 0;
        for frame in 0..5 {
            cache.begin_frame();
            // The screen: a small block, the huge one, another small one.
            cache.get_or_layout(key(1, 80), || lines(2));
            cache.get_or_layout(key(2, 80), || {
                huge += 1;
                lines(1000)
            });
            cache.get_or_layout(key(3 + frame, 80), || lines(2));
            cache.end_frame();
            // Between frames (a key, a search) other blocks come and go.
            cache.get_or_layout(key(50 + frame, 80), || lines(3));
        }
        assert_eq!(huge, 1, "laid out once, not once per frame");
        // Scrolled away for two frames: it goes to make room.
        for frame in 0..3 {
            cache.begin_frame();
            cache.get_or_layout(key(100 + frame, 80), || lines(2));
            cache.end_frame();
        }
        assert!(cache.peek(&key(2, 80)).is_none());
        assert!(cache.lines <= 10, "{} lines kept", cache.lines);
    }

    /// A layout of `n` lines whose code is coloured through line
    /// `coloured`, made at `generation`.
    fn partly(n: usize, coloured: usize, generation: u64) -> (Vec<Line<'static>>, usize, u64) {
        (lines(n), coloured, generation)
    }

    fn wanted(shown: usize, generation: u64) -> Wanted {
        Wanted {
            shown,
            colour: Colour {
                through: shown + 10,
                at_once: 20,
            },
            generation,
        }
    }

    #[test]
    fn a_block_shown_plain_is_laid_out_again_only_when_that_colours_more() {
        let mut cache = LayoutCache::default();
        let get = |cache: &mut LayoutCache<u32>, want: Wanted, coloured: usize| {
            cache.get_coloured(key(1, 80), want, |_| partly(100, coloured, want.generation));
        };
        // Shown through line 90, coloured through 10: asked between keys.
        get(&mut cache, wanted(90, 0), 10);
        // The same again, nothing highlighted since: the same layout.
        get(&mut cache, wanted(90, 0), 10);
        get(&mut cache, wanted(60, 0), 10);
        // Lines 0..10 are coloured: no layout can do better.
        get(&mut cache, wanted(10, 0), 10);
        assert_eq!(cache.laid_out(), 1);
        // Highlighted between keys since: laid out again.
        get(&mut cache, wanted(90, 1), 50);
        assert_eq!(cache.laid_out(), 2);
        // A little more than is coloured: highlighted while the key waits.
        get(&mut cache, wanted(60, 1), 70);
        assert_eq!(cache.laid_out(), 3);
        // More shown than ever asked for: asked again.
        get(&mut cache, wanted(100, 1), 70);
        assert_eq!(cache.laid_out(), 4);
        get(&mut cache, wanted(100, 1), 70);
        assert_eq!(cache.laid_out(), 4);
    }

    #[test]
    fn a_block_larger_than_the_cache_is_still_returned() {
        let mut cache = LayoutCache::with_capacity(10);
        let laid = cache.get_or_layout(key(1, 80), || lines(50));
        assert_eq!(laid.len(), 50);
        assert_eq!(cache.len(), 1);
    }
}
