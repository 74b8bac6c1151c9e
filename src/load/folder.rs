//! Following a conversation folder (JP's): its document (`events.json`),
//! re-read after each rewrite through the prefix-hash fast path of
//! [`DocumentReader`], with its base configuration and metadata beside it.

use std::fs::File;
use std::io::{Read as _, Seek as _, SeekFrom};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::prefix_read::{Hashed, PrefixHashing};
#[cfg(feature = "cli")]
use super::StoredTexts;
use super::{Live, OpenError, Origin, Reader, Refresh};
use crate::format::{Ahead, Change, DocumentFormat, DocumentReader, LoadError, Loaded};
use crate::model::{Conversation, Event};
use crate::source::ConversationFiles;
use crate::source::conversation::{BASE_CONFIG, METADATA, named};
use crate::source::limit;
use crate::source::{ConversationDir, Workspace};

/// The format of a conversation folder's document.
pub(super) const FOLDER_FORMAT: DocumentFormat = DocumentFormat::Jp;

impl Live {
    /// Opens a JP conversation folder.
    pub fn open_jp(dir: ConversationDir, workspace: Option<Workspace>) -> Result<Live, OpenError> {
        Live::open_jp_reporting(dir, workspace, &mut |_| {})
    }

    /// [`Live::open_jp`], telling `report` how many bytes of the file it has
    /// read (from 0 again when a file that is not a plain array of entries
    /// is read a second time, whole).
    pub(super) fn open_jp_reporting(
        dir: ConversationDir,
        workspace: Option<Workspace>,
        report: &mut dyn FnMut(u64),
    ) -> Result<Live, OpenError> {
        let files = dir.read_beside()?;
        let (reader, load) = read_document_reporting(&dir, files.base_config.as_deref(), report)?;
        Ok(Live::of_folder(dir, workspace, &files, reader, load, Conversation::new))
    }

