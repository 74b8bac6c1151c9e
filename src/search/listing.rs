//! `overhear sessions`: the sessions a search would cover ([`super::sessions`],
//! the same selection), each read once by its format's reader for its
//! figures (docs/sessions.md).

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::SystemTime;

use super::Session;
use super::scan::first_prompt_line;
use crate::format::session_head::LIVE_WITHIN;
use crate::load::{Live, OpenError};
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
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, Listed)>> = Mutex::new(Vec::with_capacity(sessions.len()));
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(session) = sessions.get(index) else {
                        return;
                    };
                    let listed = read(session.clone(), now);
                    done.lock()
                        .unwrap_or_else(|poisoned| poisoned.into_inner())
                        .push((index, listed));
                }
            });
        }
    });
    let mut done = done
        .into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    done.sort_by_key(|(index, _)| *index);
    done.into_iter().map(|(_, listed)| listed).collect()
}

/// One session read by its format's reader.
fn read(session: Session, now: SystemTime) -> Listed {
    let live = session
        .modified
        .is_some_and(|at| now.duration_since(at).map_or(true, |age| age < LIVE_WITHIN));
    let Some(arg) = session.target.open.to_str() else {
        return Listed {
            figures: Err(Unread::NotUtf8(session.target.open.clone())),
            session,
            title: None,
            live,
        };
    };
    match Live::read_once(arg) {
        Ok(read) => {
            let conv = &read.conversation;
            Listed {
                title: conv.title.clone().or_else(|| first_prompt_line(conv)),
                figures: Ok(Summary::of(conv, usage::prices())),
                session,
                live,
            }
        }
        Err(err) => Listed {
            session,
            title: None,
            figures: Err(Unread::from(err)),
            live,
        },
    }
}
