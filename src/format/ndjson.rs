//! One reader for every line-delimited input: it tells an eve stream, a
//! Claude Code transcript and a Codex rollout apart from their first
//! readable line ([`super::detect::line_format`]) and hands the bytes to that
//! format's reader. A zstd-compressed input (a Codex `.jsonl.zst`) is
//! inflated block by block as its bytes arrive ([`super::zstd_frame`]) and
//! read when its frame is complete (a compressed file is never live). What
//! it inflates to is counted as it comes: past the size limit the reader is
//! given ([`NdjsonReader::within`]) the input is refused
//! ([`StreamReader::inflated_past`]), so a small file that inflates to
//! gigabytes costs neither the gigabytes nor their time.

#[cfg(feature = "cli")]
use std::time::Duration;

use serde_json::Value;

use super::claude_code::ClaudeCodeReader;
use super::codex::CodexReader;
use super::copilot::CopilotReader;
use super::detect::{LineFormat, ZSTD_MAGIC, line_format};
use super::eve::EveReader;
use super::zstd_frame::{Inflated, Inflating, ZstdError};
use super::gemini::GeminiReader;
use super::qwen::QwenReader;
use super::opencode::OpenCodeReader;
use super::reader::{StreamReader, SubAgentLink};
use crate::model::Event;
use crate::model::{InProgress, Original, StreamPiece};
use crate::problem::SkippedLine;

/// How long an agent transcript whose last turn has settled may go
/// unwritten before a viewer shows it finished: the agent waits for the user.
#[cfg(feature = "cli")]
pub const QUIET_SETTLED: Duration = Duration::from_secs(60);

/// How long an agent transcript in the middle of a turn may go unwritten
/// before a viewer shows it finished: longer than a tool's own time limit
/// (Claude Code's `Bash` stops at 10 minutes), so only a killed or abandoned
/// agent reaches it.
#[cfg(feature = "cli")]
pub const QUIET_RUNNING: Duration = Duration::from_secs(15 * 60);

/// How many non-blank lines may fail to tell the format before the input is
/// read as an eve stream (whose reader then reports them).
const LOOK_AHEAD: usize = 8;

/// A line-delimited conversation of any format overhear reads.
#[derive(Debug)]
pub enum NdjsonReader {
    /// No line has told the format yet.
    Undecided(Head),
    /// A zstd frame, inflated as its blocks arrive and read when it is
    /// complete.
    Compressed {
        /// The frame so far.
        inflating: Box<Inflating>,
        /// Why the frame could not be read.
        problem: Vec<SkippedLine>,
        /// The most it may inflate to.
        limit: u64,
        /// It inflates to more than `limit`: refused, nothing read.
        refused: bool,
    },
    /// An eve session stream.
    Eve(Box<EveReader>),
    /// A Claude Code transcript.
    ClaudeCode(Box<ClaudeCodeReader>),
    /// A Codex rollout.
    Codex(Box<CodexReader>),
    /// A Gemini CLI chat.
    Gemini(Box<GeminiReader>),
    /// A Qwen Code chat.
    Qwen(Box<QwenReader>),
    /// A Copilot CLI event log.
    Copilot(Box<CopilotReader>),
    /// OpenCode row records.
    OpenCode(Box<OpenCodeReader>),
}

impl Default for NdjsonReader {
    fn default() -> Self {
        NdjsonReader::within(u64::MAX)
    }
}

/// Calls the same method on whichever reader decided, or gives `$none`.
macro_rules! each {
    ($self:expr, $r:ident => $body:expr, $none:expr) => {
        match $self {
            NdjsonReader::Eve($r) => $body,
            NdjsonReader::ClaudeCode($r) => $body,
            NdjsonReader::Codex($r) => $body,
            NdjsonReader::Gemini($r) => $body,
            NdjsonReader::Qwen($r) => $body,
            NdjsonReader::Copilot($r) => $body,
            NdjsonReader::OpenCode($r) => $body,
            NdjsonReader::Undecided(..) | NdjsonReader::Compressed { .. } => $none,
        }
    };
}

impl NdjsonReader {
    /// An empty reader.
    #[cfg(any(test, feature = "internals"))]
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty reader that refuses a compressed input inflating to more
    /// than `limit` bytes (the size limit a plain file is held to).
    pub fn within(limit: u64) -> Self {
        NdjsonReader::Undecided(Head {
            limit,
            ..Head::default()
        })
    }

