//! Taking over the terminal and always giving it back: raw mode, the
//! alternate screen, the mouse mode and a hidden cursor are undone on normal
//! exit, on error (the guard's `Drop`), on panic (a panic hook), around
//! suspending (Ctrl-Z) or running a pager, and on the fatal signals no code
//! of ours would otherwise see (SIGABRT, SIGSEGV, SIGBUS: the `fatal` module).
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
    fatal::install();
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

/// Giving the terminal back when the process is ended by a signal it cannot
/// survive: an allocation failure or a stack overflow ends in SIGABRT, a bad
/// memory access in SIGSEGV or SIGBUS, and none of them runs a destructor or
/// the panic hook. The handler writes a restore sequence computed in
/// advance (mouse modes off, focus reports off, alternate scroll off, the
/// alternate screen left, the cursor shown) to stdout with `write(2)`, puts
/// the terminal's settings from before raw mode back with `tcsetattr(3)` —
/// both async-signal-safe, nothing allocated — and hands the signal on.
mod fatal {
    use std::os::fd::IntoRawFd;
    use std::path::Path;
    use std::sync::OnceLock;
    use std::sync::atomic::Ordering;

    use crossterm::Command;
    use crossterm::cursor::Show;
    use crossterm::event::{DisableFocusChange, DisableMouseCapture};
    use crossterm::terminal::LeaveAlternateScreen;
    use libc::c_int;

    use super::{ACTIVE, AlternateScroll};

    /// The signals handled.
    const SIGNALS: [c_int; 3] = [libc::SIGABRT, libc::SIGSEGV, libc::SIGBUS];

    /// The bytes that undo what the viewer set, whatever it set.
    static RESTORE: OnceLock<Vec<u8>> = OnceLock::new();
    /// The terminal's descriptor and its settings before raw mode.
    static COOKED: OnceLock<(c_int, libc::termios)> = OnceLock::new();
    /// Each signal's action before ours, to hand a fault on to (std's
    /// handler reports a stack overflow).
    static PREVIOUS: OnceLock<Vec<(c_int, libc::sigaction)>> = OnceLock::new();

    /// Installs the handlers, once, before the terminal is first taken over.
    pub(super) fn install() {
        if PREVIOUS.get().is_some() {
            return;
        }
        let mut restore = String::new();
        let _ = DisableMouseCapture.write_ansi(&mut restore);
        let _ = DisableFocusChange.write_ansi(&mut restore);
        let _ = AlternateScroll(false).write_ansi(&mut restore);
        let _ = LeaveAlternateScreen.write_ansi(&mut restore);
        let _ = Show.write_ansi(&mut restore);
        let _ = RESTORE.set(restore.into_bytes());
        if let Some(cooked) = cooked() {
            let _ = COOKED.set(cooked);
        }
        let _ = PREVIOUS.set(SIGNALS.iter().filter_map(|&s| handle(s)).collect());
    }

    /// The terminal's descriptor (stdin when it is the terminal, else
    /// `/dev/tty`, kept open: crossterm sets raw mode on the same) and its
    /// settings now.
    #[allow(unsafe_code)]
    fn cooked() -> Option<(c_int, libc::termios)> {
        // SAFETY: isatty only inspects the descriptor.
        let fd = if unsafe { libc::isatty(libc::STDIN_FILENO) } == 1 {
            libc::STDIN_FILENO
        } else {
            crate::files::open(Path::new("/dev/tty"))
                .ok()?
                .into_raw_fd()
        };
        // SAFETY: `termios` is plain data, filled in by tcgetattr.
        let mut termios: libc::termios = unsafe { std::mem::zeroed() };
        // SAFETY: `fd` is open and `termios` is ours to fill in.
        (unsafe { libc::tcgetattr(fd, &mut termios) } == 0).then_some((fd, termios))
    }

    /// Installs [`on_signal`] for `signal`; returns the action it replaced.
    #[allow(unsafe_code)]
    fn handle(signal: c_int) -> Option<(c_int, libc::sigaction)> {
        // SAFETY: sigaction is plain data; zeroed is a valid empty action.
        let mut action: libc::sigaction = unsafe { std::mem::zeroed() };
        action.sa_sigaction = on_signal as *const () as libc::sighandler_t;
        // On the alternate stack std sets up: a stack overflow has no room left.
        action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
        // SAFETY: `sa_mask` is ours; sigemptyset only writes it.
        unsafe { libc::sigemptyset(&mut action.sa_mask) };
        // SAFETY: as above, for the previous action.
        let mut previous: libc::sigaction = unsafe { std::mem::zeroed() };
        // SAFETY: both structures are valid; the handler is async-signal-safe.
        (unsafe { libc::sigaction(signal, &action, &mut previous) } == 0)
            .then_some((signal, previous))
    }

    /// The handler: gives the terminal back if the viewer holds it, then
    /// lets the signal do what it would have done. A signal sent (`kill`,
    /// `abort`) is raised again with the default action, which ends the
    /// process with it; a fault goes back to the action before ours (std's,
    /// or the default) and happens again when the handler returns.
    #[allow(unsafe_code)]
    extern "C" fn on_signal(signal: c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
        if ACTIVE.swap(false, Ordering::SeqCst) {
            if let Some(bytes) = RESTORE.get() {
                let mut rest: &[u8] = bytes;
                while !rest.is_empty() {
                    // SAFETY: write(2) is async-signal-safe; `rest` is a live slice.
                    let n = unsafe {
                        libc::write(libc::STDOUT_FILENO, rest.as_ptr().cast(), rest.len())
                    };
                    let Ok(n) = usize::try_from(n) else { break };
                    if n == 0 {
                        break;
                    }
                    rest = &rest[n..];
                }
            }
            if let Some((fd, termios)) = COOKED.get() {
                // SAFETY: tcsetattr(3) is async-signal-safe; `termios` is a
                // valid structure read from the same terminal.
                unsafe { libc::tcsetattr(*fd, libc::TCSANOW, termios) };
            }
        }
        // SAFETY: the kernel hands a valid siginfo to an SA_SIGINFO handler.
        let sent = info.is_null() || unsafe { (*info).si_code } <= 0;
        let previous = PREVIOUS
            .get()
            .and_then(|all| all.iter().find(|(s, _)| *s == signal))
            .map(|(_, action)| action);
        match previous {
            Some(action) if !sent => {
                // SAFETY: putting back the action sigaction gave us.
                unsafe { libc::sigaction(signal, action, std::ptr::null_mut()) };
            }
            _ => {
                // SAFETY: signal(2) to the default action and raise(3) are
                // async-signal-safe; the raised signal is delivered once
                // this handler returns.
                unsafe {
                    libc::signal(signal, libc::SIG_DFL);
                    libc::raise(signal);
                }
            }
        }
    }
}
