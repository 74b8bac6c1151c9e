//! `overhear export PATH [--format md|html] [-o FILE]`: the conversation as a
//! file to share, secrets redacted unless `--no-redact`.

use std::borrow::Cow;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow};
use clap::builder::TypedValueParser;
use clap::{Args, ValueEnum};

use super::UsageError;
use super::discover::AgentArg;
use super::render::{StyleArgs, refuse_terminal_stdin, report_style_warnings, source_name};
use crate::export::{ExportFormat, ExportOptions, PAGE_LIMIT, Results, export, export_files};
use crate::files::read::identity;
use crate::files::write::{WriteError, write_file};
use crate::format::detect::{LineFormat, line_format};
use crate::format::session_head::{CWD_HEAD, claude_cwd, codex_cwd, copilot_cwd};
use crate::load::{Live, Origin, StoredTexts};
use crate::model::EventKind;
use crate::redact::Redactor;
use crate::render::document::{DocOptions, DocView};
use crate::render::print::TurnSpec;
use crate::source::sessions::read_head;
use crate::text::sanitize::{SanitizeMode, sanitize, sanitize_cow};
use crate::text::truncate::truncate;

/// Which rendering to export.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportView {
    /// The display policy applied, as the viewer shows it.
    Terminal,
    /// Only what is addressed to the user, as a chat.
    User,
}

/// How much of each tool result an export holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportResults {
    /// Everything, up to a cap per result that a note reports.
    Whole,
    /// Cut to the terminal's line budget, as `render` shows it.
    Terminal,
}

/// Arguments of `overhear export`.
#[derive(Debug, Clone, Args)]
pub struct ExportArgs {
    /// The conversation: events.json, conversation folder, JP workspace,
    /// eve stream or an agent's transcript.
    #[arg(required_unless_present = "all", conflicts_with = "all")]
    pub path: Option<String>,
    /// Every session of every agent and project (and the JP workspace
    /// around the current folder): a page each and an index, in the folder
    /// `-o` names [default: overhear-export]; unchanged sessions are not
    /// written again (`--agent` narrows it).
    #[arg(long, conflicts_with_all = ["turn", "at", "at_event"])]
    pub all: bool,
    /// With --all: only sessions written since DATE: 2026-11-30, an RFC 3339
    /// time, or an age such as 36h, 7d, 2w.
    #[arg(long, value_name = "DATE", value_parser = super::search::since, requires = "all")]
    pub since: Option<std::time::SystemTime>,
    /// Markdown or HTML (default: from the extension of -o, else md).
    #[arg(long, value_enum)]
    pub format: Option<super::choices::FormatArg>,
    /// The file to write (default, and `-`: stdout; with --all, the folder);
    /// never a file this export reads, whatever link leads to it; replaced
    /// atomically.
    // Taken as it is, empty included, so that `-o ""` gets a message of
    // its own rather than clap's.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "FILE",
        value_parser = clap::builder::OsStringValueParser::new().map(PathBuf::from)
    )]
    pub output: Option<PathBuf>,
    /// Which turns: `3`, `2..4`, `-1` (the last), `-3..-1`, `2..`.
    #[arg(long, value_name = "SPEC", allow_hyphen_values = true)]
    pub turn: Option<TurnSpec>,
    /// Which view: the display policy, or only what the user is told.
    #[arg(long, value_enum, default_value = "terminal")]
    pub view: ExportView,
    /// How much of each tool result and diff a card holds: all of it (up to
    /// 5,000 lines or 1 MiB a result, past which a note says what was left
    /// out), or as the terminal shows it, cut to its line budget.
    #[arg(long, value_enum, default_value = "whole")]
    pub results: ExportResults,
    /// `--config` and `--set`.
    #[command(flatten)]
    pub style: StyleArgs,
    /// Keep secrets as they are (export redacts them by default).
    #[arg(long, overrides_with = "redact")]
    pub no_redact: bool,
    /// Redact secrets (the default; stated for scripts).
    #[arg(long, overrides_with = "no_redact")]
    pub redact: bool,
    /// The largest HTML file written (bytes): a larger page is cut into
    /// linked pages `NAME-2.html`, …. Internal (tests set it small).
    #[arg(long, hide = true, value_name = "BYTES", default_value_t = PAGE_LIMIT)]
    pub page_limit: usize,
    /// `--at-event N`, `--at TIME`: as it was then.
    #[command(flatten, next_help_heading = "Time travel")]
    pub at: super::travel::AtArgs,
}

