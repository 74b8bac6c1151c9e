//! eve session streams (NDJSON) → canonical events.
//!
//! [`EveReader`] takes the bytes of an eve session stream as they arrive —
//! generation A (stream versions 16–26, one event per line) or generation B
//! (v27, one commit or progress record per line, possibly carrying v26 events)
//! — and keeps the canonical events (JP's vocabulary) read so far, the original
//! records for the raw view, the diagnostics for lines it could not read, and
//! the streaming text of the step in progress. The mapping is normative in
//! eve-format §13; what JP's vocabulary cannot say goes into the metadata keys
//! of [`crate::model::facts`] (see docs/eve-mapping.md).
//!
//! It works on bytes only: opening, tailing and watching files is `source`'s job.
//!
//! # Events that change after they were returned
//!
//! eve reports some facts after the event they concern, so an event already in
//! [`EveReader::events`] may be updated in place (never removed or moved);
//! every such change bumps [`EveReader::revision`]:
//!
//! * `turn_start`: its `overhear.turn` (model, tokens, cost, held, error,
//!   ended) and `overhear.session` as the turn runs and ends;
//! * `chat_response`: `overhear.final_reply` removed when the turn turns out
//!   to be held; replaced whole by a retried step's (or run's) block;
//!   `overhear.superseded` set when a retry starts and cleared when replaced;
//! * `tool_call_request`: arguments and `overhear.attempts` when the call id
//!   repeats, `overhear.task` as its task runs and settles, `overhear.superseded`;
//! * `tool_call_response`: content, `is_error`, `overhear.outcome` and
//!   `overhear.attempts` when the call is answered again (a channel update's
//!   content also when its request arrives after it), `overhear.task` for a
//!   call never requested.

mod builder;
mod events_v26;
mod facts_v27;
pub(crate) mod lines;
mod record;
mod text;

#[cfg(test)]
mod tests;

use compact_str::{CompactString, format_compact};
use serde_json::Value;

use self::builder::{Builder, Stamp};
use self::lines::LineSplitter;
use self::record::Record;
use super::reader::StreamReader;
use super::surrogates::LineRepair;
#[cfg(any(test, feature = "internals"))]
use crate::model::Conversation;
use crate::model::{Event, InProgress, Original, StreamPiece};
use crate::problem::SkippedLine;

/// The `turnId` a stored line names: a v27 commit's first fact naming one,
/// a progress record's, or a gen A event's (in its scope or data).
fn turn_id(value: &Value) -> Option<&str> {
    if let Some(facts) = value.get("facts").and_then(Value::as_array) {
        return facts.iter().find_map(record_turn_id);
    }
    record_turn_id(value.get("progress").unwrap_or(value))
}

fn record_turn_id(record: &Value) -> Option<&str> {
    ["scope", "data"]
        .iter()
        .find_map(|k| record.get(k)?.get("turnId")?.as_str())
}

/// Reads a whole eve stream at once (same as [`EveReader::read_all`]).
#[cfg(any(test, feature = "internals"))]
pub fn read_all(bytes: &[u8]) -> EveReader {
    EveReader::read_all(bytes)
}

/// Reads an eve session stream incrementally into canonical events.
#[derive(Debug, Default)]
pub struct EveReader {
    splitter: LineSplitter,
    inner: Inner,
}

#[derive(Debug, Default)]
struct Inner {
    builder: Builder,
    v27: facts_v27::State,
    originals: Vec<Original>,
    /// Stored lines handed over by [`EveReader::take_originals`].
    taken: usize,
    diagnostics: Vec<SkippedLine>,
    /// Position (0-based index among stored v27 lines) of the next v27 line.
    position: usize,
    /// `at` of the latest v27 commit: progress records inherit it.
    last_at: Option<CompactString>,
    /// The time of the latest stored record that had one (`meta.at`, a
    /// commit's `at`), for time travel.
    record_at: Option<CompactString>,
    /// Lone surrogate escapes read as U+FFFD, the first one warned of.
    surrogates: LineRepair,
}

impl EveReader {
    /// An empty reader.
    #[cfg(any(test, feature = "internals"))]
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads a whole stream at once.
    #[cfg(any(test, feature = "internals"))]
    pub fn read_all(bytes: &[u8]) -> EveReader {
        let mut reader = EveReader::new();
        reader.push(bytes);
        reader.finish();
        reader
    }

