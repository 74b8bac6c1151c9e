//! Usage errors as one line, like every other error of overhear:
//! `overhear: <option> <value>: <problem>[; <fix>]`.
//!
//! clap's own report spreads over several lines (the error, a tip, the usage,
//! a pointer to `--help`). The pieces are in the error's context; this puts
//! them on one line, the problem first, the suggestion or the usage after it.

use std::error::Error as _;

use clap::error::{ContextKind, ErrorKind};

/// A clap error as one line (without the `overhear: ` prefix).
pub fn one_line(err: &clap::Error) -> String {
    let context = |kind: ContextKind| err.get(kind).map(ToString::to_string);
    // `--turn <SPEC>` → `--turn`; a positional `<PATH>` stays as it is.
    let option = context(ContextKind::InvalidArg).map(|arg| match arg.split_once(' ') {
        Some((name, _)) if name.starts_with('-') => name.to_string(),
        _ => arg,
    });
    let value = context(ContextKind::InvalidValue);
    let problem = match (err.kind(), &option, &value) {
        (ErrorKind::ValueValidation, Some(option), Some(value)) => {
            let reason = err
                .source()
                .map(ToString::to_string)
                .unwrap_or_else(|| "not accepted".to_string());
            format!("{option} {value}: {reason}")
        }
        (ErrorKind::InvalidValue, Some(option), Some(value)) if value.is_empty() => {
            match context(ContextKind::ValidValue) {
                Some(valid) => format!("{option}: a value is required, one of {valid}"),
                None => format!("{option}: a value is required"),
            }
        }
        (ErrorKind::InvalidValue, Some(option), Some(value)) => {
            match context(ContextKind::ValidValue) {
                Some(valid) => format!("{option} {value}: expected one of {valid}"),
                None => format!("{option} {value}: not accepted"),
            }
        }
        (ErrorKind::UnknownArgument, Some(arg), _) if arg.starts_with('-') => {
            format!("{arg}: no such option")
        }
        (ErrorKind::UnknownArgument, Some(arg), _) => format!("{arg}: unexpected argument"),
        (ErrorKind::MissingRequiredArgument, Some(args), _) => format!("{args} is missing"),
        _ => first_line(err),
    };
    let suggestion = context(ContextKind::SuggestedArg)
        .or_else(|| context(ContextKind::SuggestedValue))
        .or_else(|| context(ContextKind::SuggestedSubcommand));
    if let Some(suggestion) = suggestion {
        return format!("{problem}; did you mean {suggestion}?");
    }
    let usage = context(ContextKind::Usage).unwrap_or_default();
    let usage = usage.lines().next().unwrap_or("").trim();
    let usage = usage.strip_prefix("Usage: ").unwrap_or(usage);
    match err.kind() {
        // The problem already says what is expected.
        ErrorKind::ValueValidation | ErrorKind::InvalidValue => problem,
        ErrorKind::MissingRequiredArgument if !usage.is_empty() => {
            format!("{problem}; usage: {usage}")
        }
        _ => {
            // `overhear render <PATH>` → `overhear render` (and
            // `overhear render --at-event <N> <PATH>`, a conflict's usage).
            let command: Vec<&str> = usage
                .split_whitespace()
                .take_while(|word| !word.starts_with(['<', '[', '-']))
                .collect();
            let command = if command.is_empty() {
                "overhear".to_string()
            } else {
                command.join(" ")
            };
            format!("{problem}; `{command} --help` lists the options")
        }
    }
}

/// clap's own first line, without `error: `.
fn first_line(err: &clap::Error) -> String {
    let rendered = err.render().to_string();
    let line = rendered.lines().next().unwrap_or("").trim();
    line.strip_prefix("error: ").unwrap_or(line).to_string()
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::cli::Cli;

    fn error(args: &[&str]) -> String {
        let err = Cli::try_parse_from(args).unwrap_err();
        one_line(&err)
    }

    #[test]
    fn every_usage_error_is_one_line_naming_the_option() {
        let cases = [
            (
                &["overhear", "render", "x", "--turn", "0"][..],
                "--turn 0: turns are numbered from 1 (-1 is the last)",
            ),
            (
                &["overhear", "render", "x", "--view", "nope"][..],
                "--view nope: expected one of terminal, user, raw",
            ),
            (
                &[
                    "overhear",
                    "render",
                    "x",
                    "--at-event",
                    "3",
                    "--at",
                    "2026-04-10T17:07:09Z",
                ][..],
                "the argument '--at-event <N>' cannot be used with '--at <TIME>'; \
                 `overhear render --help` lists the options",
            ),
            (
                &["overhear", "render", "x", "--widht", "3"][..],
                "--widht: no such option; did you mean --width?",
            ),
            (
                &["overhear", "render", "x", "--agent", "nope"][..],
                "--agent nope: expected one of claude, codex, jp, eve, gemini, qwen",
            ),
        ];
        for (args, expected) in cases {
            let line = error(args);
            assert!(!line.contains('\n'), "{line:?}");
            assert!(line.starts_with(expected), "{args:?}: {line}");
        }
    }
}
