//! One reader for every line-delimited input: it tells an eve stream, a
//! Claude Code transcript and a Codex rollout apart from their first
//! readable line ([`super::detect::line_format`]) and hands the bytes to that
//! format's reader. A zstd-compressed input (a Codex `.jsonl.zst`) is
//! decompressed first; a compressed file is never live, so it is read when
//! its frame is complete.

use std::io::Read as _;

use serde_json::Value;

use super::claude_code::ClaudeCodeReader;
use super::codex::CodexReader;
use super::detect::{LineFormat, ZSTD_MAGIC, line_format};
use super::eve::{Diagnostic, EveReader, InProgress, Original};
use super::event::Event;

/// How many non-blank lines may fail to tell the format before the input is
/// read as an eve stream (whose reader then reports them).
const LOOK_AHEAD: usize = 8;

/// A line-delimited conversation of any format overhear reads.
#[derive(Debug)]
pub enum NdjsonReader {
    /// No line has told the format yet: the bytes so far.
    Undecided(Vec<u8>),
    /// A zstd frame, held until it is complete.
    Compressed {
        /// The compressed bytes so far.
        bytes: Vec<u8>,
        /// Why the frame could not be read, once the input ended.
        problem: Vec<Diagnostic>,
    },
    /// An eve session stream.
    Eve(Box<EveReader>),
    /// A Claude Code transcript.
    ClaudeCode(Box<ClaudeCodeReader>),
    /// A Codex rollout.
    Codex(Box<CodexReader>),
}

impl Default for NdjsonReader {
    fn default() -> Self {
        NdjsonReader::Undecided(Vec::new())
    }
}

/// Calls the same method on whichever reader decided, or gives `$none`.
macro_rules! each {
    ($self:expr, $r:ident => $body:expr, $none:expr) => {
        match $self {
            NdjsonReader::Eve($r) => $body,
            NdjsonReader::ClaudeCode($r) => $body,
            NdjsonReader::Codex($r) => $body,
            NdjsonReader::Undecided(_) | NdjsonReader::Compressed { .. } => $none,
        }
    };
}

impl NdjsonReader {
    /// An empty reader.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads a whole input at once.
    pub fn read_all(bytes: &[u8]) -> Self {
        let mut reader = Self::new();
        reader.push(bytes);
        reader.finish();
        reader
    }

    /// Feeds bytes as they arrive.
    pub fn push(&mut self, bytes: &[u8]) {
        self.take(bytes, false);
    }

    /// End of input: a last line without a newline is read too.
    pub fn finish(&mut self) {
        self.take(&[], true);
    }

    fn take(&mut self, bytes: &[u8], end: bool) {
        match self {
            NdjsonReader::Undecided(held) => {
                held.extend_from_slice(bytes);
                if held.starts_with(&ZSTD_MAGIC) {
                    let bytes = std::mem::take(held);
                    *self = NdjsonReader::Compressed {
                        bytes,
                        problem: Vec::new(),
                    };
                    return self.take(&[], end);
                }
                // Only a completed line can tell: a long first line arriving
                // in pieces is not scanned again for every piece.
                if !end && !bytes.contains(&b'\n') && held.len() > 4 {
                    return;
                }
                let Some(format) = decide(held, end) else {
                    return;
                };
                let held = std::mem::take(held);
                *self = match format {
                    LineFormat::Eve => NdjsonReader::Eve(Box::default()),
                    LineFormat::ClaudeCode => NdjsonReader::ClaudeCode(Box::default()),
                    LineFormat::Codex => NdjsonReader::Codex(Box::default()),
                };
                self.take(&held, end);
            }
            NdjsonReader::Compressed {
                bytes: held,
                problem,
            } => {
                held.extend_from_slice(bytes);
                if !problem.is_empty() {
                    return;
                }
                match decompress(held) {
                    Ok(plain) => {
                        *self = NdjsonReader::Undecided(Vec::new());
                        self.take(&plain, true);
                    }
                    Err(reason) if end => problem.push(Diagnostic { line: 1, reason }),
                    Err(_) => {}
                }
            }
            NdjsonReader::Eve(r) => {
                r.push(bytes);
                if end {
                    r.finish();
                }
            }
            NdjsonReader::ClaudeCode(r) => {
                r.push(bytes);
                if end {
                    r.finish();
                }
            }
            NdjsonReader::Codex(r) => {
                r.push(bytes);
                if end {
                    r.finish();
                }
            }
        }
    }

    /// The format, once a line told it.
    pub fn format(&self) -> Option<LineFormat> {
        match self {
            NdjsonReader::Eve(_) => Some(LineFormat::Eve),
            NdjsonReader::ClaudeCode(_) => Some(LineFormat::ClaudeCode),
            NdjsonReader::Codex(_) => Some(LineFormat::Codex),
            NdjsonReader::Undecided(_) | NdjsonReader::Compressed { .. } => None,
        }
    }

