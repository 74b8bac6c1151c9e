//! Stored timestamps, read by one parser for every format and every layer:
//! RFC 3339 (`2026-04-10T17:04:00.123+02:00`, `…Z`, a space for the `T`) and
//! JP's own `2026-05-29 19:42:36.46732` (UTC, no offset). Parsing is `jiff`'s;
//! this module only says which texts are timestamps.

use jiff::Timestamp;
use jiff::civil::DateTime;
use jiff::tz::TimeZone;

/// The instant a stored timestamp names, or `None` when the text is not a
/// date with a time to the second (with or without fraction and offset; no
/// offset means UTC).
pub fn parse(stored: &str) -> Option<Timestamp> {
    let text = stored.trim();
    // A date and a time to the second: `YYYY-MM-DD?HH:MM:SS`.
    let b = text.as_bytes();
    if b.len() < 19 || b[13] != b':' || b[16] != b':' {
        return None;
    }
    if let Ok(instant) = text.parse::<Timestamp>() {
        return Some(instant);
    }
    let civil: DateTime = text.parse().ok()?;
    TimeZone::UTC.to_timestamp(civil).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nanos(text: &str) -> Option<i128> {
        parse(text).map(Timestamp::as_nanosecond)
    }

    #[test]
    fn jp_form_and_rfc3339_name_one_instant() {
        assert_eq!(
            nanos("2026-05-29 19:42:36.46732"),
            nanos("2026-05-29T21:42:36.467320+02:00")
        );
        assert_eq!(nanos("1970-01-01 00:00:01.5"), Some(1_500_000_000));
        assert_eq!(
            nanos("2026-03-05 19:31:45.0"),
            nanos("2026-03-05T19:31:45Z")
        );
        assert_eq!(
            nanos(" 2026-03-05t19:31:45z "),
            nanos("2026-03-05T19:31:45Z")
        );
    }

    #[test]
    fn what_is_not_a_time_to_the_second_is_rejected() {
        for bad in [
            "",
            "yesterday",
            "2026-13-01T00:00:00Z",
            "2026-04-10T17:04:00+2",
            "2026-04-10T17:04:00.",
            "2026-01-01 00:00:00.x",
            "2026-04-10",
            "2026-04-10T17:04Z",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }
}
