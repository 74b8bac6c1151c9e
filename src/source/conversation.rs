//! One JP conversation on disk: where its files are and their bytes.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The events array of a conversation folder.
pub const EVENTS: &str = "events.json";
/// The base config of a current-format conversation (absent in legacy ones).
pub const BASE_CONFIG: &str = "base_config.json";
/// Title, activation time, pin and archive marks.
pub const METADATA: &str = "metadata.json";

/// A JP conversation folder (or a lone events file), as a path and an id.
///
/// Exists so the later stages can read and follow a conversation without
/// knowing where JP keeps it or how it names folders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConversationDir {
    /// The folder holding the conversation's files.
    pub dir: PathBuf,
    /// The conversation id in deciseconds (`17758406187`), read from the folder
    /// name (text before the first `-`); `None` when the name is not an id.
    pub id: Option<String>,
    /// File name of the events array inside `dir`: `events.json` for a JP
    /// folder, another name for a lone events file given on the command line
    /// (whose siblings are then not read).
    pub events_name: OsString,
}

/// The raw bytes of a conversation's files, read once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConversationFiles {
    /// `events.json`: a JSON array of stream entries.
    pub events: Vec<u8>,
    /// `base_config.json` when present (current format).
    pub base_config: Option<Vec<u8>>,
    /// `metadata.json` when present.
    pub metadata: Option<Vec<u8>>,
    /// Why `metadata.json` could not be read, naming it (`None` when it was
    /// read or is absent): it only holds the title, so a file that cannot be
    /// read costs the title, as one that is not JSON does.
    pub metadata_problem: Option<String>,
}

impl ConversationDir {
    /// A conversation folder holding `events.json`; the id comes from its name.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        let dir = dir.into();
        let id = dir
            .file_name()
            .and_then(OsStr::to_str)
            .and_then(id_from_dirname)
            .map(str::to_owned);
        ConversationDir {
            dir,
            id,
            events_name: OsString::from(EVENTS),
        }
    }

    /// A lone events file that is not named `events.json` (a copy, a test
    /// fixture): only that file is read, never its siblings.
    pub fn standalone(file: &Path) -> Self {
        let dir = match file.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => PathBuf::from("."),
        };
        ConversationDir {
            dir,
            id: None,
            events_name: file
                .file_name()
                .map(OsStr::to_os_string)
                .unwrap_or_default(),
        }
    }

    /// True for a lone events file (see [`ConversationDir::standalone`]).
    pub fn is_standalone(&self) -> bool {
        self.events_name != EVENTS
    }

    /// Path of the events array.
    pub fn events_path(&self) -> PathBuf {
        self.dir.join(&self.events_name)
    }

    /// The id as JP shows it (`jp-c17758406187`).
    #[cfg(feature = "cli")]
    pub fn display_id(&self) -> Option<String> {
        self.id.as_deref().map(display_id)
    }

    /// Reads the conversation's files (read-only opens). `events.json` must
    /// exist; the other two are optional. Errors name the file.
    #[cfg(any(test, feature = "internals"))]
    pub fn read(&self) -> io::Result<ConversationFiles> {
        let events = read_named(&self.events_path())?;
        Ok(ConversationFiles {
            events,
            ..self.read_beside()?
        })
    }

    /// Opens `events.json` for reading (only reading), for a reader that
    /// parses it as it reads; a file larger than [`super::limit`] is refused
    /// before it is read. The error names the file.
    pub fn open_events(&self) -> io::Result<fs::File> {
        let path = self.events_path();
        let open = || {
            let file = crate::files::open(&path)?;
            super::limit::check_len(file.metadata()?.len())?;
            Ok(file)
        };
        open().map_err(|e| named(&path, &e))
    }

    /// The files beside the events (`base_config.json`, `metadata.json`),
    /// with `events` left empty: for a re-read that reads the events file its
    /// own way (only what follows the part parsed before).
    pub fn read_beside(&self) -> io::Result<ConversationFiles> {
        if self.is_standalone() {
            return Ok(ConversationFiles {
                events: Vec::new(),
                base_config: None,
                metadata: None,
                metadata_problem: None,
            });
        }
        let (metadata, metadata_problem) = match read_optional(&self.dir.join(METADATA)) {
            Ok(metadata) => (metadata, None),
            Err(err) => (None, Some(err.to_string())),
        };
        Ok(ConversationFiles {
            events: Vec::new(),
            base_config: read_optional(&self.dir.join(BASE_CONFIG))?,
            metadata,
            metadata_problem,
        })
    }
}

/// The id part of a conversation folder name (`<deciseconds>[-<slug>]`), if
/// the name is one.
pub fn id_from_dirname(name: &str) -> Option<&str> {
    let id = name.split('-').next().unwrap_or(name);
    is_id(id).then_some(id)
}

/// Whether `text` is a bare conversation id (ASCII digits only).
pub fn is_id(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// `jp-c<id>`, the spelling JP shows and uses for lock files.
pub fn display_id(id: &str) -> String {
    format!("jp-c{id}")
}

/// Reads a whole file (within [`super::limit`]), naming it in the error.
#[cfg(any(test, feature = "internals"))]
fn read_named(path: &Path) -> io::Result<Vec<u8>> {
    super::limit::read_file(path).map_err(|e| named(path, &e))
}

/// The error with the file's name in front: `<path>: permission denied; …`.
pub(crate) fn named(path: &Path, error: &io::Error) -> io::Error {
    io::Error::new(
        error.kind(),
        format!("{}: {}", path.display(), crate::problem::io_problem(error)),
    )
}

/// Reads a file that may be absent.
fn read_optional(path: &Path) -> io::Result<Option<Vec<u8>>> {
    match super::limit::read_file(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(named(path, &e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_is_the_digits_before_the_first_dash() {
        assert_eq!(id_from_dirname("17758406187"), Some("17758406187"));
        assert_eq!(
            id_from_dirname("17758406187-missing-date"),
            Some("17758406187")
        );
        assert_eq!(id_from_dirname(".archive"), None);
        assert_eq!(id_from_dirname("notes-2026"), None);
        assert_eq!(id_from_dirname(""), None);
    }

    #[test]
    fn read_returns_all_three_files_and_tolerates_missing_optional_ones() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("17758406187-title");
        fs::create_dir(&dir).unwrap();
        fs::write(dir.join(EVENTS), b"[]\n").unwrap();
        fs::write(dir.join(METADATA), b"{}").unwrap();
        let conv = ConversationDir::new(&dir);
        assert_eq!(conv.id.as_deref(), Some("17758406187"));
        let files = conv.read().unwrap();
        assert_eq!(files.events, b"[]\n");
        assert_eq!(files.base_config, None);
        assert_eq!(files.metadata.as_deref(), Some(&b"{}"[..]));
    }

    #[test]
    fn read_error_names_the_missing_events_file() {
        let tmp = tempfile::tempdir().unwrap();
        let err = ConversationDir::new(tmp.path()).read().unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::NotFound);
        assert!(err.to_string().contains("events.json"), "{err}");
    }

    #[test]
    fn standalone_file_ignores_sibling_config() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("saved.json");
        fs::write(&file, b"[]").unwrap();
        fs::write(tmp.path().join(BASE_CONFIG), b"{}").unwrap();
        let conv = ConversationDir::standalone(&file);
        assert!(conv.is_standalone());
        let files = conv.read().unwrap();
        assert_eq!(files.events, b"[]");
        assert_eq!(files.base_config, None);
    }
}
