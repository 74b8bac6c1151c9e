//! `overhear replay`: the viewer playing a conversation back as it was
//! written, fed its steps by a timer instead of a file watcher.
//!
//! A [`ReplayDocument`] is the viewer's [`LiveDocument`] showing a
//! [`Recording`] cut after the current step; everything else (follow mode,
//! layout, search, folding) is the viewer's own. The waits come from the
//! steps' stored times: the gap between two steps, at most [`IDLE_CAP`]
//! (an agent thinking for a minute takes two seconds), divided by the speed.
//! Steps stored at the same time arrive together, as they were written.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use ratatui::text::Line;

use super::app::{App, AppEvent, Reload, ViewerOptions};
use super::blocks::{
    Attention, BlockClass, Blocks, EarlierTurns, Follow, Landmark, LiveState, ReplayControl,
    ReadError, ReplayStatus, Replaying,
};
use super::chrome::Chrome;
use super::live::LiveDocument;
use super::run::{EventChannel, Exit, NoWorkspace, TuiError, run};
use super::viewer::ViewerSettings;
use crate::render::document::BlockKey;
use crate::render::lazy_highlight::{Colour, ColourStep};
use crate::travel::Recording;

/// The longest wait between two steps at speed 1: longer pauses of the
/// agent are cut to this.
pub const IDLE_CAP: Duration = Duration::from_secs(2);

/// How long each step shows at speed `max` (steps stored at the same time
/// still arrive together).
pub const MAX_STEP: Duration = Duration::from_millis(20);

/// The speeds `+` and `-` go through.
const SPEEDS: [f64; 9] = [0.25, 0.5, 1.0, 2.0, 4.0, 10.0, 30.0, 100.0, f64::INFINITY];

/// `--speed` given something that is neither a positive factor nor `max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("expected a positive factor (0.5, 1, 4, 10) or max")]
pub struct NotASpeed;

/// How fast a replay plays: a factor on the recorded pace, or `max`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Speed(f64);

impl Speed {
    /// `--speed`: a positive number (`4`, `0.5`, `10x`) or `max`.
    pub fn parse(text: &str) -> Result<Speed, NotASpeed> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("max") {
            return Ok(Speed(f64::INFINITY));
        }
        let number = text.trim_end_matches(['x', 'X', '×']);
        match number.parse::<f64>() {
            Ok(factor) if factor.is_finite() && factor > 0.0 => Ok(Speed(factor)),
            _ => Err(NotASpeed),
        }
    }

    /// The recorded pace.
    pub fn normal() -> Speed {
        Speed(1.0)
    }

    /// The next speed up the ladder (`+`), or this one at `max`.
    fn faster(self) -> Speed {
        Speed(SPEEDS.into_iter().find(|&s| s > self.0).unwrap_or(self.0))
    }

    /// The next speed down the ladder (`-`), or this one at the slowest.
    fn slower(self) -> Speed {
        Speed(
            SPEEDS
                .into_iter()
                .rev()
                .find(|&s| s < self.0)
                .unwrap_or(self.0),
        )
    }

    /// How long to wait for a gap of `gap` between two stored steps.
    fn wait(self, gap: Duration) -> Duration {
        let gap = gap.min(IDLE_CAP);
        if self.0.is_infinite() {
            if gap.is_zero() { gap } else { MAX_STEP }
        } else {
            gap.div_f64(self.0)
        }
    }
}

impl std::fmt::Display for Speed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_infinite() {
            write!(f, "max")
        } else {
            write!(f, "{}×", self.0)
        }
    }
}

/// What the timer sends: the next step is due.
#[derive(Debug)]
pub struct Due;

/// A conversation played back, as the viewer draws it.
pub struct ReplayDocument {
    doc: LiveDocument,
    recording: Recording,
    /// Steps shown.
    step: usize,
    speed: Speed,
    playing: bool,
    /// When the step shown was due (the next one's wait counts from it).
    shown_at: Instant,
    /// Tells the timer when to wake the viewer next.
    alarm: Sender<Option<Instant>>,
}

impl ReplayDocument {
    /// Plays `recording` in `doc` from step `from`, at `speed`; the timer's
    /// wake-ups go to `alarm`.
    pub fn new(
        doc: LiveDocument,
        recording: Recording,
        from: usize,
        speed: Speed,
        alarm: Sender<Option<Instant>>,
    ) -> Self {
        let mut replay = ReplayDocument {
            doc,
            recording,
            step: usize::MAX,
            speed,
            playing: true,
            shown_at: Instant::now(),
            alarm,
        };
        replay.show(from.min(replay.recording.len()));
        replay.schedule();
        replay
    }

