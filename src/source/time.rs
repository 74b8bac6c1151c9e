//! Turning JP timestamps into something to sort conversations by.
//!
//! JP writes `2026-05-29 19:42:36.46732` (UTC, no offset) and accepts RFC 3339;
//! the picker orders by `last_activated_at` and falls back to file times, so
//! both need one scale: nanoseconds since the Unix epoch.

use std::time::{SystemTime, UNIX_EPOCH};

/// Nanoseconds since the Unix epoch of a JP or RFC 3339 timestamp.
pub(crate) fn parse_nanos(text: &str) -> Option<i128> {
    let b = text.trim().as_bytes();
    let num = |range: std::ops::Range<usize>| -> Option<i64> {
        let digits = b.get(range)?;
        if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        std::str::from_utf8(digits).ok()?.parse().ok()
    };
    let year = num(0..4)?;
    let month = num(5..7)?;
    let day = num(8..10)?;
    let hour = num(11..13)?;
    let minute = num(14..16)?;
    let second = num(17..19)?;
    if b.get(4) != Some(&b'-')
        || b.get(7) != Some(&b'-')
        || !matches!(b.get(10), Some(b' ' | b'T' | b't'))
        || b.get(13) != Some(&b':')
        || b.get(16) != Some(&b':')
        || !(1..=12).contains(&month)
        || !(1..=31).contains(&day)
    {
        return None;
    }
    let mut rest = &b[19..];
    let mut nanos: i128 = 0;
    if let Some((b'.', frac)) = rest.split_first() {
        let len = frac.iter().take_while(|c| c.is_ascii_digit()).count();
        if len == 0 {
            return None;
        }
        for (i, c) in frac[..len].iter().enumerate().take(9) {
            nanos += i128::from(c - b'0') * 10i128.pow(8 - i as u32);
        }
        rest = &frac[len..];
    }
    let offset_seconds: i64 = match rest {
        [] | [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let digits = [h1, h2, m1, m2];
            if !digits.iter().all(|c| c.is_ascii_digit()) {
                return None;
            }
            let v = |c: &u8| i64::from(c - b'0');
            let secs = (v(h1) * 10 + v(h2)) * 3600 + (v(m1) * 10 + v(m2)) * 60;
            if *sign == b'+' { secs } else { -secs }
        }
        _ => return None,
    };
    let days = days_from_civil(year, month, day);
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset_seconds;
    Some(i128::from(seconds) * 1_000_000_000 + nanos)
}

/// Nanoseconds since the Unix epoch of a file time.
pub(crate) fn system_nanos(time: SystemTime) -> i128 {
    match time.duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_nanos() as i128,
        Err(e) => -(e.duration().as_nanos() as i128),
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
pub(crate) fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jp_format_and_rfc3339_agree() {
        let jp = parse_nanos("2026-05-29 19:42:36.46732").unwrap();
        let rfc = parse_nanos("2026-05-29T21:42:36.467320+02:00").unwrap();
        assert_eq!(jp, rfc);
        assert_eq!(parse_nanos("1970-01-01 00:00:01.5"), Some(1_500_000_000));
        assert_eq!(
            parse_nanos("2026-03-05 19:31:45.0"),
            parse_nanos("2026-03-05T19:31:45Z")
        );
    }

    #[test]
    fn later_times_sort_later() {
        let a = parse_nanos("2025-12-31 23:59:59.999999").unwrap();
        let b = parse_nanos("2026-01-01 00:00:00.0").unwrap();
        assert!(a < b);
    }

    #[test]
    fn garbage_is_rejected() {
        assert_eq!(parse_nanos("yesterday"), None);
        assert_eq!(parse_nanos("2026-13-01 00:00:00"), None);
        assert_eq!(parse_nanos("2026-01-01 00:00:00.x"), None);
    }
}
