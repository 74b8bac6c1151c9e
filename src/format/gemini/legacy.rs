//! The Gemini reader proper: JSON Lines, or a legacy whole-JSON
//! `session-*.json` (spec agent-transcripts-2 §2.1, §2.3 "Legacy and
//! fallback"), told by the first line: a pretty-printed legacy file opens
//! with `{` alone on it. A legacy file is held until it parses as one
//! object, then replayed as its lines would be; its writer rewrites it
//! whole, which the viewer reads as a rewritten file.

use std::ops::{Deref, DerefMut};

use super::State;
use crate::format::transcript::TranscriptReader;
use crate::model::Event;

/// Reads a Gemini chat, lines or a legacy whole file.
#[derive(Debug)]
pub struct GeminiReader {
    lines: TranscriptReader<State>,
    shape: Shape,
}

impl Default for GeminiReader {
    fn default() -> Self {
        GeminiReader {
            lines: TranscriptReader::new(),
            shape: Shape::Undecided(Vec::new()),
        }
    }
}

/// What the first line said the input is.
#[derive(Debug)]
enum Shape {
    /// No complete line yet: the bytes so far.
    Undecided(Vec<u8>),
    /// JSON Lines.
    Lines,
    /// A legacy whole file, held until it parses.
    Whole(Vec<u8>),
    /// A legacy whole file, read.
    Read,
}

impl Deref for GeminiReader {
    type Target = TranscriptReader<State>;

    fn deref(&self) -> &Self::Target {
        &self.lines
    }
}

impl DerefMut for GeminiReader {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.lines
    }
}

/// Whether the first line of `held` is a legacy file's `{` alone; `None`
/// until the first line is complete.
fn legacy_start(held: &[u8]) -> Option<bool> {
    let start = held.iter().position(|b| !b.is_ascii_whitespace())?;
    let length = held[start..].iter().position(|&b| b == b'\n')?;
    Some(held[start..start + length].trim_ascii() == b"{")
}

impl GeminiReader {
    /// Reads `bytes` appended to the chat into `events` (`end`: the input is over).
    pub fn take(&mut self, bytes: &[u8], end: bool, events: &mut Vec<Event>) {
        if let Shape::Undecided(held) = &mut self.shape {
            held.extend_from_slice(bytes);
            let legacy = match legacy_start(held) {
                Some(legacy) => legacy,
                None if end => false,
                None => return,
            };
            let held = std::mem::take(held);
            self.shape = if legacy {
                Shape::Whole(Vec::new())
            } else {
                Shape::Lines
            };
            return self.take(&held, end, events);
        }
        match &mut self.shape {
            Shape::Lines => self.lines.with_events(events, |r| {
                r.push(bytes);
                if end {
                    r.finish();
                }
            }),
            Shape::Whole(held) => {
                held.extend_from_slice(bytes);
                let complete = held.trim_ascii_end().ends_with(b"}")
                    && serde_json::from_slice::<serde::de::IgnoredAny>(held).is_ok();
                if complete || end {
                    let held = std::mem::take(held);
                    self.shape = Shape::Read;
                    self.lines.with_events(events, |r| {
                        r.read_whole(&held);
                        r.finish();
                    });
                }
            }
            Shape::Read | Shape::Undecided(_) => {}
        }
    }
}