    /// Reads a whole input at once into `events`.
    #[cfg(any(test, feature = "internals"))]
    pub fn read_all(bytes: &[u8], events: &mut Vec<Event>) -> Self {
        let mut reader = Self::new();
        reader.take(bytes, false, events);
        reader.take(&[], true, events);
        reader
    }

    fn take(&mut self, bytes: &[u8], end: bool, events: &mut Vec<Event>) {
        match self {
            NdjsonReader::Undecided(head) => {
                head.held.extend_from_slice(bytes);
                if head.held.starts_with(&ZSTD_MAGIC) {
                    let bytes = std::mem::take(&mut head.held);
                    let limit = head.limit;
                    *self = NdjsonReader::Compressed {
                        inflating: Box::new(Inflating::new(limit)),
                        problem: Vec::new(),
                        limit,
                        refused: false,
                    };
                    return self.take(&bytes, end, events);
                }
                // Only a completed line can tell: a long first line arriving
                // in pieces is not scanned again for every piece.
                if !end && !bytes.contains(&b'\n') && head.held.len() > 4 {
                    return;
                }
                let Some(format) = head.tell(end) else {
                    return;
                };
                let held = std::mem::take(&mut head.held);
                *self = match format {
                    LineFormat::Eve => NdjsonReader::Eve(Box::default()),
                    LineFormat::ClaudeCode => NdjsonReader::ClaudeCode(Box::default()),
                    LineFormat::Codex => NdjsonReader::Codex(Box::default()),
                    LineFormat::Gemini => NdjsonReader::Gemini(Box::default()),
                    LineFormat::Qwen => NdjsonReader::Qwen(Box::default()),
                    LineFormat::Copilot => NdjsonReader::Copilot(Box::default()),
                    LineFormat::OpenCode => NdjsonReader::OpenCode(Box::default()),
                };
                self.take(&held, end, events);
            }
            NdjsonReader::Compressed {
                inflating,
                problem,
                limit,
                refused,
            } => {
                if *refused || !problem.is_empty() {
                    return;
                }
                match inflating.feed(bytes, end) {
                    Ok(Inflated::More) => {}
                    Ok(Inflated::Whole(plain)) => {
                        *self = NdjsonReader::within(*limit);
                        self.take(&plain, true, events);
                    }
                    Err(ZstdError::TooLarge) => {
                        *refused = true;
                        **inflating = Inflating::new(0);
                    }
                    Err(reason) => problem.push(SkippedLine {
                        line: 1,
                        reason: reason.to_string(),
                    }),
                }
            }
            NdjsonReader::Eve(r) => {
                r.feed(bytes, events);
                if end {
                    StreamReader::finish(r.as_mut(), events);
                }
            }
            NdjsonReader::ClaudeCode(r) => r.with_events(events, |r| {
                r.push(bytes);
                if end {
                    r.finish();
                }
            }),
            NdjsonReader::Codex(r) => r.with_events(events, |r| {
                r.push(bytes);
                if end {
                    r.finish();
                }
            }),
            NdjsonReader::Gemini(r) => r.take(bytes, end, events),
            NdjsonReader::Qwen(r) => r.with_events(events, |r| {
                r.push(bytes);
                if end {
                    r.finish();
                }
            }),
            NdjsonReader::Copilot(r) => r.with_events(events, |r| {
                r.push(bytes);
                if end {
                    r.finish();
                }
            }),
            NdjsonReader::OpenCode(r) => r.with_events(events, |r| {
                r.push(bytes);
                if end {
                    r.finish();
                }
            }),
        }
    }

    /// The format, once a line told it.
    pub fn format(&self) -> Option<LineFormat> {
        match self {
            NdjsonReader::Eve(_) => Some(LineFormat::Eve),
            NdjsonReader::ClaudeCode(_) => Some(LineFormat::ClaudeCode),
            NdjsonReader::Codex(_) => Some(LineFormat::Codex),
            NdjsonReader::Gemini(_) => Some(LineFormat::Gemini),
            NdjsonReader::Qwen(_) => Some(LineFormat::Qwen),
            NdjsonReader::Copilot(_) => Some(LineFormat::Copilot),
            NdjsonReader::OpenCode(_) => Some(LineFormat::OpenCode),
            NdjsonReader::Undecided(..) | NdjsonReader::Compressed { .. } => None,
        }
    }
}

