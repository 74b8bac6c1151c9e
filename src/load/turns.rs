//! Reading a conversation to print some of its turns (`render --turn`).
//!
//! The last turns (`--turn -1`, `-3..-1`, `5..`): a whole-file format is
//! read sparsely (`format::DocumentFormat::sparse`: one pass that keeps
//! only what decides the turns and the configuration in force at each),
//! and only the chosen turns are decoded, from the file's tail. The turn
//! count, the turns' numbers and configuration and the problems found are
//! those of a full read; what is printed is what a full read prints. When
//! a chosen turn answers a call of an earlier turn (the sparse read does
//! not know the earlier calls), or the turns chosen are not the last ones,
//! the outline is read instead. When at most the last `n` turns can be
//! chosen (`--turn -1`, `-3..`), the sparse read folds the turns before the
//! last `n` into their count as it goes, but for the turns a configuration
//! change decides: it holds a few thousand events however long the file,
//! and the turns held are numbered as in the file, the folded ones counted
//! (`Conversation::number_turns`).
//!
//! The outline: every event of its kind, with what grouping needs, but no
//! text (see `format::DocumentFormat::outline`), grouped whole, and only
//! the events the chosen turns show are decoded.

use std::ops::Range;

use std::io::Seek as _;

use super::folder::FOLDER_FORMAT;
use super::{Live, OpenError};
use crate::format::{DocumentReader, Loaded, Outline};
use crate::model::{Conversation, EventKind, Item};
use crate::source::conversation::named;
use crate::source::{ConversationDir, Target, Workspace, locate};

impl Live {
    /// [`Live::read_once_at`] for printing only the turns `shown` keeps
    /// (`shown(number, total)`, turns numbered from 1): the events of the
    /// other turns are not decoded. `last`: at most the last `last` turns
    /// are shown (`shown` keeps no turn before them, whatever the total), so
    /// the ones before need not be held, only counted. Only for printing:
    /// the conversation is not to be followed or shown in full, and with
    /// `last` it may hold only its last turns
    /// ([`Conversation::turn_count`] counts them all).
    pub fn read_turns_at(
        arg: Option<&str>,
        shown: &dyn Fn(usize, usize) -> bool,
        last: Option<usize>,
    ) -> Result<Live, OpenError> {
        let cwd = std::env::current_dir()?;
        let env = |name: &str| std::env::var(name).ok();
        let (dir, workspace) = match locate(arg, &cwd, &env)? {
            Target::JpConversation(dir) => (dir, None),
            Target::Workspace(workspace) => match workspace.most_recent() {
                Some(entry) => (entry.conversation(), Some(workspace)),
                None => return Live::read_once_at(arg),
            },
            _ => return Live::read_once_at(arg),
        };
        Live::open_jp_turns(dir, workspace, shown, last)
    }

    /// Opens a JP conversation folder with only the events of the turns
    /// `shown` keeps decoded (see [`Live::read_turns_at`]); read whole when
    /// an outline will not do.
    fn open_jp_turns(
        dir: ConversationDir,
        workspace: Option<Workspace>,
        shown: &dyn Fn(usize, usize) -> bool,
        last: Option<usize>,
    ) -> Result<Live, OpenError> {
        let files = dir.read_beside()?;
        let path = dir.events_path();
        let io = |e: std::io::Error| named(&path, &e);
        let mut file = dir.open_events()?;
        let base = files.base_config.as_deref();
        if let Some(LastTurns {
            reader,
            load,
            stored_at,
            numbers,
        }) = read_last_turns(&mut file, base, shown, last).map_err(io)?
        {
            let mut live = Live::of_folder(dir, workspace, &files, reader, load, Conversation::new);
            live.conversation.number_turns(&numbers);
            live.stored_at = Some(stored_at);
            return Ok(live);
        }
        file.rewind().map_err(io)?;
        let outlined = FOLDER_FORMAT
            .outline(&mut file, files.base_config.as_deref())
            .map_err(io)?;
        let Some((reader, load, outline)) = outlined else {
            return Live::open_jp(dir, workspace);
        };
        let mut live = Live::of_folder(dir, workspace, &files, reader, load, Conversation::new);
        if !live.decode_shown(&mut file, &outline, shown).map_err(io)? {
            let Live {
                origin, workspace, ..
            } = live;
            let super::Origin::Jp(dir) = origin else {
                unreachable!("opened as a JP folder")
            };
            return Live::open_jp(dir, workspace);
        }
        Ok(live)
    }

