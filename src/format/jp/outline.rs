//! A JP conversation read in outline: one pass over the bytes
//! finds every entry and makes of it an event of the right kind that holds
//! only what grouping needs — the kind, a tool call's or inquiry's id, a
//! configuration change whole — and none of its text. A printout of a few
//! turns then decodes only their entries ([`JpOutline::decode`]).
//!
//! Each entry's event comes from [`super::decode_known`], the reader's own
//! decoding, run on the entry's top-level keys and the JSON types of their
//! values ([`members`](super::members)): it decides by presence and type only, so an
//! entry kept as unknown here is kept as unknown, with the same message, by
//! a full read. Entries the scan does not follow (an escape in a key, a type
//! or an id), a configuration change and a first entry that may be a legacy
//! base configuration are parsed with serde_json, as a full read parses them.
//!
//! What a full read checks that an outline does not: that the text inside
//! strings, arrays and objects of entries not decoded is valid JSON.

use std::io::{self, Read, Seek, SeekFrom};
use std::ops::Range;

use serde_json::{Map, Value};

use super::entries::{ArrayReader, Next};
use super::entry::{self, Entry, Slot};
use super::members::{Member, Shape, members, plain_keys};
use super::{Fields, JpLoad, JpStream, Reader, decode_known, event_of, known_type, parsed_base};
use crate::format::PrefixHasher;
use crate::format::surrogates;
use crate::model::{ChatResponse, Content, Event, EventKind, Metadata, facts};

/// How much of the file is read at a time: 128 KiB read as fast as
/// 1 MiB and held 0.3–0.6 MiB less at the peak (docs/benchmarks.md, "The
/// reads' chunk").
const CHUNK: usize = 128 << 10;

/// A conversation read in outline: where each event's entry lies in the
/// file, to decode the ones shown.
#[derive(Debug, Clone)]
pub struct JpOutline {
    /// Where each event's entry starts in the file, in order.
    starts: Vec<usize>,
    /// Each event's entry's length: 4 bytes, so that an outline costs 12
    /// bytes an entry where ranges cost 16 (a file with an entry of 4 GiB
    /// or more is not read in outline).
    lens: Vec<u32>,
}

impl JpOutline {
    /// Reads `events` (a JP `events.json`) in outline, to be followed after
    /// as [`JpStream::read_from`] reads it: the load holds an event per
    /// entry, decoded only where needed (see the module's text). `Ok(None)`
    /// when the file is not a plain JSON array of entries, an entry the scan
    /// leaves to serde_json is not JSON, or the base config is not JSON:
    /// read it whole then, which reports exactly what is wrong.
    pub fn read_from(
        events: &mut impl Read,
        base_config_json: Option<&[u8]>,
    ) -> io::Result<Option<(JpStream, JpLoad, JpOutline)>> {
        Self::read_in_chunks(events, base_config_json, CHUNK)
    }

    fn read_in_chunks(
        events: &mut impl Read,
        base_config_json: Option<&[u8]>,
        chunk: usize,
    ) -> io::Result<Option<(JpStream, JpLoad, JpOutline)>> {
        let Some(base) = parsed_base(base_config_json) else {
            return Ok(None);
        };
        let mut reader = Reader::new(base.is_some(), 0);
        let mut hasher = PrefixHasher::new();
        let mut entries = ArrayReader::new(events, chunk)?;
        let (mut starts, mut lens) = (Vec::new(), Vec::new());
        // Each entry's members, the vector kept from one entry to the next.
        let mut found = Vec::new();
        let mut memo = SketchMemo::default();
        loop {
            let len = match entries.next(|bytes| hasher.update(bytes))? {
                Next::Entry(bytes, ends) => {
                    let may_be_base = reader.entries_read() == 0 && base.is_none();
                    match sketch(bytes, ends, &mut found, &mut memo).filter(|_| !may_be_base) {
                        Some((event, problem)) => reader.push_sketch(event, problem),
                        None => match entry::read(bytes, ends, &mut found) {
                            Ok(entry) => reader.push(entry),
                            Err(_) => return Ok(None),
                        },
                    }
                    bytes.len()
                }
                Next::End => break,
                Next::Unusual => return Ok(None),
            };
            if let Some(escape) = entries.lone_escape() {
                reader.note_lone(escape);
            }
            // A legacy base configuration is not an event.
            if starts.len() < reader.out.events.len() {
                let Ok(len) = u32::try_from(len) else {
                    return Ok(None);
                };
                starts.push(entries.entry_offset());
                lens.push(len);
            }
        }
        let Some(end) = entries.finish(|bytes| hasher.update(bytes))? else {
            return Ok(None);
        };
        let stream = JpStream::after_read(&end, &hasher, reader.entries_read(), base_config_json);
        let mut load = reader.finish();
        if let Some(base) = base {
            load.base_config = Some(base);
            load.generation = Some(super::Generation::Current);
        }
        Ok(Some((stream, load, JpOutline { starts, lens })))
    }

