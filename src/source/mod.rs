//! Opening paths, reading bytes and watching for change.
//!
//! This is the only stage that touches the file system. It answers three
//! questions for the stages after it: *what does this path name* ([`locate()`]),
//! *what are its bytes* ([`ConversationDir::read`], [`tail::AppendTail`],
//! [`stdin`]) and *when should I read again* (`watch`, the program's only: it needs
//! `notify`, built with the `cli` feature).
//!
//! Paths that are not regular files (`-`, FIFOs, `/dev/fd/N`) are streams,
//! read exactly once ([`stdin`]); every whole read is bounded by [`limit`].
//!
//! It is not a parser: it knows nothing of JSON events. It asks
//! [`crate::format::detect`] what a file's first bytes are, and reads only the few
//! keys of `metadata.json` a conversation picker needs, the workspace id in
//! `.jp/.id` and the `pid` in JP's lock files. It never writes, locks, renames
//! or creates anything in a conversation folder or a workspace: every file is
//! opened read-only and JP's lock file is read, never `flock`ed.

pub mod conversation;
pub mod limit;
pub mod locate;
pub mod lock;
pub mod opencode;
#[cfg(feature = "cli")]
pub mod sessions;
#[cfg(feature = "cli")]
pub mod stdin;
pub mod tail;
pub(crate) mod recency;
#[cfg(feature = "cli")]
pub mod watch;
pub mod workspace;

pub use conversation::{ConversationDir, ConversationFiles};
pub use locate::{LocateError, Target, locate};
pub use workspace::Workspace;

#[cfg(test)]
mod test_support;
