//! Pairing requests with their responses by id, kept up to date as events
//! arrive or change at the end of a conversation.
//!
//! JP's rule (jp-format §1.11): a response answers the nearest earlier
//! unanswered request of its id. The pairing is a stack per id, so it can be
//! rolled back event by event (newest first) to the state before any index,
//! and replayed over the new events from there: a followed conversation pays
//! for what changed, not for its length.

use std::collections::HashMap;

/// Requests whose response changed, with the response they had before.
pub(super) type Touched = HashMap<usize, Option<usize>>;

/// Which side of a pair an event is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Side {
    /// Asks (a tool call or inquiry request).
    Request,
    /// Answers (a tool call or inquiry response).
    Response,
}

/// Requests paired with their responses, and the requests still open.
#[derive(Debug, Clone, Default)]
pub(super) struct Pairing {
    /// Unanswered requests by id, newest last (foldhash: seeded per
    /// process like the standard hasher, so ids from a hostile file cannot
    /// be made to collide, and several times faster on short ids; four
    /// lookups a call).
    open: foldhash::HashMap<String, Vec<usize>>,
    /// By event index: the other side of its pair ([`UNPAIRED`] when none)
    /// — a request's response, a response's request. An event is one side
    /// at most, so one vector serves both directions. Indexed, not hashed:
    /// grouping asks it of every call in event order, and a hash map of a
    /// 1 GB conversation's 285,000 calls missed the cache at each question
    /// (docs/benchmarks.md's history, "A lighter outline"). It is as long
    /// as the last event paired, not as the conversation. An index is
    /// stored in 4 bytes ([`Slot`]), a quarter of an outline's memory per
    /// event beside its 128-byte event.
    partner: Vec<Slot>,
}

/// An event index as [`Pairing::partner`] stores it. Four billion events
/// would need 512 GB for the events alone; an index past `u32::MAX - 1`
/// (never reached) is left unpaired rather than wrapped.
type Slot = u32;

/// No partner (yet).
const UNPAIRED: Slot = Slot::MAX;

/// `index` as a [`Slot`]; `None` past what a slot holds.
fn slot(index: usize) -> Option<Slot> {
    Slot::try_from(index).ok().filter(|&s| s != UNPAIRED)
}

impl Pairing {
    /// The response that answers request `request`, if any.
    pub(super) fn response_of(&self, request: usize) -> Option<usize> {
        self.partner_of(request)
    }

    /// Whether response `response` answers some request.
    pub(super) fn is_answered(&self, response: usize) -> bool {
        self.partner_of(response).is_some()
    }

    fn partner_of(&self, index: usize) -> Option<usize> {
        self.partner
            .get(index)
            .copied()
            .filter(|&other| other != UNPAIRED)
            .map(|other| other as usize)
    }

    /// Pairs `request` with `response`; returns the response the request
    /// had before.
    fn pair(&mut self, request: usize, response: usize) -> Option<usize> {
        let (Some(request_slot), Some(response_slot)) = (slot(request), slot(response)) else {
            return None;
        };
        let last = request.max(response);
        if self.partner.len() <= last {
            self.partner.resize(last + 1, UNPAIRED);
        }
        self.partner[response] = request_slot;
        let before = std::mem::replace(&mut self.partner[request], response_slot);
        (before != UNPAIRED).then_some(before as usize)
    }

    /// Takes event `index` (after all earlier ones) into account; a request
    /// below `watch` that gets a response is noted in `touched`.
    pub(super) fn push(
        &mut self,
        index: usize,
        side: Side,
        id: &str,
        watch: usize,
        touched: &mut Touched,
    ) {
        match side {
            Side::Request => match self.open.get_mut(id) {
                Some(stack) => stack.push(index),
                None => {
                    self.open.insert(id.to_string(), vec![index]);
                }
            },
            Side::Response => {
                let Some(stack) = self.open.get_mut(id) else {
                    return;
                };
                let Some(request) = stack.pop() else { return };
                if stack.is_empty() {
                    self.open.remove(id);
                }
                let before = self.pair(request, index);
                if request < watch {
                    touched.entry(request).or_insert(before);
                }
            }
        }
    }

    /// Undoes [`Pairing::push`] of event `index`, which must be the newest
    /// event not yet undone; a request below `watch` that loses its response
    /// is noted in `touched`.
    pub(super) fn pop(
        &mut self,
        index: usize,
        side: Side,
        id: &str,
        watch: usize,
        touched: &mut Touched,
    ) {
        match side {
            Side::Request => {
                if let Some(stack) = self.open.get_mut(id) {
                    debug_assert_eq!(stack.last(), Some(&index));
                    stack.pop();
                    if stack.is_empty() {
                        self.open.remove(id);
                    }
                }
            }
            Side::Response => {
                let Some(request) = self.partner_of(index) else {
                    return;
                };
                self.partner[index] = UNPAIRED;
                let before = std::mem::replace(&mut self.partner[request], UNPAIRED) as usize;
                self.open.entry(id.to_string()).or_default().push(request);
                if request < watch {
                    touched.entry(request).or_insert(Some(before));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replay(events: &[(Side, &str)]) -> Pairing {
        let mut pairing = Pairing::default();
        for (i, (side, id)) in events.iter().enumerate() {
            pairing.push(i, *side, id, 0, &mut Touched::new());
        }
        pairing
    }

    #[test]
    fn a_response_answers_the_nearest_open_request_of_its_id() {
        use Side::*;
        let p = replay(&[
            (Request, "a"),
            (Request, "a"),
            (Response, "a"),
            (Response, "b"),
        ]);
        assert_eq!(p.response_of(1), Some(2));
        assert_eq!(p.response_of(0), None);
        assert!(p.is_answered(2));
        assert!(!p.is_answered(3), "no request of that id");
    }

    #[test]
    fn an_index_past_what_a_slot_holds_is_left_unpaired_without_growing() {
        use Side::*;
        let mut p = Pairing::default();
        let far = u32::MAX as usize;
        for (i, side) in [(far, Request), (far + 1, Response)] {
            p.push(i, side, "a", 0, &mut Touched::new());
        }
        assert_eq!(p.response_of(far), None);
        assert!(!p.is_answered(far + 1));
        assert!(p.partner.is_empty(), "no vector of four billion slots");
    }

    #[test]
    fn rolling_back_and_replaying_gives_the_pairing_of_the_new_events() {
        use Side::*;
        let old = [
            (Request, "a"),
            (Request, "b"),
            (Response, "a"),
            (Response, "b"),
        ];
        let new = [
            (Request, "a"),
            (Request, "b"),
            (Response, "b"),
            (Response, "a"),
        ];
        let mut p = replay(&old);
        let mut touched = Touched::new();
        for i in (2..4).rev() {
            p.pop(i, old[i].0, old[i].1, 2, &mut touched);
        }
        for (i, (side, id)) in new.iter().enumerate().skip(2) {
            p.push(i, *side, id, 2, &mut touched);
        }
        let fresh = replay(&new);
        for i in 0..4 {
            assert_eq!(p.response_of(i), fresh.response_of(i));
            assert_eq!(p.is_answered(i), fresh.is_answered(i));
        }
        assert_eq!(
            touched,
            Touched::from([(0, Some(2)), (1, Some(3))]),
            "both earlier requests re-paired, with what they had"
        );
    }
}
