//! `limits`: issue 30's measures of a generated 100 MB JP conversation, each
//! beside Python's `json.load` of the same `events.json` in the same rounds,
//! as ratios to it, with the target and whether it is met:
//!
//! 1. `render DIR --turn -1 --width 100 --color never`: CPU ≤ 0.1× Python,
//!    peak resident memory ≤ 0.1× the file;
//! 2. the viewer, launched to its last screen drawn: CPU ≤ 0.1× Python, peak
//!    ≤ 0.3× the file;
//! 4. `render DIR --width 100 --color never` (every turn): CPU ≤ 2× Python;
//! 5. with `-- 1gb`: a 1 GB conversation opened, `g` pressed and every
//!    earlier turn read as the viewer's loop does: no step with its frame
//!    over 100 ms (keys wait at most that), peak ≤ 0.6 GB.
//!
//! (3., a rewrite on screen, is `cargo bench --bench tail`: `tail jp follow`.)
//!
//! Below the rows, the floors they stand on, in the same rounds: a process
//! (this bench again, `--child floor read|map FILE`) that only reads the
//! file, 1 MiB at a time or from a map, and finds every quote and backslash
//! in it (`memchr2`: where each string ends, the least an exact reader of
//! JSON must find), and `render --turn -1` of a conversation of one turn
//! (the process's own time and memory, whatever the file).
//!
//! With `-- jp-lengths` the conversations have ids and timestamps as long
//! as JP's own (`common::with_jp_lengths`), which cost a reader more memory
//! than the generator's short ones; every figure of docs/benchmarks.md
//! before 2026-12-04 is for the short ones.
//!
//! Each command is a whole process, as a user runs it: `overhear` itself
//! (the build Cargo made for this bench) for 1 and 4; for 2 and 5 this bench
//! again (`--child open|top DIR`), which opens the folder through the
//! viewer's code (`common/viewer.rs`), draws into a test backend and exits.
//! Each is started by this bench again (`--child launch PROGRAM ARGS…`),
//! which waits for it with `wait4` and prints its CPU time and peak resident
//! memory: a process started from the bench itself would count the bench's
//! own pages, shared with it until `exec`, in its peak (the launcher's own
//! 3.8 MiB are the least any figure can read: `/bin/true` reads so). Every
//! round runs every command one after the other, so that all see the same
//! load on a shared machine; each keeps its best CPU time (user + system)
//! and its largest peak. `OVERHEAR_LIMITS_ROUNDS` sets the rounds (5; 1 at
//! least). docs/benchmarks.md ("Issue 30") has the runs.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::process::{Scratch, available, python_json_load};
use common::viewer::{self, Way};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["--child", "open", dir] => child_open(Path::new(dir)),
        ["--child", "top", dir] => child_top(Path::new(dir)),
        ["--child", "floor", way, file] => child_floor(way, Path::new(file)),
        ["--child", "launch", program, ref arguments @ ..] => launch(program, arguments),
        _ => measure(Asked {
            one_gb: args.iter().any(|a| a == "1gb"),
            jp_lengths: args.iter().any(|a| a == "jp-lengths"),
        }),
    }
}

/// The viewer's way to its last screen, in this process (row 2).
fn child_open(dir: &Path) {
    let opened = viewer::open(dir, Way::AtEnd, |_| {}).expect("the conversation opens");
    // As the viewer does when it quits: the process's exit frees it all.
    std::mem::forget(opened);
}

/// Row 5 in this process: opened, `g`, every earlier turn read; prints the
/// steps and the peak for the parent.
fn child_top(dir: &Path) {
    let mut opened = viewer::open(dir, Way::AtEnd, |_| {}).expect("the conversation opens");
    let steps = viewer::read_every_turn(&mut opened).expect("every turn is read");
    let (outline, _) = viewer::outline_turns(&opened);
    assert_eq!(outline, 0, "g leaves no turn in outline");
    let peak = viewer::status_bytes("VmHWM:").expect("the peak is known");
    println!(
        "{} {} {} {peak}",
        steps.count,
        steps.median.as_nanos(),
        steps.longest.as_nanos()
    );
    std::mem::forget(opened);
}

/// A floor, in this process: reads `file` 1 MiB at a time (`read`) or
/// from a private map (`map`) and counts its quotes and backslashes; prints
/// the count.
#[allow(unsafe_code)]
fn child_floor(way: &str, file: &Path) {
    use std::io::Read;
    use std::os::fd::AsRawFd;
    let count = |bytes: &[u8]| memchr::memchr2_iter(b'"', b'\\', bytes).count();
    let mut opened = std::fs::File::open(file).expect("the file opens");
    let mut found = 0;
    match way {
        "read" => {
            let mut buf = vec![0; 1 << 20];
            loop {
                let n = opened.read(&mut buf).expect("the file reads");
                if n == 0 {
                    break;
                }
                found += count(&buf[..n]);
            }
        }
        "map" => {
            let len = usize::try_from(opened.metadata().expect("its size").len()).expect("a size");
            // SAFETY: a private read-only map of a file this bench wrote and
            // nothing changes while it is mapped; unmapped before the end.
            unsafe {
                let at = libc::mmap(
                    std::ptr::null_mut(),
                    len,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE,
                    opened.as_raw_fd(),
                    0,
                );
                assert_ne!(at, libc::MAP_FAILED, "the file maps");
                found = count(std::slice::from_raw_parts(at.cast::<u8>(), len));
                libc::munmap(at, len);
            }
        }
        _ => panic!("floor read|map, not {way}"),
    }
    println!("{found}");
}

