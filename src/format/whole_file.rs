//! The seam for formats whose file is one JSON value, rewritten whole by
//! its writer (JP's `events.json` array, beside its `base_config.json` and
//! `metadata.json`), as [`super::StreamFormat`] is the seam for streams.
//!
//! A [`DocumentFormat`] reads such a file the first time, entry by entry as
//! it is read ([`DocumentFormat::read_from`]) or from its bytes
//! ([`DocumentFormat::open`]), and hands back a [`DocumentReader`] that
//! follows the file across rewrites: when the new file starts with the bytes
//! parsed before (checked through a hash of that prefix, fed as the file is
//! read, so the prefix is never held), only what follows is parsed
//! ([`DocumentReader::read_rest`], then [`DocumentReader::prove`]). What it
//! reads is a [`Loaded`]: the events, the base configuration, the entries
//! kept as unknown.
//!
//! `load` and `travel` see only this module; a format's own types stay in
//! its submodule (docs/adding-a-format.md).

use std::fmt;
#[cfg(feature = "cli")]
use std::io::Seek;
use std::io::{self, Read};
#[cfg(feature = "cli")]
use std::ops::Range;

use serde_json::Value;

use super::PrefixHasher;
#[cfg(feature = "cli")]
use super::jp::{JpOutline, JpSparse};
use super::jp::{self, JpLoad, JpStream};
use crate::model::Event;

/// The whole-file formats overhear reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocumentFormat {
    /// A JP conversation: `events.json` (jp-format), with its base
    /// configuration in `base_config.json` or a legacy first entry.
    Jp,
}

/// What a document (or the part of it appended since the last read) held.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Loaded {
    /// The stored events, decoded (a base configuration is not an event).
    pub events: Vec<Event>,
    /// The conversation's base configuration, if it has one.
    pub base_config: Option<Value>,
    /// Entries that were malformed and kept as unknown events.
    pub diagnostics: Vec<Diagnostic>,
    /// Where conversation event 0 sits among the stored entries (1 when a
    /// legacy base configuration entry comes first), to name events as
    /// they are stored.
    pub stored_offset: usize,
}

/// How a re-read changed the conversation.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// The bytes are the same as last time.
    Unchanged,
    /// Everything read before is still there: these events (and diagnostics,
    /// indexed in the whole file) follow the ones already read.
    Appended(Loaded),
    /// The file changed in the middle (or its base configuration did): this
    /// is the whole conversation, re-read.
    Reloaded(Loaded),
}

/// Follows one document across its writer's rewrites. It keeps no events,
/// only what it needs to recognise the bytes it has parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentReader {
    state: State,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum State {
    Jp(JpStream),
}

impl DocumentFormat {
    /// Reads a whole document from its bytes and its base configuration's.
    #[cfg(feature = "cli")]
    pub fn load(self, document: &[u8], base_config: Option<&[u8]>) -> Result<Loaded, LoadError> {
        match self {
            DocumentFormat::Jp => jp::load(document, base_config).map(Loaded::from),
        }
    }

    /// Reads a document for the first time from its bytes, to be followed.
    pub fn open(
        self,
        document: &[u8],
        base_config: Option<&[u8]>,
    ) -> Result<(DocumentReader, Loaded), LoadError> {
        match self {
            DocumentFormat::Jp => {
                let (stream, load) = JpStream::open(document, base_config)?;
                Ok((DocumentReader::jp(stream), load.into()))
            }
        }
    }

    /// Reads a document for the first time as its bytes arrive, parsing each
    /// entry as soon as it is whole: the file is never held in memory.
    /// `Ok(None)` when it is not a plain array of entries: read it whole and
    /// use [`DocumentFormat::open`], which reports exactly what is wrong.
    pub fn read_from(
        self,
        document: &mut impl Read,
        base_config: Option<&[u8]>,
    ) -> io::Result<Option<(DocumentReader, Loaded)>> {
        match self {
            DocumentFormat::Jp => Ok(JpStream::read_from(document, base_config)?
                .map(|(stream, load)| (DocumentReader::jp(stream), load.into()))),
        }
    }

    /// Reads a document for the first time in outline, as its bytes
    /// arrive: every event is there, of its kind and with the ids that pair
    /// it, but only configuration changes are decoded whole; the
    /// [`Outline`] decodes the events shown. The file is never held in
    /// memory. `Ok(None)` as for [`DocumentFormat::read_from`].
    #[cfg(feature = "cli")]
    pub fn outline(
        self,
        document: &mut impl Read,
        base_config: Option<&[u8]>,
    ) -> io::Result<Option<(DocumentReader, Loaded, Outline)>> {
        match self {
            DocumentFormat::Jp => Ok(JpOutline::read_from(document, base_config)?.map(
                |(stream, load, outline)| {
                    (
                        DocumentReader::jp(stream),
                        load.into(),
                        Outline::Jp(outline),
                    )
                },
            )),
        }
    }

