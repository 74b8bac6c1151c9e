//! `overhear render PATH`: the rendered transcript on stdout.

use std::io::{self, IsTerminal, Write};
use std::sync::Arc;

use anyhow::{Result, anyhow};
use clap::{Args, ValueEnum};

use super::{UsageError, terminal};
use crate::load::{Live, Origin};
use crate::policy::Overlay;
use crate::redact::Redactor;
use crate::render::document::{DocOptions, Document};
use crate::render::print::{CodeOverflow, PrintOptions, TurnSpec, print_document_at};
use crate::render::theme::{ColorDepth, Theme, ThemeError, detect_color_depth};
use crate::text::sanitize::SanitizeMode;
use crate::travel::{At, Moment};

/// When to write colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    /// When stdout is a terminal that can draw (`TERM` set, not `dumb`) and `NO_COLOR` is not set.
    Auto,
    /// Always (SGR sequences only).
    Always,
    /// Never.
    Never,
}

/// What to do with escape sequences found in conversation text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SanitizeArg {
    /// Remove them.
    Strip,
    /// Show each as a visible `␛`.
    Visualize,
}

impl From<SanitizeArg> for SanitizeMode {
    fn from(arg: SanitizeArg) -> Self {
        match arg {
            SanitizeArg::Strip => SanitizeMode::Strip,
            SanitizeArg::Visualize => SanitizeMode::Visualize,
        }
    }
}

/// The style options of the viewer, `render` and `export`.
#[derive(Debug, Clone, Args)]
pub struct StyleArgs {
    /// A TOML file of style overrides, with JP's key paths
    /// (`[conversation.tools.NAME.style]`).
    #[arg(long, value_name = "FILE")]
    pub config: Option<String>,
    /// Override one style key: `conversation.tools.NAME.style.KEY=VALUE` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}

impl StyleArgs {
    /// The style overlay of `--config FILE` (when given) with each `--set
    /// KEY=VALUE` applied in order, over the user's configuration file; any
    /// mistake is a usage error (exit 2).
    pub fn overlay(&self) -> Result<Overlay, UsageError> {
        let user = super::user_config::load()?;
        self.overlay_over(user.styles)
    }

    /// `--config` and `--set` over `user`, the user configuration file's styles.
    fn overlay_over(&self, user: Overlay) -> Result<Overlay, UsageError> {
        let mut overlay = match &self.config {
            Some(file) => Overlay::from_toml_file(file)?,
            None => Overlay::default(),
        };
        for assignment in &self.set {
            overlay.set(assignment)?;
        }
        Ok(overlay.with_user_layer(user))
    }
}

/// Options shared by the viewer and `render`.
#[derive(Debug, Clone, Args)]
pub struct DisplayArgs {
    /// Which view: the display policy, only what the user is told, or everything.
    #[arg(long, value_enum, default_value = "terminal")]
    pub view: super::choices::DisplayView,
    /// `--config` and `--set`.
    #[command(flatten)]
    pub style: StyleArgs,
    /// Colour theme: `dark`, `light` or a path to a theme TOML file [default:
    /// the user configuration's `theme`, else dark].
    #[arg(long)]
    pub theme: Option<String>,
    /// Escape sequences in conversation text: removed, or shown as `␛`.
    #[arg(long, value_enum, default_value = "strip")]
    pub sanitize: SanitizeArg,
    /// Replace secrets (API keys, tokens, private keys, passwords) with
    /// `[redacted RULE]`, e.g. for a screen share (docs/export.md).
    #[arg(long, overrides_with = "no_redact")]
    pub redact: bool,
    /// Show secrets as they are (the default here; `export` redacts unless told this).
    #[arg(long, overrides_with = "redact")]
    pub no_redact: bool,
}

/// The display options, checked before anything is read: the style overlay
/// of `--config` and `--set`, and the theme of `--theme` (not yet adapted to
/// a colour depth).
#[derive(Debug, Clone)]
pub struct Checked {
    /// What `--config` and `--set` ask for.
    pub overlay: Overlay,
    /// The theme, at full colour.
    pub theme: Theme,
    /// The compiled redaction rules, when `--redact` asks for them.
    pub redactor: Option<Arc<Redactor>>,
    /// The user configuration's `[view]` table (the viewer's remembered choices).
    pub view: super::view_config::ViewConfig,
}

impl DisplayArgs {
    /// Reads the user's configuration file and `--config`, applies each
    /// `--set` and loads `--theme` (else the configuration's `theme`); any
    /// mistake is a usage error (exit 2).
    pub fn check(&self) -> Result<Checked, UsageError> {
        let user = super::user_config::load()?;
        let overlay = self.style.overlay_over(user.styles)?;
        let (theme_name, origin) = match (&self.theme, &user.theme) {
            (Some(theme), _) => (theme.as_str(), "--theme".to_owned()),
            (None, Some(theme)) => (theme.as_str(), user_config_origin()),
            (None, None) => ("dark", "--theme".to_owned()),
        };
        let theme = Theme::load(theme_name).map_err(|err| {
            UsageError::Theme(match err {
                // The name may not be a file at all: name where it was given.
                ThemeError::NotFound { .. } => format!("{origin} {err}"),
                _ => err.to_string(),
            })
        })?;
        let redactor = if self.redact {
            Some(Arc::new(Redactor::builtin()?))
        } else {
            None
        };
        Ok(Checked {
            overlay,
            theme,
            redactor,
            view: user.view,
        })
    }
}

/// Where a theme named by the user's configuration file was given, for errors.
fn user_config_origin() -> String {
    match super::user_config::path() {
        Some(file) => format!("{}: theme", file.display()),
        None => "theme".to_owned(),
    }
}

/// `--width` given something that is not a number of columns in range.
#[derive(Debug, thiserror::Error)]
#[error("expected a number of columns from 1 to {max}, e.g. 100", max = terminal::MAX_COLUMNS)]
pub(super) struct NotAWidth;

/// `--width`: a number of columns, from 1 to [`terminal::MAX_COLUMNS`].
pub(super) fn columns(text: &str) -> Result<usize, NotAWidth> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=terminal::MAX_COLUMNS).contains(&n) => Ok(n),
        _ => Err(NotAWidth),
    }
}