    /// A conversation folder's [`Live`], its document read as `load` and
    /// grouped by `grouped` ([`Conversation::new`], or
    /// [`Conversation::in_outline`] for the viewer opening it at its end).
    pub(super) fn of_folder(
        dir: ConversationDir,
        workspace: Option<Workspace>,
        files: &ConversationFiles,
        reader: DocumentReader,
        load: Loaded,
        grouped: fn(Vec<Event>, Option<Value>, Option<String>) -> Conversation,
    ) -> Live {
        let mut warnings = diagnostics(&dir.events_path(), &load);
        warnings.extend(metadata_problem(&dir, files));
        let title = files
            .metadata
            .as_deref()
            .and_then(|m| FOLDER_FORMAT.title(m));
        Live {
            stored_offset: load.stored_offset,
            conversation: grouped(load.events, load.base_config, title),
            origin: Origin::Jp(dir),
            workspace,
            warnings,
            reader: Reader::Document(reader),
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

    /// Re-reads a conversation folder after a change notification: only
    /// what follows the bytes parsed before, read before they are proven
    /// unchanged ([`Live::refresh_unproven`]); a change read before and not
    /// proven yet is proven first.
    pub(super) fn refresh_folder(&mut self) -> Result<Refresh, OpenError> {
        if self.prove()? == Refresh::Reloaded {
            // The file was read whole as it is now.
            return Ok(Refresh::Reloaded);
        }
        let (Reader::Document(reader), Origin::Jp(dir)) = (&mut self.reader, &self.origin) else {
            return Ok(Refresh::Unchanged);
        };
        let files = dir.read_beside()?;
        let base = files.base_config.as_deref();
        let read = match read_after(&dir.events_path(), reader.prefix_len())? {
            Some((file, rest)) => reader.read_rest(&rest, base).map(|(change, ahead)| {
                (change, Unproven { file, rest, ahead, hashing: None })
            }),
            None => None,
        };
        let change = match read {
            Some((change, unproven)) => {
                self.unproven = Some(unproven);
                change
            }
            None => {
                let (fresh, load) = read_document(dir, base)?;
                *reader = fresh;
                Change::Reloaded(load)
            }
        };
        let events_path = dir.events_path();
        self.take_title(&files);
        Ok(self.apply(&events_path, change))
    }

    /// Applies what a re-read of the folder's document found.
    fn apply(&mut self, events_path: &Path, change: Change) -> Refresh {
        match change {
            Change::Unchanged => Refresh::Unchanged,
            Change::Appended(load) if load.events.is_empty() => Refresh::Unchanged,
            Change::Appended(mut load) => {
                self.redact(&mut load.events);
                self.warnings.extend(diagnostics(events_path, &load));
                let untouched = self.conversation.extend(load.events);
                self.untouched = self.untouched.min(untouched);
                Refresh::Appended
            }
            Change::Reloaded(load) => {
                self.replace_with(events_path, load);
                Refresh::Reloaded
            }
        }
    }

    /// Proves what the last refresh read before the bytes before it
    /// ([`Live::refresh_unproven`]): they are hashed and compared with
    /// the bytes parsed before. `Unchanged` when they are the same (or
    /// nothing waited to be proven), `Reloaded` when they are not: the
    /// conversation was read again whole.
    pub fn prove(&mut self) -> Result<Refresh, OpenError> {
        loop {
            if let Some(refresh) = self.prove_step(usize::MAX)? {
                return Ok(refresh);
            }
        }
    }

    /// A step of [`Live::prove`]: `chunks` more of the bytes before the
    /// change hashed, 1 MiB each (helper threads hash more meanwhile); what
    /// [`Live::prove`] returns once they are all hashed, `None` before.
    pub fn prove_step(&mut self, chunks: usize) -> Result<Option<Refresh>, OpenError> {
        let Live {
            unproven: waiting,
            reader: Reader::Document(reader),
            origin: Origin::Jp(dir),
            ..
        } = self
        else {
            self.unproven = None;
            return Ok(Some(Refresh::Unchanged));
        };
        let Some(mut unproven) = waiting.take() else {
            return Ok(Some(Refresh::Unchanged));
        };
        let events_path = dir.events_path();
        let file = &unproven.file;
        let hashed = match &mut unproven.hashing {
            Some(hashing) => hashing.step(file, chunks),
            None => PrefixHashing::start(file, reader.prefix_len()).and_then(|hashing| {
                unproven.hashing.insert(hashing).step(file, chunks)
            }),
        };
        let hashed = match hashed {
            Ok(Hashed::Working) => {
                *waiting = Some(unproven);
                return Ok(None);
            }
            Ok(Hashed::Done(hashed)) => hashed,
            Err(e) => {
                // What was shown stays until the next change, read whole.
                reader.forget();
                return Err(named(&events_path, &e).into());
            }
        };
        if hashed.is_some_and(|hasher| reader.prove(*hasher, &unproven.rest, unproven.ahead)) {
            return Ok(Some(Refresh::Unchanged));
        }
        // If reading it whole fails, the next change is read whole.
        reader.forget();
        let files = dir.read_beside()?;
        let (fresh, load) = read_document(dir, files.base_config.as_deref())?;
        *reader = fresh;
        self.take_title(&files);
        Ok(Some(self.apply(&events_path, Change::Reloaded(load))))
    }

    /// Re-reads a conversation folder's title after its `metadata.json`
    /// changed; whether the title changed. `events.json` is not read: a
    /// change to it comes as a notification of its own, and hashing a
    /// 100 MB prefix again for a title would be a second read of it.
    #[cfg(feature = "cli")]
    pub fn refresh_title(&mut self) -> Result<bool, OpenError> {
        let Origin::Jp(dir) = &self.origin else {
            return Ok(false);
        };
        let files = dir.read_beside()?;
        let before = self.conversation.title.clone();
        self.take_title(&files);
        Ok(self.conversation.title != before)
    }

    /// Takes the title `metadata.json` states, if it states one (a title
    /// that cannot be read keeps the one shown).
    fn take_title(&mut self, files: &ConversationFiles) {
        if let Some(title) = files
            .metadata
            .as_deref()
            .and_then(|m| FOLDER_FORMAT.title(m))
        {
            self.conversation.title = Some(title);
        }
        if let Some(redactor) = &self.redactor {
            crate::redact::redact_title(redactor, &mut self.conversation.title);
        }
    }

    /// Reads a document (a JP events array) that arrived on a stream.
    pub(super) fn load_document_stream(
        &mut self,
        format: DocumentFormat,
        name: PathBuf,
        bytes: &[u8],
    ) -> Result<(), OpenError> {
        let (reader, load) = format
            .open(bytes, None)
            .map_err(|error| OpenError::Format {
                path: name.clone(),
                error,
            })?;
        self.replace_with(&name, load);
        self.reader = Reader::Document(reader);
        Ok(())
    }

    /// Makes `load` the whole conversation, keeping its title.
    pub(super) fn replace_with(&mut self, events_path: &Path, mut load: Loaded) {
        self.unproven = None;
        #[cfg(feature = "cli")]
        {
            self.earlier = None;
            self.stored_at = None;
        }
        self.redact(&mut load.events);
        self.warnings = diagnostics(events_path, &load);
        self.stored_offset = load.stored_offset;
        let title = self.conversation.title.take();
        let mut base_config = load.base_config;
        if let (Some(redactor), Some(config)) = (&self.redactor, &mut base_config) {
            crate::redact::redact_value(redactor, config);
        }
        self.conversation = Conversation::new(load.events, base_config, title);
        self.untouched = 0;
    }
}

/// Reads a conversation folder's document, parsing it as the file is read;
/// a file that is not a plain array of entries is read whole, which reports
/// exactly what is wrong with it.
pub(super) fn read_document(
    dir: &ConversationDir,
    base: Option<&[u8]>,
) -> Result<(DocumentReader, Loaded), OpenError> {
    read_document_reporting(dir, base, &mut |_| {})
}

/// [`read_document`], telling `report` how many bytes it has read (from 0
/// again for the second, whole read).
fn read_document_reporting(
    dir: &ConversationDir,
    base: Option<&[u8]>,
    report: &mut dyn FnMut(u64),
) -> Result<(DocumentReader, Loaded), OpenError> {
    use std::io::Seek;
    let io = |e: std::io::Error| named(&dir.events_path(), &e);
    let mut file = dir.open_events()?;
    let mut counted = Counted {
        inner: &mut file,
        read: 0,
        report,
    };
    if let Some(read) = FOLDER_FORMAT.read_from(&mut counted, base).map_err(io)? {
        return Ok(read);
    }
    // The same file again, from its start: the path may name a newer one.
    // A start that is not JSON is read no further (the error is there).
    counted.inner.rewind().map_err(io)?;
    counted.read = 0;
    let events = limit::read_to_end(&mut counted, limit::limit()).map_err(io)?;
    FOLDER_FORMAT
        .open(&events, base)
        .map_err(|error| format_error(dir, error))
}

/// A rewrite's new entries, read and shown before the bytes before them
/// were proven unchanged ([`Live::refresh_unproven`]): what proving them
/// takes.
pub(super) struct Unproven {
    /// The rewritten file, as it was opened: the proof reads the same file
    /// even if JP renamed a newer one over its path since.
    file: File,
    /// The bytes after those parsed before.
    rest: Vec<u8>,
    /// What the reader takes once they are proven.
    ahead: Ahead,
    /// Their hash, made a step at a time ([`Live::prove_step`]).
    hashing: Option<PrefixHashing>,
}

/// Opens the file at `path` and reads what follows its first `prefix`
/// bytes, the ones parsed before, without reading those: a followed 100 MB
/// conversation is not copied whole into memory on every rewrite, and the
/// new entries are shown before the prefix is proven unchanged
/// ([`Live::prove`]). `None` when the file is shorter than `prefix`.
fn read_after(path: &Path, prefix: usize) -> std::io::Result<Option<(File, Vec<u8>)>> {
    let io = |e: std::io::Error| named(path, &e);
    let mut file = crate::files::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    limit::check_len(len).map_err(io)?;
    // Shorter than what was parsed (or a reader that never hashed it,
    // `prefix` past any file): nothing to prove.
    if len < prefix as u64 {
        return Ok(None);
    }
    file.seek(SeekFrom::Start(prefix as u64)).map_err(io)?;
    let mut rest = Vec::new();
    file.read_to_end(&mut rest).map_err(io)?;
    Ok(Some((file, rest)))
}

/// A `metadata.json` that cannot be read or is not JSON: the title cannot
/// be shown.
fn metadata_problem(dir: &ConversationDir, files: &ConversationFiles) -> Option<String> {
    if let Some(unread) = &files.metadata_problem {
        return Some(format!("{unread}; the title is not shown"));
    }
    let error = FOLDER_FORMAT.metadata_problem(files.metadata.as_deref()?)?;
    Some(format!(
        "{}: {error}; the title is not shown",
        dir.dir.join(METADATA).display(),
    ))
}

/// Whether JP holds the conversation's lock: the lock file exists and names a
/// live process. The lock is read, never taken.
pub(super) fn jp_lock_held(dir: &ConversationDir, workspace: Option<&Workspace>) -> bool {
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

/// The error of a folder's file, naming the file that is wrong.
fn format_error(dir: &ConversationDir, error: LoadError) -> OpenError {
    let path = match error {
        LoadError::Events(_) => dir.events_path(),
        LoadError::BaseConfig(_) => dir.dir.join(BASE_CONFIG),
    };
    OpenError::Format { path, error }
}

/// The entries kept as unknown, one line each naming the file.
fn diagnostics(events_path: &Path, load: &Loaded) -> Vec<String> {
    load.diagnostics
        .iter()
        .map(|d| format!("{}: {d}", events_path.display()))
        .collect()
}

/// How many events a JP conversation holds, counted without loading it (for
/// the picker, which shows every conversation's); `None` if it cannot be.
#[cfg(feature = "cli")]
pub fn event_count(dir: &ConversationDir) -> Option<usize> {
    let events = dir.open_events().ok()?;
    let has_base_file = !dir.is_standalone() && dir.dir.join(BASE_CONFIG).is_file();
    FOLDER_FORMAT
        .count_events(events, has_base_file)
        .ok()
        .flatten()
}

/// A reader that tells `report` how many bytes it has given so far: the
/// viewer's opening note on a large conversation (`cli/opening.rs`).
pub(super) struct Counted<'a, R> {
    /// What is read.
    pub(super) inner: R,
    /// How many bytes it gave so far.
    pub(super) read: u64,
    /// Hears `read` after each read.
    pub(super) report: &'a mut dyn FnMut(u64),
}

impl<R: std::io::Read> std::io::Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        (self.report)(self.read);
        Ok(n)
    }
}
