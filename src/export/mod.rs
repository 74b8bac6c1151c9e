//! Export: a conversation as one Markdown or one self-contained HTML file,
//! safe to share.
//!
//! Not a second renderer: the export walks the same blocks that `overhear
//! render` prints, a turn at a time ([`Document::turn_by_turn`]), and lays
//! out each block with the same [`layout`]; only the last stage differs.
//! Speech keeps its Markdown source (sanitized) in `.md`; everything else is
//! the laid-out lines, as plain text (Markdown) or as styled spans coloured
//! by the dark and the light theme (HTML, which picks one by
//! `prefers-color-scheme`; laid out once, [`Roles`]). Redaction happens
//! before, on the conversation itself ([`crate::redact`]).

mod figures;
mod forget;
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

use ratatui::style::{Color, Style};
use ratatui::text::Line;

use crate::model::Conversation;
use crate::render::code_wrap::wrap_long_line;
use crate::render::document::{BlockKind, DocBlock, DocOptions, Document};
use crate::render::layout::{
    Fold, LayoutContext, full_text, head_height, is_foldable, layout_as, layout_headless,
    result_gutter_spans,
};
use crate::render::lazy_highlight::Highlighting;
use crate::render::print::TurnSpec;
use crate::render::theme::Theme;
use crate::text::sanitize::{SanitizeMode, sanitize_cow};
use crate::text::width::line_fits;

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

/// A block laid out for export, once, in the colours of [`Roles`].
pub(crate) struct Laid {
    /// The laid-out lines, each colour a role's marker ([`Roles::pair`]
    /// gives the dark and the light theme's colours of a span).
    pub lines: Vec<Line<'static>>,
    /// The same block laid out with the light theme, only when its lines
    /// carry colours no theme element gave (code highlighted by syntect,
    /// whose light colours cannot be derived from the dark ones) and the
    /// export shows colours (HTML).
    pub light: Option<Vec<Line<'static>>>,
}

impl Laid {
    /// Removes the first `height` lines (a block's head).
    pub(crate) fn drop_head(&mut self, height: usize) {
        let height = match &self.light {
            Some(light) => height.min(light.len()),
            None => height,
        }
        .min(self.lines.len());
        self.lines.drain(..height);
        if let Some(light) = &mut self.light {
            light.drain(..height);
        }
    }
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

/// Writes the export of `conv` (already redacted when asked), as the
/// document `doc_options` asks for, to `out`, as one file (an HTML page is not
/// cut into pages: [`export_files`] does that), the home folder written
/// `~` as it streams out. Markdown is written as it is laid out, block by
/// block; HTML lays the conversation out a turn at a time and forgets what
/// it laid out, so `conv`'s texts are gone afterwards (its turns, calls,
/// ids and facts stay).
pub fn export(
    out: &mut impl Write,
    conv: &mut Conversation,
    doc_options: &DocOptions,
    options: &ExportOptions,
) -> io::Result<()> {
    let mut out = Tilde::new(out, options.home.as_deref().unwrap_or(""));
    match options.format {
        ExportFormat::Md => markdown_to(&mut out, conv, doc_options, options)?,
        ExportFormat::Html => {
            html_pages(conv, doc_options, options, "export.html", None).write(0, &mut out)?
        }
    }
    out.finish()?.flush()
}

/// The Markdown export, written as it is laid out.
fn markdown_to(
    out: &mut impl Write,
    conv: &Conversation,
    doc_options: &DocOptions,
    options: &ExportOptions,
) -> io::Result<()> {
    let roles = Roles::new();
    let layouts = Layouts::new(conv, &roles, options.results, false);
    let total = conv.turns.len();
    let mut walk = Document::turn_by_turn(conv, doc_options);
    let chosen = std::iter::from_fn(|| walk.next(conv))
        .flatten()
        .filter(|block| options.turns.is_none_or(|spec| spec.contains(block.turn, total)))
        .filter_map(|block| part_of(&block, conv, &layouts));
    markdown::write(out, &options.title, chosen)
}

/// The files of an export, each written when asked ([`ExportFiles::write`])
/// straight to its destination: one Markdown file, or HTML pages.
pub struct ExportFiles<'a> {
    options: &'a ExportOptions,
    name: String,
    files: Files<'a>,
}

/// What an export's files are written from.
enum Files<'a> {
    /// One Markdown file, laid out as it is written.
    Markdown {
        conv: &'a Conversation,
        doc_options: &'a DocOptions,
    },
    /// HTML pages, laid out and cut (boxed: a page set is large beside
    /// two references).
    Html(Box<html::Pages>),
}

