//! A tool card's summary, the line a folded card shows: what happened, not
//! how many lines are folded — the tool, its subject (the command, path,
//! pattern or description), its outcome (failed, refused, aborted,
//! running…), how long it took and how large its result is.

use std::fmt::Write as _;

use serde_json::Value;

use super::escape;
use crate::model::{Conversation, EventKind, facts};
use crate::render::document::ToolCard;
use crate::render::duration;
use crate::text::sanitize::{SanitizeMode, sanitize};
use crate::text::truncate::truncate;

/// The widest a subject is shown (columns): the rest is in the card.
const SUBJECT_WIDTH: usize = 100;

/// How a call ended, as the card's class and summary say it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Outcome {
    /// It answered.
    Done,
    /// The tool failed.
    Failed,
    /// The user (or a rule of theirs) refused it.
    Refused,
    /// The turn was stopped before it answered.
    Aborted,
    /// No answer yet, and one may come.
    Running,
    /// No answer, and none will come.
    NoResponse,
}

impl Outcome {
    /// The outcome of `card`'s call.
    pub fn of(card: &ToolCard, conv: &Conversation) -> Outcome {
        match card.call.response.map(|r| &conv.events[r]) {
            Some(event) if facts::refused(event) => Outcome::Refused,
            Some(event) => match event.kind {
                EventKind::ToolCallResponse { is_error: true, .. } => Outcome::Failed,
                _ => Outcome::Done,
            },
            None if card.aborted => Outcome::Aborted,
            None if card.live => Outcome::Running,
            None => Outcome::NoResponse,
        }
    }

    /// The word the summary and the card's class use; none for `Done`.
    pub fn word(self) -> Option<&'static str> {
        match self {
            Outcome::Done => None,
            Outcome::Failed => Some("failed"),
            Outcome::Refused => Some("refused"),
            Outcome::Aborted => Some("aborted"),
            Outcome::Running => Some("running"),
            Outcome::NoResponse => Some("no-response"),
        }
    }
}

/// The summary of `card` as HTML (escaped): `name subject · outcome ·
/// duration · size`.
pub(super) fn summary(card: &ToolCard, conv: &Conversation) -> String {
    let request = &conv.events[card.call.request];
    let (name, arguments) = match &request.kind {
        EventKind::ToolCallRequest {
            name, arguments, ..
        } => (name.as_str(), Some(&**arguments)),
        _ => ("tool", None),
    };
    let clean = |text: &str| sanitize(text, SanitizeMode::Strip).into_owned();
    let mut out = format!("<span class=\"tool-name\">{}</span>", escape(&clean(name)));
    let subject = facts::subject(request)
        .map(str::to_string)
        .or_else(|| arguments.and_then(first_text));
    if let Some(subject) = subject.map(|s| first_line(&clean(&s))) {
        let _ = write!(
            out,
            " <span class=\"subject\">{}</span>",
            escape(&truncate(&subject, SUBJECT_WIDTH))
        );
    }
    let outcome = Outcome::of(card, conv);
    let mut tail: Vec<String> = Vec::new();
    if let Some(word) = outcome.word() {
        let text = match outcome {
            Outcome::Refused => match card.call.response.and_then(|r| facts::refusal_reason(&conv.events[r])) {
                Some(reason) => format!(
                    "refused: {}",
                    truncate(&first_line(&clean(reason)), SUBJECT_WIDTH / 2)
                ),
                None => "refused".into(),
            },
            Outcome::Running => "running…".into(),
            Outcome::NoResponse => "no response".into(),
            _ => word.into(),
        };
        tail.push(format!(
            "<span class=\"outcome {word}\">{}</span>",
            escape(&text)
        ));
    }
    let took = card.call.response.and_then(|response| {
        let start = request.timestamp.as_deref()?;
        let end = conv.events.get(response)?.timestamp.as_deref()?;
        duration::between(start, end).filter(|&ms| ms > 0)
    });
    if let Some(took) = took {
        tail.push(format!(
            "<span class=\"took\">{}</span>",
            duration::human(took)
        ));
    }
    if let Some(size) = result_size(card, conv) {
        tail.push(format!("<span class=\"size\">{size}</span>"));
    }
    for part in tail {
        let _ = write!(out, " · {part}");
    }
    out
}

/// The size of the call's result: `19 lines, 1.2 KiB`, `1 line, 6 bytes`,
/// `empty`; `None` when there is no result.
fn result_size(card: &ToolCard, conv: &Conversation) -> Option<String> {
    let EventKind::ToolCallResponse { content, .. } = &conv.events[card.call.response?].kind
    else {
        return None;
    };
    let text = content.plain_text();
    let images = content
        .views()
        .iter()
        .filter(|v| v.kind == "image")
        .count();
    let mut parts = Vec::new();
    if !text.is_empty() {
        let ends = text.trim_end_matches('\n').as_bytes();
        let lines = memchr::memchr_iter(b'\n', ends).count() + 1;
        let word = if lines == 1 { "line" } else { "lines" };
        parts.push(format!("{lines} {word}, {}", bytes(text.len())));
    }
    if images > 0 {
        let word = if images == 1 { "image" } else { "images" };
        parts.push(format!("{images} {word}"));
    }
    Some(if parts.is_empty() {
        "empty".into()
    } else {
        parts.join(", ")
    })
}

/// A size as a person reads it: `512 bytes`, `1.5 KiB`, `2 MiB`.
pub(super) fn bytes(n: usize) -> String {
    const UNITS: [(&str, u32); 2] = [("MiB", 20), ("KiB", 10)];
    for (unit, shift) in UNITS {
        let one = 1usize << shift;
        if n >= one {
            return format!("{:.1} {unit}", n as f64 / one as f64).replace(".0 ", " ");
        }
    }
    format!("{n} byte{}", if n == 1 { "" } else { "s" })
}

/// The first string among a call's arguments (a command, a path), for a
/// call whose reader named no subject.
fn first_text(arguments: &Value) -> Option<String> {
    match arguments {
        Value::String(text) => Some(text.clone()),
        Value::Object(map) => map.values().find_map(|v| v.as_str().map(str::to_string)),
        _ => None,
    }
    .filter(|text| !text.trim().is_empty())
}

/// The first line of `text` that holds anything, with ` …` when more follow.
fn first_line(text: &str) -> String {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("").to_string();
    match lines.next() {
        Some(_) => format!("{first} …"),
        None => first,
    }
}

#[cfg(test)]
mod tests {
    use super::{bytes, first_line, first_text};
    use serde_json::json;

    #[test]
    fn sizes_read_like_a_person_says_them() {
        assert_eq!(bytes(1), "1 byte");
        assert_eq!(bytes(512), "512 bytes");
        assert_eq!(bytes(1024), "1 KiB");
        assert_eq!(bytes(1536), "1.5 KiB");
        assert_eq!(bytes(3 << 20), "3 MiB");
    }

    #[test]
    fn a_subject_is_one_line() {
        assert_eq!(first_line("\n  make all\nmore"), "make all …");
        assert_eq!(
            first_text(&json!({"n": 3, "path": "src/a.rs"})),
            Some("src/a.rs".into())
        );
        assert_eq!(first_text(&json!({"n": 3})), None);
    }
}
