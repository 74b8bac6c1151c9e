//! overhear — a terminal viewer for LLM-agent conversations, and a library
//! for snapshot-testing what a tool's output looks like to the user and what
//! reaches the model.
//!
//! # Snapshot-testing a tool
//!
//! A tool's result is an MCP `CallToolResult`: content blocks, each addressed
//! to the user, the model (`annotations.audience`) or both. How it is shown
//! depends on the tool's style (`inline_results`, `parameters`, …, JP's
//! `conversation.tools.NAME.style`). [`card()`] renders one call exactly as the
//! viewer and `overhear render` show it in a conversation — or, with
//! [`CardView::All`], also the user view and what the provider receives —
//! so a test pins both audiences:
//!
//! ```
//! use serde_json::json;
//!
//! let result = overhear::ToolResult::from_value(json!({
//!     "content": [
//!         {"type": "text", "text": "Deployed web to staging.",
//!          "annotations": {"audience": ["user"]}},
//!         {"type": "text", "text": "build 1f3c2e0, 3 pods restarted",
//!          "annotations": {"audience": ["assistant"]}}
//!     ]
//! }))?;
//! let mut styles = overhear::Styles::default();
//! styles.set_tool("deploy", "inline_results.user=chat")?;
//! let options = overhear::CardOptions::default().with_width(60).with_styles(styles);
//! let card = overhear::card("deploy", &json!({"service": "web"}), &result, &options);
//! // In a test: insta::assert_snapshot!(card);
//! assert!(card.contains("── assistant · deploy"));
//! # Ok::<(), overhear::Error>(())
//! ```
//!
//! The workflow: write the test with `insta::assert_snapshot!(overhear::card(…))`,
//! run `cargo insta test`, review the new snapshot with `cargo insta review`
//! (it shows the card as a user will see it), commit it. When the tool's
//! output or style changes, the snapshot diff shows what users and the model
//! will see differently. The output is deterministic: the same input and
//! options give the same text on every machine (no terminal is queried; no
//! colour unless asked with [`Color`]).
//!
//! Whole conversations render the same way: [`Conversation::open`] (a JP
//! `events.json`, conversation folder or workspace, or an eve stream) or
//! [`Conversation::from_bytes`], then [`render()`] with [`RenderOptions`] —
//! the same bytes as `overhear render` with the same options.
//!
//! # The surface
//!
//! [`Conversation`], [`RenderOptions`] and [`render()`]; [`ToolResult`],
//! [`CardOptions`], [`CardView`] and [`card()`]; [`Styles`], [`View`],
//! [`Color`], [`Theme`], [`MAX_WIDTH`], and [`Error`] with its
//! [`ErrorKind`]. These are plain types; options are `#[non_exhaustive]`
//! with `Default` and `with_*` setters, so options can be added without
//! breaking callers. Everything else in the crate serves the
//! binary and may change in any release.
//!
//! # Inside
//!
//! Data flows one way: source → format → model → policy → render (document,
//! then layout) → tui / cli, with one text layer that sanitizes, measures and
//! wraps every byte bound for a terminal. The library calls above run the
//! same path as the binary: there is no second renderer. It is not a
//! conversation editor: nothing here ever writes to, locks or renames the
//! files it reads.

mod api;

/// Declares the stages behind the library's surface. They are `pub(crate)`:
/// a dependent sees only the surface above, and `cargo doc` shows exactly
/// that. The `internals` feature makes them `pub` for the project's own
/// integration tests, benchmarks, examples and fuzz targets (Cargo.toml
/// turns it on for them through a dev-dependency on this crate); it is not
/// part of the library's promise and may change in any release.
macro_rules! stages {
    ($($(#[$attribute:meta])* $name:ident;)*) => {$(
        $(#[$attribute])*
        #[cfg(feature = "internals")]
        pub mod $name;
        $(#[$attribute])*
        #[cfg(not(feature = "internals"))]
        pub(crate) mod $name;
    )*};
}

stages! {
    #[cfg(feature = "cli")]
    demo;
    #[cfg(feature = "cli")]
    export;
    files;
    format;
    load;
    model;
    policy;
    problem;
    redact;
    render;
    #[cfg(feature = "cli")]
    search;
    source;
    text;
    #[cfg(feature = "cli")]
    travel;
    #[cfg(feature = "cli")]
    tui;
}

/// The program, with the `cli` feature: [`cli::main`] runs the command line
/// (`src/main.rs` calls it and nothing else); the rest of it is private.
#[cfg(feature = "cli")]
pub mod cli;

pub use api::{
    CardOptions, CardView, Color, Conversation, Error, ErrorKind, MAX_WIDTH, RenderOptions, Styles,
    Theme, ToolResult, View, card, render,
};