/// Runs `program` with `arguments` (its output dropped), which must
/// succeed, and prints its CPU time in microseconds and its peak resident
/// memory in KiB, as `wait4` tells them.
#[allow(unsafe_code)]
// The child is reaped by `wait4`, which std's `wait` cannot stand in for
// (it gives no resource use).
#[allow(clippy::zombie_processes)]
fn launch(program: &str, arguments: &[&str]) {
    let child = Command::new(program)
        .args(arguments)
        .stdout(Stdio::null())
        .spawn()
        .expect("the command runs");
    let pid = libc::pid_t::try_from(child.id()).expect("a process id");
    let mut status = 0;
    // SAFETY: rusage is plain data; zeroed is a valid value for wait4 to fill.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our child, not yet reaped; both out-pointers are valid.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(reaped, pid, "{program} is waited for");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "{program} {arguments:?}: status {status}"
    );
    let micros = |t: libc::timeval| t.tv_sec * 1_000_000 + t.tv_usec;
    println!(
        "{} {}",
        micros(usage.ru_utime) + micros(usage.ru_stime),
        usage.ru_maxrss
    );
}

/// What one process took, as [`launch`] reads it.
#[derive(Debug, Clone, Copy, Default)]
struct Run {
    /// User + system time.
    cpu: Duration,
    /// Peak resident memory, MiB.
    peak_mib: f64,
}

/// What `command` took, started by this bench in a process of its own
/// ([`launch`]).
fn launched(this: &Path, command: &Command) -> Run {
    let numbers = child_numbers(
        Command::new(this)
            .args(["--child", "launch"])
            .arg(command.get_program())
            .args(command.get_args()),
    );
    let [micros, kib] = numbers[..] else {
        panic!("the launcher printed {numbers:?}");
    };
    Run {
        cpu: Duration::from_micros(micros),
        peak_mib: kib as f64 / 1024.0,
    }
}

/// Runs a child of this bench, which must succeed, and reads the numbers
/// it prints.
fn child_numbers(command: &mut Command) -> Vec<u64> {
    let output = command.output().expect("the child runs");
    assert!(output.status.success(), "{command:?}: {output:?}");
    String::from_utf8_lossy(&output.stdout)
        .split_whitespace()
        .map(|n| n.parse().expect("a number"))
        .collect()
}

/// The parent: writes the conversations and runs the rounds.
/// What `cargo bench --bench limits -- …` asked for.
#[derive(Clone, Copy)]
struct Asked {
    /// Row 5 too, on 1 GB.
    one_gb: bool,
    /// Ids and timestamps as long as JP's ([`common::with_jp_lengths`]).
    jp_lengths: bool,
}

