//! How long a followed agent transcript has gone unwritten, for the rule
//! that takes its agent as gone (docs/agents.md, "When a transcript is
//! finished").
//!
//! The file's modification time alone is not enough: a transcript copied
//! (`cp` without `-p`), touched or restored from a backup gets a new time
//! but no new content, and its last turn, left mid-call a year ago, would
//! show `● following` and `running 378d17h`. Until the viewer has seen the
//! file grow, the newest time its content states bounds how recently it was
//! written; after that, the file's time alone says it.

use std::time::{Duration, SystemTime};

use crate::model::Conversation;
use crate::render::duration::epoch_millis;

/// How long the agent has been quiet at `now` (ms since the epoch): since
/// `modified`, the file's last write, or since the newest time its events
/// state when that is earlier and the file has not `grown` while followed.
/// `None` without a file time.
pub(super) fn quiet_for(
    modified: Option<SystemTime>,
    conv: &Conversation,
    now: Option<i64>,
    grown: bool,
) -> Option<Duration> {
    let written = modified?.elapsed().unwrap_or_default();
    if grown {
        return Some(written);
    }
    let stated = now
        .zip(last_stated(conv))
        .and_then(|(now, said)| u64::try_from(now - said).ok().map(Duration::from_millis));
    Some(stated.map_or(written, |stated| stated.max(written)))
}

/// The newest time (ms since the epoch) the conversation's events state:
/// the last event that states a readable one.
pub(super) fn last_stated(conv: &Conversation) -> Option<i64> {
    conv.events
        .iter()
        .rev()
        .find_map(|event| epoch_millis(event.timestamp.as_deref()?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Event, EventKind};

    fn conversation_written_at(stamp: &str) -> Conversation {
        let event = Event::new(Some(stamp.to_string()), EventKind::TurnStart);
        Conversation::new(vec![event], None, None)
    }

    const NOW: i64 = 1_764_600_000_000; // 2025-12-01T14:40:00Z

    #[test]
    fn a_copied_transcript_is_as_quiet_as_its_content_says() {
        let conv = conversation_written_at("2024-11-17T21:30:28Z");
        let quiet =
            quiet_for(Some(SystemTime::now()), &conv, Some(NOW), false).expect("a file time");
        assert!(quiet > Duration::from_secs(300 * 24 * 3600), "{quiet:?}");
    }

    #[test]
    fn once_the_file_grew_its_time_alone_counts() {
        let conv = conversation_written_at("2024-11-17T21:30:28Z");
        let quiet =
            quiet_for(Some(SystemTime::now()), &conv, Some(NOW), true).expect("a file time");
        assert!(quiet < Duration::from_secs(60), "{quiet:?}");
    }

    #[test]
    fn content_stated_later_than_the_file_time_does_not_shorten_the_quiet() {
        let conv = conversation_written_at("2025-12-01T14:39:59Z");
        let two_minutes = Duration::from_secs(120);
        let quiet = quiet_for(
            Some(SystemTime::now() - two_minutes),
            &conv,
            Some(NOW),
            false,
        )
        .expect("a file time");
        assert!(quiet >= two_minutes, "{quiet:?}");
    }

    #[test]
    fn without_a_file_time_nothing_is_said() {
        let conv = conversation_written_at("2024-11-17T21:30:28Z");
        assert_eq!(quiet_for(None, &conv, Some(NOW), false), None);
    }
}
