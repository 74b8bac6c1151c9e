//! Following a stream: a line-delimited file that grows by appends (an eve
//! stream, a Claude Code transcript, a Codex rollout), or bytes read once
//! from standard input or a FIFO, whose first bytes tell their format.

use std::io::Read as _;
use std::path::{Path, PathBuf};

#[cfg(feature = "cli")]
use super::StoredTexts;
use super::{Live, OpenError, Origin, Reader, Refresh};
use crate::format::detect::{Detected, detect};
use crate::format::{DocumentFormat, StreamFormat, StreamReader};
use crate::model::{Conversation, Event};
use crate::source::LocateError;
use crate::source::conversation::named;
use crate::source::limit;
use crate::source::tail::{Tail, TailRead};

impl Live {
    /// Opens an eve stream file, read to its last complete line.
    pub fn open_eve(path: PathBuf) -> Result<Live, OpenError> {
        let mut live = Live::stream_file(path);
        live.refresh()?;
        Ok(live)
    }

    /// The stream file at `path` as it was when its first `bytes` were
    /// written, read to their end (time travel: the stream cut after a line).
    #[cfg(feature = "cli")]
    pub fn stream_cut(path: PathBuf, bytes: &[u8]) -> Live {
        let mut live = Live::stream_file(path);
        if let Reader::Stream { reader, .. } = &mut live.reader {
            reader.feed(bytes, &mut live.conversation.events);
            reader.finish(&mut live.conversation.events);
        }
        live.apply_stream(Refresh::Reloaded, 0);
        live.update_subagents(true);
        live
    }

    /// A stream file, nothing read yet.
    pub(super) fn stream_file(path: PathBuf) -> Live {
        Live {
            conversation: Conversation::default(),
            reader: Reader::Stream {
                format: StreamFormat::Lines,
                reader: StreamFormat::Lines.reader(limit::limit()),
                tail: Tail::new(&path),
            },
            origin: Origin::Eve(path),
            workspace: None,
            warnings: Vec::new(),
            stored_offset: 0,
            untouched: 0,
            redactor: None,
            joiner: Default::default(),
            children: Default::default(),
            unproven: None,
            #[cfg(feature = "cli")]
            earlier: None,
            #[cfg(feature = "cli")]
            stored_at: None,
            #[cfg(feature = "cli")]
            stored_texts: StoredTexts::All,
        }
    }

    /// Re-reads a stream file after a change notification: the bytes
    /// appended since, or all of it when it was replaced. A large append is
    /// read a step at a time ([`crate::source::tail::READ_STEP`]), each
    /// step's bytes let go once read, so the file is never held whole
    /// beside the conversation made of it.
    pub(super) fn refresh_stream(&mut self) -> Result<Refresh, OpenError> {
        let mut refresh = Refresh::Unchanged;
        while let Some(step) = self.read_stream_step()? {
            refresh = refresh.max(step);
            if !matches!(&self.reader, Reader::Stream { tail, .. } if tail.behind()) {
                break;
            }
        }
        // A sub-agent writes its own file while the parent waits.
        Ok(self.after_subagents(refresh, false))
    }

