//! `overhear export --all [-o DIR]`: every session overhear finds — every
//! agent's store, every project, the JP workspace around the current folder,
//! found as `overhear search --all-projects` finds them — exported a page
//! each into DIR, with an index grouped by project. A manifest in DIR
//! (`export::manifest`) keeps a second run from writing again what did not
//! change. A session that cannot be read or written is reported (file,
//! place, problem) and the others are still exported (exit 2).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Result, anyhow};

use super::UsageError;
use super::discover::{AgentArg, agent_filter};
use super::export::{ExportArgs, ExportResults, ExportView, home, shown, title};
use super::render::report_style_warnings;
use crate::export::index::{self, Row};
use crate::export::manifest::{self, Entry, Manifest, Stamp};
use crate::export::{ExportFormat, ExportOptions, Figures, Results, Tilde, export};
use crate::files::write::{WriteError, read_previous, write_file};
use crate::load::{Live, OpenError, StoredTexts};
use crate::redact::Redactor;
use crate::render::document::{DocOptions, DocView};
use crate::search::{self, Kinds, Scope, Session};

/// The folder `--all` writes to without `-o`, in the current folder.
pub const DEFAULT_FOLDER: &str = "overhear-export";

/// The largest manifest or index read back to compare (a larger one is
/// simply written again).
const PREVIOUS_LIMIT: u64 = 64 << 20;

/// Runs `overhear export --all`; returns the exit code.
pub(super) fn run(args: &ExportArgs, agent: Option<AgentArg>) -> Result<i32> {
    let overlay = args.style.overlay()?;
    let redactor = if args.no_redact {
        None
    } else {
        Some(Arc::new(Redactor::builtin().map_err(UsageError::from)?))
    };
    let cwd = std::env::current_dir()
        .map_err(|err| anyhow!("the current folder: {}", crate::problem::io_problem(&err)))?;
    let folder = match args.output()? {
        Some(dir) => cwd.join(dir),
        None if args.output.is_some() => {
            return Err(UsageError::Output("-: --all writes a folder, not stdout".into()).into());
        }
        None => cwd.join(DEFAULT_FOLDER),
    };
    let env = |name: &str| std::env::var(name).ok();
    let kinds = Kinds {
        agents: agent_filter(agent),
        jp: agent.is_none_or(|a| a == AgentArg::Jp),
    };
    let mut sessions = search::sessions(&Scope::AllProjects(cwd), kinds, &[], &env);
    if let Some(since) = args.since {
        sessions.retain(|session| session.modified.is_none_or(|at| at >= since));
    }
    refuse_agent_folder(&folder, &sessions)?;
    std::fs::create_dir_all(&folder).map_err(|err| {
        anyhow!(
            "{}: cannot create the folder: {}",
            shown(&folder),
            crate::problem::write_problem(&err)
        )
    })?;
    // Every session file is an input before any page is written: no page,
    // whatever link leads to it, can replace one of them.
    for session in &sessions {
        let _ = crate::files::open(&session.target.bytes);
    }
    let format = args.format.map_or(ExportFormat::Html, ExportFormat::from);
    let options = Options {
        format,
        view: args.view,
        results: args.results,
        redactor,
        overlay,
        home: home(),
    };
    let manifest_path = folder.join(manifest::FILE_NAME);
    let previous = read_previous(&manifest_path, PREVIOUS_LIMIT)
        .and_then(|text| Manifest::parse(&text))
        .unwrap_or_default();
    let mut manifest = Manifest::new(options.words());
    let mut names = Names::default();
    let mut tally = Tally::default();
    let mut failed = std::collections::HashSet::new();
    for session in &sessions {
        let page = names.page(session, format);
        match one(session, &page, &folder, &options, &previous) {
            Ok((entry, written)) => {
                if written {
                    tally.written += 1;
                } else {
                    tally.unchanged += 1;
                }
                manifest.sessions.push(entry);
            }
            Err(problem) => {
                tally.failed += 1;
                failed.insert(page);
                super::report(format_args!("overhear: {problem}"));
            }
        }
    }
    tally.removed = remove_unlisted(&folder, &previous, &manifest, &failed);
    let groups = index::group(
        manifest
            .sessions
            .iter()
            .map(|e| (e.project.clone(), e.row.clone()))
            .collect(),
    );
    let mut page = Vec::new();
    {
        let mut out = Tilde::new(&mut page, options.home.as_deref().unwrap_or(""));
        match format {
            ExportFormat::Html => index::write_html(&mut out, &groups),
            ExportFormat::Md => index::write_md(&mut out, &groups),
        }?;
        out.finish()?;
    }
    let index_name = match format {
        ExportFormat::Html => "index.html",
        ExportFormat::Md => "index.md",
    };
    let index_path = folder.join(index_name);
    write_if_changed(&index_path, &page)?;
    write_if_changed(&manifest_path, manifest.to_json().as_bytes())?;
    let removed = match tally.removed {
        0 => String::new(),
        n => format!(", {n} removed"),
    };
    super::report(format_args!(
        "overhear: {} written, {} unchanged, {} failed{removed}: {}",
        tally.written,
        tally.unchanged,
        tally.failed,
        shown(&index_path)
    ));
    Ok(if tally.failed > 0 { 2 } else { 0 })
}

