//! A conversation folder opened at its end, for the viewer:
//! read in outline as `render --turn` reads it (`turns.rs`) — every event of
//! its kind, the turns, the pairing, every turn's configuration and the
//! warnings as a full read makes them — with only its last turns decoded.
//! The earlier turns are decoded when the viewer asks for them
//! ([`Live::read_earlier`]: the user scrolls up to them, or presses a key
//! that needs the whole conversation), from the file handle the outline was
//! read from, so a rename over the path since changes nothing.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::io;
use std::ops::Range;

use super::folder::{Counted, FOLDER_FORMAT, read_document};
use super::{Live, OpenError, Origin, Reader};
use crate::format::Outline;
use crate::model::Conversation;
use crate::source::conversation::named;
use crate::source::{ConversationDir, LocateError, Target, Workspace, locate};

/// How many bytes of entries one [`Live::read_earlier`] step decodes at
/// least (whole turns): a few screens of a typical conversation, decoded
/// between two keys.
pub const EARLIER_STEP: usize = 1 << 20;

/// The most bytes of the file one decoding reads at once: reading every
/// earlier turn of a 1 GB conversation holds this much of it, not all. It
/// is also one step of the viewer reading every earlier turn: keys, signals
/// and appends are answered between steps.
pub const DECODE_SPAN: usize = 8 << 20;

/// How many bytes of entries a conversation opened at its end keeps decoded
/// once its turns are read, the turns nearest the view: one further away is
/// emptied of its texts again ([`Live::hollow_far_from`]), its blocks kept,
/// and decoded again when it is shown or searched. Reading every turn of a
/// 1 GB conversation held 1.1 GB; a conversation that spans less than this
/// is never emptied.
pub const RESIDENT_SPAN: usize = 192 << 20;

/// The leading turns of a conversation opened at its end that are still in
/// outline, where to decode them from, and which of the turns read since
/// were emptied again.
pub(super) struct Earlier {
    outline: Outline,
    /// The file the outline was read from (not its path: JP renames a new
    /// file over it at each write).
    file: File,
    /// How many leading turns are still in outline.
    turns: usize,
    /// The decoded turns whose entries are all in the outline, with the
    /// bytes each spans in the file: what may be emptied again.
    resident: BTreeMap<usize, usize>,
    /// The bytes of `resident` in all.
    resident_bytes: usize,
    /// The turns emptied again ([`Live::hollow_far_from`]).
    hollow: BTreeSet<usize>,
    /// The most bytes `resident` keeps ([`RESIDENT_SPAN`]).
    budget: usize,
}

/// What [`Live::read_earlier`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EarlierRead {
    /// The events of this many more leading turns are decoded (0: none were
    /// left).
    Turns(usize),
    /// The outline was wrong about an entry: the file was read again whole,
    /// and the conversation is new (every turn decoded).
    Reloaded,
}

impl Live {
    /// [`Live::open`] for the viewer, which opens at the end: a JP
    /// conversation is read in outline with only its last turns decoded
    /// (see the module's text); anything else is read as [`Live::open`]
    /// reads it. `report` hears how many bytes of the file it has read, and
    /// of how many, while it outlines a JP conversation: a 1 GB one takes
    /// most of a second, which a note can say.
    pub fn open_at_end_reporting(
        arg: Option<&str>,
        report: &mut dyn FnMut(u64, u64),
    ) -> Result<Live, OpenError> {
        let cwd = std::env::current_dir()?;
        let env = |name: &str| std::env::var(name).ok();
        match locate(arg, &cwd, &env)? {
            Target::JpConversation(dir) => Live::open_jp_at_end_reporting(dir, None, report),
            Target::Workspace(workspace) => {
                let entry = workspace
                    .most_recent()
                    .ok_or_else(|| LocateError::NoConversations(workspace.root.clone()))?;
                Live::open_jp_at_end_reporting(entry.conversation(), Some(workspace), report)
            }
            _ => Live::open(arg),
        }
    }

