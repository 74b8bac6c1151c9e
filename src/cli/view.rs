//! `overhear [PATH]`: the viewer on a terminal, else the rendered transcript.

use std::io::{self, IsTerminal};

use anyhow::Result;

use super::render::{ColorWhen, DisplayArgs, RenderArgs, SanitizeArg};
use crate::policy::Overlay;
use crate::render::document::DocView;
use crate::render::theme::{Theme, detect_color_depth};
use crate::tui::{Exit, ViewerSettings, open_and_run};

/// Runs the viewer on `path` and returns the exit status (128 + n after signal n).
pub fn run(path: Option<&str>) -> Result<i32> {
    if !io::stdout().is_terminal() {
        let args = RenderArgs {
            path: path.unwrap_or(".").to_string(),
            width: None,
            color: ColorWhen::Auto,
            turn: None,
            display: DisplayArgs {
                view: DocView::Terminal,
                config: None,
                set: Vec::new(),
                theme: "dark".into(),
                sanitize: SanitizeArg::Strip,
            },
        };
        super::render::run(&args, Overlay::default())?;
        return Ok(0);
    }
    let depth = detect_color_depth(|name| std::env::var(name).ok());
    let settings = ViewerSettings {
        theme: Theme::dark().with_depth(depth),
        ..ViewerSettings::default()
    };
    Ok(match open_and_run(path, settings)? {
        Exit::Quit => 0,
        Exit::Signal(n) => 128 + n,
    })
}
