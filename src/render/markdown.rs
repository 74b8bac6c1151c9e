//! Markdown to styled lines: the comrak AST (CommonMark + GFM) walked into ratatui lines at a
//! given width.
//!
//! Every block renders its children at a reduced width and then adds its own prefix (a quote
//! gutter, a list marker and hanging indent), so the rule "no line wider than the width" holds
//! by construction at every level; prose goes through the one wrapping helper
//! ([`crate::text::wrap::wrap_spans`]), code through [`super::highlight`] and is cut, never wrapped.
//! Markers that carry structure stay visible (`#` of headings, bullets, fences) so the text
//! reads the same with colour off; inline markup (`*`, `` ` ``) becomes style. Raw HTML is shown
//! as text, except comments. This module does not stream: the caller re-renders a block when it
//! changes and caches by width.

use std::borrow::Cow;
use std::collections::HashMap;

use comrak::nodes::{AstNode, ListDelimType, ListType, NodeList, NodeValue};
use comrak::{Arena, Options, parse_document};
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::highlight::guess_language;
use super::lazy_highlight::Highlighting;
use super::theme::Theme;
use crate::text::count::counted;
use crate::text::sanitize::{SanitizeMode, sanitize};
use crate::text::truncate::cut_to_width;
use crate::text::width::display_width;
use crate::text::wrap::{child_width, prefix_lines, spaces, wrap_spans};

mod as_written;
mod budget;
mod nesting;
mod table;

use as_written::{Fenced, unfenced_at};
pub(crate) use budget::markdown_end;

/// A text as the parser is given it, found in one pass of each of the
/// checks that bound the work: its oversized tables and deep lines fenced
/// behind notes, and where its markdown budget ends. Cutting a block into
/// pieces prepares each piece once ([`crate::render::split::with_as_written`])
/// and tells the layout of a piece that needs nothing of it
/// ([`markdown_to_lines_plain`]).
pub(crate) struct Prepared<'t> {
    /// The text with what is not laid out fenced.
    text: Cow<'t, str>,
    /// [`markdown_end`] of `text`.
    end: Option<usize>,
    /// Where the tables went in the text.
    tables: Vec<Fenced>,
    /// Where the deep lines went in the text with its tables fenced.
    deep: Vec<Fenced>,
}

/// Prepares `text` (sanitized) for the parser: tables, then deep lines,
/// then the budget, each one pass over the text.
pub(crate) fn prepare(text: &str) -> Prepared<'_> {
    let (once, tables) = table::oversized_tables_as_written(text);
    let (twice, deep) = nesting::deep_lines_as_written(&once);
    let twice = match twice {
        Cow::Owned(fenced) => Some(fenced),
        Cow::Borrowed(_) => None,
    };
    let text = twice.map_or(once, Cow::Owned);
    let end = markdown_end(&text);
    Prepared {
        text,
        end,
        tables,
        deep,
    }
}

