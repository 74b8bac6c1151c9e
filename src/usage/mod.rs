//! What a conversation cost: a price table per model (`prices.toml`, from
//! LiteLLM's price list, overridable in the user configuration) and the cost
//! of a turn or a session computed from the tokens a transcript records when
//! the agent recorded no cost itself (docs/config.md, "Prices").
//!
//! A model the table does not price is *not priced*, never $0: a figure that
//! leaves turns out says so.
//!
//! The table in force for a run is set once, by the command line after it
//! reads the user configuration ([`use_prices`]); every stage that shows a
//! cost (the turn rule, the status bar, `overhear sessions`, the exports)
//! reads it through [`prices`]. Without a configuration it is the built-in
//! table.

mod cost;
mod prices;
// The figures of a listing: only the program lists sessions.
#[cfg(feature = "cli")]
mod summary;

use std::sync::OnceLock;

pub use cost::Cost;
#[cfg(feature = "cli")]
pub use cost::SessionCost;
#[cfg(feature = "cli")]
pub use prices::{PriceError, Prices};
#[cfg(feature = "cli")]
pub use summary::Summary;

/// The price table of this run, once set or first read.
static IN_FORCE: OnceLock<prices::Prices> = OnceLock::new();

/// The price table in force: the one [`use_prices`] set, else the built-in
/// table.
pub fn prices() -> &'static prices::Prices {
    IN_FORCE.get_or_init(prices::Prices::builtin)
}

/// Makes `table` the price table of this run. Only the first call counts,
/// and only before any cost was shown: the command line calls it once, as it
/// reads the user configuration, before anything is rendered.
#[cfg(feature = "cli")]
pub fn use_prices(table: Prices) {
    let _ = IN_FORCE.set(table);
}
