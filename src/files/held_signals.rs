//! The signals that end a run at someone's request — SIGINT (Ctrl-C),
//! SIGTERM, SIGHUP — held while an export's temporary file exists: the
//! write stops at its next step, the temporary file is removed, and then
//! the signal takes its course (its default action: the process ends by
//! it, and its exit status says so). Before, a Ctrl-C in the middle of a
//! page left `.NAME.overhear-PID-N.tmp` beside it.
//!
//! Plain `sigaction(2)`: the handler only notes the signal's number (an
//! atomic store, async-signal-safe), and the actions found are put back as
//! they were, so a signal the process ignores (`nohup`, a background job's
//! SIGINT) stays ignored and nothing is held past the write. Only the
//! export holds them: the viewer, which writes its own setting file, turns
//! these signals into events of its own.

use std::io;
use std::sync::atomic::{AtomicI32, Ordering};

/// The signals held.
const HELD: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// The last held signal that came, 0 for none.
static CAUGHT: AtomicI32 = AtomicI32::new(0);

extern "C" fn note(signal: libc::c_int) {
    CAUGHT.store(signal, Ordering::SeqCst);
}

/// The held signals, with the actions to put back.
pub(super) struct HeldSignals {
    previous: Vec<(libc::c_int, libc::sigaction)>,
}

impl HeldSignals {
    /// Holds each of the signals the process does not ignore.
    #[allow(unsafe_code)]
    pub(super) fn hold() -> HeldSignals {
        CAUGHT.store(0, Ordering::SeqCst);
        let mut previous = Vec::new();
        for signal in HELD {
            // SAFETY: `sigaction` reads and writes the two structs given,
            // zeroed (a valid `sigaction`) and owned here; the handler
            // installed only stores to an atomic.
            unsafe {
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(signal, std::ptr::null(), &mut old) != 0
                    || old.sa_sigaction == libc::SIG_IGN
                {
                    continue;
                }
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = note as *const () as libc::sighandler_t;
                action.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut action.sa_mask);
                if libc::sigaction(signal, &action, std::ptr::null_mut()) == 0 {
                    previous.push((signal, old));
                }
            }
        }
        HeldSignals { previous }
    }

    /// An error once a held signal came: the write stops there.
    pub(super) fn check(&self) -> io::Result<()> {
        match CAUGHT.load(Ordering::SeqCst) {
            0 => Ok(()),
            // Not `ErrorKind::Interrupted`, which `write_all` retries.
            signal => Err(io::Error::other(format!("interrupted (signal {signal})"))),
        }
    }

    /// Puts the actions back; a signal that came while held is raised
    /// again under them (by default, the process ends here).
    #[allow(unsafe_code)]
    pub(super) fn release(self) {
        for (signal, old) in &self.previous {
            // SAFETY: puts back the action `hold` read for this signal.
            unsafe {
                libc::sigaction(*signal, old, std::ptr::null_mut());
            }
        }
        let signal = CAUGHT.swap(0, Ordering::SeqCst);
        if signal != 0 {
            // SAFETY: raising a signal touches no memory of ours.
            unsafe {
                libc::raise(signal);
            }
        }
    }
}
