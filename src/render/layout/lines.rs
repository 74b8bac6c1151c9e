//! The line-building every block kind shares: sanitizing conversation text
//! for the screen, indenting, the labelled pane, code and raw JSON blocks,
//! fitting lines to the width.

use std::borrow::Cow;

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use serde_json::Value;

use crate::render::document::Piece;
use crate::render::markdown::{
    Prepared, as_written_lines, as_written_note, markdown_to_lines_prepared, prepare,
};
use crate::render::split::PieceForm;
use crate::text::sanitize::{SanitizeMode, sanitize};
use crate::text::truncate::cut_to_width;
use crate::text::width::{display_width, line_fits};
use crate::text::wrap::{child_width, prefix_lines, wrap_spans};

use super::rules::{display_timestamp, rule};
use super::{BODY_INDENT, LayoutContext};

/// Conversation text made safe for the screen, as the context says.
pub(super) fn clean<'t>(text: &'t str, ctx: &LayoutContext<'_>) -> Cow<'t, str> {
    sanitize(text, ctx.sanitize)
}

/// A JSON value pretty-printed (empty if it cannot be), indented at most
/// [`crate::render::result::MAX_INDENT`] levels deep so the text stays
/// linear in the value's size.
pub(super) fn pretty(value: &Value) -> String {
    serde_json::to_string(value)
        .map(|compact| crate::render::result::reindent_json(&compact))
        .unwrap_or_default()
}

/// Cuts any line that is still too wide (the last guard of the width rule):
/// wider than the width, or than the code width when the caller scrolls
/// sideways (then only code is laid out that wide).
pub(super) fn fit(lines: &mut [Line<'static>], width: usize) {
    for line in lines.iter_mut() {
        // `line_fits`: measured only when its quick bound is over the width.
        if !line_fits(line, width) {
            *line = cut_to_width(line, width);
        }
    }
}

/// How many lines `text` holds, as `text.lines().count()` counts them (a
/// last line feed ends the last line, it does not start another), counted
/// as line feeds in one pass instead of a search per line: a card counts the
/// lines of each of its results, some of them thousands of lines long.
pub(super) fn line_count(text: &str) -> usize {
    // memchr's search, not a byte-by-byte count: hidden results are counted
    // whole for their cards' headers.
    let feeds = memchr::memchr_iter(b'\n', text.as_bytes()).count();
    feeds + usize::from(!text.is_empty() && !text.ends_with('\n'))
}

/// Puts `prefix` before lines laid out at [`child_width`] columns.
pub(super) fn indent(
    lines: Vec<Line<'static>>,
    prefix: &'static str,
    width: usize,
) -> Vec<Line<'static>> {
    let child = child_width(width, prefix.len());
    let spans = [Span::raw(prefix)];
    prefix_lines(lines, &spans, &spans, width, child)
}

/// Columns left for content behind `prefix`.
pub(super) fn inner_width(width: usize, prefix: &str) -> usize {
    child_width(width, display_width(prefix))
}

pub(super) fn pane(
    label: Vec<Span<'static>>,
    detail: Option<Span<'static>>,
    body: Vec<Line<'static>>,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    pane_part(label, detail, body, None, ctx)
}

/// A pane, or the part of it `piece` shows: the rule only in the first piece,
/// the closing blank line only in the last; between two pieces, the blank
/// line markdown puts between two blocks.
pub(super) fn pane_part(
    label: Vec<Span<'static>>,
    detail: Option<Span<'static>>,
    body: Vec<Line<'static>>,
    piece: Option<&Piece>,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    let mut lines = if piece.is_none_or(Piece::is_first) {
        vec![rule(label, detail, ctx), Line::default()]
    } else if piece.is_some_and(Piece::goes_on) {
        Vec::new()
    } else {
        indent(vec![Line::default()], BODY_INDENT, ctx.width)
    };
    lines.extend(body);
    if piece.is_none_or(|p| p.last) {
        lines.push(Line::default());
    }
    lines
}

