//! `overhear [PATH]`: the viewer on a terminal that can draw it, else the
//! rendered transcript, as `overhear render` prints it.

use anyhow::Result;

use super::opening::OpeningNote;
use super::render::{Checked, ColorWhen, DisplayArgs, PrintArgs, refuse_terminal_stdin};
use super::terminal::{DEFAULT_COLUMNS, stdout_columns, viewer_possible_here};
use crate::render::document::DocOptions;
use crate::render::theme::{ColorDepth, detect_color_depth};
use crate::tui::terminal::Mouse;
use crate::tui::view_prefs::ViewChoices;
use crate::tui::{Exit, FolderScope, ViewerSettings, open_and_run};

use super::discover::{AgentArg, agent_filter};

/// Runs the viewer on `path` and returns the exit status (128 + n after
/// signal n); prints like `render` with `print`'s options when stdout is not
/// a terminal or the terminal cannot draw the viewer (`TERM=dumb`).
pub fn run(
    path: Option<&str>,
    print: &PrintArgs,
    display: &DisplayArgs,
    checked: Checked,
    choices: ViewerChoices,
) -> Result<i32> {
    refuse_terminal_stdin(path)?;
    if !viewer_possible_here() {
        super::render::print(path, print, display, checked, None)?;
        return Ok(0);
    }
    let mut settings = settings(display, print.color, checked, choices);
    // The picker lists the current folder's conversations, unless the
    // viewer reads standard input (its conversation cannot be switched).
    if path != Some("-") {
        settings.folder = std::env::current_dir().ok().map(|cwd| FolderScope {
            cwd,
            agents: agent_filter(choices.agent),
            jp: choices.agent.is_none_or(|a| a == AgentArg::Jp),
        });
    }
    let mut note = OpeningNote::on_stderr(stdout_columns().unwrap_or(DEFAULT_COLUMNS));
    Ok(exit_code(open_and_run(path, settings, &mut note)?))
}

/// The viewer's own switches from the command line.
#[derive(Debug, Clone, Copy, Default)]
pub struct ViewerChoices {
    /// `--mouse`: capture the mouse for click-to-move.
    pub mouse: bool,
    /// `--notify`: bell and desktop notifications (see [`crate::tui::notify`]).
    pub notify: bool,
    /// `--agent`: the kinds of conversation the picker lists.
    pub agent: Option<AgentArg>,
    /// `--reasoning` and `--tool-cards`: how the viewer starts, over what
    /// the user configuration remembers.
    pub view: ViewChoices,
    /// Not `--no-remember`: `r` and `z` choices are written to the user
    /// configuration (unless it says `remember = false`).
    pub remember: bool,
}

/// The variable that turns mouse capture on like `--mouse`, for those who
/// always want it.
const MOUSE_VAR: &str = "OVERHEAR_MOUSE";

/// The variable that turns notifications on like `--notify`.
const NOTIFY_VAR: &str = "OVERHEAR_NOTIFY";

/// The variable that stops the viewer writing `r` and `z` choices to the
/// user configuration, like `--no-remember`.
const NO_REMEMBER_VAR: &str = "OVERHEAR_NO_REMEMBER";

/// Whether the switch `name` is set in the environment: any value but empty
/// or `0`.
fn switched_on(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0")
}

/// The viewer's settings; `--color never` draws it as `NO_COLOR` does (the
/// other `--color` values leave the choice to `NO_COLOR` and the terminal).
pub(super) fn settings(
    display: &DisplayArgs,
    color: ColorWhen,
    checked: Checked,
    choices: ViewerChoices,
) -> ViewerSettings {
    let depth = match color {
        ColorWhen::Never => {
            // What crossterm does under NO_COLOR: no colour reaches the
            // terminal, the viewer's own (cursor row, matches) included.
            crossterm::style::force_color_output(false);
            ColorDepth::None
        }
        ColorWhen::Auto | ColorWhen::Always => detect_color_depth(|name| std::env::var(name).ok()),
    };
    ViewerSettings {
        doc: DocOptions {
            view: display.view.into(),
            overlay: checked.overlay,
            finished: false,
        },
        theme: checked.theme.with_depth(depth),
        sanitize: display.sanitize.into(),
        mouse: if choices.mouse || switched_on(MOUSE_VAR) {
            Mouse::Captured
        } else {
            Mouse::Terminal
        },
        notify: choices.notify || switched_on(NOTIFY_VAR),
        view: checked.view.start(choices.view),
        remember: if choices.remember && checked.view.remember && !switched_on(NO_REMEMBER_VAR) {
            super::user_config::path().map(|file| super::view_config::saver(&file))
        } else {
            None
        },
        redactor: checked.redactor,
        folder: None,
    }
}

/// The exit status of a viewer that ended so.
pub(super) fn exit_code(exit: Exit) -> i32 {
    match exit {
        Exit::Quit => 0,
        Exit::Signal(n) => 128 + n,
    }
}
