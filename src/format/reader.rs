//! The seam between the formats and the rest: what an input is, told from
//! its first bytes ([`super::detect`]), and a reader that is fed its bytes
//! and keeps a conversation's events up to date.
//!
//! A [`StreamReader`] is fed the bytes of a stream as they arrive
//! ([`StreamReader::feed`]; a rewritten file is fed whole to a fresh reader
//! made by [`StreamFormat::reader`]) and writes the canonical events
//! ([`crate::model::Event`]) into a vector its caller owns: the
//! conversation's own [`crate::model::Conversation::events`]. It appends to
//! them and may change earlier ones in place (a tool call answered, a turn
//! settled), never removing or reordering them, and tells the lowest index it
//! changed ([`StreamReader::take_changed_from`]) so the conversation regroups
//! only from there ([`crate::model::Conversation::regroup_from`]). The reader
//! keeps only what it needs to resolve later lines (indexes by call id, turn
//! id, …), not a second copy of the events.
//!
//! `load` and the viewer see only this trait and [`StreamFormat`]; a new
//! NDJSON format is one more implementation (docs/adding-a-format.md).

use super::detect::Detected;
use crate::model::{Event, InProgress, Original, StreamPiece};
use crate::problem::SkippedLine;

/// A reader of a stream format, fed bytes, writing events into its caller's vector.
pub trait StreamReader: std::fmt::Debug + Send {
    /// Reads `bytes` appended to the stream into `events`, which must hold
    /// exactly what this reader wrote so far. A partial last line (even one
    /// ending inside a UTF-8 character) is held until its newline arrives.
    fn feed(&mut self, bytes: &[u8], events: &mut Vec<Event>);

    /// End of the stream: a final line without a newline is read too.
    fn finish(&mut self, events: &mut Vec<Event>);

    /// The lowest index of an event changed in place since the last call
    /// (`None`: only appends, or nothing).
    fn take_changed_from(&mut self) -> Option<usize>;

    /// Counts in-place changes to events already written.
    fn revision(&self) -> u64;

    /// The text being written right now, not yet an event.
    fn in_progress(&self) -> Option<&InProgress>;

    /// Hands over the stored lines read since the last call (for the raw
    /// view): they are kept once, by the conversation.
    fn take_originals(&mut self) -> Vec<Original>;

    /// How many stored lines were read in all, handed over or not.
    fn originals_read(&self) -> usize;

    /// The lines that could not be read, in order.
    fn problems(&self) -> &[SkippedLine];

    /// The size limit a compressed input inflated past, if it did: the
    /// input is refused as a file over the limit is, and nothing of it read.
    fn inflated_past(&self) -> Option<u64> {
        None
    }

    /// Whether the stream says its session ended.
    fn finished(&self) -> bool;

    /// For a format whose writer never says its session ended (the agent
    /// transcripts): how long its file may go unwritten before a viewer
    /// takes the agent as gone — short once the last turn has settled (the
    /// agent waits for the user), long while a turn runs (a tool may work
    /// for minutes; a killed agent writes nothing more). `None`: the format
    /// says it itself, or nothing was read yet.
    #[cfg(feature = "cli")]
    fn quiet_limit(&self) -> Option<std::time::Duration> {
        None
    }

    /// Which line-delimited format the lines read so far are, once one
    /// told it: a rewritten file must still be it to replace what it held.
    fn line_format(&self) -> Option<super::detect::LineFormat> {
        None
    }

    /// The time of the latest record read that states one, for time travel
    /// (`--at`, replay), when the format stores record times.
    #[cfg(feature = "cli")]
    fn record_time(&self) -> Option<&str> {
        None
    }

    /// The conversation's title, when the format stores one.
    fn title(&self) -> Option<&str> {
        None
    }

    /// The format's built-in tool styles, as a base configuration
    /// (`conversation.tools.NAME.style`), when it has them: a user's
    /// `--config`/`--set` still override them by tool name.
    fn default_config(&self) -> Option<serde_json::Value> {
        None
    }

    /// Whether the stored line `record` holds a piece of a text streamed in
    /// pieces (a delta), and which: redaction joins the pieces, so a secret
    /// split across two lines is found. `None`: it holds none, or the
    /// format streams no text in pieces. No default: a reader that wraps
    /// another must say it, or redaction would miss the split secrets.
    fn stream_piece(&self, record: &serde_json::Value) -> Option<StreamPiece>;

    /// The sub-agents linked to tool calls since the last call: where each
    /// one's own conversation is, to be read by a reader of this format
    /// (docs/agents.md, "Sub-agents"). A call may be linked more than once
    /// (inline records arrive one at a time).
    fn take_subagents(&mut self) -> Vec<SubAgentLink> {
        Vec::new()
    }
}

/// A sub-agent's conversation, tied to the tool call that started it: the
/// call's card shows it nested (spec agent-transcripts §2.8, §3.9).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubAgentLink {
    /// The id of the tool call that started the sub-agent.
    pub call: String,
    /// Where its records are.
    pub source: SubAgentSource,
}

/// Where a sub-agent's records are, as the parent's records say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubAgentSource {
    /// Records written in the parent's own input (whole lines, each ending
    /// with a newline), in order: more may follow under the same call.
    Lines(Vec<u8>),
    /// A file of its own: paths relative to the parent file's folder, the
    /// first that exists.
    File(Vec<String>),
    /// A file in the parent file's folder whose name ends with this.
    Ending(String),
    /// A sub-agent still running, whose records name no file yet: a file
    /// named `agent-*.jsonl` in one of these folders (relative to the
    /// parent file's) whose conversation opens with this prompt.
    Prompt {
        /// Where to look.
        folders: Vec<String>,
        /// The prompt the call gave it.
        prompt: String,
    },
}

/// The stream formats overhear reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamFormat {
    /// Lines of JSON: an eve session stream, a Claude Code transcript or a
    /// Codex rollout (plain or zstd-compressed), told apart by their first
    /// readable line ([`super::ndjson::NdjsonReader`]).
    Lines,
}

impl StreamFormat {
    /// The stream format the first bytes of an input name, if they name one
    /// (a JP array is read whole, not as a stream).
    pub fn detected(detected: Detected) -> Option<StreamFormat> {
        match detected {
            Detected::Eve => Some(StreamFormat::Lines),
            Detected::Blank | Detected::BlankHead | Detected::Jp | Detected::Other { .. } => None,
        }
    }

    /// A fresh reader of this format, nothing read yet, that refuses a
    /// compressed input inflating to more than `limit` bytes.
    pub fn reader(self, limit: u64) -> Box<dyn StreamReader> {
        match self {
            StreamFormat::Lines => Box::new(super::ndjson::NdjsonReader::within(limit)),
        }
    }
}
