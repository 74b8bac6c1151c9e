//! The document: blocks laid out into styled lines, shared by the TUI and `overhear render`.

pub mod ansi;
pub mod code_wrap;
pub mod color_depth;
pub mod document;
pub mod duration;
pub mod highlight;
pub mod layout;
pub mod lazy_highlight;
pub mod markdown;
pub mod output;
pub mod print;
pub mod result;
pub mod split;
pub mod theme;
