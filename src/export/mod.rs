//! Export: a conversation as one Markdown or one self-contained HTML file,
//! safe to share.
//!
//! Not a second renderer: the export walks the same [`Document`] that
//! `overhear render` prints and lays out each block with the same
//! [`layout`]; only the last stage differs. Speech keeps its Markdown source
//! (sanitized) in `.md`; everything else is the laid-out lines, as plain text
//! (Markdown) or as styled spans coloured by the dark and the light theme
//! (HTML, which picks one by `prefers-color-scheme`). Redaction happens
//! before, on the conversation itself ([`crate::redact`]).

mod figures;
mod html;
pub mod index;
pub mod leftover;
pub mod manifest;
mod markdown;
mod tilde;

pub use figures::Figures;
pub use html::{PAGE_LIMIT, page_name};
#[cfg(any(test, feature = "internals"))]
pub use html::{TAGS as HTML_TAGS, foreign_tag};
pub use tilde::Tilde;

use std::io::{self, Write};

use ratatui::text::Line;

use crate::model::Conversation;
use crate::render::code_wrap::wrap_long_line;
use crate::render::document::{BlockKind, DocBlock, Document};
use crate::render::layout::{Fold, LayoutContext, full_text, head_height, is_foldable, layout_as};
use crate::render::lazy_highlight::Highlighting;
use crate::render::print::TurnSpec;
use crate::render::theme::Theme;
use crate::text::sanitize::{SanitizeMode, sanitize};

/// Columns the export lays blocks out at: lines of code wider than this are
/// wrapped with `↪`, as `render` does.
pub const EXPORT_WIDTH: usize = 100;

/// The file format of an export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    /// Markdown for GitHub: turn headings, speech as Markdown, tool cards
    /// and reasoning in `<details>`.
    Md,
    /// One self-contained HTML file (inline CSS, no script, no external request).
    Html,
}

/// How to export.
#[derive(Debug, Clone)]
pub struct ExportOptions {
    /// Markdown or HTML.
    pub format: ExportFormat,
    /// Which turns; all when `None`.
    pub turns: Option<TurnSpec>,
    /// The conversation's title, for the HTML `<title>` and the first heading.
    pub title: String,
    /// How much of each tool result and diff a card's body holds.
    pub results: Results,
    /// The user's home folder (`/home/ada`), written `~` wherever it
    /// starts a path in the export: a shared page tells no local user name.
    pub home: Option<String>,
    /// The agent that wrote the conversation (`Claude Code`), for the HTML
    /// page's header.
    pub agent: Option<String>,
    /// The folder the session ran in, for the HTML page's header (written
    /// `~/…` like every path under [`ExportOptions::home`]).
    pub project: Option<String>,
}

/// How much of each tool result and diff an export's cards hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Results {
    /// Everything: no terminal line budget, up to a cap per result
    /// ([`crate::render::layout::WHOLE_RESULT_LINES`] lines or
    /// [`crate::render::layout::WHOLE_RESULT_BYTES`] bytes) past which a
    /// note says exactly what was left out.
    #[default]
    Whole,
    /// As the terminal shows them: cut to the policy's line budget, diffs
    /// to their first lines.
    Terminal,
}

/// A block laid out for export, in both themes.
pub(crate) struct Laid {
    /// The laid-out lines with the dark theme's colours.
    pub dark: Vec<Line<'static>>,
    /// The same lines with the light theme's colours.
    pub light: Vec<Line<'static>>,
}

/// One part of an export, in reading order.
pub(crate) enum Part {
    /// A turn opens: its rule's words (`turn 3 · 2026-04-10 17:04:00 UTC`).
    Turn { title: String },
    /// Speech (user, assistant, a tool's speech): the label of its pane,
    /// its Markdown source (sanitized; `None` for a continuation piece) and
    /// its laid-out pane.
    Speech {
        label: String,
        source: Option<String>,
        laid: Laid,
    },
    /// A foldable block (tool card, reasoning): its folded line is the
    /// summary. `open`/`close` say whether this piece starts or ends it.
    Fold {
        summary: Laid,
        body: Laid,
        open: bool,
        close: bool,
    },
    /// Anything else, as laid out.
    Lines(Laid),
}

