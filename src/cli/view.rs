//! `overhear [PATH]`: the viewer on a terminal, else the rendered transcript.

use std::io::{self, IsTerminal};

use anyhow::Result;

use super::render::{Checked, ColorWhen, DisplayArgs, RenderArgs};
use crate::load::Live;
use crate::render::document::DocOptions;
use crate::render::theme::detect_color_depth;
use crate::tui::{Exit, ViewerSettings, open_and_run, run_live as run_viewer};

/// Runs the viewer on `path` and returns the exit status (128 + n after signal n).
/// `notify`: `--notify` (`OVERHEAR_NOTIFY=1` turns it on too).
pub fn run(
    path: Option<&str>,
    display: &DisplayArgs,
    checked: Checked,
    notify: bool,
) -> Result<i32> {
    if !io::stdout().is_terminal() {
        let args = RenderArgs {
            path: path.unwrap_or(".").to_string(),
            width: None,
            color: ColorWhen::Auto,
            turn: None,
            display: display.clone(),
        };
        super::render::print(path, &args, checked)?;
        return Ok(0);
    }
    let mut settings = settings(display, checked);
    settings.notify |= notify;
    Ok(exit_code(open_and_run(path, settings)?))
}

/// Runs the viewer on a conversation already opened (the demo).
pub fn run_live(live: Live, display: &DisplayArgs, checked: Checked) -> Result<i32> {
    Ok(exit_code(run_viewer(live, settings(display, checked))?))
}

fn settings(display: &DisplayArgs, checked: Checked) -> ViewerSettings {
    let depth = detect_color_depth(|name| std::env::var(name).ok());
    ViewerSettings {
        doc: DocOptions {
            view: display.view,
            overlay: checked.overlay,
            finished: false,
        },
        theme: checked.theme.with_depth(depth),
        sanitize: display.sanitize.into(),
        notify: std::env::var_os("OVERHEAR_NOTIFY").is_some_and(|v| v == "1"),
    }
}

fn exit_code(exit: Exit) -> i32 {
    match exit {
        Exit::Quit => 0,
        Exit::Signal(n) => 128 + n,
    }
}
