//! How long things took, from the timestamps a conversation stores: stored
//! RFC 3339 times read as milliseconds since the epoch, and a duration shown
//! as people read one (`850ms`, `12s`, `4m12s`, `2h05m`). Pure functions of
//! the file: `render` stays deterministic.

use crate::source::time::days_from_civil;

/// Milliseconds since the Unix epoch of a stored RFC 3339 timestamp
/// (`2026-04-10T17:04:00Z`, `…T17:04:00.123+02:00`; a space may stand for
/// the `T`); `None` for anything else.
pub fn epoch_millis(stored: &str) -> Option<i64> {
    let s = stored.trim().as_bytes();
    let num = |range: std::ops::Range<usize>| -> Option<i64> {
        let part = s.get(range)?;
        if !part.iter().all(u8::is_ascii_digit) {
            return None;
        }
        std::str::from_utf8(part).ok()?.parse().ok()
    };
    if s.len() < 19 || s[4] != b'-' || s[7] != b'-' || !matches!(s[10], b'T' | b't' | b' ') {
        return None;
    }
    if s[13] != b':' || s[16] != b':' {
        return None;
    }
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hour, minute, second) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 {
        return None;
    }
    let mut rest = &s[19..];
    let mut millis = 0;
    if let Some(frac) = rest.strip_prefix(b".") {
        let digits = frac.iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            return None;
        }
        for (i, d) in frac[..digits.min(3)].iter().enumerate() {
            millis += i64::from(d - b'0') * [100, 10, 1][i];
        }
        rest = &frac[digits..];
    }
    let offset = match rest {
        b"" | b"Z" | b"z" => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let all = [*h1, *h2, *m1, *m2];
            if !all.iter().all(u8::is_ascii_digit) {
                return None;
            }
            let h = i64::from((h1 - b'0') * 10 + (h2 - b'0'));
            let m = i64::from((m1 - b'0') * 10 + (m2 - b'0'));
            let minutes = h * 60 + m;
            if *sign == b'+' { minutes } else { -minutes }
        }
        _ => return None,
    };
    let days = days_from_civil(year, month, day);
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second.min(60) - offset * 60;
    Some(seconds * 1_000 + millis)
}

/// The time from `start` to `end` (stored timestamps), if both parse and
/// `end` is not earlier.
pub fn between(start: &str, end: &str) -> Option<u64> {
    let ms = epoch_millis(end)? - epoch_millis(start)?;
    u64::try_from(ms).ok()
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
        for bad in [
            "",
            "yesterday",
            "2026-13-01T00:00:00Z",
            "2026-04-10T17:04:00+2",
            "2026-04-10T17:04:00.",
        ] {
            assert_eq!(epoch_millis(bad), None, "{bad}");
        }
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
