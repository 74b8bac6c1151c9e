//! What `overhear export -o` writes, through the binary: never a file the export read, whatever link or other spelling of
//! its path leads to it (the conversation, a sub-agent's transcript, the
//! configuration); a replaced file atomically, so that a failed write leaves
//! the previous export and nothing partial; `-o -` is stdout and `-o ""` a
//! usage error; a write error names the file (or stdout) without the
//! system's error number.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SECRETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/jp/secrets");
const STREAM: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/eve/approvals.ndjson"
);

fn overhear(cwd: &Path, args: &[&str]) -> Output {
    crate::common::overhear()
        .args(args)
        .current_dir(cwd)
        .env("JP_USER_DATA_DIR", cwd.join("no-user-data"))
        .output()
        .expect("the binary runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn text(path: &Path) -> String {
    path.display().to_string()
}

/// The names in `dir`, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A copy of the `secrets` JP conversation in `dir/conv`.
fn conversation(dir: &Path) -> PathBuf {
    let conv = dir.join("conv");
    std::fs::create_dir(&conv).unwrap();
    for name in ["events.json", "metadata.json", "base_config.json"] {
        std::fs::copy(Path::new(SECRETS).join(name), conv.join(name)).unwrap();
    }
    conv
}

/// Exports `input` to `target` (with `extra` options) and checks it is
/// refused as a file the export reads, and `read` is left as it was.
fn assert_refused(cwd: &Path, input: &Path, target: &Path, extra: &[&str], read: &Path) {
    let before = std::fs::read(read).unwrap();
    let mut args = vec![
        "export",
        input.to_str().unwrap(),
        "-o",
        target.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let out = overhear(cwd, &args);
    assert_eq!(
        stderr(&out),
        format!(
            "overhear: -o {}: that is a file this export reads (the conversation, a sub-agent's \
             transcript, a configuration or a theme); choose another output file\n",
            text(target)
        )
    );
    assert_eq!(out.status.code(), Some(2), "-o {}", text(target));
    assert_eq!(
        std::fs::read(read).unwrap(),
        before,
        "-o {} wrote",
        text(target)
    );
}

#[test]
fn export_never_writes_over_a_file_it_read_through_a_link() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let conv = conversation(root);
    let events = conv.join("events.json");

    // The conversation: a symbolic link, a hard link.
    let soft = root.join("soft.md");
    std::os::unix::fs::symlink(&events, &soft).unwrap();
    let hard = root.join("hard.md");
    std::fs::hard_link(&events, &hard).unwrap();
    for target in [&soft, &hard] {
        assert_refused(root, &conv, target, &[], &events);
    }
    // Its metadata, which only gives the title.
    let metadata = root.join("title.md");
    std::os::unix::fs::symlink(conv.join("metadata.json"), &metadata).unwrap();
    assert_refused(root, &conv, &metadata, &[], &conv.join("metadata.json"));

    // A stream file, by a hard link and by a path through `..`.
    let stream = root.join("session.ndjson");
    std::fs::copy(STREAM, &stream).unwrap();
    let stream_link = root.join("session.md");
    std::fs::hard_link(&stream, &stream_link).unwrap();
    let dotted = root.join("conv/../session.ndjson");
    for target in [&stream_link, &dotted] {
        assert_refused(root, &stream, target, &[], &stream);
    }

    // The configuration `--config` names, by a symbolic link.
    let config = root.join("view.toml");
    std::fs::write(&config, "[style.reasoning]\ndisplay = \"full\"\n").unwrap();
    let config_link = root.join("view.md");
    std::os::unix::fs::symlink(&config, &config_link).unwrap();
    assert_refused(
        root,
        &stream,
        &config_link,
        &["--config", "view.toml"],
        &config,
    );
}

#[test]
fn export_never_writes_over_a_sub_agents_transcript_it_read() {
    let tmp = tempfile::tempdir().unwrap();
    let sessions = tmp.path().join("sessions");
    std::fs::create_dir(&sessions).unwrap();
    crate::subagents::write_session(&sessions);
    let parent = sessions.join(crate::subagents::PARENT);
    let child = sessions.join(crate::subagents::CHILD);
    let link = tmp.path().join("child.md");
    std::fs::hard_link(&child, &link).unwrap();
    assert_refused(tmp.path(), &parent, &link, &[], &child);
}

#[test]
fn a_failed_replace_leaves_the_previous_export_and_nothing_partial() {
    let tmp = tempfile::tempdir().unwrap();
    let out_dir = tmp.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let target = out_dir.join("share.html");
    std::fs::write(&target, "the previous export\n").unwrap();
    // A file size limit of a few KiB: the export (an HTML page) is larger,
    // so writing it fails part way, as on a full disk.
    let out = Command::new("sh")
        .args(["-c", "ulimit -f 4 && exec \"$0\" \"$@\""])
        .arg(env!("CARGO_BIN_EXE_overhear"))
        .args(["export", SECRETS, "-o", target.to_str().unwrap()])
        .current_dir(tmp.path())
        .env("JP_USER_DATA_DIR", tmp.path().join("no-user-data"))
        .env("XDG_CONFIG_HOME", crate::common::NO_USER_CONFIG)
        .output()
        .unwrap();
    assert_eq!(
        stderr(&out),
        format!(
            "overhear: {}: cannot write: file too large\n",
            text(&target)
        )
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        "the previous export\n"
    );
    assert_eq!(
        entries(&out_dir),
        ["share.html"],
        "a temporary file is left"
    );

    // Without the limit, the same export replaces it whole.
    let out = overhear(
        tmp.path(),
        &["export", SECRETS, "-o", target.to_str().unwrap()],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        std::fs::read_to_string(&target)
            .unwrap()
            .starts_with("<!DOCTYPE html>")
    );
    assert_eq!(entries(&out_dir), ["share.html"]);
}

#[test]
fn dash_is_stdout_and_an_empty_name_is_a_usage_error() {
    let tmp = tempfile::tempdir().unwrap();
    let out = overhear(tmp.path(), &["export", SECRETS, "-o", "-"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("# "));
    assert!(entries(tmp.path()).is_empty(), "a file was written");

    let out = overhear(tmp.path(), &["export", SECRETS, "-o", ""]);
    assert_eq!(
        stderr(&out),
        "overhear: -o \"\": an empty file name; name a file, or - for stdout\n"
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

#[test]
fn a_write_error_names_the_file_without_an_error_number() {
    let tmp = tempfile::tempdir().unwrap();
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    for args in [
        &["render", SECRETS][..],
        &["events", SECRETS],
        &["export", SECRETS],
    ] {
        let out = crate::common::overhear()
            .args(args)
            .current_dir(tmp.path())
            .stdout(full())
            .output()
            .unwrap();
        assert_eq!(
            stderr(&out),
            "overhear: stdout: cannot write: no space left on device\n",
            "{args:?}"
        );
        assert_eq!(out.status.code(), Some(1), "{args:?}");
    }
    let out = overhear(tmp.path(), &["export", SECRETS, "-o", "/dev/full"]);
    assert_eq!(
        stderr(&out),
        "overhear: /dev/full: cannot write: no space left on device\n"
    );
    assert_eq!(out.status.code(), Some(1));
}

// Signalling the child is a bare kill(2): std can only send SIGKILL.
#[allow(unsafe_code)]
fn signal_child(child: &std::process::Child, signal: libc::c_int) {
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: signalling our own child process, not yet reaped.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
}

/// SIGTERM, SIGINT or SIGHUP while the pages of a large export are being
/// written: the process still ends by the signal (its status says which),
/// and leaves no temporary file — the page being written is removed, the
/// pages already renamed into place are whole. Each signal is sent as soon
/// as the first page is in place, while the next ones are written.
#[test]
fn a_signal_while_pages_are_written_leaves_no_temporary_file() {
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("long.jsonl");
    crate::common::export_session::long_session(&input, 8 << 20);
    for signal in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
        let out = dir.path().join(format!("out-{signal}"));
        std::fs::create_dir(&out).unwrap();
        let first = out.join("run.html");
        let mut child = crate::common::overhear()
            .args(["export", &text(&input), "-o", &text(&first)])
            .spawn()
            .expect("the binary runs");
        let start = std::time::Instant::now();
        while !first.exists() {
            assert!(
                start.elapsed() < std::time::Duration::from_secs(60),
                "no page written"
            );
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        signal_child(&child, signal);
        let status = child.wait().unwrap();
        let left = entries(&out);
        assert!(
            left.iter().all(|name| !name.ends_with(".tmp")),
            "signal {signal}: left {left:?}"
        );
        // Ended by the signal, unless every page was already written.
        let pages = left.len();
        assert!(
            status.signal() == Some(signal) || status.success(),
            "signal {signal}: {status:?} after {pages} pages"
        );
    }
}
