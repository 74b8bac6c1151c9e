//! Wall-clock times for the status bar and the picker. The viewer uses one
//! clock, UTC, as the turn rules do (they come from `render`, which must not
//! depend on the machine's zone): the status bar's time and the rules agree,
//! (the rules say `UTC`; the status bar, short of room, does not repeat it).
//! A zone other than UTC would be a second variant here (docs/tui.md, "One
//! clock", says why there is none).

use std::time::{SystemTime, UNIX_EPOCH};

/// Which zone times are shown in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Clock {
    /// UTC, the viewer's clock.
    #[default]
    Utc,
}

/// A broken-down time.
struct Civil {
    year: i32,
    month: u32,
    day: u32,
    hour: u32,
    minute: u32,
    second: u32,
}

impl Clock {
    fn civil(self, t: SystemTime) -> Option<Civil> {
        let secs = t.duration_since(UNIX_EPOCH).ok()?.as_secs();
        let secs = libc::time_t::try_from(secs).ok()?;
        // SAFETY: `tm` is plain data that the call fills in; `gmtime_r` is
        // the re-entrant variant and only reads `secs`.
        let tm = unsafe {
            let mut tm: libc::tm = std::mem::zeroed();
            let ok = match self {
                Clock::Utc => !libc::gmtime_r(&secs, &mut tm).is_null(),
            };
            if !ok {
                return None;
            }
            tm
        };
        Some(Civil {
            year: tm.tm_year + 1900,
            month: u32::try_from(tm.tm_mon + 1).ok()?,
            day: u32::try_from(tm.tm_mday).ok()?,
            hour: u32::try_from(tm.tm_hour).ok()?,
            minute: u32::try_from(tm.tm_min).ok()?,
            second: u32::try_from(tm.tm_sec).ok()?,
        })
    }

    /// `HH:MM:SS`, for the time of the last change.
    pub fn time(self, t: SystemTime) -> String {
        match self.civil(t) {
            Some(c) => format!("{:02}:{:02}:{:02}", c.hour, c.minute, c.second),
            None => "--:--:--".to_string(),
        }
    }

    /// When something happened, as short as is clear: `HH:MM:SS` on the day
    /// of `now`, else `YYYY-MM-DD HH:MM`.
    pub fn stamp(self, t: SystemTime, now: SystemTime) -> String {
        match (self.civil(t), self.civil(now)) {
            (Some(a), Some(b)) if (a.year, a.month, a.day) == (b.year, b.month, b.day) => {
                self.time(t)
            }
            _ => self.date_time(t),
        }
    }

    /// `YYYY-MM-DD HH:MM`, for a conversation's last activity.
    pub fn date_time(self, t: SystemTime) -> String {
        match self.civil(t) {
            Some(c) => format!(
                "{:04}-{:02}-{:02} {:02}:{:02}",
                c.year, c.month, c.day, c.hour, c.minute
            ),
            None => "—".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn utc_times_are_formatted_in_full() {
        let t = UNIX_EPOCH + Duration::from_secs(1_767_225_600 + 3_723);
        assert_eq!(Clock::Utc.time(t), "01:02:03");
        assert_eq!(Clock::Utc.date_time(t), "2026-01-01 01:02");
    }

    #[test]
    fn stamps_say_the_date_unless_it_is_today() {
        let t = UNIX_EPOCH + Duration::from_secs(1_767_225_600 + 3_723);
        let later = t + Duration::from_secs(3_600);
        assert_eq!(Clock::Utc.stamp(t, later), "01:02:03");
        let next_day = t + Duration::from_secs(86_400);
        assert_eq!(Clock::Utc.stamp(t, next_day), "2026-01-01 01:02");
    }
}
