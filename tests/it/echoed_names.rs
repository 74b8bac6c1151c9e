//! Everything echoed is untrusted: file and folder names,
//! option values and parsers' words reach stderr, the status bar and the picker
//! shown (`␛]0;PWNED␇`, `<U+202E>`), never obeyed. Each name below carries one
//! family of sequences; whatever the command, no ESC, BEL or C1 byte and no bidi
//! control leaves the process but overhear's own SGR (`docs/hardening.md`,
//! "Echoed names").

// This test drives the real binary through system calls that have no safe
// wrapper (signals, FIFOs, ptys, locks, process groups); every unsafe block
// says why it is sound (clippy's undocumented_unsafe_blocks).
#![allow(unsafe_code)]

use crate::common;
use crate::common::effects;
use crate::common::support;

use std::ffi::OsStr;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use common::pty::{TIMEOUT, run_in_pty};

/// Names carrying CSI, OSC (BEL- and ST-terminated), DCS, C1 (as UTF-8 and as
/// a raw byte), bidi controls and invalid UTF-8.
const NAMES: &[(&str, &[u8])] = &[
    ("CSI", b"csi\x1b[2J\x1b[H"),
    ("OSC title, BEL", b"osc\x1b]0;PWNED\x07"),
    ("OSC 52 clipboard, ST", b"clip\x1b]52;c;UFdORUQ=\x1b\\"),
    ("DCS", b"dcs\x1bP1$qm\x1b\\"),
    ("C1 CSI as UTF-8", b"c1\xc2\x9b2J"),
    ("C1 CSI as a raw byte", b"raw\x9b2J"),
    ("bidi override", b"bidi\xe2\x80\xaetxt.exe"),
    ("invalid UTF-8", b"bad\xff\xfe"),
];

/// Characters that reorder text.
const BIDI: &[char] = &[
    '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}', '\u{2066}', '\u{2067}', '\u{2068}',
    '\u{2069}', '\u{200E}', '\u{200F}', '\u{061C}',
];

fn run(args: &[&OsStr]) -> Output {
    crate::common::overhear()
        .args(args)
        .env_remove("OVERHEAR_CONFIG")
        .env("JP_USER_DATA_DIR", "/nonexistent-overhear-test")
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

/// Fails unless `bytes` hold only text, newlines and SGR, and no bidi control.
fn assert_safe(what: &str, stream: &str, bytes: &[u8]) {
    if let Some(why) = support::unsafe_bytes(bytes) {
        panic!(
            "{what}: {stream}: {why}\n{}",
            String::from_utf8_lossy(bytes)
        );
    }
    let text = String::from_utf8_lossy(bytes);
    assert!(
        !text.contains(BIDI),
        "{what}: {stream} holds a bidi control: {text:?}"
    );
}

fn check(what: &str, out: &Output) {
    assert_safe(what, "stdout", &out.stdout);
    assert_safe(what, "stderr", &out.stderr);
}

fn named(dir: &Path, name: &[u8]) -> PathBuf {
    dir.join(OsStr::from_bytes(name))
}

#[test]
fn missing_files_with_hostile_names_are_named_safely() {
    let tmp = tempfile::tempdir().unwrap();
    for (what, name) in NAMES {
        let path = named(tmp.path(), name);
        for command in [&["render"][..], &["events"], &[]] {
            let mut args: Vec<&OsStr> = command.iter().map(OsStr::new).collect();
            args.push(path.as_os_str());
            let out = run(&args);
            assert_ne!(out.status.code(), Some(0), "{what} {command:?}");
            check(&format!("{what} {command:?}"), &out);
            assert!(!out.stderr.is_empty(), "{what} {command:?}: says why");
        }
    }
}

#[test]
fn unreadable_conversations_in_hostile_folders_are_named_shown_not_obeyed() {
    let tmp = tempfile::tempdir().unwrap();
    for (what, name) in NAMES {
        let dir = named(tmp.path(), name);
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("events.json"), b"[{\"type\": ").unwrap();
        for command in [&["render"][..], &["events"], &[]] {
            let mut args: Vec<&OsStr> = command.iter().map(OsStr::new).collect();
            args.push(dir.as_os_str());
            let out = run(&args);
            // A path that is not UTF-8 is refused as a usage error (2) for now.
            let expected = if std::str::from_utf8(name).is_ok() {
                1
            } else {
                2
            };
            assert_eq!(out.status.code(), Some(expected), "{what} {command:?}");
            check(&format!("{what} {command:?}"), &out);
            let stderr = String::from_utf8_lossy(&out.stderr);
            // The user still sees which folder: its sequences are made visible.
            if std::str::from_utf8(name).is_ok() && name.contains(&0x1b) {
                assert!(stderr.contains('␛'), "{what}: {stderr}");
            }
            if name.starts_with(b"osc") {
                assert!(stderr.contains("osc␛]0;PWNED␇"), "{stderr}");
            }
            if name.starts_with(b"bidi") {
                assert!(stderr.contains("bidi<U+202E>txt.exe"), "{stderr}");
            }
        }
    }
}

