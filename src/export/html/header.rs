//! The figures of a session and of each turn — model, time, duration, tool
//! calls, failures, tokens, cost — and how the page says them: the
//! session's header (a list of facts under the title: the session's
//! figures as `overhear sessions` counts them, `export::figures::Session`)
//! and the line under each turn's heading.

use std::fmt::Write as _;

use super::{escape, escape_into};
use crate::model::facts::{TurnEnd, TurnInfo};
use crate::render::duration;
use crate::render::layout::display_timestamp;
use crate::text::count::thousands;
use crate::text::sanitize::{SanitizeMode, sanitize};
use crate::export::figures::Session;
use crate::usage::Cost;

/// What a turn, or the whole session, amounts to.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Figures {
    /// Turns counted (1 for a turn).
    pub turns: usize,
    /// When it started, as the turn rule shows it (`2026-04-10 17:04:00 UTC`).
    pub start: Option<String>,
    /// How long it took (milliseconds).
    pub took: Option<u64>,
    /// The models, in order of first use.
    pub models: Vec<String>,
    /// Tool calls.
    pub calls: usize,
    /// Tool calls that failed (refused ones are not failures).
    pub failures: usize,
    /// Tool calls the user refused.
    pub refused: usize,
    /// Input tokens, when any turn recorded them.
    pub input: Option<u64>,
    /// Output tokens.
    pub output: Option<u64>,
    /// Input tokens read from the prompt cache.
    pub cache_read: Option<u64>,
    /// Input tokens written to the prompt cache.
    pub cache_write: Option<u64>,
    /// Cost in USD of the turns that have one.
    pub cost: Option<f64>,
    /// Whether any of that cost was computed from tokens at list prices
    /// (shown `~$`) rather than recorded by the agent.
    pub estimated: bool,
    /// Turns that used a model but have no cost: their model has no price.
    pub unpriced: usize,
    /// How the turn ended, when not normally.
    pub ended: Option<TurnEnd>,
    /// The turn's error (`code: message`).
    pub error: Option<String>,
}

impl Figures {
    /// A turn's figures from its rule: `timestamp` its first event's,
    /// `took` its duration, `info` what its format recorded.
    pub fn of_turn(timestamp: Option<&str>, took: Option<u64>, info: Option<&TurnInfo>) -> Self {
        let clean = |text: &str| sanitize(text, SanitizeMode::Strip).into_owned();
        let mut figures = Figures {
            turns: 1,
            start: timestamp.map(|t| display_timestamp(&clean(t))),
            took,
            ..Figures::default()
        };
        if let Some(info) = info {
            figures.models.extend(info.model.as_deref().map(clean));
            figures.input = info.input_tokens;
            figures.output = info.output_tokens;
            figures.cache_read = info.cache_read_tokens;
            figures.cache_write = info.cache_write_tokens;
            match Cost::of(info, crate::usage::prices()) {
                Some(Cost::Recorded(dollars)) => figures.cost = Some(dollars),
                Some(Cost::Priced(dollars)) => {
                    figures.cost = Some(dollars);
                    figures.estimated = true;
                }
                Some(Cost::NotPriced) => figures.unpriced = 1,
                None => {}
            }
            figures.ended = info.ended.filter(|e| *e != TurnEnd::Completed);
            figures.error = info.error.as_ref().map(|e| {
                let text = match (e.code.is_empty(), e.message.is_empty()) {
                    (false, false) => format!("{}: {}", e.code, e.message),
                    (true, _) => e.message.clone(),
                    (false, true) => e.code.clone(),
                };
                clean(&text)
            });
        }
        figures
    }

    /// The session's figures ([`Session`]: what `overhear sessions`
    /// counts, and the models, refusals and cache tokens beside it).
    pub fn of_session(session: &Session) -> Self {
        let summary = &session.summary;
        Figures {
            turns: summary.turns,
            start: summary
                .started
                .map(|at| at.strftime("%Y-%m-%d %H:%M:%S UTC").to_string()),
            took: session.duration(),
            models: session
                .models
                .iter()
                .map(|m| sanitize(m, SanitizeMode::Strip).into_owned())
                .collect(),
            calls: summary.tool_calls,
            failures: summary.failures.saturating_sub(session.refused_errors),
            refused: session.refused,
            input: summary.input_tokens,
            output: summary.output_tokens,
            cache_read: session.cache_read,
            cache_write: session.cache_write,
            cost: session.cost(),
            estimated: summary.cost.estimated,
            unpriced: summary.cost.not_priced,
            ended: None,
            error: None,
        }
    }

    /// The calls: `3 tool calls`, with failures and refusals.
    fn calls_text(&self) -> String {
        let mut text = count(self.calls, "tool call", "tool calls");
        if self.failures > 0 {
            let _ = write!(text, ", {} failed", self.failures);
        }
        if self.refused > 0 {
            let _ = write!(text, ", {} refused", self.refused);
        }
        text
    }

    /// The tokens: `12,345 in / 678 out`, `None` when none were recorded.
    fn tokens_text(&self) -> Option<String> {
        let mut text = match (self.input, self.output) {
            (None, None) => return None,
            (input, output) => format!(
                "{} in / {} out",
                input.map_or("?".into(), thousands),
                output.map_or("?".into(), thousands)
            ),
        };
        let cache: Vec<String> = [(self.cache_read, "read"), (self.cache_write, "written")]
            .into_iter()
            .filter_map(|(n, what)| n.filter(|n| *n > 0).map(|n| format!("{} {what}", thousands(n))))
            .collect();
        if !cache.is_empty() {
            let _ = write!(text, " (cache {})", cache.join(", "));
        }
        Some(text)
    }

