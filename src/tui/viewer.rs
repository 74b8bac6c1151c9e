//! `overhear [PATH]` in a terminal: opens the conversation, starts following
//! it (a folder watch, a file watch or the stdin reader, each feeding the
//! event channel), and runs the viewer. The one entry point the CLI calls.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::mpsc::Sender;
use std::time::SystemTime;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::app::{App, AppEvent, Reload, ViewerOptions};
use super::everywhere::Found;
use super::chrome::Chrome;
use super::live::{LiveDocument, LiveUpdate};
use super::picker::ConversationRow;
use super::blocks::ReadError;
use super::run::{EventChannel, Exit, Host, Opened, TuiError, run};
use super::terminal::Mouse;
use super::view_prefs::{SaveChoices, Saver, ViewStart};
use crate::load::sessions::{Agents, sessions_of};
use crate::load::{Live, OpenError, Origin, event_count};
use crate::render::document::DocOptions;
use crate::render::highlight::highlight;
use crate::render::theme::Theme;
use crate::source::Workspace;
use crate::source::stdin::{StreamInbox, spawn_stream_reader};
use crate::source::watch::{self, Change, Watch};
use crate::text::sanitize::SanitizeMode;

/// The display choices of the command line.
#[derive(Debug, Clone, Default)]
pub struct ViewerSettings {
    /// View, style overlay (`finished` is managed by the viewer).
    pub doc: DocOptions,
    /// Colours, already adapted to the terminal's depth.
    pub theme: Theme,
    /// Escape sequences in conversation text: removed or shown.
    pub sanitize: SanitizeMode,
    /// The mouse: left to the terminal (the default) or captured (`--mouse`).
    pub mouse: Mouse,
    /// `--notify` (see [`super::notify`]).
    pub notify: bool,
    /// Secrets replaced by `[redacted RULE]` in everything shown (`--redact`).
    pub redactor: Option<std::sync::Arc<crate::redact::Redactor>>,
    /// The folder whose conversations the picker (`p`) lists; `None`: only
    /// the workspace the conversation was opened through, if any.
    pub folder: Option<FolderScope>,
    /// How reasoning and tool cards are shown at first (the flags, else
    /// the remembered choices).
    pub view: ViewStart,
    /// Where `r` and `z` choices are remembered; `None`: they are not.
    pub remember: Option<SaveChoices>,
}

/// The folder whose conversations the picker lists beside the workspace's:
/// the JP workspace around it and its Claude Code and Codex sessions.
#[derive(Debug, Clone)]
pub struct FolderScope {
    /// The folder (the current one).
    pub cwd: PathBuf,
    /// Which agents' sessions to list (`--agent`).
    pub agents: Agents,
    /// Whether to list the JP workspace around it (`--agent` none or `jp`).
    pub jp: bool,
}

