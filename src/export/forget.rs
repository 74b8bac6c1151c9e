//! Letting go of the conversation as the HTML export goes: once a turn is
//! laid out, the texts of the events no later turn reads are forgotten
//! ([`crate::model::Event::forget_text`]), so the export holds the
//! conversation's texts whole only at its start, and its pages' HTML
//! takes their place as it grows (docs/benchmarks.md, "Export").

use crate::model::Conversation;

/// Which events the turns still to be laid out read.
pub(super) struct Forgetting {
    /// For each turn (by index), the first event it or a later turn reads:
    /// its own events, and every event its items name (a call answered in a
    /// later turn names an event past its own).
    first_read: Vec<usize>,
    /// How many turns are laid out.
    turns_done: usize,
    /// The events before this one are forgotten.
    done: usize,
}

impl Forgetting {
    /// What `conv`'s turns read.
    pub(super) fn new(conv: &Conversation) -> Self {
        let mut first_read = vec![0; conv.turns.len()];
        let mut low = conv.events.len();
        for (index, turn) in conv.turns.iter().enumerate().rev() {
            let named = turn.events_named().min().unwrap_or(usize::MAX);
            low = low.min(turn.events.start).min(named);
            first_read[index] = low;
        }
        Forgetting {
            first_read,
            turns_done: 0,
            done: 0,
        }
    }

    /// Forgets, once the next turn is laid out (turns in order), the texts
    /// of the events before the first one a later turn reads.
    pub(super) fn after_turn(&mut self, conv: &mut Conversation) {
        self.turns_done += 1;
        let upto = self
            .first_read
            .get(self.turns_done)
            .copied()
            .unwrap_or(conv.events.len())
            .min(conv.events.len());
        if let Some(events) = conv.events.get_mut(self.done..upto) {
            events.iter_mut().for_each(|event| event.forget_text());
        }
        self.done = self.done.max(upto);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;

    use super::Forgetting;
    use crate::model::{ChatResponse, Content, Conversation, Event, EventKind, FORGOTTEN, Item};

    fn prompt(text: &str) -> Event {
        let content = text.to_string();
        Event::new(
            None,
            EventKind::ChatRequest {
                content,
                author: None,
                schema: None,
            },
        )
    }

    fn said(event: &Event) -> String {
        match &event.kind {
            EventKind::ChatRequest { content, .. } => content.clone(),
            EventKind::ChatResponse(ChatResponse::Message(Some(text))) => text.clone(),
            EventKind::ToolCallRequest { arguments, .. } => arguments.to_string(),
            EventKind::ToolCallResponse {
                content: Content::Text(text),
                ..
            } => text.clone(),
            EventKind::ConfigDelta { delta } => delta.value().to_string(),
            other => panic!("not a text: {other:?}"),
        }
    }

    /// Turn 1: a prompt, a reply, a call answered only in turn 2; turn 2: a
    /// configuration change, a prompt, the answer.
    fn conversation() -> Conversation {
        let events = vec![
            Event::new(None, EventKind::TurnStart),
            prompt("one"),
            Event::new(
                None,
                EventKind::ChatResponse(ChatResponse::Message(Some("reply".into()))),
            ),
            Event::new(
                None,
                EventKind::ToolCallRequest {
                    id: "a".into(),
                    name: "shell".into(),
                    arguments: Arc::new(json!({"command": "ls"})),
                },
            ),
            Event::new(None, EventKind::TurnStart),
            Event::new(
                None,
                EventKind::ConfigDelta {
                    delta: json!({"style": {}}).into(),
                },
            ),
            prompt("two"),
            Event::new(
                None,
                EventKind::ToolCallResponse {
                    id: "a".into(),
                    content: Content::Text("late".into()),
                    is_error: false,
                },
            ),
        ];
        Conversation::new(events, None, None)
    }

    #[test]
    fn a_turn_laid_out_is_forgotten_but_what_a_later_turn_reads() {
        let mut conv = conversation();
        assert_eq!(conv.turns.len(), 2);
        let mut forgetting = Forgetting::new(&conv);
        forgetting.after_turn(&mut conv);
        let texts: Vec<String> = [1, 2, 3, 5, 6, 7].map(|i| said(&conv.events[i])).into();
        let call = json!(FORGOTTEN).to_string();
        assert_eq!(
            texts,
            [FORGOTTEN, FORGOTTEN, &call, r#"{"style":{}}"#, "two", "late"],
            "turn 1's texts gone; turn 2's, its configuration and the answer kept"
        );
        forgetting.after_turn(&mut conv);
        assert_eq!(said(&conv.events[6]), FORGOTTEN);
        assert_eq!(said(&conv.events[7]), FORGOTTEN);
        assert_eq!(said(&conv.events[5]), r#"{"style":{}}"#, "a configuration stays");
    }

    #[test]
    fn an_event_a_later_turn_names_is_kept_wherever_it_is_stored() {
        let mut conv = conversation();
        // A later turn that names turn 1's prompt (no reader makes one
        // today: a call's turn is its request's, and answers come later).
        conv.turns[1].items.push(Item::UserMessage(1));
        let mut forgetting = Forgetting::new(&conv);
        forgetting.after_turn(&mut conv);
        assert_eq!(said(&conv.events[1]), "one");
        assert_eq!(said(&conv.events[2]), "reply", "kept: stored after what turn 2 reads");
        forgetting.after_turn(&mut conv);
        assert_eq!(said(&conv.events[1]), FORGOTTEN);
    }
}