impl<'t> Prepared<'t> {
    /// A text [`prepare`] found plain ([`Prepared::is_plain`]) when its
    /// block was cut, taken as such: the checks are not made again.
    pub(crate) fn plain(text: &'t str) -> Prepared<'t> {
        Prepared {
            text: Cow::Borrowed(text),
            end: None,
            tables: Vec::new(),
            deep: Vec::new(),
        }
    }

    /// Whether the text is laid out whole as markdown, as it is: nothing
    /// fenced, within its budget.
    pub(crate) fn is_plain(&self) -> bool {
        self.end.is_none() && matches!(self.text, Cow::Borrowed(_))
    }

    /// Where, in the text's own bytes, the lines shown as written (past its
    /// budget) begin: at the same line as in the prepared text, or, when
    /// that line is in a fenced table or deep line (its closing fence
    /// included: the part's lines took the budget), at the start of the
    /// part, so the part is shown as written whole and what comes before it
    /// lays out as it does in the whole text. `None` when the text is
    /// within its budget.
    pub(crate) fn as_written_from(&self) -> Option<usize> {
        let end = self.end?;
        Some(unfenced_at(&self.tables, unfenced_at(&self.deep, end)))
    }
}

/// Blocks nested deeper than this are shown as their plain text (keeps recursion bounded).
const MAX_DEPTH: usize = 32;

/// Bullets by nesting level.
const BULLETS: [&str; 3] = ["•", "◦", "▪"];

/// The quote gutter.
const GUTTER: &str = "│ ";

/// Renders markdown `text` into lines no wider than `width` (at least 1). Blocks are separated
/// by one blank line, with none before the first or after the last. The text is sanitized
/// (strip mode) first, so control sequences never reach the lines.
#[cfg(any(test, feature = "internals"))]
pub fn markdown_to_lines(text: &str, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    markdown_to_lines_styled(text, width, theme, Style::new())
}

/// [`markdown_to_lines`] with every element's style laid over `base` (for example reasoning,
/// dimmed). Code blocks keep their syntax colours.
#[cfg(any(test, feature = "internals"))]
pub fn markdown_to_lines_styled(
    text: &str,
    width: usize,
    theme: &Theme,
    base: Style,
) -> Vec<Line<'static>> {
    markdown_to_lines_wide_code(text, width, width, theme, base)
}

/// [`markdown_to_lines_styled`] for a viewer that scrolls sideways: prose wraps at `width`, but
/// the lines of code blocks (never wrapped) are cut only at `code_width` columns, prefixes
/// included (a `code_width` below `width` counts as `width`).
#[cfg(any(test, feature = "internals"))]
pub fn markdown_to_lines_wide_code(
    text: &str,
    width: usize,
    code_width: usize,
    theme: &Theme,
    base: Style,
) -> Vec<Line<'static>> {
    markdown_to_lines_highlighting(text, width, code_width, theme, base, Highlighting::Whole)
}

/// [`markdown_to_lines_wide_code`] with code highlighted as `highlighting`
/// says (the viewer highlights only what it shows).
pub fn markdown_to_lines_highlighting(
    text: &str,
    width: usize,
    code_width: usize,
    theme: &Theme,
    base: Style,
    highlighting: Highlighting<'_>,
) -> Vec<Line<'static>> {
    let text = sanitize(text, SanitizeMode::Strip);
    let prepared = prepare(&text);
    markdown_to_lines_prepared(&prepared, width, code_width, theme, base, highlighting)
}

/// [`markdown_to_lines_highlighting`] of a text prepared from sanitized
/// text: as markdown to its budget's end, as written after.
pub(crate) fn markdown_to_lines_prepared(
    prepared: &Prepared<'_>,
    width: usize,
    code_width: usize,
    theme: &Theme,
    base: Style,
    highlighting: Highlighting<'_>,
) -> Vec<Line<'static>> {
    let width = width.max(1);
    let code_slack = code_width.saturating_sub(width);
    let text = &prepared.text;
    let (text, rest) = text.split_at(prepared.end.unwrap_or(text.len()));
    let arena = Arena::new();
    let root = parse_document(&arena, text, &options());
    let mut renderer = Renderer {
        theme,
        footnotes: HashMap::new(),
        next_footnote: 0,
        list_depth: 0,
        trim_next_space: false,
        code_slack,
        highlighting,
    };
    renderer.number_footnotes(root);
    let mut lines = renderer.blocks(
        root,
        Ctx {
            width,
            base,
            depth: 0,
        },
        false,
    );
    if !rest.is_empty() {
        if !lines.is_empty() {
            lines.push(Line::default());
        }
        let note = as_written_note(rest.lines().count(), width, theme, base);
        lines.extend(note);
        lines.extend(as_written_lines(rest, width, base));
    }
    lines
}

/// The note before the lines of a text past [`markdown_end`]: how many
/// there are and why they are shown as written, then a blank line.
pub(crate) fn as_written_note(
    lines: usize,
    width: usize,
    theme: &Theme,
    base: Style,
) -> Vec<Line<'static>> {
    let mut out = wrap_spans(
        &[Span::styled(
            as_written_note_text(lines),
            base.patch(theme.styles.emphasis),
        )],
        width,
        &[],
        &[],
    );
    out.push(Line::default());
    out
}

