//! Command line: clap definitions and the commands they run.
//!
//! This is the edge of the program: errors become one line on stderr and an
//! exit code (1 for bad input, 2 for usage).

mod demo;
mod events;
mod render;
mod safe_json;
mod view;

use clap::{Parser, Subcommand};

use crate::model::View;

/// overhear — watch and replay LLM-agent conversations in the terminal.
#[derive(Debug, Parser)]
#[command(
    name = "overhear",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// What to run; without one, the viewer opens PATH.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// An events.json, a conversation folder, a JP workspace, an eve stream or `-` for stdin.
    pub path: Option<String>,
    /// How to display it.
    #[command(flatten)]
    pub display: render::DisplayArgs,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the rendered conversation and exit (deterministic: same input, same bytes).
    Render(render::RenderArgs),
    /// Watch a bundled conversation arrive, live, as if an agent were writing it now.
    Demo {
        /// Milliseconds between the agent's writes.
        #[arg(long, default_value_t = 900)]
        pace: u64,
        /// How to display it.
        #[command(flatten)]
        display: render::DisplayArgs,
    },
    /// Print a view of the conversation's events as JSON.
    Events {
        /// The conversation to read.
        path: String,
        /// Which view: everything, what the user sees, or what the model is sent.
        #[arg(long, value_enum, default_value = "raw")]
        view: View,
        /// One event per line instead of a pretty array.
        #[arg(long)]
        jsonl: bool,
    },
}

/// Reports a mistake in the user's own options (exit 2).
fn usage_error(err: &dyn std::fmt::Display) -> i32 {
    eprintln!("overhear: {err}");
    2
}

/// Runs the command line and returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let code = if err.use_stderr() { 2 } else { 0 };
            let _ = err.print();
            return code;
        }
    };
    let result = match cli.command {
        Some(Command::Events { path, view, jsonl }) => events::run(&path, view, jsonl),
        Some(Command::Render(args)) => match args.display.overlay() {
            Ok(overlay) => render::run(&args, overlay),
            Err(err) => return usage_error(&err),
        },
        Some(Command::Demo { pace, display }) => match display.overlay() {
            Ok(overlay) => {
                match demo::run(std::time::Duration::from_millis(pace), &display, overlay) {
                    Ok(code) => return code,
                    Err(err) => Err(err),
                }
            }
            Err(err) => return usage_error(&err),
        },
        None => match cli.display.overlay() {
            Ok(overlay) => match view::run(cli.path.as_deref(), &cli.display, overlay) {
                Ok(code) => return code,
                Err(err) => Err(err),
            },
            Err(err) => return usage_error(&err),
        },
    };
    match result {
        Ok(()) => 0,
        Err(err) => {
            eprintln!("overhear: {err:#}");
            1
        }
    }
}
