//! Turns emptied of their texts again, in a large conversation opened at
//! its end (`Live::hollow_far_from`): what the document does so that no
//! block is laid out, searched or built from an emptied turn. Every method
//! of [`LiveDocument`] that reads a block's content calls
//! [`LiveDocument::resident`] first; building blocks again goes through
//! [`LiveDocument::resident_in`] or [`LiveDocument::build_emptied`].

use super::{BATCH_TURNS, LiveDocument, without_folder};
use crate::render::document::Document;

impl LiveDocument {
    /// Decodes again what block `i` shows, when its turn (or an event its
    /// items name in another turn) was emptied of its texts to keep a 1 GB
    /// conversation's memory down ([`Live::hollow_far_from`]); then empties
    /// the decoded turns furthest from it, if they span more than the
    /// budget. Called first by every method that reads a block's content.
    /// A failure is noted, and the file read whole at the next tick.
    pub(super) fn resident(&self, i: usize) {
        if !self.focus.is_empty() {
            // A sub-agent is read whole.
            return;
        }
        let Some(turn) = self.block(i).turn.checked_sub(1) else {
            return;
        };
        let Ok(mut live) = self.live.try_borrow_mut() else {
            debug_assert!(false, "block {i} laid out while the conversation is borrowed");
            return;
        };
        match live.make_resident(turn) {
            Ok(true) => {
                self.near.set(turn);
                live.hollow_far_from(turn, self.earlier);
            }
            Ok(false) => {}
            Err(e) => *self.resident_problem.borrow_mut() = Some(without_folder(&e.to_string())),
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
        *self.resident_problem.get_mut() = Some(without_folder(&problem.to_string()));
        true
    }

    /// Builds the blocks of every turn after those still in outline when
    /// turns were emptied of their texts: from the end back,
    /// [`BATCH_TURNS`] turns at a time, each batch decoded again just
    /// before its blocks are built and emptied again after, so that memory
    /// stays near the budget (decoding them all first would hold a 1 GB
    /// conversation whole). `None` when one could not be decoded again: the
    /// file was read whole, and is built as one.
    pub(super) fn build_emptied(&mut self) -> Option<Document> {
        let live = self.live.get_mut();
        let earlier = live.earlier_turns();
        let total = live.conversation.turns.len();
        let mut start = total.saturating_sub(BATCH_TURNS).max(earlier);
        if self.resident_in(start..total) {
            return None;
        }
        let mut doc = Document::build_turns(&self.shown(), &self.options, &|n| n > start);
        while start > earlier {
            let first = start.saturating_sub(BATCH_TURNS).max(earlier);
            if self.resident_in(first..start) {
                return None;
            }
            let live = self.live.get_mut();
            doc.prepend_turns(&live.conversation, &self.options, first + 1..=start);
            start = first;
            live.hollow_far_from(self.near.get(), start);
        }
        Some(doc)
    }
}
