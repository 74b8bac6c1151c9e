//! Signals, turned into app events so that the main loop restores the
//! terminal itself: SIGTERM, SIGHUP and SIGINT end the viewer, and so do
//! SIGQUIT, SIGUSR1, SIGUSR2 and SIGALRM (whose default action would end it
//! with the alternate screen and mouse reporting still on); SIGTSTP suspends
//! it like Ctrl-Z, SIGCONT redraws after a resume. SIGPIPE stays ignored (the
//! Rust runtime's choice): a closed pipe is an error where it is written.

use std::sync::mpsc::Sender;
use std::thread::{self, JoinHandle};

use signal_hook::consts::{
    SIGALRM, SIGCONT, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGTSTP, SIGUSR1, SIGUSR2,
};
use signal_hook::iterator::{Handle, Signals};

use super::app::{AppEvent, Signal};

/// The running signal thread; stops when dropped.
pub struct SignalThread {
    handle: Handle,
    thread: Option<JoinHandle<()>>,
}

impl SignalThread {
    /// Starts forwarding signals to `tx`.
    pub fn spawn<U: Send + 'static>(tx: Sender<AppEvent<U>>) -> std::io::Result<SignalThread> {
        let mut signals = Signals::new([
            SIGTERM, SIGHUP, SIGINT, SIGTSTP, SIGCONT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
        ])?;
        let handle = signals.handle();
        let thread = thread::Builder::new()
            .name("overhear-signals".into())
            .spawn(move || {
                for number in signals.forever() {
                    let signal = match number {
                        SIGTERM => Signal::Terminate,
                        SIGHUP => Signal::Hangup,
                        SIGINT => Signal::Interrupt,
                        SIGTSTP => Signal::Stop,
                        SIGCONT => Signal::Continue,
                        other => Signal::End(other),
                    };
                    if tx.send(AppEvent::Signal(signal)).is_err() {
                        return;
                    }
                }
            })?;
        Ok(SignalThread {
            handle,
            thread: Some(thread),
        })
    }
}

impl Drop for SignalThread {
    fn drop(&mut self) {
        self.handle.close();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
