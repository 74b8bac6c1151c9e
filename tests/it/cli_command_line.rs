//! The command line as a newcomer meets it, through the real binary: negative turns
//! written with a space, turns past the end, printing when stdout is not a
//! terminal (or the terminal is `dumb`), `overhear -` on a keyboard, long
//! code lines wrapped in printed output, and no program run from `PATH` to
//! learn the width. The decisions are written in `docs/rendering.md`
//! ("Printing") and `docs/errors.md`.

// This test drives the real binary through system calls that have no safe
// wrapper (signals, FIFOs, ptys, locks, process groups); every unsafe block
// says why it is sound (clippy's undocumented_unsafe_blocks).
#![allow(unsafe_code)]

use crate::common;

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use base64::Engine;
use common::pty::OVERHEAR;
use overhear::text::width::display_width;
use portable_pty::CommandBuilder;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/jp");

/// What one run printed and how it ended.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// `overhear ARGS…` with stdout and stderr pipes, no stdin, no `COLUMNS`,
/// then `env` on top.
fn overhear(args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut cmd = crate::common::overhear();
    cmd.args(args)
        .env_remove("COLUMNS")
        .env("TERM", "xterm-256color")
        .stdin(Stdio::null());
    for (name, value) in env {
        cmd.env(name, value);
    }
    let output = cmd.output().unwrap();
    Run {
        code: output.status.code().unwrap(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Runs and expects success; the printed text.
fn printed(args: &[&str], env: &[(&str, &str)]) -> String {
    let run = overhear(args, env);
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    assert!(!run.stdout.is_empty(), "{args:?} printed nothing");
    run.stdout
}

fn fixture(name: &str) -> String {
    format!("{FIXTURES}/{name}")
}

fn widest(text: &str) -> usize {
    text.lines().map(display_width).max().unwrap_or(0)
}

// --- 1. Negative turns ------------------------------------------------------

#[test]
fn negative_turns_with_a_space_work_like_with_an_equals_sign() {
    let updates = fixture("updates");
    for (spaced, joined) in [
        (["--turn", "-1"], "--turn=-1"),
        (["--turn", "-2"], "--turn=-2"),
        (["--turn", "-3..-1"], "--turn=-3..-1"),
        (["--turn", "-2.."], "--turn=-2.."),
    ] {
        let base = ["render", updates.as_str(), "--color", "never"];
        let spaced_out = printed(&[&base[..], &spaced[..]].concat(), &[]);
        let joined_out = printed(&[&base[..], &[joined][..]].concat(), &[]);
        assert_eq!(spaced_out, joined_out, "{spaced:?}");
        // And the viewer's command line, printing into a pipe.
        let viewer_out = printed(
            &[&[updates.as_str(), "--color", "never"][..], &spaced[..]].concat(),
            &[],
        );
        assert_eq!(viewer_out, joined_out, "overhear PATH {spaced:?}");
    }
    let last = printed(&["render", &updates, "--turn", "-1"], &[]);
    assert_eq!(last.matches("── turn ").count(), 1);
    assert!(last.contains("── turn 3 "), "{last}");
    let last_two = printed(&["render", &updates, "--turn", "-2..-1"], &[]);
    assert_eq!(last_two.matches("── turn ").count(), 2);
    assert!(last_two.contains("── turn 2 ") && last_two.contains("── turn 3 "));
    // A negative width is still a mistake, named as one.
    let run = overhear(&["render", &updates, "--width", "-5"], &[]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "overhear: --width -5: expected a number of columns from 1 to 10000, e.g. 100\n"
    );
    let run = overhear(&["demo", "--speed", "-5"], &[]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "overhear: --speed -5: expected a positive factor (0.5, 1, 4, 10) or max\n"
    );
}

// --- 2. Turns past the end --------------------------------------------------

#[test]
fn a_turn_past_the_last_is_an_error_saying_how_many_there_are() {
    let current = fixture("current");
    let events = format!("{current}/events.json");
    for (spec, problem) in [
        ("5", "conversation has 2 turns; --turn 5 is out of range"),
        ("-3", "conversation has 2 turns; --turn -3 is out of range"),
        (
            "2..7",
            "conversation has 2 turns; --turn 2..7 is out of range",
        ),
        (
            "3..",
            "conversation has 2 turns; --turn 3.. is out of range",
        ),
        (
            "2..1",
            "conversation has 2 turns; --turn 2..1 is an empty range",
        ),
        (
            "-1..-2",
            "conversation has 2 turns; --turn -1..-2 is an empty range",
        ),
    ] {
        for args in [
            vec!["render", current.as_str(), "--turn", spec],
            vec![current.as_str(), "--turn", spec],
        ] {
            let run = overhear(&args, &[]);
            assert_eq!(run.stderr, format!("overhear: {events}: {problem}\n"));
            assert_eq!(run.code, 1, "{args:?}");
            assert!(run.stdout.is_empty(), "{}", run.stdout);
        }
    }
    let eve = format!(
        "{}/tests/fixtures/eve/steering.ndjson",
        env!("CARGO_MANIFEST_DIR")
    );
    let run = overhear(&["render", &eve, "--turn", "9"], &[]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .starts_with(&format!("overhear: {eve}: conversation has "))
            && run.stderr.ends_with("; --turn 9 is out of range\n"),
        "{}",
        run.stderr
    );
}

// --- 3. Printing when stdout is not a terminal -----------------------------

#[test]
fn the_viewer_command_prints_like_render_with_every_render_option() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("styles.toml");
    std::fs::write(
        &config,
        "[conversation.tools.fs_read_file.style]\ninline_results = \"full\"\n",
    )
    .unwrap();
    let config = config.to_str().unwrap();
    let current = fixture("current");
    let option_sets: &[&[&str]] = &[
        &["--width", "50", "--color", "always", "--turn", "-1"],
        &["--view", "user", "--theme", "light", "--color", "always"],
        &[
            "--set",
            "conversation.tools.fs_read_file.style.inline_results=full",
            "--sanitize",
            "visualize",
            "--wrap",
            "never",
            "--width",
            "40",
        ],
        &["--config", config, "--view", "raw", "--width", "120"],
    ];
    for options in option_sets {
        let rendered = printed(&[&["render", &current][..], options].concat(), &[]);
        let viewer = printed(&[&[current.as_str()][..], options].concat(), &[]);
        assert_eq!(viewer, rendered, "overhear PATH {options:?}");
        // Options may come before the path too.
        let before = printed(&[options, &[current.as_str()][..]].concat(), &[]);
        assert_eq!(before, rendered, "overhear {options:?} PATH");
    }
}

#[test]
fn printed_output_is_as_wide_as_columns_else_80() {
    let current = fixture("current");
    for args in [
        vec!["render", current.as_str(), "--color", "never"],
        vec![current.as_str(), "--color", "never"],
    ] {
        let at = |width: &str| printed(&[&args[..], &["--width", width][..]].concat(), &[]);
        let with_columns = |columns: &str| printed(&args, &[("COLUMNS", columns)]);
        assert_eq!(printed(&args, &[]), at("80"), "no COLUMNS: 80");
        assert_eq!(widest(&printed(&args, &[])), 80);
        assert_eq!(with_columns("57"), at("57"));
        assert_eq!(widest(&with_columns("57")), 57);
        assert_eq!(with_columns("200"), at("200"));
        for ignored in ["0", "-4", "wide", ""] {
            assert_eq!(with_columns(ignored), at("80"), "COLUMNS={ignored:?}");
        }
        // --width wins over COLUMNS.
        let both = printed(
            &[&args[..], &["--width", "44"][..]].concat(),
            &[("COLUMNS", "99")],
        );
        assert_eq!(both, at("44"));
    }
}

// --- 4 and 5. Terminals that cannot draw, and a keyboard on stdin ----------

/// What a command wrote to a `cols`-column pseudo-terminal until it exited
/// by itself, and its exit code.
fn in_pty(cmd: CommandBuilder, cols: u16) -> (String, u32) {
    let mut viewer = common::pty::Viewer::recording(cmd, 40, cols);
    let code = viewer.exit_code();
    let bytes = viewer.output();
    (String::from_utf8_lossy(&bytes).into_owned(), code)
}

fn pty_command(args: &[&str], term: Option<&str>) -> CommandBuilder {
    let mut cmd = CommandBuilder::new(OVERHEAR);
    cmd.args(args);
    cmd.env_remove("COLUMNS");
    cmd.env_remove("NO_COLOR");
    common::pty::without_user_config(&mut cmd);
    match term {
        Some(term) => cmd.env("TERM", term),
        None => cmd.env_remove("TERM"),
    }
    cmd
}

#[test]
fn a_dumb_terminal_gets_the_transcript_printed_at_its_width() {
    let current = fixture("current");
    for term in [Some("dumb"), Some(""), None] {
        for cols in [40u16, 80, 120, 200] {
            let (screen, code) = in_pty(pty_command(&[&current], term), cols);
            assert_eq!(code, 0, "TERM={term:?}: {screen}");
            assert!(
                screen.contains("Why does the build print no date?"),
                "TERM={term:?}: {screen}"
            );
            // No alternate screen, no cursor games, no colour: plain lines.
            assert!(!screen.contains('\u{1b}'), "TERM={term:?}: {screen:?}");
            let expected = printed(&["render", &current, "--width", &cols.to_string()], &[]);
            assert_eq!(
                screen.replace("\r\n", "\n"),
                expected,
                "TERM={term:?} at {cols}"
            );
        }
    }
}

#[test]
fn a_keyboard_on_stdin_is_no_stream() {
    for args in [&["-"][..], &["render", "-"][..]] {
        let (screen, code) = in_pty(pty_command(args, Some("xterm-256color")), 80);
        assert_eq!(code, 2, "{args:?}: {screen}");
        assert_eq!(
            screen,
            "overhear: stdin is a terminal: pipe an eve stream into overhear -\r\n"
        );
    }
}

// --- 6. Long code lines in printed output -----------------------------------

/// A JP conversation whose one tool call has a URL longer than any width
/// in its JSON arguments.
fn conversation_with_a_long_url(dir: &Path, url: &str) -> PathBuf {
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
    let events = serde_json::json!([
        {"timestamp": "2026-04-10 17:04:00.5", "type": "turn_start"},
        {"timestamp": "2026-04-10 17:04:01.5", "type": "chat_request", "content": "Fetch it."},
        {"timestamp": "2026-04-10 17:04:02.5", "type": "tool_call_request", "id": "t1",
         "name": "web_fetch", "arguments": {"url": b64(url), "depth": 2}},
        {"timestamp": "2026-04-10 17:04:03.5", "type": "tool_call_response", "id": "t1",
         "content": b64("fetched"), "is_error": false},
    ]);
    let conv = dir.join("conv");
    std::fs::create_dir_all(&conv).unwrap();
    std::fs::write(conv.join("events.json"), events.to_string()).unwrap();
    conv
}

/// The text of printed lines with each continuation joined to its line.
fn unwrapped(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        match line.split_once('↪') {
            Some((gutter, rest)) if gutter.chars().all(|c| c == ' ' || c == '│') => {
                out.push_str(rest)
            }
            _ => {
                out.push('\n');
                out.push_str(line);
            }
        }
    }
    out
}

#[test]
fn long_json_lines_are_wrapped_whole_in_printed_output() {
    let tmp = tempfile::tempdir().unwrap();
    let url = "https://docs.example.com/reference/api/v2/conversations/events/streaming\
               ?cursor=abcdef0123456789abcdef0123456789&limit=500#the-very-end";
    let conv = conversation_with_a_long_url(tmp.path(), url);
    let conv = conv.to_str().unwrap();
    for width in [40usize, 80, 120] {
        let w = width.to_string();
        for args in [
            vec!["render", conv, "--width", &w],
            vec!["render", conv, "--width", &w, "--wrap", "character"],
            vec![conv, "--width", &w],
        ] {
            let text = printed(&args, &[]);
            assert!(widest(&text) <= width, "{args:?}:\n{text}");
            assert!(text.contains('↪'), "{args:?} wraps:\n{text}");
            assert!(!text.contains('…'), "{args:?} cuts nothing:\n{text}");
            assert!(
                unwrapped(&text).contains(&format!("\"url\": \"{url}\"")),
                "{args:?}: the URL is whole:\n{text}"
            );
        }
        // --wrap never: today's cut, one line, ending in `…`.
        let cut = printed(&["render", conv, "--width", &w, "--wrap", "never"], &[]);
        assert!(!cut.contains('↪'), "{cut}");
        let url_line = cut.lines().find(|l| l.contains("\"url\"")).unwrap();
        assert!(
            url_line.ends_with('…') && display_width(url_line) == width,
            "{cut}"
        );
        assert!(widest(&cut) <= width);
    }
    // At 200 columns it fits: nothing to wrap.
    let wide = printed(&["render", conv, "--width", "200"], &[]);
    assert!(!wide.contains('↪') && wide.contains(url), "{wide}");
    // The mark is dim, the gutter keeps its colour.
    let coloured = printed(&["render", conv, "--width", "40", "--color", "always"], &[]);
    assert!(coloured.contains("\u{1b}[2m↪"), "{coloured:?}");
}

// --- No program from PATH ---------------------------------------------------

#[test]
fn no_tput_from_path_is_ever_run_to_learn_the_width() {
    let tmp = tempfile::tempdir().unwrap();
    let bin = tmp.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let marker = tmp.path().join("tput-ran");
    let fake = bin.join("tput");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\necho \"$@\" >> '{}'\necho 33\n",
            marker.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let current = fixture("current");
    // Printed to a pipe, without a controlling terminal to ask either (the
    // case where crossterm falls back to `tput`), with and without COLUMNS.
    for args in [vec!["render", current.as_str()], vec![current.as_str()]] {
        for columns in [None, Some("61")] {
            let mut cmd = crate::common::overhear();
            cmd.args(&args)
                .env("PATH", &path)
                .env("TERM", "xterm-256color")
                .env_remove("COLUMNS")
                .stdin(Stdio::null());
            if let Some(columns) = columns {
                cmd.env("COLUMNS", columns);
            }
            // SAFETY: setsid is async-signal-safe.
            unsafe {
                cmd.pre_exec(|| {
                    libc::setsid();
                    Ok(())
                });
            }
            let output = cmd.output().unwrap();
            assert!(output.status.success(), "{args:?}");
            let text = String::from_utf8_lossy(&output.stdout);
            assert_eq!(widest(&text), columns.map_or(80, |c| c.parse().unwrap()));
            assert!(!marker.exists(), "{args:?} ran tput from PATH");
        }
    }
    // The viewer in a terminal, and a dumb terminal that prints.
    let mut viewer = pty_command(&[&current], Some("xterm-256color"));
    viewer.env("PATH", &path);
    let mut viewer = common::pty::Viewer::start(viewer, 30, 100);
    viewer.wait_for_text("Run the checks again.");
    viewer.quit();
    let mut dumb = pty_command(&[&current], Some("dumb"));
    dumb.env("PATH", &path);
    let (_, code) = in_pty(dumb, 70);
    assert_eq!(code, 0);
    assert!(!marker.exists(), "the viewer ran tput from PATH");
}

// --- Printing to a real terminal, and the viewer's --color never -------------

#[test]
fn render_on_a_terminal_prints_at_its_width_in_each_theme_and_under_no_color() {
    let current = fixture("current");
    for cols in [40u16, 80, 120, 200] {
        for theme in ["dark", "light"] {
            let (coloured, code) = in_pty(
                pty_command(
                    &["render", &current, "--theme", theme],
                    Some("xterm-256color"),
                ),
                cols,
            );
            assert_eq!(code, 0, "{coloured}");
            assert!(
                coloured.contains("\u{1b}["),
                "{theme} at {cols}: colour on a terminal"
            );
            let mut no_color = pty_command(
                &["render", &current, "--theme", theme],
                Some("xterm-256color"),
            );
            no_color.env("NO_COLOR", "1");
            let (plain, code) = in_pty(no_color, cols);
            assert_eq!(code, 0, "{plain}");
            assert!(
                !plain.contains('\u{1b}'),
                "NO_COLOR, {theme} at {cols}: {plain:?}"
            );
            // The terminal's own width, asked by ioctl.
            assert_eq!(widest(&plain), usize::from(cols), "{theme} at {cols}");
            assert_eq!(
                plain.replace("\r\n", "\n"),
                printed(
                    &[
                        "render",
                        &current,
                        "--width",
                        &cols.to_string(),
                        "--theme",
                        theme
                    ],
                    &[]
                )
            );
        }
    }
}

#[test]
fn color_never_draws_the_viewer_as_no_color_does() {
    let current = fixture("current");
    // The look of every cell (the clock in the status bar may tick between
    // runs, so the characters are left out).
    let look = |options: &[&str], no_color: bool| {
        let mut cmd = pty_command(&[&current], Some("xterm-256color"));
        cmd.args(options);
        if no_color {
            cmd.env("NO_COLOR", "1");
        }
        let mut viewer = common::pty::Viewer::start(cmd, 30, 100);
        viewer.wait_for_text("Run the checks again.");
        let screen = viewer.settled_screen();
        viewer.quit();
        let (rows, cols) = screen.size();
        let mut cells = Vec::new();
        for r in 0..rows.get() {
            for c in 0..cols.get() {
                let cell = screen.cell(r, c).unwrap();
                cells.push((
                    cell.fgcolor(),
                    cell.bgcolor(),
                    cell.bold(),
                    cell.dim(),
                    cell.inverse(),
                    cell.underline(),
                ));
            }
        }
        cells
    };
    let coloured = look(&[], false);
    let never = look(&["--color", "never"], false);
    assert_ne!(never, coloured, "--color never changes the viewer's look");
    let no_color = look(&[], true);
    let differing: Vec<_> = (0..never.len())
        .filter(|&i| never[i] != no_color[i])
        .map(|i| (i / 100, i % 100, never[i], no_color[i]))
        .take(5)
        .collect();
    assert!(
        differing.is_empty(),
        "--color never looks as NO_COLOR does; (row, column, never, NO_COLOR): {differing:?}"
    );
    let fg = |cells: &[(vt100::Color, vt100::Color, bool, bool, bool, bool)]| {
        cells
            .iter()
            .filter(|c| c.0 != vt100::Color::Default)
            .count()
    };
    assert!(fg(&coloured) > 0 && fg(&never) < fg(&coloured));
}
