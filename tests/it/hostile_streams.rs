//! Pipes, FIFOs and other streams are read exactly once:
//! `render` of a pipe on stdin, `/dev/stdin`, `/dev/fd/N`, `/proc/self/fd/N`,
//! `<(…)` and a named FIFO prints what `render` of the same bytes in a file
//! prints, for JP `events.json` and eve streams alike; the viewer follows a
//! FIFO until its writer closes it.

// This test drives the real binary through system calls that have no safe
// wrapper (signals, FIFOs, ptys, locks, process groups); every unsafe block
// says why it is sound (clippy's undocumented_unsafe_blocks).
#![allow(unsafe_code)]

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::pty::{OVERHEAR, TIMEOUT, Viewer};

const JP: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/jp/current/events.json"
);
const EVE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/eve/update-then-final.ndjson"
);

/// Waits for `child` at most [`TIMEOUT`]; a hang fails the test.
fn finish(mut child: std::process::Child, what: &str) -> Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > TIMEOUT {
            child.kill().unwrap();
            panic!("{what}: still running after {TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// `overhear render --width 80 ARG` with `input` written to its stdin.
fn render_with_stdin(arg: &str, input: &[u8]) -> Output {
    let mut child = crate::common::overhear()
        .args(["render", "--width", "80", "--color", "never", arg])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written from another thread: the pipe holds 64 KiB at most.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = finish(child, arg);
    writer.join().unwrap();
    output
}

/// What `render` prints for the same bytes in a lone file (an `events.json`
/// in a folder would be read with the files beside it).
fn render_file(path: &str) -> Vec<u8> {
    let tmp = tempfile::tempdir().unwrap();
    let copy = tmp.path().join("copy");
    std::fs::copy(path, &copy).unwrap();
    let output = crate::common::overhear()
        .args(["render", "--width", "80", "--color", "never"])
        .arg(&copy)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    assert!(!output.stdout.is_empty());
    output.stdout
}

fn assert_same(output: &Output, expected: &[u8], what: &str) {
    assert!(
        output.status.success(),
        "{what}: {:?}: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.stdout == expected,
        "{what}: printed\n{}\nnot\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(expected)
    );
}

#[test]
fn render_reads_a_pipe_on_stdin_in_both_formats() {
    for file in [JP, EVE] {
        let expected = render_file(file);
        let bytes = std::fs::read(file).unwrap();
        for arg in ["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"] {
            assert_same(
                &render_with_stdin(arg, &bytes),
                &expected,
                &format!("{arg} < {file}"),
            );
        }
    }
}

#[test]
fn render_reads_process_substitution_in_both_formats() {
    for file in [JP, EVE] {
        let expected = render_file(file);
        let script = format!(
            "exec \"$0\" render --width 80 --color never <(cat '{file}')",
            file = file.replace('\'', "'\\''")
        );
        let child = Command::new("bash")
            .args(["-c", &script, OVERHEAR])
            .env("XDG_CONFIG_HOME", crate::common::NO_USER_CONFIG)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        assert_same(&finish(child, file), &expected, &format!("<(cat {file})"));
    }
}

/// A named FIFO in `dir`.
fn fifo(dir: &Path) -> PathBuf {
    let path = dir.join("stream");
    let name = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
    path
}

/// Writes `bytes` into the FIFO at `path` from another thread, then closes it.
fn write_fifo(path: &Path, bytes: Vec<u8>) -> std::thread::JoinHandle<()> {
    let path = path.to_owned();
    std::thread::spawn(move || {
        let mut writer = std::fs::OpenOptions::new().write(true).open(path).unwrap();
        writer.write_all(&bytes).unwrap();
    })
}

#[test]
fn render_reads_a_named_fifo_once_in_both_formats() {
    for file in [JP, EVE] {
        let tmp = tempfile::tempdir().unwrap();
        let path = fifo(tmp.path());
        let writer = write_fifo(&path, std::fs::read(file).unwrap());
        let child = crate::common::overhear()
            .args(["render", "--width", "80", "--color", "never"])
            .arg(&path)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        assert_same(&finish(child, file), &render_file(file), "a named FIFO");
        writer.join().unwrap();
    }
}

#[test]
fn a_stream_that_starts_with_neither_format_is_an_error_at_once() {
    let output = render_with_stdin("-", &[0u8; 200_000]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "overhear: -: line 1, column 1: '\\0' starts neither a JP events file (a JSON array, `[`) nor an eve stream (JSON objects, one per line, `{`)\n"
    );
    let output = render_with_stdin("-", b" \n ");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "overhear: -: the stream ended before any input\n"
    );
    let output = render_with_stdin("-", b"[{\"type\": oops}]");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("overhear: -: line 1, column 11: "),
        "{stderr}"
    );
}

#[test]
fn the_viewer_follows_a_fifo_until_its_writer_closes_it() {
    let tmp = tempfile::tempdir().unwrap();
    let path = fifo(tmp.path());
    let mut viewer = Viewer::spawn(&[&path], tmp.path(), &tmp.path().join("none"), 24, 80);
    // Nobody writes yet: the viewer is up and answers keys all the same.
    viewer.wait_until("the empty viewer", TIMEOUT, |s| {
        s.alternate_screen() && s.contents().contains("waiting for the first events")
    });
    viewer.send(b"G");
    let lines: Vec<Vec<u8>> = std::fs::read(EVE)
        .unwrap()
        .split_inclusive(|&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect();
    let mut writer = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    writer.write_all(&lines[0]).unwrap();
    writer.write_all(&lines[1]).unwrap();
    writer.flush().unwrap();
    viewer.wait_for_text("turn 1");
    for line in &lines[2..] {
        writer.write_all(line).unwrap();
    }
    drop(writer);
    viewer.wait_for_text("finished");
    viewer.quit();
}

#[test]
fn the_viewer_reads_a_jp_array_on_a_fifo_when_it_ends() {
    let tmp = tempfile::tempdir().unwrap();
    let path = fifo(tmp.path());
    let mut viewer = Viewer::spawn(&[&path], tmp.path(), &tmp.path().join("none"), 24, 80);
    let writer = write_fifo(&path, std::fs::read(JP).unwrap());
    viewer.wait_until("the conversation", TIMEOUT, |s| {
        s.contents().contains("24 events") && s.contents().contains("finished")
    });
    writer.join().unwrap();
    viewer.quit();
}
