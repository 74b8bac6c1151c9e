//! What the agent-transcript readers (Claude Code, Codex) share: the events
//! made so far, the stored lines for the raw view, the lines skipped, and the
//! bookkeeping of events changed in place.
//!
//! Both formats are JSON Lines appended a record at a time (spec
//! agent-transcripts §1): a line that is not a JSON object is skipped and
//! counted with its number, a blank line is ignored, and reading goes on.

use std::sync::Arc;

// The maps every call is looked up in (foldhash: seeded per process like
// the standard hasher, so ids from a hostile file cannot be made to
// collide, and several times faster on short ids; see `model::pairing`).
use foldhash::HashMap;

use serde_json::{Map, Value};

use super::eve::lines::LineSplitter;
use super::reader::{SubAgentLink, SubAgentSource};
use super::surrogates::LineRepair;
use crate::model::Original;
use crate::model::bounded_value::{self, Bounded};
use crate::model::facts::ImageAt;
use crate::model::{call_view, facts};
use crate::model::{ChatResponse, Event, EventKind};
use crate::problem::SkippedLine;

pub use crate::model::facts::NOTICE;

/// The events and stored lines a transcript reader has made so far.
#[derive(Debug, Default)]
pub struct Sink {
    splitter: LineSplitter,
    /// The canonical events read so far.
    pub(crate) events: Vec<Event>,
    originals: Vec<Original>,
    taken: usize,
    diagnostics: Vec<SkippedLine>,
    revision: u64,
    changed_from: Option<usize>,
    /// The line being read (1-based).
    line: usize,
    /// Sub-agents linked to calls, not handed over yet.
    links: Vec<SubAgentLink>,
    /// The time the latest record that states one stated: where
    /// `--at TIME` places a line (docs/time-travel.md).
    record_time: Option<String>,
    /// Lone surrogate escapes read as U+FFFD, the first one warned of.
    surrogates: LineRepair,
    /// Whether a line holding records glued together (`…}{…`, an
    /// interrupted append) is split into them (Qwen Code, spec
    /// agent-transcripts-2 §1 rule 2).
    glued: bool,
    /// The folder the agent runs in, as its records state it.
    cwd: Option<String>,
}

/// What one transcript format makes of its records; the reader around it
/// ([`TranscriptReader`]: feeding, the events, the stored lines) is shared.
pub trait Records: Default + std::fmt::Debug {
    /// Whether the format's writer can leave records glued on one line,
    /// which are then split ([`split_glued`]).
    const GLUED: bool = false;

    /// Reads one record (a line's JSON object) into `sink`. The record is
    /// the format's to take apart: it is dropped after (the raw view keeps
    /// the line's text), so a large part it keeps, a call's input, is moved
    /// out rather than copied.
    fn record(&mut self, sink: &mut Sink, value: &mut Value);

    /// The conversation's title, once the records gave one.
    fn title(&self) -> Option<&str>;

    /// Whether the last turn has settled: it was marked ended, or its latest
    /// step answers the user and every call it made has its result — the
    /// agent waits for the user (docs/agents.md, "When a transcript is
    /// finished"). `false` before any step.
    fn settled(&self) -> bool;

    /// Marks the last turn ended (completed), unless it was already: the
    /// input was read whole with that turn settled.
    fn end_settled_turn(&mut self, sink: &mut Sink);
}

/// Reads a transcript of the format `R` incrementally.
#[derive(Debug, Default)]
pub struct TranscriptReader<R> {
    sink: Sink,
    records: R,
    /// Whether the input was read to its end ([`TranscriptReader::finish`]).
    read_whole: bool,
}

impl<R: Records> TranscriptReader<R> {
    /// An empty reader.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads a whole transcript at once.
    #[cfg(any(test, feature = "internals"))]
    pub fn read_all(bytes: &[u8]) -> Self {
        let mut reader = Self::new();
        reader.push(bytes);
        reader.finish();
        reader
    }

    /// Feeds bytes as they arrive; a partial last line is held back.
    pub fn push(&mut self, bytes: &[u8]) {
        self.sink.glued = R::GLUED;
        let records = &mut self.records;
        self.sink
            .feed(bytes, false, |sink, _, mut value| records.record(sink, &mut value));
    }