impl ExportFiles<'_> {
    /// How many files there are (one at least).
    pub fn count(&self) -> usize {
        match &self.files {
            Files::Html(pages) => pages.count(),
            Files::Markdown { .. } => 1,
        }
    }

    /// The name of file `index`: the output's, or `NAME-2.html`,
    /// `NAME-3.html`, … for the further pages of a large HTML export
    /// ([`page_name`]).
    pub fn name(&self, index: usize) -> String {
        page_name(&self.name, index)
    }

    /// Writes file `index` to `out`, the home folder written `~`.
    pub fn write(&self, index: usize, out: &mut dyn Write) -> io::Result<()> {
        let mut out = Tilde::new(out, self.options.home.as_deref().unwrap_or(""));
        match &self.files {
            Files::Html(pages) => pages.write(index, &mut out)?,
            Files::Markdown { conv, doc_options } => {
                markdown_to(&mut out, conv, doc_options, self.options)?
            }
        }
        out.finish()?.flush()
    }
}

/// The export of `conv` as the document `doc_options` asks for, as the files
/// to write for an output named `name`: one Markdown file, or HTML pages of
/// at most `limit` bytes each (cut between turns or blocks; [`PAGE_LIMIT`]
/// for `overhear export`) that link to one another. HTML is laid out here
/// (a page's stylesheet and table of contents come first and need every
/// block), a turn at a time, forgetting `conv`'s texts as it goes (see
/// [`export`]); each file is written by [`ExportFiles::write`], one at a
/// time, never whole in memory.
pub fn export_files<'a>(
    conv: &'a mut Conversation,
    doc_options: &'a DocOptions,
    options: &'a ExportOptions,
    name: &str,
    limit: usize,
) -> ExportFiles<'a> {
    let files = match options.format {
        ExportFormat::Md => Files::Markdown { conv, doc_options },
        ExportFormat::Html => {
            Files::Html(Box::new(html_pages(
                conv,
                doc_options,
                options,
                name,
                Some(limit),
            )))
        }
    };
    ExportFiles {
        options,
        name: name.to_string(),
        files,
    }
}

/// The HTML pages of the export.
fn html_pages(
    conv: &mut Conversation,
    doc_options: &DocOptions,
    options: &ExportOptions,
    name: &str,
    limit: Option<usize>,
) -> html::Pages {
    html::Pages::new(
        html::build(conv, doc_options, options),
        &options.title,
        options.agent.as_deref(),
        options.project.as_deref(),
        name,
        limit,
    )
}

/// The export's one layout theme: the dark theme, each
/// element's colours replaced by a marker of the element (its role). A
/// block is laid out once; [`Roles::pair`] reads each span's style back as
/// the dark and the light theme's (both themes give every element the same
/// modifiers and set the same colours: `roles_stand_for_both_themes`).
pub(crate) struct Roles {
    /// The dark theme with markers for colours.
    theme: Theme,
    /// The light theme, for blocks whose colours are not all roles'.
    light: Theme,
    /// Each element's (dark, light) style, by role number.
    pairs: Vec<(Style, Style)>,
}

/// The red and green of a role's marker colour (its blue is the role's
/// number): a colour no theme, grammar or tool output is expected to use.
const ROLE_MARK: (u8, u8) = (0x01, 0x02);

impl Roles {
    /// The roles of the built-in dark and light themes.
    pub(crate) fn new() -> Roles {
        let dark = Theme::dark();
        let light = Theme::builtin("light").unwrap_or_else(Theme::dark);
        let mut pairs = Vec::new();
        let styles = dark.styles.zip_map(&light.styles, |d, l| {
            let marker = Color::Rgb(ROLE_MARK.0, ROLE_MARK.1, pairs.len() as u8);
            pairs.push((d, l));
            let mut role = d;
            role.fg = (d.fg.is_some() || l.fg.is_some()).then_some(marker);
            role.bg = (d.bg.is_some() || l.bg.is_some()).then_some(marker);
            role
        });
        Roles {
            theme: Theme {
                name: "roles".into(),
                styles,
                ..dark
            },
            light,
            pairs,
        }
    }

    /// The element a colour is the marker of.
    fn role(&self, color: Option<Color>) -> Option<&(Style, Style)> {
        match color? {
            Color::Rgb(r, g, n) if (r, g) == ROLE_MARK => self.pairs.get(usize::from(n)),
            _ => None,
        }
    }

