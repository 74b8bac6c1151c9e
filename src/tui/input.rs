//! The input thread: reads keys, mouse and resize events from the terminal
//! and sends them to the app with a tick about once a second. It can be
//! paused, so that a pager or the shell (after Ctrl-Z) gets the keystrokes.
//!
//! When the terminal goes away (its window closed, `tmux kill-server`, a
//! dropped ssh connection), crossterm's reader spins inside `event::poll`
//! without returning (crossterm-rs/crossterm#793). So the hang-up is watched
//! for apart from it, by [`watch_hangup`], and the input thread is never
//! waited for: dropping [`Input`] tells it to stop and returns at once, so a
//! viewer that lost its terminal ends instead of burning a core, and `q`
//! gives the prompt back without waiting out the thread's poll.

use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use crossterm::event;

use super::app::{AppEvent, Signal};

/// How long one wait for input lasts; bounds how fast pausing takes effect.
const POLL: Duration = Duration::from_millis(50);
/// How often [`AppEvent::Tick`] is sent.
const TICK: Duration = Duration::from_secs(1);

#[derive(Default)]
struct State {
    paused: bool,
    parked: bool,
    stop: bool,
}

#[derive(Default)]
struct Control {
    state: Mutex<State>,
    changed: Condvar,
}

/// The running input thread. Dropping it stops the thread without waiting
/// for it (the viewer's process ends next).
pub struct Input {
    control: Arc<Control>,
}

impl Input {
    /// Starts reading the terminal; events go to `tx`. Also starts watching
    /// the terminal for a hang-up.
    pub fn spawn<U: Send + 'static>(tx: Sender<AppEvent<U>>) -> std::io::Result<Input> {
        let control = Arc::new(Control::default());
        let shared = control.clone();
        let hangup_tx = tx.clone();
        let hangup_control = control.clone();
        thread::Builder::new()
            .name("overhear-input".into())
            .spawn(move || read_loop(&shared, &tx))?;
        thread::Builder::new()
            .name("overhear-hangup".into())
            .spawn(move || watch_hangup(&hangup_control, &hangup_tx))?;
        Ok(Input { control })
    }

    /// Stops reading and waits until the thread is not reading any more.
    pub fn pause(&self) {
        let mut state = self.lock();
        state.paused = true;
        while !state.parked && !state.stop {
            state = self
                .control
                .changed
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Reads again after [`Input::pause`].
    pub fn resume(&self) {
        let mut state = self.lock();
        state.paused = false;
        state.parked = false;
        self.control.changed.notify_all();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.control
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

impl Drop for Input {
    fn drop(&mut self) {
        // The thread sees this at its next turn (within [`POLL`]); nothing
        // waits for that, and one stuck on a dead terminal is left behind.
        let mut state = self.lock();
        state.stop = true;
        self.control.changed.notify_all();
    }
}

/// Waits for the terminal to hang up, without reading from it, and then says
/// so with [`Signal::Hangup`]. Returns when the input stops.
fn watch_hangup<U>(control: &Control, tx: &Sender<AppEvent<U>>) {
    loop {
        if terminal_hung_up(TICK) {
            let _ = tx.send(AppEvent::Signal(Signal::Hangup));
            return;
        }
        if control
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .stop
        {
            return;
        }
    }
}

/// Whether the terminal the viewer draws on (stdout) hung up, waiting up to
/// `wait` for it to. `poll(2)` with no requested events reports only
/// `POLLHUP`, `POLLERR` and `POLLNVAL`, which is exactly "the terminal went
/// away", and reads nothing.
// poll(2) on stdout has no safe wrapper in std or crossterm.
#[allow(unsafe_code)]
pub fn terminal_hung_up(wait: Duration) -> bool {
    let mut watched = libc::pollfd {
        fd: libc::STDOUT_FILENO,
        events: 0,
        revents: 0,
    };
    let wait = libc::c_int::try_from(wait.as_millis()).unwrap_or(libc::c_int::MAX);
    // SAFETY: one valid `pollfd`, for the duration of the call.
    let ready = unsafe { libc::poll(&mut watched, 1, wait) };
    ready > 0 && watched.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0
}

fn read_loop<U>(control: &Control, tx: &Sender<AppEvent<U>>) {
    let mut next_tick = Instant::now() + TICK;
    loop {
        {
            let mut state = control.state.lock().unwrap_or_else(PoisonError::into_inner);
            while state.paused && !state.stop {
                state.parked = true;
                control.changed.notify_all();
                state = control
                    .changed
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            if state.stop {
                return;
            }
        }
        let sent = match event::poll(POLL) {
            Ok(true) => match event::read() {
                Ok(ev) => tx.send(AppEvent::Terminal(ev)),
                Err(_) => {
                    // The terminal is gone.
                    let _ = tx.send(AppEvent::Signal(Signal::Hangup));
                    return;
                }
            },
            Ok(false) => Ok(()),
            Err(_) => {
                let _ = tx.send(AppEvent::Signal(Signal::Hangup));
                return;
            }
        };
        if sent.is_err() {
            return;
        }
        if Instant::now() >= next_tick {
            next_tick = Instant::now() + TICK;
            if tx.send(AppEvent::Tick).is_err() {
                return;
            }
        }
    }
}
