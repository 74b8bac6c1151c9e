//! The input thread: reads keys, mouse and resize events from the terminal
//! and sends them to the app with a tick about once a second. It can be
//! paused, so that a pager or the shell (after Ctrl-Z) gets the keystrokes.

use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::{self, JoinHandle};
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

/// The running input thread.
pub struct Input {
    control: Arc<Control>,
    thread: Option<JoinHandle<()>>,
}

impl Input {
    /// Starts reading the terminal; events go to `tx`.
    pub fn spawn<U: Send + 'static>(tx: Sender<AppEvent<U>>) -> std::io::Result<Input> {
        let control = Arc::new(Control::default());
        let shared = control.clone();
        let thread = thread::Builder::new()
            .name("overhear-input".into())
            .spawn(move || read_loop(&shared, &tx))?;
        Ok(Input {
            control,
            thread: Some(thread),
        })
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
        {
            let mut state = self.lock();
            state.stop = true;
            self.control.changed.notify_all();
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
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
