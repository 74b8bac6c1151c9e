//! The document: blocks laid out into styled lines, shared by the TUI and `overhear render`.

pub mod ansi;
pub mod highlight;
pub mod markdown;
pub mod output;
pub mod result;
pub mod sanitize;
pub mod theme;
pub mod wrap;