    /// End of input: a last line without a newline is read too, and a last
    /// turn that has settled ([`Records::settled`]) is taken as ended — the
    /// transcript is read whole, and neither agent always writes that a
    /// turn ended (docs/agents.md, "When a transcript is finished").
    pub fn finish(&mut self) {
        self.sink.glued = R::GLUED;
        let records = &mut self.records;
        self.sink
            .feed(&[], true, |sink, _, mut value| records.record(sink, &mut value));
        self.read_whole = true;
        if self.records.settled() {
            self.records.end_settled_turn(&mut self.sink);
        }
    }

    /// Reads `bytes` as one record (a whole-file format's one JSON object,
    /// line 1 for the raw view and for a problem).
    pub(crate) fn read_whole(&mut self, bytes: &[u8]) {
        let records = &mut self.records;
        self.sink
            .whole(bytes, |sink, mut value| records.record(sink, &mut value));
    }

    /// Whether the transcript is over: read to its end with its last turn
    /// settled. A file being followed is never read to its end; a viewer
    /// decides from how long it has been quiet
    /// ([`TranscriptReader::last_turn_settled`]).
    pub fn finished(&self) -> bool {
        self.read_whole && self.records.settled()
    }

    /// Whether the last turn has settled ([`Records::settled`]).
    #[cfg(feature = "cli")]
    pub fn last_turn_settled(&self) -> bool {
        self.records.settled()
    }

    /// Runs `read` on `events` as the reader's own: the seam's one copy of
    /// the events (`format::reader`). `events` must be what this reader
    /// made so far.
    pub(crate) fn with_events(&mut self, events: &mut Vec<Event>, read: impl FnOnce(&mut Self)) {
        std::mem::swap(&mut self.sink.events, events);
        read(self);
        std::mem::swap(&mut self.sink.events, events);
    }

    /// The canonical events read so far.
    #[cfg(any(test, feature = "internals"))]
    pub fn events(&self) -> &[Event] {
        &self.sink.events
    }

    /// Stored lines not handed over yet (see [`TranscriptReader::take_originals`]).
    #[cfg(any(test, feature = "internals"))]
    pub fn originals(&self) -> &[Original] {
        self.sink.originals()
    }

    /// Hands over the stored lines read since the last call.
    pub fn take_originals(&mut self) -> Vec<Original> {
        self.sink.take_originals()
    }

    /// How many stored lines were read in all.
    pub fn originals_read(&self) -> usize {
        self.sink.originals_read()
    }

    /// The lines that could not be read.
    pub fn diagnostics(&self) -> &[SkippedLine] {
        self.sink.diagnostics()
    }

    /// Counts in-place changes to events already returned (turn usage).
    pub fn revision(&self) -> u64 {
        self.sink.revision()
    }

    /// The lowest index of an event changed in place since the last call.
    pub fn take_changed_from(&mut self) -> Option<usize> {
        self.sink.take_changed_from()
    }

    /// The conversation's title, once the records gave one.
    pub fn title(&self) -> Option<&str> {
        self.records.title()
    }

    /// Hands over the sub-agents linked to calls since the last call.
    pub fn take_subagents(&mut self) -> Vec<SubAgentLink> {
        std::mem::take(&mut self.sink.links)
    }

    /// The time the latest record that states one stated (`None` before
    /// any): a line's place in time for `--at TIME`.
    #[cfg(feature = "cli")]
    pub fn record_time(&self) -> Option<&str> {
        self.sink.record_time.as_deref()
    }
}

impl Sink {
    /// Splits `bytes` into lines and hands each complete JSON object to
    /// `each` with its 1-based line number; `end` also reads a last line
    /// without its newline.
    pub(crate) fn feed<F>(&mut self, bytes: &[u8], end: bool, mut each: F)
    where
        F: FnMut(&mut Sink, usize, Value),
    {
        // Each line is read where the splitter finds it, not collected
        // first: a copy of every line (and 32 bytes for each, blank ones
        // included) would cost the input's size again, and a file of blank
        // lines many times its size.
        let mut splitter = std::mem::take(&mut self.splitter);
        let mut read_line = |number: usize, raw: &[u8]| {
            self.line = number;
            for value in self.parse(number, raw) {
                if let Some(time) = timestamp(&value) {
                    self.record_time = Some(time);
                }
                each(self, number, value);
            }
        };
        splitter.push(bytes, &mut read_line);
        if end {
            splitter.finish(&mut read_line);
        }
        self.splitter = splitter;
    }

