//! `overhear completions SHELL` and `overhear man`: the files a shell and
//! `man` read, generated from the command line's own definition (clap_complete,
//! clap_mangen), so they never fall behind the options.

use std::io::{self, Write};

use anyhow::{Context, Result};
use clap::CommandFactory;
use clap_complete::Shell;

use super::Cli;
use crate::text::sanitize::{SanitizeMode, sanitize};

/// Prints the completion script for `shell` to stdout.
pub(crate) fn completions(shell: Shell) -> Result<()> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "overhear", &mut script);
    print(script)
}

/// Prints the manual page (roff) to stdout.
pub(crate) fn man() -> Result<()> {
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut page)
        .context("the manual page: cannot be generated")?;
    print(page)
}

/// Writes generated text to stdout through the text layer, as every byte
/// overhear prints goes (it holds only overhear's own help text, so the
/// sanitizer leaves it as it is).
fn print(bytes: Vec<u8>) -> Result<()> {
    let text = String::from_utf8_lossy(&bytes);
    let text = sanitize(&text, SanitizeMode::Strip);
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        // A closed pipe (`| head`) is not an error.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("stdout: cannot be written"),
    }
}
