//! Handing a card's text to the outside: `$PAGER` (`o`) and the clipboard
//! through OSC 52 (`y`). Both write conversation text to a terminal, so both
//! receive it stripped by [`crate::text::sanitize`] first (the caller's job:
//! see `App::card_text`).

use std::io::{self, Write};
use std::process::{Command, Stdio};

/// The pager used when `$PAGER` is unset or empty.
pub const DEFAULT_PAGER: &str = "less -R";

/// The pager command line: `$PAGER`, else [`DEFAULT_PAGER`].
pub fn pager_command() -> String {
    match std::env::var("PAGER") {
        Ok(p) if !p.trim().is_empty() => p,
        _ => DEFAULT_PAGER.to_string(),
    }
}

/// Runs `command` through `sh -c` with `text` on its standard input and
/// waits for it. The terminal must already be restored by the caller.
pub fn run_pager(command: &str, text: &str) -> io::Result<()> {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdin(Stdio::piped())
        .spawn()?;
    if let Some(mut stdin) = child.stdin.take() {
        // The pager may quit before reading everything: a broken pipe is fine.
        match stdin.write_all(text.as_bytes()) {
            Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
                let _ = child.wait();
                return Err(e);
            }
            _ => {}
        }
    }
    let status = child.wait()?;
    match status.code() {
        // The shell's codes for a command it could not find or run.
        Some(127) => Err(io::Error::other(
            "not found; set PAGER to an installed pager, e.g. `less -R` or `more`",
        )),
        Some(126) => Err(io::Error::other(
            "cannot be run; set PAGER to an installed pager, e.g. `less -R` or `more`",
        )),
        Some(_) => Ok(()),
        None => Err(io::Error::other(status.to_string())),
    }
}

/// The OSC 52 sequence that puts `text` on the system clipboard.
pub fn osc52(text: &str) -> String {
    let encoded = base64_simd::STANDARD.encode_to_string(text.as_bytes());
    format!("\u{1b}]52;c;{encoded}\u{7}")
}

/// What to write for [`osc52`] on this terminal: inside tmux (`$TMUX` set)
/// the sequence also goes wrapped in tmux's passthrough, which reaches the
/// outer terminal when tmux has `allow-passthrough on`; the bare sequence
/// works when it has `set-clipboard on`.
pub fn clipboard_sequence(text: &str, in_tmux: bool) -> String {
    let bare = osc52(text);
    if !in_tmux {
        return bare;
    }
    let wrapped = bare.replace('\u{1b}', "\u{1b}\u{1b}");
    format!("{bare}\u{1b}Ptmux;{wrapped}\u{1b}\\")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pager_that_is_not_there_says_how_to_set_one() {
        let err = run_pager("overhear-no-such-pager-here 2>/dev/null", "text").unwrap_err();
        assert_eq!(
            err.to_string(),
            "not found; set PAGER to an installed pager, e.g. `less -R` or `more`"
        );
    }

    #[test]
    fn osc52_carries_base64() {
        assert_eq!(osc52("hi"), "\u{1b}]52;c;aGk=\u{7}");
    }

    #[test]
    fn inside_tmux_the_sequence_also_goes_through_passthrough() {
        assert_eq!(clipboard_sequence("hi", false), osc52("hi"));
        assert_eq!(
            clipboard_sequence("hi", true),
            "\u{1b}]52;c;aGk=\u{7}\u{1b}Ptmux;\u{1b}\u{1b}]52;c;aGk=\u{7}\u{1b}\\"
        );
    }

    #[test]
    fn the_pager_reads_the_text_on_stdin() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        run_pager(&format!("cat > '{}'", out.display()), "hello\npager").unwrap();
        assert_eq!(std::fs::read_to_string(out).unwrap(), "hello\npager");
    }

    #[test]
    fn a_pager_that_quits_early_is_not_an_error() {
        let big = "x".repeat(1 << 20);
        run_pager("head -c 1 >/dev/null", &big).unwrap();
    }
}