    /// Decodes the events of the turns `shown` keeps, and the ones their
    /// items name in later turns; false when the outline was wrong about one
    /// (then only a full read will do).
    fn decode_shown(
        &mut self,
        file: &mut std::fs::File,
        outline: &Outline,
        shown: &dyn Fn(usize, usize) -> bool,
    ) -> std::io::Result<bool> {
        let conv = &mut self.conversation;
        let total = conv.turns.len();
        let chosen: Vec<Range<usize>> = conv
            .turns
            .iter()
            .filter(|turn| shown(turn.number, total))
            .map(|turn| turn.events.clone())
            .collect();
        let inside = |i: &usize| chosen.iter().any(|range| range.contains(i));
        let mut named: Vec<usize> = conv
            .turns
            .iter()
            .filter(|turn| shown(turn.number, total))
            .flat_map(|turn| turn.events_named())
            .filter(|i| !inside(i))
            .collect();
        named.sort_unstable();
        named.dedup();
        let singles = named.into_iter().map(|i| i..i + 1);
        for range in chosen.iter().cloned().chain(singles) {
            let sketches = &conv.events[range.clone()];
            let Some(events) = outline.decode(file, range.clone(), sketches)? else {
                return Ok(false);
            };
            for (slot, event) in conv.events[range].iter_mut().zip(events) {
                *slot = event;
            }
        }
        Ok(true)
    }
}

/// A conversation read sparsely with its last turns decoded
/// ([`read_last_turns`]).
struct LastTurns {
    /// What reads the file again.
    reader: DocumentReader,
    /// Every event of the turns decoded, one stand-in for each run of
    /// earlier ones.
    load: Loaded,
    /// Each event's stored index.
    stored_at: Vec<usize>,
    /// Each turn's number, the turns folded into their count counted.
    numbers: Vec<usize>,
}

/// Reads `file` sparsely and decodes the turns `shown` keeps when they are
/// the last ones (see the module's text). `None` when the outline must be
/// read instead.
fn read_last_turns(
    file: &mut std::fs::File,
    base: Option<&[u8]>,
    shown: &dyn Fn(usize, usize) -> bool,
    last: Option<usize>,
) -> std::io::Result<Option<LastTurns>> {
    let Some((reader, mut load, sparse)) = FOLDER_FORMAT.sparse(file, base, last)? else {
        return Ok(None);
    };
    let mut grouped = Conversation::new(std::mem::take(&mut load.events), None, None);
    let numbers = sparse.turn_numbers(&grouped.turns);
    grouped.number_turns(&numbers);
    let total = grouped.turn_count();
    // A folded turn must not be chosen: `last` said none would be.
    let held = |number: &usize| numbers.binary_search(number).is_ok();
    if (1..=total).any(|number| !held(&number) && shown(number, total)) {
        return Ok(None);
    }
    let first = grouped
        .turns
        .iter()
        .position(|turn| shown(turn.number, total))
        .unwrap_or(grouped.turns.len());
    if !grouped.turns[first..]
        .iter()
        .all(|turn| shown(turn.number, total))
    {
        return Ok(None);
    }
    let from = grouped
        .turns
        .get(first)
        .map_or(grouped.events.len(), |turn| turn.events.start);
    let held_turns = grouped.turns.len();
    // The chosen turns' events are decoded again: only the ones before them
    // are held meanwhile (a last turn of many entries is not held twice).
    let mut events = std::mem::take(&mut grouped.events);
    drop(grouped);
    events.truncate(from);
    events.shrink_to_fit();
    let diagnosed = |index: usize| load.diagnostics.iter().any(|d| d.index == index);
    let Some(decoded) = sparse.decode_from(file, from, &diagnosed)? else {
        return Ok(None);
    };
    let mut stored_at = sparse.stored_indices();
    stored_at.truncate(from);
    for (event, index) in decoded {
        events.push(event);
        stored_at.push(index);
    }
    // Grouped again with the chosen turns decoded: the same turns, and
    // every response among them paired, or the outline will do.
    let whole = Conversation::new(events, None, None);
    let same = whole.turns.len() == held_turns
        && whole.turns.get(first).is_none_or(|t| t.events.start == from);
    if !same || answers_earlier(&whole, first) {
        return Ok(None);
    }
    load.events = whole.events;
    Ok(Some(LastTurns {
        reader,
        load,
        stored_at,
        numbers,
    }))
}

/// Whether a response or answer in the turns from index `first` on has no
/// request among them: its request may be in an earlier turn, which a
/// sparse read does not know.
fn answers_earlier(conv: &Conversation, first: usize) -> bool {
    conv.turns[first..].iter().any(|turn| {
        turn.items.iter().any(|item| match item {
            Item::OrphanResponse(_) => true,
            Item::Unknown(i) => matches!(conv.events[*i].kind, EventKind::InquiryResponse { .. }),
            _ => false,
        })
    })
}
