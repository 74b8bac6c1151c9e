//! Time travel: a conversation as it was after its first N steps, or at a
//! moment (`render --at-event N`, `--at TIME`, `overhear replay`).
//!
//! A [`Recording`] is a conversation read whole once, with the places it can
//! be cut: after each JP event (an entry of `events.json`, config deltas
//! included), or after each line of an eve stream (blank lines too, so that
//! `--at-event 57` is `head -n 57`). The state after step N is made by the
//! same readers from the same input cut there, so it is exactly what reading
//! a copy of the file cut after those N entries gives.
//!
//! Not the place for how a state looks (the document and layout do that for
//! every command) nor for playing one back in time (`tui::replay`).

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;

use crate::format::{DocumentFormat, StreamFormat};
use crate::load::{Live, OpenError, Origin};
use crate::model::Conversation;
use crate::model::Event;
use crate::redact::{Joiner, Redactor, redact_conversation, redact_event};
use crate::source::LocateError;
use crate::source::conversation::named;
use crate::source::limit;
use crate::source::opencode::read_whole;
use crate::source::recency::parse_nanos;

/// Where to cut a conversation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum At {
    /// After its first N steps (`--at-event N`).
    Event(usize),
    /// At a moment (`--at TIME`): every step stored at or before it.
    Time {
        /// The time as the user wrote it, for messages.
        text: String,
        /// Nanoseconds since the Unix epoch.
        nanos: i128,
    },
}

impl At {
    /// `--at TIME`: an RFC 3339 time with any offset (`2026-04-10T17:07:09Z`,
    /// `…T19:07:09+02:00`, a fraction allowed; no offset means UTC).
    pub fn time(text: &str) -> Result<At, NotATime> {
        match parse_nanos(text) {
            Some(nanos) => Ok(At::Time {
                text: text.trim().to_string(),
                nanos,
            }),
            // Well formed, but past the times that can be placed.
            // (jiff's range: `Timestamp::MIN` to `Timestamp::MAX`.)
            None if jiff::fmt::temporal::Pieces::parse(text.trim()).is_ok() => {
                Err(NotATime::OutOfRange)
            }
            None => Err(NotATime::Malformed),
        }
    }
}

/// `--at TIME` given something that cannot be placed in time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum NotATime {
    /// Not an RFC 3339 time at all.
    #[error("expected an RFC 3339 time, e.g. 2026-04-10T17:07:09Z")]
    Malformed,
    /// Well formed, but outside the range of times that can be placed.
    #[error("out of range: times from -9999-01-02 to 9999-12-30 can be placed")]
    OutOfRange,
}

