//! A JP conversation read for its last turns (`render --turn -1`): one pass
//! over the bytes, as the outline's ([`super::JpOutline`]), that keeps of the
//! entries only what decides the turns and their configuration — each
//! `turn_start` and `config_delta` whole, and one stand-in event for each
//! run of other entries — and where each kept one lies in the file. The
//! turns chosen at the end are then decoded whole from the file
//! ([`JpSparse::decode_from`]).
//!
//! A run of conversation events (or of unknown entries) between two kept
//! entries is one stand-in: grouping (`model::turn_ranges`) asks of such a
//! run only whether it holds a conversation event (it opens the next
//! `turn_start`'s turn) or not (it stops the configuration changes before a
//! `turn_start` from belonging to the turn it opens), so the turns grouped
//! from the kept events are the turns of the whole file, each starting at
//! a kept event, and the configuration in force at each is the whole
//! file's. A 100 MB conversation then costs a few events per turn, not one
//! per entry.
//!
//! What a stand-in hides: the text and ids of the events it stands for. A
//! stand-in's turn must not be shown, and a response among the decoded
//! turns whose request is in a stand-in's turn does not pair (the caller
//! reads the outline then, which pairs it).
//!
//! A caller that prints at most the last `n` turns (`--turn -1`, `-3..`)
//! has the turns before the last `n` folded into their count as the read
//! goes ([`JpSparse::turn_numbers`]), but for the turns a configuration
//! change decides: a turn that holds a `config_delta`, or whose first
//! conversation event is the first after one (the turn the change is
//! merged at, `policy::PolicyTimeline::advance`), is kept whole. The turns
//! kept then group, and merge the configuration changes, step by step as
//! in the whole file: the configuration in force at every turn and each
//! change's warnings are the whole file's. Such a read holds a few
//! thousand events, not two per turn, unless the file changes its
//! configuration at every turn.

use std::io::{self, Read, Seek, SeekFrom};

use super::entries::{ArrayReader, Next};
use super::entry;
use super::outline::{SketchMemo, Sketched, sketched};
use super::{JpLoad, JpStream, Reader, event_of, parsed_base};
use crate::model::{ChatResponse, Event, EventKind, Turn, turn_ranges};

/// How many events a read that folds its earlier turns holds before it
/// folds them (then twice as many as it holds after, so that a file of
/// configuration changes only is folded a number of times that grows with
/// the logarithm of its length, not with its length).
const FOLD_AT: usize = 1024;

/// How much of the file is read at a time: 128 KiB read as fast as
/// 1 MiB and held 0.3–0.6 MiB less at the peak (docs/benchmarks.md, "The
/// reads' chunk").
const CHUNK: usize = 128 << 10;

/// Where the kept events of a sparse read lie in the file.
#[derive(Debug, Clone)]
pub struct JpSparse {
    /// For each kept event: the offset of the first entry it stands for,
    /// and that entry's stored index (a legacy base entry counts).
    places: Vec<(usize, usize)>,
    /// Where the last entry ends.
    end: usize,
    /// For each kept turn that folded turns come just before: the stored
    /// index of its first entry, and how many (see the module's text); in
    /// stored order.
    gaps: Vec<(usize, usize)>,
}

/// What a kept event stands for, for grouping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// A `turn_start` or a `config_delta`: kept whole.
    Kept,
    /// A conversation event: holds a turn open.
    Conversation,
    /// A compaction or an unknown entry: neither opens nor holds a turn.
    Other,
}

impl JpSparse {
    /// Reads `events` (a JP `events.json`) sparsely (see the module's
    /// text). The load's events are the kept ones; its diagnostics are every
    /// entry's, as the outline finds them. `Ok(None)` when the file is not a
    /// plain JSON array of entries or an entry the scan leaves to serde_json
    /// is not JSON: read it whole then, which reports exactly what is wrong.
    /// The reader returned re-reads the file whole at its first change: the
    /// bytes were not hashed. With `last`, the caller prints at most the
    /// last `last` turns: the turns before them are folded into their
    /// count, but for those a configuration change decides.
    pub fn read_from(
        events: &mut impl Read,
        base_config_json: Option<&[u8]>,
        last: Option<usize>,
    ) -> io::Result<Option<(JpStream, JpLoad, JpSparse)>> {
        Self::read_folding_at(events, base_config_json, last, FOLD_AT)
    }