    /// Reads a document for the first time sparsely, to print its last
    /// turns: one pass as [`DocumentFormat::outline`]'s that keeps only what
    /// decides the turns and the configuration in force at each, and one
    /// stand-in event for each run of other entries, so the turns grouped
    /// from the events are the document's; the [`Sparse`] decodes the last
    /// turns whole. The reader reads the file whole at its first change.
    /// With `last`, at most the last `last` turns are printed: the turns
    /// before them are folded into their count, but for those a
    /// configuration change decides ([`Sparse::turn_numbers`]). `Ok(None)`
    /// as for [`DocumentFormat::read_from`].
    #[cfg(feature = "cli")]
    pub fn sparse(
        self,
        document: &mut impl Read,
        base_config: Option<&[u8]>,
        last: Option<usize>,
    ) -> io::Result<Option<(DocumentReader, Loaded, Sparse)>> {
        match self {
            DocumentFormat::Jp => Ok(JpSparse::read_from(document, base_config, last)?.map(
                |(stream, load, sparse)| {
                    (
                        DocumentReader::jp(stream),
                        load.into(),
                        Sparse::Jp(sparse),
                    )
                },
            )),
        }
    }

    /// How many events the document holds, counted without loading it (for
    /// the picker); `None` if it is not a plain array of entries.
    /// `has_base_file`: the base configuration is a file of its own.
    #[cfg(feature = "cli")]
    pub fn count_events(
        self,
        document: impl Read,
        has_base_file: bool,
    ) -> io::Result<Option<usize>> {
        match self {
            DocumentFormat::Jp => jp::count_events(document, has_base_file),
        }
    }

    /// The title stored in the conversation's metadata file, if it is readable.
    pub fn title(self, metadata: &[u8]) -> Option<String> {
        match self {
            DocumentFormat::Jp => jp::title(metadata),
        }
    }

    /// Why the metadata file cannot be read (its title is not shown then).
    pub fn metadata_problem(self, metadata: &[u8]) -> Option<SyntaxError> {
        match self {
            DocumentFormat::Jp => jp::metadata_problem(metadata),
        }
    }
}

impl DocumentReader {
    fn jp(stream: JpStream) -> Self {
        DocumentReader {
            state: State::Jp(stream),
        }
    }

    /// The format it reads.
    #[cfg(feature = "cli")]
    pub fn format(&self) -> DocumentFormat {
        match self.state {
            State::Jp(_) => DocumentFormat::Jp,
        }
    }

    /// How many leading bytes of the file were parsed before: after a
    /// rewrite, pass what follows them to [`DocumentReader::read_rest`],
    /// then their hash to [`DocumentReader::prove`].
    pub fn prefix_len(&self) -> usize {
        match &self.state {
            State::Jp(stream) => stream.prefix_len(),
        }
    }

    /// Re-reads after a rewrite, the file read in two parts, trusting for
    /// now that its first [`DocumentReader::prefix_len`] bytes are the ones
    /// parsed before: what `rest`, the bytes after them, adds. A viewer shows
    /// it at once and then hashes those bytes for [`DocumentReader::prove`],
    /// which the reader waits for before it takes the change. `None` when
    /// only re-reading the whole file will do (the base configuration
    /// changed, `rest` is not the end of the document): make a fresh reader
    /// with [`DocumentFormat::read_from`] then.
    pub fn read_rest(&self, rest: &[u8], base_config: Option<&[u8]>) -> Option<(Change, Ahead)> {
        match &self.state {
            State::Jp(stream) => {
                let (delta, ahead) = stream.read_rest(rest, base_config)?;
                let change = match delta {
                    jp::Delta::Unchanged => Change::Unchanged,
                    jp::Delta::Appended(load) => Change::Appended(load.into()),
                    #[cfg(any(test, feature = "internals"))]
                    jp::Delta::Reloaded(load) => Change::Reloaded(load.into()),
                };
                Some((change, Ahead(ahead)))
            }
        }
    }

    /// Whether the change [`DocumentReader::read_rest`] read is true:
    /// `hasher` has hashed the file's first [`DocumentReader::prefix_len`]
    /// bytes, and `rest` is what followed them. If they are the bytes parsed
    /// before, the reader takes the change (`ahead`); if not, only
    /// re-reading the whole file will do.
    pub fn prove(&mut self, hasher: PrefixHasher, rest: &[u8], ahead: Ahead) -> bool {
        match (&mut self.state, ahead.0) {
            (State::Jp(stream), ahead) => stream.prove(hasher, rest, ahead),
        }
    }

    /// Forgets the bytes parsed before: the next change is read whole. For
    /// a reader whose last change could not be proven (the file could not
    /// be read again).
    pub fn forget(&mut self) {
        match &mut self.state {
            State::Jp(stream) => *stream = JpStream::unfollowed(),
        }
    }
}

/// What [`DocumentReader::read_rest`] read, for [`DocumentReader::prove`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ahead(jp::Ahead);