    /// How many entries it holds.
    pub fn outlined(&self) -> usize {
        self.starts.len()
    }

    /// The bytes of event `i`'s entry in the file.
    fn entry(&self, i: usize) -> Option<Range<usize>> {
        let start = *self.starts.get(i)?;
        Some(start..start + *self.lens.get(i)? as usize)
    }

    /// How many bytes of the file the entries of `events` span.
    pub fn span(&self, events: Range<usize>) -> usize {
        match (self.entry(events.start), events.end.checked_sub(1)) {
            (Some(first), Some(last)) if last >= events.start => {
                self.entry(last).map_or(0, |last| last.end - first.start)
            }
            _ => 0,
        }
    }

    /// Decodes the events `events` from `file`, the file read in outline
    /// (an open handle: a rename over its path does not change it), one
    /// read for them all. `sketches` are their events in the outline:
    /// `Ok(None)` when a decoded one is not what its sketch said (grouping
    /// went by the sketch; only a full read will do then) or its entry is
    /// not JSON.
    pub fn decode(
        &self,
        file: &mut (impl Read + Seek),
        events: Range<usize>,
        sketches: &[Event],
    ) -> io::Result<Option<Vec<Event>>> {
        if events.start > events.end || events.end > self.outlined() {
            return Ok(None);
        }
        let (Some(first), Some(last)) = (
            self.entry(events.start).filter(|_| !events.is_empty()),
            events.end.checked_sub(1).and_then(|last| self.entry(last)),
        ) else {
            return Ok(Some(Vec::new()));
        };
        file.seek(SeekFrom::Start(first.start as u64))?;
        let mut bytes = vec![0; last.end - first.start];
        file.read_exact(&mut bytes).map_err(|e| match e.kind() {
            io::ErrorKind::UnexpectedEof => io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "shorter than when it was read: cut short in place",
            ),
            _ => e,
        })?;
        let mut decoded = Vec::with_capacity(events.len());
        // The outline read these entries with their lone surrogate escapes
        // repaired: so are they here.
        surrogates::repair(&mut bytes);
        for (range, sketch) in events.filter_map(|i| self.entry(i)).zip(sketches) {
            let entry = &bytes[range.start - first.start..range.end - first.start];
            let Ok(entry) = Entry::parse(entry) else {
                return Ok(None);
            };
            let (event, _) = event_of(entry);
            if !same_outline(sketch, &event) {
                return Ok(None);
            }
            decoded.push(event);
        }
        Ok(Some(decoded))
    }
}

/// The most entry shapes a [`SketchMemo`] keeps: a conversation's entries
/// come in a few dozen shapes; a file of a new shape per entry (hostile, or
/// a writer that varies its keys) is sketched entry by entry past this,
/// with the memo no bigger.
const MEMO_SHAPES: usize = 256;

/// The longest shape a [`SketchMemo`] keeps (an entry of a dozen keys):
/// with [`MEMO_SHAPES`], the memo holds 64 KiB of shapes at most.
const MEMO_SHAPE_BYTES: usize = 256;

