//! The three views of display-policy §2, as pure functions of the events.
//!
//! No configuration is involved: a view says what is *addressed* to whom, not
//! how it is displayed (that is `policy`).

use std::borrow::Cow;

use crate::model::{Block, ChatResponse, Content, Event, EventKind, facts};

/// Which projection of a conversation to take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// Every entry unchanged (after base64 decoding), unknown types included.
    #[cfg(feature = "cli")]
    Raw,
    /// What is addressed to the user; a projection, not a valid stream.
    User,
    /// What the model is sent back.
    Provider,
}

/// Text that replaces a successful result whose blocks were all withheld.
pub const PROVIDER_SUCCESS_PLACEHOLDER: &str = "Tool executed successfully.";
/// Text that replaces a failed result whose blocks were all withheld.
pub const PROVIDER_FAILURE_PLACEHOLDER: &str = "Tool failed.";

/// Applies `view` to `events`; the raw view is the events themselves, not a
/// copy (a followed stream's events are most of what it holds).
pub fn apply(view: View, events: &[Event]) -> Cow<'_, [Event]> {
    match view {
        #[cfg(feature = "cli")]
        View::Raw => Cow::Borrowed(events),
        View::User => Cow::Owned(current(events).filter_map(user_view).collect()),
        View::Provider => Cow::Owned(current(events).map(provider_view).collect()),
    }
}

/// Events a retry did not replace: a superseded attempt (eve's retried step)
/// was neither shown to the user nor sent to the model.
fn current(events: &[Event]) -> impl Iterator<Item = &Event> {
    events.iter().filter(|e| !facts::superseded(e))
}

fn user_view(event: &Event) -> Option<Event> {
    match &event.kind {
        EventKind::TurnStart | EventKind::ChatRequest { .. } => Some(event.clone()),
        EventKind::ChatResponse(ChatResponse::Reasoning(_)) => None,
        EventKind::ChatResponse(_) => Some(event.clone()),
        EventKind::ToolCallResponse {
            id,
            content,
            is_error,
        } => {
            let content = match content {
                Content::Text(_) => content.clone(),
                Content::Blocks(blocks) => {
                    let kept = keep_blocks(blocks, |b| b.audience().includes_user());
                    if kept.is_empty() {
                        return None;
                    }
                    Content::Blocks(kept)
                }
            };
            Some(Event {
                kind: EventKind::ToolCallResponse {
                    id: id.clone(),
                    content,
                    is_error: *is_error,
                },
                ..event.clone()
            })
        }
        _ => None,
    }
}

fn provider_view(event: &Event) -> Event {
    let EventKind::ToolCallResponse {
        id,
        content: Content::Blocks(blocks),
        is_error,
    } = &event.kind
    else {
        return event.clone();
    };
    let mut kept = keep_blocks(blocks, |b| b.audience().includes_assistant());
    if kept.is_empty() {
        let text = if *is_error {
            PROVIDER_FAILURE_PLACEHOLDER
        } else {
            PROVIDER_SUCCESS_PLACEHOLDER
        };
        kept.push(Block::text(text, None, None));
    }
    Event {
        kind: EventKind::ToolCallResponse {
            id: id.clone(),
            content: Content::Blocks(kept),
            is_error: *is_error,
        },
        ..event.clone()
    }
}

fn keep_blocks(blocks: &[Block], keep: impl Fn(&Block) -> bool) -> Vec<Block> {
    blocks.iter().filter(|b| keep(b)).cloned().collect()
}

#[cfg(test)]
mod tests;
