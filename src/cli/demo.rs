//! `overhear demo`: a bundled conversation played as if an agent were writing
//! it now, through the real file-following path, so a newcomer sees the live
//! viewer with no setup.
//!
//! The demo builds a throwaway JP workspace in the system's temporary folder
//! (its own files, never the user's), holds JP's lock there while it writes
//! (so the viewer shows `● following`, then `○ finished`), and removes the
//! folder when the viewer closes.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::thread;
use std::time::Duration;

use anyhow::{Result, anyhow};

use super::render::{Checked, DisplayArgs, PrintArgs};
use crate::demo::{DIR_NAME, Player};
use crate::load::Live;
use crate::problem::io_problem;
use crate::source::ConversationDir;

/// A temporary JP workspace removed on drop.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Plays the demo into a scratch workspace and opens the viewer on it.
pub fn run(pace: Duration, display: &DisplayArgs, checked: Checked) -> Result<i32> {
    let root = std::env::temp_dir().join(format!("overhear-demo-{}", std::process::id()));
    let scratch = Scratch(root.clone());
    let dir = root.join(".jp/conversations").join(DIR_NAME);
    let lock = root.join(".jp/locks").join(format!("jp-c{DIR_NAME}.lock"));
    let cannot_write = |e: io::Error| {
        anyhow!(
            "{}: cannot write the demo: {}",
            dir.display(),
            io_problem(&e)
        )
    };
    let mut player = Player::new(&dir).map_err(cannot_write)?;

    if !super::terminal::viewer_possible_here() {
        // Nothing to watch: write it all, then print it like `render`.
        while player.step().map_err(cannot_write)? {}
        let path = dir.display().to_string();
        super::render::print(Some(&path), &PrintArgs::default(), display, checked)?;
        drop(scratch);
        return Ok(0);
    }

    hold_lock(&lock)?;
    player.step().map_err(cannot_write)?;
    let live = Live::open_jp(ConversationDir::new(&dir), None)?;
    let writer = thread::spawn(move || {
        let played = player.run(pace);
        let _ = fs::remove_file(&lock);
        played
    });
    let code = super::view::run_live(live, display, checked)?;
    drop(writer);
    drop(scratch);
    Ok(code)
}

/// Writes JP's lock file naming this process, as `jp query` does while it works.
fn hold_lock(lock: &Path) -> Result<()> {
    let cannot_write = |e: io::Error| {
        anyhow!(
            "{}: cannot write the demo lock: {}",
            lock.display(),
            io_problem(&e)
        )
    };
    if let Some(parent) = lock.parent() {
        fs::create_dir_all(parent).map_err(cannot_write)?;
    }
    let body = format!(
        r#"{{"pid":{},"session":"overhear-demo"}}"#,
        std::process::id()
    );
    fs::write(lock, body).map_err(cannot_write)
}