#[test]
fn hostile_option_values_are_echoed_safely() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("conv");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("events.json"), b"[]").unwrap();
    for (what, name) in NAMES {
        let value = OsStr::from_bytes(name);
        let mut set = b"conversation.tools.x.style.".to_vec();
        set.extend_from_slice(name);
        set.extend_from_slice(b"=1");
        let file = named(tmp.path(), name);
        for option in [
            [OsStr::new("--theme"), value],
            [OsStr::new("--set"), OsStr::from_bytes(&set)],
            [OsStr::new("--set"), value],
            [OsStr::new("--config"), file.as_os_str()],
            [OsStr::new("--color"), value],
        ] {
            let mut args = vec![OsStr::new("render"), dir.as_os_str()];
            args.extend(option);
            let out = run(&args);
            assert_eq!(out.status.code(), Some(2), "{what} {option:?}");
            check(&format!("{what} {option:?}"), &out);
        }
    }
}

#[test]
fn the_picker_and_status_bar_show_hostile_names_without_obeying_them() {
    let tmp = tempfile::tempdir().unwrap();
    let conversations = common::pty::jp_workspace(tmp.path());
    let events = br#"[{"timestamp": "2026-01-01 00:00:00.0", "type": "turn_start"},
        {"timestamp": "2026-01-01 00:00:01.0", "type": "chat_request", "content": "hello"}]"#;
    for (i, (_, name)) in NAMES.iter().enumerate() {
        let mut folder = format!("1765315234{i}-").into_bytes();
        folder.extend_from_slice(name);
        let dir = named(&conversations, &folder);
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("events.json"), events).unwrap();
        let title = format!(
            "title{i} {}",
            String::from_utf8_lossy(name).replace('\u{fffd}', "")
        );
        let metadata = serde_json::json!({"title": title,
            "last_activated_at": format!("2026-01-0{} 10:00:00.0", i + 1)});
        std::fs::write(dir.join("metadata.json"), metadata.to_string()).unwrap();
    }
    let mut cmd = common::pty::Viewer::command(tmp.path(), &tmp.path().join("no-user-data"));
    cmd.env("TERM", "xterm-256color");
    let mut pty = run_in_pty(cmd, 30, 120, effects::Effects::default());
    let wait_for = |pty: &common::pty::Pty<effects::Effects>, text: &str| {
        pty.wait_until(&format!("{text:?}"), |p| {
            p.screen().contents().contains(text)
        });
    };
    let wait_gone = |pty: &common::pty::Pty<effects::Effects>, text: &str| {
        pty.wait_until(&format!("{text:?} to go"), |p| {
            !p.screen().contents().contains(text)
        });
    };
    // The newest conversation opens: its title (bidi) is in the status bar.
    // (Folders whose names are not UTF-8 are not listed by the workspace.)
    wait_for(&pty, " title6 bidi<U+202E>txt.exe ");
    pty.writer.write_all(b"p").unwrap();
    wait_for(&pty, "Conversations (6)");
    wait_for(&pty, "title1 osc␛");
    let parser = pty.screen.lock().unwrap();
    let screen = parser.screen().contents();
    assert!(
        !screen.contains("]0;") && !screen.contains("PWNED"),
        "{screen}"
    );
    assert!(!screen.contains(BIDI), "{screen}");
    assert!(screen.contains("title3 dcs␛ "), "{screen}");
    let effects = parser.callbacks();
    // No title, icon, bell or unknown control; the unknown CSIs vt100 lists are
    // the viewer's own (mouse mode, underline colour).
    let foreign: Vec<&String> = effects
        .seen
        .iter()
        .filter(|e| !e.starts_with("csi "))
        .collect();
    assert!(foreign.is_empty(), "{foreign:?}");
    assert!(effects.clipboard.is_empty(), "{:?}", effects.clipboard);
    drop(parser);
    pty.writer.write_all(b"\x1b").unwrap();
    wait_gone(&pty, "Conversations (6)");
    pty.writer.write_all(b"q").unwrap();
    let status = pty.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
}

#[test]
fn the_viewer_names_a_broken_hostile_folder_on_its_terminal_without_obeying_it() {
    let tmp = tempfile::tempdir().unwrap();
    for (what, name) in NAMES.iter().filter(|(_, n)| std::str::from_utf8(n).is_ok()) {
        let dir = named(tmp.path(), name);
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("events.json"), b"[{\"type\": ").unwrap();
        let mut cmd = common::pty::Viewer::command(tmp.path(), &tmp.path().join("no-user-data"));
        cmd.arg(&dir);
        let mut pty = run_in_pty(cmd, 10, 200, effects::Effects::default());
        let status = pty.child.wait().unwrap();
        assert_eq!(status.exit_code(), 1, "{what}");
        // The reader thread may still be feeding the screen: wait for the message.
        let start = std::time::Instant::now();
        loop {
            let parser = pty.screen.lock().unwrap();
            let screen = parser.screen().contents();
            if screen.contains("the file ends") {
                assert!(!screen.contains(BIDI), "{what}: {screen}");
                if name.starts_with(b"osc") {
                    assert!(screen.contains("osc␛]0;PWNED␇"), "{screen}");
                }
                let effects = parser.callbacks();
                assert!(effects.seen.is_empty(), "{what}: {:?}", effects.seen);
                assert!(
                    effects.clipboard.is_empty(),
                    "{what}: {:?}",
                    effects.clipboard
                );
                break;
            }
            assert!(start.elapsed() < TIMEOUT, "{what}: no message:\n{screen}");
            drop(parser);
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}