    /// [`Live::open_jp`] with only the last turns decoded (at least
    /// [`EARLIER_STEP`] bytes of entries, whole turns); read whole when an
    /// outline will not do.
    #[cfg(any(test, feature = "internals"))]
    pub fn open_jp_at_end(
        dir: ConversationDir,
        workspace: Option<Workspace>,
    ) -> Result<Live, OpenError> {
        Live::open_jp_at_end_reporting(dir, workspace, &mut |_, _| {})
    }

    /// [`Live::open_jp_at_end`], telling `report` how many bytes of the
    /// file it has read, and of how many (from 0 again when it is read a
    /// second time, whole): the opening's note on a large conversation.
    pub fn open_jp_at_end_reporting(
        dir: ConversationDir,
        workspace: Option<Workspace>,
        report: &mut dyn FnMut(u64, u64),
    ) -> Result<Live, OpenError> {
        let files = dir.read_beside()?;
        let path = dir.events_path();
        let mut file = dir.open_events()?;
        let total = file.metadata().map_or(0, |meta| meta.len());
        let mut counted = Counted {
            inner: &mut file,
            read: 0,
            report: &mut |read| report(read, total),
        };
        let outlined = FOLDER_FORMAT
            .outline(&mut counted, files.base_config.as_deref())
            .map_err(|e| named(&path, &e))?;
        let Some((reader, load, outline)) = outlined else {
            // Read again whole, which reports what is wrong: the opening's
            // note hears it start again from 0 (`reading again… 40%`).
            return Live::open_jp_reporting(dir, workspace, &mut |read| report(read, total));
        };
        // A turn's items are grouped when it is decoded ([`Live::read_earlier`]).
        let mut live = Live::of_folder(dir, workspace, &files, reader, load, Conversation::in_outline);
        live.earlier = Some(Earlier {
            outline,
            file,
            turns: live.conversation.turns.len(),
            resident: BTreeMap::new(),
            resident_bytes: 0,
            hollow: BTreeSet::new(),
            budget: RESIDENT_SPAN,
        });
        live.read_earlier(EARLIER_STEP)?;
        Ok(live)
    }

    /// How many leading turns are still in outline: their events hold
    /// their kind and ids but not their text, and nothing may show them
    /// before [`Live::read_earlier`] decoded them.
    pub fn earlier_turns(&self) -> usize {
        self.earlier.as_ref().map_or(0, |earlier| earlier.turns)
    }

    /// Decodes the last turns still in outline, at least `bytes` of their
    /// entries (whole turns; `usize::MAX`: all of them), and the events in
    /// earlier turns theirs name. The file is read 8 MiB at a
    /// time, so that reading every turn holds no more than that of it.
    pub fn read_earlier(&mut self, bytes: usize) -> Result<EarlierRead, OpenError> {
        let before = self.earlier_turns();
        let mut read = 0;
        while self.earlier_turns() > 0 && read < bytes {
            match self.read_earlier_span((bytes - read).min(DECODE_SPAN))? {
                Some(spanned) => read += spanned,
                None => return Ok(EarlierRead::Reloaded),
            }
        }
        Ok(EarlierRead::Turns(before - self.earlier_turns()))
    }

    /// One step of [`Live::read_earlier`]: the last turns in outline, at
    /// least `bytes` of them; how many bytes they span, or `None` when the
    /// file had to be read whole.
    fn read_earlier_span(&mut self, bytes: usize) -> Result<Option<usize>, OpenError> {
        let Some(earlier) = self.earlier.as_ref().filter(|e| e.turns > 0) else {
            return Ok(Some(0));
        };
        let end = earlier.turns;
        let turns = &self.conversation.turns;
        let stop = turns
            .get(end)
            .map_or(self.conversation.events.len(), |t| t.events.start);
        let start_of = |turn: usize| {
            if turn == 0 {
                0
            } else {
                turns[turn].events.start
            }
        };
        let mut first = end;
        while first > 0 {
            first -= 1;
            if earlier.outline.span(start_of(first)..stop) >= bytes {
                break;
            }
        }
        let span = start_of(first)..stop;
        let spanned = earlier.outline.span(span.clone());
        // Their items name the events to decode in earlier turns.
        self.conversation.group_items_from(first);
        let turns = &self.conversation.turns;
        let mut named: Vec<usize> = turns[first..end]
            .iter()
            .flat_map(|turn| turn.events_named())
            .filter(|&i| i < span.start)
            .collect();
        named.sort_unstable();
        named.dedup();
        let ranges = std::iter::once(span).chain(named.into_iter().map(|i| i..i + 1));
        for range in ranges {
            if !self.decode(range)? {
                self.reread()?;
                return Ok(None);
            }
        }
        if let Some(earlier) = &mut self.earlier {
            earlier.turns = first;
            let outlined = earlier.outline.outlined();
            for (at, turn) in self.conversation.turns[first..end].iter().enumerate() {
                if turn.events.end <= outlined {
                    let bytes = earlier.outline.span(turn.events.clone());
                    earlier.resident.insert(first + at, bytes);
                    earlier.resident_bytes += bytes;
                }
            }
            // Every turn read, and all within the budget: nothing will be
            // emptied, and the outline is let go of.
            if first == 0 && earlier.outline.span(0..outlined) <= earlier.budget {
                self.earlier = None;
            }
        }
        // A step decodes at least one turn, even an empty one.
        Ok(Some(spanned.max(1)))
    }

