//! Opening a large conversation end to end, for the "open" budget (design
//! "Budgets": the last turn of a 100 MB conversation on screen in under 1 s,
//! peak memory under 2× the file size). Memory is a per-process figure, so
//! each step runs in its own process, under `/usr/bin/time -v`:
//!
//! ```text
//! cargo run --release --example open_large -- write DIR [MB]  # a synthetic conversation folder
//! /usr/bin/time -v target/release/examples/open_large open DIR      # the viewer's path, one frame
//! /usr/bin/time -v target/release/examples/open_large baseline DIR  # serde_json::Value of the same file
//! target/release/examples/open_large open-then-top DIR  # then `g`: every earlier turn read, step by step
//! ```
//!
//! `open` goes the viewer's way: `Live::open_jp` (read, parse, group) →
//! `LiveDocument` (the document) → `App` → one 200×60 frame of the end into a
//! ratatui `TestBackend`, with the highlighter warmed up on another thread as
//! the viewer does. Each prints its phases (wall-clock and CPU time, resident
//! and peak memory from `/proc/self/status`); `baseline` is the plain parse
//! the time is compared with.

// This program drives the real binary through system calls that have no safe
// wrapper (signals, FIFOs, ptys, locks, process groups); every unsafe block
// says why it is sound (clippy's undocumented_unsafe_blocks).
#![allow(unsafe_code)]

#[path = "../benches/common/mod.rs"]
mod common;

use std::path::Path;
use std::time::Instant;

use overhear::load::Live;
use overhear::render::document::{DocOptions, Document};
use overhear::render::highlight::highlight;
use overhear::render::print::{
    CodeOverflow, PrintOptions, TurnSpec, TurnSpecError, print_document,
};
use overhear::render::theme::Theme;
use overhear::source::ConversationDir;
use overhear::text::sanitize::SanitizeMode;
use overhear::tui::live::LiveDocument;
use overhear::tui::{App, Blocks, ViewerOptions};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["write", dir] => write(Path::new(dir), 100),
        ["write", dir, mb] => write(Path::new(dir), mb.parse().map_err(|_| "MB: a number")?),
        ["open", dir] => open(Path::new(dir), Way::AtEnd),
        ["open-whole", dir] => open(Path::new(dir), Way::Whole),
        ["open-then-top", dir] => open(Path::new(dir), Way::AtEndThenTop),
        ["baseline", dir] => baseline(Path::new(dir)),
        ["last-turn", dir] => last_turn(Path::new(dir), true),
        ["last-turn-whole", dir] => last_turn(Path::new(dir), false),
        _ => Err(
            "usage: open_large write DIR [MB] | open DIR | open-whole DIR | open-then-top DIR | baseline DIR | last-turn DIR | last-turn-whole DIR"
                .into(),
        ),
    }
}

fn write(parent: &Path, mb: usize) -> Result<(), String> {
    let events = common::conversation_events(mb * 1024 * 1024);
    let stored = common::stored(&events);
    let dir = common::write_conversation(parent, &stored);
    println!(
        "wrote {} ({:.1} MB, {} events, {} turns)",
        dir.display(),
        mib(stored.len() as u64),
        events.len(),
        common::turns_in(&events)
    );
    Ok(())
}

/// How `open` opens the conversation.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Way {
    /// As the viewer does: at its end, the earlier turns in outline.
    AtEnd,
    /// As the viewer did before: read whole.
    Whole,
    /// At its end, then `g`: every earlier turn read and the top drawn.
    AtEndThenTop,
}

