//! Command line: clap definitions and the commands they run.

/// Runs the command line and returns the process exit code.
pub fn main() -> i32 {
    0
}
