//! Taking over the terminal and always giving it back: raw mode, the
//! alternate screen, mouse capture and a hidden cursor are undone on normal
//! exit, on error (the guard's `Drop`), on panic (a panic hook) and around
//! suspending (Ctrl-Z) or running a pager.

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
static HOOK: Once = Once::new();

/// Owns the terminal while the viewer runs; restores it when dropped.
#[derive(Debug)]
pub struct TerminalGuard {
    _private: (),
}

impl TerminalGuard {
    /// Enters raw mode and the alternate screen, captures the mouse, and
    /// makes sure a panic restores the terminal before its message prints.
    pub fn enter() -> io::Result<TerminalGuard> {
        install_panic_hook();
        take_over()?;
        Ok(TerminalGuard { _private: () })
    }

    /// Gives the terminal back for a while (pager, suspend).
    pub fn leave(&mut self) {
        restore();
    }

    /// Takes the terminal over again after [`TerminalGuard::leave`].
    pub fn reenter(&mut self) -> io::Result<()> {
        take_over()
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

fn take_over() -> io::Result<()> {
    enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    // Focus reports tell `--notify` whether the window is looked at.
    execute!(
        io::stdout(),
        EnterAlternateScreen,
        EnableMouseCapture,
        EnableFocusChange,
        Hide
    )
}

/// Puts the terminal back as it was; does nothing when it is not taken over.
/// Errors are ignored: the terminal may already be gone (SIGHUP).
pub fn restore() {
    if ACTIVE.swap(false, Ordering::SeqCst) {
        let mut out = io::stdout();
        let _ = execute!(
            out,
            DisableFocusChange,
            DisableMouseCapture,
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
    // SAFETY: raising a signal at our own process has no memory effects;
    // SIGSTOP cannot be caught, so execution simply pauses here until SIGCONT.
    unsafe {
        libc::raise(libc::SIGSTOP);
    }
}
