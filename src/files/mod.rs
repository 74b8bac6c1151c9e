//! The files a run reads and the one way it writes one.
//!
//! Every file overhear opens for reading — a conversation, a sub-agent's
//! transcript, a configuration, a theme — is opened through `files::read`, which
//! records its identity (device and inode, links resolved). The one function
//! that writes a file, [`write::write_file`], refuses a target with the
//! identity of any file the run read, so that no spelling of an input's path
//! (a symbolic link, a hard link, `..`) can turn an export into a
//! replacement of what the user has; and it replaces a file atomically.
//! A scratch file ([`scratch`]) is the run's own, unnamed, never the user's.
//!
//! It sits at the bottom of the layers: it knows nothing of formats, and
//! every layer that opens a file uses it.

pub mod read;
#[cfg(feature = "cli")]
mod held_signals;
#[cfg(feature = "cli")]
pub mod scratch;
pub mod sqlite;
#[cfg(feature = "cli")]
pub mod write;

pub use read::{open, read, read_setting};