    fn read_folding_at(
        events: &mut impl Read,
        base_config_json: Option<&[u8]>,
        last: Option<usize>,
        fold_at: usize,
    ) -> io::Result<Option<(JpStream, JpLoad, JpSparse)>> {
        let Some(base) = parsed_base(base_config_json) else {
            return Ok(None);
        };
        let mut reader = Reader::new(base.is_some(), 0);
        let mut entries = ArrayReader::new(events, CHUNK)?;
        let mut places = Vec::new();
        let mut found = Vec::new();
        let mut memo = SketchMemo::default();
        // The class of the last kept event.
        let mut last_class = Class::Kept;
        let (mut gaps, mut next_fold) = (Vec::new(), fold_at);
        loop {
            let index = reader.entries_read();
            // Whether the entry goes on the run of the kept event before
            // it, and is counted without an event of its own.
            let mut in_run = false;
            match entries.next(|_| {})? {
                Next::Entry(bytes, ends) => {
                    let may_be_base = index == 0 && base.is_none();
                    let sketched = if may_be_base {
                        None
                    } else {
                        sketched(bytes, ends, &mut found, &mut memo)
                    };
                    match sketched {
                        Some(sketched) if class_of(sketched.kind()).continues(last_class) => {
                            in_run = true;
                            reader.count_sketch(sketched.problem().map(str::to_owned));
                        }
                        // The first entry of a run (made the run's stand-in
                        // below), or one the scan does not follow.
                        sketched => match sketched.and_then(Sketched::into_event) {
                            Some((event, problem)) => reader.push_sketch(event, problem),
                            None => match entry::read(bytes, ends, &mut found) {
                                Ok(entry) => reader.push(entry),
                                Err(_) => return Ok(None),
                            },
                        },
                    }
                }
                Next::End => break,
                Next::Unusual => return Ok(None),
            }
            if let Some(escape) = entries.lone_escape() {
                reader.note_lone(escape);
            }
            if in_run {
                continue;
            }
            let kept = &mut reader.out.events;
            // A legacy base configuration is not an event.
            if kept.len() == places.len() {
                continue;
            }
            let class = kept.last().map_or(Class::Kept, |event| class_of(&event.kind));
            if class.continues(last_class) {
                kept.pop();
                continue;
            }
            if let Some(event) = kept.last_mut() {
                match class {
                    Class::Kept => {}
                    Class::Conversation => *event = stand_in(),
                    Class::Other => *event = super::outline::unknown(),
                }
            }
            last_class = class;
            places.push((entries.entry_offset(), index));
            if let Some(last) = last
                && kept.len() >= next_fold
            {
                gaps = fold(kept, &mut places, &gaps, last);
                next_fold = fold_at.max(2 * kept.len());
            }
        }
        let Some(end) = entries.finish(|_| {})? else {
            return Ok(None);
        };
        // The turns read since the last fold too.
        if let Some(last) = last {
            gaps = fold(&mut reader.out.events, &mut places, &gaps, last);
        }
        let mut load = reader.finish();
        if let Some(base) = base {
            load.base_config = Some(base);
            load.generation = Some(super::Generation::Current);
        }
        let sparse = JpSparse {
            places,
            end: end.prefix_len,
            gaps,
        };
        Ok(Some((JpStream::unfollowed(), load, sparse)))
    }

    /// The number in the file of each of `turns`, the turns grouped from
    /// the kept events: the turns folded before each counted.
    pub fn turn_numbers(&self, turns: &[Turn]) -> Vec<usize> {
        let folded_before = |first: usize| {
            self.places
                .get(first)
                .map_or(0, |&(_, stored)| gap_before(&self.gaps, stored))
        };
        turns
            .iter()
            .scan(0, |number, turn| {
                *number += 1 + folded_before(turn.events.start);
                Some(*number)
            })
            .collect()
    }