fn measure(asked: Asked) {
    if !available("python3") {
        eprintln!("limits: skipped: python3 is not on PATH (the baseline)");
        return;
    }
    let rounds: usize = std::env::var("OVERHEAR_LIMITS_ROUNDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(5)
        .max(1);
    let scratch = Scratch::new("limits");
    let (dir, size) = write(&scratch.root.join("100"), 100, asked.jp_lengths);
    let dir_arg = dir.to_str().expect("a UTF-8 temporary folder");
    let events = dir.join("events.json");
    let overhear = env!("CARGO_BIN_EXE_overhear");
    let render = |more: &[&str]| {
        let mut command = Command::new(overhear);
        command
            .args(["render", dir_arg, "--width", "100", "--color", "never"])
            .args(more);
        command
    };
    let this = std::env::current_exe().expect("this bench's path");
    let mut open = Command::new(&this);
    open.args(["--child", "open", dir_arg]);
    let floor = |way: &str| {
        let mut command = Command::new(&this);
        command.args(["--child", "floor", way]).arg(&events);
        command
    };
    let small_parent = scratch.root.join("small");
    std::fs::create_dir_all(&small_parent).expect("a folder for the conversation");
    // A turn at least: the generator stops past one byte.
    let small = common::write_conversation(
        &small_parent,
        &common::stored(&common::conversation_events(1)),
    );
    let mut render_small = Command::new(overhear);
    render_small
        .args([
            "render", "--turn", "-1", "--width", "100", "--color", "never",
        ])
        .arg(&small);
    let mut best = [Run::default(); 7];
    for round in 0..rounds {
        let took = [
            launched(&this, &python_json_load(&events)),
            launched(&this, &render(&["--turn", "-1"])),
            launched(&this, &open),
            launched(&this, &render(&[])),
            launched(&this, &floor("read")),
            launched(&this, &floor("map")),
            launched(&this, &render_small),
        ];
        for (best, took) in best.iter_mut().zip(took) {
            keep_best(best, took, round == 0);
        }
    }
    let [python, last_turn, open, full, read, map, process] = best;
    println!(
        "limits: {:.1} MB{}, {rounds} rounds, best CPU of each, largest peak; Python's json.load {:.1} ms CPU, peak {:.1} MiB",
        size as f64 / 1e6,
        if asked.jp_lengths {
            " (JP's lengths of ids and timestamps)"
        } else {
            ""
        },
        ms(python.cpu),
        python.peak_mib
    );
    row(
        "1. render --turn -1",
        &last_turn,
        &python,
        size,
        0.1,
        Some(0.1),
    );
    row(
        "2. viewer: launch to last screen",
        &open,
        &python,
        size,
        0.1,
        Some(0.3),
    );
    row("4. render (every turn)", &full, &python, size, 2.0, None);
    floor_row(
        "floor: read, every string's end found",
        &read,
        &python,
        size,
    );
    floor_row(
        "floor: mapped, every string's end found",
        &map,
        &python,
        size,
    );
    floor_row(
        "floor: render --turn -1 of one turn",
        &process,
        &python,
        size,
    );
    if asked.one_gb {
        top(&scratch.root.join("1000"), &this, asked.jp_lengths);
    } else {
        println!("limits: 5. (g on 1 GB) with `cargo bench --bench limits -- 1gb`");
    }
}

/// Row 5: a 1 GB conversation, `g`, every earlier turn read.
fn top(parent: &Path, this: &Path, jp_lengths: bool) {
    let (dir, size) = write(parent, 1000, jp_lengths);
    let numbers = child_numbers(Command::new(this).args(["--child", "top"]).arg(&dir));
    let [steps, median, longest, peak] = numbers[..] else {
        panic!("the child printed {numbers:?}");
    };
    let (median, longest) = (Duration::from_nanos(median), Duration::from_nanos(longest));
    println!(
        "limits: 5. g on {:.1} MB: every earlier turn read in {steps} steps, a step with its frame {:.0} ms median, {:.0} ms the longest (issue 30: ≤ 100 ms: {}); peak {:.0} MB = {:.2}× the file (issue 30: ≤ 600 MB: {})",
        size as f64 / 1e6,
        ms(median),
        ms(longest),
        met(ms(longest) <= 100.0),
        peak as f64 / 1e6,
        peak as f64 / size as f64,
        met(peak <= 600_000_000),
    );
}

/// Writes a generated conversation of about `mb` MiB under `parent`, with
/// JP's lengths of ids and timestamps or not; its folder and the size of
/// its `events.json`.
fn write(parent: &Path, mb: usize, jp_lengths: bool) -> (PathBuf, u64) {
    std::fs::create_dir_all(parent).expect("a folder for the conversation");
    let mut events = common::conversation_events(mb << 20);
    if jp_lengths {
        events = common::with_jp_lengths(events);
    }
    let dir = common::write_conversation(parent, &common::stored(&events));
    let size = std::fs::metadata(dir.join("events.json"))
        .expect("written")
        .len();
    (dir, size)
}

/// Keeps the best CPU time of the rounds and the largest peak.
fn keep_best(best: &mut Run, took: Run, first: bool) {
    if first || took.cpu < best.cpu {
        best.cpu = took.cpu;
    }
    best.peak_mib = best.peak_mib.max(took.peak_mib);
}

/// One row: CPU against Python's, peak against the file, and the targets.
fn row(name: &str, ours: &Run, python: &Run, size: u64, cpu_target: f64, peak_target: Option<f64>) {
    let cpu = ours.cpu.as_secs_f64() / python.cpu.as_secs_f64();
    let peak = ours.peak_mib * 1024.0 * 1024.0 / size as f64;
    let peak_target = match peak_target {
        Some(target) => format!(" (≤ {target}×: {})", met(peak <= target)),
        None => String::new(),
    };
    println!(
        "limits: {name}: {:.1} ms CPU = {cpu:.3}× Python (≤ {cpu_target}×: {}) · peak {:.1} MiB = {peak:.3}× the file{peak_target}",
        ms(ours.cpu),
        met(cpu <= cpu_target),
        ours.peak_mib,
    );
}

/// A floor's row: CPU against Python's, peak against the 100 MB file.
fn floor_row(name: &str, floor: &Run, python: &Run, size: u64) {
    println!(
        "limits: {name}: {:.1} ms CPU = {:.3}× Python · peak {:.1} MiB = {:.3}× the file",
        ms(floor.cpu),
        floor.cpu.as_secs_f64() / python.cpu.as_secs_f64(),
        floor.peak_mib,
        floor.peak_mib * 1024.0 * 1024.0 / size as f64,
    );
}

fn met(yes: bool) -> &'static str {
    if yes { "met" } else { "not met" }
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}
