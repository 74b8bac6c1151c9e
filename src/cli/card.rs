//! `overhear card --tool NAME --args JSON|@FILE --result FILE|-`: one tool
//! result as the viewer shows it, and what the user and the model receive.
//! The command reads its inputs and calls the library's [`crate::card`].

use std::io::{self, IsTerminal, Read, Write};

use anyhow::{Result, anyhow};
use clap::{Args, ValueEnum};
use serde_json::Value;

use super::UsageError;
use super::render::{ColorWhen, color_depth, columns};
use crate::problem::io_problem;
use crate::render::theme::ColorDepth;
use crate::{CardOptions, CardView, Color, Styles, Theme, ToolResult};

/// `card --view`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CardViewArg {
    /// The card as the viewer and `render` show it.
    Terminal,
    /// The user view, as JSON (as `events --view user`).
    User,
    /// What the provider (the model) receives, as JSON.
    Provider,
    /// The three, each under a labelled rule.
    All,
}

/// `card --theme`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ThemeArg {
    /// For dark backgrounds.
    Dark,
    /// For light backgrounds.
    Light,
}

/// Arguments of `overhear card`.
#[derive(Debug, Clone, Args)]
pub struct CardArgs {
    /// The tool's name (its style is `conversation.tools.NAME.style`).
    #[arg(long, value_name = "NAME")]
    pub tool: String,
    /// The call's arguments: a JSON object, or `@FILE` holding one.
    #[arg(long = "args", value_name = "JSON|@FILE", default_value = "{}")]
    pub arguments: String,
    /// The result: a file holding an MCP CallToolResult (JSON) or plain text; `-` reads stdin.
    #[arg(long, value_name = "FILE|-")]
    pub result: String,
    /// A TOML file of style overrides, with JP's key paths
    /// (`[conversation.tools.NAME.style]`).
    #[arg(long, value_name = "FILE")]
    pub config: Option<String>,
    /// Set one key of this tool's style: `inline_results.user=chat` (repeatable;
    /// keys starting with `conversation.` or `style.` are full paths).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Whose view: the terminal's card, the user view, the provider's, or all three.
    #[arg(long, value_enum, default_value = "terminal")]
    pub view: CardViewArg,
    /// Columns (default: `COLUMNS`, else the terminal's width, else 80).
    #[arg(long, value_parser = columns, allow_hyphen_values = true)]
    pub width: Option<usize>,
    /// When to write colour (never when stdout is not a terminal, unless `always`).
    #[arg(long, value_enum, default_value = "auto")]
    pub color: ColorWhen,
    /// Colour theme.
    #[arg(long, value_enum, default_value = "dark")]
    pub theme: ThemeArg,
}

/// Runs `overhear card`.
pub fn run(args: &CardArgs) -> Result<()> {
    if args.tool.trim().is_empty() {
        return Err(UsageError::Option("--tool: the tool's name is empty".to_string()).into());
    }
    let styles = styles(args)?;
    let arguments = arguments(&args.arguments)?;
    let result = read_result(&args.result)?;
    let options = CardOptions::default()
        .with_width(super::terminal::print_columns(args.width))
        .with_color(match color_depth(args.color) {
            ColorDepth::None => Color::Never,
            ColorDepth::Ansi16 => Color::Ansi16,
            ColorDepth::Ansi256 => Color::Ansi256,
            ColorDepth::TrueColor => Color::TrueColor,
        })
        .with_view(match args.view {
            CardViewArg::Terminal => CardView::Terminal,
            CardViewArg::User => CardView::User,
            CardViewArg::Provider => CardView::Provider,
            CardViewArg::All => CardView::All,
        })
        .with_theme(match args.theme {
            ThemeArg::Dark => Theme::Dark,
            ThemeArg::Light => Theme::Light,
        })
        .with_styles(styles);
    let text = crate::card(&args.tool, &arguments, &result, &options);
    let mut out = io::stdout().lock();
    super::stdout_written(out.write_all(text.as_bytes()).and_then(|()| out.flush()))
}

/// `--config` then each `--set`, relative to the tool's style unless the
/// key is a full path; a mistake is a usage error.
fn styles(args: &CardArgs) -> Result<Styles, UsageError> {
    let mut styles = match &args.config {
        Some(file) => Styles::from_file(file)?,
        None => Styles::default(),
    };
    for assignment in &args.set {
        if assignment.starts_with("conversation.") || assignment.starts_with("style.") {
            styles.set(assignment)?;
        } else {
            styles.set_tool(&args.tool, assignment)?;
        }
    }
    Ok(styles)
}

/// `--args`: a JSON object given inline (a mistake is a usage error) or in
/// the file `@FILE` names (a mistake there is bad input, exit 1).
fn arguments(given: &str) -> Result<Value> {
    let (name, text, inline) = match given.strip_prefix('@') {
        Some(file) => (file.to_string(), read_text(file)?, false),
        None => ("--args".to_string(), given.to_string(), true),
    };
    let problem = match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(map)) => return Ok(Value::Object(map)),
        Ok(other) => format!(
            "expected a JSON object of arguments, found {}",
            match other {
                Value::Array(_) => "an array",
                Value::String(_) => "a string",
                Value::Number(_) => "a number",
                Value::Bool(_) => "a boolean",
                _ => "null",
            }
        ),
        Err(err) => {
            let message = err.to_string();
            let message = message
                .rfind(" at line ")
                .map_or(message.as_str(), |at| &message[..at])
                .to_string();
            format!("line {}, column {}: {message}", err.line(), err.column())
        }
    };
    let error = crate::Error::tool_result(format!("{name}: {problem}"));
    Err(if inline {
        UsageError::from(error).into()
    } else {
        error.into()
    })
}

/// `--result`: the file, or stdin for `-`, read as a tool result.
fn read_result(given: &str) -> Result<ToolResult> {
    let (name, text) = if given == "-" {
        if io::stdin().is_terminal() {
            return Err(UsageError::Option(
                "--result -: stdin is a terminal: pipe the result in, or name a file".to_string(),
            )
            .into());
        }
        let mut bytes = Vec::new();
        io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .map_err(|err| anyhow!("stdin: cannot read: {}", io_problem(&err)))?;
        ("stdin".to_string(), utf8("stdin", bytes)?)
    } else {
        (given.to_string(), read_text(given)?)
    };
    ToolResult::parse(&text).map_err(|err| anyhow!("{name}: {err}"))
}

/// A file's text (read-only); errors name the file.
fn read_text(file: &str) -> Result<String> {
    let bytes = crate::files::read(std::path::Path::new(file))
        .map_err(|err| anyhow!("{file}: cannot read: {}", io_problem(&err)))?;
    utf8(file, bytes)
}

/// Bytes as text; an error names the file and the first bad byte.
fn utf8(name: &str, bytes: Vec<u8>) -> Result<String> {
    String::from_utf8(bytes).map_err(|err| {
        anyhow!(
            "{name}: not UTF-8 text (byte {} is not part of a character)",
            err.utf8_error().valid_up_to()
        )
    })
}