/// The outline events of the entry shapes met so far, so that an entry of a
/// known shape costs a lookup, not a decoding: one per read.
///
/// In outline an entry's event depends only on its type, on its top-level
/// keys in stored order with the JSON type of each value (a boolean's value
/// included), and on its `id`'s text ([`Sketch`] shows [`decode_known`]
/// nothing else). Entries of the same type and members get the same event
/// and problem, the id put in: profiling the viewer's opening of 100 MB
/// found decoding each entry's sketch (key lookups, the event built) a
/// tenth of its CPU (docs/benchmarks.md, "The viewer's opening").
#[derive(Debug, Default)]
pub(super) struct SketchMemo {
    /// Where each shape's event and problem are in `sketches`, by shape:
    /// the type, then each member's key (its length first, so no two
    /// shapes read alike) and value type.
    by_shape: foldhash::HashMap<Vec<u8>, usize>,
    /// The event and problem of each shape met.
    sketches: Vec<(Event, Option<String>)>,
    /// The shape of the entry being sketched (one buffer for all).
    shape: Vec<u8>,
}

impl SketchMemo {
    /// Writes the shape of an entry of type `type_name` with `members` into
    /// `self.shape`.
    fn shape_of(&mut self, type_name: &str, entry: &[u8], members: &[Member]) {
        let shape = &mut self.shape;
        shape.clear();
        shape.extend_from_slice(type_name.as_bytes());
        for member in members {
            let key = &entry[member.key.clone()];
            // A key of 255 bytes or more makes a shape longer than the memo
            // keeps ([`MEMO_SHAPE_BYTES`]), which is looked up but never
            // found: a byte tells the length of any key a kept shape holds.
            shape.push(u8::try_from(key.len()).unwrap_or(u8::MAX));
            shape.extend_from_slice(key);
            shape.push(match member.shape {
                Shape::String => 0,
                Shape::Number => 1,
                Shape::Bool(false) => 2,
                Shape::Bool(true) => 3,
                Shape::Null => 4,
                Shape::Array => 5,
                Shape::Object => 6,
            });
        }
    }
}

/// One stored entry in outline, as [`sketched`] finds it: the event of its
/// shape, shared with every entry of that shape, and its own id; or an
/// event of its own. A caller that only needs the kind and the problem
/// (`sparse.rs`, for most entries) reads them here without making the event.
pub(super) enum Sketched<'m, 'e> {
    /// The memo's event and problem for the entry's shape, and its id's
    /// bytes as stored (read only when the event is made: a caller that
    /// needs the kind alone does not pay for it).
    Shared {
        sketch: &'m (Event, Option<String>),
        id: Option<&'e [u8]>,
    },
    /// An event and problem of its own (a shape the memo does not keep).
    Own(Event, Option<String>),
}

impl Sketched<'_, '_> {
    /// What the entry is.
    pub(super) fn kind(&self) -> &EventKind {
        match self {
            Sketched::Shared { sketch, .. } => &sketch.0.kind,
            Sketched::Own(event, _) => &event.kind,
        }
    }

    /// What is wrong with the entry, if anything (it is kept as unknown).
    pub(super) fn problem(&self) -> Option<&str> {
        match self {
            Sketched::Shared { sketch, .. } => sketch.1.as_deref(),
            Sketched::Own(_, problem) => problem.as_deref(),
        }
    }

    /// The entry's event, its id put in, and its problem; `None` when its
    /// id holds an escape (or is not UTF-8): the entry must be parsed then.
    pub(super) fn into_event(self) -> Option<(Event, Option<String>)> {
        match self {
            Sketched::Shared { sketch, id } => {
                let mut event = sketch.0.clone();
                if let Some(id) = id {
                    set_id(&mut event, unescaped(id)?);
                }
                Some((event, sketch.1.clone()))
            }
            Sketched::Own(event, problem) => Some((event, problem)),
        }
    }
}

/// The event of one stored entry in outline, with what is wrong with the
/// entry if it is kept as unknown; `None` when the entry must be parsed.
/// `ends` are those the array scanner noted in it; `found` is where its
/// members go (one vector for all entries); `memo` the events of the
/// shapes met before (one for all entries).
pub(super) fn sketch(
    entry: &[u8],
    ends: &[usize],
    found: &mut Vec<Member>,
    memo: &mut SketchMemo,
) -> Option<(Event, Option<String>)> {
    sketched(entry, ends, found, memo).and_then(Sketched::into_event)
}