    /// Feeds bytes as they arrive. A partial last line (even one ending inside
    /// a UTF-8 character) is held until its newline arrives; the cost is
    /// proportional to the bytes pushed.
    pub fn push(&mut self, bytes: &[u8]) {
        let Self { splitter, inner } = self;
        splitter.push(bytes, |number, line| inner.line(number, line));
    }

    /// End of the stream: a final line without a newline is read too.
    pub fn finish(&mut self) {
        let Self { splitter, inner } = self;
        splitter.finish(|number, line| inner.line(number, line));
    }

    /// The canonical events read so far.
    #[cfg(any(test, feature = "internals"))]
    pub fn events(&self) -> &[Event] {
        &self.inner.builder.events
    }

    /// Every stored line read so far (eve events, v27 lines, malformed
    /// lines), but those handed over by [`EveReader::take_originals`].
    #[cfg(any(test, feature = "internals"))]
    pub fn originals(&self) -> &[Original] {
        &self.inner.originals
    }

    /// Hands over the stored lines read since the last call: a followed
    /// stream's lines are kept once, by the conversation, not twice.
    pub fn take_originals(&mut self) -> Vec<Original> {
        self.inner.taken += self.inner.originals.len();
        std::mem::take(&mut self.inner.originals)
    }

    /// How many stored lines were read in all, handed over or not.
    pub fn originals_read(&self) -> usize {
        self.inner.taken + self.inner.originals.len()
    }

    /// The lines that could not be read.
    pub fn diagnostics(&self) -> &[SkippedLine] {
        &self.inner.diagnostics
    }

    /// The streaming text of the current step, if any.
    pub fn in_progress(&self) -> Option<&InProgress> {
        self.inner.builder.in_progress.as_ref().map(|s| &s.shown)
    }

    /// The time of the latest record read that states one (`meta.at` of a
    /// generation A event, `at` of a v27 commit): when the stream was written
    /// up to here, for `--at` and replay.
    #[cfg(feature = "cli")]
    pub fn record_time(&self) -> Option<&str> {
        self.inner.record_at.as_deref()
    }

    /// Whether the session completed, failed or ended.
    pub fn finished(&self) -> bool {
        self.inner.builder.finished
    }

    /// Counts in-place changes to events already returned (see the module docs).
    pub fn revision(&self) -> u64 {
        self.inner.builder.revision
    }

    /// The lowest index of an event changed in place since the last call
    /// (`None`: only appends), so a follower copies only what changed.
    pub fn take_changed_from(&mut self) -> Option<usize> {
        self.inner.builder.take_changed_from()
    }

    /// Runs `read` on `events` as the reader's own: the reader appends to
    /// them and changes them in place, and keeps none (one copy of the
    /// events, the caller's). `events` must be what this reader made so far.
    fn with_events(&mut self, events: &mut Vec<Event>, read: impl FnOnce(&mut Self)) {
        std::mem::swap(&mut self.inner.builder.events, events);
        read(self);
        std::mem::swap(&mut self.inner.builder.events, events);
    }

    /// The conversation the stream holds so far: its events, its stored
    /// lines (for the raw view) and the text being written (a copy: for a
    /// stream read whole with [`EveReader::read_all`]).
    #[cfg(any(test, feature = "internals"))]
    pub fn conversation(&self) -> Conversation {
        let mut conversation = Conversation::new(self.events().to_vec(), None, None);
        conversation.originals = self.originals().iter().cloned().collect();
        conversation.in_progress = self.in_progress().cloned();
        conversation
    }
}

impl StreamReader for EveReader {
    fn feed(&mut self, bytes: &[u8], events: &mut Vec<Event>) {
        self.with_events(events, |reader| reader.push(bytes));
    }

    fn finish(&mut self, events: &mut Vec<Event>) {
        self.with_events(events, EveReader::finish);
    }

    fn take_changed_from(&mut self) -> Option<usize> {
        EveReader::take_changed_from(self)
    }

    fn revision(&self) -> u64 {
        EveReader::revision(self)
    }

    fn in_progress(&self) -> Option<&InProgress> {
        EveReader::in_progress(self)
    }

    fn take_originals(&mut self) -> Vec<Original> {
        EveReader::take_originals(self)
    }

    fn originals_read(&self) -> usize {
        EveReader::originals_read(self)
    }

    fn problems(&self) -> &[SkippedLine] {
        self.diagnostics()
    }

    fn finished(&self) -> bool {
        EveReader::finished(self)
    }

