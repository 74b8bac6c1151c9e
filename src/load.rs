//! Opening a conversation end to end, and keeping it up to date: the files
//! `source` finds, read by the matching `format`, grouped by `model`.
//!
//! The one place that orchestrates the early stages, so `overhear render`,
//! `overhear events` and the viewer open conversations the same way.

use std::io::Read as _;
use std::path::{Path, PathBuf};

use xxhash_rust::xxh3::Xxh3Default;

use crate::format::detect::{Detected, detect};
use crate::format::jp::{self, Delta, JpStream, LoadError};
use crate::format::{StreamFormat, StreamReader};
use crate::model::Conversation;
use crate::problem::StyleWarning;
use crate::source::conversation::{BASE_CONFIG, METADATA, named};
use crate::source::limit;
use crate::source::tail::{AppendTail, TailRead};
use crate::source::{ConversationDir, ConversationFiles, LocateError, Target, Workspace, locate};

/// Why a conversation could not be opened at all.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The path names nothing that can be opened.
    #[error(transparent)]
    Locate(#[from] LocateError),
    /// A file could not be read (the message names it).
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// A file is not what it should be.
    #[error("{}: {}", .path.display(), .error.syntax())]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong, with line and column.
        error: LoadError,
    },
}

/// Where a conversation comes from.
#[derive(Debug, Clone)]
pub enum Origin {
    /// A JP conversation folder.
    Jp(ConversationDir),
    /// A line-delimited file: an eve stream, a Claude Code transcript or a
    /// Codex rollout.
    Eve(PathBuf),
    /// A stream read exactly once: `-` (standard input), a FIFO, a character
    /// device, `/dev/fd/N`. Its bytes are pushed with [`Live::push_stream`]
    /// (the viewer, as they arrive) or read to their end by
    /// [`Live::read_once`].
    Stream(PathBuf),
}

/// A conversation followed across changes to its files.
pub struct Live {
    /// Where it comes from.
    pub origin: Origin,
    /// The workspace it was found in, when it was named through one.
    pub workspace: Option<Workspace>,
    /// The conversation as last read.
    pub conversation: Conversation,
    /// One line per problem that did not stop reading, naming the file and place.
    pub warnings: Vec<String>,
    /// Stored index of conversation event 0 (1 when a legacy base config
    /// entry comes first), to name events as they are stored.
    stored_offset: usize,
    reader: Reader,
    /// Leading turns no refresh changed since [`Live::take_untouched_turns`].
    untouched: usize,
    /// Secrets are replaced in everything read, when set ([`Live::redact_with`]).
    redactor: Option<std::sync::Arc<crate::redact::Redactor>>,
}

enum Reader {
    Jp(JpStream),
    /// A stream format's reader ([`crate::format::StreamReader`]): it writes
    /// into the conversation's events, which are the only copy.
    Stream {
        format: StreamFormat,
        reader: Box<dyn StreamReader>,
        tail: AppendTail,
    },
    /// A stream's bytes while its first ones have not told its format yet,
    /// or all of a JP array on a stream (one JSON value: read at its end).
    Held(Vec<u8>),
    /// A stream whose start is neither format: the error was reported and
    /// nothing more is kept.
    Rejected,
}

/// What a refresh found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refresh {
    /// Nothing new.
    Unchanged,
    /// Events were added at the end; earlier ones are untouched.
    Appended,
    /// The conversation changed anywhere: treat it as new.
    Reloaded,
    /// Only the text being written right now changed (eve's deltas), or a
    /// stored line that made no event arrived (the raw view shows it).
    Streaming,
}