/// [`sketch`], the event not made yet (see [`Sketched`]).
pub(super) fn sketched<'m, 'e>(
    entry: &'e [u8],
    ends: &[usize],
    found: &mut Vec<Member>,
    memo: &'m mut SketchMemo,
) -> Option<Sketched<'m, 'e>> {
    members(entry, ends, found)?;
    let fields = Sketch {
        entry,
        members: found,
    };
    let type_name = match fields.last("type") {
        Some(member) if member.shape == Shape::String => {
            match known_type(&entry[member.text.clone()]) {
                Some(known) => known,
                // Not a known name as stored: one with an escape is left to
                // serde_json, any other is unknown.
                None => {
                    fields.text(member)?;
                    return plain_keys(entry, found).then(|| Sketched::Own(unknown(), None));
                }
            }
        }
        _ => return plain_keys(entry, found).then(|| Sketched::Own(unknown(), None)),
    };
    // Small entries whose text the viewer's status bar needs at once (a
    // turn's facts, tokens among them; a question's text) are parsed whole,
    // as configuration changes are: their events are exact in outline.
    if matches!(
        type_name,
        "config_delta" | "turn_start" | "inquiry_request" | "inquiry_response"
    ) {
        return None;
    }
    // The id is kept: it pairs calls and inquiries.
    let id = match fields.last("id") {
        Some(id) if id.shape == Shape::String => Some(&entry[id.text.clone()]),
        _ => None,
    };
    memo.shape_of(type_name, entry, found);
    let known = memo.by_shape.get(memo.shape.as_slice()).copied();
    let at = match known {
        Some(at) => at,
        // The keys of a shape met before were checked when it was met.
        None if !plain_keys(entry, found) => return None,
        None => {
            let mut fields = fields;
            let sketched = match decode_known(type_name, &mut fields) {
                Ok(event) => (event, None),
                Err(message) => (unknown(), Some(format!("{type_name}: {message}"))),
            };
            if memo.sketches.len() >= MEMO_SHAPES || memo.shape.len() > MEMO_SHAPE_BYTES {
                // An event of its own holds its id as decoded above: one
                // with an escape is left to serde_json.
                if id.is_some_and(|id| unescaped(id).is_none()) {
                    return None;
                }
                return Some(Sketched::Own(sketched.0, sketched.1));
            }
            memo.by_shape.insert(memo.shape.clone(), memo.sketches.len());
            memo.sketches.push(sketched);
            memo.sketches.len() - 1
        }
    };
    Some(Sketched::Shared {
        sketch: &memo.sketches[at],
        id,
    })
}

/// Puts an entry's `id` into the event of its shape (the only text an
/// outline event holds).
fn set_id(event: &mut Event, id: &str) {
    if let EventKind::ToolCallRequest { id: slot, .. }
    | EventKind::ToolCallResponse { id: slot, .. }
    | EventKind::InquiryRequest { id: slot, .. }
    | EventKind::InquiryResponse { id: slot, .. } = &mut event.kind
    {
        id.clone_into(slot);
    }
}

/// An entry kept as unknown, in outline.
pub(super) fn unknown() -> Event {
    Event::new(None, EventKind::Unknown(Box::new(Value::Null)))
}

/// An entry's members, seen as [`decode_known`] sees an entry: each value
/// an empty one of its type, but for the id.
struct Sketch<'a> {
    entry: &'a [u8],
    members: &'a [Member],
}

impl<'a> Sketch<'a> {
    /// The member named `key` (the last one, as serde_json keeps the last
    /// of repeated keys).
    fn last(&self, key: &str) -> Option<&'a Member> {
        self.members
            .iter()
            .rev()
            .find(|m| &self.entry[m.key.clone()] == key.as_bytes())
    }

    /// A string member's text, when it holds no escape.
    fn text(&self, member: &Member) -> Option<&'a str> {
        unescaped_text(self.entry, member)
    }
}

