//! `overhear [PATH]` in a terminal: opens the conversation, starts following
//! it (a folder watch, a file watch or the stdin reader, each feeding the
//! event channel), and runs the viewer. The one entry point the CLI calls.

use std::sync::mpsc::Sender;
use std::time::SystemTime;

use super::app::{App, AppEvent, Reload, ViewerOptions};
use super::chrome::Chrome;
use super::live::{LiveDocument, LiveUpdate};
use super::picker::ConversationRow;
use super::run::{EventChannel, Exit, Host, Opened, TuiError, run};
use super::terminal::Mouse;
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

/// Opens what `arg` names (`-`: a stream on stdin; `None`: the workspace
/// around the current folder) and runs the viewer until the user quits.
pub fn open_and_run(arg: Option<&str>, settings: ViewerSettings) -> Result<Exit, ViewerError> {
    Ok(run_live(Live::open(arg)?, settings)?)
}

/// Runs the viewer on a conversation already opened, following it.
pub fn run_live(mut live: Live, settings: ViewerSettings) -> Result<Exit, TuiError> {
    if let Some(redactor) = &settings.redactor {
        live.redact_with(redactor.clone());
    }
    let events = EventChannel::<LiveUpdate>::new();
    let tx = events.sender();
    let mut host = WorkspaceHost {
        workspace: live.workspace.clone(),
        settings: settings.clone(),
        tx: tx.clone(),
        epoch: 0,
        watch: None,
    };
    let watch_problem = host.follow(&live.origin, 0).err();
    let options = ViewerOptions {
        workspace: live.workspace.is_some(),
        conversation_id: match &live.origin {
            Origin::Jp(dir) => dir.id.clone(),
            Origin::Eve(_) | Origin::Stream(_) => None,
        },
        opened_at: SystemTime::now(),
        chrome: Chrome::from_theme(&settings.theme),
        notify: settings.notify,
        ..ViewerOptions::default()
    };
    warm_up_highlighter(&settings.theme);
    let doc = LiveDocument::new(live, settings.doc, settings.theme, settings.sanitize);
    let problems = [doc.source().warnings.clone(), doc.style_warnings()].concat();
    let mut app = App::new(doc, options);
    if let Some(problem) = watch_problem {
        app.note(format!("not following changes: {problem}"));
    } else if let Some(first) = problems.first() {
        app.note(problem_note(first, problems.len()));
    }
    run(app, &mut host, events, settings.mouse)
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

/// The workspace behind the picker, and the watch of the conversation shown.
struct WorkspaceHost {
    workspace: Option<Workspace>,
    settings: ViewerSettings,
    tx: Sender<AppEvent<LiveUpdate>>,
    epoch: u64,
    watch: Option<Watch>,
}

impl WorkspaceHost {
    /// Starts following `origin`; reloads carry `epoch`. Stops the previous watch.
    fn follow(&mut self, origin: &Origin, epoch: u64) -> Result<(), String> {
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
                spawn_stream_reader(path.clone(), inbox).map_err(|e| e.to_string())?;
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
        .map_err(|e| e.to_string())?;
        self.watch = Some(watch);
        // A change between reading the files and starting the watch would go
        // unseen: look once more now.
        send(LiveUpdate::Changed(Change::Events));
        Ok(())
    }
}

impl Host<LiveDocument> for WorkspaceHost {
    fn conversations(&mut self) -> Vec<ConversationRow> {
        let Some(workspace) = &self.workspace else {
            return Vec::new();
        };
        workspace
            .conversations()
            .into_iter()
            .map(|entry| ConversationRow {
                events: event_count(&entry.conversation()),
                id: entry.id,
                title: entry.title,
                last_activity: entry.last_activated_at,
                pinned: entry.pinned,
                archived: entry.archived,
                locked: entry.locked,
            })
            .collect()
    }

    fn open(&mut self, id: &str) -> Result<Opened<LiveDocument>, String> {
        let workspace = self
            .workspace
            .clone()
            .ok_or_else(|| format!("{id}: not in a workspace"))?;
        let entry = workspace
            .find(id)
            .ok_or_else(|| format!("{id}: no such conversation any more"))?;
        let mut live = Live::open_jp(entry.conversation(), Some(workspace))
            .map_err(|e| super::live::without_folder(&e.to_string()))?;
        if let Some(redactor) = &self.settings.redactor {
            live.redact_with(redactor.clone());
        }
        self.epoch += 1;
        let epoch = self.epoch;
        let problem = self.follow(&live.origin, epoch).err();
        let settings = self.settings.clone();
        Ok(Opened {
            doc: LiveDocument::new(live, settings.doc, settings.theme, settings.sanitize),
            epoch,
            note: problem.map(|p| format!("not following changes: {p}")),
        })
    }
}