impl ExportArgs {
    /// The file `-o` names: `None` for stdout (no `-o`, or `-o -`); an empty
    /// name is a usage error.
    pub(super) fn output(&self) -> Result<Option<&Path>, UsageError> {
        match self.output.as_deref() {
            Some(path) if path.as_os_str().is_empty() => Err(UsageError::EmptyOutput),
            Some(path) if path.as_os_str() == "-" => Ok(None),
            other => Ok(other),
        }
    }

    /// The format asked for, else the one the output file's extension names.
    pub(super) fn format(&self) -> ExportFormat {
        self.format.map(ExportFormat::from).unwrap_or_else(|| {
            let ext = self
                .output
                .as_deref()
                .and_then(Path::extension)
                .and_then(|e| e.to_str())
                .map(str::to_ascii_lowercase);
            match ext.as_deref() {
                Some("html" | "htm") => ExportFormat::Html,
                _ => ExportFormat::Md,
            }
        })
    }
}

/// Runs `overhear export`; returns the exit code (2 when a session of
/// `--all` failed).
pub fn run(args: &ExportArgs, agent: Option<AgentArg>) -> Result<i32> {
    if args.all {
        return super::export_all::run(args, agent);
    }
    let path = args.path.as_deref().unwrap_or_default();
    let overlay = args.style.overlay()?;
    let redactor = if args.no_redact {
        None
    } else {
        Some(Redactor::builtin().map_err(UsageError::from)?)
    };
    refuse_terminal_stdin(Some(path))?;
    let output = args.output()?;
    let (mut loaded, moment) =
        super::travel::read_keeping(Some(path), args.at.at().as_ref(), StoredTexts::OfImages)?;
    if let Some(output) = output {
        refuse_conversation_folder(output, &loaded.origin)?;
    }
    if let Some(spec) = &args.turn {
        spec.check(loaded.conversation.turns.len())
            .map_err(|err| anyhow!("{}: {err}", source_name(&loaded.origin)))?;
    }
    for warning in &loaded.warnings {
        super::report(format_args!("overhear: warning: {warning}"));
    }
    // An export shows of the stored lines only the images in them: those
    // read with the stream kept only them; a sub-agent's, a stream read on
    // opening or at a moment in time, are forgotten here.
    loaded.conversation.keep_only_image_lines();
    if let Some(redactor) = redactor {
        loaded.redact_with(std::sync::Arc::new(redactor));
    }
    let doc_options = DocOptions {
        view: match args.view {
            ExportView::Terminal => DocView::Terminal,
            ExportView::User => DocView::User,
        },
        overlay,
        finished: moment.map_or_else(|| loaded.finished(), |m| m.finished),
    };
    report_style_warnings(&loaded, &doc_options);
    let (agent, project) = session_facts(&loaded.origin);
    let options = ExportOptions {
        format: args.format(),
        turns: args.turn,
        title: title(&loaded),
        home: home(),
        agent,
        project,
        results: match args.results {
            ExportResults::Whole => Results::Whole,
            ExportResults::Terminal => Results::Terminal,
        },
    };
    match output {
        Some(path) => {
            let name = path.file_name().map_or_else(
                || "export.html".into(),
                |n| n.to_string_lossy().into_owned(),
            );
            let files = export_files(
                &mut loaded.conversation,
                &doc_options,
                &options,
                &name,
                args.page_limit,
            );
            let pages = files.count();
            for index in 0..pages {
                let target = path.with_file_name(files.name(index));
                write_file(&target, |out| files.write(index, out)).map_err(|err| match err {
                    WriteError::ReadThisRun(_) => UsageError::OutputIsInput(shown(&target)).into(),
                    WriteError::Folder(_) | WriteError::DanglingLink(_) => {
                        anyhow::Error::from(UsageError::Output(err.to_string()))
                    }
                    WriteError::Io { .. } => anyhow!("{err}"),
                })?;
            }
            remove_leftovers(path, pages);
        }
        None => {
            let stdout = io::stdout();
            let mut out = io::BufWriter::new(stdout.lock());
            super::stdout_written(
                export(&mut out, &mut loaded.conversation, &doc_options, &options)
                    .and_then(|()| out.flush()),
            )?;
        }
    }
    super::leave_to_exit(loaded);
    Ok(0)
}

/// Removes the pages an earlier, longer export to `first` left past the
/// `pages` just written (`run-3.html` when `run.html` now needs two), and
/// says so on stderr; one that cannot be removed is a warning.
fn remove_leftovers(first: &Path, pages: usize) {
    for removed in super::leftover::remove_later_pages(first, pages) {
        match removed {
            Ok(page) => super::report(format_args!(
                "overhear: removed {}, a page of an earlier export to {}",
                shown(&page),
                shown(first)
            )),
            Err(err) => super::report(format_args!("overhear: warning: {err}")),
        }
    }
}

