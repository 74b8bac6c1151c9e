//! A session's figures for the index of `export --all`: when it started,
//! how long it ran, how many turns, tool calls and failures, the tokens it
//! used and its cost (recorded by the agent, else priced from the table). Counted once from the
//! conversation, then kept in the export's manifest so that a session that
//! did not change is not read again to list it.

use serde::{Deserialize, Serialize};

use crate::model::{Conversation, EventKind, facts};
use crate::render::duration::{epoch_millis, human};
use crate::usage::Cost;

/// What the index says of one session.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// The first stored timestamp, in milliseconds since the epoch.
    pub start: Option<i64>,
    /// From the first stored timestamp to the last, in milliseconds.
    pub duration: Option<u64>,
    /// How many turns.
    pub turns: usize,
    /// How many tool calls (the session's own, not its sub-agents').
    pub tool_calls: usize,
    /// How many tool results were failures.
    pub failures: usize,
    /// Input tokens summed over the turns that stated them.
    pub input_tokens: Option<u64>,
    /// Output tokens summed likewise.
    pub output_tokens: Option<u64>,
    /// Cost in USD summed over the turns with one: recorded by the agent,
    /// or computed from their tokens at the price table's list prices.
    pub cost: Option<f64>,
    /// Whether part of that cost was computed from the price table.
    #[serde(default)]
    pub estimated: bool,
    /// Turns that stated tokens for a model the price table does not price.
    #[serde(default)]
    pub not_priced: usize,
}

impl Figures {
    /// Counts the figures of `conv`.
    pub fn of(conv: &Conversation) -> Figures {
        let mut figures = Figures {
            turns: conv.turns.len(),
            ..Figures::default()
        };
        let mut first: Option<i64> = None;
        let mut last: Option<i64> = None;
        for event in &conv.events {
            if let Some(at) = event.timestamp.as_deref().and_then(epoch_millis) {
                first = Some(first.map_or(at, |f| f.min(at)));
                last = Some(last.map_or(at, |l| l.max(at)));
            }
            match &event.kind {
                EventKind::ToolCallRequest { .. } => figures.tool_calls += 1,
                EventKind::ToolCallResponse { is_error: true, .. } => figures.failures += 1,
                EventKind::TurnStart => {
                    if let Some(info) = facts::turn_info(event) {
                        add(&mut figures.input_tokens, info.input_tokens);
                        add(&mut figures.output_tokens, info.output_tokens);
                        match Cost::of(&info, crate::usage::prices()) {
                            Some(Cost::Recorded(dollars)) => {
                                *figures.cost.get_or_insert(0.0) += dollars;
                            }
                            Some(Cost::Priced(dollars)) => {
                                *figures.cost.get_or_insert(0.0) += dollars;
                                figures.estimated = true;
                            }
                            Some(Cost::NotPriced) => figures.not_priced += 1,
                            None => {}
                        }
                    }
                }
                _ => {}
            }
        }
        figures.start = first;
        figures.duration = first
            .zip(last)
            .and_then(|(f, l)| u64::try_from(l - f).ok());
        figures
    }

    /// The start as `2026-04-10 17:04 UTC`, or "".
    pub fn start_text(&self) -> String {
        self.start
            .and_then(|ms| jiff::Timestamp::from_millisecond(ms).ok())
            .map(|at| at.strftime("%Y-%m-%d %H:%M UTC").to_string())
            .unwrap_or_default()
    }

    /// The duration as people read it (`4m12s`), or "".
    pub fn duration_text(&self) -> String {
        self.duration.map(human).unwrap_or_default()
    }

    /// Tokens as `12.3k in / 950 out`, or "" when no turn stated any.
    pub fn tokens_text(&self) -> String {
        if self.input_tokens.is_none() && self.output_tokens.is_none() {
            return String::new();
        }
        format!(
            "{} in / {} out",
            short(self.input_tokens.unwrap_or(0)),
            short(self.output_tokens.unwrap_or(0))
        )
    }

    /// The cost as `$1.23` (recorded), `~$1.23` (priced from the table),
    /// with ` + not priced` when some turns could not be priced, `not
    /// priced` alone when none could, or "" when no turn said anything of
    /// its cost or tokens.
    pub fn cost_text(&self) -> String {
        let mark = if self.estimated { "~$" } else { "$" };
        match (self.cost, self.not_priced) {
            (Some(c), 0) => format!("{mark}{c:.2}"),
            (Some(c), _) => format!("{mark}{c:.2} + not priced"),
            (None, 0) => String::new(),
            (None, _) => "not priced".to_owned(),
        }
    }

    /// Whether the index has a cost to show for it.
    pub fn has_cost(&self) -> bool {
        self.cost.is_some() || self.not_priced > 0
    }
}

fn add(total: &mut Option<u64>, more: Option<u64>) {
    if let Some(more) = more {
        *total = Some(total.unwrap_or(0).saturating_add(more));
    }
}

/// A token count in a few characters: `950`, `12.3k`, `4.1M`.
fn short(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.1}k", n as f64 / 1e3),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

#[cfg(test)]
mod tests {
    use super::short;

    #[test]
    fn token_counts_are_short() {
        assert_eq!(short(950), "950");
        assert_eq!(short(12_345), "12.3k");
        assert_eq!(short(4_100_000), "4.1M");
    }
}
