//! Huge single blocks stay cheap: a paragraph wrapping
//! to more than 50,000 lines is laid out once, not on every frame — an idle
//! viewer showing it uses about no CPU, and keys scroll inside it as fast as
//! anywhere else. Measured from outside, in a real pseudo-terminal.

use crate::common;
use crate::common::inputs;

use std::path::Path;
use std::time::{Duration, Instant};

use common::pty::Viewer;

/// How long the first screen may take in a debug build (it lays out the
/// whole paragraph once): a guard against hangs, not a budget.
const FIRST_SCREEN: Duration = Duration::from_secs(120);

/// User plus system CPU time the process has used so far.
// The clock tick rate comes from sysconf(3), which has no safe wrapper.
#[allow(unsafe_code)]
fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // Fields after the command name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..]
        .split_whitespace()
        .collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    // SAFETY: sysconf has no preconditions.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as u64;
    Duration::from_millis(ticks * 1000 / per_second)
}

/// A conversation whose answer is one paragraph of `words` words.
fn one_paragraph(dir: &Path, words: usize) {
    let paragraph = "lorem ipsum dolor sit amet ".repeat(words / 5);
    let events = inputs::message_events(paragraph.trim_end());
    std::fs::write(
        dir.join("events.json"),
        serde_json::to_vec_pretty(&events).unwrap(),
    )
    .unwrap();
}

/// The text of the screen's rows, the status bar left out.
fn text_rows(viewer: &Viewer) -> Vec<String> {
    let mut rows = common::pty::rows(&viewer.screen());
    rows.pop();
    rows
}

#[test]
fn an_idle_viewer_on_a_paragraph_of_60000_lines_uses_no_cpu_and_scrolls_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    // About 900,000 words: some 60,000 lines at 80 columns.
    one_paragraph(tmp.path(), 900_000);
    let mut viewer = Viewer::spawn(&[tmp.path()], tmp.path(), &tmp.path().join("none"), 24, 80);
    viewer.wait_until("the first screen", FIRST_SCREEN, |s| {
        s.contents().contains("lorem ipsum") && s.contents().contains("finished")
    });
    // Into the middle of the paragraph.
    viewer.send(b"g");
    viewer.wait_until("the top", FIRST_SCREEN, |s| s.contents().contains("turn 1"));
    for _ in 0..3 {
        viewer.send(b" ");
    }
    std::thread::sleep(Duration::from_millis(500));

    // Idle: the clock still ticks (a frame a second); nothing else happens.
    let pid = viewer.pid();
    let before = cpu_time(pid);
    let idle = Duration::from_secs(3);
    std::thread::sleep(idle);
    let used = cpu_time(pid) - before;
    println!("CPU while idle: {used:?} in {idle:?}");
    assert!(
        used < idle / 20,
        "an idle viewer used {used:?} of CPU in {idle:?}"
    );

    // A key inside the block is answered at once.
    let mut slowest = Duration::ZERO;
    for _ in 0..10 {
        let shown = text_rows(&viewer);
        let start = Instant::now();
        viewer.send(b" ");
        while text_rows(&viewer) == shown {
            assert!(start.elapsed() < FIRST_SCREEN, "the page did not turn");
            std::thread::sleep(Duration::from_millis(2));
        }
        slowest = slowest.max(start.elapsed());
    }
    println!("slowest page turn inside the paragraph: {slowest:?}");
    assert!(
        slowest < Duration::from_millis(500),
        "a page turn took {slowest:?}"
    );
    viewer.quit();
}
