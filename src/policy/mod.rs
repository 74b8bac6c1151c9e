//! Tool display styles: parsing every accepted form and resolving them per turn.
//!
//! This module implements display-policy §3 on `serde_json::Value` configurations;
//! it reads the conversation's vocabulary (`model`) and nothing above it:
//!
//! * [`style`] — the [`ToolStyle`] type and the parsing of every form JP accepts;
//! * [`config`] — merging a base config with `config_delta`s ([`merge_config`]);
//! * [`overlay`] — the viewer's own TOML configuration and `--set` overrides;
//! * [`reasoning`] — how reasoning is shown ([`ReasoningDisplay`]);
//! * [`turn`] — [`TurnPolicy`]: every tool's resolved style for one turn;
//! * [`timeline`] — the policy in force turn by turn ([`PolicyTimeline`]);
//! * [`decide`] — what one result block gets ([`ToolStyle::block_display`]).
//!
//! It does not read conversations, know legacy generations, nor render anything.
//! The decisions taken where the spec is silent are in
//! `docs/display-policy-decisions.md`.

pub mod config;
pub mod decide;
pub mod error;
pub mod overlay;
pub mod reasoning;
pub mod style;
pub mod timeline;
pub mod turn;

#[cfg(any(test, feature = "internals"))]
pub use config::{effective_config, merge_config};
pub use decide::BlockDisplay;
#[cfg(any(test, feature = "internals"))]
pub use decide::Audience;
#[cfg(any(test, feature = "internals"))]
pub use error::StyleError;
pub use overlay::{Overlay, OverlayError};
pub use reasoning::ReasoningDisplay;
pub use style::{Parameters, ToolStyle};
#[cfg(any(test, feature = "internals"))]
pub use style::{InlineResults, LinkStyle, PartialToolStyle, ResultSetting, Strictness};
pub use timeline::{PolicyChange, PolicyTimeline};
pub use turn::TurnPolicy;

#[cfg(test)]
mod corpus_tests;
