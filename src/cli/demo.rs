//! `overhear demo`: the replay of a bundled conversation, so that a newcomer
//! sees the viewer at work with no setup. Nothing is written anywhere: the
//! conversation is stored in the binary as JP stores it on disk and read by
//! the same reader as any `events.json`.

use anyhow::{Result, anyhow};

use super::render::{Checked, DisplayArgs, PrintArgs};
use super::replay::PlayArgs;
use crate::travel::Recording;
use crate::tui::replay::Speed;

/// The demo's pace: twice the recorded one (about 17 seconds).
const DEMO_SPEED: &str = "2";

/// Replays the bundled conversation (prints it when the viewer cannot run).
pub fn run(play: &PlayArgs, display: &DisplayArgs, checked: Checked) -> Result<i32> {
    let bundled = crate::demo::stored().map_err(|e| anyhow!("{e}"))?;
    let recording = Recording::from_jp(
        &bundled.events,
        Some(bundled.base_config.as_bytes()),
        bundled.title,
    )?;
    let speed = Speed::parse(DEMO_SPEED).map_err(|e| anyhow!("{e}"))?;
    super::replay::play(
        recording,
        play,
        speed,
        &PrintArgs::default(),
        display,
        checked,
    )
}
