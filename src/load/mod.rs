//! Opening a conversation end to end, and keeping it up to date: the files
//! `source` finds, read by the matching `format`, grouped by `model`.
//!
//! The one place that orchestrates the early stages, so `overhear render`,
//! `overhear events` and the viewer open conversations the same way.
//!
//! It names no format: whole-file formats come through
//! [`crate::format::DocumentFormat`], streams through
//! [`crate::format::StreamFormat`]. Here: locating and the [`Live`] state;
//! `folder`: following a conversation folder across rewrites; `line_stream`:
//! following a stream file, or reading standard input or a FIFO.

use std::path::PathBuf;

#[cfg(feature = "cli")]
use crate::format::DocumentFormat;
use crate::format::{DocumentReader, LoadError, StreamFormat, StreamReader};
use crate::model::Conversation;
#[cfg(feature = "cli")]
use crate::problem::StyleWarning;
#[cfg(feature = "cli")]
use crate::source::conversation::BASE_CONFIG;
use crate::source::tail::Tail;
use crate::source::{ConversationDir, LocateError, Target, Workspace, locate};

#[cfg(feature = "cli")]
mod earlier;
mod folder;
mod prefix_read;
#[cfg(feature = "cli")]
pub mod sessions;
mod line_stream;
mod subagents;
#[cfg(feature = "cli")]
mod turns;

#[cfg(feature = "cli")]
pub use earlier::{DECODE_SPAN, EARLIER_STEP, EarlierRead};
#[cfg(feature = "cli")]
pub use folder::event_count;

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
    /// The streamed texts' tails, so a secret split across two stored
    /// lines is found when redacting ([`crate::redact::Joiner`]).
    joiner: crate::redact::Joiner,
    /// The sub-agents its tool calls started, each read on its own.
    children: subagents::Children,
    /// A rewrite's new entries, shown before the bytes before them were
    /// proven unchanged ([`Live::refresh_unproven`]).
    unproven: Option<folder::Unproven>,
    /// The leading turns still in outline, when it was opened at its end
    /// ([`Live::open_at_end_reporting`]).
    #[cfg(feature = "cli")]
    earlier: Option<earlier::Earlier>,
    /// The stored index of each event, when they are not the stored
    /// entries in order (a read of the last turns only stands one event for
    /// many earlier ones, `turns.rs`): to name an event as it is stored.
    #[cfg(feature = "cli")]
    stored_at: Option<Vec<usize>>,
    /// Which stored lines of a stream keep their text as they are read.
    #[cfg(feature = "cli")]
    stored_texts: StoredTexts,
}

/// Which stored lines of a stream keep their text: the raw view shows
/// every one; an export only the images in them.
#[cfg(feature = "cli")]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StoredTexts {
    /// Every line's, for the raw view.
    #[default]
    All,
    /// Only those of the lines an image's bytes are read from (an export:
    /// neither compressed, nor redacted, nor held, the others).
    OfImages,
}

#[cfg(feature = "cli")]
impl StoredTexts {
    /// `lines`, the stored lines read from index `first` on, with the texts
    /// this keeps: `events` are the events read with them (an image names
    /// the line of its event).
    fn kept(
        self,
        mut lines: Vec<crate::model::Original>,
        first: usize,
        events: &[crate::model::Event],
    ) -> Vec<crate::model::Original> {
        if self == StoredTexts::OfImages {
            let images = crate::model::image_lines(events);
            for (index, line) in (first..).zip(&mut lines) {
                if !images.contains(&index) {
                    line.json = None;
                }
            }
        }
        lines
    }
}

enum Reader {
    /// A whole-file format's reader ([`crate::format::DocumentReader`]): a
    /// conversation folder's document, or a JP array read off a stream.
    Document(DocumentReader),
    /// A stream format's reader ([`crate::format::StreamReader`]): it writes
    /// into the conversation's events, which are the only copy.
    Stream {
        format: StreamFormat,
        reader: Box<dyn StreamReader>,
        tail: Tail,
    },
    /// A stream's bytes while its first ones have not told its format yet,
    /// or all of a JP array on a stream (one JSON value: read at its end).
    Held(Vec<u8>),
    /// A stream whose start is neither format: the error was reported and
    /// nothing more is kept.
    Rejected,
}

/// What a refresh found, ordered by how much it changed: two refreshes one
/// after the other amount to the larger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Refresh {
    /// Nothing new.
    Unchanged,
    /// Only the text being written right now changed (eve's deltas), or a
    /// stored line that made no event arrived (the raw view shows it).
    Streaming,
    /// Events were added at the end; earlier ones are untouched.
    Appended,
    /// The conversation changed anywhere: treat it as new.
    Reloaded,
}

impl Live {
    /// Opens what `arg` names (`None`: the workspace around the current folder).
    pub fn open(arg: Option<&str>) -> Result<Live, OpenError> {
        Live::open_target(Live::target(arg)?)
    }

    /// What `arg` names (`None`: the workspace around the current folder).
    fn target(arg: Option<&str>) -> Result<Target, OpenError> {
        let cwd = std::env::current_dir()?;
        let env = |name: &str| std::env::var(name).ok();
        Ok(locate(arg, &cwd, &env)?)
    }