fn open(parent: &Path, way: Way) -> Result<(), String> {
    let dir = parent.join("17760760747-synthetic");
    let size = file_size(&dir)?;
    let (start, cpu) = (Instant::now(), cpu_time());
    let phase = |name: &str| -> Result<(), String> {
        println!(
            "open: {name:<28} after {:>5.0} ms wall, {:>5.0} ms CPU · resident {:>4.0} MB, peak {:>4.0} MB",
            start.elapsed().as_secs_f64() * 1000.0,
            (cpu_time() - cpu).as_secs_f64() * 1000.0,
            mib(status_kb("VmRSS:")?),
            mib(status_kb("VmHWM:")?),
        );
        Ok(())
    };
    // The viewer loads the highlighter's syntaxes on another thread while
    // the conversation is read (`tui::viewer`).
    let theme = Theme::dark();
    let warm = theme.clone();
    std::thread::spawn(move || highlight("fn main() {}", Some("rust"), &warm));
    let dir_of = ConversationDir::new(&dir);
    let live = match way {
        Way::Whole => Live::open_jp(dir_of, None),
        Way::AtEnd | Way::AtEndThenTop => Live::open_jp_at_end(dir_of, None),
    }
    .map_err(|e| e.to_string())?;
    phase("read, parsed and grouped")?;
    let events = live.conversation.events.len();
    let turns = live.conversation.turns.len();
    let doc = LiveDocument::new(live, DocOptions::default(), theme, SanitizeMode::Strip);
    phase("document built")?;
    let blocks = doc.len();
    let mut app = App::new(doc, ViewerOptions::default());
    let mut terminal = Terminal::new(TestBackend::new(200, 60)).map_err(|e| e.to_string())?;
    terminal.draw(|f| app.draw(f)).map_err(|e| e.to_string())?;
    let (wall, cpu) = (start.elapsed(), cpu_time() - cpu);
    phase("last screen drawn")?;
    let peak = status_kb("VmHWM:")?;
    println!(
        "open: {} of {} turns still in outline",
        app.document().source().earlier_turns(),
        app.document().source().conversation.turns.len()
    );
    if way == Way::AtEndThenTop {
        let g = crossterm::event::KeyEvent::new(
            crossterm::event::KeyCode::Char('g'),
            crossterm::event::KeyModifiers::NONE,
        );
        app.handle(overhear::tui::AppEvent::Terminal(
            crossterm::event::Event::Key(g),
        ));
        // As the viewer's loop does: a step read, the screen drawn (its
        // status bar saying how far), until every turn is read.
        // The longest a key waits: one step and the frame after it (keys
        // are read between steps).
        let mut steps = Vec::new();
        while app.is_reading() {
            let step = Instant::now();
            terminal.draw(|f| app.draw(f)).map_err(|e| e.to_string())?;
            app.read_step();
            steps.push(step.elapsed());
        }
        terminal.draw(|f| app.draw(f)).map_err(|e| e.to_string())?;
        phase("g: every turn read, top drawn")?;
        steps.sort();
        if let (Some(longest), Some(median)) = (steps.last(), steps.get(steps.len() / 2)) {
            println!(
                "open: g read in {} steps: a step and its frame {:.0} ms median, {:.0} ms the longest (a key waits at most that)",
                steps.len(),
                median.as_secs_f64() * 1000.0,
                longest.as_secs_f64() * 1000.0
            );
        }
        heap("g");
        println!(
            "open: after g, {} turns still in outline",
            app.document().source().earlier_turns()
        );
    }
    println!(
        "open: {:.1} MB, {events} events, {turns} turns, {blocks} blocks",
        mib(size)
    );
    println!(
        "open: on screen after {:.0} ms wall, {:.0} ms CPU (budget 1000 ms)",
        wall.as_secs_f64() * 1000.0,
        cpu.as_secs_f64() * 1000.0
    );
    println!(
        "open: peak memory {:.0} MB · {:.2}× the file (budget 2×)",
        mib(peak),
        peak as f64 / size as f64
    );
    // As the viewer does when it quits (`tui::run`): the process's exit
    // frees it all, so the process's CPU time is the viewer's.
    std::mem::forget((app, terminal));
    Ok(())
}