/// Where the events of a document read in outline lie in its file, to
/// decode the ones shown ([`DocumentFormat::outline`]).
#[cfg(feature = "cli")]
#[derive(Debug, Clone)]
pub enum Outline {
    /// A JP `events.json`.
    Jp(JpOutline),
}

#[cfg(feature = "cli")]
impl Outline {
    /// Decodes the events `events` from `file` (the handle the outline was
    /// read from), in one read. `sketches` are their events in the outline;
    /// `Ok(None)` when an entry is not JSON or not what the outline said:
    /// only a full read will do then.
    pub fn decode(
        &self,
        file: &mut (impl Read + Seek),
        events: Range<usize>,
        sketches: &[Event],
    ) -> io::Result<Option<Vec<Event>>> {
        match self {
            Outline::Jp(outline) => outline.decode(file, events, sketches),
        }
    }
}

#[cfg(feature = "cli")]
impl Outline {
    /// How many bytes of the file the entries of `events` span: what
    /// decoding them reads.
    pub fn span(&self, events: Range<usize>) -> usize {
        match self {
            Outline::Jp(outline) => outline.span(events),
        }
    }

    /// How many events the outline holds: the conversation's events from
    /// the first, as they were when it was read (later ones were read
    /// whole).
    pub fn outlined(&self) -> usize {
        match self {
            Outline::Jp(outline) => outline.outlined(),
        }
    }

    /// Empties a decoded event of its texts again (decoding its entry
    /// again brings them back): see [`crate::format::jp::hollow`].
    pub fn hollow(&self, event: &mut Event) {
        match self {
            Outline::Jp(_) => super::jp::hollow(event),
        }
    }
}

/// Where the events of a document read sparsely lie in its file, to
/// decode its last turns ([`DocumentFormat::sparse`]).
#[cfg(feature = "cli")]
#[derive(Debug, Clone)]
pub enum Sparse {
    /// A JP `events.json`.
    Jp(JpSparse),
}

#[cfg(feature = "cli")]
impl Sparse {
    /// The number in the file of each of `turns`, the turns grouped from
    /// the sparse read's events: the turns folded into their count before
    /// each counted (see [`DocumentFormat::sparse`]).
    pub fn turn_numbers(&self, turns: &[crate::model::Turn]) -> Vec<usize> {
        match self {
            Sparse::Jp(sparse) => sparse.turn_numbers(turns),
        }
    }

    /// The stored index of the first entry each event of the sparse read
    /// stands for, in order: to name an event as it is stored.
    pub fn stored_indices(&self) -> Vec<usize> {
        match self {
            Sparse::Jp(sparse) => sparse.stored_indices().collect(),
        }
    }

    /// Decodes every entry from the one event `from` of the sparse read
    /// stands for to the end, from `file` (the handle the sparse read read),
    /// a chunk at a time: each event with its stored index. `diagnosed` tells
    /// whether the sparse read found an entry (by stored index) wrong.
    /// `Ok(None)` when an entry is not JSON or not what the sparse read
    /// took it for: only a full read will do then.
    pub fn decode_from(
        &self,
        file: &mut (impl Read + Seek),
        from: usize,
        diagnosed: &dyn Fn(usize) -> bool,
    ) -> io::Result<Option<Vec<(Event, usize)>>> {
        match self {
            Sparse::Jp(sparse) => sparse.decode_from(file, from, diagnosed),
        }
    }
}

impl From<JpLoad> for Loaded {
    fn from(load: JpLoad) -> Self {
        Loaded {
            stored_offset: load.stored_offset(),
            events: load.events,
            base_config: load.base_config,
            diagnostics: load.diagnostics,
        }
    }
}

/// A problem with one event that did not stop reading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Zero-based index of the entry in the stored array.
    pub index: usize,
    /// What is wrong, naming the key.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "event {}: {}", self.index, self.message)
    }
}

/// A file that could not be read as JSON at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct SyntaxError {
    /// 1-based line of the error.
    pub line: usize,
    /// 1-based column of the error.
    pub column: usize,
    /// What the JSON parser expected or found.
    pub message: String,
}

impl SyntaxError {
    pub(crate) fn from_serde(err: &serde_json::Error) -> Self {
        SyntaxError {
            line: err.line(),
            // serde_json says column 0 for "before the line's first character".
            column: err.column().max(1),
            message: crate::problem::json_problem(err, "the file"),
        }
    }
}

/// Why a document could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// The document (`events.json`) is not JSON, or not an array.
    #[error("{0}")]
    Events(SyntaxError),
    /// The base configuration (`base_config.json`) is not JSON.
    #[error("base_config.json: {0}")]
    BaseConfig(SyntaxError),
}

impl LoadError {
    /// The JSON error, without the file's name (the variant says which file).
    pub fn syntax(&self) -> &SyntaxError {
        match self {
            LoadError::Events(e) | LoadError::BaseConfig(e) => e,
        }
    }
}

impl From<serde_json::Error> for LoadError {
    fn from(err: serde_json::Error) -> Self {
        LoadError::Events(SyntaxError::from_serde(&err))
    }
}
