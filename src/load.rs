//! Opening a conversation end to end: the files `source` finds, read by the
//! matching `format`, grouped by `model`. The one place that orchestrates the
//! early stages, so the CLI and the TUI load conversations the same way.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::format::jp::{self, LoadError};
use crate::model::Conversation;

/// A conversation and what was wrong with parts of it.
#[derive(Debug)]
pub struct Loaded {
    /// The conversation.
    pub conversation: Conversation,
    /// One line per problem that did not stop reading, each naming the file and place.
    pub warnings: Vec<String>,
}

/// Why a conversation could not be opened at all.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// A file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A file is not what it should be.
    #[error("{path}: {error}")]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong, with line and column.
        error: LoadError,
    },
}

/// The bytes of one JP conversation's files.
#[derive(Debug, Clone, Default)]
pub struct JpFiles {
    /// `events.json`.
    pub events: Vec<u8>,
    /// `base_config.json`, when the conversation is in the current format.
    pub base_config: Option<Vec<u8>>,
    /// `metadata.json`, when present.
    pub metadata: Option<Vec<u8>>,
}

/// Builds a conversation from a JP folder's files; `dir` names them in messages.
pub fn jp_conversation(dir: &Path, files: &JpFiles) -> Result<Loaded, OpenError> {
    let events_path = dir.join("events.json");
    let load = jp::load(&files.events, files.base_config.as_deref()).map_err(|error| {
        let path = match error {
            LoadError::Events(_) => events_path.clone(),
            LoadError::BaseConfig(_) => dir.to_path_buf(),
        };
        OpenError::Format { path, error }
    })?;
    let warnings = load
        .diagnostics
        .iter()
        .map(|d| format!("{}: {d}", events_path.display()))
        .collect();
    let title = files.metadata.as_deref().and_then(title_of);
    Ok(Loaded {
        conversation: Conversation::new(load.events, load.base_config, title),
        warnings,
    })
}

/// The `title` of a `metadata.json`, if it is readable (a UTF-8 byte order mark
/// is skipped, as for the other files).
pub fn title_of(metadata: &[u8]) -> Option<String> {
    let json = metadata.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(metadata);
    let value: Value = serde_json::from_slice(json).ok()?;
    value.get("title")?.as_str().map(String::from)
}

/// Opens what a PATH argument names (for now: an `events.json` or a
/// conversation folder).
pub fn open(arg: &str) -> Result<Loaded, OpenError> {
    let path = Path::new(arg);
    let dir = if path.is_file() {
        path.parent().map(Path::to_path_buf).unwrap_or_default()
    } else {
        path.to_path_buf()
    };
    let read = |name: &str| std::fs::read(dir.join(name));
    let events = read("events.json").map_err(|source| OpenError::Io {
        path: dir.join("events.json"),
        source,
    })?;
    let files = JpFiles {
        events,
        base_config: read("base_config.json").ok(),
        metadata: read("metadata.json").ok(),
    };
    jp_conversation(&dir, &files)
}