/// The words of [`as_written_note`] (the HTML export says the same).
pub(crate) fn as_written_note_text(lines: usize) -> String {
    format!(
        "(the next {} are shown as written: this text holds more markdown than is laid out at \
         once)",
        counted(lines, "line")
    )
}

/// Markdown `text` (sanitized) shown as written: each line wrapped at
/// `width`, blank lines kept. Costs a line laid out per line, and no parse.
pub(crate) fn as_written_lines(text: &str, width: usize, base: Style) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            out.push(Line::default());
        } else {
            out.extend(wrap_spans(
                &[Span::styled(line.to_string(), base)],
                width.max(1),
                &[],
                &[],
            ));
        }
    }
    out
}

/// The parser options: CommonMark plus the GFM extensions (the HTML
/// export parses with the same ones).
pub(crate) fn options() -> Options<'static> {
    let mut options = Options::default();
    options.extension.strikethrough = true;
    options.extension.table = true;
    options.extension.tasklist = true;
    options.extension.autolink = true;
    options.extension.footnotes = true;
    options
}

/// Where a block is being laid out.
#[derive(Clone, Copy)]
struct Ctx {
    /// Columns available to the block.
    width: usize,
    /// Style inherited from enclosing blocks (quote text).
    base: Style,
    /// Block nesting depth.
    depth: usize,
}

impl Ctx {
    fn nested(self, width: usize) -> Ctx {
        Ctx {
            width,
            depth: self.depth + 1,
            ..self
        }
    }
}