    /// The canonical events read so far.
    pub fn events(&self) -> &[Event] {
        each!(self, r => r.events(), &[])
    }

    /// Stored lines not handed over yet.
    pub fn originals(&self) -> &[Original] {
        each!(self, r => r.originals(), &[])
    }

    /// Hands over the stored lines read since the last call.
    pub fn take_originals(&mut self) -> Vec<Original> {
        each!(self, r => r.take_originals(), Vec::new())
    }

    /// How many stored lines were read in all.
    pub fn originals_read(&self) -> usize {
        each!(self, r => r.originals_read(), 0)
    }

    /// The lines that could not be read (or why a compressed input could not be).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            NdjsonReader::Compressed { problem, .. } => problem,
            _ => each!(self, r => r.diagnostics(), &[]),
        }
    }

    /// The streaming text of the current step (eve only).
    pub fn in_progress(&self) -> Option<&InProgress> {
        match self {
            NdjsonReader::Eve(r) => r.in_progress(),
            _ => None,
        }
    }

    /// Whether the writer said the conversation is over (eve only: the
    /// agent transcripts never say so; a compressed rollout is finished).
    pub fn finished(&self) -> bool {
        match self {
            NdjsonReader::Eve(r) => r.finished(),
            _ => false,
        }
    }

    /// Counts in-place changes to events already returned.
    pub fn revision(&self) -> u64 {
        each!(self, r => r.revision(), 0)
    }

    /// The lowest index of an event changed in place since the last call.
    pub fn take_changed_from(&mut self) -> Option<usize> {
        each!(self, r => r.take_changed_from(), None)
    }

    /// The conversation's title, when the format stores one.
    pub fn title(&self) -> Option<&str> {
        match self {
            NdjsonReader::ClaudeCode(r) => r.title(),
            NdjsonReader::Codex(r) => r.title(),
            _ => None,
        }
    }
}

/// The format the held bytes' first readable line tells; `None` while more
/// lines must arrive. After [`LOOK_AHEAD`] lines that tell nothing (or at the
/// end), an eve stream.
fn decide(held: &[u8], end: bool) -> Option<LineFormat> {
    let mut lines: Vec<&[u8]> = held.split(|&b| b == b'\n').collect();
    // The last piece has no newline yet: it counts only at the end.
    let last = lines.pop().filter(|_| end);
    let mut looked = 0;
    for line in lines.into_iter().chain(last) {
        let line = line.trim_ascii();
        if line.is_empty() {
            continue;
        }
        looked += 1;
        if let Ok(value) = serde_json::from_slice::<Value>(line)
            && let Some(format) = line_format(&value)
        {
            return Some(format);
        }
        if looked >= LOOK_AHEAD {
            return Some(LineFormat::Eve);
        }
    }
    end.then_some(LineFormat::Eve)
}

/// A whole zstd input decompressed, or why it cannot be (yet).
fn decompress(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut decoder = ruzstd::decoding::StreamingDecoder::new(bytes)
        .map_err(|e| format!("not a readable zstd frame: {e}"))?;
    let mut plain = Vec::new();
    decoder
        .read_to_end(&mut plain)
        .map_err(|e| format!("the zstd frame is cut short or damaged: {e}"))?;
    Ok(plain)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLAUDE: &[u8] =
        br#"{"type":"user","sessionId":"s","uuid":"u1","message":{"role":"user","content":"hi"}}"#;
    const CODEX: &[u8] =
        br#"{"timestamp":"2025-09-25T02:12:23.966Z","type":"session_meta","payload":{"id":"x"}}"#;

    #[test]
    fn the_first_readable_line_tells_the_format() {
        let mut bytes = b"\n\n".to_vec();
        bytes.extend_from_slice(CLAUDE);
        let mut reader = NdjsonReader::new();
        reader.push(&bytes);
        assert_eq!(reader.format(), None, "the line is not complete yet");
        reader.push(b"\n");
        assert_eq!(reader.format(), Some(LineFormat::ClaudeCode));
        assert_eq!(reader.events().len(), 2, "turn_start and the prompt");

        let codex = NdjsonReader::read_all(CODEX);
        assert_eq!(codex.format(), Some(LineFormat::Codex));
        let eve = NdjsonReader::read_all(b"{\"type\":\"session.started\",\"data\":{}}\n");
        assert_eq!(eve.format(), Some(LineFormat::Eve));
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
        let (head, tail) = packed.split_at(packed.len() / 2);
        reader.push(head);
        assert!(reader.events().is_empty());
        reader.push(tail);
        reader.finish();
        assert_eq!(reader.format(), Some(LineFormat::Codex));
        assert_eq!(reader.events(), NdjsonReader::read_all(&plain).events());
        assert!(reader.events().len() >= 2);

        let mut cut = NdjsonReader::new();
        cut.push(head);
        cut.finish();
        assert_eq!(cut.diagnostics().len(), 1, "{:?}", cut.diagnostics());
    }
}
