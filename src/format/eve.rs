//! eve session streams (NDJSON) → canonical events.
//!
//! [`EveReader`] takes the bytes of an eve session stream as they arrive —
//! generation A (stream versions 16–26, one event per line) or generation B
//! (v27, one commit or progress record per line, possibly carrying v26 events)
//! — and keeps the canonical events (JP's vocabulary) read so far, the original
//! records for the raw view, the diagnostics for lines it could not read, and
//! the streaming text of the step in progress. The mapping is normative in
//! eve-format §13; what JP's vocabulary cannot say goes into the metadata keys
//! of [`super::ext`] (see docs/eve-mapping.md).
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
mod gen_a;
mod gen_b;
pub(crate) mod lines;
mod record;
mod text;

#[cfg(test)]
mod tests;

use std::fmt;

use serde_json::Value;

use self::builder::{Builder, Stamp};
use self::lines::LineSplitter;
use self::record::Record;
use super::event::Event;

/// One stored line of the stream as read, for the raw view.
///
/// The line is kept as its text and parsed again when it is drawn
/// ([`Original::value`]): parsed, a short line takes about ten times its
/// size, and a followed stream keeps every line it reads.
#[derive(Debug, Clone, PartialEq)]
pub struct Original {
    /// 1-based line number in the stream.
    pub line: usize,
    /// The line's JSON text (surrounding whitespace trimmed), when it parsed.
    pub json: Option<Box<str>>,
    /// Why the line could not be read, for a malformed line.
    pub error: Option<Box<str>>,
    /// The turn the line names, found when it was read.
    turn: TurnOf,
}

/// Where an [`Original`]'s turn id is: a byte range of its text holding the
/// id as is (no allocation), or the id itself when the text escapes it.
#[derive(Debug, Clone, PartialEq)]
enum TurnOf {
    None,
    Within(u32, u32),
    Own(Box<str>),
}

impl Original {
    /// A stored line: its text when it parsed (`value`), why it was skipped otherwise.
    pub(crate) fn new(
        line: usize,
        raw: &[u8],
        value: Option<&Value>,
        error: Option<String>,
    ) -> Self {
        let json = value.map(|_| String::from_utf8_lossy(raw).into_owned().into_boxed_str());
        let turn = match (value.and_then(turn_id), &json) {
            (Some(id), Some(text)) => match text.find(id) {
                Some(start) => match (u32::try_from(start), u32::try_from(start + id.len())) {
                    (Ok(start), Ok(end)) => TurnOf::Within(start, end),
                    _ => TurnOf::Own(id.into()),
                },
                None => TurnOf::Own(id.into()),
            },
            _ => TurnOf::None,
        };
        Original {
            line,
            json,
            error: error.map(String::into_boxed_str),
            turn,
        }
    }

    /// The line parsed (a gen A event, a v27 commit or progress record),
    /// when it parsed when read.
    pub fn value(&self) -> Option<Value> {
        serde_json::from_str(self.json.as_deref()?).ok()
    }

    /// Edits the stored line through its parsed value (redaction): when
    /// `change` says it changed the value, the line is stored again as that
    /// value's JSON (its turn found anew). A line that did not parse is left.
    pub fn rewrite(&mut self, change: impl FnOnce(&mut Value) -> bool) {
        let Some(mut value) = self.value() else {
            return;
        };
        if !change(&mut value) {
            return;
        }
        let Ok(text) = serde_json::to_string(&value) else {
            return;
        };
        let error = self.error.take().map(String::from);
        *self = Original::new(self.line, text.as_bytes(), Some(&value), error);
    }

    /// The turn the line belongs to (`turnId` of its record's scope or data,
    /// the first a v27 commit's facts name), if it names one.
    pub fn turn_id(&self) -> Option<&str> {
        match &self.turn {
            TurnOf::None => None,
            TurnOf::Within(start, end) => self.json.as_deref()?.get(*start as usize..*end as usize),
            TurnOf::Own(id) => Some(id),
        }
    }
}

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

/// A line the reader skipped, and why; reading goes on after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&line_problem(self.line, &self.reason))
    }
}

/// Why line `line` was skipped, with its place: `line 5: not a JSON object`,
/// or `line 4, column 63: not JSON: …` when the reason starts with its column.
pub fn line_problem(line: usize, reason: &str) -> String {
    let separator = if reason.starts_with("column ") {
        ", "
    } else {
        ": "
    };
    format!("line {line}{separator}{reason}")
}

