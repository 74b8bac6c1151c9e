//! Input formats: turning bytes into canonical events (the vocabulary of
//! [`crate::model`]).
//!
//! One submodule per format. Base64 decoding, legacy generations and eve
//! normalization live here and nowhere else; later stages only see
//! [`crate::model::Event`]s.

pub mod agent_args;
pub mod agent_tools;
pub mod claude_code;
pub mod codex;
pub mod copilot;
pub mod detect;
#[cfg(feature = "cli")]
mod figures;
mod whole_file;
pub mod eve;
pub mod jp;
pub mod ndjson;
pub mod opencode;
mod prefix_hash;
#[cfg(feature = "cli")]
pub mod session_head;
mod reader;
pub mod surrogates;
pub mod transcript;
pub mod zstd_frame;
pub mod gemini;
pub mod gemini_parts;
pub mod qwen;

// The figures of `overhear sessions`: only the program lists sessions.
#[cfg(all(feature = "cli", feature = "internals"))]
pub use figures::Figures;
#[cfg(feature = "cli")]
pub use figures::figures_of;
#[cfg(feature = "cli")]
pub use whole_file::Outline;
pub use whole_file::{Ahead, Change, DocumentFormat, DocumentReader, LoadError, Loaded};
#[cfg(test)]
pub(crate) use prefix_hash::sample_bytes;
pub use prefix_hash::{PREFIX_CHUNK, PrefixHasher};
pub use reader::{StreamFormat, StreamReader, SubAgentLink, SubAgentSource};