    /// Reads one step of a stream file: what the tail's poll returns, read
    /// into the conversation (`None`: nothing new).
    fn read_stream_step(&mut self) -> Result<Option<Refresh>, OpenError> {
        let (
            Reader::Stream {
                format,
                reader,
                tail,
            },
            Origin::Eve(_),
        ) = (&mut self.reader, &self.origin)
        else {
            return Ok(None);
        };
        let before = (self.conversation.grouped(), reader.revision());
        // The tail's errors name the file already.
        let refresh = match tail.poll()? {
            TailRead::Unchanged => return Ok(None),
            TailRead::Appended(bytes) => {
                reader.feed(&bytes, &mut self.conversation.events);
                refuse_inflated(reader.as_ref(), tail.path())?;
                stream_refresh(before, reader.as_ref(), &self.conversation)
            }
            TailRead::Reset(bytes) => {
                let mut fresh = format.reader(limit::limit());
                let mut events = Vec::new();
                fresh.feed(&bytes, &mut events);
                if let Err(error) = refuse_inflated(fresh.as_ref(), tail.path()) {
                    tail.forget();
                    return Err(error);
                }
                if let Some(problem) =
                    unreadable_rewrite(&bytes, fresh.as_mut(), &mut events, reader.as_ref())
                {
                    // The last version read stays on screen; the next change
                    // is read whole again, and replaces it once it reads.
                    tail.forget();
                    let file = tail.path().display();
                    return Err(OpenError::Io(std::io::Error::other(format!(
                        "{file}: {problem}, so the last version read is shown"
                    ))));
                }
                *reader = fresh;
                let title = self.conversation.title.take();
                self.conversation = Conversation::default();
                self.conversation.events = events;
                self.conversation.title = title;
                self.children.forget();
                self.untouched = 0;
                Refresh::Reloaded
            }
        };
        self.apply_stream(refresh, before.0);
        Ok(Some(refresh))
    }

    /// Brings the sub-agents up to date after the parent read (`end`: its
    /// input is over): a sub-agent that changed changes its call's card,
    /// so the conversation counts as reloaded.
    fn after_subagents(&mut self, refresh: Refresh, end: bool) -> Refresh {
        if self.update_subagents(end) {
            self.untouched = 0;
            Refresh::Reloaded
        } else {
            refresh
        }
    }

    /// Reads the last line of a stream file even without its newline
    /// (a one-shot read: nothing more will come).
    pub(super) fn finish_stream(&mut self) {
        if let Reader::Stream { reader, .. } = &mut self.reader {
            let before = (self.conversation.grouped(), reader.revision());
            reader.finish(&mut self.conversation.events);
            let refresh = stream_refresh(before, reader.as_ref(), &self.conversation);
            self.apply_stream(refresh, before.0);
            self.update_subagents(true);
        }
    }

    /// Standard input as a stream (`overhear -`), to be fed with
    /// [`Live::push_stream`].
    pub fn stdin() -> Live {
        Live::stream(PathBuf::from("-"))
    }

    /// The stream at `path` (`-`: standard input), nothing read yet: feed it
    /// with [`Live::push_stream`] as its bytes arrive.
    pub fn stream(path: PathBuf) -> Live {
        Live {
            conversation: Conversation::default(),
            reader: Reader::Held(Vec::new()),
            origin: Origin::Stream(path),
            workspace: None,
            warnings: Vec::new(),
            stored_offset: 0,
            untouched: 0,
            redactor: None,
            joiner: Default::default(),
            children: Default::default(),
            unproven: None,
            #[cfg(feature = "cli")]
            earlier: None,
            #[cfg(feature = "cli")]
            stored_at: None,
            #[cfg(feature = "cli")]
            stored_texts: StoredTexts::All,
        }
    }

