//! The document: blocks laid out into styled lines, shared by the TUI and `overhear render`.
