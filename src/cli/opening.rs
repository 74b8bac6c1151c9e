//! The note on stderr while a large conversation is read before the
//! viewer's first screen. The viewer opens a JP conversation by outlining
//! all of it (docs/tui.md): a 1 GB one takes most of a second, and a
//! terminal left blank that long looks hung. What is said, and when, is
//! [`OpeningProgress`]'s (the picker says the same in the status bar); here
//! it goes on one line that is erased before the viewer takes the screen.
//! Only on a terminal: stderr sent to a file or a pipe is left alone.

use std::io::{self, IsTerminal, Write};
use std::time::Instant;

use crate::text::truncate::truncate;
use crate::text::width::display_width;
use crate::tui::OpeningReport;
use crate::tui::opening::OpeningProgress;

/// The note, written to `out` (stderr) as the reading goes on.
pub(super) struct OpeningNote<W: Write> {
    /// Where the note goes; `None` when stderr is not a terminal.
    out: Option<W>,
    /// The terminal's width: the note fits one line, which `\r` rewrites.
    columns: usize,
    /// What to say, and when.
    progress: OpeningProgress,
}

impl OpeningNote<io::Stderr> {
    /// A note on stderr, if it is a terminal `columns` wide; its time
    /// counts from now.
    pub(super) fn on_stderr(columns: usize) -> Self {
        let stderr = io::stderr();
        let out = stderr.is_terminal().then_some(stderr);
        OpeningNote::new(out, columns, Instant::now())
    }
}

impl<W: Write> OpeningNote<W> {
    fn new(out: Option<W>, columns: usize, started: Instant) -> Self {
        OpeningNote {
            out,
            columns,
            progress: OpeningProgress::new(started),
        }
    }

    /// `read` bytes of `total` are read at `now`: the note says so when
    /// [`OpeningProgress`] has something to say.
    fn progress_at(&mut self, read: u64, total: u64, now: Instant) {
        let Some(progress) = self.progress.note(read, total, now) else {
            return;
        };
        // The last column is left free, so that the terminal never wraps
        // the line that `\r` rewrites; a narrow one loses the name first.
        let room = self.columns.saturating_sub(1).max(1);
        let named = format!("overhear: {progress}");
        let text = if display_width(&named) <= room {
            named
        } else {
            truncate(&progress, room)
        };
        self.write(&format!("\r{text}\x1b[K"));
    }

    /// Writes `text`; a terminal that cannot take it loses only the note.
    fn write(&mut self, text: &str) {
        if let Some(out) = &mut self.out {
            let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
        }
    }
}

impl<W: Write> OpeningReport for OpeningNote<W> {
    fn progress(&mut self, read: u64, total: u64) {
        self.progress_at(read, total, Instant::now());
    }

    /// The note, if one was written, is erased.
    fn done(&mut self) {
        if self.progress.said() {
            self.write("\r\x1b[K");
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::tui::opening::NOTED_BYTES;

    const GB: u64 = 1 << 30;

    fn note(columns: usize) -> (OpeningNote<Vec<u8>>, Instant) {
        let start = Instant::now();
        (OpeningNote::new(Some(Vec::new()), columns, start), start)
    }

    fn written(note: &OpeningNote<Vec<u8>>) -> String {
        String::from_utf8(note.out.clone().unwrap()).unwrap()
    }

    #[test]
    fn a_long_read_of_a_large_conversation_says_how_far_it_is_then_erases_it() {
        let (mut note, start) = note(80);
        note.progress_at(GB / 10, GB, start + Duration::from_millis(100));
        assert_eq!(written(&note), "", "quiet for the first moment");
        let later = start + Duration::from_millis(300);
        note.progress_at(GB / 4, GB, later);
        note.progress_at(GB / 4 + 1, GB, later);
        note.progress_at(GB / 2, GB, later);
        assert_eq!(
            written(&note),
            "\roverhear: reading… 25% of 1 GiB\x1b[K\roverhear: reading… 50% of 1 GiB\x1b[K",
            "a line rewritten in place, once per percent"
        );
        note.done();
        assert!(written(&note).ends_with("50% of 1 GiB\x1b[K\r\x1b[K"));
    }

    #[test]
    fn a_second_read_of_the_whole_file_says_it_reads_again() {
        let (mut note, start) = note(80);
        let later = start + Duration::from_secs(1);
        note.progress_at(GB / 2, GB, later);
        note.progress_at(GB, GB, later);
        // The outline could not read it: the file is read again, whole.
        note.progress_at(GB / 4, GB, later);
        note.progress_at(GB / 2, GB, later);
        assert!(
            written(&note).ends_with(
                "\roverhear: reading… 100% of 1 GiB\x1b[K\roverhear: reading again… 25% of 1 GiB\x1b[K\roverhear: reading again… 50% of 1 GiB\x1b[K"
            ),
            "{:?}",
            written(&note)
        );
    }

    #[test]
    fn a_note_is_erased_when_the_read_again_fails_before_it_says_anything() {
        let (mut note, start) = note(80);
        note.progress_at(GB, GB, start + Duration::from_secs(1));
        // Read again whole, from 0: no byte read before it fails.
        note.progress_at(0, GB, start + Duration::from_secs(1));
        note.done();
        assert!(written(&note).ends_with("\r\x1b[K"), "{:?}", written(&note));
    }

    #[test]
    fn a_small_conversation_says_nothing_however_long_it_takes() {
        let (mut note, start) = note(80);
        note.progress_at(1 << 20, NOTED_BYTES - 1, start + Duration::from_secs(5));
        note.done();
        assert_eq!(written(&note), "");
    }

    #[test]
    fn a_narrow_terminal_keeps_the_progress_on_one_line() {
        for (columns, shown) in [(30, "reading… 33% of 1 GiB"), (12, "reading… 3…")] {
            let (mut note, start) = note(columns);
            note.progress_at(GB / 3, GB, start + Duration::from_secs(1));
            let text = written(&note);
            let line = text.trim_start_matches('\r').trim_end_matches("\x1b[K");
            assert_eq!(line, shown);
            assert!(
                display_width(line) < columns,
                "{line:?} in {columns} columns"
            );
        }
    }
}