/// Why a conversation cannot be shown at the moment asked for.
#[derive(Debug, thiserror::Error)]
pub enum TravelError {
    /// The conversation could not be read at all.
    #[error(transparent)]
    Open(#[from] OpenError),
    /// `--at-event N` past the end (or 0).
    #[error("{file}: {whole} has {count} {unit}; --at-event {asked} is out of range (1..={count})")]
    EventOutOfRange {
        /// The file read.
        file: String,
        /// `conversation` or `stream`.
        whole: &'static str,
        /// How many steps it has.
        count: usize,
        /// `events` or `lines`.
        unit: &'static str,
        /// What was asked for.
        asked: usize,
    },
    /// `--at TIME` before anything was written.
    #[error("{file}: --at {asked} is before the conversation's first {unit} ({first})")]
    BeforeFirst {
        /// The file read.
        file: String,
        /// `event` or `line`.
        unit: &'static str,
        /// What was asked for.
        asked: String,
        /// The time of the first step, as stored.
        first: String,
    },
    /// `--at TIME` on a conversation that stores no times.
    #[error("{file}: no {unit} has a time, so --at {asked} cannot be placed; use --at-event")]
    NoTimes {
        /// The file read.
        file: String,
        /// `event` or `line`.
        unit: &'static str,
        /// What was asked for.
        asked: String,
    },
}

/// A conversation read whole, that can be cut after any of its steps.
pub struct Recording {
    /// The conversation as read: where it comes from, its title and
    /// warnings. Its events are the steps' (a JP conversation's were moved
    /// out); a state is made by [`Recording::state`] or [`Recording::cut`].
    pub live: Live,
    steps: Steps,
    /// The time of each step (nanoseconds since the epoch): its own, else the
    /// last one stored before it.
    times: Vec<Option<i128>>,
    /// The stored time of each step's [`Recording::times`], for messages.
    stamps: Vec<Option<String>>,
    /// Whether the whole conversation is finished now (no JP lock held, the
    /// eve session ended).
    finished_now: bool,
    /// The file read, as messages name it.
    file: String,
    redactor: Option<Arc<Redactor>>,
}

enum Steps {
    /// One step per event.
    Jp {
        events: Vec<Event>,
        base_config: Option<Value>,
        title: Option<String>,
    },
    /// One step per line: the stream's bytes and the end of each line.
    Eve { bytes: Vec<u8>, ends: Vec<usize> },
}

/// A conversation at one step.
pub struct State {
    /// What had been written by then.
    pub conversation: Conversation,
    /// Whether no one was writing it any more: the steps after it did not
    /// exist yet, so only the last step of a finished conversation (or an eve
    /// stream whose session had ended) is finished.
    pub finished: bool,
    /// Problems with the lines read (eve), naming the file; `None` when the
    /// whole conversation's warnings hold (JP: they name the entries).
    pub warnings: Option<Vec<String>>,
}

/// What `render --at-event` needs besides the cut conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Moment {
    /// Whether no one was writing the conversation any more.
    pub finished: bool,
    /// The moment (milliseconds since the epoch): a running turn's rule says
    /// how long it had been running then.
    pub now_ms: Option<i64>,
}

impl Recording {
    /// Reads what `arg` names (`None`: the workspace around the current
    /// folder) whole: a JP conversation, an eve stream file, or a stream
    /// (`-`, a FIFO) read to its end.
    pub fn open(arg: Option<&str>) -> Result<Recording, OpenError> {
        let mut live = Live::open(arg)?;
        let steps = match live.origin.clone() {
            Origin::Jp(_) => jp_steps(&mut live),
            Origin::Eve(path) => eve_steps(read_whole(&path).map_err(|e| named(&path, &e))?),
            Origin::Stream(path) => {
                let bytes = read_stream(&path)?;
                live.push_stream(&bytes, true)?;
                if live.is_jp() {
                    jp_steps(&mut live)
                } else {
                    eve_steps(bytes)
                }
            }
        };
        Ok(Recording::new(live, steps))
    }

    /// A recording of a JP conversation held in memory (the bundled demo):
    /// its events as stored, its base configuration and title.
    pub fn from_jp(
        events: &[u8],
        base_config: Option<&[u8]>,
        title: Option<String>,
    ) -> Result<Recording, OpenError> {
        let name = PathBuf::from("events.json");
        let mut live = Live::stream(name.clone());
        live.push_stream(events, true)?;
        let load = DocumentFormat::Jp
            .load(events, base_config)
            .map_err(|error| OpenError::Format { path: name, error })?;
        live.conversation = Conversation::new(load.events, load.base_config, title);
        let steps = jp_steps(&mut live);
        Ok(Recording::new(live, steps))
    }

    fn new(live: Live, steps: Steps) -> Recording {
        let stamps = match &steps {
            Steps::Jp { events, .. } => events
                .iter()
                .map(|e| e.timestamp.as_deref().map(String::from))
                .collect(),
            Steps::Eve { bytes, ends } => eve_stamps(bytes, ends),
        };
        let mut last: (Option<i128>, Option<String>) = (None, None);
        let (times, stamps) = stamps
            .into_iter()
            .map(|stamp| {
                if let Some(nanos) = stamp.as_deref().and_then(parse_nanos) {
                    last = (Some(nanos), stamp);
                }
                last.clone()
            })
            .unzip();
        let file = match &live.origin {
            Origin::Jp(dir) => dir.events_path().display().to_string(),
            Origin::Eve(path) | Origin::Stream(path) => path.display().to_string(),
        };
        Recording {
            finished_now: live.finished(),
            file,
            live,
            steps,
            times,
            stamps,
            redactor: None,
        }
    }