    /// Opens `target`: a folder or a stream file is read, standard input
    /// and a stream of unknown format wait for their bytes.
    fn open_target(target: Target) -> Result<Live, OpenError> {
        match target {
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

    /// Re-reads the files after a change notification.
    pub fn refresh(&mut self) -> Result<Refresh, OpenError> {
        let read = self.refresh_unproven()?;
        Ok(read.max(self.prove()?))
    }

    /// [`Live::refresh`] for a viewer, which shows a JP rewrite's new
    /// entries first: they are read and added before the bytes before them
    /// (most of the file: 100 MB of a long conversation) are proven to be
    /// the ones read before. Call [`Live::prove`] once they are drawn; a
    /// refresh proves what waits first. Everything else is read as
    /// [`Live::refresh`] reads it.
    pub fn refresh_unproven(&mut self) -> Result<Refresh, OpenError> {
        match self.origin {
            Origin::Jp(_) => self.refresh_folder(),
            Origin::Eve(_) => self.refresh_stream(),
            Origin::Stream(_) => Ok(Refresh::Unchanged),
        }
    }

    /// Whether the last [`Live::refresh_unproven`] waits for
    /// [`Live::prove`].
    #[cfg(feature = "cli")]
    pub fn unproven(&self) -> bool {
        self.unproven.is_some()
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
        live.read_rest_once()?;
        Ok(live)
    }

    /// [`Live::read_once_at`], a stream's stored lines keeping the texts
    /// `texts` says as they are read (a sub-agent's keep them all: see
    /// [`Conversation::keep_only_image_lines`] for after).
    #[cfg(feature = "cli")]
    pub fn read_once_keeping(arg: Option<&str>, texts: StoredTexts) -> Result<Live, OpenError> {
        let mut live = match Live::target(arg)? {
            // A stream file is read as it is opened: it is told what to
            // keep before its first line.
            Target::EveStream(path) => {
                let mut live = Live::stream_file(path);
                live.stored_texts = texts;
                live.refresh()?;
                live
            }
            target => Live::open_target(target)?,
        };
        live.stored_texts = texts;
        live.read_rest_once()?;
        Ok(live)
    }

    /// Reads what opening left: a stream to its end, its last line counted
    /// even without its newline.
    fn read_rest_once(&mut self) -> Result<(), OpenError> {
        if let Origin::Stream(path) = &self.origin {
            let path = path.clone();
            self.read_stream_to_end(&path)?;
        } else {
            self.finish_stream();
        }
        Ok(())
    }

    /// From now on, secrets are replaced by `[redacted RULE]` in everything
    /// read (`--redact`): what was read already at once, each change as it comes.
    ///
    /// Everything the conversation holds is redacted here, its title and
    /// sub-agents included (`crate::redact::redact_conversation` takes
    /// every part [`Conversation::shown_parts`] lists), and every sub-agent
    /// being read redacts what it reads next: the one-shot commands and the
    /// viewer redact through this one call, so no output stage sees a
    /// secret the rules know.
    pub fn redact_with(&mut self, redactor: std::sync::Arc<crate::redact::Redactor>) {
        let Live {
            conversation,
            reader,
            joiner,
            children,
            ..
        } = self;
        let pieces = |record: &serde_json::Value| match &*reader {
            Reader::Stream { reader, .. } => reader.stream_piece(record),
            Reader::Document(_) | Reader::Held(_) | Reader::Rejected => None,
        };
        crate::redact::redact_conversation(&redactor, conversation, joiner, &pieces);
        children.redact_with(&redactor);
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
    #[cfg(feature = "cli")]
    pub fn take_untouched_turns(&mut self) -> usize {
        std::mem::replace(&mut self.untouched, usize::MAX).min(self.conversation.turns.len())
    }

    /// Whether the agent is done with it: no JP lock held, or the eve stream ended.
    pub fn finished(&self) -> bool {
        match (&self.reader, &self.origin) {
            (Reader::Stream { reader, .. }, _) => reader.finished(),
            (Reader::Document(_), Origin::Jp(dir)) => {
                !folder::jp_lock_held(dir, self.workspace.as_ref())
            }
            (Reader::Held(_), _) => false,
            _ => true,
        }
    }

    /// How long its file may go unwritten before a viewer takes the agent as
    /// gone, for a format whose writer never says so (the agent transcripts;
    /// see `StreamReader::quiet_limit`).
    #[cfg(feature = "cli")]
    pub fn quiet_limit(&self) -> Option<std::time::Duration> {
        match &self.reader {
            Reader::Stream { reader, .. } => reader.quiet_limit(),
            Reader::Document(_) | Reader::Held(_) | Reader::Rejected => None,
        }
    }

    /// Whether a JP reader reads it (a stream: once its array was read).
    #[cfg(feature = "cli")]
    pub fn is_jp(&self) -> bool {
        matches!(&self.reader, Reader::Document(reader) if reader.format() == DocumentFormat::Jp)
    }

    /// The stream reader's text of the current step, if any.
    #[cfg(any(test, feature = "internals"))]
    pub fn in_progress(&self) -> Option<&crate::model::InProgress> {
        match &self.reader {
            Reader::Stream { reader, .. } => reader.in_progress(),
            Reader::Document(_) | Reader::Held(_) | Reader::Rejected => None,
        }
    }

    /// A rejected stored style as one line: the file and place it is stored
    /// at, then the key path, value and problem.
    #[cfg(feature = "cli")]
    pub fn describe_style_warning(&self, warning: &StyleWarning) -> String {
        let error = &warning.error;
        match (&self.origin, warning.delta) {
            (Origin::Jp(dir), Some(event)) => format!(
                "{}: event {}: config_delta: {error}",
                dir.events_path().display(),
                self.stored_index(event)
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

    /// Where event `event` is stored among the file's entries.
    #[cfg(feature = "cli")]
    fn stored_index(&self, event: usize) -> usize {
        match self.stored_at.as_ref().and_then(|at| at.get(event)) {
            Some(&index) => index,
            None => event + self.stored_offset,
        }
    }

    /// Follows a JP conversation whose folder was renamed or archived.
    #[cfg(feature = "cli")]
    pub fn moved_to(&mut self, dir: PathBuf) {
        if let Origin::Jp(conv) = &mut self.origin {
            conv.dir = dir;
        }
    }
}
