//! Running totals over a conversation's turns for the viewer's chrome: the
//! token totals of the status bar and the questions `--notify` tells of.
//!
//! They are kept turn by turn, each turn's entry summing the turns up to it,
//! so that an update recomputes only the turns it touched: appending a line
//! to a long stream costs what the line costs, not a pass over every turn
//! (reading each turn's facts back is a copy of them).

use crate::model::{Conversation, EventKind, facts};
use crate::usage::{self, Cost, SessionCost};

/// The totals up to and including one turn.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Upto {
    /// Input and output tokens, when any turn so far stated some.
    tokens: Option<(u64, u64)>,
    /// What the turns so far cost (recorded, or priced from their tokens).
    cost: SessionCost,
    /// How many questions (`inquiry_request`s) were asked.
    questions: usize,
    /// The event index of the latest question.
    last_question: Option<usize>,
}

/// The totals of a conversation, turn by turn.
#[derive(Debug, Default)]
pub(super) struct TurnTally {
    upto: Vec<Upto>,
}

impl TurnTally {
    /// Brings the totals up to date with `conv`, keeping those of the first
    /// `untouched` turns (their events are as they were when counted).
    pub(super) fn update(&mut self, conv: &Conversation, untouched: usize) {
        self.upto.truncate(untouched.min(conv.turns.len()));
        for turn in &conv.turns[self.upto.len()..] {
            let mut upto = self.upto.last().copied().unwrap_or_default();
            for i in turn.events.clone() {
                let event = &conv.events[i];
                match event.kind {
                    EventKind::TurnStart => {
                        let Some(info) = facts::turn_info(event) else {
                            continue;
                        };
                        if info.input_tokens.is_some() || info.output_tokens.is_some() {
                            let (input, output) = upto.tokens.get_or_insert((0, 0));
                            *input += info.input_tokens.unwrap_or(0);
                            *output += info.output_tokens.unwrap_or(0);
                        }
                        if let Some(cost) = Cost::of(&info, usage::prices()) {
                            upto.cost.add(cost);
                        }
                    }
                    EventKind::InquiryRequest { .. } => {
                        upto.questions += 1;
                        upto.last_question = Some(i);
                    }
                    _ => {}
                }
            }
            self.upto.push(upto);
        }
    }

    /// The token totals for the status bar (`Σ 12.3k in / 950 out tokens`),
    /// when any turn stated its tokens.
    pub(super) fn usage(&self) -> Option<String> {
        let (input, output) = self.upto.last()?.tokens?;
        Some(format!(
            "Σ {} in / {} out tokens",
            short(input),
            short(output)
        ))
    }

    /// What the turns cost so far, for the status bar (`~$0.0421`, `$1.20 +
    /// not priced`, `not priced`), when any turn stated its cost or tokens.
    pub(super) fn cost(&self) -> Option<String> {
        self.upto.last()?.cost.label()
    }

    /// How many questions were asked, and the text of the latest.
    pub(super) fn questions(&self, conv: &Conversation) -> (usize, String) {
        let Some(upto) = self.upto.last() else {
            return (0, String::new());
        };
        let text = match upto.last_question.map(|i| &conv.events[i].kind) {
            Some(EventKind::InquiryRequest { question, .. }) => {
                match question.get("text").and_then(|t| t.as_str()) {
                    Some(text) => text.to_string(),
                    None => question.to_string(),
                }
            }
            _ => String::new(),
        };
        (upto.questions, text)
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
    use serde_json::json;

    use super::*;
    use crate::model::Event;

    /// A turn that used `tokens` input and output tokens and asked `asks`
    /// questions.
    fn turn(tokens: Option<u64>, asks: &[&str]) -> Vec<Event> {
        let mut start = Event::new(None, EventKind::TurnStart);
        if let Some(n) = tokens {
            let info = facts::TurnInfo {
                input_tokens: Some(n),
                output_tokens: Some(n / 10),
                ..facts::TurnInfo::default()
            };
            facts::set_value(&mut start, facts::TURN, &info);
        }
        let mut events = vec![start];
        for (k, text) in asks.iter().enumerate() {
            events.push(Event::new(
                None,
                EventKind::InquiryRequest {
                    id: format!("q{k}"),
                    source: Box::new(json!({"source": "assistant"})),
                    question: Box::new(json!({"text": text})),
                },
            ));
        }
        events
    }

    #[test]
    fn totals_kept_for_untouched_turns_are_those_counted_from_scratch() {
        let turns = [
            turn(Some(1_000), &[]),
            turn(None, &["first?"]),
            turn(Some(2_500), &["second?", "third?"]),
        ];
        let mut conv = Conversation::new(turns[0].clone(), None, None);
        let mut tally = TurnTally::default();
        tally.update(&conv, 0);
        assert_eq!(tally.usage().as_deref(), Some("Σ 1.0k in / 100 out tokens"));
        assert_eq!(tally.questions(&conv), (0, String::new()));
        for next in &turns[1..] {
            let untouched = conv.extend(next.clone());
            tally.update(&conv, untouched);
            let mut fresh = TurnTally::default();
            fresh.update(&conv, 0);
            assert_eq!(tally.upto, fresh.upto);
        }
        assert_eq!(tally.usage().as_deref(), Some("Σ 3.5k in / 350 out tokens"));
        assert_eq!(tally.questions(&conv), (3, "third?".to_string()));
        // A turn changed in place is counted again.
        conv.events[3] = turn(Some(1_000_000), &[]).remove(0);
        let untouched = conv.regroup_from(3);
        assert!(untouched < 3);
        tally.update(&conv, untouched);
        assert_eq!(
            tally.usage().as_deref(),
            Some("Σ 1.0M in / 100.1k out tokens")
        );
        assert_eq!(tally.questions(&conv), (3, "third?".to_string()));
    }

    /// The status bar sums what the turns cost: recorded, else priced at
    /// the table's prices (`~$`), saying when some turn is not priced.
    #[test]
    fn the_totals_carry_the_cost() {
        let priced = |model: &str, cost: Option<f64>| {
            let mut start = Event::new(None, EventKind::TurnStart);
            let info = facts::TurnInfo {
                model: Some(model.to_owned()),
                input_tokens: Some(1_000_000),
                output_tokens: Some(100_000),
                cost,
                ..facts::TurnInfo::default()
            };
            facts::set_value(&mut start, facts::TURN, &info);
            vec![start]
        };
        // claude-sonnet-4-5: $3 per million in, $15 out: 3 + 1.5.
        let mut conv = Conversation::new(priced("claude-sonnet-4-5", None), None, None);
        let mut tally = TurnTally::default();
        tally.update(&conv, 0);
        assert_eq!(tally.cost().as_deref(), Some("~$4.50"));
        let untouched = conv.extend(priced("qwen3:0.6b", Some(0.5)));
        tally.update(&conv, untouched);
        assert_eq!(tally.cost().as_deref(), Some("~$5.00"));
        let untouched = conv.extend(priced("qwen3:0.6b", None));
        tally.update(&conv, untouched);
        assert_eq!(tally.cost().as_deref(), Some("~$5.00 + not priced"));
        assert_eq!(
            tally.usage().as_deref(),
            Some("Σ 3.0M in / 300.0k out tokens")
        );
    }
}