    /// Reads `bytes` as one JSON object (a whole file), stored as line 1;
    /// what is not one is a skipped line 1 with its place.
    pub(crate) fn whole<F>(&mut self, bytes: &[u8], each: F)
    where
        F: FnOnce(&mut Sink, Value),
    {
        self.line = 1;
        let trimmed = bytes.trim_ascii();
        let reason = match serde_json::from_slice::<Value>(trimmed) {
            Ok(value) if value.is_object() => {
                self.originals
                    .push(Original::new(1, trimmed, true, None, None));
                if let Some(time) = str_at(&value, "lastUpdated") {
                    self.record_time = Some(time.to_string());
                }
                each(self, value);
                return;
            }
            Ok(_) => "not a JSON object".to_string(),
            Err(error) => format!(
                "line {}, column {}: not JSON: {}",
                error.line(),
                error.column(),
                crate::problem::json_problem(&error, "the file")
            ),
        };
        self.diagnostics.push(SkippedLine {
            line: 1,
            reason: reason.clone(),
        });
        self.originals
            .push(Original::new(1, trimmed, false, None, Some(reason)));
    }

    /// Parses one line, storing it for the raw view; a line that is not a
    /// JSON object is counted as skipped.
    fn parse(&mut self, number: usize, raw: &[u8]) -> Vec<Value> {
        let trimmed = raw.trim_ascii();
        if trimmed.is_empty() {
            return Vec::new();
        }
        let lead = raw.len() - raw.trim_ascii_start().len();
        let (repaired, warning) = self.surrogates.line(number, lead, trimmed);
        self.diagnostics.extend(warning);
        let trimmed = &*repaired;
        let reason = match bounded_value::from_slice(trimmed) {
            Ok(Bounded { value, cut }) if value.is_object() => {
                self.diagnostics.extend(line_warning(number, cut));
                self.originals
                    .push(Original::new(number, trimmed, true, None, None));
                return vec![value];
            }
            Ok(_) => "not a JSON object".to_string(),
            Err(error) => {
                let pieces = if self.glued { split_glued(trimmed) } else { Vec::new() };
                if !pieces.is_empty() {
                    // Repaired, not bad: every record that parses is read.
                    self.originals
                        .push(Original::new(number, trimmed, true, None, None));
                    let cut = pieces.iter().map(|piece| piece.cut).sum();
                    self.diagnostics.extend(line_warning(number, cut));
                    return pieces.into_iter().map(|piece| piece.value).collect();
                }
                let problem = crate::problem::json_problem(&error, "the line");
                format!(
                    "column {}: not JSON: {problem}",
                    error.column().max(1) + lead
                )
            }
        };
        self.diagnostics.push(SkippedLine {
            line: number,
            reason: reason.clone(),
        });
        self.originals
            .push(Original::new(number, trimmed, false, None, Some(reason)));
        Vec::new()
    }

    /// Counts the line being read as skipped, for `reason` (a record whose
    /// envelope parsed but whose content could not be read).
    pub(crate) fn skipped(&mut self, reason: String) {
        self.diagnostics.push(SkippedLine {
            line: self.line,
            reason,
        });
    }

    /// Appends an event; returns its index.
    pub(crate) fn push(&mut self, event: Event) -> usize {
        self.events.push(event);
        self.events.len() - 1
    }

    /// Notes on the last event (a prompt, a tool result just pushed) where
    /// the images under `at`, a JSON pointer into `record` (the record of
    /// the line being read), are in that line: an image block with base64
    /// (`{"type": "image", "source": {"media_type", "data"}}`), an
    /// `input_image` with a `data:` URL, or a `data:image/…` URL itself.
    /// Their bytes stay in the stored line ([`crate::model::facts::ImageAt`]).
    pub(crate) fn note_images(&mut self, record: &Value, at: &str) {
        let Some(line) = self.originals_read().checked_sub(1) else {
            return;
        };
        let mut found = Vec::new();
        if let Some(value) = record.pointer(at) {
            images_in(value, at, 0, &mut found);
        }
        if found.is_empty() {
            return;
        }
        let images = found
            .into_iter()
            .map(|(data, mime)| ImageAt {
                line,
                data: data.into_boxed_str(),
                mime: mime.map(Into::into),
            })
            .collect();
        if let Some(event) = self.events.last_mut() {
            facts::set_images(event, images);
        }
    }

    /// Appends an event of `kind` at `timestamp`; returns its index.
    pub(crate) fn push_kind(&mut self, timestamp: Option<String>, kind: EventKind) -> usize {
        self.push(Event::new(timestamp, kind))
    }

