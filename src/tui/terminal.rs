//! Taking over the terminal and always giving it back: raw mode, the
//! alternate screen, the mouse mode and a hidden cursor are undone on normal
//! exit, on error (the guard's `Drop`), on panic (a panic hook) and around
//! suspending (Ctrl-Z) or running a pager.
//!
//! The mouse is left to the terminal by default, so that text can be
//! selected and copied as in `less`; the wheel still scrolls, through the
//! terminal's alternate-scroll mode. [`Mouse::Captured`] (`--mouse`) captures
//! it for clicks.

use std::fmt;
use std::io::{self, Write};
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

use crossterm::cursor::{Hide, Show};
use crossterm::event::{
    DisableFocusChange, DisableMouseCapture, EnableFocusChange, EnableMouseCapture,
};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};

/// Whether the terminal is currently taken over (read by the panic hook).
static ACTIVE: AtomicBool = AtomicBool::new(false);
/// Whether the mouse is captured now (read by [`restore`]).
static CAPTURED: AtomicBool = AtomicBool::new(false);

/// What the viewer does with the mouse.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mouse {
    /// Left to the terminal: selecting and copying text work as in `less`.
    /// The wheel scrolls all the same: alternate-scroll mode (DECSET 1007)
    /// makes the terminal send it as ↑/↓ on the alternate screen.
    #[default]
    Terminal,
    /// Captured (`--mouse`): a click moves the cursor to the line, the wheel
    /// scrolls; the terminal's own selection needs Shift (in most terminals).
    Captured,
}

/// DECSET / DECRST 1007, alternate scroll: on the alternate screen the
/// terminal sends the wheel as ↑/↓ keys. Terminals without it ignore it.
#[derive(Debug, Clone, Copy)]
struct AlternateScroll(bool);

impl crossterm::Command for AlternateScroll {
    fn write_ansi(&self, f: &mut impl fmt::Write) -> fmt::Result {
        f.write_str(if self.0 { "\x1b[?1007h" } else { "\x1b[?1007l" })
    }
}
static HOOK: Once = Once::new();

/// Owns the terminal while the viewer runs; restores it when dropped.
#[derive(Debug)]
pub struct TerminalGuard {
    mouse: Mouse,
}

impl TerminalGuard {
    /// Enters raw mode and the alternate screen, sets the `mouse` mode, and
    /// makes sure a panic restores the terminal before its message prints.
    pub fn enter(mouse: Mouse) -> io::Result<TerminalGuard> {
        install_panic_hook();
        take_over(mouse)?;
        Ok(TerminalGuard { mouse })
    }

    /// Gives the terminal back for a while (pager, suspend).
    pub fn leave(&mut self) {
        restore();
    }

    /// Takes the terminal over again after [`TerminalGuard::leave`].
    pub fn reenter(&mut self) -> io::Result<()> {
        take_over(self.mouse)
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

fn take_over(mouse: Mouse) -> io::Result<()> {
    enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    let mut out = io::stdout();
    // Focus reports tell `--notify` whether the window is looked at.
    execute!(
        out,
        EnterAlternateScreen,
        AlternateScroll(true),
        EnableFocusChange,
        Hide
    )?;
    if mouse == Mouse::Captured {
        CAPTURED.store(true, Ordering::SeqCst);
        execute!(out, EnableMouseCapture)?;
    }
    Ok(())
}

/// Puts the terminal back as it was; does nothing when it is not taken over.
/// Errors are ignored: the terminal may already be gone (SIGHUP).
pub fn restore() {
    if ACTIVE.swap(false, Ordering::SeqCst) {
        let mut out = io::stdout();
        if CAPTURED.swap(false, Ordering::SeqCst) {
            let _ = execute!(out, DisableMouseCapture);
        }
        let _ = execute!(
            out,
            DisableFocusChange,
            AlternateScroll(false),
            LeaveAlternateScreen,
            Show
        );
        let _ = out.flush();
        let _ = disable_raw_mode();
    }
}

fn install_panic_hook() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
}

/// Stops the process like Ctrl-Z does in a shell and returns once it is
/// resumed (`fg`). The caller restores the terminal before and re-enters after.
pub fn stop_process() {
    // SIGSTOP cannot be caught: execution pauses here until SIGCONT. Should
    // the signal not be sent, the viewer simply goes on.
    let _ = signal_hook::low_level::raise(signal_hook::consts::SIGSTOP);
}
