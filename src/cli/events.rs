//! `overhear events PATH --view raw|user|provider [--jsonl]`.

use std::io::{self, Write};

use anyhow::Result;
use serde::{Serialize, Serializer};

use serde_json::Value;

use crate::model::{Conversation, Event, EventKind, View};
use crate::text::safe_json;
use crate::travel::At;

/// Prints `view` of the conversation at `path` as JSON, as it was `at` that
/// point of its history when one is given.
pub fn run(path: Option<&str>, view: View, jsonl: bool, at: Option<&At>) -> Result<()> {
    let (loaded, _) = super::travel::read(path, at)?;
    for warning in &loaded.warnings {
        super::report(format_args!("overhear: warning: {warning}"));
    }
    let conv = &loaded.conversation;
    let events = conv.view(view);
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let written = (|| {
        if !conv.subagents.is_empty() {
            let mut all = Vec::new();
            with_subagents(conv, view, None, &mut |value| all.push(value));
            if jsonl {
                for value in &all {
                    safe_json::to_writer(&mut out, value)?;
                    out.write_all(b"\n")?;
                }
            } else {
                safe_json::to_writer_pretty(&mut out, &all)?;
                out.write_all(b"\n")?;
            }
        } else if jsonl {
            for event in events.iter() {
                safe_json::to_writer(&mut out, &event.to_json())?;
                out.write_all(b"\n")?;
            }
        } else {
            safe_json::to_writer_pretty(&mut out, &AsJson(&events))?;
            out.write_all(b"\n")?;
        }
        out.flush()
    })();
    super::stdout_written(written)?;
    super::leave_to_exit(events);
    super::leave_to_exit(loaded);
    Ok(())
}

/// The key that marks a sub-agent's event in the output: the id of the
/// call that started its sub-agent (docs/agents.md, "Sub-agents").
pub const SUBAGENT_KEY: &str = "overhear.subagent";

/// Hands `view` of `conv`'s events to `each`, every sub-agent's events
/// (marked with [`SUBAGENT_KEY`]) right after the event of its call —
/// the request, or the response when the view has no request — and a
/// sub-agent whose call the view does not show at the end.
fn with_subagents(conv: &Conversation, view: View, of: Option<&str>, each: &mut dyn FnMut(Value)) {
    let mut shown = std::collections::HashSet::new();
    let mark = |mut value: Value| {
        if let (Some(call), Value::Object(map)) = (of, &mut value) {
            map.insert(SUBAGENT_KEY.into(), Value::from(call));
        }
        value
    };
    let events = conv.view(view);
    for event in events.iter() {
        each(mark(event.to_json()));
        let call = match &event.kind {
            EventKind::ToolCallRequest { id, .. } | EventKind::ToolCallResponse { id, .. } => id,
            _ => continue,
        };
        if let Some(sub) = conv.subagents.get(call)
            && shown.insert(call.as_str())
        {
            with_subagents(sub, view, Some(call), each);
        }
    }
    for (call, sub) in &conv.subagents {
        if !shown.contains(call.as_str()) {
            with_subagents(sub, view, Some(call), each);
        }
    }
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
