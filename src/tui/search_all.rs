//! The viewer's search over every session, run on a thread of its own: the
//! sessions `overhear search --all-projects` covers (every agent's store,
//! the JP workspace around the current folder), searched by the same engine
//! (`crate::search`), each session's hits reported as soon as it and every
//! session before it are searched, until the end or until told to stop.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::everywhere::{Found, FoundHit};
use super::viewer::FolderScope;
use crate::load::sessions::Agents;
use crate::redact::Redactor;
use crate::search::{self, Case, Hit, Kinds, Outcome, Query, Scope, Session};

/// One search over every session.
pub(super) struct SearchAll {
    /// What to find: a literal, case ignored unless it has a capital (as
    /// the viewer's `/`).
    pub pattern: String,
    /// The number its reports carry.
    pub generation: u64,
    /// The folder the viewer runs in and the kinds of session it lists
    /// (`--agent`); without one (standard input), the current folder and
    /// every kind.
    pub folder: Option<FolderScope>,
    /// Secrets masked in what is reported (`--redact`).
    pub redactor: Option<Arc<Redactor>>,
    /// Set to stop the search.
    pub stop: Arc<AtomicBool>,
}

impl SearchAll {
    /// Searches, reporting each session searched, and last that it is done.
    pub fn run(self, report: &dyn Fn(Found)) {
        let found = |hits, searched, sessions, done, problem| Found {
            generation: self.generation,
            hits,
            searched,
            sessions,
            done,
            problem,
        };
        let query = match Query::new(&self.pattern, false, Case::Smart) {
            Ok(query) => query,
            Err(err) => return report(found(Vec::new(), 0, 0, true, Some(err.to_string()))),
        };
        let env = |name: &str| std::env::var(name).ok();
        let (cwd, kinds) = match &self.folder {
            Some(folder) => (
                folder.cwd.clone(),
                Kinds {
                    agents: folder.agents,
                    jp: folder.jp,
                },
            ),
            None => (
                std::env::current_dir().unwrap_or_default(),
                Kinds {
                    agents: Agents::ALL,
                    jp: true,
                },
            ),
        };
        let sessions = search::without_nested_children(search::sessions(
            &Scope::AllProjects(cwd),
            kinds,
            &[],
            &env,
        ));
        let targets: Vec<search::Target> = sessions.iter().map(|s| s.target.clone()).collect();
        let total = targets.len();
        let home = env("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
        let threads = std::thread::available_parallelism().map_or(2, usize::from);
        let mut searched = 0;
        search::scan(&targets, &query, threads, &mut |index, outcome| {
            if self.stop.load(Ordering::Relaxed) {
                return false;
            }
            searched += 1;
            let (hits, problem) = match outcome {
                Outcome::Skipped => (Vec::new(), None),
                Outcome::Failed(message) => (Vec::new(), Some(message)),
                Outcome::Searched { title, hits } => {
                    let session = &sessions[index];
                    let hits = hits
                        .iter()
                        .filter_map(|hit| self.listed(session, title.as_deref(), hit, &query, home.as_deref()))
                        .collect();
                    (hits, None)
                }
            };
            report(found(hits, searched, total, false, problem));
            true
        });
        report(found(Vec::new(), searched, total, true, None));
    }

    /// A hit as the list shows it, redacted with `--redact` (a hit whose
    /// match was in a secret is not listed).
    fn listed(
        &self,
        session: &Session,
        title: Option<&str>,
        hit: &Hit,
        query: &Query,
        home: Option<&Path>,
    ) -> Option<FoundHit> {
        let mut title = title.map(str::to_owned);
        let mut line = hit.line.clone();
        let mut matches = hit.matches.clone();
        if let Some(redactor) = &self.redactor {
            crate::redact::redact_title(redactor, &mut title);
            let redacted = redactor.redact(&line).into_owned();
            if redacted != line {
                matches = query.find_in(&redacted);
                line = redacted;
            }
            if matches.is_empty() {
                return None;
            }
        }
        Some(FoundHit {
            open: session.target.open.display().to_string(),
            agent: session.agent,
            project: session.project.as_deref().map(|p| shown_path(p, home)),
            title,
            turn: hit.turn,
            kind: hit.label_with(str::to_owned, str::to_owned),
            line,
            matches,
            alike_before: 0,
        })
    }
}

/// A path with the home folder written `~`.
fn shown_path(path: &Path, home: Option<&Path>) -> String {
    match home.and_then(|home| path.strip_prefix(home).ok()) {
        Some(rest) => Path::new("~").join(rest).display().to_string(),
        None => path.display().to_string(),
    }
}