/// What kind of text is streaming.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InProgressKind {
    /// Assistant speech (`message.appended`, v27 text `content.delta`).
    Message,
    /// Reasoning (`reasoning.appended`, v27 reasoning `content.delta`).
    Reasoning,
    /// A tool call's arguments as the model writes them (`action.input.appended`, `call.input`).
    ToolInput,
    /// A tool's preliminary output (`action.partial`, `call.progress`), replaced by each snapshot.
    ToolOutput,
}

/// The streaming text of the step in progress, shown live until the completed
/// event replaces it.
#[derive(Debug, Clone, PartialEq)]
pub struct InProgress {
    /// What is streaming.
    pub kind: InProgressKind,
    /// The text so far (deltas joined; old cumulative appends normalized).
    pub text: String,
    /// The turn it belongs to.
    pub turn_id: Option<String>,
    /// The call, for tool input or output.
    pub call_id: Option<String>,
    /// The tool's name, when known.
    pub tool_name: Option<String>,
    key: String,
    run_id: Option<String>,
}

/// Reads a whole eve stream at once (same as [`EveReader::read_all`]).
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
    gen_b: gen_b::State,
    originals: Vec<Original>,
    /// Stored lines handed over by [`EveReader::take_originals`].
    taken: usize,
    diagnostics: Vec<Diagnostic>,
    /// Position (0-based index among stored v27 lines) of the next v27 line.
    position: usize,
    /// `at` of the latest v27 commit: progress records inherit it.
    last_at: Option<String>,
}

impl EveReader {
    /// An empty reader.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads a whole stream at once.
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
    pub fn events(&self) -> &[Event] {
        &self.inner.builder.events
    }

    /// Every stored line read so far (eve events, v27 lines, malformed
    /// lines), but those handed over by [`EveReader::take_originals`].
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
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.inner.diagnostics
    }

    /// The streaming text of the current step, if any.
    pub fn in_progress(&self) -> Option<&InProgress> {
        self.inner.builder.in_progress.as_ref()
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
}

impl Inner {
    fn line(&mut self, number: usize, raw: &[u8]) {
        let trimmed = raw.trim_ascii();
        if trimmed.is_empty() {
            return; // heartbeat
        }
        let value: Value = match serde_json::from_slice(trimmed) {
            Ok(value) => value,
            Err(error) => {
                let problem = super::json_problem(&error, "the line");
                let lead = raw.len() - raw.trim_ascii_start().len();
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
            .push(Original::new(number, trimmed, Some(&value), None));
    }

    fn skip(&mut self, line: usize, raw: &[u8], value: Option<&Value>, reason: String) {
        self.diagnostics.push(Diagnostic {
            line,
            reason: reason.clone(),
        });
        self.originals
            .push(Original::new(line, raw, value, Some(reason)));
    }

    /// A gen A line; an already-seen `meta.id` is a replay after a reconnect.
    fn event(&mut self, value: &Value) {
        let meta = value.get("meta");
        let stamp = Stamp {
            id: meta
                .and_then(|m| m.get("id"))
                .and_then(Value::as_str)
                .map(str::to_string),
            at: meta
                .and_then(|m| m.get("at"))
                .and_then(Value::as_str)
                .map(str::to_string),
        };
        self.dispatch(value, stamp, false);
    }

    fn commit(&mut self, at: &str, facts: &[Value]) {
        let position = self.next_position();
        self.last_at = Some(at.to_string());
        for (index, fact) in facts.iter().enumerate() {
            let stamp = Stamp {
                id: Some(format!("evt_{position}_{index}")),
                at: Some(at.to_string()),
            };
            self.dispatch(fact, stamp, false);
        }
    }

    fn progress(&mut self, progress: &Value) {
        let position = self.next_position();
        let stamp = Stamp {
            id: Some(format!("evt_{position}_0")),
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
        if self.gen_b.ended || self.builder.is_duplicate(stamp.id.as_deref()) {
            return;
        }
        let data = record.get("data").unwrap_or(&Value::Null);
        let b = &mut self.builder;
        if record::is_v27_only(kind) {
            let scope = record.get("scope").unwrap_or(&Value::Null);
            if is_progress {
                gen_b::progress(b, &mut self.gen_b, kind, data, scope);
            } else {
                gen_b::fact(b, &mut self.gen_b, kind, data, scope, &stamp);
            }
        } else {
            gen_a::apply(b, kind, data, &stamp);
        }
    }
}
