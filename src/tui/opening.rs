//! What to say while a large conversation is read before it is shown: on
//! stderr before the viewer takes the screen (`cli/opening.rs`), in the
//! status bar when the picker opens one (`tui/run.rs`). A 1 GB
//! conversation takes most of a second to read in outline, and a screen
//! that does not move that long looks hung; a smaller or quicker read says
//! nothing.

use std::time::{Duration, Instant};

use crate::source::limit::human;

/// How large a conversation must be for its opening to be noted.
pub const NOTED_BYTES: u64 = 64 << 20;

/// How long an opening goes on before it is noted: most are over before.
const QUIET_FOR: Duration = Duration::from_millis(250);

/// How far a read is, said once per percent.
#[derive(Debug)]
pub struct OpeningProgress {
    started: Instant,
    /// The percentage said last, if any was.
    shown: Option<u64>,
    /// The bytes read so far, as last heard.
    read: u64,
    /// Whether the file is being read a second time: heard going back
    /// (a file the outline gives up on is read again whole).
    again: bool,
}

impl OpeningProgress {
    /// The progress of a read that started at `started`.
    pub fn new(started: Instant) -> Self {
        OpeningProgress {
            started,
            shown: None,
            read: 0,
            again: false,
        }
    }

    /// What to say now that `read` bytes of `total` are read at `now`
    /// (`reading… 40% of 1 GiB`, `reading again… 5% of 1 GiB`); `None` when
    /// nothing is to be said (a small or quick read, the same percentage).
    pub fn note(&mut self, read: u64, total: u64, now: Instant) -> Option<String> {
        if read < self.read {
            // The percentage starts again from 0: say why it went back.
            self.again = true;
            self.shown = None;
        }
        self.read = read;
        if total < NOTED_BYTES || now.duration_since(self.started) < QUIET_FOR {
            return None;
        }
        let percent = read.min(total) * 100 / total;
        if self.shown == Some(percent) {
            return None;
        }
        self.shown = Some(percent);
        let reading = if self.again {
            "reading again"
        } else {
            "reading"
        };
        Some(format!("{reading}… {percent}% of {}", human(total)))
    }

    /// Whether anything was said (a read that goes back says so at once).
    pub fn said(&self) -> bool {
        self.shown.is_some()
    }
}