impl Live {
    /// Opens what `arg` names (`None`: the workspace around the current folder).
    pub fn open(arg: Option<&str>) -> Result<Live, OpenError> {
        let cwd = std::env::current_dir()?;
        let env = |name: &str| std::env::var(name).ok();
        match locate(arg, &cwd, &env)? {
            Target::JpConversation(dir) => Live::open_jp(dir, None),
            Target::Workspace(workspace) => {
                let entry = workspace
                    .most_recent()
                    .ok_or_else(|| LocateError::NoConversations(workspace.root.clone()))?;
                Live::open_jp(entry.conversation(), Some(workspace))
            }
            Target::EveStream(path) => Live::open_eve(path),
            Target::Stdin => Ok(Live::stdin()),
            Target::Stream(path) => Ok(Live::stream(path)),
        }
    }

    /// Opens a JP conversation folder.
    pub fn open_jp(dir: ConversationDir, workspace: Option<Workspace>) -> Result<Live, OpenError> {
        let files = dir.read_beside()?;
        let (stream, load) = read_jp(&dir, files.base_config.as_deref())?;
        let events_path = dir.events_path();
        let mut warnings = diagnostics(&events_path, &load);
        warnings.extend(metadata_problem(&dir, files.metadata.as_deref()));
        let title = files.metadata.as_deref().and_then(title_of);
        Ok(Live {
            stored_offset: load.stored_offset(),
            conversation: Conversation::new(load.events, load.base_config, title),
            origin: Origin::Jp(dir),
            workspace,
            warnings,
            reader: Reader::Jp(stream),
            untouched: 0,
            redactor: None,
        })
    }

    /// Opens an eve stream file, read to its last complete line.
    pub fn open_eve(path: PathBuf) -> Result<Live, OpenError> {
        let mut live = Live {
            conversation: Conversation::default(),
            reader: Reader::Stream {
                format: StreamFormat::Lines,
                reader: StreamFormat::Lines.reader(),
                tail: AppendTail::new(&path),
            },
            origin: Origin::Eve(path),
            workspace: None,
            warnings: Vec::new(),
            stored_offset: 0,
            untouched: 0,
            redactor: None,
        };
        live.refresh()?;
        Ok(live)
    }

    /// Re-reads the files after a change notification.
    pub fn refresh(&mut self) -> Result<Refresh, OpenError> {
        match (&mut self.reader, &self.origin) {
            (Reader::Jp(stream), Origin::Jp(dir)) => {
                let files = dir.read_beside()?;
                let base = files.base_config.as_deref();
                let delta = match read_after(&dir.events_path(), stream.prefix_len())? {
                    Some((hasher, rest)) => stream.update_rest(hasher, &rest, base),
                    None => None,
                };
                let delta = match delta {
                    Some(delta) => delta,
                    None => {
                        let (fresh, load) = read_jp(dir, base)?;
                        *stream = fresh;
                        Delta::Reloaded(load)
                    }
                };
                if let Some(title) = files.metadata.as_deref().and_then(title_of) {
                    self.conversation.title = Some(title);
                }
                Ok(match delta {
                    Delta::Unchanged => Refresh::Unchanged,
                    Delta::Appended(load) if load.events.is_empty() => Refresh::Unchanged,
                    Delta::Appended(mut load) => {
                        self.redact(&mut load.events);
                        self.warnings.extend(diagnostics(&dir.events_path(), &load));
                        let untouched = self.conversation.extend(load.events);
                        self.untouched = self.untouched.min(untouched);
                        Refresh::Appended
                    }
                    Delta::Reloaded(mut load) => {
                        self.redact(&mut load.events);
                        self.warnings = diagnostics(&dir.events_path(), &load);
                        self.stored_offset = load.stored_offset();
                        let title = self.conversation.title.take();
                        self.conversation = Conversation::new(load.events, load.base_config, title);
                        self.untouched = 0;
                        Refresh::Reloaded
                    }
                })
            }
            (
                Reader::Stream {
                    format,
                    reader,
                    tail,
                },
                Origin::Eve(_),
            ) => {
                let before = (self.conversation.grouped(), reader.revision());
                // The tail's errors name the file already.
                let refresh = match tail.poll()? {
                    TailRead::Unchanged => return Ok(Refresh::Unchanged),
                    TailRead::Appended(bytes) => {
                        reader.feed(&bytes, &mut self.conversation.events);
                        stream_refresh(before, reader.as_ref(), &self.conversation)
                    }
                    TailRead::Reset(bytes) => {
                        *reader = format.reader();
                        let title = self.conversation.title.take();
                        self.conversation = Conversation::default();
                        self.conversation.title = title;
                        reader.feed(&bytes, &mut self.conversation.events);
                        self.untouched = 0;
                        Refresh::Reloaded
                    }
                };
                self.apply_stream(refresh, before.0);
                Ok(refresh)
            }
            _ => Ok(Refresh::Unchanged),
        }
    }