    /// Appends a tool call; a well-known tool's call also gets its view
    /// ([`super::agent_args::view`]) and its subject (what it did, for its
    /// card's header; a path relative to the folder the agent ran in).
    pub(crate) fn push_call(
        &mut self,
        timestamp: Option<String>,
        id: String,
        name: String,
        arguments: Value,
    ) -> usize {
        let view = super::agent_args::view(&name, &arguments);
        let subject = super::agent_args::subject(&name, &arguments, self.cwd.as_deref());
        let mut event = Event::new(
            timestamp,
            EventKind::ToolCallRequest {
                id,
                name,
                arguments: Arc::new(arguments),
            },
        );
        if let Some(view) = view {
            call_view::set(&mut event, &view);
        }
        if let Some(subject) = subject {
            facts::set_subject(&mut event, &subject);
        }
        self.push(event)
    }

    /// Notes the folder the agent runs in, as a record states it: paths
    /// under it are shown relative to it.
    pub(crate) fn set_cwd(&mut self, cwd: &str) {
        if self.cwd.as_deref() != Some(cwd) {
            self.cwd = Some(cwd.to_string());
        }
    }

    /// Appends an opaque item for a record that makes no event of its own:
    /// its type (and payload or subtype) and its line, not its content — the
    /// stored line keeps that for the raw view, so a rollout's instructions,
    /// snapshots and compacted histories are not held twice.
    pub(crate) fn opaque(&mut self, timestamp: Option<String>, record: &Value) {
        let mut map = Map::new();
        let kind = record
            .get("type")
            .cloned()
            .unwrap_or(Value::from("unknown"));
        map.insert("type".into(), kind);
        for key in ["subtype", "role"] {
            if let Some(value) = record.get(key).filter(|v| v.is_string()) {
                map.insert(key.into(), value.clone());
            }
        }
        if let Some(kind) = record.get("payload").and_then(|p| p.get("type")) {
            map.insert("payload_type".into(), kind.clone());
        }
        map.insert("line".into(), Value::from(self.line));
        self.push_kind(timestamp, EventKind::Unknown(Box::new(Value::Object(map))));
    }

    /// Appends a notice (see [`NOTICE`]).
    pub(crate) fn notice(&mut self, timestamp: Option<String>, level: &str, text: String) {
        let mut map = Map::new();
        map.insert("type".into(), Value::from(NOTICE));
        map.insert("level".into(), Value::from(level));
        map.insert("text".into(), Value::from(text));
        self.push_kind(timestamp, EventKind::Unknown(Box::new(Value::Object(map))));
    }

    /// Links the sub-agent at `source` to the call `call`.
    pub(crate) fn link(&mut self, call: &str, source: SubAgentSource) {
        self.links.push(SubAgentLink {
            call: call.to_string(),
            source,
        });
    }

    /// Changes the event at `index` in place; `change` says whether it did.
    pub(crate) fn update(&mut self, index: usize, change: impl FnOnce(&mut Event) -> bool) {
        let Some(event) = self.events.get_mut(index) else {
            return;
        };
        if change(event) {
            self.revision += 1;
            self.changed_from = Some(self.changed_from.map_or(index, |from| from.min(index)));
        }
    }

    /// Every stored line not handed over yet.
    #[cfg(any(test, feature = "internals"))]
    pub(crate) fn originals(&self) -> &[Original] {
        &self.originals
    }

    /// Hands over the stored lines read since the last call.
    pub(crate) fn take_originals(&mut self) -> Vec<Original> {
        self.taken += self.originals.len();
        std::mem::take(&mut self.originals)
    }

    /// How many stored lines were read in all.
    pub(crate) fn originals_read(&self) -> usize {
        self.taken + self.originals.len()
    }

    /// The lines that could not be read.
    pub(crate) fn diagnostics(&self) -> &[SkippedLine] {
        &self.diagnostics
    }

    /// Counts in-place changes to events already made.
    pub(crate) fn revision(&self) -> u64 {
        self.revision
    }

    /// The lowest index changed in place since the last call.
    pub(crate) fn take_changed_from(&mut self) -> Option<usize> {
        self.changed_from.take()
    }
}

/// The tool calls of a transcript by id. An id names more than one call
/// when an agent reuses it (a second `rm -rf` under the id of the `ls`
/// before it): each is a call of its own, and a result answers the nearest
/// earlier call of its id still unanswered — the rule the conversation's
/// pairing follows (`model::pairing`), so an enrichment lands on the call
/// the result is shown with. Only the same call written again while still
/// unanswered (same name, same arguments) is one call.
#[derive(Debug, Default)]
pub(crate) struct CallIds {
    /// By id: the calls not answered yet, oldest first.
    open: HashMap<String, Vec<usize>>,
    /// By id: the latest call's request event.
    latest: HashMap<String, usize>,
}

