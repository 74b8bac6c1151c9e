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

mod html;
mod markdown;

#[cfg(any(test, feature = "internals"))]
pub use html::{TAGS as HTML_TAGS, foreign_tag};

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
    Turn { number: usize, title: String },
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
/// asked) to `out`.
pub fn export(
    out: &mut impl Write,
    conv: &Conversation,
    doc: &Document,
    options: &ExportOptions,
) -> io::Result<()> {
    let parts = parts(conv, doc, options);
    let mut page = Vec::new();
    match options.format {
        ExportFormat::Md => markdown::write(&mut page, &options.title, &parts),
        ExportFormat::Html => html::write(&mut page, &options.title, &parts),
    }?;
    drop(parts);
    match options.home.as_deref() {
        Some(home) => out.write_all(tilde(&String::from_utf8_lossy(&page), home).as_bytes()),
        None => out.write_all(&page),
    }?;
    out.flush()
}

/// `page` with `home` written `~` wherever it is a whole path or starts
/// one (`/home/ada/src` → `~/src`; `/home/adam` and `/x/home/ada` are other
/// folders and kept).
fn tilde(page: &str, home: &str) -> String {
    if home.is_empty() {
        return page.to_string();
    }
    let part = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/');
    let mut out = String::with_capacity(page.len());
    let mut rest = page;
    let mut before: Option<char> = None;
    while let Some(at) = rest.find(home) {
        let after = rest[at + home.len()..].chars().next();
        let prev = rest[..at].chars().next_back().or(before);
        let starts = !prev.is_some_and(part);
        let ends = after.is_none_or(|c| c == '/' || !part(c));
        out.push_str(&rest[..at]);
        out.push_str(if starts && ends { "~" } else { home });
        before = home.chars().next_back();
        rest = &rest[at + home.len()..];
    }
    out.push_str(rest);
    out
}

/// The parts of the blocks of the chosen turns.
fn parts(conv: &Conversation, doc: &Document, options: &ExportOptions) -> Vec<Part> {
    let turns = options.turns;
    let open = match options.results {
        Results::Whole => Fold::Whole,
        Results::Terminal => Fold::Policy,
    };
    let dark_theme = Theme::dark();
    let light_theme = Theme::builtin("light").unwrap_or_else(Theme::dark);
    let context = |theme| LayoutContext {
        conv,
        theme,
        width: EXPORT_WIDTH,
        code_width: Some(usize::MAX / 4),
        sanitize: SanitizeMode::Strip,
        highlighting: Highlighting::Whole,
    };
    let (dark, light) = (context(&dark_theme), context(&light_theme));
    let lay = |block: &DocBlock, folded: bool| {
        let fold = if folded { Fold::Folded } else { open };
        Laid {
            dark: wrapped(layout_as(block, fold, &dark)),
            light: wrapped(layout_as(block, fold, &light)),
        }
    };
    let total = conv.turns.len();
    let mut parts = Vec::new();
    for block in &doc.blocks {
        if turns.is_some_and(|spec| !spec.contains(block.turn, total)) {
            continue;
        }
        let first = block.piece.as_ref().is_none_or(|p| p.is_first());
        let last = block.piece.as_ref().is_none_or(|p| p.last);
        let part = match &block.kind {
            BlockKind::TurnRule { number, .. } => Part::Turn {
                number: *number,
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
                    let height = head_height(block, &dark).clamp(1, body.dark.len().max(1));
                    let height = height.min(body.dark.len()).min(body.light.len());
                    let head: (Vec<_>, Vec<_>) = (
                        body.dark.drain(..height).collect(),
                        body.light.drain(..height).collect(),
                    );
                    // A card that is all head (its results hidden) does not fold.
                    if last && body.dark.iter().all(|l| plain(Some(l)).trim().is_empty()) {
                        body.dark.splice(0..0, head.0);
                        body.light.splice(0..0, head.1);
                        parts.push(Part::Lines(body));
                        continue;
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
        parts.push(part);
    }
    parts
}

/// Removes the fold marker `▸ ` that starts a folded line.
fn strip_marker(line: &mut Line<'static>) {
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

#[cfg(test)]
mod tests;