    /// The stored index of the first entry each kept event stands for, in
    /// order: to name an event as it is stored.
    pub fn stored_indices(&self) -> impl Iterator<Item = usize> + '_ {
        self.places.iter().map(|&(_, index)| index)
    }

    /// Decodes every entry from the one kept event `from` stands for to the
    /// end, from `file` (the handle the sparse read read: a rename over its
    /// path does not change it), a chunk at a time: the events, each with
    /// its stored index. `diagnosed` tells whether the sparse read found an
    /// entry (by stored index) wrong. `Ok(None)` when an entry is not JSON
    /// or is wrong where the sparse read found it right (grouping went by
    /// that): only a full read will do then.
    pub fn decode_from(
        &self,
        file: &mut (impl Read + Seek),
        from: usize,
        diagnosed: &dyn Fn(usize) -> bool,
    ) -> io::Result<Option<Vec<(Event, usize)>>> {
        let Some(&(start, first_index)) = self.places.get(from) else {
            return Ok(Some(Vec::new()));
        };
        file.seek(SeekFrom::Start(start as u64))?;
        // The entries, their commas between them, made an array again and
        // read a chunk at a time (a last turn of many entries is not held
        // whole), their lone surrogate escapes repaired as the sparse read
        // repaired them.
        let len = self.end - start;
        let array = io::Cursor::new(b"[")
            .chain(file.take(len as u64))
            .chain(io::Cursor::new(b"]"));
        let mut entries = ArrayReader::new(array, CHUNK)?;
        let mut decoded = Vec::new();
        let mut found = Vec::new();
        loop {
            match entries.next(|_| {})? {
                Next::Entry(bytes, ends) => {
                    let index = first_index + decoded.len();
                    let Ok(entry) = entry::read(bytes, ends, &mut found) else {
                        return Ok(None);
                    };
                    let (event, problem) = event_of(entry);
                    if problem.is_some() && !diagnosed(index) {
                        return Ok(None);
                    }
                    decoded.push((event, index));
                }
                Next::End => break,
                Next::Unusual => return Ok(None),
            }
        }
        // A file cut short since, even between two entries, is not the one
        // read.
        let whole = entries
            .finish(|_| {})?
            .is_some_and(|end| end.prefix_len == 1 + len);
        Ok(whole.then_some(decoded))
    }
}

/// Folds the turns of `kept` before its last `keep` that no configuration
/// change decides (see the module's text) into their count: removes their
/// events and places, and returns, for each kept turn that folded turns
/// now come just before, the stored index of its first entry and how many
/// (`gaps`: those of the folds before).
fn fold(
    kept: &mut Vec<Event>,
    places: &mut Vec<(usize, usize)>,
    gaps: &[(usize, usize)],
    keep: usize,
) -> Vec<(usize, usize)> {
    let is_delta = |event: &Event| matches!(event.kind, EventKind::ConfigDelta { .. });
    let turns = turn_ranges(kept, 0);
    let foldable = turns.len().saturating_sub(keep);
    let mut folded = vec![false; kept.len()];
    let mut new_gaps = Vec::new();
    // Turns folded since the last kept one, those folded before them
    // included; where the last turn's configuration step started.
    let (mut carried, mut step_start) = (0, 0);
    for (t, range) in turns.iter().enumerate() {
        // The changes merged when this turn is shown: those from the last
        // turn's first event that is not a change to this turn's
        // (`PolicyTimeline::advance`).
        let first = range
            .clone()
            .find(|&i| !is_delta(&kept[i]))
            .unwrap_or(range.end);
        let decided = kept[step_start..first].iter().any(is_delta)
            || kept[range.clone()].iter().any(is_delta);
        step_start = first;
        // A conversation with no events has one turn, empty: nothing to fold.
        let Some(&(_, stored)) = places.get(range.start) else {
            continue;
        };
        let before = gap_before(gaps, stored);
        if t < foldable && !decided {
            carried += 1 + before;
            folded[range.clone()].fill(true);
        } else {
            if before + carried > 0 {
                new_gaps.push((stored, before + carried));
            }
            carried = 0;
        }
    }
    let mut at = 0;
    kept.retain(|_| {
        at += 1;
        !folded[at - 1]
    });
    let mut at = 0;
    places.retain(|_| {
        at += 1;
        !folded[at - 1]
    });
    new_gaps
}

/// How many turns `gaps` (see [`fold`]) say were folded just before the
/// kept turn whose first entry is stored at `stored`.
fn gap_before(gaps: &[(usize, usize)], stored: usize) -> usize {
    gaps.binary_search_by_key(&stored, |&(at, _)| at)
        .map_or(0, |i| gaps[i].1)
}

impl Class {
    /// Whether an entry of this class goes on the run of the kept event
    /// of class `last` before it (one stand-in stands for both).
    fn continues(self, last: Class) -> bool {
        self != Class::Kept && self == last
    }
}

/// What an event of `kind` is to grouping.
fn class_of(kind: &EventKind) -> Class {
    match kind {
        EventKind::TurnStart | EventKind::ConfigDelta { .. } => Class::Kept,
        EventKind::Compaction(_) | EventKind::Unknown(_) => Class::Other,
        _ => Class::Conversation,
    }
}

/// The event that stands for a run of conversation events: one of them
/// to grouping, nothing to pairing.
fn stand_in() -> Event {
    Event::new(None, EventKind::ChatResponse(ChatResponse::Message(None)))
}

#[cfg(test)]
mod tests;
