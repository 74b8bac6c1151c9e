//! What one session used, in figures: its turns, tool calls and failed
//! calls, tokens and cost, and when it started and last did something —
//! the columns of `overhear sessions`, and a session's figures for an
//! export's index.

use jiff::Timestamp;

use super::cost::{Cost, SessionCost};
use super::prices::Prices;
use crate::model::{Conversation, EventKind, facts, timestamp};

/// A session's figures (its own events, not its sub-agents').
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Summary {
    /// Its turns.
    pub turns: usize,
    /// Tool calls asked for.
    pub tool_calls: usize,
    /// Tool results that report a failure.
    pub failures: usize,
    /// Input tokens over its turns (cached input included), when any turn
    /// stated them.
    pub input_tokens: Option<u64>,
    /// Output tokens over its turns, when any turn stated them.
    pub output_tokens: Option<u64>,
    /// What its turns cost.
    pub cost: SessionCost,
    /// The time of its first event that states one.
    pub started: Option<Timestamp>,
    /// The time of its last event that states one.
    pub last: Option<Timestamp>,
}

impl Summary {
    /// The figures of `conv`, its turns priced with `prices` when they
    /// record no cost.
    pub fn of(conv: &Conversation, prices: &Prices) -> Summary {
        let mut summary = Summary {
            turns: conv.turns.len(),
            ..Summary::default()
        };
        for event in &conv.events {
            if let Some(at) = event.timestamp.as_deref().and_then(timestamp::parse) {
                summary.started = Some(summary.started.map_or(at, |s| s.min(at)));
                summary.last = Some(summary.last.map_or(at, |l| l.max(at)));
            }
            match &event.kind {
                EventKind::ToolCallRequest { .. } => summary.tool_calls += 1,
                EventKind::ToolCallResponse { is_error: true, .. } => summary.failures += 1,
                EventKind::TurnStart => {
                    if let Some(info) = facts::turn_info(event) {
                        summary.add_turn(&info, prices);
                    }
                }
                _ => {}
            }
        }
        summary
    }

    /// Counts one turn's tokens and cost (`info`, its `turn_start`'s
    /// facts), priced with `prices` when it records no cost: what
    /// [`Summary::of`] does for each turn, for figures read without a
    /// conversation (`overhear sessions`).
    pub fn add_turn(&mut self, info: &facts::TurnInfo, prices: &Prices) {
        if let Some(n) = info.input_tokens {
            *self.input_tokens.get_or_insert(0) += n;
        }
        if let Some(n) = info.output_tokens {
            *self.output_tokens.get_or_insert(0) += n;
        }
        if let Some(cost) = Cost::of(info, prices) {
            self.cost.add(cost);
        }
    }
}
