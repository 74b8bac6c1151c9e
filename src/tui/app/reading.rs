//! Reading every earlier turn of a conversation opened at its end, for a
//! key that needs them (`g`, `/`, `?`, `n`, `N`, `12t`, `10G`, `z`, `r`, and
//! `{`, `(`, `X` when nothing earlier was found in what was read), or for
//! a hit of the search over every session to be shown: one step
//! at a time ([`EarlierAmount::Step`]), the viewer's loop answering keys,
//! signals, resizes and appends between two steps. The status bar says how
//! far the read is; `q` and Ctrl-C quit at once, `Esc` stops the read (what
//! was read stays read) and forgets the key; other keys and clicks wait for
//! the key to be done, in the order they were typed.
//!
//! A search (`/`, `?`, `n`, `N`) then counts its matches in every block the
//! same way, a step between keys ([`App::search_stepwise`]): the blocks of a
//! 1 GB conversation's text take seconds to search, more where turns far
//! from the view were emptied and are decoded again. So does `v` where turns
//! were emptied: the next view's blocks are built a step at a time
//! ([`EarlierTurns::view_step`]), the view shown until it is done.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::{App, AppEvent, Effect};
use crate::tui::blocks::{EarlierAmount, Viewable};
use crate::text::count::thousands;
use crate::tui::everywhere::FoundHit;
use crate::tui::keys::{Action, action_for};

/// What waits for every earlier turn to be read.
enum Then {
    /// A key: what it asks, and its count.
    Act(Action, Option<usize>),
    /// Showing a hit of the search over every session.
    Show(FoundHit),
    /// Landing on the next match of the search, going `forward` or back
    /// (`inclusive`: a match on the cursor's line counts), once the matches
    /// of every block are counted; `counted` blocks are.
    Search {
        forward: bool,
        inclusive: bool,
        counted: usize,
    },
    /// The next view, whose blocks are built a step at a time
    /// ([`EarlierTurns::view_step`]); `percent` of them are.
    View { percent: usize },
}

/// A key (or a hit) waiting for every earlier turn to be read.
pub(super) struct Reading {
    then: Then,
    /// How many earlier turns were left when the read began: the progress
    /// shown counts from it.
    from: usize,
    /// Keys and clicks typed meanwhile, for after the key.
    typed: Vec<Event>,
}

impl<D: Viewable> App<D> {
    /// Starts reading every earlier turn, then `action` (`count` times, as
    /// its count says): [`App::read_step`] does the reading.
    pub(in crate::tui) fn read_all_then(&mut self, action: Action, count: Option<usize>) {
        self.reading = Some(Reading {
            then: Then::Act(action, count),
            from: self.doc.earlier_unread(),
            typed: Vec::new(),
        });
        self.show_progress();
    }

    /// Starts reading every earlier turn, then shows `hit` (see
    /// [`App::show_hit`]).
    pub(in crate::tui) fn read_all_then_show(&mut self, hit: FoundHit) {
        self.reading = Some(Reading {
            then: Then::Show(hit),
            from: self.doc.earlier_unread(),
            typed: Vec::new(),
        });
        self.show_progress();
    }

    /// Whether earlier turns are being read for a key: the runner then
    /// calls [`App::read_step`] whenever no event waits.
    pub fn is_reading(&self) -> bool {
        self.reading.is_some()
    }

    /// Sets the count of the key waiting for the earlier turns: a repeated
    /// key (`3{`) goes on with the repeats left once they are read.
    pub(in crate::tui) fn repeat_after_reading(&mut self, count: usize) {
        if let Some(Reading {
            then: Then::Act(_, repeats),
            ..
        }) = &mut self.reading
        {
            *repeats = Some(count);
        }
    }

    /// Reads one step of the earlier turns a key waits for, keeping the
    /// view where it is. Once every turn is read, the key does what it
    /// asks (what it needs the runner to do comes back), and what was
    /// typed meanwhile comes out of [`App::typed_event`]. A problem reading
    /// them ends the read without the key, and the note says it.
    pub fn read_step(&mut self) -> Option<Effect> {
        let view = matches!(self.reading.as_ref()?.then, Then::View { .. });
        // A view change shows the view there is until the new one is
        // built: its place now is where the new one opens.
        let (anchor, turn) = if view {
            let anchor = self.anchor();
            let turn = anchor.as_ref().map(|(_, b, _)| self.doc.turn(*b));
            (anchor, turn)
        } else {
            (None, None)
        };
        if !view && self.doc.earlier() > 0 {
            let read = self.read_keeping_view(EarlierAmount::Step);
            self.settle();
            match read {
                Err(note) => {
                    self.reading = None;
                    self.note(note.to_string());
                    return None;
                }
                // Nothing more could be read: the key acts on what there is.
                Ok(false) => {}
                Ok(true) if self.doc.earlier() > 0 => {
                    self.show_progress();
                    return None;
                }
                Ok(true) => {}
            }
        }
        if let Some(done) = self.own_step() {
            self.advance(done);
            self.show_progress();
            return None;
        }
        let reading = self.reading.take()?;
        self.message = self.read_error.clone();
        self.typed.extend(reading.typed);
        match reading.then {
            Then::Act(action, count) => self.act_counted(action, count),
            Then::Show(hit) => {
                self.land_on_hit(&hit);
                None
            }
            Then::Search {
                forward, inclusive, ..
            } => {
                self.find_counted(forward, inclusive);
                None
            }
            Then::View { .. } => {
                self.show_view_changed(anchor, turn);
                None
            }
        }
    }

