//! A conversation folder opened at its end, for the viewer:
//! read in outline as `render --turn` reads it (`turns.rs`) — every event of
//! its kind, the turns, the pairing, every turn's configuration and the
//! warnings as a full read makes them — with only its last turns decoded.
//! The earlier turns are decoded when the viewer asks for them
//! ([`Live::read_earlier`]: the user scrolls up to them, or presses a key
//! that needs the whole conversation), from the file handle the outline was
//! read from, so a rename over the path since changes nothing.

use std::fs::File;
use std::io::{self, Read};
use std::ops::Range;

use super::folder::{FOLDER_FORMAT, read_document};
use super::{Live, OpenError, Origin, Reader};
use crate::format::Outline;
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

/// The leading turns of a conversation opened at its end that are still in
/// outline, and where to decode them from.
pub(super) struct Earlier {
    outline: Outline,
    /// The file the outline was read from (not its path: JP renames a new
    /// file over it at each write).
    file: File,
    /// How many leading turns are still in outline.
    turns: usize,
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
    /// reads it.
    pub fn open_at_end(arg: Option<&str>) -> Result<Live, OpenError> {
        Live::open_at_end_reporting(arg, &mut |_, _| {})
    }

    /// [`Live::open_at_end`], telling `report` how many bytes of the file it
    /// has read, and of how many, while it outlines a JP conversation: a
    /// 1 GB one takes most of a second, which a note can say.
    pub fn open_at_end_reporting(
        arg: Option<&str>,
        report: &mut dyn FnMut(u64, u64),
    ) -> Result<Live, OpenError> {
        let cwd = std::env::current_dir()?;
        let env = |name: &str| std::env::var(name).ok();
        match locate(arg, &cwd, &env)? {
            Target::JpConversation(dir) => Live::outline_at_end(dir, None, report),
            Target::Workspace(workspace) => {
                let entry = workspace
                    .most_recent()
                    .ok_or_else(|| LocateError::NoConversations(workspace.root.clone()))?;
                Live::outline_at_end(entry.conversation(), Some(workspace), report)
            }
            _ => Live::open(arg),
        }
    }

    /// [`Live::open_jp`] with only the last turns decoded (at least
    /// [`EARLIER_STEP`] bytes of entries, whole turns); read whole when an
    /// outline will not do.
    pub fn open_jp_at_end(
        dir: ConversationDir,
        workspace: Option<Workspace>,
    ) -> Result<Live, OpenError> {
        Live::outline_at_end(dir, workspace, &mut |_, _| {})
    }

    /// [`Live::open_jp_at_end`], telling `report` how far the outline is.
    fn outline_at_end(
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
            return Live::open_jp(dir, workspace);
        };
        let mut live = Live::of_folder(dir, workspace, &files, reader, load);
        live.earlier = Some(Earlier {
            outline,
            file,
            turns: live.conversation.turns.len(),
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
        while self.earlier.is_some() && read < bytes {
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
        let Some(earlier) = &self.earlier else {
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
                self.read_whole()?;
                return Ok(None);
            }
        }
        if let Some(earlier) = &mut self.earlier {
            earlier.turns = first;
            if first == 0 {
                self.earlier = None;
            }
        }
        // A step decodes at least one turn, even an empty one.
        Ok(Some(spanned.max(1)))
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

    /// Reads the conversation's file again whole (the outline was wrong).
    fn read_whole(&mut self) -> Result<(), OpenError> {
        self.earlier = None;
        let Origin::Jp(dir) = &self.origin else {
            return Ok(());
        };
        let files = dir.read_beside()?;
        let (reader, load) = read_document(dir, files.base_config.as_deref())?;
        let path = dir.events_path();
        self.reader = Reader::Document(reader);
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

/// A reader that tells `report` how many bytes it has given so far.
struct Counted<'a, R> {
    inner: R,
    read: u64,
    report: &'a mut dyn FnMut(u64),
}

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        (self.report)(self.read);
        Ok(n)
    }
}