/// What to do with a line of code or JSON wider than the width, when printing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum WrapWhen {
    /// Wrap it (printed output has no way to scroll sideways).
    Auto,
    /// Cut it at the width, ending in `…`.
    Never,
    /// Wrap it at any character, with `↪` in the gutter of each continuation.
    Character,
}

impl From<WrapWhen> for CodeOverflow {
    fn from(wrap: WrapWhen) -> Self {
        match wrap {
            WrapWhen::Auto | WrapWhen::Character => CodeOverflow::Wrap,
            WrapWhen::Never => CodeOverflow::Cut,
        }
    }
}

/// Options of printed output: `render`, and the viewer's command line when
/// it prints instead (stdout not a terminal, `TERM=dumb`). The viewer itself
/// ignores them.
#[derive(Debug, Clone, Args)]
pub struct PrintArgs {
    /// Columns (default: `COLUMNS`, else the terminal's width, else 80).
    #[arg(long, value_parser = columns, allow_hyphen_values = true)]
    pub width: Option<usize>,
    /// When to write colour (`never` holds in the viewer too).
    #[arg(long, value_enum, default_value = "auto")]
    pub color: ColorWhen,
    /// Which turns: `3`, `2..4`, `-1` (the last), `-3..-1`, `2..`.
    #[arg(long, value_name = "SPEC", allow_hyphen_values = true)]
    pub turn: Option<TurnSpec>,
    /// Lines of code and JSON wider than the width: wrapped, or cut with `…`.
    #[arg(long, value_enum, default_value = "auto")]
    pub wrap: WrapWhen,
}

impl Default for PrintArgs {
    fn default() -> Self {
        PrintArgs {
            width: None,
            color: ColorWhen::Auto,
            turn: None,
            wrap: WrapWhen::Auto,
        }
    }
}