/// The body of speech: its markdown laid out in the pane. `plain` when the
/// text is a piece found plain when it was cut
/// ([`PieceForm::Plain`]): it is laid out without being checked again,
/// unless cleaning changes it.
pub(super) fn speech_body(text: &str, plain: bool, ctx: &LayoutContext<'_>) -> Vec<Line<'static>> {
    let text = clean(text, ctx);
    let stripped = sanitize(&text, SanitizeMode::Strip);
    // Nothing cleaned: what was found when the piece was cut holds.
    let prepared = match text {
        Cow::Borrowed(_) if plain => Prepared::plain(&stripped),
        _ => prepare(&stripped),
    };
    let inner = inner_width(ctx.width, BODY_INDENT);
    let code = inner + ctx.code_slack();
    indent(
        markdown_to_lines_prepared(
            &prepared,
            inner,
            code,
            ctx.theme,
            Style::new(),
            ctx.highlighting,
        ),
        BODY_INDENT,
        ctx.width,
    )
}

/// A piece of speech past its text's markdown budget, shown as written
/// (after a note, in the piece that starts it), as [`speech_body`] shows
/// the same lines of the whole text.
pub(super) fn as_written_body(
    text: &str,
    form: PieceForm,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    let text = clean(text, ctx);
    let inner = inner_width(ctx.width, BODY_INDENT);
    let mut lines = match form {
        PieceForm::AsWrittenFrom { lines } => as_written_note(lines, inner, ctx.theme, Style::new()),
        _ => Vec::new(),
    };
    lines.extend(as_written_lines(&text, inner, Style::new()));
    indent(lines, BODY_INDENT, ctx.width)
}

pub(super) fn dim_line(line: Line<'static>, style: Style) -> Line<'static> {
    let spans = line
        .spans
        .into_iter()
        .map(|s| {
            let patched = s.style.patch(style);
            Span::styled(s.content, patched)
        })
        .collect::<Vec<_>>();
    Line::from(spans)
}

/// The most lines of one JSON value laid out as code (a call's arguments,
/// structured output, an entry or a record in the raw view): past them a
/// note says how many more there are. Laid out whole, a value of millions
/// of small objects cost about 230 bytes a line and seconds before the
/// first frame (docs/hardening.md, "Bounded work").
pub const JSON_SHOWN_LINES: usize = 5_000;

/// `value` as pretty, highlighted JSON behind the body indent: its first
/// [`JSON_SHOWN_LINES`] lines, then a note of how many more it has.
pub(super) fn json_value_lines(value: &Value, ctx: &LayoutContext<'_>) -> Vec<Line<'static>> {
    json_text_lines(&serde_json::to_string(value).unwrap_or_default(), ctx)
}

/// [`json_value_lines`] of JSON text as stored (a transcript's line in the
/// raw view): re-indented from the text, no value made of it.
pub(super) fn json_text_lines(json: &str, ctx: &LayoutContext<'_>) -> Vec<Line<'static>> {
    let (head, total) = crate::render::result::reindent_json_head(json, JSON_SHOWN_LINES);
    let mut lines = code_lines(&clean(&head, ctx), Some("json"), ctx);
    if let Some(cut) = total.checked_sub(JSON_SHOWN_LINES).filter(|&cut| cut > 0) {
        lines.extend(wrap_spans(
            &[Span::styled(lines_not_shown(cut), ctx.theme.styles.truncation_note)],
            ctx.width,
            &[Span::raw(BODY_INDENT)],
            &[Span::raw(BODY_INDENT)],
        ));
    }
    lines
}

/// The note that ends a text cut after its first lines: `… N more lines
/// not shown` (a result cut by the policy, a long JSON value).
pub(super) fn lines_not_shown(cut: usize) -> String {
    let plural = if cut == 1 { "" } else { "s" };
    format!("… {cut} more line{plural} not shown")
}

/// Highlighted code behind the body indent, cut at the code width.
pub(super) fn code_lines(
    code: &str,
    lang: Option<&str>,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    indent_code(
        ctx.highlighting.code(code, lang, ctx.theme),
        BODY_INDENT,
        ctx,
    )
}

/// Lines of code (never wrapped) behind `prefix`, each cut at the code width.
pub(super) fn indent_code(
    lines: Vec<Line<'static>>,
    prefix: &'static str,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    let limit = inner_width(ctx.width, prefix) + ctx.code_slack();
    let lines = lines
        .into_iter()
        .map(|l| {
            if !line_fits(&l, limit) {
                cut_to_width(&l, limit)
            } else {
                l
            }
        })
        .collect();
    indent(lines, prefix, ctx.width)
}

pub(super) fn raw_json_block(
    title: &str,
    event: usize,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    let e = &ctx.conv.events[event];
    let mut header = title.to_string();
    if let Some(ts) = &e.timestamp {
        header.push_str(&format!("  {}", display_timestamp(&clean(ts, ctx))));
    }
    let mut lines = wrap_spans(
        &[Span::styled(header, ctx.theme.styles.tool_header)],
        ctx.width,
        &[],
        &[],
    );
    lines.extend(json_value_lines(&e.to_json(), ctx));
    lines.push(Line::default());
    lines
}

#[cfg(test)]
mod tests {
    use super::line_count;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn lines_are_counted_as_str_lines_counts_them(text in "[a\\n\\r é]{0,30}") {
            prop_assert_eq!(line_count(&text), text.lines().count());
        }
    }
}
