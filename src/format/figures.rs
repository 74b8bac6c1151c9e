//! A session's figures without building its conversation: what
//! `overhear sessions` lists (turns, tool calls, failures, each turn's
//! usage, the first and last time, the title), read from a transcript's
//! bytes by a format's own scan (docs/sessions.md, "How it is read").
//!
//! Only a format that has such a scan answers, and only for a file whose
//! every record it reads as the full reader would: any line it cannot be
//! sure of (not JSON, a lone surrogate to repair, a call written twice) and
//! the answer is `None`, and the caller reads the session whole. What it
//! answers is what the full reader's conversation says, figure for figure
//! (tests/it/sessions_fast.rs compares the two on every fixture).

use jiff::Timestamp;

use super::detect::{LineFormat, ZSTD_MAGIC};
use crate::model::facts::TurnInfo;

/// What a session's figures are made of, before they are priced.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Figures {
    /// Its title, else its first prompt's first line (as the viewer's).
    pub title: Option<String>,
    /// Its turns, as the conversation groups them.
    pub turns: usize,
    /// Tool calls asked for.
    pub tool_calls: usize,
    /// Tool results that report a failure.
    pub failures: usize,
    /// The facts of each turn that stated its usage, in order.
    pub turn_facts: Vec<TurnInfo>,
    /// The earliest time an event states.
    pub started: Option<Timestamp>,
    /// The latest time an event states.
    pub last: Option<Timestamp>,
}

impl Figures {
    /// Counts an event's time.
    pub(crate) fn saw_time(&mut self, at: Option<&str>) {
        if let Some(at) = at.and_then(crate::model::timestamp::parse) {
            self.started = Some(self.started.map_or(at, |s| s.min(at)));
            self.last = Some(self.last.map_or(at, |l| l.max(at)));
        }
    }
}

/// How much of a file's head tells its format here: more lines than that
/// before one tells, and the full reader decides.
const HEAD: usize = 256 * 1024;

/// The figures of the transcript `bytes` (a whole file), when its format
/// has a scan and every line of it is one the scan reads exactly; `None`:
/// read it whole.
pub fn figures_of(bytes: &[u8]) -> Option<Figures> {
    if bytes.starts_with(b"\xEF\xBB\xBF") || bytes.starts_with(&ZSTD_MAGIC) {
        return None;
    }
    // A lone surrogate is repaired by the full reader before it parses: the
    // scan leaves any `\uD8xx`–`\uDFxx` escape to it.
    let surrogate = |prefix: &[u8]| memchr::memmem::find_iter(bytes, prefix).next().is_some();
    if surrogate(b"\\ud") || surrogate(b"\\uD") {
        return None;
    }
    let head = &bytes[..bytes.len().min(HEAD)];
    match super::ndjson::decide(head, head.len() == bytes.len())? {
        LineFormat::ClaudeCode => super::claude_code::figures(bytes),
        LineFormat::Codex => super::codex::figures(bytes),
        _ => None,
    }
}

/// A format's scan of a whole file for its figures, a line at a time.
pub(crate) trait LineScan: Default {
    /// Reads one trimmed, non-blank line; `None` when the scan cannot read
    /// it exactly as the full reader would.
    fn line(&mut self, line: &[u8]) -> Option<()>;
    /// The figures of the lines read.
    fn finish(self) -> Figures;
}

/// The figures `S` reads from every line of `bytes`, or `None` when a line
/// is one it does not read exactly.
pub(crate) fn scan<S: LineScan>(bytes: &[u8]) -> Option<Figures> {
    let mut scan = S::default();
    for line in lines(bytes) {
        scan.line(line)?;
    }
    Some(scan.finish())
}

/// Turns, counted as every format's conversation groups them: a prompt opens
/// one, what a turn holds before the first prompt makes a turn of its own,
/// and a conversation has one turn at least. Each turn's facts are kept when
/// the next opens.
#[derive(Debug, Default)]
pub(crate) struct Turns {
    prompts: usize,
    held_before_first: bool,
    /// The current turn's facts, once it has any.
    pub(crate) current: Option<TurnInfo>,
    /// The facts of the turns closed so far.
    facts: Vec<TurnInfo>,
}

impl Turns {
    /// Notes something a turn holds (speech, a call, a result).
    pub(crate) fn hold(&mut self) {
        if self.prompts == 0 {
            self.held_before_first = true;
        }
    }

    /// A prompt: the current turn closes and a new one opens.
    pub(crate) fn open(&mut self) {
        self.close();
        self.prompts += 1;
    }

    /// Whether a prompt has opened a turn.
    pub(crate) fn any_prompt(&self) -> bool {
        self.prompts > 0
    }

    fn close(&mut self) {
        if let Some(info) = self.current.take() {
            self.facts.push(info);
        }
    }

    /// Puts the count of turns and each turn's facts into `figures`.
    pub(crate) fn finish(mut self, figures: &mut Figures) {
        self.close();
        figures.turn_facts = self.facts;
        figures.turns = (self.prompts + usize::from(self.held_before_first)).max(1);
    }
}

/// The lines of `bytes` (a last line without its newline included), each
/// trimmed, blank ones left out.
pub(crate) fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = bytes;
    std::iter::from_fn(move || {
        while !rest.is_empty() {
            let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
            let line = rest[..end].trim_ascii();
            rest = rest.get(end + 1..).unwrap_or(&[]);
            if !line.is_empty() {
                return Some(line);
            }
        }
        None
    })
}