/// Writes the export of `doc` (built from `conv`, already redacted when
/// asked) to `out`, as one file (an HTML page is not cut into pages:
/// [`export_files`] does that), the home folder written `~` as it streams
/// out. Markdown is written as it is laid out, block by block.
pub fn export(
    out: &mut impl Write,
    conv: &Conversation,
    doc: &Document,
    options: &ExportOptions,
) -> io::Result<()> {
    let mut out = Tilde::new(out, options.home.as_deref().unwrap_or(""));
    match options.format {
        ExportFormat::Md => {
            let themes = Themes::new();
            let layouts = Layouts::new(conv, &themes, options.results);
            let total = conv.turns.len();
            let chosen = doc
                .blocks
                .iter()
                .filter(|block| options.turns.is_none_or(|spec| spec.contains(block.turn, total)))
                .filter_map(|block| part_of(block, conv, &layouts));
            markdown::write(&mut out, &options.title, chosen)?;
        }
        ExportFormat::Html => {
            for page in html_pages(conv, doc, options, "export.html", None) {
                out.write_all(page.as_bytes())?;
            }
        }
    }
    out.finish()?.flush()
}

/// One file of an export.
pub struct ExportFile {
    /// Its name: the output's, or `NAME-2.html`, `NAME-3.html`, … for the
    /// further pages of a large HTML export ([`page_name`]).
    pub name: String,
    /// Its content.
    pub bytes: Vec<u8>,
}

/// The export of `doc` as the files to write for an output named `name`:
/// one Markdown file, or HTML pages of at most `limit` bytes each (cut
/// between turns or blocks; [`PAGE_LIMIT`] for `overhear export`) that
/// link to one another.
pub fn export_files(
    conv: &Conversation,
    doc: &Document,
    options: &ExportOptions,
    name: &str,
    limit: usize,
) -> io::Result<Vec<ExportFile>> {
    let pages = match options.format {
        ExportFormat::Md => {
            let mut page = Vec::new();
            export(&mut page, conv, doc, options)?;
            return Ok(vec![ExportFile {
                name: name.to_string(),
                bytes: page,
            }]);
        }
        ExportFormat::Html => html_pages(conv, doc, options, name, Some(limit)),
    };
    Ok(pages
        .into_iter()
        .enumerate()
        .map(|(index, page)| ExportFile {
            name: page_name(name, index),
            bytes: tilde(page, options.home.as_deref()),
        })
        .collect())
}

/// The HTML pages of the export.
fn html_pages(
    conv: &Conversation,
    doc: &Document,
    options: &ExportOptions,
    name: &str,
    limit: Option<usize>,
) -> Vec<String> {
    let built = html::build(conv, doc, options);
    html::write_pages(
        &built,
        &options.title,
        options.agent.as_deref(),
        options.project.as_deref(),
        name,
        limit,
    )
}

/// `page` with `home` written `~` ([`Tilde`]).
fn tilde(page: String, home: Option<&str>) -> Vec<u8> {
    let Some(home) = home else {
        return page.into_bytes();
    };
    let mut out = Tilde::new(Vec::with_capacity(page.len()), home);
    // Writing to memory cannot fail.
    let _ = out.write_all(page.as_bytes());
    out.finish().unwrap_or_default()
}

/// The dark and the light theme an export lays blocks out with.
pub(crate) struct Themes {
    dark: Theme,
    light: Theme,
}

impl Themes {
    /// The built-in dark and light themes.
    pub(crate) fn new() -> Themes {
        Themes {
            dark: Theme::dark(),
            light: Theme::builtin("light").unwrap_or_else(Theme::dark),
        }
    }
}

/// How an export lays out a block: at [`EXPORT_WIDTH`], in both themes,
/// open blocks as `results` says.
pub(crate) struct Layouts<'a> {
    /// The dark theme's layout.
    pub dark: LayoutContext<'a>,
    /// The light theme's layout.
    pub light: LayoutContext<'a>,
    open: Fold,
}

impl<'a> Layouts<'a> {
    /// The layouts of `conv`'s blocks with `themes`.
    pub(crate) fn new(conv: &'a Conversation, themes: &'a Themes, results: Results) -> Self {
        let context = |theme| LayoutContext {
            conv,
            theme,
            width: EXPORT_WIDTH,
            code_width: Some(usize::MAX / 4),
            sanitize: SanitizeMode::Strip,
            highlighting: Highlighting::Whole,
        };
        Layouts {
            dark: context(&themes.dark),
            light: context(&themes.light),
            open: match results {
                Results::Whole => Fold::Whole,
                Results::Terminal => Fold::Policy,
            },
        }
    }