    /// Reads a stream's bytes to their end, once: standard input for `-`,
    /// else the path opened read-only.
    pub(super) fn read_stream_to_end(&mut self, path: &Path) -> Result<(), OpenError> {
        let io = |e: std::io::Error| OpenError::Io(named(path, &e));
        let mut input: Box<dyn std::io::Read> = if path.as_os_str() == "-" {
            crate::files::read::record_stdin();
            Box::new(std::io::stdin().lock())
        } else {
            Box::new(crate::files::open(path).map_err(io)?)
        };
        let mut buf = vec![0; 1 << 20];
        loop {
            let n = match input.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(io(e)),
            };
            // Up to date after each read: the stored lines move from the
            // reader's list into the conversation's compressed store as
            // they come, not all at the end.
            self.push_stream(&buf[..n], false)?;
        }
        if let Reader::Held(held) = &self.reader
            && detect(held) == Detected::Blank
        {
            return Err(LocateError::EmptyStream(path.to_path_buf()).into());
        }
        self.push_stream(&[], true)?;
        Ok(())
    }

    /// Pushes bytes of a stream (see [`Origin::Stream`]); `end` marks its
    /// end. Its first bytes tell its format: an eve stream is read line by
    /// line as it arrives, a JP array (one JSON value) when it ends. A start
    /// that is neither is an error, reported once.
    pub fn push_stream(&mut self, bytes: &[u8], end: bool) -> Result<Refresh, OpenError> {
        let before = self.take_stream(bytes, end)?;
        match (&mut self.reader, before) {
            (Reader::Stream { reader, .. }, Some(before)) => {
                let refresh = stream_refresh(before, reader.as_ref(), &self.conversation);
                self.apply_stream(refresh, before.0);
                Ok(self.after_subagents(refresh, end))
            }
            (Reader::Document(_), None) if end => Ok(Refresh::Reloaded),
            _ => Ok(Refresh::Unchanged),
        }
    }

    /// Hands stream bytes to the reader its first bytes call for, without
    /// bringing the conversation up to date (the events' count and the
    /// reader's revision before, for [`stream_refresh`]; `None` when no
    /// stream reader took them). A JP array
    /// is read here when the stream ends.
    fn take_stream(&mut self, bytes: &[u8], end: bool) -> Result<Option<(usize, u64)>, OpenError> {
        let name = match &self.origin {
            Origin::Stream(path) | Origin::Eve(path) => path.clone(),
            Origin::Jp(dir) => dir.events_path(),
        };
        if let Reader::Held(held) = &mut self.reader {
            held.extend_from_slice(bytes);
            match detect(held) {
                Detected::Blank | Detected::Jp if !end => {
                    let limit = limit::limit();
                    if held.len() as u64 > limit {
                        self.reader = Reader::Rejected;
                        return Err(OpenError::Io(named(&name, &limit::too_large(None, limit))));
                    }
                    return Ok(None);
                }
                Detected::Jp => {
                    let held = std::mem::take(held);
                    self.load_document_stream(DocumentFormat::Jp, name, &held)?;
                    return Ok(None);
                }
                Detected::BlankHead => {
                    self.reader = Reader::Rejected;
                    return Err(LocateError::BlankHead(name).into());
                }
                Detected::Other {
                    line,
                    column,
                    found,
                } => {
                    self.reader = Reader::Rejected;
                    return Err(LocateError::UnknownFile {
                        path: name,
                        line,
                        column,
                        found,
                    }
                    .into());
                }
                detected @ (Detected::Eve | Detected::Blank) => {
                    let held = std::mem::take(held);
                    // A blank stream that ends is an empty eve stream.
                    let format = StreamFormat::detected(detected).unwrap_or(StreamFormat::Lines);
                    self.reader = Reader::Stream {
                        format,
                        reader: format.reader(limit::limit()),
                        tail: Tail::new(&name),
                    };
                    return self.take_stream(&held, end);
                }
            }
        }
        let Reader::Stream { reader, .. } = &mut self.reader else {
            return Ok(None);
        };
        let before = (self.conversation.grouped(), reader.revision());
        let events = &mut self.conversation.events;
        reader.feed(bytes, events);
        if end {
            reader.finish(events);
        }
        refuse_inflated(reader.as_ref(), &name)?;
        Ok(Some(before))
    }

    /// Brings the conversation up to date after its stream reader wrote into
    /// its events (`count`: how many were grouped before): regroups only from
    /// the first event changed in place or added, so an appended line costs
    /// what the line costs.
    fn apply_stream(&mut self, refresh: Refresh, count: usize) {
        let Reader::Stream { reader, .. } = &mut self.reader else {
            return;
        };
        let changed = reader.take_changed_from();
        let name = match &self.origin {
            Origin::Eve(path) | Origin::Stream(path) => path.display().to_string(),
            Origin::Jp(dir) => dir.events_path().display().to_string(),
        };
        self.warnings = reader
            .problems()
            .iter()
            .map(|d| format!("{name}: {d}"))
            .collect();
        let conv = &mut self.conversation;
        if matches!(refresh, Refresh::Appended | Refresh::Reloaded) {
            let from = changed.unwrap_or(usize::MAX).min(count);
            if let Some(redactor) = &self.redactor {
                conv.events[from..]
                    .iter_mut()
                    .for_each(|event| crate::redact::redact_event(redactor, event));
            }
            let untouched = conv.regroup_from(from);
            self.untouched = self.untouched.min(untouched);
        }
        // Stored lines never change once read (a reset clears them first):
        // they move from the reader, which keeps only their count.
        let known = conv.originals.len();
        let lines = reader.take_originals();
        // An image's line is its event's, and its event is among those
        // this step added or changed.
        #[cfg(feature = "cli")]
        let lines = self.stored_texts.kept(
            lines,
            known,
            conv.events
                .get(changed.unwrap_or(usize::MAX).min(count)..)
                .unwrap_or_default(),
        );
        conv.originals.extend(lines);
        conv.in_progress = reader.in_progress().cloned();
        if let Some(title) = reader.title() {
            conv.title = Some(title.to_string());
        }
        if conv.base_config.is_none() {
            conv.base_config = reader.default_config();
        }
        if let Some(redactor) = &self.redactor {
            crate::redact::redact_title(redactor, &mut conv.title);
            if let Some(config) = &mut conv.base_config {
                crate::redact::redact_value(redactor, config);
            }
            let pieces = |record: &serde_json::Value| reader.stream_piece(record);
            let joiner = &mut self.joiner;
            crate::redact::redact_stream_tail(redactor, conv, known, joiner, &pieces);
        }
    }
}