/// How many pages were written, left as they were, failed, or removed.
#[derive(Default)]
struct Tally {
    written: usize,
    unchanged: usize,
    failed: usize,
    removed: usize,
}

/// Removes the pages the `previous` manifest lists and `now` does not (a
/// session no longer selected or gone; a page renamed), unless the
/// session's export failed this time (its page stays as it was); returns
/// how many were removed. Only what the manifest lists, and an HTML page
/// only with overhear's mark ([`super::leftover::remove_listed_page`]).
fn remove_unlisted(
    folder: &Path,
    previous: &Manifest,
    now: &Manifest,
    failed: &std::collections::HashSet<String>,
) -> usize {
    let listed: std::collections::HashSet<&str> =
        now.sessions.iter().map(|e| e.row.page.as_str()).collect();
    let mut removed = 0;
    for entry in &previous.sessions {
        let page = entry.row.page.as_str();
        // A file name in the folder, never a path elsewhere (a manifest is
        // a file anyone could edit).
        let elsewhere = page.contains('/') || page.starts_with('.') || page.starts_with("index.");
        if elsewhere || listed.contains(page) || failed.contains(page) {
            continue;
        }
        match super::leftover::remove_listed_page(&folder.join(page)) {
            Ok(true) => removed += 1,
            Ok(false) => {}
            Err(err) => super::report(format_args!("overhear: warning: {err}")),
        }
    }
    removed
}

/// What every page of the run is written with.
struct Options {
    format: ExportFormat,
    view: ExportView,
    results: ExportResults,
    redactor: Option<Arc<Redactor>>,
    overlay: crate::policy::Overlay,
    home: Option<String>,
}

impl Options {
    /// The options in words, for the manifest: a page written with other
    /// options is written again.
    fn words(&self) -> String {
        format!(
            "format={:?} view={:?} results={:?} redact={} style={:?}",
            self.format,
            self.view,
            self.results,
            self.redactor.is_some(),
            self.overlay,
        )
    }
}

/// Why one session's page was not written; the message names the file and
/// the problem, and the other sessions are still exported.
#[derive(Debug, thiserror::Error)]
enum PageError {
    /// The session's file cannot be looked at.
    #[error("{}: {}", .path.display(), crate::problem::io_problem(.error))]
    Source {
        /// The session's file.
        path: PathBuf,
        /// What went wrong.
        error: std::io::Error,
    },
    /// A link stands where the page goes: overhear does not write through it.
    #[error("{}: a link, where overhear writes its own page; remove it", .0.display())]
    LinkAtPage(PathBuf),
    /// The session's path is not UTF-8, and overhear opens paths as text.
    #[error("{}: the path is not UTF-8", .0.display())]
    NotUtf8(PathBuf),
    /// The session could not be opened or read.
    #[error(transparent)]
    Open(#[from] OpenError),
    /// The page's path leads to a file this export reads.
    #[error("{}: that is a file this export reads; the page is not written", .0.display())]
    PageIsInput(PathBuf),
    /// The page could not be written.
    #[error(transparent)]
    Write(WriteError),
}

/// Exports one session to `folder/page`, unless the previous manifest says
/// its page is up to date; returns its manifest entry and whether the page
/// was written.
fn one(
    session: &Session,
    page: &str,
    folder: &Path,
    options: &Options,
    previous: &Manifest,
) -> Result<(Entry, bool), PageError> {
    let source = &session.target.bytes;
    let meta = std::fs::metadata(source).map_err(|error| PageError::Source {
        path: source.clone(),
        error,
    })?;
    let modified = manifest::modified(&meta);
    let source_text = source.display().to_string();
    let project = session.project.as_ref().map(|p| p.display().to_string());
    let target = folder.join(page);
    let words = options.words();
    if let Some(entry) = previous.fresh(&words, &source_text, meta.len(), modified)
        && entry.row.page == page
        && entry.project == project
        && target.is_file()
    {
        return Ok((entry.clone(), false));
    }
    if std::fs::symlink_metadata(&target).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(PageError::LinkAtPage(target));
    }
    let open = session
        .target
        .open
        .to_str()
        .ok_or_else(|| PageError::NotUtf8(session.target.open.clone()))?;
    let mut loaded = Live::read_once_keeping(Some(open), StoredTexts::OfImages)?;
    for warning in &loaded.warnings {
        super::report(format_args!("overhear: warning: {warning}"));
    }
    // A page shows of the stored lines only the images in them.
    loaded.conversation.keep_only_image_lines();
    if let Some(redactor) = &options.redactor {
        loaded.redact_with(Arc::clone(redactor));
    }
    let doc_options = DocOptions {
        view: match options.view {
            ExportView::Terminal => DocView::Terminal,
            ExportView::User => DocView::User,
        },
        overlay: options.overlay.clone(),
        finished: loaded.finished(),
    };
    let subagents = loaded
        .subagent_files()
        .iter()
        .filter_map(|path| Stamp::of(path))
        .collect();
    report_style_warnings(&loaded, &doc_options);
    let (agent, project_folder) = super::export::session_facts(&loaded.origin);
    let export_options = ExportOptions {
        format: options.format,
        turns: None,
        title: title(&loaded),
        home: options.home.clone(),
        agent,
        project: project_folder,
        results: match options.results {
            ExportResults::Whole => Results::Whole,
            ExportResults::Terminal => Results::Terminal,
        },
    };
    // The index's figures, counted before the export forgets the texts.
    let figures = Figures::of(&loaded.conversation);
    write_file(&target, |mut out| {
        export(
            &mut out,
            &mut loaded.conversation,
            &doc_options,
            &export_options,
        )
    })
    .map_err(|err| match err {
        WriteError::ReadThisRun(_) => PageError::PageIsInput(target.clone()),
        other => PageError::Write(other),
    })?;
    let row = Row {
        agent: session.agent.to_string(),
        title: export_options.title,
        page: page.to_string(),
        figures,
    };
    Ok((
        Entry {
            source: source_text,
            size: meta.len(),
            modified,
            subagents,
            project,
            row,
        },
        true,
    ))
}

