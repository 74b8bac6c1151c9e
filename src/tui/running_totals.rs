//! Running totals over a conversation's turns for the viewer's chrome: the
//! token totals of the status bar and the questions `--notify` tells of.
//!
//! They are kept turn by turn, each turn's entry summing the turns up to it,
//! so that an update recomputes only the turns it touched: appending a line
//! to a long stream costs what the line costs, not a pass over every turn
//! (reading each turn's facts back is a copy of them).

use crate::model::{Conversation, EventKind, facts};

/// The totals up to and including one turn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Upto {
    /// Input and output tokens, when any turn so far stated some.
    tokens: Option<(u64, u64)>,
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
                        if let Some(info) = facts::turn_info(event)
                            && (info.input_tokens.is_some() || info.output_tokens.is_some())
                        {
                            let (input, output) = upto.tokens.get_or_insert((0, 0));
                            *input += info.input_tokens.unwrap_or(0);
                            *output += info.output_tokens.unwrap_or(0);
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
}