    /// Shows the conversation after `step` steps.
    fn show(&mut self, step: usize) {
        let from = self.step;
        self.step = step;
        let advanced = if from < step {
            self.recording
                .advance(self.doc.conversation_mut(), from, step)
        } else {
            None
        };
        let (untouched, finished) = match advanced {
            Some((untouched, finished)) => (Some(untouched), finished),
            None => {
                let state = self.recording.state(step);
                *self.doc.conversation_mut() = state.conversation;
                (None, state.finished)
            }
        };
        let now = self
            .recording
            .time(step)
            .and_then(|t| i64::try_from(t.div_euclid(1_000_000)).ok());
        self.doc.replayed(untouched, finished, now);
    }

    /// The wait before step `step + 1` shows, after step `step`.
    fn wait_after(&self, step: usize) -> Duration {
        let gap = match (self.recording.time(step), self.recording.time(step + 1)) {
            (Some(a), Some(b)) if b > a && step > 0 => {
                Duration::from_nanos(u64::try_from(b - a).unwrap_or(u64::MAX))
            }
            _ => Duration::ZERO,
        };
        self.speed.wait(gap)
    }

    /// Tells the timer when the next step is due (never, when paused or at the end).
    fn schedule(&mut self) {
        let next = (self.playing && self.step < self.recording.len())
            .then(|| self.shown_at + self.wait_after(self.step));
        let _ = self.alarm.send(next);
    }

    /// Shows every step due by now; whether any was.
    fn play_due(&mut self) -> bool {
        let now = Instant::now();
        let mut step = self.step;
        while self.playing && step < self.recording.len() {
            let due = self.shown_at + self.wait_after(step);
            if due > now {
                break;
            }
            step += 1;
            self.shown_at = due;
        }
        // After a suspension, play on from now rather than catch up.
        if now.duration_since(self.shown_at) > IDLE_CAP {
            self.shown_at = now;
        }
        let changed = step != self.step;
        if changed {
            self.show(step);
        }
        if self.step == self.recording.len() {
            self.playing = false;
        }
        self.schedule();
        changed
    }
}

impl Blocks for ReplayDocument {
    type Key = BlockKey;

    fn len(&self) -> usize {
        self.doc.len()
    }

    fn key(&self, i: usize) -> BlockKey {
        self.doc.key(i)
    }

    fn revision(&self, i: usize) -> u64 {
        self.doc.revision(i)
    }

    fn turn(&self, i: usize) -> usize {
        self.doc.turn(i)
    }

    fn class(&self, i: usize) -> BlockClass {
        self.doc.class(i)
    }

    fn is(&self, i: usize, landmark: Landmark) -> bool {
        self.doc.is(i, landmark)
    }

    fn limited(&self, i: usize) -> bool {
        self.doc.limited(i)
    }

    fn foldable(&self, i: usize) -> bool {
        self.doc.foldable(i)
    }

    fn owner(&self, i: usize) -> usize {
        self.doc.owner(i)
    }

    fn lines(&self, i: usize, width: usize, folded: bool) -> Vec<Line<'static>> {
        self.doc.lines(i, width, folded)
    }

    fn lines_coloured(
        &self,
        i: usize,
        width: usize,
        folded: bool,
        colour: Colour,
    ) -> (Vec<Line<'static>>, usize) {
        self.doc.lines_coloured(i, width, folded, colour)
    }

    fn colour_generation(&self) -> u64 {
        self.doc.colour_generation()
    }

    fn colour_more(&self) -> ColourStep {
        self.doc.colour_more()
    }

    fn search_text(&self, i: usize) -> String {
        self.doc.search_text(i)
    }

    fn full_text(&self, i: usize) -> Option<String> {
        self.doc.full_text(i)
    }

    fn title(&self) -> String {
        self.doc.title()
    }

    fn event_count(&self) -> usize {
        self.doc.event_count()
    }

    fn view_name(&self) -> &'static str {
        self.doc.view_name()
    }

    fn cycle_view(&mut self) {
        self.doc.cycle_view();
    }
}

impl Follow for ReplayDocument {
    type Update = Due;

    fn live(&self) -> LiveState {
        self.doc.live()
    }

    fn attention(&self) -> Attention {
        self.doc.attention()
    }

    fn update(&mut self, _due: Due) -> Result<bool, ReadError> {
        Ok(self.play_due())
    }
}

impl EarlierTurns for ReplayDocument {
}

impl Replaying for ReplayDocument {
    fn replay(&self) -> Option<ReplayStatus> {
        let moment = self.recording.time(self.step).and_then(|t| {
            let nanos = u64::try_from(t).ok()?;
            UNIX_EPOCH.checked_add(Duration::from_nanos(nanos))
        });
        Some(ReplayStatus {
            step: self.step,
            total: self.recording.len(),
            unit: self.recording.unit(),
            speed: self.speed.to_string(),
            playing: self.playing,
            moment,
        })
    }