/// Why a stream file rewritten as `bytes` (fed to `fresh`, which wrote
/// `events`) cannot replace what `before` read from it: it is empty now,
/// holds no line that reads, or is another format. `None` when it can.
/// What could be read before is then kept on screen (docs/errors.md).
fn unreadable_rewrite(
    bytes: &[u8],
    fresh: &mut dyn StreamReader,
    events: &mut Vec<Event>,
    before: &dyn StreamReader,
) -> Option<String> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return (before.originals_read() > 0).then(|| "the file was emptied".to_string());
    }
    if let (Some(was), Some(is)) = (before.line_format(), fresh.line_format())
        && was != is
    {
        return Some(format!(
            "rewritten as {}, not {}",
            is.described(),
            was.described()
        ));
    }
    if fresh.originals_read() > fresh.problems().len() {
        return None;
    }
    // Refused: `fresh` is not kept, so it is read to its end (it may have
    // waited for more lines to tell its format), to name the first line
    // that does not read.
    fresh.finish(events);
    let first = fresh
        .problems()
        .first()
        .map(|problem| format!("{problem}; "))
        .unwrap_or_default();
    Some(format!("{first}no line of the rewritten file reads"))
}

/// The error for a compressed input that inflated past the size limit:
/// the one a file over the limit gets.
fn refuse_inflated(reader: &dyn StreamReader, path: &Path) -> Result<(), OpenError> {
    match reader.inflated_past() {
        Some(limit) => Err(OpenError::Io(named(path, &limit::too_large(None, limit)))),
        None => Ok(()),
    }
}

/// What changed since `before` (how many events were grouped, the reader's
/// revision), `reader` having written into `shown`'s events since.
fn stream_refresh(
    before: (usize, u64),
    reader: &dyn StreamReader,
    shown: &Conversation,
) -> Refresh {
    let (count, revision) = before;
    if shown.events.len() < count || reader.revision() != revision {
        // Earlier events changed in place (an update delivered, a task settled).
        Refresh::Reloaded
    } else if shown.events.len() > count {
        Refresh::Appended
    } else if reader.in_progress() != shown.in_progress.as_ref()
        || reader.originals_read() != shown.originals.len()
    {
        // A line that made no event still shows in the raw view.
        Refresh::Streaming
    } else {
        Refresh::Unchanged
    }
}

#[cfg(test)]
mod tests;