    /// Whether turn `turn` (0-based) was emptied of its texts again
    /// ([`Live::hollow_far_from`]): its blocks may not be laid out before
    /// [`Live::make_resident`] decoded it. For tests, which check that
    /// turns were emptied.
    #[cfg(any(test, feature = "internals"))]
    pub fn is_hollow(&self, turn: usize) -> bool {
        self.earlier
            .as_ref()
            .is_some_and(|earlier| earlier.hollow.contains(&turn))
    }

    /// The first turn (0-based) of the turns ending before turn `end` whose
    /// entries span at least `bytes` of the file (at least one turn, none
    /// before `from`): a batch of turns to decode again in one step.
    pub fn batch_before(&self, end: usize, from: usize, bytes: usize) -> usize {
        let Some(earlier) = &self.earlier else {
            return from;
        };
        let turns = &self.conversation.turns;
        // Turns appended since the outline was read are decoded already:
        // they cost a batch nothing.
        let outlined = earlier.outline.outlined();
        let mut first = end;
        while first > from {
            first -= 1;
            let span = turns[first].events.start..turns[end - 1].events.end.min(outlined);
            if earlier.outline.span(span) >= bytes {
                break;
            }
        }
        first
    }

    /// Whether any turn was emptied of its texts again.
    pub fn has_hollow(&self) -> bool {
        self.earlier
            .as_ref()
            .is_some_and(|earlier| !earlier.hollow.is_empty())
    }

    /// Decodes again every turn emptied of its texts among `turns`
    /// (0-based): their blocks are about to be built again.
    pub fn make_resident_in(&mut self, turns: Range<usize>) -> Result<(), OpenError> {
        let hollow: Vec<usize> = match &self.earlier {
            Some(earlier) if turns.start < turns.end => {
                earlier.hollow.range(turns).copied().collect()
            }
            _ => return Ok(()),
        };
        for turn in hollow {
            self.make_resident(turn)?;
        }
        Ok(())
    }

    /// Decodes again what showing turn `turn` (0-based) reads and was
    /// emptied: its own events, and those of other turns its items name (a
    /// late answer's call). Whether anything was decoded; an error when an
    /// entry is no longer what it was (the file was changed in place: only
    /// [`Live::reread`] will do then).
    pub fn make_resident(&mut self, turn: usize) -> Result<bool, OpenError> {
        let Some(earlier) = self.earlier.as_ref().filter(|e| !e.hollow.is_empty()) else {
            return Ok(false);
        };
        let turns = &self.conversation.turns;
        let Some(shown) = turns.get(turn) else {
            return Ok(false);
        };
        let own = shown.events.clone();
        // Events appended to the turn since it was emptied were never
        // emptied: only those the outline holds are decoded again.
        let stored = own.start..own.end.min(earlier.outline.outlined());
        let hollow_event = |event: usize| {
            let of = turns.partition_point(|t| t.events.end <= event);
            earlier.hollow.contains(&of)
        };
        let own_hollow = earlier.hollow.contains(&turn);
        let mut ranges: Vec<Range<usize>> = shown
            .events_named()
            .filter(|event| !own.contains(event) && hollow_event(*event))
            .map(|event| event..event + 1)
            .collect();
        if own_hollow {
            ranges.push(stored.clone());
        }
        if ranges.is_empty() {
            return Ok(false);
        }
        for range in ranges {
            if !self.decode(range)? {
                let changed = io::Error::other("changed in place since it was read");
                return Err(self.named_error(&changed));
            }
        }
        if let Some(earlier) = &mut self.earlier
            && own_hollow
        {
            earlier.hollow.remove(&turn);
            let bytes = earlier.outline.span(stored);
            earlier.resident.insert(turn, bytes);
            earlier.resident_bytes += bytes;
        }
        Ok(true)
    }