impl CallIds {
    /// Whether a call `id` of `name` with `arguments` is the latest call of
    /// that id written again: that call is unanswered and asks the same.
    pub(crate) fn is_repeat(
        &self,
        events: &[Event],
        id: &str,
        name: &str,
        arguments: &Value,
    ) -> bool {
        let Some(&latest) = self.latest.get(id) else {
            return false;
        };
        let open = self
            .open
            .get(id)
            .is_some_and(|calls| calls.contains(&latest));
        open && matches!(
            events.get(latest).map(|e| &e.kind),
            Some(EventKind::ToolCallRequest { name: n, arguments: a, .. })
                if n == name && **a == *arguments
        )
    }

    /// Notes the call `id` whose request is event `index`.
    pub(crate) fn request(&mut self, id: &str, index: usize) {
        self.open.entry(id.to_string()).or_default().push(index);
        self.latest.insert(id.to_string(), index);
    }

    /// The call a result of `id` answers — the nearest unanswered one — now
    /// answered.
    pub(crate) fn answer(&mut self, id: &str) -> Option<usize> {
        let calls = self.open.get_mut(id)?;
        let call = calls.pop();
        if calls.is_empty() {
            self.open.remove(id);
        }
        call
    }

    /// The call a result of `id` would answer now, left unanswered.
    pub(crate) fn next_answered(&self, id: &str) -> Option<usize> {
        self.open.get(id).and_then(|calls| calls.last().copied())
    }

    /// The latest call of `id`, answered or not.
    pub(crate) fn latest(&self, id: &str) -> Option<usize> {
        self.latest.get(id).copied()
    }
}

/// What a transcript's events say of its current turn: whether the agent is
/// done with it and waits for the user. Neither format writes that a session
/// ended (docs/agents.md, "When a transcript is finished").
#[derive(Debug, Default)]
pub(crate) struct TurnProgress {
    /// The turn's calls still waiting for their result: how many of each id.
    pending: HashMap<String, usize>,
    /// Whether the turn's latest step answers the user: speech, or a local
    /// command's output (not a call or a result; reasoning does not count).
    pub(crate) answered: bool,
    /// Whether the format marked the turn ended.
    pub(crate) ended: bool,
}

impl TurnProgress {
    /// Notes the steps of `events`, just made, in order.
    pub(crate) fn observe(&mut self, events: &[Event]) {
        for event in events {
            match &event.kind {
                EventKind::TurnStart => *self = TurnProgress::default(),
                EventKind::ToolCallRequest { id, .. } => {
                    *self.pending.entry(id.clone()).or_default() += 1;
                    self.answered = false;
                }
                EventKind::ToolCallResponse { id, .. } => {
                    if let Some(count) = self.pending.get_mut(id) {
                        *count -= 1;
                        if *count == 0 {
                            self.pending.remove(id);
                        }
                    }
                    self.answered = false;
                }
                EventKind::ChatResponse(ChatResponse::Message(_)) => self.answered = true,
                // Reasoning leads to a step, or was written after the
                // speech it led to (Codex): it changes nothing.
                _ => {}
            }
        }
    }

    /// Whether the turn has settled: marked ended, or its latest step
    /// answers the user and every call it made has its result. `false`
    /// before any step.
    pub(crate) fn settled(&self) -> bool {
        self.ended || (self.pending.is_empty() && self.answered)
    }
}

/// The warning for line `line` of a transcript or stream when `cut` of its
/// arrays or objects were not read ([`bounded_value`]; none when none was):
/// its raw view keeps them.
pub(crate) fn line_warning(line: usize, cut: usize) -> Option<SkippedLine> {
    (cut > 0).then(|| SkippedLine {
        line,
        reason: format!("{}; the raw view shows the line", bounded_value::warning(cut)),
    })
}

/// The JSON objects of a line holding several glued together (`…}{…`):
/// split on balanced top-level braces outside strings, each piece that
/// parses as an object kept (Qwen Code's own `recoverObjectsFromLine`),
/// each read within its budget of values.
pub(crate) fn split_glued(line: &[u8]) -> Vec<Bounded> {
    let mut found = Vec::new();
    let (mut depth, mut start, mut in_string, mut escaped) = (0usize, None, false, false);
    for (at, &byte) in line.iter().enumerate() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'{' => {
                if depth == 0 {
                    start = Some(at);
                }
                depth += 1;
            }
            b'}' if depth > 0 => {
                depth -= 1;
                if depth == 0
                    && let Some(from) = start.take()
                    && let Ok(piece) = bounded_value::from_slice(&line[from..=at])
                {
                    found.push(piece);
                }
            }
            _ => {}
        }
    }
    found
}

