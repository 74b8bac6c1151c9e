//! `--at-event N` and `--at TIME` of `render`, `events` and `export`: the
//! conversation as it was then (see [`crate::travel`]).

use anyhow::Result;
use clap::Args;

use crate::load::{Live, StoredTexts};
use crate::travel::{At, Moment, Recording};

/// Where in its history to show the conversation.
#[derive(Debug, Clone, Default, Args)]
pub struct AtArgs {
    /// The conversation as it was after its first N events (an eve stream:
    /// its first N lines), a running turn shown running.
    #[arg(long, value_name = "N", value_parser = step_number, conflicts_with = "at")]
    pub at_event: Option<usize>,
    /// The conversation as it was at TIME (RFC 3339, any offset, e.g.
    /// 2026-04-10T17:07:09Z): the events stored at or before it.
    #[arg(long, value_name = "TIME", value_parser = At::time, allow_hyphen_values = true)]
    pub at: Option<At>,
}

impl AtArgs {
    /// The cut asked for, if any.
    pub fn at(&self) -> Option<At> {
        match (&self.at, self.at_event) {
            (Some(at), _) => Some(at.clone()),
            (None, Some(n)) => Some(At::Event(n)),
            (None, None) => None,
        }
    }
}

/// `--at-event` or `--from-event` given something that is not a count.
#[derive(Debug, thiserror::Error)]
#[error("expected a number of events, e.g. 57")]
pub(super) struct NotAStep;

/// `--at-event`, `--from-event`: a count of events.
pub(super) fn step_number(text: &str) -> Result<usize, NotAStep> {
    text.trim().parse::<usize>().map_err(|_| NotAStep)
}

/// Reads what `path` names (`None`: the workspace around the current
/// folder) for printing: whole, or cut at `at` with the moment it shows.
pub(super) fn read(path: Option<&str>, at: Option<&At>) -> Result<(Live, Option<Moment>)> {
    read_keeping(path, at, StoredTexts::All)
}

/// [`read`], a stream's stored lines keeping as they are read the texts
/// `texts` says (an export keeps only the lines of images).
pub(super) fn read_keeping(
    path: Option<&str>,
    at: Option<&At>,
    texts: StoredTexts,
) -> Result<(Live, Option<Moment>)> {
    match at {
        None => Ok((Live::read_once_keeping(path, texts)?, None)),
        Some(at) => {
            let (live, moment) = Recording::open(path)?.cut(at)?;
            Ok((live, Some(moment)))
        }
    }
}
