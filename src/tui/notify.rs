//! `--notify`: telling a user who is not looking that a turn ended or that the
//! agent asked something — the terminal's bell, and a desktop notification by
//! OSC 9 (iTerm2, WezTerm, kitty, Windows Terminal…) and OSC 777 (urxvt,
//! foot, VTE terminals such as GNOME Terminal). A terminal that knows neither
//! ignores them. The text comes from the conversation: it is stripped of every
//! control character and kept to [`MAX_CHARS`].

use super::blocks::Attention;
use crate::text::sanitize::{SanitizeMode, sanitize};

/// The longest notification text, in characters.
pub const MAX_CHARS: usize = 80;

/// What to say when `after` has more to tell than `before`: a question first
/// (it waits for the user), else the turn that ended. `title` names the
/// conversation.
pub fn message(before: &Attention, after: &Attention, title: &str) -> Option<String> {
    let text = if after.questions > before.questions {
        format!("overhear: question — {}", after.last_question)
    } else if after.ended_turns > before.ended_turns {
        format!("overhear: turn {} ended — {title}", after.ended_turns)
    } else {
        return None;
    };
    Some(clean(&text))
}

/// One line of at most [`MAX_CHARS`] characters without control characters.
fn clean(text: &str) -> String {
    let flat: String = sanitize(text, SanitizeMode::Strip)
        .chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .collect();
    let flat = flat.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= MAX_CHARS {
        return flat;
    }
    let mut cut: String = flat.chars().take(MAX_CHARS - 1).collect();
    cut.push('…');
    cut
}

/// The bytes that ring the bell and send `text` (already clean) as OSC 9 and
/// OSC 777 notifications.
pub fn sequence(text: &str) -> String {
    format!("\x07\x1b]9;{text}\x1b\\\x1b]777;notify;overhear;{text}\x1b\\")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attention(ended_turns: usize, questions: usize, last_question: &str) -> Attention {
        Attention {
            ended_turns,
            questions,
            last_question: last_question.to_string(),
        }
    }

    #[test]
    fn a_question_or_an_ended_turn_is_told_and_nothing_else() {
        let before = attention(1, 0, "");
        assert_eq!(message(&before, &before, "t"), None);
        assert_eq!(
            message(&before, &attention(2, 0, ""), "Fixing the parser").as_deref(),
            Some("overhear: turn 2 ended — Fixing the parser")
        );
        assert_eq!(
            message(&before, &attention(2, 1, "Deploy now?"), "t").as_deref(),
            Some("overhear: question — Deploy now?")
        );
    }

    #[test]
    fn the_text_is_one_clean_line_of_at_most_80_characters() {
        let hostile = "Run \x1b]52;c;ZXZpbA==\x07 this?\n\trm -rf / ".repeat(5);
        let text = message(&attention(0, 0, ""), &attention(0, 1, &hostile), "t").unwrap();
        assert_eq!(text.chars().count(), MAX_CHARS);
        assert!(text.ends_with('…'));
        assert!(!text.chars().any(char::is_control), "{text:?}");
        assert_eq!(
            sequence("hi"),
            "\x07\x1b]9;hi\x1b\\\x1b]777;notify;overhear;hi\x1b\\"
        );
    }
}
