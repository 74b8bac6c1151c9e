//! What every integration test shares, written once: the viewer in a real
//! pseudo-terminal ([`pty`]) and in a test backend ([`frames`]), the real corpora ([`corpus`]), and the insta
//! snapshot settings ([`snapshot`]), the Claude Code and Codex fixtures
//! ([`agents`]), a home folder of a test's own for them ([`home`]), and the
//! plain render of a file ([`render_plain`]). Each test file uses a
//! different part.

#![allow(dead_code)]

pub mod agents;
pub mod corpus;
pub mod effects;
pub mod eve_support;
pub mod export_session;
pub mod frames;
#[path = "../../../benches/common/mod.rs"]
pub mod generate;
pub mod home;
pub mod inputs;
pub mod opencode;
pub mod pty;
pub mod sgr;
pub mod snapshot;
pub mod support;

/// Where a test's `overhear` looks for the user's configuration: nowhere
/// (a folder that does not exist).
pub const NO_USER_CONFIG: &str = "/nonexistent/overhear-tests/config";

/// The `overhear` binary as a command that reads no configuration of the
/// machine's and writes none (the viewer remembers `r` and `z` there): a
/// developer's own theme, styles or remembered choices would change what
/// the tests see. A test that wants a configuration sets `XDG_CONFIG_HOME`
/// again (or removes it and sets `HOME`).
pub fn overhear() -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_overhear"));
    command
        .env("XDG_CONFIG_HOME", NO_USER_CONFIG)
        .env("OVERHEAR_NO_REMEMBER", "1")
        .env_remove("OVERHEAR_CONFIG");
    command
}

/// What `overhear ARGS… -` prints with `input` on its standard input, the
/// command having succeeded (else the panic shows what it said).
pub fn stdout_fed(args: &[&str], input: &str) -> String {
    let args = args.iter().copied().chain(["-"]);
    let run = support::overhear_fed(args, &[], Some(input.as_bytes().to_vec()));
    run.expect_code(0);
    String::from_utf8(run.stdout).expect("UTF-8")
}

/// What `overhear render PATH --color never --width WIDTH` prints, the
/// command having succeeded (else the panic names the file, the width and
/// what the command said).
pub fn render_plain(path: &std::path::Path, width: usize) -> String {
    let out = crate::common::overhear()
        .args(["render", "--color", "never", "--width", &width.to_string()])
        .arg(path)
        .output()
        .expect("overhear runs");
    assert!(
        out.status.success(),
        "{} at {width}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}
