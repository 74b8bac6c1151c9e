//! `overhear replay PATH`: the viewer playing a conversation back at its
//! recorded pace (see [`crate::tui::replay`]); `overhear demo` is the replay
//! of the bundled conversation. Printed like `render --at-event N` (N: the
//! last event) when the viewer cannot run.

use anyhow::{Result, anyhow};
use clap::Args;

use super::render::{Checked, DisplayArgs, PrintArgs, print_loaded, refuse_terminal_stdin};
use super::terminal::viewer_possible_here;
use super::travel::step_number;
use super::view::{ViewerChoices, exit_code, settings};
use crate::travel::{At, Recording};
use crate::tui::replay::{Speed, run_replay};

/// How a replay plays.
#[derive(Debug, Clone, Args)]
pub struct PlayArgs {
    /// How fast: a factor on the recorded pace (0.5, 1, 4, 10) or `max`; waits
    /// longer than 2 s at speed 1 are cut to 2 s. `+` and `-` change it.
    /// Default: 1 (the demo: 2).
    #[arg(long, value_parser = Speed::parse, allow_hyphen_values = true)]
    pub speed: Option<Speed>,
    /// Start with the first N events shown (an eve stream: N lines).
    #[arg(long, value_name = "N", value_parser = step_number, default_value_t = 0)]
    pub from_event: usize,
}

/// Arguments of `overhear replay`.
#[derive(Debug, Clone, Args)]
pub struct ReplayArgs {
    /// The conversation: events.json, conversation folder, JP workspace, eve stream or `-`.
    pub path: String,
    /// Speed and start.
    #[command(flatten)]
    pub play: PlayArgs,
    /// How to print it when stdout is not a terminal.
    #[command(
        flatten,
        next_help_heading = "When printing (stdout not a terminal, or TERM=dumb)"
    )]
    pub print: PrintArgs,
    /// Display options.
    #[command(flatten)]
    pub display: DisplayArgs,
}

/// Runs `overhear replay`.
pub fn run(args: &ReplayArgs, checked: Checked) -> Result<i32> {
    refuse_terminal_stdin(Some(&args.path))?;
    let recording = Recording::open(Some(&args.path))?;
    play(
        recording,
        &args.play,
        Speed::normal(),
        &args.print,
        &args.display,
        checked,
    )
}

/// Plays `recording` in the viewer (at `default_speed` unless `--speed`
/// says), or prints how it ends when the viewer
/// cannot run here.
pub(super) fn play(
    recording: Recording,
    play: &PlayArgs,
    default_speed: Speed,
    print: &PrintArgs,
    display: &DisplayArgs,
    checked: Checked,
) -> Result<i32> {
    let total = recording.len();
    if play.from_event > total {
        return Err(anyhow!(
            "{}: {} has {total} {}s; --from-event {} is out of range (0..={total})",
            recording.file(),
            if recording.unit() == "line" {
                "stream"
            } else {
                "conversation"
            },
            recording.unit(),
            play.from_event
        ));
    }
    if !viewer_possible_here() {
        let (live, moment) = if total > 0 {
            let (live, moment) = recording.cut(&At::Event(total))?;
            (live, Some(moment))
        } else {
            (recording.live, None)
        };
        print_loaded(live, moment, print, display, checked)?;
        return Ok(0);
    }
    let settings = settings(display, print.color, checked, ViewerChoices::default());
    Ok(exit_code(run_replay(
        recording,
        play.from_event,
        play.speed.unwrap_or(default_speed),
        settings,
    )?))
}