    fn stream_piece(&self, record: &Value) -> Option<StreamPiece> {
        record::stream_piece(record)
    }

    #[cfg(feature = "cli")]
    fn record_time(&self) -> Option<&str> {
        EveReader::record_time(self)
    }
}

impl Inner {
    fn line(&mut self, number: usize, raw: &[u8]) {
        let trimmed = raw.trim_ascii();
        if trimmed.is_empty() {
            return; // heartbeat
        }
        let lead = raw.len() - raw.trim_ascii_start().len();
        let (repaired, warning) = self.surrogates.line(number, lead, trimmed);
        self.diagnostics.extend(warning);
        let trimmed = &*repaired;
        let value: Value = match crate::model::bounded_value::from_slice(trimmed) {
            Ok(bounded) => {
                let cut = super::transcript::line_warning(number, bounded.cut);
                self.diagnostics.extend(cut);
                bounded.value
            }
            Err(error) => {
                let problem = crate::problem::json_problem(&error, "the line");
                let column = error.column().max(1) + lead;
                self.skip(
                    number,
                    trimmed,
                    None,
                    format!("column {column}: not JSON: {problem}"),
                );
                return;
            }
        };
        match record::classify(&value) {
            Record::Transport { next } => {
                if let Some(next) = next {
                    self.position = next;
                }
                return;
            }
            Record::Invalid(reason) => {
                self.skip(number, trimmed, Some(&value), reason.to_string());
                return;
            }
            Record::Event => self.event(&value),
            Record::Commit { at, facts } => self.commit(at, facts),
            Record::Progress(progress) => self.progress(progress),
        }
        self.originals
            .push(Original::new(number, trimmed, true, turn_id(&value), None));
    }

    fn skip(&mut self, line: usize, raw: &[u8], value: Option<&Value>, reason: String) {
        self.diagnostics.push(SkippedLine {
            line,
            reason: reason.clone(),
        });
        self.originals.push(Original::new(
            line,
            raw,
            value.is_some(),
            value.and_then(turn_id),
            Some(reason),
        ));
    }

    /// A gen A line; an already-seen `meta.id` is a replay after a reconnect.
    fn event(&mut self, value: &Value) {
        let meta = value.get("meta");
        let stamp = Stamp {
            id: meta
                .and_then(|m| m.get("id"))
                .and_then(Value::as_str)
                .map(CompactString::from),
            at: meta
                .and_then(|m| m.get("at"))
                .and_then(Value::as_str)
                .map(CompactString::from),
        };
        if stamp.at.is_some() {
            self.record_at.clone_from(&stamp.at);
        }
        self.dispatch(value, stamp, false);
    }

    fn commit(&mut self, at: &str, facts: &[Value]) {
        let position = self.next_position();
        let at = CompactString::from(at);
        self.last_at = Some(at.clone());
        self.record_at = Some(at.clone());
        for (index, fact) in facts.iter().enumerate() {
            let stamp = Stamp {
                id: Some(format_compact!("evt_{position}_{index}")),
                at: Some(at.clone()),
            };
            self.dispatch(fact, stamp, false);
        }
    }

    fn progress(&mut self, progress: &Value) {
        let position = self.next_position();
        let stamp = Stamp {
            id: Some(format_compact!("evt_{position}_0")),
            at: self.last_at.clone(),
        };
        self.dispatch(progress, stamp, true);
    }

    fn next_position(&mut self) -> usize {
        self.position += 1;
        self.position - 1
    }

    /// Routes one record by its type: v27-only types to the v27 mapping,
    /// everything else (gen A, and v26 events inside v27 lines) to gen A.
    fn dispatch(&mut self, record: &Value, stamp: Stamp, is_progress: bool) {
        let Some(kind) = record.get("type").and_then(Value::as_str) else {
            return;
        };
        if self.v27.ended || self.builder.is_duplicate(stamp.id.as_deref()) {
            return;
        }
        let data = record.get("data").unwrap_or(&Value::Null);
        let b = &mut self.builder;
        if record::is_v27_only(kind) {
            let scope = record.get("scope").unwrap_or(&Value::Null);
            if is_progress {
                facts_v27::progress(b, &mut self.v27, kind, data, scope);
            } else {
                facts_v27::fact(b, &mut self.v27, kind, data, scope, &stamp);
            }
        } else {
            events_v26::apply(b, kind, data, &stamp);
        }
    }
}
