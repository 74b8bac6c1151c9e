//! A session's figures, counted once: [`usage::Summary`] — what `overhear
//! sessions` lists: turns, tool calls, failures, tokens, cost (recorded by
//! the agent, else priced from the table), first and last time — and
//! beside it what a page's header says too (the models, the refused calls,
//! the cache tokens): [`Session`]. The index of `export --all` keeps its
//! part as [`Figures`], in the export's manifest, so that a session that
//! did not change is not read again to list it; the page's header formats
//! the whole of it.

use serde::{Deserialize, Serialize};

use crate::model::{Conversation, EventKind, facts};
use crate::render::duration::human;
use crate::usage::{self, Summary};

/// A session's figures: [`Summary`] and what a page's header says beside it.
#[derive(Debug, Clone, PartialEq)]
pub struct Session {
    /// Turns, tool calls, failures, tokens, cost, first and last time, as
    /// `overhear sessions` counts them.
    pub summary: Summary,
    /// The models its turns name, in order of first use.
    pub models: Vec<String>,
    /// Tool calls the user refused (their results count among
    /// [`Summary::failures`] when the agent stored them as errors).
    pub refused: usize,
    /// Of those, the ones stored as errors.
    pub refused_errors: usize,
    /// Input tokens read from the prompt cache, when a turn stated them.
    pub cache_read: Option<u64>,
    /// Input tokens written to the prompt cache.
    pub cache_write: Option<u64>,
}

impl Session {
    /// The figures of `conv`, its turns priced with the table in force.
    pub fn of(conv: &Conversation) -> Session {
        let mut session = Session {
            summary: Summary::of(conv, usage::prices()),
            models: Vec::new(),
            refused: 0,
            refused_errors: 0,
            cache_read: None,
            cache_write: None,
        };
        for event in &conv.events {
            match &event.kind {
                EventKind::ToolCallResponse { is_error, .. } if facts::refused(event) => {
                    session.refused += 1;
                    session.refused_errors += usize::from(*is_error);
                }
                EventKind::TurnStart => {
                    let Some(info) = facts::turn_info(event) else {
                        continue;
                    };
                    if let Some(model) = info.model
                        && !session.models.contains(&model)
                    {
                        session.models.push(model);
                    }
                    add(&mut session.cache_read, info.cache_read_tokens);
                    add(&mut session.cache_write, info.cache_write_tokens);
                }
                _ => {}
            }
        }
        session
    }

    /// From the first stored time to the last, in milliseconds.
    pub fn duration(&self) -> Option<u64> {
        let (first, last) = self.summary.started.zip(self.summary.last)?;
        u64::try_from(last.as_millisecond() - first.as_millisecond()).ok()
    }

    /// The cost in USD of the turns with one, recorded or priced.
    pub fn cost(&self) -> Option<f64> {
        (self.summary.cost.costed > 0).then_some(self.summary.cost.dollars)
    }
}

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
    /// The index's figures of `conv` ([`Session`]).
    pub fn of(conv: &Conversation) -> Figures {
        Figures::of_session(&Session::of(conv))
    }

    /// The index's part of a session's figures.
    pub fn of_session(session: &Session) -> Figures {
        let summary = &session.summary;
        Figures {
            start: summary.started.map(|at| at.as_millisecond()),
            duration: session.duration(),
            turns: summary.turns,
            tool_calls: summary.tool_calls,
            failures: summary.failures,
            input_tokens: summary.input_tokens,
            output_tokens: summary.output_tokens,
            cost: session.cost(),
            estimated: summary.cost.estimated,
            not_priced: summary.cost.not_priced,
        }
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