    /// The cost: `$0.0123` as recorded, `~$0.0123` when computed from
    /// tokens at list prices, `not priced`, `$0.0123 (2 turns not priced)`;
    /// `None` when no turn states a cost or its tokens.
    fn cost_text(&self) -> Option<String> {
        let mark = if self.estimated { "~$" } else { "$" };
        match (self.cost, self.unpriced) {
            (Some(cost), 0) => Some(format!("{mark}{cost:.4}")),
            (Some(cost), n) => Some(format!(
                "{mark}{cost:.4} ({} not priced)",
                count(n, "turn", "turns")
            )),
            (None, 0) => None,
            (None, _) => Some("not priced".into()),
        }
    }

    /// The line under a turn's heading, escaped: time · duration · model ·
    /// calls · tokens · cost · how it ended.
    pub fn turn_line(&self) -> String {
        let mut line = String::new();
        let mut first = true;
        let mut part = |text: &str| {
            if !std::mem::take(&mut first) {
                line.push_str(" · ");
            }
            escape_into(text, &mut line);
        };
        if let Some(start) = &self.start {
            part(start);
        }
        if let Some(took) = self.took {
            part(&duration::human(took));
        }
        for model in &self.models {
            part(model);
        }
        if self.calls > 0 {
            part(&self.calls_text());
        }
        if let Some(tokens) = self.tokens_text() {
            part(&format!("{tokens} tokens"));
        }
        if let Some(cost) = self.cost_text() {
            part(&cost);
        }
        match self.ended {
            Some(TurnEnd::Failed) => part("failed"),
            Some(TurnEnd::Cancelled) => part("cancelled"),
            _ => {}
        }
        line
    }

    /// The session's facts as `<dt>`/`<dd>` pairs, escaped.
    pub fn session_list(&self, agent: Option<&str>, project: Option<&str>) -> String {
        let mut rows: Vec<(&str, String)> = Vec::new();
        rows.extend(agent.map(|a| ("agent", a.to_string())));
        if !self.models.is_empty() {
            let name = if self.models.len() == 1 {
                "model"
            } else {
                "models"
            };
            rows.push((name, self.models.join(", ")));
        }
        rows.extend(project.map(|p| ("project", p.to_string())));
        rows.extend(self.start.clone().map(|s| ("started", s)));
        rows.extend(self.took.map(|t| ("duration", duration::human(t))));
        rows.push(("turns", thousands(self.turns)));
        rows.push(("tool calls", {
            let mut text = thousands(self.calls);
            if self.failures > 0 || self.refused > 0 {
                let _ = write!(
                    text,
                    " ({} failed, {} refused)",
                    self.failures, self.refused
                );
            }
            text
        }));
        rows.extend(self.tokens_text().map(|t| ("tokens", t)));
        rows.extend(self.cost_text().map(|c| ("cost", c)));
        let mut out = String::from("<dl>");
        for (name, value) in rows {
            let _ = write!(out, "<dt>{name}</dt><dd>{}</dd>", escape(&value));
        }
        out.push_str("</dl>\n");
        out
    }
}

/// `1 turn`, `3 turns`.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::Figures;
    use crate::model::facts::TurnInfo;

    #[test]
    fn a_turn_says_its_model_tokens_and_cost_or_that_it_is_not_priced() {
        let info = TurnInfo {
            model: Some("claude-x".into()),
            input_tokens: Some(12_345),
            output_tokens: Some(678),
            cache_read_tokens: Some(1_000),
            cost: Some(0.0123),
            ..TurnInfo::default()
        };
        let turn = Figures::of_turn(Some("2026-04-10T17:04:00Z"), Some(12_000), Some(&info));
        let line = turn.turn_line();
        assert!(line.starts_with("2026-04-10 17:04:00 UTC · 12s · claude-x"), "{line}");
        assert!(line.contains("12,345 in / 678 out (cache 1,000 read) tokens"), "{line}");
        assert!(line.ends_with("$0.0123"), "{line}");
        let unpriced = Figures::of_turn(
            None,
            None,
            Some(&TurnInfo {
                cost: None,
                ..info.clone()
            }),
        );
        assert!(unpriced.turn_line().ends_with("not priced"));
        let session = Figures {
            turns: 2,
            models: vec!["claude-x".into()],
            cost: Some(0.0123),
            unpriced: 1,
            ..Figures::default()
        };
        let list = session.session_list(Some("Claude Code"), Some("~/src/app"));
        assert!(list.contains("<dt>cost</dt><dd>$0.0123 (1 turn not priced)</dd>"), "{list}");
        assert!(list.contains("<dt>model</dt><dd>claude-x</dd>"), "{list}");
        assert!(list.contains("<dt>turns</dt><dd>2</dd>"), "{list}");
    }

    #[test]
    fn a_turn_with_tokens_and_no_recorded_cost_is_priced_from_the_table() {
        let info = TurnInfo {
            model: Some("claude-sonnet-4-5-20250929".into()),
            input_tokens: Some(1_000_000),
            output_tokens: Some(100_000),
            ..TurnInfo::default()
        };
        let price = crate::usage::prices()
            .of("claude-sonnet-4-5")
            .expect("the table prices it");
        let dollars = price.input + price.output / 10.0;
        let turn = Figures::of_turn(None, None, Some(&info));
        assert!(turn.turn_line().ends_with(&format!("~${dollars:.4}")), "{}", turn.turn_line());
    }
}
