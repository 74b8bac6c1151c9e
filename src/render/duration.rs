//! How long things took, from the timestamps a conversation stores: stored
//! RFC 3339 times read as milliseconds since the epoch, and a duration shown
//! as people read one (`850ms`, `12s`, `4m12s`, `2h05m`). Pure functions of
//! the file: `render` stays deterministic.

use crate::model::timestamp;

/// Milliseconds since the Unix epoch of a stored timestamp (RFC 3339:
/// `2026-04-10T17:04:00Z`, `…T17:04:00.123+02:00`; a space may stand for
/// the `T`; see [`timestamp::parse`]); `None` for anything else.
pub fn epoch_millis(stored: &str) -> Option<i64> {
    timestamp::parse(stored).map(jiff::Timestamp::as_millisecond)
}

/// The time from `start` to `end` (stored timestamps), if both parse and
/// `end` is not earlier.
pub fn between(start: &str, end: &str) -> Option<u64> {
    // Each end is read to the millisecond first, as the turn rules show them.
    u64::try_from(epoch_millis(end)? - epoch_millis(start)?).ok()
}

/// A duration in milliseconds as people read it: `850ms` under a second,
/// `12s`, `4m12s`, `2h05m`, `3d04h`.
pub fn human(ms: u64) -> String {
    let s = ms / 1_000;
    match s {
        0 => format!("{ms}ms"),
        1..=59 => format!("{s}s"),
        60..=3_599 => format!("{}m{:02}s", s / 60, s % 60),
        3_600..=86_399 => format!("{}h{:02}m", s / 3_600, s % 3_600 / 60),
        _ => format!("{}d{:02}h", s / 86_400, s % 86_400 / 3_600),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_parse_with_fractions_and_offsets() {
        assert_eq!(epoch_millis("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(epoch_millis("1970-01-01T00:00:01.5Z"), Some(1_500));
        assert_eq!(
            epoch_millis("2026-04-10T17:04:00.123456Z"),
            Some(1_775_840_640_123)
        );
        assert_eq!(
            epoch_millis("2026-04-10T19:04:00+02:00"),
            epoch_millis("2026-04-10T17:04:00Z")
        );
        assert_eq!(
            epoch_millis("2026-04-10 17:04:00"),
            epoch_millis("2026-04-10T17:04:00Z")
        );
        // What is not a timestamp: model::time's tests.
        assert_eq!(epoch_millis("yesterday"), None);
    }

    #[test]
    fn durations_read_like_a_person_writes_them() {
        assert_eq!(human(850), "850ms");
        assert_eq!(human(12_400), "12s");
        assert_eq!(human(252_000), "4m12s");
        assert_eq!(human(7_500_000), "2h05m");
        assert_eq!(human(273_600_000), "3d04h");
        assert_eq!(
            between("2026-02-01T10:00:02.000Z", "2026-02-01T10:04:14.000Z"),
            Some(252_000)
        );
        assert_eq!(
            between("2026-02-01T10:00:02Z", "2026-02-01T10:00:01Z"),
            None
        );
    }
}