/// A path as messages show it (sanitized: it came from the command line).
pub(super) fn shown(path: &Path) -> String {
    sanitize(&path.display().to_string(), SanitizeMode::Visualize).into_owned()
}

/// The title of the export: the conversation's title, else the first line
/// of its first prompt, else its file's name — never a local path.
pub(super) fn title(loaded: &Live) -> String {
    let conv = &loaded.conversation;
    let prompt = || {
        conv.events.iter().find_map(|event| match &event.kind {
            EventKind::ChatRequest { content, .. } => content
                .lines()
                .map(str::trim)
                .find(|line| !line.is_empty())
                .map(|line| truncate(line, TITLE_WIDTH)),
            _ => None,
        })
    };
    let title = conv
        .title
        .clone()
        .filter(|t| !t.trim().is_empty())
        .or_else(prompt)
        .unwrap_or_else(|| file_name(&loaded.origin));
    sanitize(&title, SanitizeMode::Strip).into_owned()
}

/// The widest a title made from a prompt is.
const TITLE_WIDTH: usize = 80;

/// The name of the conversation's file (a JP conversation's folder), not
/// its path.
fn file_name(origin: &Origin) -> String {
    let path = match origin {
        Origin::Jp(dir) => dir.dir.as_path(),
        Origin::Eve(path) | Origin::Stream(path) => path.as_path(),
    };
    path.file_name().map_or_else(
        || "conversation".to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// The agent that wrote the conversation and the folder it ran in, for the
/// HTML page's header: JP for a conversation folder; for a transcript,
/// what its first lines say (a Claude Code, Qwen Code, Codex or Copilot
/// CLI session names its folder). `None` where the input does not tell.
pub(super) fn session_facts(origin: &Origin) -> (Option<String>, Option<String>) {
    let path = match origin {
        Origin::Jp(_) => return (Some("JP".into()), None),
        Origin::Stream(_) => return (None, None),
        Origin::Eve(path) => path,
    };
    let Ok(head) = read_head(path, CWD_HEAD) else {
        return (None, None);
    };
    let format = head.split(|&b| b == b'\n').find_map(|line| {
        serde_json::from_slice::<serde_json::Value>(line)
            .ok()
            .and_then(|value| line_format(&value))
    });
    let project = match format {
        Some(LineFormat::ClaudeCode | LineFormat::Qwen) => claude_cwd(&head),
        Some(LineFormat::Copilot) => copilot_cwd(&head),
        Some(LineFormat::Codex) | None => codex_cwd(&head),
        Some(_) => None,
    };
    let agent = match format {
        Some(LineFormat::Eve) => Some("eve"),
        Some(LineFormat::ClaudeCode) => Some("Claude Code"),
        Some(LineFormat::Codex) => Some("Codex"),
        Some(LineFormat::Gemini) => Some("Gemini CLI"),
        Some(LineFormat::Qwen) => Some("Qwen Code"),
        Some(LineFormat::Copilot) => Some("Copilot CLI"),
        Some(LineFormat::OpenCode) => Some("OpenCode"),
        // A compressed Codex rollout tells through its `session_meta`.
        None => project.as_ref().map(|_| "Codex"),
    };
    let clean = |text: String| sanitize_cow(Cow::Owned(text), SanitizeMode::Strip).into_owned();
    (agent.map(str::to_string), project.map(clean))
}

/// The user's home folder, which the export writes as `~`; `None` when
/// it is unset, relative or the root.
pub(super) fn home() -> Option<String> {
    let home = std::env::var_os("HOME")?;
    let home = Path::new(&home);
    (home.is_absolute() && home.parent().is_some())
        .then(|| home.to_string_lossy().trim_end_matches('/').to_string())
}

/// Refuses a new file in a JP conversation's folder: the folder is JP's
/// own. (A file the export read, wherever it is and however it is named, is
/// refused by [`write_file`].)
fn refuse_conversation_folder(output: &Path, origin: &Origin) -> Result<(), UsageError> {
    let Origin::Jp(dir) = origin else {
        return Ok(());
    };
    let folder = match output.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let identity = |path: &Path| std::fs::metadata(path).ok().map(|m| identity(&m));
    if let (Some(target), Some(conversation)) = (identity(folder), identity(&dir.dir))
        && target.same_file(&conversation)
    {
        return Err(UsageError::OutputInConversation(shown(output)));
    }
    Ok(())
}
