//! overhear — a terminal viewer for LLM-agent conversations.
//!
//! The library holds the whole pipeline so that tool authors can call it from
//! their own tests; the binary (`src/main.rs`) only hands the command line to
//! [`cli`]. Data flows one way: [`source`] → [`format`](mod@format) → [`model`] →
//! [`policy`] → [`render`] → [`tui`] / [`cli`]. Later stages never reach back.
//! Under all of them, [`text`] sanitizes, measures, cuts and wraps every byte bound for a
//! terminal.
//!
//! It is not a conversation editor: nothing here ever writes to, locks or
//! renames the files it reads.

#![warn(missing_docs)]

pub mod cli;
pub mod demo;
pub mod export;
pub mod format;
pub mod load;
pub mod model;
pub mod policy;
pub mod problem;
pub mod redact;
pub mod render;
pub mod source;
pub mod text;
pub mod tui;
