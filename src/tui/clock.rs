//! Wall-clock times for the status bar and the picker. The viewer uses one
//! clock, UTC, as the turn rules do (they come from `render`, which must not
//! depend on the machine's zone): the status bar's time and the rules agree,
//! (the rules say `UTC`; the status bar, short of room, does not repeat it).
//! A zone other than UTC would be a second variant here (docs/tui.md, "One
//! clock", says why there is none).

use std::time::SystemTime;

use jiff::Timestamp;
use jiff::civil::DateTime;
use jiff::tz::TimeZone;

/// Which zone times are shown in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Clock {
    /// UTC, the viewer's clock.
    #[default]
    Utc,
}

impl Clock {
    /// The wall-clock date and time of `t` on this clock (`None`: out of
    /// the calendar's range).
    fn civil(self, t: SystemTime) -> Option<DateTime> {
        let instant = Timestamp::try_from(t).ok()?;
        let zone = match self {
            Clock::Utc => TimeZone::UTC,
        };
        Some(zone.to_datetime(instant))
    }

    /// `HH:MM:SS`, for the time of the last change.
    pub fn time(self, t: SystemTime) -> String {
        match self.civil(t) {
            Some(c) => c.strftime("%H:%M:%S").to_string(),
            None => "--:--:--".to_string(),
        }
    }

    /// When something happened, as short as is clear: `HH:MM:SS` on the day
    /// of `now`, else `YYYY-MM-DD HH:MM`.
    pub fn stamp(self, t: SystemTime, now: SystemTime) -> String {
        match (self.civil(t), self.civil(now)) {
            (Some(a), Some(b)) if a.date() == b.date() => self.time(t),
            _ => self.date_time(t),
        }
    }

    /// `YYYY-MM-DD HH:MM`, for a conversation's last activity.
    pub fn date_time(self, t: SystemTime) -> String {
        match self.civil(t) {
            Some(c) => c.strftime("%Y-%m-%d %H:%M").to_string(),
            None => "—".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, UNIX_EPOCH};

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