    /// Replaces secrets in every state made from now on (`--redact`).
    pub fn redact_with(&mut self, redactor: Arc<Redactor>) {
        self.live.redact_with(redactor.clone());
        self.redactor = Some(redactor);
    }

    /// How many steps there are.
    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// Whether nothing was written at all.
    #[cfg(any(test, feature = "internals"))]
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// What a step is: `event` (JP) or `line` (eve).
    pub fn unit(&self) -> &'static str {
        match self.steps {
            Steps::Jp { .. } => "event",
            Steps::Eve { .. } => "line",
        }
    }

    /// The time of step `n` (1-based; its own or the last stored before it),
    /// in nanoseconds since the epoch.
    pub fn time(&self, n: usize) -> Option<i128> {
        self.times.get(n.checked_sub(1)?).copied().flatten()
    }

    /// The file read, as messages name it.
    pub fn file(&self) -> String {
        self.file.clone()
    }

    /// How many steps `at` keeps: N itself, or the steps before the first
    /// one stored after TIME (a step without a time goes with the one
    /// before it). An error names the count and the range.
    pub fn steps_at(&self, at: &At) -> Result<usize, TravelError> {
        let count = self.len();
        let unit = self.unit();
        match at {
            At::Event(n) if (1..=count).contains(n) => Ok(*n),
            At::Event(n) => Err(TravelError::EventOutOfRange {
                file: self.file(),
                whole: match self.steps {
                    Steps::Jp { .. } => "conversation",
                    Steps::Eve { .. } => "stream",
                },
                count,
                unit: match self.steps {
                    Steps::Jp { .. } => "events",
                    Steps::Eve { .. } => "lines",
                },
                asked: *n,
            }),
            At::Time { text, nanos } => {
                let Some(first) = self.times.iter().position(Option::is_some) else {
                    return Err(TravelError::NoTimes {
                        file: self.file(),
                        unit,
                        asked: text.clone(),
                    });
                };
                if self.times[first].is_some_and(|t| t > *nanos) {
                    return Err(TravelError::BeforeFirst {
                        file: self.file(),
                        unit,
                        asked: text.clone(),
                        first: self.stamps[first].clone().unwrap_or_default(),
                    });
                }
                Ok(self
                    .times
                    .iter()
                    .position(|t| t.is_some_and(|t| t > *nanos))
                    .unwrap_or(count))
            }
        }
    }

    /// The conversation after its first `n` steps (at most all of them).
    pub fn state(&self, n: usize) -> State {
        let n = n.min(self.len());
        let mut state = match &self.steps {
            Steps::Jp {
                events,
                base_config,
                title,
            } => State {
                conversation: Conversation::new(
                    events[..n].to_vec(),
                    base_config.clone(),
                    title.clone(),
                ),
                finished: n == self.len() && self.finished_now,
                warnings: None,
            },
            Steps::Eve { bytes, ends } => {
                let end = n.checked_sub(1).map_or(0, |i| ends[i]);
                let path = match &self.live.origin {
                    Origin::Eve(path) | Origin::Stream(path) => path.clone(),
                    Origin::Jp(dir) => dir.events_path(),
                };
                let mut cut = Live::stream_cut(path, &bytes[..end]);
                if let Some(redactor) = &self.redactor {
                    // Its stored lines' streamed pieces joined, as the viewer's.
                    cut.redact_with(redactor.clone());
                }
                State {
                    finished: cut.finished(),
                    warnings: Some(cut.warnings),
                    conversation: cut.conversation,
                }
            }
        };
        if let (Some(redactor), Steps::Jp { .. }) = (&self.redactor, &self.steps) {
            redact_conversation(
                redactor,
                &mut state.conversation,
                &mut Joiner::default(),
                &|_| None,
            );
        }
        state
    }

    /// Brings `conv`, the state after `from` steps, to the state after `to`
    /// (`to > from`) by appending, when the format allows it (JP: the new
    /// events only); returns how many leading turns are untouched and
    /// whether it is finished then, or `None` when only a new
    /// [`Recording::state`] will do.
    pub fn advance(
        &self,
        conv: &mut Conversation,
        from: usize,
        to: usize,
    ) -> Option<(usize, bool)> {
        let Steps::Jp { events, .. } = &self.steps else {
            return None;
        };
        if from > to || to > events.len() || conv.events.len() != from {
            return None;
        }
        let mut fresh = events[from..to].to_vec();
        if let Some(redactor) = &self.redactor {
            fresh.iter_mut().for_each(|e| redact_event(redactor, e));
        }
        let finished = to == self.len() && self.finished_now;
        Some((conv.extend(fresh), finished))
    }

    /// Cuts the conversation at `at`, for printing: the conversation read
    /// (its origin, the warnings of what was read) holding the state then,
    /// and the moment, which says whether it was finished and when it was.
    /// A JP conversation's events are moved, not copied.
    pub fn cut(mut self, at: &At) -> Result<(Live, Moment), TravelError> {
        let n = self.steps_at(at)?;
        let nanos = match at {
            At::Event(_) => self.time(n),
            At::Time { nanos, .. } => Some(*nanos),
        };
        let state = match &mut self.steps {
            Steps::Jp {
                events,
                base_config,
                title,
            } => {
                let mut events = std::mem::take(events);
                events.truncate(n);
                let mut conversation = Conversation::new(events, base_config.take(), title.take());
                if let Some(redactor) = &self.redactor {
                    let joiner = &mut Joiner::default();
                    redact_conversation(redactor, &mut conversation, joiner, &|_| None);
                }
                State {
                    conversation,
                    finished: n == self.times.len() && self.finished_now,
                    warnings: None,
                }
            }
            Steps::Eve { .. } => self.state(n),
        };
        let mut live = self.live;
        live.conversation = state.conversation;
        if let Some(warnings) = state.warnings {
            live.warnings = warnings;
        }
        let moment = Moment {
            finished: state.finished,
            now_ms: nanos.and_then(|t| i64::try_from(t.div_euclid(1_000_000)).ok()),
        };
        Ok((live, moment))
    }
}