impl StreamReader for NdjsonReader {
    fn feed(&mut self, bytes: &[u8], events: &mut Vec<Event>) {
        self.take(bytes, false, events);
    }

    fn finish(&mut self, events: &mut Vec<Event>) {
        self.take(&[], true, events);
    }

    fn take_changed_from(&mut self) -> Option<usize> {
        each!(self, r => r.take_changed_from(), None)
    }

    fn revision(&self) -> u64 {
        each!(self, r => r.revision(), 0)
    }

    /// The streaming text of the current step (eve only).
    fn in_progress(&self) -> Option<&InProgress> {
        match self {
            NdjsonReader::Eve(r) => r.in_progress(),
            _ => None,
        }
    }

    fn take_originals(&mut self) -> Vec<Original> {
        each!(self, r => r.take_originals(), Vec::new())
    }

    fn originals_read(&self) -> usize {
        each!(self, r => r.originals_read(), 0)
    }

    /// The lines that could not be read (or why a compressed input could not be).
    fn problems(&self) -> &[SkippedLine] {
        match self {
            NdjsonReader::Compressed { problem, .. } => problem,
            _ => each!(self, r => r.diagnostics(), &[]),
        }
    }

    fn inflated_past(&self) -> Option<u64> {
        match self {
            NdjsonReader::Compressed {
                refused: true,
                limit,
                ..
            } => Some(*limit),
            _ => None,
        }
    }

    /// Whether the conversation is over: the eve writer said so, or an
    /// agent transcript was read to its end with its last turn settled
    /// (docs/agents.md, "When a transcript is finished").
    fn finished(&self) -> bool {
        match self {
            NdjsonReader::Eve(r) => r.finished(),
            NdjsonReader::ClaudeCode(r) => r.finished(),
            NdjsonReader::Codex(r) => r.finished(),
            NdjsonReader::Gemini(r) => r.finished(),
            NdjsonReader::Qwen(r) => r.finished(),
            NdjsonReader::Copilot(r) => r.finished(),
            NdjsonReader::OpenCode(r) => r.finished(),
            NdjsonReader::Undecided(..) | NdjsonReader::Compressed { .. } => false,
        }
    }

    #[cfg(feature = "cli")]
    fn quiet_limit(&self) -> Option<Duration> {
        let settled = match self {
            NdjsonReader::ClaudeCode(r) => r.last_turn_settled(),
            NdjsonReader::Codex(r) => r.last_turn_settled(),
            NdjsonReader::Gemini(r) => r.last_turn_settled(),
            NdjsonReader::Qwen(r) => r.last_turn_settled(),
            NdjsonReader::Copilot(r) => r.last_turn_settled(),
            NdjsonReader::OpenCode(r) => r.last_turn_settled(),
            _ => return None,
        };
        Some(if settled {
            QUIET_SETTLED
        } else {
            QUIET_RUNNING
        })
    }

    #[cfg(feature = "cli")]
    fn record_time(&self) -> Option<&str> {
        each!(self, r => r.record_time(), None)
    }

    fn line_format(&self) -> Option<LineFormat> {
        self.format()
    }

    fn title(&self) -> Option<&str> {
        match self {
            NdjsonReader::ClaudeCode(r) => r.title(),
            NdjsonReader::Codex(r) => r.title(),
            NdjsonReader::Gemini(r) => r.title(),
            NdjsonReader::Qwen(r) => r.title(),
            NdjsonReader::Copilot(r) => r.title(),
            NdjsonReader::OpenCode(r) => r.title(),
            _ => None,
        }
    }

    fn default_config(&self) -> Option<Value> {
        if let NdjsonReader::Copilot(_) = self {
            return Some(super::copilot::tools::default_config());
        }
        self.format().and_then(super::agent_tools::default_config)
    }

    /// Eve's deltas; the agent transcripts stream no text in pieces.
    fn stream_piece(&self, record: &Value) -> Option<StreamPiece> {
        match self {
            NdjsonReader::Eve(r) => r.stream_piece(record),
            _ => None,
        }
    }