/// Writes `bytes` to `path` unless it already holds them.
fn write_if_changed(path: &Path, bytes: &[u8]) -> Result<()> {
    if read_previous(path, PREVIOUS_LIMIT).is_some_and(|old| old.as_bytes() == bytes) {
        return Ok(());
    }
    write_file(path, |out| out.write_all(bytes)).map_err(|err| anyhow!("{err}"))
}

/// The pages' file names: the agent and the session's id in safe
/// characters (`claude-4f1c….html`), made unique within the run.
#[derive(Default)]
struct Names {
    used: std::collections::HashSet<String>,
}

impl Names {
    fn page(&mut self, session: &Session, format: ExportFormat) -> String {
        let ext = match format {
            ExportFormat::Html => "html",
            ExportFormat::Md => "md",
        };
        let id = session
            .id
            .strip_prefix(&format!("{}-", session.agent))
            .unwrap_or(&session.id);
        let stem = safe(&format!("{}-{id}", session.agent));
        let mut name = format!("{stem}.{ext}");
        let mut n = 2;
        while !self.used.insert(name.clone()) {
            name = format!("{stem}-{n}.{ext}");
            n += 1;
        }
        name
    }
}

/// `name` in letters, digits, `-` and `_` only, at most 100 of them.
fn safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(100)
        .collect()
}

/// Refuses an output folder inside a folder that holds a session it
/// exports (an agent's own store, a JP conversation's folder): overhear
/// writes nothing among the agents' files.
fn refuse_agent_folder(folder: &Path, sessions: &[Session]) -> Result<(), UsageError> {
    let resolved = resolved(folder);
    for session in sessions {
        let Some(holder) = session.target.bytes.parent() else {
            continue;
        };
        let holder = resolved_existing(holder);
        if resolved.starts_with(&holder) {
            return Err(UsageError::Output(format!(
                "{}: that is inside {}, where {} keeps its sessions; choose another folder",
                shown(folder),
                shown(&holder),
                session.agent
            )));
        }
    }
    Ok(())
}

/// `path` with links resolved as far as it exists, the rest appended.
fn resolved(path: &Path) -> PathBuf {
    let mut existing = path;
    let mut rest = Vec::new();
    while !existing.exists() {
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_owned());
                existing = parent;
            }
            _ => break,
        }
    }
    let mut out = resolved_existing(existing);
    out.extend(rest.iter().rev());
    out
}

fn resolved_existing(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::safe;

    #[test]
    fn page_names_keep_only_safe_characters() {
        assert_eq!(safe("claude-4f1c-9a"), "claude-4f1c-9a");
        assert_eq!(safe("codex-../../etc/x y"), "codex-______etc_x_y");
        assert_eq!(safe(&"a".repeat(300)).len(), 100);
    }
}