    /// One step of what a view change or a search's count has left: how
    /// far it got (a percent, a block) while more is left; `None` once it
    /// is done, or for a key that waits only for the earlier turns.
    fn own_step(&mut self) -> Option<usize> {
        match self.reading.as_ref()?.then {
            Then::View { .. } => self.doc.view_step(),
            Then::Search { counted, .. } => {
                let counted = self.count_matches(counted);
                (counted < self.doc.len()).then_some(counted)
            }
            Then::Act(..) | Then::Show(_) => None,
        }
    }

    /// Notes how far the view change or the search's count got.
    fn advance(&mut self, to: usize) {
        if let Some(reading) = &mut self.reading {
            match &mut reading.then {
                Then::View { percent } => *percent = to,
                Then::Search { counted, .. } => *counted = to,
                Then::Act(..) | Then::Show(_) => {}
            }
        }
    }

    /// Goes on with a view change begun a step at a time
    /// ([`EarlierTurns::begin_view_change`]): [`App::read_step`] builds it.
    pub(super) fn change_view_stepwise(&mut self) {
        self.reading = Some(Reading {
            then: Then::View { percent: 0 },
            from: 0,
            typed: Vec::new(),
        });
        self.show_progress();
    }

    /// Lands on the next match of the search once the matches of every
    /// block are counted: at once when counting them takes less than a
    /// step, else a step at a time between keys ([`App::read_step`]).
    pub(in crate::tui) fn search_stepwise(&mut self, forward: bool, inclusive: bool) {
        self.hits.reserve(self.doc.len());
        let counted = self.count_matches(0);
        if counted >= self.doc.len() {
            return self.find_counted(forward, inclusive);
        }
        self.reading = Some(Reading {
            then: Then::Search {
                forward,
                inclusive,
                counted,
            },
            from: 0,
            typed: Vec::new(),
        });
        self.show_progress();
    }

    /// The next key or click typed while earlier turns were read, once
    /// they are: the runner handles these before anything newer.
    pub fn typed_event(&mut self) -> Option<AppEvent<D::Update>> {
        self.typed.pop_front().map(AppEvent::Terminal)
    }

    /// What a key or click does while earlier turns are read.
    pub(super) fn reading_input(&mut self, input: Event) -> Option<Effect> {
        let Event::Key(key) = &input else {
            self.keep_for_later(input);
            return None;
        };
        if key.kind == KeyEventKind::Release {
            return None;
        }
        let plain = key.modifiers.difference(KeyModifiers::SHIFT).is_empty();
        if key.code == KeyCode::Esc && plain {
            self.stop_reading();
            return None;
        }
        match action_for(key) {
            // `q` in a sub-agent shown full-screen goes back to the parent.
            Some(Action::Quit) if plain && !self.agents.is_empty() => {
                self.stop_reading();
                let key: KeyEvent = *key;
                self.key(&key)
            }
            Some(Action::Quit) => Some(Effect::Quit),
            Some(Action::Suspend) => Some(Effect::Suspend),
            _ => {
                self.keep_for_later(input);
                None
            }
        }
    }

    /// Keeps `input` for when the key waiting for the earlier turns is done.
    fn keep_for_later(&mut self, input: Event) {
        if let Some(reading) = &mut self.reading {
            reading.typed.push(input);
        }
    }

    /// Stops reading the earlier turns (`Esc`): what was read stays read,
    /// the key waiting for them and what was typed after it are dropped.
    fn stop_reading(&mut self) {
        let Some(reading) = self.reading.take() else {
            return;
        };
        match reading.then {
            Then::Search { .. } => {
                self.note("stopped searching: n searches again");
                return;
            }
            Then::View { .. } => {
                self.doc.cancel_view_change();
                self.note(format!("view: {} (stopped changing it)", self.doc.view_name()));
                return;
            }
            Then::Act(..) | Then::Show(_) => {}
        }
        let left = self.doc.earlier_unread();
        let s = if left == 1 { "" } else { "s" };
        self.note(format!(
            "stopped reading: {} earlier turn{s} left unread",
            thousands(left)
        ));
    }

    /// The status bar's note while reading: how far (first, for a narrow
    /// bar), of how many turns, and how to stop.
    fn show_progress(&mut self) {
        let Some(reading) = &self.reading else {
            return;
        };
        match reading.then {
            Then::Search { counted, .. } => {
                let percent = counted * 100 / self.doc.len().max(1);
                self.message = Some(format!("searching… {percent}% · Esc cancels"));
                return;
            }
            Then::View { percent } => {
                self.message = Some(format!("changing the view… {percent}% · Esc cancels"));
                return;
            }
            Then::Act(..) | Then::Show(_) => {}
        }
        let from = reading.from.max(1);
        let done = from.saturating_sub(self.doc.earlier_unread());
        let percent = done * 100 / from;
        let s = if from == 1 { "" } else { "s" };
        self.message = Some(format!(
            "reading… {percent}% of {} earlier turn{s} · Esc cancels",
            thousands(from)
        ));
    }
}