    fn take_subagents(&mut self) -> Vec<SubAgentLink> {
        match self {
            NdjsonReader::ClaudeCode(r) => r.take_subagents(),
            NdjsonReader::Codex(r) => r.take_subagents(),
            NdjsonReader::Gemini(r) => r.take_subagents(),
            NdjsonReader::Qwen(r) => r.take_subagents(),
            NdjsonReader::Copilot(r) => r.take_subagents(),
            NdjsonReader::OpenCode(r) => r.take_subagents(),
            _ => Vec::new(),
        }
    }
}

/// The first bytes of an input whose format no line has told yet. Each line
/// is looked at once however the bytes arrive, and none is copied or listed:
/// a head of millions of blank lines costs its bytes, not more.
#[derive(Debug, Default)]
pub struct Head {
    /// The bytes so far, handed to the format's reader once one is told.
    held: Vec<u8>,
    /// The most a compressed input may inflate to.
    limit: u64,
    /// Where the lines looked at so far end (each told nothing).
    scanned: usize,
    /// How many of those lines were not blank.
    looked: usize,
}

impl Head {
    /// The format the held bytes tell; `None` while more must arrive.
    fn tell(&mut self, end: bool) -> Option<LineFormat> {
        tell(&self.held, &mut self.scanned, &mut self.looked, end)
    }
}

/// The format a whole head of an input tells (`end`: nothing follows it);
/// `None` when it needs more lines. For the figures scan of `overhear
/// sessions` (and the tests).
#[cfg(any(test, feature = "cli"))]
pub(super) fn decide(held: &[u8], end: bool) -> Option<LineFormat> {
    tell(held, &mut 0, &mut 0, end)
}