    /// `block` laid out folded (its one summary line) or open.
    pub(crate) fn lay(&self, block: &DocBlock, folded: bool) -> Laid {
        let fold = if folded { Fold::Folded } else { self.open };
        Laid {
            dark: wrapped(layout_as(block, fold, &self.dark)),
            light: wrapped(layout_as(block, fold, &self.light)),
        }
    }
}

/// The part of one block, laid out when it is asked for: the export never
/// holds the laid-out page.
fn part_of(block: &DocBlock, conv: &Conversation, layouts: &Layouts<'_>) -> Option<Part> {
    let lay = |block: &DocBlock, folded: bool| layouts.lay(block, folded);
    let dark = &layouts.dark;
    let first = block.piece.as_ref().is_none_or(|p| p.is_first());
    let last = block.piece.as_ref().is_none_or(|p| p.last);
    let part = match &block.kind {
        BlockKind::TurnRule { .. } => Part::Turn {
            title: rule_words(&lay(block, false).dark),
        },
        BlockKind::UserMessage { .. }
        | BlockKind::AssistantMessage { .. }
        | BlockKind::ToolSpeech(_) => {
            let laid = lay(block, false);
            Part::Speech {
                label: laid
                    .dark
                    .first()
                    .map(|l| rule_words(std::slice::from_ref(l)))
                    .unwrap_or_default(),
                source: first
                    .then(|| full_text(block, conv))
                    .flatten()
                    .map(|text| sanitize(&text, SanitizeMode::Strip).into_owned()),
                laid,
            }
        }
        _ if is_foldable(block) => {
            let mut body = lay(block, false);
            let mut summary = if first {
                lay(block, true)
            } else {
                Laid {
                    dark: Vec::new(),
                    light: Vec::new(),
                }
            };
            // `<details>` draws its own marker: the folded line's `▸` goes.
            summary.dark.iter_mut().take(1).for_each(strip_marker);
            summary.light.iter_mut().take(1).for_each(strip_marker);
            // The folded line stands for the block's head: not repeated
            // inside, however many lines the head wraps to.
            let card = matches!(block.kind, BlockKind::ToolCard(_));
            if first && (card || repeats_head(summary.dark.first(), body.dark.first())) {
                let height = head_height(block, dark).clamp(1, body.dark.len().max(1));
                let height = height.min(body.dark.len()).min(body.light.len());
                let head: (Vec<_>, Vec<_>) = (
                    body.dark.drain(..height).collect(),
                    body.light.drain(..height).collect(),
                );
                // A card that is all head (its results hidden) does not fold.
                if last && body.dark.iter().all(|l| plain(Some(l)).trim().is_empty()) {
                    body.dark.splice(0..0, head.0);
                    body.light.splice(0..0, head.1);
                    return Some(Part::Lines(body));
                }
            }
            Part::Fold {
                summary,
                body,
                open: first,
                close: last,
            }
        }
        _ => Part::Lines(lay(block, false)),
    };
    Some(part)
}

/// Removes the fold marker `▸ ` that starts a folded line.
pub(crate) fn strip_marker(line: &mut Line<'static>) {
    if let Some(span) = line.spans.first_mut()
        && let Some(rest) = span.content.strip_prefix(FOLD_MARKER)
    {
        span.content = rest.to_string().into();
    }
    if line.spans.first().is_some_and(|s| s.content.is_empty()) {
        line.spans.remove(0);
    }
}

/// What starts a folded line.
const FOLD_MARKER: &str = "▸ ";

/// Whether the open block's first line (`● name`, `✗ name · failed`) says
/// nothing the summary does not: the summary starts with its words.
fn repeats_head(summary: Option<&Line<'_>>, head: Option<&Line<'_>>) -> bool {
    let (summary, head) = (plain(summary), plain(head));
    let words = head
        .trim()
        .split_once(' ')
        .map_or("", |(_, rest)| rest.trim());
    !words.is_empty() && summary.trim_start().starts_with(words)
}

/// Lines as `render` prints them: wider code lines wrapped at the width.
fn wrapped(lines: Vec<Line<'static>>) -> Vec<Line<'static>> {
    lines
        .into_iter()
        .flat_map(|line| wrap_long_line(line, EXPORT_WIDTH))
        .collect()
}

/// The text of a line, or "" for none.
pub(crate) fn plain(line: Option<&Line<'_>>) -> String {
    line.map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .unwrap_or_default()
}

/// The words of a rule line (`── user ──── delivered ──` → `user · delivered`).
fn rule_words(lines: &[Line<'_>]) -> String {
    let text = plain(lines.iter().find(|l| !plain(Some(l)).trim().is_empty()));
    text.split('─')
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" · ")
}