/// `render --turn -1 --width 100 --color never` of the conversation, printed
/// into memory: `outlined` the way `render` reads it now (read sparsely,
/// the last turn decoded: `load/turns.rs`), else the way it read it before
/// (whole).
fn last_turn(parent: &Path, outlined: bool) -> Result<(), String> {
    let dir = parent.join("17760760747-synthetic");
    let size = file_size(&dir)?;
    let spec: TurnSpec = "-1".parse().map_err(|e: TurnSpecError| e.to_string())?;
    let (start, cpu) = (Instant::now(), cpu_time());
    let path = dir.to_str().ok_or("a UTF-8 path")?;
    let live = if outlined {
        Live::read_turns_at(Some(path), &|number, total| spec.contains(number, total))
    } else {
        Live::read_once(path)
    }
    .map_err(|e| e.to_string())?;
    let options = DocOptions::default();
    let total = live.conversation.turns.len();
    let doc = if outlined {
        Document::build_turns(&live.conversation, &options, &|n| spec.contains(n, total))
    } else {
        Document::build(&live.conversation, &options)
    };
    let print = PrintOptions {
        width: 100,
        color: false,
        theme: Theme::dark(),
        sanitize: SanitizeMode::Strip,
        turns: Some(spec),
        code: CodeOverflow::Wrap,
    };
    let mut out = Vec::new();
    print_document(&mut out, &live.conversation, &doc, &print).map_err(|e| e.to_string())?;
    let (wall, cpu) = (start.elapsed(), cpu_time() - cpu);
    let peak = status_kb("VmHWM:")?;
    let way = if outlined { "outlined" } else { "whole" };
    println!(
        "last turn ({way}): {} bytes printed, {total} turns, {} events · {:.0} ms wall, {:.0} ms CPU · peak memory {:.1} MB · {:.2}× the file",
        out.len(),
        live.conversation.events.len(),
        wall.as_secs_f64() * 1000.0,
        cpu.as_secs_f64() * 1000.0,
        mib(peak),
        peak as f64 / size as f64
    );
    // As `render` does: the process's exit frees it all.
    std::mem::forget((live, doc));
    Ok(())
}

fn baseline(parent: &Path) -> Result<(), String> {
    let path = parent.join("17760760747-synthetic").join("events.json");
    let (start, cpu) = (Instant::now(), cpu_time());
    let bytes = std::fs::read(&path).map_err(|e| e.to_string())?;
    let value: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| e.to_string())?;
    let (wall, cpu) = (start.elapsed(), cpu_time() - cpu);
    let entries = value.as_array().map_or(0, Vec::len);
    let peak = status_kb("VmHWM:")?;
    println!(
        "baseline: read + serde_json::Value {:.0} ms wall, {:.0} ms CPU ({entries} entries) · peak memory {:.0} MB · {:.2}× the file",
        wall.as_secs_f64() * 1000.0,
        cpu.as_secs_f64() * 1000.0,
        mib(peak),
        peak as f64 / bytes.len() as f64
    );
    Ok(())
}

/// The C heap (glibc's `mallinfo2`): what the program holds, what the
/// allocator keeps free, and what it mapped for large blocks — whether
/// resident memory is data or the allocator's free space.
fn heap(after: &str) {
    // SAFETY: mallinfo2 only reads the allocator's counters.
    let info = unsafe { libc::mallinfo2() };
    println!(
        "open: heap after {after}: {:.0} MB in use, {:.0} MB free in the arenas, {:.0} MB mapped for large blocks",
        mib(info.uordblks as u64),
        mib(info.fordblks as u64),
        mib(info.hblkhd as u64),
    );
}

fn file_size(dir: &Path) -> Result<u64, String> {
    std::fs::metadata(dir.join("events.json"))
        .map(|m| m.len())
        .map_err(|e| format!("{}: {e}", dir.display()))
}

/// CPU time of the process (user and system): on a shared machine it
/// stretches much less than wall-clock time with everyone else's load.
fn cpu_time() -> std::time::Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec for the call to fill in.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    std::time::Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// A memory figure of the process in bytes, from `/proc/self/status`
/// (`VmRSS:` now, `VmHWM:` the peak).
fn status_kb(field: &str) -> Result<u64, String> {
    let status = std::fs::read_to_string("/proc/self/status").map_err(|e| e.to_string())?;
    status
        .lines()
        .find_map(|line| line.strip_prefix(field))
        .and_then(|rest| {
            rest.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        })
        .map(|kb| kb * 1024)
        .ok_or_else(|| format!("no {field} in /proc/self/status"))
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}
