//! Soak: a writer rewrites a conversation JP-style 2,000 times while the
//! viewer follows it in a pseudo-terminal. At the end the screen shows
//! exactly what `overhear render` prints for the final file at that width,
//! and the viewer's resident memory is within 20% of what it was after the
//! first 500 rewrites (five cycles): it grows over the first few cycles
//! (the allocator's pools, the caches filling), then stays flat — measured
//! 16.8 MB after 100 rewrites, 19.2 MB from 500 to 1,600, 19.3 MB after
//! 2,000 (2026-12-05). Compared with the 100th rewrite, that warm-up alone
//! came to within a few KB of the 20% on a busy machine.
//!
//! The rewrites come in 20 cycles of 100. Each cycle starts with a new
//! conversation (every byte differs: a replacement) that then grows by two
//! events per rewrite; every 23rd rewrite drops the last seven events (a
//! shorter file), and every 31st writes the file in place, truncating it
//! first and writing it in two pieces, so the viewer may read it half
//! written. The 100th rewrite of each cycle writes the same number of events,
//! so memory is compared at the same conversation size.
//!
//! The screen is compared as text, not colours: the viewer paints the
//! cursor row's background and the theme's colours, `render --color never`
//! neither, and neither changes a character.
//!
//! It runs with the other tests (`cargo test`) and takes about fifteen
//! seconds, most of them the writer's pauses; the figures are printed
//! (`--nocapture`).

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use common::pty::{Viewer, replace, rows, rss_kib};
use serde_json::{Value, json};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/jp/current");
const REWRITES: usize = 2000;
const CYCLE: usize = 100;
/// The rewrites after which memory has stopped growing (see the module's
/// text), and is measured to compare with the end.
const WARM: usize = 5 * CYCLE;
const ROWS: u16 = 30;
const COLS: u16 = 100;
/// Pause between rewrites (faster than the viewer redraws: it reads what
/// it finds); every tenth rewrite follows the one before at once.
const PACE: Duration = Duration::from_millis(5);

fn b64(text: &str) -> String {
    STANDARD.encode(text)
}

/// Event `i` of cycle `cycle`, as JP stores it. Six events make a turn: the
/// user's question, reasoning, a tool call and its result (a code block),
/// and a markdown answer.
fn event(cycle: usize, i: usize) -> Value {
    let turn = i / 6;
    let at = format!(
        "2026-05-{:02} 10:{:02}:{:02}.0",
        cycle + 1,
        turn % 60,
        i % 60
    );
    let id = format!("call_{cycle}_{turn}");
    match i % 6 {
        0 => json!({"timestamp": at, "type": "turn_start"}),
        1 => json!({
            "timestamp": at, "type": "chat_request",
            "content": format!("Cycle {cycle}, question {turn}: what does `step_{turn}` return?"),
        }),
        2 => json!({
            "timestamp": at, "type": "chat_response",
            "reasoning": format!("Step {turn} of cycle {cycle}: read the source first, then answer."),
        }),
        3 => json!({
            "timestamp": at, "type": "tool_call_request", "id": id, "name": "fs_read_file",
            "arguments": {"path": b64(&format!("src/cycle_{cycle}/step_{turn}.rs"))},
        }),
        4 => json!({
            "timestamp": at, "type": "tool_call_response", "id": id, "is_error": false,
            "content": b64(&format!(
                "```rust\n/// Step {turn}.\nfn step_{turn}() -> u32 {{\n    {cycle} * 1000 + {turn}\n}}\n```"
            )),
        }),
        _ => json!({
            "timestamp": at, "type": "chat_response",
            "message": format!(
                "`step_{turn}` returns **{}**:\n\n- cycle {cycle}\n- turn {turn}\n\n```rust\nassert_eq!(step_{turn}(), {});\n```",
                cycle * 1000 + turn,
                cycle * 1000 + turn
            ),
        }),
    }
}

/// How many events rewrite `phase` (1..=100) of a cycle writes.
fn event_count(phase: usize) -> usize {
    let grown = 4 + 2 * phase;
    if phase.is_multiple_of(23) {
        grown - 7
    } else {
        grown
    }
}

/// The writer: the events of the current cycle, built once per cycle.
#[derive(Default)]
struct Writer {
    cycle: Option<usize>,
    events: Vec<Value>,
}

