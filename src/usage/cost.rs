//! The cost of a turn and of a session: what the agent recorded, else its
//! tokens at the price table's prices, else "not priced".

use super::prices::{Price, Prices};
use crate::model::facts;

/// What one turn cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cost {
    /// In US dollars, as the agent recorded it (OpenCode, eve streams).
    Recorded(f64),
    /// In US dollars, computed from the turn's tokens at the price table's
    /// prices (an estimate at list prices, shown `~$`).
    Priced(f64),
    /// The turn states its tokens but its model has no price (or is not
    /// named): never shown as $0.
    NotPriced,
}

impl Cost {
    /// The cost of the turn `info` describes: its recorded cost, else its
    /// input and output tokens at its model's price; `None` when it records
    /// neither a cost nor both token counts.
    pub fn of(info: &facts::TurnInfo, prices: &Prices) -> Option<Cost> {
        if let Some(dollars) = info.cost {
            return Some(Cost::Recorded(dollars));
        }
        let (Some(input), Some(output)) = (info.input_tokens, info.output_tokens) else {
            return None;
        };
        let price = info.model.as_deref().and_then(|model| prices.of(model));
        Some(match price {
            Some(price) => Cost::Priced(dollars(&price, input, output, info)),
            None => Cost::NotPriced,
        })
    }

    /// How the turn rule shows it: `$0.0123` as recorded, `~$0.0123` as
    /// priced, `not priced`.
    pub fn label(&self) -> String {
        match self {
            Cost::Recorded(d) => format!("${d:.4}"),
            Cost::Priced(d) => format!("~${d:.4}"),
            Cost::NotPriced => "not priced".to_owned(),
        }
    }
}

/// `input` and `output` tokens (the cached input counted among `input`, as
/// every reader hands it over) at `price`, in dollars.
fn dollars(price: &Price, input: u64, output: u64, info: &facts::TurnInfo) -> f64 {
    let read = info.cache_read_tokens.unwrap_or(0);
    let written = info.cache_write_tokens.unwrap_or(0);
    let fresh = input.saturating_sub(read.saturating_add(written));
    let per_million = fresh as f64 * price.input
        + read as f64 * price.cache_read.unwrap_or(price.input)
        + written as f64 * price.cache_write.unwrap_or(price.input)
        + output as f64 * price.output;
    per_million / 1e6
}

/// What a session cost: the sum of its turns' costs, and how many of its
/// turns could not be priced (for the program's status bar and listing).
#[cfg(feature = "cli")]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SessionCost {
    /// US dollars over the turns with a cost, recorded or priced.
    pub dollars: f64,
    /// How many turns had a cost.
    pub costed: usize,
    /// Whether some of it was priced from the table (an estimate).
    pub estimated: bool,
    /// How many turns stated tokens but could not be priced.
    pub not_priced: usize,
}

#[cfg(feature = "cli")]
impl SessionCost {
    /// Counts one more turn's cost.
    pub fn add(&mut self, cost: Cost) {
        match cost {
            Cost::Recorded(d) => {
                self.dollars += d;
                self.costed += 1;
            }
            Cost::Priced(d) => {
                self.dollars += d;
                self.costed += 1;
                self.estimated = true;
            }
            Cost::NotPriced => self.not_priced += 1,
        }
    }

    /// The sum as a user reads it: `$0.0123` (4 decimals below a dollar, 2
    /// above), `~` in front when part of it was priced from the table,
    /// ` + not priced` after it when some turns could not be priced, `not
    /// priced` alone when none could; `None` when no turn said anything of
    /// its cost or tokens.
    pub fn label(&self) -> Option<String> {
        if self.costed == 0 {
            return (self.not_priced > 0).then(|| "not priced".to_owned());
        }
        let approx = if self.estimated { "~" } else { "" };
        let figure = if self.dollars < 1.0 {
            format!("{approx}${:.4}", self.dollars)
        } else {
            format!("{approx}${:.2}", self.dollars)
        };
        Some(if self.not_priced > 0 {
            format!("{figure} + not priced")
        } else {
            figure
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(model: &str, input: u64, output: u64, read: u64, written: u64) -> facts::TurnInfo {
        facts::TurnInfo {
            model: Some(model.to_owned()),
            input_tokens: Some(input),
            output_tokens: Some(output),
            cache_read_tokens: Some(read),
            cache_write_tokens: Some(written),
            ..facts::TurnInfo::default()
        }
    }

    #[test]
    fn a_turn_is_priced_from_its_tokens_with_the_cache_apart() {
        let prices = Prices::builtin();
        // claude-sonnet-4-5: $3 in, $15 out, $0.30 cache read, $3.75 cache write.
        let info = turn("claude-sonnet-4-5-20250929", 10_000, 2_000, 6_000, 1_000);
        let expected = (3_000.0 * 3.0 + 6_000.0 * 0.3 + 1_000.0 * 3.75 + 2_000.0 * 15.0) / 1e6;
        let Some(Cost::Priced(d)) = Cost::of(&info, &prices) else {
            panic!("priced");
        };
        assert!((d - expected).abs() < 1e-12, "{d} vs {expected}");
        assert_eq!(Cost::Priced(d).label(), "~$0.0445");
    }

    #[test]
    fn a_recorded_cost_wins_and_an_unknown_model_is_not_priced() {
        let prices = Prices::builtin();
        let mut info = turn("qwen3:0.6b", 100, 10, 0, 0);
        assert_eq!(Cost::of(&info, &prices), Some(Cost::NotPriced));
        assert_eq!(Cost::NotPriced.label(), "not priced");
        info.cost = Some(0.5);
        assert_eq!(Cost::of(&info, &prices), Some(Cost::Recorded(0.5)));
        let nothing = facts::TurnInfo::default();
        assert_eq!(Cost::of(&nothing, &prices), None);
        let unnamed = facts::TurnInfo {
            input_tokens: Some(5),
            output_tokens: Some(5),
            ..facts::TurnInfo::default()
        };
        assert_eq!(Cost::of(&unnamed, &prices), Some(Cost::NotPriced));
    }

    #[cfg(feature = "cli")]
    #[test]
    fn a_session_sum_says_what_it_leaves_out() {
        let mut total = SessionCost::default();
        assert_eq!(total.label(), None);
        total.add(Cost::NotPriced);
        assert_eq!(total.label().as_deref(), Some("not priced"));
        total.add(Cost::Recorded(0.25));
        assert_eq!(total.label().as_deref(), Some("$0.2500 + not priced"));
        let mut priced = SessionCost::default();
        priced.add(Cost::Priced(1.0));
        priced.add(Cost::Recorded(2.456));
        assert_eq!(priced.label().as_deref(), Some("~$3.46"));
    }
}
