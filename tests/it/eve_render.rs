//! `overhear render` on every real eve stream (`$OVERHEAR_EVE_CORPUS`, eve's
//! own conformance recordings) at 40, 80 and 200 columns: it succeeds, every
//! completed message is on screen with its words in order, every task's
//! outcome is on screen, and no line is wider than the width. Without the
//! variable the test says "skipped" and passes.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;

use overhear::text::width::display_width;
use serde_json::Value;

const WIDTHS: [usize; 3] = [40, 80, 200];

/// The screen with whitespace and result gutters removed, so text wrapped
/// across lines (even mid-word) reads as one run.
fn flat(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace() && *c != '│')
        .collect()
}

/// Whether every word of `text` is on `screen`, in order.
fn words_in_order(screen: &str, text: &str) -> Result<(), String> {
    let mut from = 0;
    for word in text.split_whitespace() {
        match screen[from..].find(word) {
            Some(at) => from += at + word.len(),
            None => return Err(format!("`{word}` missing (or out of order)")),
        }
    }
    Ok(())
}

/// The lines of the stream as JSON values.
fn records(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .expect("stream readable")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("corpus lines are JSON"))
        .collect()
}

fn of_type<'a>(records: &'a [Value], kind: &'a str) -> impl Iterator<Item = &'a Value> + 'a {
    records
        .iter()
        .filter(move |r| r["type"] == kind)
        .map(|r| &r["data"])
}

/// What must be on screen for each task: its last settlement, else its detachment.
fn task_outcomes(records: &[Value]) -> BTreeMap<String, Vec<String>> {
    let mut outcomes: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for data in of_type(records, "task.detached") {
        let id = data["taskId"].as_str().expect("task id").to_string();
        outcomes.insert(id, vec!["detached".into()]);
    }
    for data in of_type(records, "task.settled") {
        let id = data["taskId"].as_str().expect("task id").to_string();
        let shown = match data["status"].as_str() {
            Some("completed") => {
                let output = match &data["output"] {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                vec!["task completed".into(), output]
            }
            Some("failed") => vec![
                "task failed".into(),
                data["error"]["code"].as_str().unwrap_or_default().into(),
                data["error"]["message"].as_str().unwrap_or_default().into(),
            ],
            Some("cancelled") => vec!["task cancelled".into()],
            other => panic!("unexpected task status {other:?}"),
        };
        outcomes.insert(id, shown);
    }
    outcomes
}

#[test]
fn every_real_stream_renders_whole_at_every_width() {
    let Some(files) = common::corpus::eve_streams() else {
        return;
    };
    let mut tasks = 0;
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let records = records(path);
        let messages: Vec<&str> = of_type(&records, "message.completed")
            .filter_map(|d| d["message"].as_str())
            .filter(|m| m.trim() != "<eve-empty-delivery/>")
            .collect();
        assert!(!messages.is_empty(), "{name}: the stream says something");
        let outcomes = task_outcomes(&records);
        for width in WIDTHS {
            let screen = common::render_plain(path, width);
            for line in screen.lines() {
                assert!(
                    display_width(line) <= width,
                    "{name} at {width}: {} columns: {line:?}",
                    display_width(line)
                );
            }
            let flat_screen = flat(&screen);
            for message in &messages {
                if let Err(problem) = words_in_order(&flat_screen, message) {
                    panic!("{name} at {width}: message {message:?}: {problem}\n{screen}");
                }
            }
            for (task, shown) in &outcomes {
                for text in shown {
                    assert!(
                        flat_screen.contains(&flat(text)),
                        "{name} at {width}: task {task}: {text:?} not on screen\n{screen}"
                    );
                }
            }
        }
        tasks += outcomes.len();
    }
    assert!(tasks > 0, "the corpus has tasks");
}
