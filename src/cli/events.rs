//! `overhear events PATH --view raw|user|provider [--jsonl]`.

use std::io::{self, Write};

use anyhow::Result;
use serde::{Serialize, Serializer};

use crate::model::{Event, View};
use crate::text::safe_json;
use crate::travel::At;

/// Prints `view` of the conversation at `path` as JSON, as it was `at` that
/// point of its history when one is given.
pub fn run(path: Option<&str>, view: View, jsonl: bool, at: Option<&At>) -> Result<()> {
    let (loaded, _) = super::travel::read(path, at)?;
    for warning in &loaded.warnings {
        super::report(format_args!("overhear: warning: {warning}"));
    }
    let events = loaded.conversation.view(view);
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    if jsonl {
        for event in events.iter() {
            safe_json::to_writer(&mut out, &event.to_json())?;
            out.write_all(b"\n")?;
        }
    } else {
        safe_json::to_writer_pretty(&mut out, &AsJson(&events))?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    super::leave_to_exit(events);
    super::leave_to_exit(loaded);
    Ok(())
}

/// The events as a JSON array, each converted as it is written rather than
/// all at once (a followed stream's events, as JSON values, take several
/// times their size).
struct AsJson<'a>(&'a [Event]);

impl Serialize for AsJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(Event::to_json))
    }
}