    /// A span's style as the dark and the light theme give it.
    pub(crate) fn pair(&self, style: Style) -> (Style, Style) {
        let (mut dark, mut light) = (style, style);
        if let Some((d, l)) = self.role(style.fg) {
            (dark.fg, light.fg) = (d.fg, l.fg);
        }
        if let Some((d, l)) = self.role(style.bg) {
            (dark.bg, light.bg) = (d.bg, l.bg);
        }
        (dark, light)
    }

    /// Whether `style` has a colour that is neither a role's nor the same
    /// in both themes for sure (syntect's, or a tool's own 256 or RGB colours).
    fn foreign(&self, style: Style) -> bool {
        [style.fg, style.bg].into_iter().any(|color| {
            matches!(color, Some(Color::Rgb(..) | Color::Indexed(_))) && self.role(color).is_none()
        })
    }
}

/// How an export lays out a block: at [`EXPORT_WIDTH`], once, in the
/// colours of [`Roles`], open blocks as `results` says.
///
/// A page the browser wraps (HTML) gets each line of a tool's result —
/// plain text or code, in a sub-agent's card too — whole: the page wraps
/// it to the reader's window, and a line copied comes back as the tool
/// wrote it. Everything else, and every line of Markdown (read in
/// fixed-width blocks), is wrapped at the width as `render` does.
pub(crate) struct Layouts<'a> {
    /// The layout in roles' colours.
    pub context: LayoutContext<'a>,
    /// The light theme's layout, for blocks with colours of their own;
    /// `None` when the export shows no colours (Markdown).
    light: Option<LayoutContext<'a>>,
    roles: &'a Roles,
    open: Fold,
}

impl<'a> Layouts<'a> {
    /// The layouts of `conv`'s blocks with `roles`; `html` for a page, which
    /// shows colours (a block with colours of its own is then laid out in
    /// the light theme too) and wraps a result's lines itself.
    pub(crate) fn new(
        conv: &'a Conversation,
        roles: &'a Roles,
        results: Results,
        html: bool,
    ) -> Self {
        let context = |theme| LayoutContext {
            conv,
            theme,
            width: EXPORT_WIDTH,
            code_width: Some(usize::MAX / 4),
            sanitize: SanitizeMode::Strip,
            // Markdown keeps the text only: highlighting would change nothing.
            highlighting: if html {
                Highlighting::Whole
            } else {
                Highlighting::Plain
            },
            wrap_results: !html,
        };
        Layouts {
            context: context(&roles.theme),
            light: html.then(|| context(&roles.light)),
            roles,
            open: match results {
                Results::Whole => Fold::Whole,
                Results::Terminal => Fold::Policy,
            },
        }
    }

    /// The roles the layout's colours stand for.
    pub(crate) fn roles(&self) -> &Roles {
        self.roles
    }

    /// `block` laid out folded (its one summary line) or open.
    pub(crate) fn lay(&self, block: &DocBlock, folded: bool) -> Laid {
        let fold = if folded { Fold::Folded } else { self.open };
        self.lay_with(|ctx| layout_as(block, fold, ctx))
    }

    /// `block` laid out open, a tool card without its header (the HTML
    /// export's card says it in a summary of its own).
    pub(crate) fn lay_headless(&self, block: &DocBlock) -> Laid {
        self.lay_with(|ctx| layout_headless(block, self.open, ctx))
    }

    /// The lines `layout` gives in the dark theme, and in the light one when
    /// they carry colours of their own.
    fn lay_with(&self, layout: impl Fn(&LayoutContext<'_>) -> Vec<Line<'static>>) -> Laid {
        // A page that lays results out whole lets the browser wrap them.
        let wrapped = |lines| wrapped(lines, !self.context.wrap_results);
        let lines = wrapped(layout(&self.context));
        let foreign = |line: &Line<'_>| {
            self.roles.foreign(line.style)
                || line.spans.iter().any(|s| self.roles.foreign(s.style))
        };
        let light = match &self.light {
            Some(light) if lines.iter().any(foreign) => Some(wrapped(layout(light))),
            _ => None,
        };
        Laid { lines, light }
    }
}