/// The string at `key` of `value`, if it is one.
pub(crate) fn str_at<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    value.get(key).and_then(Value::as_str)
}

/// The record's `timestamp`, when it is one (a trimmed or missing time
/// keeps the record's place and shows no time, spec §1 rule 8).
pub(crate) fn timestamp(value: &Value) -> Option<String> {
    let text = str_at(value, "timestamp")?;
    looks_like_time(text).then(|| text.to_string())
}

/// Whether a record's `timestamp` text is a time (four digits and a dash
/// first): the test [`timestamp`] applies, shared with the scans that read
/// a session's figures without its events (`format::figures_of`).
pub(crate) fn looks_like_time(text: &str) -> bool {
    text.len() >= 10 && text.as_bytes()[..4].iter().all(u8::is_ascii_digit) && text.as_bytes()[4] == b'-'
}

/// The images in `value`, found at the JSON pointer `at`: each as the
/// pointer to its data string and the media type stated beside it. An
/// array is looked into, two levels deep at most.
fn images_in(value: &Value, at: &str, depth: usize, found: &mut Vec<(String, Option<String>)>) {
    match value {
        Value::String(text) if text.starts_with("data:image/") => found.push((at.to_string(), None)),
        Value::Array(items) if depth < 2 => {
            for (index, item) in items.iter().enumerate() {
                images_in(item, &format!("{at}/{index}"), depth + 1, found);
            }
        }
        Value::Object(_) => match str_at(value, "type") {
            Some("image") => {
                let source = value.get("source").unwrap_or(&Value::Null);
                if str_at(source, "data").is_some() {
                    let mime = str_at(source, "media_type").map(str::to_string);
                    found.push((format!("{at}/source/data"), mime));
                }
            }
            Some("input_image")
                if str_at(value, "image_url").is_some_and(|url| url.starts_with("data:")) =>
            {
                found.push((format!("{at}/image_url"), None));
            }
            _ => {}
        },
        _ => {}
    }
}

/// A placeholder for an image that is never printed: its type and size.
pub(crate) fn image_placeholder(media_type: Option<&str>, base64_len: Option<usize>) -> String {
    match (media_type, base64_len) {
        (Some(kind), Some(len)) => format!("[image: {kind}, {}]", size(len / 4 * 3)),
        (Some(kind), None) => format!("[image: {kind}]"),
        (None, Some(len)) => format!("[image, {}]", size(len / 4 * 3)),
        (None, None) => "[image]".to_string(),
    }
}

fn size(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{:.1} MB", bytes as f64 / f64::from(1 << 20))
    } else if bytes >= 1 << 10 {
        format!("{} kB", bytes >> 10)
    } else {
        format!("{bytes} B")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_lines_are_counted_with_their_numbers_and_reading_goes_on() {
        let mut sink = Sink::default();
        let mut seen = Vec::new();
        sink.feed(b"{\"a\":1}\n\nnot json\n[1]\n{\"b\":", false, |_, n, v| {
            seen.push((n, v))
        });
        assert_eq!(seen.len(), 1);
        let lines: Vec<usize> = sink.diagnostics().iter().map(|d| d.line).collect();
        assert_eq!(lines, vec![3, 4]);
        // The partial last line waits for its newline.
        sink.feed(b"2}\n", false, |_, n, v| seen.push((n, v)));
        assert_eq!(seen.last().map(|(n, _)| *n), Some(5));
        assert_eq!(sink.originals_read(), 4);
    }

    #[test]
    fn trimmed_timestamps_are_no_time() {
        let v: Value = serde_json::json!({"timestamp": "[trimmed for fixture]"});
        assert_eq!(timestamp(&v), None);
        let v: Value = serde_json::json!({"timestamp": "2025-11-17T21:30:28.664Z"});
        assert_eq!(timestamp(&v).as_deref(), Some("2025-11-17T21:30:28.664Z"));
    }

    #[test]
    fn image_placeholders_give_type_and_size() {
        assert_eq!(
            image_placeholder(Some("image/png"), Some(4096)),
            "[image: image/png, 3 kB]"
        );
    }
}
