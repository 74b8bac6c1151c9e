//! What the command line asks of the terminal it prints to: whether stdout
//! is one, how wide it is, and whether the full-screen viewer can run there.
//!
//! The width is asked of the terminal only, by the `TIOCGWINSZ` ioctl on
//! stdout after checking that stdout is a terminal. Nothing is ever executed
//! to find it (crossterm's `terminal::size()` runs `tput cols` from `PATH`
//! when its ioctl fails, which would run a program of someone else's
//! choosing with the user's rights).

use std::io::{self, IsTerminal};

/// Columns printed output takes when nothing says otherwise.
pub const DEFAULT_COLUMNS: usize = 80;

/// The widest output overhear lays out, the library's [`crate::MAX_WIDTH`].
/// A line is laid out in full at the width asked for, so a width of
/// billions of columns would ask for gigabytes of memory for one line (and
/// `usize::MAX` overflowed); no terminal or reader needs more than this.
pub const MAX_COLUMNS: usize = crate::MAX_WIDTH;

/// The width to print at: `--width`, else `COLUMNS` (a positive integer),
/// else the width of the terminal stdout is (when it is one), else 80.
/// Printed to a pipe or a file, `COLUMNS` is thus the only input, and the
/// output is the same for the same `COLUMNS`.
pub fn print_columns(width: Option<usize>) -> usize {
    width
        .or_else(|| {
            let value = std::env::var("COLUMNS").ok();
            columns_from_env(value.as_deref()).unwrap_or_else(|too_wide| {
                super::report(format_args!(
                    "overhear: warning: COLUMNS={too_wide}: more than {MAX_COLUMNS} columns; ignored"
                ));
                None
            })
        })
        .or_else(stdout_columns)
        .unwrap_or(DEFAULT_COLUMNS)
}

/// `COLUMNS` when it holds a positive integer up to [`MAX_COLUMNS`];
/// `Ok(None)` for anything that is not a number of columns (ignored, as
/// shells and `less` do); `Err` with the value for a number past
/// [`MAX_COLUMNS`], which is ignored with a warning.
fn columns_from_env(value: Option<&str>) -> Result<Option<usize>, &str> {
    let Some(value) = value.map(str::trim) else {
        return Ok(None);
    };
    match value.parse::<usize>() {
        Ok(n) if (1..=MAX_COLUMNS).contains(&n) => Ok(Some(n)),
        Ok(0) => Ok(None),
        // Digits only: a number too large for `usize` is past the limit too.
        _ if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => Err(value),
        _ => Ok(None),
    }
}

/// The width of the terminal on stdout, or `None` when stdout is not a
/// terminal or the terminal reports no width.
// The terminal's size has no safe wrapper among our dependencies short of
// crossterm's, which reports the tty's size even when stdout is redirected.
#[allow(unsafe_code)]
pub(super) fn stdout_columns() -> Option<usize> {
    if !io::stdout().is_terminal() {
        return None;
    }
    // SAFETY: `winsize` is plain data; the ioctl only writes into it, and
    // stdout's descriptor stays open for the whole call.
    let size = unsafe {
        let mut size: libc::winsize = std::mem::zeroed();
        if libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) != 0 {
            return None;
        }
        size
    };
    (size.ws_col > 0).then_some(usize::from(size.ws_col))
}

/// Whether the full-screen viewer can run: stdout is a terminal and `TERM`
/// names one that can do more than print lines. Unset, empty and `dumb`
/// (Emacs' shell, some CI consoles) cannot, so overhear prints instead, as
/// `less` does on such a terminal.
pub fn viewer_possible(stdout_is_terminal: bool, term: Option<&str>) -> bool {
    stdout_is_terminal && term.is_some_and(term_can_draw)
}

/// Whether a terminal of type `term` can draw a full screen (and colour).
pub fn term_can_draw(term: &str) -> bool {
    let term = term.trim();
    !term.is_empty() && term != "dumb"
}

/// Whether the terminal on stdout can run the viewer, from the process's
/// own stdout and `TERM`.
pub fn viewer_possible_here() -> bool {
    viewer_possible(
        io::stdout().is_terminal(),
        std::env::var("TERM").ok().as_deref(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_must_be_a_positive_integer_up_to_the_limit() {
        assert_eq!(columns_from_env(Some("132")), Ok(Some(132)));
        assert_eq!(columns_from_env(Some(" 90 ")), Ok(Some(90)));
        assert_eq!(columns_from_env(Some("10000")), Ok(Some(10_000)));
        for bad in ["0", "-3", "wide", "", "1e3"] {
            assert_eq!(columns_from_env(Some(bad)), Ok(None), "{bad}");
        }
        assert_eq!(columns_from_env(None), Ok(None));
        for wide in ["10001", "4294967296", "18446744073709551616"] {
            assert_eq!(columns_from_env(Some(wide)), Err(wide), "{wide}");
        }
    }

    #[test]
    fn the_viewer_needs_a_terminal_that_can_draw() {
        assert!(viewer_possible(true, Some("xterm-256color")));
        assert!(viewer_possible(true, Some("screen")));
        assert!(!viewer_possible(false, Some("xterm-256color")));
        for term in [None, Some(""), Some("dumb"), Some(" dumb ")] {
            assert!(!viewer_possible(true, term), "{term:?}");
        }
    }
}
