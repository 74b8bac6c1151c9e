//! The interactive viewer: state, keys, scrolling, follow mode, search, folding.
//!
//! The viewer draws a *document* seen through the small [`Blocks`] trait: an
//! ordered list of blocks, each laid out on demand for a width. Nothing counts
//! the lines of the whole conversation: a position is (block, line within the
//! block), layouts are cached per block identity, revision, width, fold state
//! and view, and a frame lays out only what is on screen — so a 100 MB
//! conversation opens at its end as fast as a small one.
//!
//! Decisions worth knowing (`docs/tui.md` has them all, for users):
//! * The **cursor** is a highlighted screen row. `j`/`k` move it and scroll
//!   only at the screen's edges; the block under it is the one `Enter`, `o`
//!   and `y` act on. It opens on the last line, following the end.
//! * **Horizontal scrolling** shifts the whole view left, like `less -S`:
//!   text is wrapped at the window width, code lines are not wrapped and keep
//!   up to [`live::CODE_WIDTH`] columns, and `h`/`l` reveal them. `l` does
//!   nothing when no line on screen is wider than the window.
//! * **Following** is like `less +F`: new content scrolls into view while the
//!   view is at the end. Scrolling away pauses (the status bar counts the new
//!   events); scrolling back down to the end, `G` or `F` resume.
//! * Folds and the scroll anchor are keyed by block identity, so they survive
//!   reloads, resizes and view changes.
//!
//! This module is not the document: what a block looks like is the render
//! module's business; [`live::LiveDocument`] adapts it.

pub mod app;
pub mod blocks;
pub mod cache;
pub mod chrome;
pub mod clock;
mod draw;
pub mod everywhere;
mod find;
mod fingerprint;
pub mod fold;
pub mod help;
mod input;
pub mod keys;
pub mod lazy_layout;
mod list;
pub mod live;
mod navigate;
pub mod notify;
pub mod opening;
pub mod pager;
pub mod picker;
pub mod replay;
mod resume;
pub mod run;
mod running_totals;
mod search_all;
mod signals;
pub mod terminal;
pub mod text;
pub mod view_prefs;
pub mod viewer;
mod writer_idle;

#[cfg(test)]
mod testdoc;

#[cfg(any(test, feature = "internals"))]
pub use app::{App, AppEvent, Effect, Proven, Reload, Signal, ViewerOptions};
#[cfg(any(test, feature = "internals"))]
pub use blocks::{
    BlockClass, Blocks, EarlierTurns, Follow, LiveState, ReadError, ReplayControl, ReplayStatus,
    Replaying,
    Viewable,
};
#[cfg(any(test, feature = "internals"))]
pub use chrome::Chrome;
#[cfg(any(test, feature = "internals"))]
pub use clock::Clock;
#[cfg(any(test, feature = "internals"))]
pub use picker::ConversationRow;
pub use run::Exit;
#[cfg(any(test, feature = "internals"))]
pub use run::{EventChannel, Host, NoWorkspace, Opened, TuiError, run};
pub use viewer::{FolderScope, OpeningReport, ViewerSettings, open_and_run};
#[cfg(any(test, feature = "internals"))]
pub use viewer::{ViewerError, run_live};
