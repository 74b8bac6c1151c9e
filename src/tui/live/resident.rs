//! Turns emptied of their texts again, in a large conversation opened at
//! its end (`Live::hollow_far_from`): what the document does so that no
//! block is laid out, searched or built from an emptied turn. Every method
//! of [`LiveDocument`] that reads a block's content calls
//! [`LiveDocument::resident`] first; building blocks again goes through
//! [`LiveDocument::resident_in`] or [`LiveDocument::build_emptied`], and
//! another view (`v`) is built a batch at a time between keys.

use super::{LiveDocument, NOT_YET, without_folder};
#[cfg(doc)]
use crate::tui::blocks::Follow;
use crate::load::DECODE_SPAN;
use crate::render::document::{DocBlock, DocOptions, Document};
#[cfg(doc)]
use crate::render::layout;

/// Whether a turn emptied of its texts could not be decoded again (the
/// file changed or was cut short in place), and what is done about it.
#[derive(Debug, Default)]
pub(super) enum Unreadable {
    /// Every turn decoded again so far could be.
    #[default]
    No,
    /// One could not be, for this reason: the file is read whole at the
    /// next tick ([`Follow::poll`]).
    ReadWhole(String),
    /// Reading it whole failed too: it is read whole again once the file
    /// changes ([`Follow::update`]), not at each tick.
    UntilChanged(String),
}

impl Unreadable {
    /// A turn could not be decoded again, for `problem`.
    fn failed(&mut self, problem: &str) {
        if !matches!(self, Unreadable::UntilChanged(_)) {
            *self = Unreadable::ReadWhole(problem.to_string());
        }
    }

    /// Whether the file is to be read whole at the next tick.
    pub(super) fn to_read_whole(&self) -> bool {
        matches!(self, Unreadable::ReadWhole(_))
    }

    /// The problem, when the file is to be read whole now; it is then
    /// taken as read (the read says whether it is not).
    pub(super) fn take_read_whole(&mut self) -> Option<String> {
        match std::mem::take(self) {
            Unreadable::ReadWhole(problem) => Some(problem),
            other => {
                *self = other;
                None
            }
        }
    }

    /// The file changed: a whole read that failed is tried again.
    pub(super) fn file_changed(&mut self) {
        if let Unreadable::UntilChanged(problem) = self {
            *self = Unreadable::ReadWhole(std::mem::take(problem));
        }
    }
}

impl LiveDocument {
    /// Decodes again what block `i` shows, when its turn (or an event its
    /// items name in another turn) was emptied of its texts to keep a 1 GB
    /// conversation's memory down ([`Live::hollow_far_from`]); then empties
    /// the decoded turns furthest from it, if they span more than the
    /// budget. Called first by every method that reads a block's content.
    /// A failure is noted, and the file read whole at the next tick (or,
    /// when that failed already, once the file changes); it is
    /// returned, for the block to say so rather than show its emptied
    /// events ([`layout::unreadable`]).
    pub(super) fn resident(&self, i: usize) -> Option<String> {
        if !self.focus.is_empty() {
            // A sub-agent is read whole.
            return None;
        }
        let turn = self.block(i).turn.checked_sub(1)?;
        let Ok(mut live) = self.live.try_borrow_mut() else {
            debug_assert!(false, "block {i} laid out while the conversation is borrowed");
            return None;
        };
        match live.make_resident(turn) {
            Ok(true) => {
                self.near.set(turn);
                live.hollow_far_from(turn, self.earlier);
                None
            }
            Ok(false) => None,
            Err(e) => {
                let problem = without_folder(&e.to_string());
                self.unreadable.borrow_mut().failed(&problem);
                Some(problem)
            }
        }
    }

    /// Decodes again every turn emptied of its texts among `turns`
    /// (0-based), before their blocks are built again; the file is read
    /// whole when one cannot be (then true: every block is to be built
    /// anew).
    pub(super) fn resident_in(&mut self, turns: std::ops::Range<usize>) -> bool {
        let live = self.live.get_mut();
        let Err(e) = live.make_resident_in(turns) else {
            return false;
        };
        let problem = match live.reread() {
            Ok(()) => e,
            Err(e) => e,
        };
        self.unreadable
            .get_mut()
            .failed(&without_folder(&problem.to_string()));
        true
    }

    /// Builds the blocks of every turn after those still in outline when
    /// turns were emptied of their texts: from the end back,
    /// [`DECODE_SPAN`] of their entries at a time, each batch decoded again just
    /// before its blocks are built and emptied again after, so that memory
    /// stays near the budget (decoding them all first would hold a 1 GB
    /// conversation whole). `None` when one could not be decoded again: the
    /// file was read whole, and is built as one.
    pub(super) fn build_emptied(&mut self) -> Option<Document> {
        let mut building = self.begin_building(self.options.clone())?;
        while !self.build_batch(&mut building)? {}
        Some(building.into_document())
    }

