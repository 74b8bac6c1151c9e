//! `overhear completions SHELL` and `overhear man` through the real binary:
//! each shell's script names every subcommand and is what that shell reads
//! (bash parses it), the manual page is roff that `man` formats, and a shell
//! clap_complete does not know is a usage error (exit 2).

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common::support::overhear;

/// The subcommands a user completes after `overhear `.
const SUBCOMMANDS: &[&str] = &[
    "render",
    "replay",
    "demo",
    "export",
    "card",
    "events",
    "completions",
    "man",
];

/// What `overhear ARGS…` prints on stdout, after checking it exited 0.
fn printed(args: &[&str]) -> String {
    let run = overhear(args);
    run.expect_code(0);
    assert!(run.stderr.is_empty(), "{args:?}: {}", run.stderr);
    String::from_utf8(run.stdout).expect("UTF-8")
}

#[test]
fn every_shell_gets_a_script_naming_every_subcommand() {
    for (shell, marker) in [
        ("bash", "complete -F _overhear"),
        ("zsh", "#compdef overhear"),
        ("fish", "complete -c overhear"),
        ("elvish", "edit:completion:arg-completer[overhear]"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let script = printed(&["completions", shell]);
        assert!(script.contains(marker), "{shell}: no {marker:?}");
        for name in SUBCOMMANDS {
            assert!(script.contains(name), "{shell}: no {name}");
        }
        // Options of the subcommands complete too.
        assert!(script.contains("at-event"), "{shell}: no --at-event");
    }
}

#[test]
fn bash_reads_the_bash_script() {
    let script = printed(&["completions", "bash"]);
    let mut bash = Command::new("bash")
        .args(["-n", "/dev/stdin"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bash runs");
    bash.stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("written");
    let out = bash.wait_with_output().expect("bash ends");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_manual_page_is_roff_naming_the_subcommands() {
    let page = printed(&["man"]);
    assert!(page.starts_with(".ie \\n(.g .ds Aq"), "{}", &page[..80]);
    assert!(page.contains(".TH overhear 1"), "no title");
    for name in SUBCOMMANDS {
        assert!(page.contains(name), "no {name}");
    }
    // Formatted by man, it reads as a manual.
    let mut man = Command::new("man")
        .args(["-l", "-"])
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "80")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("man runs");
    man.stdin
        .take()
        .expect("stdin")
        .write_all(page.as_bytes())
        .expect("written");
    let out = man.wait_with_output().expect("man ends");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("NAME overhear - overhear — watch and replay"),
        "{text}"
    );
    assert!(words.contains("SYNOPSIS overhear [--agent]"), "{text}");
}

#[test]
fn an_unknown_shell_is_a_usage_error() {
    let run = overhear(["completions", "tcsh"]);
    run.expect_code(2);
    assert!(run.stdout.is_empty());
    assert!(run.stderr.contains("tcsh"), "{}", run.stderr);
}