/// The format the first readable line of `held` tells, looking only past
/// `scanned` (lines before it told nothing; `looked` of them were not blank)
/// and moving both on; `None` while more lines must arrive. After
/// [`LOOK_AHEAD`] lines that tell nothing (or at the end), an eve stream.
fn tell(held: &[u8], scanned: &mut usize, looked: &mut usize, end: bool) -> Option<LineFormat> {
    if *looked == 0 {
        // Blank lines before the first readable one are passed once.
        let rest = &held[*scanned..];
        let blank = rest.iter().position(|b| !b.is_ascii_whitespace());
        let blank = &rest[..blank.unwrap_or(rest.len())];
        if let Some(at) = blank.iter().rposition(|&b| b == b'\n') {
            *scanned += at + 1;
        }
        // A legacy Gemini file is one pretty-printed object: no line of it
        // reads.
        if super::gemini::legacy_head(&held[*scanned..], end)? {
            return Some(LineFormat::Gemini);
        }
    }
    let rest = &held[*scanned..];
    let complete = rest.iter().rposition(|&b| b == b'\n').map_or(0, |at| at + 1);
    // The last piece has no newline yet: it counts only at the end.
    let last = (end && complete < rest.len()).then_some(&rest[complete..]);
    for line in rest[..complete].split_inclusive(|&b| b == b'\n').chain(last) {
        *scanned += line.len();
        let line = line.trim_ascii();
        if line.is_empty() {
            continue;
        }
        *looked += 1;
        let repaired = super::surrogates::repaired(line).0;
        // A first line holding glued records (Qwen Code) tells by its first.
        let value = crate::model::bounded_value::from_slice(&repaired)
            .ok()
            .map(|bounded| bounded.value)
            .or_else(|| {
                let glued = super::transcript::split_glued(&repaired);
                glued.into_iter().next().map(|piece| piece.value)
            });
        if let Some(value) = value
            && let Some(format) = line_format(&value)
        {
            return Some(format);
        }
        if *looked >= LOOK_AHEAD {
            return Some(LineFormat::Eve);
        }
    }
    end.then_some(LineFormat::Eve)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLAUDE: &[u8] =
        br#"{"type":"user","sessionId":"s","uuid":"u1","message":{"role":"user","content":"hi"}}"#;
    const CODEX: &[u8] =
        br#"{"timestamp":"2025-09-25T02:12:23.966Z","type":"session_meta","payload":{"id":"x"}}"#;

    fn read_all(bytes: &[u8]) -> (NdjsonReader, Vec<Event>) {
        let mut events = Vec::new();
        let reader = NdjsonReader::read_all(bytes, &mut events);
        (reader, events)
    }

    #[test]
    fn the_first_readable_line_tells_the_format() {
        let mut bytes = b"\n\n".to_vec();
        bytes.extend_from_slice(CLAUDE);
        let mut reader = NdjsonReader::new();
        let mut events = Vec::new();
        reader.feed(&bytes, &mut events);
        assert_eq!(reader.format(), None, "the line is not complete yet");
        reader.feed(b"\n", &mut events);
        assert_eq!(reader.format(), Some(LineFormat::ClaudeCode));
        assert_eq!(events.len(), 2, "turn_start and the prompt");

        assert_eq!(read_all(CODEX).0.format(), Some(LineFormat::Codex));
        let eve = read_all(b"{\"type\":\"session.started\",\"data\":{}}\n").0;
        assert_eq!(eve.format(), Some(LineFormat::Eve));
    }

    #[test]
    fn a_head_arriving_in_pieces_tells_as_the_whole_does_and_keeps_line_numbers() {
        // Blank lines, a line that tells nothing, then a Codex line, fed a
        // few bytes at a time: each piece looks only at lines not yet seen.
        let mut bytes = b"\n \n\t\n{\"x\":1}\n\n".to_vec();
        bytes.extend_from_slice(CODEX);
        bytes.extend_from_slice(b"\nnot json\n");
        for piece in [1, 2, 3, 7, bytes.len()] {
            let mut reader = NdjsonReader::new();
            let mut events = Vec::new();
            for chunk in bytes.chunks(piece) {
                reader.feed(chunk, &mut events);
            }
            StreamReader::finish(&mut reader, &mut events);
            assert_eq!(reader.format(), Some(LineFormat::Codex), "pieces of {piece}");
            let lines: Vec<usize> = reader.problems().iter().map(|p| p.line).collect();
            assert_eq!(lines, read_all(&bytes).0.problems().iter().map(|p| p.line).collect::<Vec<_>>());
            assert!(lines.contains(&7), "the bad line keeps its number: {lines:?}");
        }

        let mut head = Head {
            held: b"\n\n\n".to_vec(),
            ..Head::default()
        };
        assert_eq!(head.tell(false), None);
        assert_eq!(head.scanned, 3, "blank lines are passed once");
        assert_eq!(decide(b"\n\n", true), Some(LineFormat::Eve));
    }

    #[test]
    fn a_compressed_input_inflating_past_the_limit_is_refused_and_nothing_read() {
        let mut plain = CODEX.to_vec();
        plain.extend(std::iter::repeat_n(b'\n', 4096));
        let packed = ruzstd::encoding::compress_to_vec(
            &plain[..],
            ruzstd::encoding::CompressionLevel::Fastest,
        );
        let mut events = Vec::new();
        let mut refused = NdjsonReader::within(4096);
        refused.feed(&packed, &mut events);
        StreamReader::finish(&mut refused, &mut events);
        assert_eq!(refused.inflated_past(), Some(4096));
        assert!(events.is_empty() && refused.problems().is_empty());

        let mut within = NdjsonReader::within(plain.len() as u64);
        within.feed(&packed, &mut events);
        assert_eq!(within.inflated_past(), None);
        assert_eq!(within.format(), Some(LineFormat::Codex));
    }

    #[test]
    fn a_compressed_rollout_reads_like_the_plain_one() {
        let mut plain = CODEX.to_vec();
        plain.extend_from_slice(
            b"\n{\"timestamp\":\"2025-09-25T02:12:24.000Z\",\"type\":\"event_msg\",\"payload\":{\"type\":\"user_message\",\"message\":\"hello\"}}\n",
        );
        let packed = ruzstd::encoding::compress_to_vec(
            &plain[..],
            ruzstd::encoding::CompressionLevel::Fastest,
        );
        let mut reader = NdjsonReader::new();
        let mut events = Vec::new();
        let (head, tail) = packed.split_at(packed.len() / 2);
        reader.feed(head, &mut events);
        assert!(events.is_empty());
        reader.feed(tail, &mut events);
        StreamReader::finish(&mut reader, &mut events);
        assert_eq!(reader.format(), Some(LineFormat::Codex));
        assert_eq!(events, read_all(&plain).1);
        assert!(events.len() >= 2);

        let mut cut = NdjsonReader::new();
        let mut none = Vec::new();
        cut.feed(head, &mut none);
        StreamReader::finish(&mut cut, &mut none);
        assert_eq!(cut.problems().len(), 1, "{:?}", cut.problems());
    }
}
