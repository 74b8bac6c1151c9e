//! Turning JP timestamps into something to sort conversations by.
//!
//! JP writes `2026-05-29 19:42:36.46732` (UTC, no offset) and accepts RFC 3339;
//! the picker orders by `last_activated_at` and falls back to file times, so
//! both need one scale: nanoseconds since the Unix epoch. The stored text is
//! read by the one timestamp parser, [`crate::model::timestamp::parse`].

use std::time::{SystemTime, UNIX_EPOCH};

/// Nanoseconds since the Unix epoch of a JP or RFC 3339 timestamp.
pub(crate) fn parse_nanos(text: &str) -> Option<i128> {
    crate::model::timestamp::parse(text).map(jiff::Timestamp::as_nanosecond)
}

/// When the file at `path` was last written, if it can be told: what the
/// sessions list, discovery and search sort by.
#[cfg(feature = "cli")]
pub(crate) fn modified(path: &std::path::Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// Nanoseconds since the Unix epoch of a file time.
pub(crate) fn system_nanos(time: SystemTime) -> i128 {
    match time.duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_nanos() as i128,
        Err(e) => -(e.duration().as_nanos() as i128),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_times_sort_later() {
        let a = parse_nanos("2025-12-31 23:59:59.999999").unwrap();
        let b = parse_nanos("2026-01-01 00:00:00.0").unwrap();
        assert!(a < b);
        assert_eq!(parse_nanos("1970-01-01 00:00:01.5"), Some(1_500_000_000));
    }

    #[test]
    fn file_times_and_stored_times_share_one_scale() {
        let t = UNIX_EPOCH + std::time::Duration::from_millis(1_500);
        assert_eq!(Some(system_nanos(t)), parse_nanos("1970-01-01T00:00:01.5Z"));
    }
}