    /// Opens what `arg` names for a one-shot read (`render`, `events`): a
    /// stream's last line counts even without its newline.
    pub fn read_once(arg: &str) -> Result<Live, OpenError> {
        Live::read_once_at(Some(arg))
    }

    /// [`Live::read_once`], where `None` is the workspace around the current
    /// folder (`overhear` with no PATH, printing).
    pub fn read_once_at(arg: Option<&str>) -> Result<Live, OpenError> {
        let mut live = Live::open(arg)?;
        if let Origin::Stream(path) = &live.origin {
            let path = path.clone();
            live.read_stream_to_end(&path)?;
        } else if let Reader::Stream { reader, .. } = &mut live.reader {
            let before = (live.conversation.grouped(), reader.revision());
            reader.finish(&mut live.conversation.events);
            let refresh = stream_refresh(before, reader.as_ref(), &live.conversation);
            live.apply_stream(refresh, before.0);
        }
        Ok(live)
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
        }
    }

    /// Reads a stream's bytes to their end, once: standard input for `-`,
    /// else the path opened read-only.
    fn read_stream_to_end(&mut self, path: &Path) -> Result<(), OpenError> {
        let io = |e: std::io::Error| OpenError::Io(named(path, &e));
        let mut input: Box<dyn std::io::Read> = if path.as_os_str() == "-" {
            Box::new(std::io::stdin().lock())
        } else {
            Box::new(std::fs::File::open(path).map_err(io)?)
        };
        let mut buf = vec![0; 1 << 20];
        loop {
            let n = match input.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(io(e)),
            };
            self.take_stream(&buf[..n], false)?;
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
                Ok(refresh)
            }
            (Reader::Jp(_), None) if end => Ok(Refresh::Reloaded),
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
                    self.load_jp_stream(name, &held)?;
                    return Ok(None);
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
                        reader: format.reader(),
                        tail: AppendTail::new(&name),
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
        Ok(Some(before))
    }

    /// Reads a JP events array that arrived on a stream.
    fn load_jp_stream(&mut self, name: PathBuf, bytes: &[u8]) -> Result<(), OpenError> {
        let (stream, load) = JpStream::open(bytes, None).map_err(|error| OpenError::Format {
            path: name.clone(),
            error,
        })?;
        self.warnings = diagnostics(&name, &load);
        self.stored_offset = load.stored_offset();
        let title = self.conversation.title.take();
        self.conversation = Conversation::new(load.events, load.base_config, title);
        self.reader = Reader::Jp(stream);
        self.untouched = 0;
        Ok(())
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
        conv.originals.extend(reader.take_originals());
        conv.in_progress = reader.in_progress().cloned();
        if let Some(title) = reader.title() {
            conv.title = Some(title.to_string());
        }
        if conv.base_config.is_none() {
            conv.base_config = reader.default_config();
        }
        if let Some(redactor) = &self.redactor {
            crate::redact::redact_stream_tail(redactor, conv, known);
        }
    }

    /// From now on, secrets are replaced by `[redacted RULE]` in everything
    /// read (`--redact`): what was read already at once, each change as it comes.
    pub fn redact_with(&mut self, redactor: std::sync::Arc<crate::redact::Redactor>) {
        crate::redact::redact_conversation(&redactor, &mut self.conversation);
        self.redactor = Some(redactor);
    }

    /// Redacts events about to enter the conversation, when redacting.
    fn redact(&self, events: &mut [crate::model::Event]) {
        if let Some(redactor) = &self.redactor {
            events
                .iter_mut()
                .for_each(|event| crate::redact::redact_event(redactor, event));
        }
    }

    /// How many leading turns are as they were at the last call: no refresh
    /// since changed their events or items, so a viewer keeps what it made
    /// of them (see [`Conversation::extend`]).
    pub fn take_untouched_turns(&mut self) -> usize {
        std::mem::replace(&mut self.untouched, usize::MAX).min(self.conversation.turns.len())
    }

    /// Whether the agent is done with it: no JP lock held, or the eve stream ended.
    pub fn finished(&self) -> bool {
        match (&self.reader, &self.origin) {
            (Reader::Stream { reader, .. }, _) => reader.finished(),
            (Reader::Jp(_), Origin::Jp(dir)) => !jp_lock_held(dir, self.workspace.as_ref()),
            (Reader::Held(_), _) => false,
            _ => true,
        }
    }

    /// How long its file may go unwritten before a viewer takes the agent as
    /// gone, for a format whose writer never says so (the agent transcripts;
    /// see `StreamReader::quiet_limit`).
    pub fn quiet_limit(&self) -> Option<std::time::Duration> {
        match &self.reader {
            Reader::Stream { reader, .. } => reader.quiet_limit(),
            Reader::Jp(_) | Reader::Held(_) | Reader::Rejected => None,
        }
    }

    /// Whether a JP reader reads it (a stream: once its array was read).
    pub fn is_jp(&self) -> bool {
        matches!(self.reader, Reader::Jp(_))
    }

    /// The stream reader's text of the current step, if any.
    pub fn in_progress(&self) -> Option<&crate::model::InProgress> {
        match &self.reader {
            Reader::Stream { reader, .. } => reader.in_progress(),
            Reader::Jp(_) | Reader::Held(_) | Reader::Rejected => None,
        }
    }

    /// A rejected stored style as one line: the file and place it is stored
    /// at, then the key path, value and problem.
    pub fn describe_style_warning(&self, warning: &StyleWarning) -> String {
        let error = &warning.error;
        match (&self.origin, warning.delta) {
            (Origin::Jp(dir), Some(event)) => format!(
                "{}: event {}: config_delta: {error}",
                dir.events_path().display(),
                event + self.stored_offset
            ),
            (Origin::Jp(dir), None) if self.stored_offset > 0 => {
                format!("{}: event 0: {error}", dir.events_path().display())
            }
            (Origin::Jp(dir), None) => {
                format!("{}: {error}", dir.dir.join(BASE_CONFIG).display())
            }
            (Origin::Eve(path) | Origin::Stream(path), _) => format!("{}: {error}", path.display()),
        }
    }

    /// Follows a JP conversation whose folder was renamed or archived.
    pub fn moved_to(&mut self, dir: PathBuf) {
        if let Origin::Jp(conv) = &mut self.origin {
            conv.dir = dir;
        }
    }
}

