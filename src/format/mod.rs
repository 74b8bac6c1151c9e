//! Input formats: turning bytes into canonical events (JP's vocabulary).
//!
//! One submodule per format. Base64 decoding, legacy generations and eve
//! normalization live here and nowhere else; later stages only see
//! [`event::Event`]s.

pub mod eve;
pub mod event;
pub mod ext;
pub mod jp;

pub use event::{Audience, Block, BlockView, ChatResponse, Content, Event, EventKind};
