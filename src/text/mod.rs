//! Terminal text: the one layer every byte bound for a terminal goes through.
//!
//! * [`ascii`] — finding printable ASCII a machine word at a time.
//! * [`count`] — counts written for people (`12,345 lines`).
//! * [`sanitize`] — escape sequences, control characters and characters that reorder or hide
//!   text, stripped (conversation content) or made visible (names and values echoed back).
//! * [`width`] — THE display-width ruler, per grapheme cluster.
//! * [`truncate`] — cutting to a number of columns, at either end.
//! * [`wrap`] — wrapping styled text to a width, with hanging prefixes.
//! * [`safe_json`] — JSON written so that nothing in it can act on a terminal.
//!
//! Used by `render`, `tui` and `cli` alike; it depends on nothing else in overhear. It knows
//! nothing of conversations, styles or themes, and never writes to a terminal itself.

pub mod ascii;
pub mod count;
pub mod safe_json;
pub mod sanitize;
pub mod truncate;
pub mod width;
pub mod wrap;