    fn control(&mut self, control: ReplayControl) -> (bool, Option<String>) {
        let total = self.recording.len();
        let before = self.step;
        let note = match control {
            ReplayControl::Pause if self.step == total => {
                self.show(0);
                self.playing = true;
                None
            }
            ReplayControl::Pause => {
                self.playing = !self.playing;
                None
            }
            ReplayControl::Forward | ReplayControl::Back => {
                self.playing = false;
                let step = match control {
                    ReplayControl::Forward => (self.step + 1).min(total),
                    _ => self.step.saturating_sub(1),
                };
                if step != self.step {
                    self.show(step);
                }
                None
            }
            ReplayControl::Faster => {
                self.speed = self.speed.faster();
                Some(format!("speed {}", self.speed))
            }
            ReplayControl::Slower => {
                self.speed = self.speed.slower();
                Some(format!("speed {}", self.speed))
            }
        };
        self.shown_at = Instant::now();
        self.schedule();
        (self.step != before || control == ReplayControl::Pause, note)
    }
}

/// The timer: sleeps until the instant last sent (none: until told one),
/// then asks the viewer to play what is due. Ends when the replay is gone.
fn spawn_alarm(wake: impl Fn() + Send + 'static) -> std::io::Result<Sender<Option<Instant>>> {
    let (tx, rx): (Sender<Option<Instant>>, Receiver<Option<Instant>>) = mpsc::channel();
    std::thread::Builder::new()
        .name("overhear-replay".into())
        .spawn(move || {
            let mut next: Option<Instant> = None;
            loop {
                let told = match next {
                    None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
                    Some(at) => rx.recv_timeout(at.saturating_duration_since(Instant::now())),
                };
                match told {
                    Ok(at) => next = at,
                    Err(RecvTimeoutError::Timeout) => {
                        next = None;
                        wake();
                    }
                    Err(RecvTimeoutError::Disconnected) => return,
                }
            }
        })?;
    Ok(tx)
}

/// Runs the viewer on `recording`, played from step `from` at `speed`,
/// until the user quits. The terminal is restored however it ends.
pub fn run_replay(
    mut recording: Recording,
    from: usize,
    speed: Speed,
    settings: ViewerSettings,
) -> Result<Exit, TuiError> {
    if let Some(redactor) = &settings.redactor {
        recording.redact_with(redactor.clone());
    }
    let events = EventChannel::<Due>::new();
    let tx = events.sender();
    let alarm = spawn_alarm(move || {
        let _ = tx.send(AppEvent::Reload(Reload {
            epoch: 0,
            update: Due,
            at: SystemTime::now(),
        }));
    })?;
    let live = std::mem::replace(
        &mut recording.live,
        crate::load::Live::stream(std::path::PathBuf::from("-")),
    );
    let doc = LiveDocument::new(
        live,
        settings.doc,
        settings.theme.clone(),
        settings.sanitize,
    );
    let problems = doc.source().warnings.clone();
    let options = ViewerOptions {
        chrome: Chrome::from_theme(&settings.theme),
        notify: settings.notify,
        // A replay starts as the viewer does, and does not remember.
        view: settings.view,
        ..ViewerOptions::default()
    };
    let replay = ReplayDocument::new(doc, recording, from, speed, alarm);
    let mut app = App::new(replay, options);
    if let Some(first) = problems.first() {
        app.note(super::live::without_folder(first));
    }
    run(app, &mut NoWorkspace, events, settings.mouse)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_parse_and_step_along_the_ladder() {
        assert_eq!(Speed::parse("4").unwrap().to_string(), "4×");
        assert_eq!(Speed::parse("0.5x").unwrap().to_string(), "0.5×");
        assert_eq!(Speed::parse("MAX").unwrap().to_string(), "max");
        for bad in ["0", "-2", "fast", "inf", "NaN"] {
            assert!(Speed::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Speed::normal().faster().to_string(), "2×");
        assert_eq!(Speed::parse("3").unwrap().faster().to_string(), "4×");
        assert_eq!(Speed::parse("3").unwrap().slower().to_string(), "2×");
        assert_eq!(Speed::parse("100").unwrap().faster().to_string(), "max");
        assert_eq!(Speed::parse("max").unwrap().faster().to_string(), "max");
        assert_eq!(Speed::parse("0.25").unwrap().slower().to_string(), "0.25×");
    }

    #[test]
    fn idle_gaps_are_capped_then_divided_by_the_speed() {
        let minute = Duration::from_secs(60);
        assert_eq!(Speed::normal().wait(minute), IDLE_CAP);
        assert_eq!(Speed(4.0).wait(minute), Duration::from_millis(500));
        assert_eq!(
            Speed(2.0).wait(Duration::from_millis(800)),
            Duration::from_millis(400)
        );
        assert_eq!(Speed(f64::INFINITY).wait(minute), MAX_STEP);
        assert_eq!(Speed(f64::INFINITY).wait(Duration::ZERO), Duration::ZERO);
    }
}
