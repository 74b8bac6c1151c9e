//! `overhear sessions`: the sessions a search would cover ([`super::sessions`],
//! the same selection), each read once for its figures (docs/sessions.md):
//! by its format's scan when it has one ([`crate::format::figures_of`]:
//! the figures without the conversation), else whole by its reader.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::Session;
use super::scan::first_prompt_line;
use crate::format::figures_of;
use crate::format::session_head::LIVE_WITHIN;
use crate::load::{Live, OpenError};
use crate::source::limit;
use crate::usage::{self, Summary};

/// A session with what `overhear sessions` says of it.
#[derive(Debug)]
pub struct Listed {
    /// The session, as the selection found it.
    pub session: Session,
    /// Its title, or its first prompt's first line.
    pub title: Option<String>,
    /// Its figures, or why it could not be read (the message names the file).
    pub figures: Result<Summary, Unread>,
    /// Whether its agent is writing it right now (written within the last
    /// minute, as the picker's `●`).
    pub live: bool,
}

/// Why a session's figures could not be read; the message names the file.
#[derive(Debug, thiserror::Error)]
pub enum Unread {
    /// The session's path is not UTF-8, and overhear opens paths as text.
    #[error("{}: the path is not UTF-8, so it cannot be opened", .0.display())]
    NotUtf8(PathBuf),
    /// The session could not be opened or read.
    #[error(transparent)]
    Open(#[from] OpenError),
}

/// Reads each of `sessions` on `threads` threads, in the order given.
pub fn list(sessions: Vec<Session>, threads: usize, now: SystemTime) -> Vec<Listed> {
    super::parallel::map(&sessions, threads, |session| read(session.clone(), now))
}

/// One session read for its figures: scanned when its format can be,
/// else read whole by its format's reader.
fn read(session: Session, now: SystemTime) -> Listed {
    let live = session
        .modified
        .is_some_and(|at| now.duration_since(at).map_or(true, |age| age < LIVE_WITHIN));
    if let Some((title, figures)) = scanned(&session) {
        return Listed {
            session,
            title,
            figures: Ok(figures),
            live,
        };
    }
    let (title, figures) = whole_figures(&session.target.open);
    Listed {
        session,
        title,
        figures,
        live,
    }
}

/// The title and figures of the transcript at `path`, read whole by its
/// format's reader into a conversation.
pub fn whole_figures(path: &Path) -> (Option<String>, Result<Summary, Unread>) {
    let Some(arg) = path.to_str() else {
        return (None, Err(Unread::NotUtf8(path.to_path_buf())));
    };
    match Live::read_once(arg) {
        Ok(read) => {
            let conv = &read.conversation;
            (
                conv.title.clone().or_else(|| first_prompt_line(conv)),
                Ok(Summary::of(conv, usage::prices())),
            )
        }
        Err(err) => (None, Err(Unread::from(err))),
    }
}

/// A Claude Code or Codex session's title and figures by its format's scan, when
/// the scan reads every line of it; `None`: read it whole (another agent,
/// a file that is not a plain one or is over the size limit, a line the
/// scan leaves to the reader).
fn scanned(session: &Session) -> Option<(Option<String>, Summary)> {
    if !matches!(session.agent, "claude" | "codex") {
        return None;
    }
    scanned_figures(&session.target.open)
}

/// The title and figures of the transcript at `path` by its format's scan,
/// when it has one that reads every line of it; `None` otherwise.
pub fn scanned_figures(path: &Path) -> Option<(Option<String>, Summary)> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > limit::limit() {
        return None;
    }
    let bytes = crate::files::read(path).ok()?;
    let figures = figures_of(&bytes)?;
    let prices = usage::prices();
    let mut summary = Summary {
        turns: figures.turns,
        tool_calls: figures.tool_calls,
        failures: figures.failures,
        started: figures.started,
        last: figures.last,
        ..Summary::default()
    };
    for info in &figures.turn_facts {
        summary.add_turn(info, prices);
    }
    Some((figures.title, summary))
}