impl Writer {
    /// The bytes of rewrite `step` (1-based), pretty-printed as JP writes them.
    fn file_for(&mut self, step: usize) -> Vec<u8> {
        let cycle = (step - 1) / CYCLE;
        let phase = (step - 1) % CYCLE + 1;
        if self.cycle != Some(cycle) {
            self.cycle = Some(cycle);
            self.events = (0..event_count(CYCLE)).map(|i| event(cycle, i)).collect();
        }
        let mut bytes = serde_json::to_vec_pretty(&self.events[..event_count(phase)]).unwrap();
        bytes.push(b'\n');
        bytes
    }
}

/// Writes `bytes` over `path` in place: truncated, then written in two pieces.
fn write_in_place(path: &Path, bytes: &[u8]) {
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(path)
        .unwrap();
    let half = bytes.len() / 2;
    file.write_all(&bytes[..half]).unwrap();
    file.flush().unwrap();
    std::thread::sleep(Duration::from_millis(3));
    file.write_all(&bytes[half..]).unwrap();
}

/// What `overhear render --width COLS --color never` prints for `dir`, as lines.
fn render(dir: &Path) -> Vec<String> {
    let output = crate::common::overhear()
        .args(["render", "--width", &COLS.to_string(), "--color", "never"])
        .arg(dir)
        .env("JP_USER_DATA_DIR", dir.join("no-user-data"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| l.trim_end().to_string())
        .collect()
}

/// Waits until the viewer's text area (every row but the status bar) shows
/// the last screenful of what `render` prints; fails with both after `timeout`.
fn assert_screen_matches_render(viewer: &Viewer, dir: &Path, timeout: Duration) {
    let rendered = render(dir);
    let text_rows = usize::from(ROWS) - 1;
    let expected: Vec<String> = rendered[rendered.len().saturating_sub(text_rows)..].to_vec();
    let start = Instant::now();
    loop {
        // The viewer says what Enter does where the policy cuts a result;
        // `render`, which has no keys, does not.
        let screen: Vec<String> = rows(&viewer.screen())
            .into_iter()
            .map(|row| row.replace(" (Enter shows)", ""))
            .collect();
        let shown = &screen[..text_rows];
        if shown == expected.as_slice() {
            return;
        }
        if start.elapsed() > timeout {
            let diff: Vec<String> = shown
                .iter()
                .zip(&expected)
                .enumerate()
                .filter(|(_, (a, b))| a != b)
                .map(|(i, (a, b))| format!("row {i}:\n  screen: {a:?}\n  render: {b:?}"))
                .collect();
            panic!(
                "the screen is not what render prints:\n{}\nstatus: {}",
                diff.join("\n"),
                screen[text_rows]
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn two_thousand_rewrites_end_on_what_render_prints_in_steady_memory() {
    let tmp = tempfile::tempdir().unwrap();
    let dir: PathBuf = tmp.path().join("17800000000-soak");
    let staging = tmp.path().join("staging");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::create_dir_all(&staging).unwrap();
    for file in ["base_config.json", "metadata.json"] {
        std::fs::copy(Path::new(FIXTURE).join(file), dir.join(file)).unwrap();
    }
    let events = dir.join("events.json");
    let mut writer = Writer::default();
    replace(&staging, &events, &writer.file_for(1));

    let started = Instant::now();
    let mut viewer = Viewer::spawn(&[&dir], tmp.path(), &tmp.path().join("user"), ROWS, COLS);
    viewer.wait_for_text(&format!("{} events", event_count(1)));

    let mut rss_warm = 0;
    for step in 2..=REWRITES {
        let bytes = writer.file_for(step);
        if step.is_multiple_of(31) {
            write_in_place(&events, &bytes);
        } else {
            replace(&staging, &events, &bytes);
        }
        if !step.is_multiple_of(10) {
            std::thread::sleep(PACE);
        }
        if step == CYCLE {
            assert_screen_matches_render(&viewer, &dir, Duration::from_secs(30));
        }
        if step == WARM {
            assert_screen_matches_render(&viewer, &dir, Duration::from_secs(30));
            std::thread::sleep(Duration::from_millis(200));
            rss_warm = rss_kib(viewer.pid());
        }
    }
    let written = started.elapsed();
    assert_screen_matches_render(&viewer, &dir, Duration::from_secs(30));
    std::thread::sleep(Duration::from_millis(200));
    let rss_after_all = rss_kib(viewer.pid());
    eprintln!(
        "soak: {REWRITES} rewrites in {:.1} s (caught up after {:.1} s); VmRSS {rss_warm} KiB after {WARM}, {rss_after_all} KiB after {REWRITES}",
        written.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
    let drift = rss_after_all.abs_diff(rss_warm);
    assert!(
        drift * 5 <= rss_warm,
        "resident memory went from {rss_warm} KiB to {rss_after_all} KiB"
    );
    viewer.quit();
}
