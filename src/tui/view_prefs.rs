//! The view choices the viewer remembers from one run to the next — how
//! reasoning is shown (`r`) and whether tool cards are folded (`z`) — and
//! the thread that saves a change, so that no key waits for the disk.
//!
//! The viewer does not know where the choices are kept: the command line
//! hands it a [`SaveChoices`] (the user configuration's `[view]` table,
//! docs/config.md). A change is saved once the keys have been quiet for
//! [`QUIET`] (pressing `r` three times writes once) and when the viewer
//! quits; a save that fails is said once in the status bar, and the viewer
//! goes on.

use std::collections::HashSet;
use std::fmt;
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

use super::fold::ReasoningMode;

/// How reasoning and tool cards are shown when the viewer opens: the
/// command line's flags, else the remembered choices, else shown and
/// unfolded.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ViewStart {
    /// Reasoning shown, folded or hidden.
    pub reasoning: ReasoningMode,
    /// Every tool card folded.
    pub cards_folded: bool,
}

/// Choices changed in the viewer, to remember; `None`: not changed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ViewChoices {
    /// `r` chose this.
    pub reasoning: Option<ReasoningMode>,
    /// `z` folded (`true`) or unfolded every tool card.
    pub cards_folded: Option<bool>,
}

impl ViewChoices {
    /// `later` over `self`: the latest choice of each.
    fn then(self, later: ViewChoices) -> ViewChoices {
        ViewChoices {
            reasoning: later.reasoning.or(self.reasoning),
            cards_folded: later.cards_folded.or(self.cards_folded),
        }
    }
}

/// Where choices are remembered: saves them, or says in a short sentence
/// (for the status bar, naming the file) why it could not.
#[derive(Clone)]
pub struct SaveChoices(Arc<dyn Fn(ViewChoices) -> Result<(), String> + Send + Sync>);

impl SaveChoices {
    /// Choices saved by `save`.
    pub fn new(save: impl Fn(ViewChoices) -> Result<(), String> + Send + Sync + 'static) -> Self {
        SaveChoices(Arc::new(save))
    }
}

impl fmt::Debug for SaveChoices {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SaveChoices(..)")
    }
}

/// How long the keys must be quiet before a change is saved.
pub const QUIET: Duration = Duration::from_millis(250);

/// How long quitting waits for the last save at most (a disk that hangs
/// must not keep the terminal).
const FINISH_WAIT: Duration = Duration::from_secs(2);

/// What the saving thread is sent.
enum Message {
    /// A change to save.
    Choose(ViewChoices),
    /// The viewer ends: save now.
    Finish,
}

/// What the viewer holds to remember a choice: sends it to the saving
/// thread and returns at once.
#[derive(Debug, Clone)]
pub struct Remember {
    tx: Sender<Message>,
}

impl Remember {
    /// Remembers `choices` (saved once the keys are quiet).
    pub fn choose(&self, choices: ViewChoices) {
        let _ = self.tx.send(Message::Choose(choices));
    }
}

/// The saving thread; [`Saver::finish`] saves what is left when the viewer
/// ends.
#[derive(Debug)]
pub struct Saver {
    tx: Sender<Message>,
    done: Receiver<()>,
}

impl Saver {
    /// Starts the thread that saves with `save`, telling `note` why a save
    /// failed (each reason once); `None` when no thread can be started.
    pub fn spawn(save: SaveChoices, note: impl Fn(String) + Send + 'static) -> Option<(Saver, Remember)> {
        let (tx, rx) = mpsc::channel();
        let (done_tx, done) = mpsc::channel();
        std::thread::Builder::new()
            .name("overhear-remember".into())
            .spawn(move || {
                saving(&rx, &save, &note);
                let _ = done_tx.send(());
            })
            .ok()?;
        Some((Saver { tx: tx.clone(), done }, Remember { tx }))
    }

    /// Saves the change not yet saved, waiting a moment at most.
    pub fn finish(self) {
        let _ = self.tx.send(Message::Finish);
        let _ = self.done.recv_timeout(FINISH_WAIT);
    }
}

/// The thread's loop: waits for a change, gathers those that follow until
/// the keys are quiet or the viewer ends, saves them.
fn saving(rx: &Receiver<Message>, save: &SaveChoices, note: &dyn Fn(String)) {
    let mut said = HashSet::new();
    while let Ok(Message::Choose(first)) = rx.recv() {
        let mut pending = first;
        let mut finishing = false;
        loop {
            match rx.recv_timeout(QUIET) {
                Ok(Message::Choose(later)) => pending = pending.then(later),
                Ok(Message::Finish) | Err(RecvTimeoutError::Disconnected) => {
                    finishing = true;
                    break;
                }
                Err(RecvTimeoutError::Timeout) => break,
            }
        }
        if let Err(why) = (save.0)(pending)
            && said.insert(why.clone())
        {
            note(why);
        }
        if finishing {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    fn recording() -> (SaveChoices, Arc<Mutex<Vec<ViewChoices>>>) {
        let saved = Arc::new(Mutex::new(Vec::new()));
        let log = saved.clone();
        let save = SaveChoices::new(move |choices| {
            log.lock().unwrap().push(choices);
            Ok(())
        });
        (save, saved)
    }

    /// Changes in a row are saved once, the latest of each; quitting saves
    /// what the quiet time had not yet.
    #[test]
    fn changes_in_a_row_are_saved_once_and_quitting_saves_the_rest() {
        let (save, saved) = recording();
        let (saver, remember) = Saver::spawn(save, |_| {}).unwrap();
        remember.choose(ViewChoices {
            reasoning: Some(ReasoningMode::Folded),
            cards_folded: None,
        });
        remember.choose(ViewChoices {
            reasoning: Some(ReasoningMode::Hidden),
            cards_folded: None,
        });
        remember.choose(ViewChoices {
            reasoning: None,
            cards_folded: Some(true),
        });
        saver.finish();
        let saved = saved.lock().unwrap().clone();
        assert_eq!(
            saved,
            [ViewChoices {
                reasoning: Some(ReasoningMode::Hidden),
                cards_folded: Some(true),
            }]
        );
    }

    /// A save that fails is said once, however often it fails the same way.
    #[test]
    fn a_failing_save_is_said_once() {
        let tries = Arc::new(Mutex::new(0));
        let counted = tries.clone();
        let save = SaveChoices::new(move |_| {
            *counted.lock().unwrap() += 1;
            Err("config.toml: a symbolic link".to_owned())
        });
        let notes = Arc::new(Mutex::new(Vec::new()));
        let log = notes.clone();
        let (saver, remember) = Saver::spawn(save, move |note| log.lock().unwrap().push(note)).unwrap();
        for cards in [true, false, true] {
            remember.choose(ViewChoices {
                reasoning: None,
                cards_folded: Some(cards),
            });
            std::thread::sleep(QUIET * 2);
        }
        saver.finish();
        assert!(*tries.lock().unwrap() >= 2, "changes apart are saved apart");
        assert_eq!(*notes.lock().unwrap(), ["config.toml: a symbolic link"]);
    }
}