/// The part of one block, laid out when it is asked for: the export never
/// holds the laid-out page.
fn part_of(block: &DocBlock, conv: &Conversation, layouts: &Layouts<'_>) -> Option<Part> {
    let lay = |block: &DocBlock, folded: bool| layouts.lay(block, folded);
    let context = &layouts.context;
    let first = block.piece.as_ref().is_none_or(|p| p.is_first());
    let last = block.piece.as_ref().is_none_or(|p| p.last);
    let part = match &block.kind {
        BlockKind::TurnRule { .. } => Part::Turn {
            title: rule_words(&lay(block, false).lines),
        },
        BlockKind::UserMessage { .. }
        | BlockKind::AssistantMessage { .. }
        | BlockKind::ToolSpeech(_) => {
            let laid = lay(block, false);
            Part::Speech {
                label: laid
                    .lines
                    .first()
                    .map(|l| rule_words(std::slice::from_ref(l)))
                    .unwrap_or_default(),
                source: first
                    .then(|| full_text(block, conv))
                    .flatten()
                    .map(|text| sanitize_cow(text, SanitizeMode::Strip).into_owned()),
                laid,
            }
        }
        _ if is_foldable(block) => {
            let mut body = lay(block, false);
            let mut summary = if first {
                lay(block, true)
            } else {
                Laid {
                    lines: Vec::new(),
                    light: None,
                }
            };
            // `<details>` draws its own marker: the folded line's `▸` goes.
            summary.lines.iter_mut().take(1).for_each(strip_marker);
            // The folded line stands for the block's head: not repeated
            // inside, however many lines the head wraps to.
            let card = matches!(block.kind, BlockKind::ToolCard(_));
            if first && (card || repeats_head(summary.lines.first(), body.lines.first())) {
                let height = head_height(block, context).clamp(1, body.lines.len().max(1));
                let height = height.min(body.lines.len());
                let head: Vec<_> = body.lines.drain(..height).collect();
                // A card that is all head (its results hidden) does not fold.
                if last && body.lines.iter().all(|l| plain(Some(l)).trim().is_empty()) {
                    body.lines.splice(0..0, head);
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

/// Lines as `render` prints them: wider code lines wrapped at the width;
/// a result's lines left whole when `browser_wraps`.
fn wrapped(lines: Vec<Line<'static>>, browser_wraps: bool) -> Vec<Line<'static>> {
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        if (browser_wraps && result_gutter_spans(&line) > 0) || line_fits(&line, EXPORT_WIDTH) {
            out.push(line);
        } else {
            out.extend(wrap_long_line(line, EXPORT_WIDTH));
        }
    }
    out
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
mod tests {
    use ratatui::style::{Color, Style};

    use super::Roles;
    use crate::render::theme::Theme;

    /// Laying out once is exact only if the two built-in themes differ in
    /// colours alone: each element with the same modifiers and a colour
    /// set in one where the other sets one. A theme edit that breaks this
    /// fails here, not silently in the pages.
    #[test]
    fn roles_stand_for_both_themes() {
        let (dark, light) = (Theme::dark(), Theme::builtin("light").unwrap());
        let roles = Roles::new();
        let mut elements = 0;
        let _ = dark.styles.zip_map(&light.styles, |d, l| {
            assert_eq!(d.add_modifier, l.add_modifier, "element {elements}");
            assert_eq!(d.fg.is_some(), l.fg.is_some(), "element {elements}");
            assert_eq!(d.bg.is_some(), l.bg.is_some(), "element {elements}");
            elements += 1;
            d
        });
        let mut n = 0;
        let _ = roles.theme.styles.zip_map(&dark.styles, |role, d| {
            let (back_dark, back_light) = roles.pair(role);
            assert_eq!(back_dark, d, "element {n}");
            assert_eq!(back_light, roles.pairs[n].1, "element {n}");
            n += 1;
            role
        });
        assert_eq!(n, elements);
        // A style patched from two roles keeps each one's colour.
        let (fg, bg) = (roles.theme.styles.diff_added, roles.theme.styles.inline_code);
        let (d, l) = roles.pair(bg.patch(Style::new().fg(fg.fg.unwrap())));
        assert_eq!((d.fg, d.bg), (dark.styles.diff_added.fg, dark.styles.inline_code.bg));
        assert_eq!((l.fg, l.bg), (light.styles.diff_added.fg, light.styles.inline_code.bg));
        // Colours of their own (syntect's) ask for the light layout.
        assert!(roles.foreign(Style::new().fg(Color::Rgb(40, 42, 54))));
        assert!(!roles.foreign(Style::new().fg(Color::Red)));
    }
}
