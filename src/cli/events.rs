//! `overhear events PATH --view raw|user|provider [--jsonl]`.

use std::io::{self, Write};

use anyhow::Result;

use super::safe_json;
use crate::model::View;

/// Prints `view` of the conversation at `path` as JSON.
pub fn run(path: &str, view: View, jsonl: bool) -> Result<()> {
    let loaded = crate::load::Live::read_once(path)?;
    for warning in &loaded.warnings {
        super::report(format_args!("overhear: warning: {warning}"));
    }
    let events = loaded.conversation.view(view);
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    if jsonl {
        for event in &events {
            safe_json::to_writer(&mut out, &event.to_json())?;
            out.write_all(b"\n")?;
        }
    } else {
        let array: Vec<_> = events.iter().map(|e| e.to_json()).collect();
        safe_json::to_writer_pretty(&mut out, &array)?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}