/// `text` without HTML comments (an unterminated one runs to the end).
fn strip_html_comments(text: &str) -> Cow<'_, str> {
    if !text.contains("<!--") {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("<!--") {
        out.push_str(&rest[..start]);
        match rest[start + 4..].find("-->") {
            Some(end) => rest = &rest[start + 4 + end + 3..],
            None => rest = "",
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// True when a link's URL says nothing its text does not.
fn same_target(text: &str, url: &str) -> bool {
    let text = text.trim();
    url == text
        || url.strip_prefix("mailto:") == Some(text)
        || url.strip_prefix("http://") == Some(text)
        || url.strip_prefix("https://") == Some(text)
}

/// The language of a fence's info string (`rust,ignore` and `{.rust}` included).
fn fence_language(info: &str) -> Option<&str> {
    let token = info
        .split(|c: char| c.is_whitespace() || c == ',' || c == '{' || c == '}')
        .find(|t| !t.is_empty())?;
    Some(token.trim_start_matches('.'))
}

struct Renderer<'t> {
    theme: &'t Theme,
    /// How code blocks are highlighted.
    highlighting: Highlighting<'t>,
    /// Footnote name → its number.
    footnotes: HashMap<String, u32>,
    /// The highest footnote number given out.
    next_footnote: u32,
    /// Nesting of lists, for the bullet shape.
    list_depth: usize,
    /// An HTML comment was dropped after a space: drop the space that follows it.
    trim_next_space: bool,
    /// Columns code lines may take beyond the width of their block (0: cut at the width).
    code_slack: usize,
}

impl Renderer<'_> {
    /// Numbers footnotes in the order comrak gives them (first reference first).
    fn number_footnotes<'a>(&mut self, root: &'a AstNode<'a>) {
        for node in root.descendants() {
            if let NodeValue::FootnoteReference(r) = &node.data().value {
                self.footnotes.entry(r.name.clone()).or_insert(r.ix);
                self.next_footnote = self.next_footnote.max(r.ix);
            }
        }
    }

    /// The number of footnote `name`; a name no reference numbered gets the next free one.
    fn footnote_number(&mut self, name: &str) -> u32 {
        if let Some(&number) = self.footnotes.get(name) {
            return number;
        }
        self.next_footnote += 1;
        self.footnotes.insert(name.to_string(), self.next_footnote);
        self.next_footnote
    }

    /// The children of `parent` as blocks, a blank line between them unless `tight`.
    fn blocks<'a>(&mut self, parent: &'a AstNode<'a>, ctx: Ctx, tight: bool) -> Vec<Line<'static>> {
        let mut out: Vec<Line<'static>> = Vec::new();
        for child in parent.children() {
            let lines = self.block(child, ctx);
            if lines.is_empty() {
                continue;
            }
            if !out.is_empty() && !tight {
                out.push(Line::default());
            }
            out.extend(lines);
        }
        out
    }

    fn block<'a>(&mut self, node: &'a AstNode<'a>, ctx: Ctx) -> Vec<Line<'static>> {
        if ctx.depth > MAX_DEPTH {
            return self.flattened(node, ctx);
        }
        let value = node.data().value.clone();
        match value {
            NodeValue::Paragraph => {
                let spans = self.inline_spans(node, ctx.base);
                self.prose(spans, ctx.width, &[], &[])
            }
            NodeValue::Heading(heading) => {
                let style = ctx.base.patch(self.theme.heading(heading.level));
                let marker = format!("{} ", "#".repeat(usize::from(heading.level.max(1))));
                let indent = display_width(&marker);
                let spans = self.inline_spans(node, style);
                wrap_spans(
                    &spans,
                    ctx.width,
                    &[Span::styled(marker, style)],
                    &[spaces(indent)],
                )
            }
            NodeValue::ThematicBreak => vec![Line::from(Span::styled(
                "─".repeat(ctx.width),
                self.theme.styles.thematic_break,
            ))],
            NodeValue::BlockQuote | NodeValue::MultilineBlockQuote(_) => {
                let gutter = [Span::styled(GUTTER, self.theme.styles.quote_gutter)];
                let child = child_width(ctx.width, display_width(GUTTER));
                let inner_ctx = Ctx {
                    base: ctx.base.patch(self.theme.styles.quote_text),
                    ..ctx.nested(child)
                };
                let mut inner = self.blocks(node, inner_ctx, false);
                if inner.is_empty() {
                    inner.push(Line::default());
                }
                prefix_lines(inner, &gutter, &gutter, ctx.width, child)
            }
            NodeValue::List(list) => self.list(node, list, ctx),
            NodeValue::CodeBlock(code) => {
                let language = fence_language(&code.info);
                self.code_block(&code.literal, language, ctx.width)
            }
            NodeValue::HtmlBlock(html) => {
                let text = strip_html_comments(&html.literal);
                let text = text.trim_end();
                if text.trim().is_empty() {
                    return Vec::new();
                }
                let style = ctx.base.patch(self.theme.styles.html);
                wrap_spans(
                    &[Span::styled(text.to_string(), style)],
                    ctx.width,
                    &[],
                    &[],
                )
            }
            NodeValue::Table(table) => self.table(node, &table.alignments, ctx),
            NodeValue::FootnoteDefinition(definition) => {
                let number = self.footnote_number(&definition.name);
                let label = format!("[{number}] ");
                let indent = display_width(&label);
                let child = child_width(ctx.width, indent);
                let mut inner = self.blocks(node, ctx.nested(child), false);
                if inner.is_empty() {
                    inner.push(Line::default());
                }
                let first = [Span::styled(label, self.theme.styles.footnote)];
                prefix_lines(inner, &first, &[spaces(indent)], ctx.width, child)
            }
            NodeValue::Text(_)
            | NodeValue::Code(_)
            | NodeValue::Emph
            | NodeValue::Strong
            | NodeValue::Link(_) => {
                // Inline content where a block was expected: shown as a paragraph.
                let mut spans = Vec::new();
                self.inline(node, ctx.base, &mut spans, 0);
                self.prose(spans, ctx.width, &[], &[])
            }
            _ => self.blocks(node, ctx.nested(ctx.width), false),
        }
    }

    /// Wraps prose; nothing for spans holding only whitespace.
    fn prose(
        &self,
        spans: Vec<Span<'static>>,
        width: usize,
        first: &[Span<'static>],
        rest: &[Span<'static>],
    ) -> Vec<Line<'static>> {
        if spans.iter().all(|s| s.content.trim().is_empty()) {
            return Vec::new();
        }
        wrap_spans(&spans, width, first, rest)
    }

    /// A block nested too deep: its text as one plain paragraph.
    fn flattened<'a>(&self, node: &'a AstNode<'a>, ctx: Ctx) -> Vec<Line<'static>> {
        let mut text = String::new();
        for descendant in node.descendants() {
            match &descendant.data().value {
                NodeValue::Text(t) => text.push_str(t),
                NodeValue::Code(c) => text.push_str(&c.literal),
                NodeValue::CodeBlock(c) => text.push_str(&c.literal),
                NodeValue::HtmlBlock(h) => text.push_str(&strip_html_comments(&h.literal)),
                NodeValue::SoftBreak | NodeValue::LineBreak => text.push(' '),
                NodeValue::Paragraph | NodeValue::Heading(_) | NodeValue::Item(_) => text.push(' '),
                _ => {}
            }
        }
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        self.prose(vec![Span::styled(text, ctx.base)], ctx.width, &[], &[])
    }

    fn list<'a>(&mut self, node: &'a AstNode<'a>, list: NodeList, ctx: Ctx) -> Vec<Line<'static>> {
        let items: Vec<&AstNode<'_>> = node.children().collect();
        let ordered = list.list_type == ListType::Ordered;
        let last = list.start + items.len().saturating_sub(1);
        let number_width = last.to_string().len();
        let delimiter = match list.delimiter {
            ListDelimType::Period => '.',
            ListDelimType::Paren => ')',
        };
        let bullet = BULLETS[self.list_depth % BULLETS.len()];
        self.list_depth += 1;
        let mut out: Vec<Line<'static>> = Vec::new();
        for (index, item) in items.into_iter().enumerate() {
            let task = match &item.data().value {
                NodeValue::TaskItem(task) => Some(task.symbol.is_some()),
                _ => None,
            };
            let mut marker = if ordered {
                format!("{:>number_width$}{delimiter} ", list.start + index)
            } else if task.is_none() {
                format!("{bullet} ")
            } else {
                String::new()
            };
            match task {
                Some(true) => marker.push_str("[x] "),
                Some(false) => marker.push_str("[ ] "),
                None => {}
            }
            let indent = display_width(&marker);
            let child = child_width(ctx.width, indent);
            let mut inner = self.blocks(item, ctx.nested(child), list.tight);
            if inner.is_empty() {
                inner.push(Line::default());
            }
            let first = [Span::styled(marker, self.theme.styles.list_marker)];
            if !out.is_empty() && !list.tight {
                out.push(Line::default());
            }
            out.extend(prefix_lines(
                inner,
                &first,
                &[spaces(indent)],
                ctx.width,
                child,
            ));
        }
        self.list_depth -= 1;
        out
    }

    /// A code block: fences cut to the width, highlighted body cut to the width plus the code
    /// slack.
    fn code_block(
        &self,
        literal: &str,
        language: Option<&str>,
        width: usize,
    ) -> Vec<Line<'static>> {
        let code_width = width + self.code_slack;
        let language = language.or_else(|| guess_language(literal));
        let longest_run = literal
            .lines()
            .map(|l| l.trim_start().chars().take_while(|&c| c == '`').count())
            .max()
            .unwrap_or(0);
        let fence = "`".repeat(longest_run.max(2) + 1);
        let fence_style = self.theme.styles.code_fence;
        let mut out = Vec::new();
        let open = format!("{fence}{}", language.unwrap_or(""));
        out.push(cut_to_width(
            &Line::from(Span::styled(open, fence_style)),
            width,
        ));
        for line in self.highlighting.code(literal, language, self.theme) {
            out.push(cut_to_width(&line, code_width));
        }
        out.push(cut_to_width(
            &Line::from(Span::styled(fence, fence_style)),
            width,
        ));
        out
    }

    /// The inline content of `node` as spans.
    fn inline_spans<'a>(&mut self, node: &'a AstNode<'a>, style: Style) -> Vec<Span<'static>> {
        let mut spans = Vec::new();
        for child in node.children() {
            self.inline(child, style, &mut spans, 0);
        }
        spans
    }

    fn inline_children<'a>(
        &mut self,
        node: &'a AstNode<'a>,
        style: Style,
        out: &mut Vec<Span<'static>>,
        depth: usize,
    ) {
        for child in node.children() {
            self.inline(child, style, out, depth + 1);
        }
    }

    fn inline<'a>(
        &mut self,
        node: &'a AstNode<'a>,
        style: Style,
        out: &mut Vec<Span<'static>>,
        depth: usize,
    ) {
        let styles = &self.theme.styles;
        if depth > MAX_DEPTH {
            let text: String = node
                .descendants()
                .filter_map(|n| match &n.data().value {
                    NodeValue::Text(t) => Some(t.to_string()),
                    NodeValue::Code(c) => Some(c.literal.clone()),
                    _ => None,
                })
                .collect();
            out.push(Span::styled(text, style));
            return;
        }
        let value = node.data().value.clone();
        match value {
            NodeValue::Text(text) => {
                let text = if std::mem::take(&mut self.trim_next_space) {
                    text.trim_start_matches(' ').to_string()
                } else {
                    text.into_owned()
                };
                out.push(Span::styled(text, style));
            }
            NodeValue::SoftBreak => out.push(Span::styled(" ", style)),
            NodeValue::LineBreak => out.push(Span::styled("\n", style)),
            NodeValue::Code(code) => {
                out.push(Span::styled(code.literal, style.patch(styles.inline_code)));
            }
            NodeValue::HtmlInline(html) => {
                let text = strip_html_comments(&html);
                if !text.is_empty() {
                    out.push(Span::styled(text.into_owned(), style.patch(styles.html)));
                } else if out.last().is_some_and(|s| s.content.ends_with(' ')) {
                    // `a <!-- c --> b` reads `a b`, not `a  b`.
                    self.trim_next_space = true;
                }
            }
            NodeValue::Emph => {
                let s = style.patch(styles.emphasis);
                self.inline_children(node, s, out, depth);
            }
            NodeValue::Strong => {
                let s = style.patch(styles.strong);
                self.inline_children(node, s, out, depth);
            }
            NodeValue::Strikethrough => {
                let s = style.patch(styles.strikethrough);
                self.inline_children(node, s, out, depth);
            }
            NodeValue::Link(link) => {
                let url_style = style.patch(styles.link_url);
                let start = out.len();
                self.inline_children(node, style.patch(styles.link_text), out, depth);
                let text: String = out[start..].iter().map(|s| s.content.as_ref()).collect();
                if !link.url.is_empty() && !same_target(&text, &link.url) {
                    out.push(Span::styled(" ", style));
                    out.push(Span::styled(format!("({})", link.url), url_style));
                }
            }
            NodeValue::Image(link) => {
                let mut alt = Vec::new();
                self.inline_children(node, style, &mut alt, depth);
                let alt: String = alt.iter().map(|s| s.content.as_ref()).collect();
                out.push(Span::styled(
                    format!("[image: {alt}]"),
                    style.patch(styles.link_text),
                ));
                if !link.url.is_empty() {
                    out.push(Span::styled(
                        format!("({})", link.url),
                        style.patch(styles.link_url),
                    ));
                }
            }
            NodeValue::FootnoteReference(reference) => {
                let number = self.footnote_number(&reference.name);
                out.push(Span::styled(
                    format!("[{number}]"),
                    style.patch(self.theme.styles.footnote),
                ));
            }
            _ => self.inline_children(node, style, out, depth),
        }
    }
}

#[cfg(test)]
mod tests;