    /// Empties again the decoded turns furthest from turn `center` (0-based)
    /// until those left span at most [`RESIDENT_SPAN`] of the file. Turns
    /// before `from` (read, their blocks not built yet) and `center` itself
    /// stay decoded.
    pub fn hollow_far_from(&mut self, center: usize, from: usize) {
        let Some(earlier) = &mut self.earlier else {
            return;
        };
        while earlier.resident_bytes > earlier.budget {
            let first = earlier.resident.range(from..).next();
            let last = earlier.resident.range(from..).next_back();
            let (Some((&first, _)), Some((&last, _))) = (first, last) else {
                break;
            };
            let far = if center.abs_diff(first) >= center.abs_diff(last) {
                first
            } else {
                last
            };
            if far == center {
                break;
            }
            let bytes = earlier.resident.remove(&far).unwrap_or(0);
            earlier.resident_bytes -= bytes;
            let events = self.conversation.turns[far].events.clone();
            if events.end > earlier.outline.outlined() {
                // Events were appended to it since the outline was read:
                // they could not be decoded from it again.
                continue;
            }
            earlier.hollow.insert(far);
            for event in &mut self.conversation.events[events] {
                earlier.outline.hollow(event);
            }
        }
    }

    /// Sets how many bytes of entries stay decoded ([`RESIDENT_SPAN`]): a
    /// test or a measurement sees turns emptied without a 200 MB
    /// conversation.
    #[cfg(any(test, feature = "internals"))]
    pub fn set_resident_budget(&mut self, bytes: usize) {
        if let Some(earlier) = &mut self.earlier {
            earlier.budget = bytes;
        }
    }

    /// Decodes the events `range` in place; false when the outline was
    /// wrong about one of them.
    fn decode(&mut self, range: Range<usize>) -> Result<bool, OpenError> {
        let Some(earlier) = &self.earlier else {
            return Ok(true);
        };
        let sketches = &self.conversation.events[range.clone()];
        let decoded = earlier
            .outline
            .decode(&mut &earlier.file, range.clone(), sketches)
            .map_err(|e| self.named_error(&e))?;
        let Some(mut events) = decoded else {
            return Ok(false);
        };
        self.redact(&mut events);
        for (slot, event) in self.conversation.events[range].iter_mut().zip(events) {
            *slot = event;
        }
        Ok(true)
    }

    /// Reads the conversation's file again whole: the outline was wrong
    /// about an entry, or a turn emptied earlier could not be decoded again
    /// ([`Live::make_resident`]). When it cannot be, what was read stays
    /// as it was, the outline with it: its emptied turns can still be
    /// decoded again once the file can be read.
    pub fn reread(&mut self) -> Result<(), OpenError> {
        let Origin::Jp(dir) = &self.origin else {
            self.earlier = None;
            return Ok(());
        };
        let files = dir.read_beside()?;
        let (reader, load) = read_document(dir, files.base_config.as_deref())?;
        let path = dir.events_path();
        self.reader = Reader::Document(reader);
        // The outline goes with what it described.
        self.replace_with(&path, load);
        Ok(())
    }

    /// An I/O error naming the conversation's events file.
    fn named_error(&self, error: &std::io::Error) -> OpenError {
        match &self.origin {
            Origin::Jp(dir) => named(&dir.events_path(), error).into(),
            _ => OpenError::Io(std::io::Error::new(error.kind(), error.to_string())),
        }
    }
}