/// Arguments of `overhear render`.
#[derive(Debug, Clone, Args)]
pub struct RenderArgs {
    /// The conversation: events.json, conversation folder, JP workspace, eve
    /// stream, Claude Code or Codex transcript, or `-` [default: the latest
    /// conversation of the current folder].
    pub path: Option<String>,
    /// Width, colour, turns, wrapping.
    #[command(flatten)]
    pub print: PrintArgs,
    /// Display options.
    #[command(flatten)]
    pub display: DisplayArgs,
    /// `--at-event N`, `--at TIME`: as it was then.
    #[command(flatten, next_help_heading = "Time travel")]
    pub at: super::travel::AtArgs,
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// The colour depth to write with, or `None` for no colour.
pub(super) fn color_depth(when: ColorWhen) -> ColorDepth {
    match when {
        ColorWhen::Never => ColorDepth::None,
        ColorWhen::Auto if !io::stdout().is_terminal() => ColorDepth::None,
        // A terminal that cannot draw (`TERM=dumb`, or none named) gets no colour either.
        ColorWhen::Auto if !env("TERM").is_some_and(|term| terminal::term_can_draw(&term)) => {
            ColorDepth::None
        }
        ColorWhen::Auto => detect_color_depth(env),
        // An explicit request wins over NO_COLOR; the depth still follows the terminal's claims.
        ColorWhen::Always => {
            match detect_color_depth(|name| if name == "NO_COLOR" { None } else { env(name) }) {
                ColorDepth::None => ColorDepth::Ansi16,
                depth => depth,
            }
        }
    }
}

/// `overhear -` and `overhear render -` with a terminal on stdin: there is
/// no stream to read, only the keyboard (a usage error, exit 2).
pub(super) fn refuse_terminal_stdin(path: Option<&str>) -> Result<(), UsageError> {
    if path == Some("-") && io::stdin().is_terminal() {
        return Err(UsageError::StdinIsTerminal);
    }
    Ok(())
}

/// Runs `overhear render`.
pub fn run(args: &RenderArgs, checked: Checked) -> Result<()> {
    print(
        args.path.as_deref(),
        &args.print,
        &args.display,
        checked,
        args.at.at().as_ref(),
    )
}

/// Prints the conversation `path` names (`None`: the workspace around the
/// current folder) as `args` and `display` ask, as it was `at` that point of
/// its history when one is given.
pub(super) fn print(
    path: Option<&str>,
    args: &PrintArgs,
    display: &DisplayArgs,
    checked: Checked,
    at: Option<&At>,
) -> Result<()> {
    refuse_terminal_stdin(path)?;
    let (loaded, moment) = match (at, &args.turn) {
        // Only the chosen turns are decoded.
        (None, Some(spec)) => {
            let shown = |number: usize, total: usize| spec.contains(number, total);
            (Live::read_turns_at(path, &shown, spec.last_turns())?, None)
        }
        _ => super::travel::read(path, at)?,
    };
    print_loaded(loaded, moment, args, display, checked)
}

/// Prints a conversation read already (as it was at `moment`, when given)
/// as `args` and `display` ask.
pub(super) fn print_loaded(
    mut loaded: Live,
    moment: Option<Moment>,
    args: &PrintArgs,
    display: &DisplayArgs,
    checked: Checked,
) -> Result<()> {
    if let Some(redactor) = &checked.redactor {
        loaded.redact_with(redactor.clone());
    }
    if let Some(spec) = &args.turn {
        spec.check(loaded.conversation.turn_count())
            .map_err(|err| anyhow!("{}: {err}", source_name(&loaded.origin)))?;
    }
    for warning in &loaded.warnings {
        super::report(format_args!("overhear: warning: {warning}"));
    }
    let depth = color_depth(args.color);
    let theme = checked.theme.with_depth(depth);
    let width = terminal::print_columns(args.width);
    let doc_options = DocOptions {
        view: display.view.into(),
        overlay: checked.overlay,
        finished: moment.map_or_else(|| loaded.finished(), |m| m.finished),
    };
    let doc = match &args.turn {
        Some(spec) => {
            let total = loaded.conversation.turn_count();
            let shown = |number: usize| spec.contains(number, total);
            report_warnings(
                &loaded,
                Document::build_turns(&loaded.conversation, &doc_options, &shown),
            )
        }
        None => build_document(&loaded, &doc_options),
    };
    let options = PrintOptions {
        width,
        color: depth != ColorDepth::None,
        theme,
        sanitize: display.sanitize.into(),
        turns: args.turn,
        code: args.wrap.into(),
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let now = moment.and_then(|m| m.now_ms);
    let printed = print_document_at(&mut out, &loaded.conversation, &doc, &options, now)
        .and_then(|()| out.flush());
    super::leave_to_exit((doc, loaded));
    super::stdout_written(printed)
}

/// The file a conversation was read from, as errors name it.
pub(super) fn source_name(origin: &Origin) -> String {
    match origin {
        Origin::Jp(dir) => dir.events_path().display().to_string(),
        Origin::Eve(path) | Origin::Stream(path) => path.display().to_string(),
    }
}

/// The document of `loaded` for printing, its style warnings reported on
/// stderr (naming the file they come from).
fn build_document(loaded: &Live, options: &DocOptions) -> Document {
    report_warnings(loaded, Document::build(&loaded.conversation, options))
}

/// Reports on stderr the style warnings of the document `options` make of
/// `loaded`, without its blocks: for an export, which makes them a turn at
/// a time.
pub(super) fn report_style_warnings(loaded: &Live, options: &DocOptions) {
    let no_blocks = |_: usize| false;
    report_warnings(
        loaded,
        Document::build_turns(&loaded.conversation, options, &no_blocks),
    );
}

/// Reports the style warnings of `doc`, the document of `loaded`, on
/// stderr (naming the file they come from).
fn report_warnings(loaded: &Live, doc: Document) -> Document {
    for warning in &doc.warnings {
        super::report(format_args!(
            "overhear: warning: {}",
            loaded.describe_style_warning(warning)
        ));
    }
    doc
}
