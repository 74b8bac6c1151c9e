//! Command line: clap definitions and the commands they run.
//!
//! This is the edge of the program: errors become one line on stderr and an
//! exit code (1 for bad input, 2 for usage).

mod card;
mod choices;
mod demo;
mod discover;
mod events;
mod export;
mod export_all;
mod generated;
mod leftover;
mod opening;
mod render;
mod replay;
mod search;
mod sessions;
mod terminal;
mod travel;
mod usage;
mod user_config;
mod view;
mod view_config;

use clap::{Parser, Subcommand};

/// overhear — watch and replay LLM-agent conversations in the terminal.
#[derive(Debug, Parser)]
#[command(name = "overhear", version, args_conflicts_with_subcommands = true)]
pub(crate) struct Cli {
    /// What to run; without one, the viewer opens PATH.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// An events.json, a conversation folder, a JP workspace, an eve stream, a Claude
    /// Code or Codex transcript, or `-` for stdin [default: the latest conversation
    /// of the current folder].
    pub path: Option<String>,
    /// With no PATH, look only for this kind of conversation.
    #[arg(long, value_enum, global = true)]
    pub agent: Option<discover::AgentArg>,
    /// With an OpenCode store (`opencode.db`, its data folder, a legacy
    /// `storage/`): open this session (`ses_…`) instead of the newest.
    #[arg(long, value_name = "ID", global = true)]
    pub session: Option<String>,
    /// How to display it.
    #[command(flatten, next_help_heading = "Display")]
    pub display: render::DisplayArgs,
    /// How to print it when stdout is not a terminal (or `TERM=dumb`); the viewer ignores
    /// these but `--color never`.
    #[command(
        flatten,
        next_help_heading = "When printing (stdout not a terminal, or TERM=dumb)"
    )]
    pub print: render::PrintArgs,
    /// Capture the mouse: a click moves the cursor to the line (the terminal's
    /// own text selection then needs Shift). Also `OVERHEAR_MOUSE=1`.
    #[arg(long)]
    pub mouse: bool,
    /// Ring the bell and send a desktop notification (OSC 9, OSC 777) when a
    /// turn ends or the agent asks something while the window is not focused
    /// or the view is paused (also OVERHEAR_NOTIFY=1).
    #[arg(long)]
    pub notify: bool,
    /// Reasoning at first: shown, folded or hidden (`r` cycles) [default:
    /// as last chosen with `r`, else shown].
    #[arg(long, value_enum, value_name = "HOW")]
    pub reasoning: Option<choices::ReasoningArg>,
    /// Tool cards at first: folded or unfolded (`z` toggles) [default: as
    /// last chosen with `z`, else unfolded].
    #[arg(long, value_enum, value_name = "HOW")]
    pub tool_cards: Option<choices::CardsArg>,
    /// Do not write the choices of `r` and `z` to the user configuration
    /// (also `[view] remember = false` there, or OVERHEAR_NO_REMEMBER=1).
    #[arg(long)]
    pub no_remember: bool,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Print the rendered conversation and exit (deterministic: same input, same bytes).
    Render(render::RenderArgs),
    /// Play a conversation back in the viewer as it was written (space pauses,
    /// . and , step, + and - change the speed).
    Replay(replay::ReplayArgs),
    /// Replay a bundled conversation: watch an agent's run arrive, with no setup.
    Demo {
        /// Speed and start (the demo plays at twice the recorded pace).
        #[command(flatten)]
        play: replay::PlayArgs,
        /// How to display it.
        #[command(flatten)]
        display: render::DisplayArgs,
    },
    /// Write the conversation as Markdown or one self-contained HTML file,
    /// secrets redacted; `--all`: every session, a page each and an index.
    Export(export::ExportArgs),
    /// Print one tool result as the viewer shows it, and what the user and the model receive.
    Card(card::CardArgs),
    /// Find a text in every session: prompts, replies, reasoning, tool
    /// arguments and results, sub-agents (exit 0 found, 1 not, 2 an error).
    Search(search::SearchArgs),
    /// List every session: agent, project, title, start, last activity,
    /// duration, turns, tool calls, failures, tokens, cost (exit 0 listed,
    /// 1 none, 2 an error).
    Sessions(sessions::SessionsArgs),
    /// Print a view of the conversation's events as JSON.
    Events {
        /// The conversation to read [default: the latest conversation of the current folder].
        path: Option<String>,
        /// Which view: everything, what the user sees, or what the model is sent.
        #[arg(long, value_enum, default_value = "raw")]
        view: choices::EventsView,
        /// One event per line instead of a pretty array.
        #[arg(long)]
        jsonl: bool,
        /// `--at-event N`, `--at TIME`: as it was then.
        #[command(flatten, next_help_heading = "Time travel")]
        at: travel::AtArgs,
    },
    /// Print the completion script for a shell (README, "Install").
    Completions {
        /// The shell to complete in.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), for `man -l -` or a man directory.
    Man,
}