    /// The blocks of the last batch of turns, for `options`: the start of
    /// [`LiveDocument::build_emptied`]. `None`: the file was read whole.
    fn begin_building(&mut self, options: DocOptions) -> Option<Building> {
        let live = self.live.get_mut();
        let earlier = live.earlier_turns();
        let total = live.conversation.turns.len();
        let start = live.batch_before(total, earlier, DECODE_SPAN);
        if self.resident_in(start..total) {
            return None;
        }
        let doc = Document::build_turns(&self.shown(), &options, &|n| n > start);
        Some(Building {
            options,
            doc,
            before: Vec::new(),
            start,
            earlier,
            untouched: total,
        })
    }

    /// The blocks of the batch of turns before those `building` has, put
    /// first; whether every turn has blocks now. `None`: the file was read
    /// whole.
    fn build_batch(&mut self, building: &mut Building) -> Option<bool> {
        if building.start <= building.earlier {
            return Some(true);
        }
        let live = self.live.get_mut();
        let first = live.batch_before(building.start, building.earlier, DECODE_SPAN);
        if self.resident_in(first..building.start) {
            return None;
        }
        let live = self.live.get_mut();
        // Built on their own and put first once all are: putting each
        // batch first would move every block after it at each step.
        let mut batch = Document::default();
        batch.prepend_turns(&live.conversation, &building.options, first + 1..=building.start);
        building.before.push(batch.blocks);
        building.start = first;
        live.hollow_far_from(self.near.get(), first);
        Some(first <= building.earlier)
    }

    /// Starts building the next view a batch at a time when turns were
    /// emptied ([`EarlierTurns::begin_view_change`]); false when it is
    /// switched at once (nothing emptied, or the file had to be read whole).
    pub(super) fn begin_building_next_view(&mut self) -> bool {
        if !self.focus.is_empty() || !self.live.get_mut().has_hollow() {
            return false;
        }
        let mut options = self.options.clone();
        options.view = options.view.next();
        match self.begin_building(options) {
            Some(building) => {
                self.building = Some(building);
                true
            }
            None => false,
        }
    }

    /// A batch of the next view's blocks; how far (percent) while more are
    /// to come, `None` once the view is switched.
    pub(super) fn build_next_view_step(&mut self) -> Option<usize> {
        let mut building = self.building.take()?;
        let done = building.start <= building.earlier;
        // The last batch and the switch are steps of their own.
        let built = if done {
            Some(true)
        } else {
            self.build_batch(&mut building).map(|_| false)
        };
        match built {
            Some(false) => {
                let total = self.live.get_mut().conversation.turns.len();
                let all = total.saturating_sub(building.earlier).max(1);
                let percent = total.saturating_sub(building.start) * 100 / all;
                self.building = Some(building);
                Some(percent.min(99))
            }
            Some(true) if building.earlier == self.earlier => {
                let untouched = building.untouched;
                self.options = building.options.clone();
                let shown = std::mem::replace(&mut self.doc, building.into_document());
                // Half a million blocks take tens of milliseconds to free:
                // not between two keys.
                let _ = std::thread::Builder::new()
                    .name("overhear-free".into())
                    .spawn(move || drop(shown));
                *self.revisions.get_mut() = vec![NOT_YET; self.doc.blocks.len()];
                // What refreshes changed meanwhile is built again.
                if untouched < self.live.get_mut().conversation.turns.len() {
                    self.rebuild_from(untouched);
                }
                None
            }
            // Earlier turns were read meanwhile, or the file read whole:
            // built at once.
            _ => {
                self.options = building.options;
                self.rebuild();
                None
            }
        }
    }
}

/// The blocks of a view being built from the end back, a batch of turns at
/// a time, over turns emptied to save memory.
pub(super) struct Building {
    /// The display choices built for.
    pub(super) options: DocOptions,
    /// The blocks of the last turns.
    doc: Document,
    /// The blocks of the turns before them, a batch at a time, the last
    /// turns' first.
    before: Vec<Vec<DocBlock>>,
    /// The first turn (0-based) with blocks in `doc`.
    start: usize,
    /// How many leading turns were still in outline when it began (they get
    /// no blocks).
    earlier: usize,
    /// The turns no refresh changed since it began: the blocks of later
    /// ones are built again once it is done.
    pub(super) untouched: usize,
}

impl Building {
    /// The document: every batch's blocks, first to last, then the last
    /// turns'.
    fn into_document(self) -> Document {
        let mut doc = self.doc;
        let count = self.before.iter().map(Vec::len).sum::<usize>() + doc.blocks.len();
        let mut blocks = Vec::with_capacity(count);
        for batch in self.before.into_iter().rev() {
            blocks.extend(batch);
        }
        blocks.append(&mut doc.blocks);
        doc.blocks = blocks;
        doc
    }
}