/// The text of `entry`'s string member `member`, when it holds no escape.
fn unescaped_text<'e>(entry: &'e [u8], member: &Member) -> Option<&'e str> {
    unescaped(&entry[member.text.clone()])
}

/// A string's bytes as stored (between its quotes) as text, when they hold
/// no escape.
fn unescaped(raw: &[u8]) -> Option<&str> {
    if memchr::memchr(b'\\', raw).is_some() {
        return None;
    }
    std::str::from_utf8(raw).ok()
}

impl<'a> Fields<'a> for Sketch<'a> {
    fn take(&mut self, key: &str) -> Option<Slot<'a>> {
        let member = self.last(key)?;
        Some(match (key, member.shape) {
            ("id", Shape::String) => Slot::Text(self.text(member).unwrap_or_default().into()),
            (_, shape) => shape.empty_slot(),
        })
    }

    fn rest(&mut self) -> Map<String, Value> {
        Map::new()
    }
}

/// Empties `event`, decoded from its entry, of what only showing it needs:
/// its texts, a call's arguments, its metadata. What grouping and the
/// status bar read stays (its kind and form, ids, name, `is_error`,
/// timestamp, facts, `request_id`): [`same_outline`] holds between the
/// event before and after, so decoding the entry again brings the rest
/// back. Questions, configuration changes and entries kept as stored are
/// left whole: the status bar, `--notify` and every later turn read them.
/// A viewer that read every turn of a 1 GB conversation keeps only the
/// turns near its view decoded this way.
pub fn hollow(event: &mut Event) {
    use std::sync::Arc;
    match &mut event.kind {
        EventKind::ChatRequest { content, .. } => *content = String::new(),
        EventKind::ChatResponse(ChatResponse::Message(message)) => {
            if let Some(message) = message {
                *message = String::new();
            }
        }
        EventKind::ChatResponse(ChatResponse::Reasoning(text)) => *text = String::new(),
        EventKind::ChatResponse(ChatResponse::Data(data)) => **data = Value::Null,
        EventKind::ToolCallRequest { arguments, .. } => {
            *arguments = Arc::new(Value::Object(Map::new()));
        }
        EventKind::ToolCallResponse { content, .. } => {
            *content = match content {
                Content::Text(_) => Content::Text(String::new()),
                Content::Blocks(_) => Content::Blocks(Vec::new()),
            };
        }
        EventKind::TurnStart
        | EventKind::InquiryRequest { .. }
        | EventKind::InquiryResponse { .. }
        | EventKind::ConfigDelta { .. }
        | EventKind::Compaction(_)
        | EventKind::Unknown(_) => return,
    }
    let request_id = event.metadata.request_id().map(Into::into);
    event.metadata = Metadata::stored(Map::new(), request_id);
}

/// Whether a decoded event is what its sketch said, in everything grouping
/// reads: the kind, a reply's form, the id that pairs it, and overhear's
/// own facts that join items.
fn same_outline(sketch: &Event, event: &Event) -> bool {
    use std::mem::discriminant;
    let form = |e: &Event| match &e.kind {
        EventKind::ChatResponse(response) => Some(match response {
            ChatResponse::Message(_) => 0,
            ChatResponse::Reasoning(_) => 1,
            ChatResponse::Data(_) => 2,
        }),
        _ => None,
    };
    let id = |e: &Event| match &e.kind {
        EventKind::ToolCallRequest { id, .. }
        | EventKind::ToolCallResponse { id, .. }
        | EventKind::InquiryRequest { id, .. }
        | EventKind::InquiryResponse { id, .. } => Some(id.clone()),
        _ => None,
    };
    discriminant(&sketch.kind) == discriminant(&event.kind)
        && form(sketch) == form(event)
        && id(sketch) == id(event)
        && facts::turn_info(sketch).is_some() == facts::turn_info(event).is_some()
        && facts::call_id(sketch) == facts::call_id(event)
}

#[cfg(test)]
pub(super) mod tests;