/// A mistake in the command line itself (exit 2): an option's value, a style
/// override, a theme. The message names the option or the file.
#[derive(Debug, thiserror::Error)]
pub(crate) enum UsageError {
    /// `--config` or `--set` was rejected.
    #[error(transparent)]
    Overlay(#[from] crate::policy::OverlayError),
    /// The user's configuration file was rejected.
    #[error(transparent)]
    UserConfig(#[from] user_config::UserConfigError),
    /// No PATH, and `--agent` finds nothing.
    #[error(transparent)]
    Discover(#[from] discover::NotFound),
    /// `--theme` names no theme, or a theme file that is wrong.
    #[error("{0}")]
    Theme(String),
    /// The built-in redaction rules do not compile (a defect of the build).
    #[error(transparent)]
    Rules(#[from] crate::redact::RuleError),
    /// `export -o` names a file this run read (links resolved): the
    /// conversation, a sub-agent's transcript, a configuration, a theme.
    #[error(
        "-o {0}: that is a file this export reads (the conversation, a sub-agent's transcript, \
         a configuration or a theme); choose another output file"
    )]
    OutputIsInput(String),
    /// `export -o` names a new file in a JP conversation's folder, which is
    /// JP's own.
    #[error("-o {0}: that is in the conversation's own folder; choose another output file")]
    OutputInConversation(String),
    /// `export -o ""`.
    #[error("-o \"\": an empty file name; name a file, or - for stdout")]
    EmptyOutput,
    /// `export -o` names a folder, or a link to nothing.
    #[error("-o {0}")]
    Output(String),
    /// An option of `card` was rejected (`--set`, `--config`, `--args`).
    #[error(transparent)]
    Card(#[from] crate::Error),
    /// An option's value that no other case names (`card --tool ""`,
    /// `card --result -` with the keyboard on stdin).
    #[error("{0}")]
    Option(String),
    /// `--session ID` with a PATH that names no OpenCode store, or a store
    /// without that session.
    #[error("--session {id}: {problem}")]
    Session {
        /// The id given.
        id: String,
        /// Why the store does not give it.
        problem: crate::source::opencode::StoreError,
    },
    /// `--session ID` given to a command that reads no conversation.
    #[error("--session {0}: this command reads no conversation")]
    SessionUnread(String),
    /// `overhear -` with the keyboard, not a stream, on stdin.
    #[error("stdin is a terminal: pipe an eve stream into overhear -")]
    StdinIsTerminal,
}

/// Runs the command line and returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // `--help` and `--version` are not errors.
        Err(err) if !err.use_stderr() => {
            let _ = err.print();
            return 0;
        }
        Err(err) => {
            report(format_args!("overhear: {}", usage::one_line(&err)));
            return 2;
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(err) => {
            // Every error's own message is complete (it names the file, the
            // place and the cause): its chain of sources would repeat it.
            report(format_args!("overhear: {err}"));
            exit_code(&err)
        }
    }
}

/// Leaves `value` — a conversation, its document — to the end of the
/// process instead of freeing it.
///
/// `render`, `events` and `export` exit as soon as their output is written:
/// freeing a conversation piece by piece then is work nobody sees (a large
/// share of a large render's time), while the operating system takes the
/// whole memory back at once. Called only on the way out,
/// after the output is flushed; `main` then ends the process with
/// `std::process::exit`.
pub(crate) fn leave_to_exit<T>(value: T) {
    std::mem::forget(value);
}

/// The end of writing to stdout: a closed pipe (`| head`) is not an error;
/// any other failure (a full disk, `> /dev/full`) names stdout and says what
/// went wrong, without the system's error number.
pub(crate) fn stdout_written(written: std::io::Result<()>) -> anyhow::Result<()> {
    match written {
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(err) => Err(anyhow::anyhow!(
            "stdout: cannot write: {}",
            crate::problem::write_problem(&err)
        )),
        Ok(()) => Ok(()),
    }
}

/// Writes one line to stderr. Unlike `eprintln!` it never panics: stderr may
/// be a terminal that hung up or a closed pipe, and a message that cannot be
/// shown must not become a crash. Messages quote file names, option values and
/// parsers' words, all untrusted: every escape sequence and control in them is
/// shown (`␛`, `<U+202E>`), never obeyed.
pub(crate) fn report(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let line = line.to_string();
    let shown = crate::text::sanitize::echo(&line);
    let _ = writeln!(std::io::stderr().lock(), "{shown}");
}

fn run(mut cli: Cli) -> anyhow::Result<i32> {
    if let Some(path) = discovered(&cli)? {
        match &mut cli.command {
            None => cli.path = Some(path),
            Some(Command::Render(args)) => args.path = Some(path),
            Some(Command::Events { path: given, .. }) => *given = Some(path),
            Some(_) => {}
        }
    }
    if let Some(id) = cli.session.clone() {
        session_chosen(&mut cli, &id)?;
    }
    match cli.command {
        Some(Command::Events {
            path,
            view,
            jsonl,
            at,
        }) => {
            events::run(path.as_deref(), view.into(), jsonl, at.at().as_ref())?;
            Ok(0)
        }
        Some(Command::Search(args)) => search::run(&args, cli.agent),
        Some(Command::Sessions(args)) => sessions::run(&args, cli.agent),
        Some(Command::Card(args)) => {
            card::run(&args)?;
            Ok(0)
        }
        Some(Command::Export(args)) => export::run(&args, cli.agent),
        Some(Command::Render(args)) => {
            let checked = args.display.check()?;
            render::run(&args, checked)?;
            Ok(0)
        }
        Some(Command::Replay(args)) => {
            let checked = args.display.check()?;
            replay::run(&args, checked)
        }
        Some(Command::Completions { shell }) => {
            generated::completions(shell)?;
            Ok(0)
        }
        Some(Command::Man) => {
            generated::man()?;
            Ok(0)
        }
        Some(Command::Demo { play, display }) => {
            let checked = display.check()?;
            demo::run(&play, &display, checked)
        }
        None => {
            let checked = cli.display.check()?;
            view::run(
                cli.path.as_deref(),
                &cli.print,
                &cli.display,
                checked,
                view::ViewerChoices {
                    mouse: cli.mouse,
                    notify: cli.notify,
                    agent: cli.agent,
                    view: crate::tui::view_prefs::ViewChoices {
                        reasoning: cli.reasoning.map(Into::into),
                        cards_folded: cli
                            .tool_cards
                            .map(|cards| cards == choices::CardsArg::Folded),
                    },
                    remember: !cli.no_remember,
                },
            )
        }
    }
}

/// With no PATH given to the viewer, `render` or `events`: the latest
/// Claude Code or Codex session of the current folder when it is newer than
/// the JP workspace's (`None`: the workspace's own flow).
fn discovered(cli: &Cli) -> Result<Option<String>, UsageError> {
    let given = match &cli.command {
        None => cli.path.is_some(),
        Some(Command::Render(args)) => args.path.is_some(),
        Some(Command::Events { path, .. }) => path.is_some(),
        Some(_) => return Ok(None),
    };
    if given {
        return Ok(None);
    }
    let Ok(cwd) = std::env::current_dir() else {
        return Ok(None);
    };
    let env = |name: &str| std::env::var(name).ok();
    Ok(discover::latest_path(&cwd, cli.agent, &env)?)
}

/// `--session ID`: the PATH of each command that reads a conversation
/// becomes that session of the OpenCode store it names (`None`: the store
/// of the latest session found, `discovered`).
fn session_chosen(cli: &mut Cli, id: &str) -> Result<(), UsageError> {
    let cwd = std::env::current_dir().unwrap_or_default();
    let choose = |path: &mut Option<String>| -> Result<(), UsageError> {
        let named = path.as_deref().unwrap_or(".");
        let chosen =
            crate::source::opencode::with_session(&cwd.join(named), id).map_err(|problem| {
                UsageError::Session {
                    id: id.to_owned(),
                    problem,
                }
            })?;
        *path = Some(chosen.display().to_string());
        Ok(())
    };
    match &mut cli.command {
        None => choose(&mut cli.path),
        Some(Command::Render(args)) => choose(&mut args.path),
        Some(Command::Events { path, .. }) => choose(path),
        Some(Command::Export(args)) => choose(&mut args.path),
        Some(Command::Replay(args)) => {
            let mut path = Some(args.path.clone());
            choose(&mut path)?;
            args.path = path.unwrap_or_default();
            Ok(())
        }
        Some(_) => Err(UsageError::SessionUnread(id.to_owned())),
    }
}

/// 2 for a mistake in the command line, 1 for input that cannot be read.
fn exit_code(err: &anyhow::Error) -> i32 {
    if err.downcast_ref::<UsageError>().is_some() {
        2
    } else {
        1
    }
}
