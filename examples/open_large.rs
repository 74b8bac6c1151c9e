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
//! `open` goes the viewer's way (`benches/common/viewer.rs`, which
//! `cargo bench --bench limits` measures beside Python in the same run):
//! `Live::open_jp_at_end` (read in outline, the last turns decoded) →
//! `LiveDocument` (the document) → `App` → one 200×60 frame of the end
//! through crossterm's backend into a sink, with the highlighter warmed up on
//! another thread as the viewer does. Each prints its phases (wall-clock and CPU time, resident
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

use common::viewer::{self, Way, cpu_time, mib};
use overhear::load::Live;
use overhear::render::document::{DocOptions, Document};
use overhear::render::print::{
    CodeOverflow, PrintOptions, TurnSpec, TurnSpecError, print_document,
};
use overhear::render::theme::Theme;
use overhear::text::sanitize::SanitizeMode;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["write", dir] => write(Path::new(dir), 100),
        ["write", dir, mb] => write(Path::new(dir), mb.parse().map_err(|_| "MB: a number")?),
        ["open", dir] => open(Path::new(dir), Way::AtEnd, false),
        ["open-whole", dir] => open(Path::new(dir), Way::Whole, false),
        ["open-then-top", dir] => open(Path::new(dir), Way::AtEnd, true),
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

fn open(parent: &Path, way: Way, then_top: bool) -> Result<(), String> {
    let dir = parent.join("17760760747-synthetic");
    let size = file_size(&dir)?;
    let (start, cpu) = (Instant::now(), cpu_time());
    let phase = |name: &str| {
        println!(
            "open: {name:<28} after {:>5.0} ms wall, {:>5.0} ms CPU · resident {:>4.0} MB, peak {:>4.0} MB",
            start.elapsed().as_secs_f64() * 1000.0,
            (cpu_time() - cpu).as_secs_f64() * 1000.0,
            mib(viewer::status_bytes("VmRSS:").unwrap_or(0)),
            mib(viewer::status_bytes("VmHWM:").unwrap_or(0)),
        );
    };
    let mut opened = viewer::open(&dir, way, phase)?;
    let peak = viewer::status_bytes("VmHWM:")?;
    let (outline, turns) = viewer::outline_turns(&opened);
    println!("open: {outline} of {turns} turns still in outline");
    heap("the last screen");
    if then_top {
        let steps = viewer::read_every_turn(&mut opened)?;
        phase("g: every turn read, top drawn");
        println!(
            "open: g read in {} steps: a step and its frame {:.0} ms median, {:.0} ms the longest (a key waits at most that)",
            steps.count,
            steps.median.as_secs_f64() * 1000.0,
            steps.longest.as_secs_f64() * 1000.0
        );
        heap("g");
        println!(
            "open: after g, {} turns still in outline",
            viewer::outline_turns(&opened).0
        );
        // What reading every turn again costs once the turns far from the
        // view were emptied (`RESIDENT_SPAN`): the end, a search through
        // every block for a word in none, the top again, another view.
        for keys in ["G", "/quokka\n", "g", "v"] {
            let (took, longest) = viewer::press(&mut opened, keys)?;
            phase(&format!(
                "{} {:.0} ms, keys wait {:.0}",
                keys.trim_end(),
                took.as_secs_f64() * 1000.0,
                longest.as_secs_f64() * 1000.0
            ));
        }
    }
    let (events, turns, blocks) = viewer::sizes(&opened);
    println!(
        "open: {:.1} MB, {events} events, {turns} turns, {blocks} blocks",
        mib(size)
    );
    println!(
        "open: on screen after {:.0} ms wall, {:.0} ms CPU (budget 1000 ms)",
        opened.wall.as_secs_f64() * 1000.0,
        opened.cpu.as_secs_f64() * 1000.0
    );
    println!(
        "open: peak memory {:.0} MB · {:.2}× the file (budget 2×)",
        mib(peak),
        peak as f64 / size as f64
    );
    // As the viewer does when it quits (`tui::run`): the process's exit
    // frees it all, so the process's CPU time is the viewer's.
    std::mem::forget(opened);
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
        Live::read_turns_at(
            Some(path),
            &|number, total| spec.contains(number, total),
            spec.last_turns(),
        )
    } else {
        Live::read_once(path)
    }
    .map_err(|e| e.to_string())?;
    let options = DocOptions::default();
    let total = live.conversation.turn_count();
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
    let peak = viewer::status_bytes("VmHWM:")?;
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
    let peak = viewer::status_bytes("VmHWM:")?;
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