/// Why `overhear PATH` could not show anything.
#[derive(Debug, thiserror::Error)]
pub enum ViewerError {
    /// The conversation could not be opened.
    #[error(transparent)]
    Open(#[from] OpenError),
    /// The terminal failed.
    #[error(transparent)]
    Tui(#[from] TuiError),
}

/// Hears how far the first read of a conversation is, before the viewer
/// takes the screen: a large one takes a moment, which a note can say.
pub trait OpeningReport {
    /// `read` bytes of the file are read, of `total` (see
    /// [`Live::open_at_end_reporting`]).
    fn progress(&mut self, read: u64, total: u64);
    /// The read is over, done or failed: the screen is taken next, or an
    /// error is told.
    fn done(&mut self);
}

/// Opens what `arg` names (`-`: a stream on stdin; `None`: the workspace
/// around the current folder), telling `opening` how far the read is, and
/// runs the viewer until the user quits.
pub fn open_and_run(
    arg: Option<&str>,
    settings: ViewerSettings,
    opening: &mut dyn OpeningReport,
) -> Result<Exit, ViewerError> {
    let live = Live::open_at_end_reporting(arg, &mut |read, total| opening.progress(read, total));
    opening.done();
    Ok(run_live(live?, settings)?)
}

/// Runs the viewer on a conversation already opened, following it.
pub fn run_live(mut live: Live, settings: ViewerSettings) -> Result<Exit, TuiError> {
    if let Some(redactor) = &settings.redactor {
        live.redact_with(redactor.clone());
    }
    let events = EventChannel::<LiveUpdate>::new();
    let tx = events.sender();
    let env = |name: &str| std::env::var(name).ok();
    let workspace = live.workspace.clone().or_else(|| {
        let folder = settings.folder.as_ref().filter(|folder| folder.jp)?;
        Workspace::discover(&folder.cwd, &env)
    });
    let mut host = WorkspaceHost {
        picker: workspace.is_some() || settings.folder.is_some(),
        workspace,
        settings: settings.clone(),
        sessions: HashSet::new(),
        tx: tx.clone(),
        epoch: 0,
        watch: None,
    };
    let watch_problem = host.follow(&live.origin, 0).err();
    let options = ViewerOptions {
        workspace: host.picker,
        conversation_id: match &live.origin {
            Origin::Jp(dir) => dir.id.clone(),
            Origin::Eve(path) => Some(path.display().to_string()),
            Origin::Stream(_) => None,
        },
        opened_at: SystemTime::now(),
        chrome: Chrome::from_theme(&settings.theme),
        notify: settings.notify,
        view: settings.view,
        remember: None,
        ..ViewerOptions::default()
    };
    // Choices are saved on a thread of their own; its notes reach the
    // status bar through the event channel.
    let saver = settings.remember.clone().and_then(|save| {
        let tx = tx.clone();
        Saver::spawn(save, move |note| {
            let _ = tx.send(AppEvent::Note(note));
        })
    });
    let (saver, remember) = match saver {
        Some((saver, remember)) => (Some(saver), Some(remember)),
        None => (None, None),
    };
    let options = ViewerOptions { remember, ..options };
    warm_up_highlighter(&settings.theme);
    let doc = LiveDocument::new(live, settings.doc, settings.theme, settings.sanitize);
    let problems = [doc.source().warnings.clone(), doc.style_warnings()].concat();
    let mut app = App::new(doc, options);
    if let Some(problem) = watch_problem {
        app.note(format!("not following changes: {problem}"));
    } else if let Some(first) = problems.first() {
        app.note(problem_note(first, problems.len()));
    }
    let exit = run(app, &mut host, events, settings.mouse);
    if let Some(saver) = saver {
        saver.finish();
    }
    exit
}

/// The note shown on opening a conversation with problems: the first one,
/// without the folder (the status bar is narrow), and how to see them all.
/// The conversation is shown all the same, as far as it could be read.
fn problem_note(first: &str, count: usize) -> String {
    let first = super::live::without_folder(first);
    // The bar may cut the end of a long note: the count goes first.
    if count == 1 {
        first
    } else {
        format!("(1 of {count}; `overhear render` lists all) {first}")
    }
}

/// Loads the highlighter's syntax and theme sets on another thread while the
/// first screen is laid out: they take a moment to load, which would
/// otherwise stall the first code block scrolled into view.
fn warm_up_highlighter(theme: &Theme) {
    let theme = theme.clone();
    let _ = std::thread::Builder::new()
        .name("overhear-warm-up".into())
        .spawn(move || highlight("fn main() {}", Some("rust"), &theme));
}

/// The workspace and folder behind the picker, and the watch of the
/// conversation shown.
struct WorkspaceHost {
    workspace: Option<Workspace>,
    /// Whether there is anything to pick from (a workspace or a folder).
    picker: bool,
    settings: ViewerSettings,
    /// The agent sessions the picker listed last: what it may open.
    sessions: HashSet<String>,
    tx: Sender<AppEvent<LiveUpdate>>,
    epoch: u64,
    watch: Option<Watch>,
}

impl WorkspaceHost {
    /// Starts following `origin`; reloads carry `epoch`. Stops the previous watch.
    fn follow(&mut self, origin: &Origin, epoch: u64) -> Result<(), ReadError> {
        self.watch = None;
        let tx = self.tx.clone();
        let send = move |update: LiveUpdate| {
            let _ = tx.send(AppEvent::Reload(Reload {
                epoch,
                update,
                at: SystemTime::now(),
            }));
        };
        let watch = match origin {
            Origin::Stream(path) => {
                let inbox = StreamInbox::new(move |inbox| send(LiveUpdate::Stream(inbox)));
                spawn_stream_reader(path.clone(), inbox).map_err(|e| ReadError::new(e.to_string()))?;
                return Ok(());
            }
            Origin::Eve(path) => {
                let send = send.clone();
                watch::file_with(path, move |change| send(LiveUpdate::Changed(change)))
            }
            Origin::Jp(dir) => {
                let send = send.clone();
                watch::conversation_with(dir, move |change| send(LiveUpdate::Changed(change)))
            }
        }
        .map_err(|e| ReadError::new(e.to_string()))?;
        self.watch = Some(watch);
        // A change between reading the files and starting the watch would go
        // unseen: look once more now.
        send(LiveUpdate::Changed(Change::Events));
        Ok(())
    }
}

impl Host<LiveDocument> for WorkspaceHost {
    fn conversations(&mut self) -> Vec<ConversationRow> {
        let mut rows: Vec<(i128, ConversationRow)> = Vec::new();
        if let Some(workspace) = &self.workspace {
            rows.extend(workspace.conversations().into_iter().map(|entry| {
                let row = ConversationRow {
                    events: event_count(&entry.conversation()),
                    id: entry.id,
                    agent: None,
                    title: entry.title,
                    last_activity: entry.last_activated_at,
                    pinned: entry.pinned,
                    archived: entry.archived,
                    live: entry.locked,
                };
                (entry.active_at, row)
            }));
        }
        self.sessions.clear();
        if let Some(folder) = &self.settings.folder {
            let env = |name: &str| std::env::var(name).ok();
            let now = SystemTime::now();
            for session in sessions_of(&folder.cwd, &env, folder.agents) {
                let id = session.file.path.display().to_string();
                self.sessions.insert(id.clone());
                let at = jiff::Timestamp::try_from(session.file.modified).ok();
                let row = ConversationRow {
                    agent: Some(session.agent.name()),
                    title: session.title(),
                    last_activity: at
                        .map(|at| at.round(jiff::Unit::Second).unwrap_or(at).to_string()),
                    events: None,
                    pinned: false,
                    archived: false,
                    live: session.is_live(now),
                    id,
                };
                let nanos = at.map_or(0, jiff::Timestamp::as_nanosecond);
                rows.push((nanos, row));
            }
        }
        // The list shows titles (an agent session's first prompt): `--redact`
        // covers them as it covers the conversation once opened.
        if let Some(redactor) = &self.settings.redactor {
            for (_, row) in &mut rows {
                crate::redact::redact_title(redactor, &mut row.title);
            }
        }
        // Newest first; the workspace's own order among equals.
        rows.sort_by_key(|(at, _)| std::cmp::Reverse(*at));
        rows.into_iter().map(|(_, row)| row).collect()
    }

    fn search_all(
        &mut self,
        pattern: &str,
        generation: u64,
        report: Box<dyn Fn(Found) + Send>,
    ) -> Option<Arc<AtomicBool>> {
        let stop = Arc::new(AtomicBool::new(false));
        let search = super::search_all::SearchAll {
            pattern: pattern.to_owned(),
            generation,
            folder: self.settings.folder.clone(),
            redactor: self.settings.redactor.clone(),
            stop: stop.clone(),
        };
        let started = std::thread::Builder::new()
            .name("overhear-search".into())
            .spawn(move || search.run(&*report));
        started.is_ok().then_some(stop)
    }

    fn open_hit(
        &mut self,
        open: &str,
        report: &mut dyn FnMut(u64, u64),
    ) -> Result<Opened<LiveDocument>, ReadError> {
        let live = Live::open_at_end_reporting(Some(open), report)
            .map_err(|e| ReadError::new(super::live::without_folder(&e.to_string())))?;
        Ok(self.opened(live))
    }

    fn open(
        &mut self,
        id: &str,
        report: &mut dyn FnMut(u64, u64),
    ) -> Result<Opened<LiveDocument>, ReadError> {
        let live = if self.sessions.contains(id) {
            Live::open_eve(PathBuf::from(id))
                .map_err(|e| ReadError::new(super::live::without_folder(&e.to_string())))?
        } else {
            let workspace = self
                .workspace
                .clone()
                .ok_or_else(|| ReadError::new(format!("{id}: not in a workspace")))?;
            let entry = workspace
                .find(id)
                .ok_or_else(|| ReadError::new(format!("{id}: no such conversation any more")))?;
            Live::open_jp_at_end_reporting(entry.conversation(), Some(workspace), report)
                .map_err(|e| ReadError::new(super::live::without_folder(&e.to_string())))?
        };
        Ok(self.opened(live))
    }
}

impl WorkspaceHost {
    /// `live` shown in the viewer, redacted, followed.
    fn opened(&mut self, mut live: Live) -> Opened<LiveDocument> {
        if let Some(redactor) = &self.settings.redactor {
            live.redact_with(redactor.clone());
        }
        self.epoch += 1;
        let epoch = self.epoch;
        let problem = self.follow(&live.origin, epoch).err();
        let settings = self.settings.clone();
        Opened {
            doc: LiveDocument::new(live, settings.doc, settings.theme, settings.sanitize),
            epoch,
            note: problem.map(|p| format!("not following changes: {p}")),
        }
    }
}