/// Reads a JP conversation's events, parsing them as the file is read; a
/// file that is not a plain array of entries is read whole, which reports
/// exactly what is wrong with it.
fn read_jp(
    dir: &ConversationDir,
    base: Option<&[u8]>,
) -> Result<(JpStream, jp::JpLoad), OpenError> {
    use std::io::Seek;
    let io = |e: std::io::Error| named(&dir.events_path(), &e);
    let mut file = dir.open_events()?;
    if let Some(read) = JpStream::read_from(&mut file, base).map_err(io)? {
        return Ok(read);
    }
    // The same file again, from its start: the path may name a newer one.
    // A start that is not JSON is read no further (the error is there).
    file.rewind().map_err(io)?;
    let events = limit::read_to_end(&mut file, limit::limit()).map_err(io)?;
    JpStream::open(&events, base).map_err(|error| format_error(dir, error))
}

/// Reads the file at `path`, streaming its first `prefix` bytes through a
/// hash instead of keeping them, and returns the hash and the bytes after
/// them: a followed 100 MB conversation is not copied whole into memory on
/// every rewrite. `None` when the file is shorter than `prefix`.
fn read_after(path: &Path, prefix: usize) -> std::io::Result<Option<(Xxh3Default, Vec<u8>)>> {
    let io = |e: std::io::Error| named(path, &e);
    let mut file = std::fs::File::open(path).map_err(io)?;
    limit::check_len(file.metadata().map_err(io)?.len()).map_err(io)?;
    let mut hasher = Xxh3Default::new();
    let mut buf = vec![0; prefix.clamp(1, 1 << 20)];
    let mut left = prefix;
    while left > 0 {
        let chunk = left.min(buf.len());
        let n = match file.read(&mut buf[..chunk]) {
            Ok(0) => return Ok(None),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(io(e)),
        };
        hasher.update(&buf[..n]);
        left -= n;
    }
    let mut rest = Vec::new();
    file.read_to_end(&mut rest).map_err(io)?;
    Ok(Some((hasher, rest)))
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

/// A `metadata.json` that is not JSON: the title cannot be shown.
fn metadata_problem(dir: &ConversationDir, metadata: Option<&[u8]>) -> Option<String> {
    let metadata = metadata?;
    let json = metadata.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(metadata);
    let error = serde_json::from_slice::<serde_json::Value>(json).err()?;
    Some(format!(
        "{}: line {}, column {}: {}; the title is not shown",
        dir.dir.join(METADATA).display(),
        error.line(),
        error.column().max(1),
        crate::problem::json_problem(&error, "the file"),
    ))
}

/// Whether JP holds the conversation's lock: the lock file exists and names a
/// live process. The lock is read, never taken.
fn jp_lock_held(dir: &ConversationDir, workspace: Option<&Workspace>) -> bool {
    let Some(id) = &dir.id else { return false };
    let env = |name: &str| std::env::var(name).ok();
    let found;
    let workspace = match workspace {
        Some(w) => w,
        None => match Workspace::discover(&dir.dir, &env) {
            Some(w) => {
                found = w;
                &found
            }
            None => return false,
        },
    };
    workspace.is_locked(id)
}

fn format_error(dir: &ConversationDir, error: LoadError) -> OpenError {
    let path = match error {
        LoadError::Events(_) => dir.events_path(),
        LoadError::BaseConfig(_) => dir.dir.join(BASE_CONFIG),
    };
    OpenError::Format { path, error }
}

fn diagnostics(events_path: &Path, load: &jp::JpLoad) -> Vec<String> {
    load.diagnostics
        .iter()
        .map(|d| format!("{}: {d}", events_path.display()))
        .collect()
}

/// How many events a JP conversation holds, counted without loading it (for
/// the picker, which shows every conversation's); `None` if it cannot be.
pub fn event_count(dir: &ConversationDir) -> Option<usize> {
    let events = dir.open_events().ok()?;
    let has_base_file = !dir.is_standalone() && dir.dir.join(BASE_CONFIG).is_file();
    jp::count_events(events, has_base_file).ok().flatten()
}

/// The `title` of a `metadata.json`, if it is readable (a UTF-8 byte order mark
/// is skipped, as for the other files).
pub fn title_of(metadata: &[u8]) -> Option<String> {
    let json = metadata.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(metadata);
    let value: serde_json::Value = serde_json::from_slice(json).ok()?;
    value.get("title")?.as_str().map(String::from)
}

/// Builds a conversation from a JP folder's files read elsewhere (tests, benches).
pub fn jp_conversation(
    dir: &ConversationDir,
    files: &ConversationFiles,
) -> Result<Conversation, OpenError> {
    let load =
        jp::load(&files.events, files.base_config.as_deref()).map_err(|e| format_error(dir, e))?;
    let title = files.metadata.as_deref().and_then(title_of);
    Ok(Conversation::new(load.events, load.base_config, title))
}