/// Takes a JP conversation's events out of `live` as the steps.
fn jp_steps(live: &mut Live) -> Steps {
    let conv = std::mem::take(&mut live.conversation);
    live.conversation.title.clone_from(&conv.title);
    Steps::Jp {
        events: conv.events,
        base_config: conv.base_config,
        title: conv.title,
    }
}

/// An eve stream's lines as the steps: each ends after its newline (the last
/// one may have none); blank lines count, as `head -n` counts them.
fn eve_steps(bytes: Vec<u8>) -> Steps {
    let mut ends: Vec<usize> = memchr::memchr_iter(b'\n', &bytes).map(|i| i + 1).collect();
    if ends.last().copied().unwrap_or(0) < bytes.len() {
        ends.push(bytes.len());
    }
    Steps::Eve { bytes, ends }
}

/// The time of each line of an eve stream: the record's own, as the reader
/// reads it (`None` until a record states one).
fn eve_stamps(bytes: &[u8], ends: &[usize]) -> Vec<Option<String>> {
    let mut reader = StreamFormat::Lines.reader(limit::limit());
    let mut events = Vec::new();
    let mut start = 0;
    ends.iter()
        .map(|&end| {
            reader.feed(&bytes[start..end], &mut events);
            if end == bytes.len() {
                reader.finish(&mut events);
            }
            start = end;
            reader.record_time().map(str::to_string)
        })
        .collect()
}

/// Reads a stream (`-`: standard input) to its end, once.
fn read_stream(path: &Path) -> Result<Vec<u8>, OpenError> {
    let io = |e: std::io::Error| OpenError::Io(named(path, &e));
    let bytes = if path.as_os_str() == "-" {
        crate::files::read::record_stdin();
        read_all(&mut std::io::stdin().lock()).map_err(io)?
    } else {
        read_all(&mut crate::files::open(path).map_err(io)?).map_err(io)?
    };
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(LocateError::EmptyStream(path.to_path_buf()).into());
    }
    Ok(bytes)
}

/// All of `input`, up to the size limit.
fn read_all(input: &mut impl std::io::Read) -> std::io::Result<Vec<u8>> {
    let limit = limit::limit();
    let mut bytes = Vec::new();
    input
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(limit::too_large(None, limit));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests;
