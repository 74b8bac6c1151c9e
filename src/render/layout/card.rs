//! The tool card: a header with the call and its outcome, the arguments as
//! the style says, and the results the policy shows, each in a gutter.

use std::borrow::Cow;

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use serde_json::Value;

use crate::model::{EventKind, call_view, facts};
use crate::policy::{BlockDisplay, Parameters};
use crate::render::document::{Piece, ToolCard, audience_label, shown_result};
use crate::render::duration;
use crate::render::result::{Presentation, classify_result, plain_lines, present_highlighting};
use crate::text::sanitize::sanitize_keep_sgr;
use crate::text::truncate::{cut_to_width, truncate};
use crate::text::width::{line_width, spans_width};
use crate::text::wrap::{prefix_lines, wrap_spans};

use super::lines::{
    clean, dim_line, indent_code, inner_width, json_value_lines, line_count, lines_not_shown,
};
use super::message::inquiry_lines;
use super::rules::{task_detail, task_label};
use super::{
    BODY_INDENT, Fold, LayoutContext, RESULT_GUTTER, WHOLE_RESULT_BYTES, WHOLE_RESULT_LINES,
    subagent,
};

pub(super) fn tool_card(
    card: &ToolCard,
    fold: Fold,
    viewer: bool,
    header: bool,
    piece: Option<&Piece>,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    let folded = fold == Fold::Folded;
    let whole = fold == Fold::Whole;
    let hint = CardHint {
        viewer,
        expanded: fold == Fold::Expanded,
    };
    let conv = ctx.conv;
    let request = &conv.events[card.call.request];
    let EventKind::ToolCallRequest {
        name, arguments, ..
    } = &request.kind
    else {
        return Vec::new();
    };
    let response = card.call.response.map(|r| &conv.events[r].kind);
    // A call the user refused is not a failure: no error colours.
    let refused = card.call.response.is_some_and(|r| facts::refused(&conv.events[r]));
    let is_error = !refused
        && matches!(
            response,
            Some(EventKind::ToolCallResponse { is_error: true, .. })
        );
    let first = piece.is_none_or(Piece::is_first);
    let show_header = card.style.header || card.label_audience;
    if folded && show_header && !first {
        return Vec::new();
    }
    let name = clean(name, ctx).into_owned();
    let sub = subagent::of(card, ctx);
    let mut lines = Vec::new();
    if first {
        // In the viewer a sub-agent's card is one line until `Enter`.
        if let Some((_, sub_conv)) = sub
            && viewer
            && fold == Fold::Policy
            && piece.is_none()
        {
            lines.push(subagent::summary_line(card, sub_conv, false, "", ctx));
            lines.push(Line::default());
            return lines;
        }
        if show_header && header {
            lines.extend(card_header(
                card, &name, arguments, is_error, folded, hint, ctx,
            ));
        }
        if folded && show_header {
            lines.push(Line::default());
            return lines;
        }
        let asked = sub.is_some_and(|(_, conv)| subagent::was_asked(conv));
        if (show_header || card.label_audience) && !asked {
            lines.extend(arguments_lines(card, request, arguments, whole, ctx));
        }
        if let Some((sub, sub_conv)) = sub {
            lines.push(subagent::summary_line(
                card,
                sub_conv,
                true,
                BODY_INDENT,
                ctx,
            ));
            lines.extend(subagent::nested_lines(sub, sub_conv, ctx));
        }
        for pair in &card.call.inquiries {
            lines.extend(inquiry_lines(pair, BODY_INDENT, ctx));
        }
    }
    if let Some(piece) = piece {
        let text = shown_result(card, conv).map_or("", |t| &t[piece.range.clone()]);
        // Every piece but the last ends with the newline before the next.
        let text = if piece.last {
            text
        } else {
            text.strip_suffix('\n').unwrap_or(text)
        };
        lines.extend(presented(&Presentation::Plain, text, is_error, ctx));
    } else if let Some(EventKind::ToolCallResponse { content, .. }) = response {
        let blocks = content.views();
        let report = sub
            .and_then(|(_, conv)| subagent::report(conv))
            .map(str::trim)
            .filter(|r| !r.is_empty());
        for &(b, display) in &card.results {
            let display = match display {
                _ if hint.expanded => BlockDisplay::Full,
                BlockDisplay::Hidden => continue,
                display => display,
            };
            let Some(block) = blocks.get(b) else { continue };
            if card.label_audience {
                let label = format!("[audience: {}]", audience_label(block.audience));
                lines.push(Line::from(vec![
                    Span::raw(RESULT_GUTTER),
                    Span::styled(label, ctx.theme.styles.turn_rule),
                ]));
            }
            let text: Cow<'_, str> = match block.text {
                Some(text) => Cow::Borrowed(text),
                None => Cow::Owned(format!("[unsupported block: {}]", block.kind)),
            };
            // The sub-agent's report is shown once, as its last words above.
            let text = match report {
                Some(report) if !hint.expanded && text.contains(report) => {
                    let rest = text.replacen(report, "", 1).trim().to_string();
                    if rest.is_empty() {
                        continue;
                    }
                    Cow::Owned(rest)
                }
                _ => text,
            };
            let display = match display {
                BlockDisplay::Lines(_) | BlockDisplay::Full if whole => Budget::Whole,
                BlockDisplay::Lines(n) => Budget::Lines(n),
                _ => Budget::Full,
            };
            lines.extend(result_lines(
                &text,
                block.mime_type,
                display,
                is_error,
                hint.viewer,
                ctx,
            ));
        }
    }
    if !piece.is_none_or(|p| p.last) {
        return lines;
    }
    if let Some(task) = &card.task {
        let result_text = match response {
            Some(EventKind::ToolCallResponse { content, .. }) => content.plain_text(),
            _ => Cow::Borrowed(""),
        };
        // The output is shown once: a foreground call's result already is it.
        if let Some(output) = task_detail(task).filter(|o| !result_text.contains(o.trim())) {
            let spans = [Span::styled(
                clean(&output, ctx).into_owned(),
                ctx.theme.styles.result_text,
            )];
            let gutter = [Span::styled(RESULT_GUTTER, ctx.theme.styles.turn_rule)];
            lines.extend(wrap_spans(&spans, ctx.width, &gutter, &gutter));
        }
    }
    lines.push(Line::default());
    lines
}

/// How many lines `card`'s header takes when the card is laid out open for
/// `render` and the exports (an export folds the card under its folded
/// header, and leaves these lines out of the body: they say the same).
#[cfg(feature = "cli")]
pub(super) fn head_height(card: &ToolCard, ctx: &LayoutContext<'_>) -> usize {
    let conv = ctx.conv;
    let EventKind::ToolCallRequest {
        name, arguments, ..
    } = &conv.events[card.call.request].kind
    else {
        return 0;
    };
    if !(card.style.header || card.label_audience) {
        return 0;
    }
    let refused = card.call.response.is_some_and(|r| facts::refused(&conv.events[r]));
    let is_error = !refused
        && matches!(
            card.call.response.map(|r| &conv.events[r].kind),
            Some(EventKind::ToolCallResponse { is_error: true, .. })
        );
    let hint = CardHint {
        viewer: false,
        expanded: false,
    };
    let name = clean(name, ctx);
    card_header(card, &name, arguments, is_error, false, hint, ctx).len()
}

/// What the viewer adds to a card: that `Enter` shows what the policy cuts
/// or hides, and whether it is showing it.
#[derive(Debug, Clone, Copy)]
pub(super) struct CardHint {
    /// Laid out for the viewer (`render` has no keys to name).
    viewer: bool,
    /// Every result shown in full.
    expanded: bool,
}

pub(super) fn card_header(
    card: &ToolCard,
    name: &str,
    arguments: &Value,
    is_error: bool,
    folded: bool,
    hint: CardHint,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    let theme = ctx.theme;
    let events = &ctx.conv.events;
    let refused = card.call.response.map(|r| &events[r]).filter(|e| facts::refused(e));
    let (marker, style) = match (card.call.response.is_some(), is_error) {
        _ if refused.is_some() => ("⊘", theme.styles.refused),
        (_, true) => ("✗", theme.styles.error),
        (true, false) => ("●", theme.styles.tool_header),
        // Stopped by the user: not a failure, and nothing is pending.
        (false, _) if card.aborted => ("✗", theme.styles.pending),
        (false, _) => ("◌", theme.styles.pending),
    };
    // Results the policy hides entirely: the card says how many lines, and
    // in the viewer it is drawn folded, `Enter` showing them.
    let hidden = if hint.expanded || folded {
        0
    } else {
        hidden_result_lines(card, ctx)
    };
    let marker = if folded || (hidden > 0 && hint.viewer) {
        "▸"
    } else {
        marker
    };
    let mut spans = vec![
        Span::styled(format!("{marker} "), style),
        Span::styled(name.to_string(), theme.styles.tool_header),
    ];
    let function_call =
        matches!(card.style.parameters, Parameters::FunctionCall) && !card.label_audience;
    if function_call {
        spans.extend(function_call_spans(arguments, ctx));
    }
    let mut tail = Vec::new();
    let status = if let Some(response) = refused {
        // A call the user (or a rule of theirs) refused is not a tool failure.
        let text = match facts::refusal_reason(response) {
            Some(reason) => {
                let reason = first_line(&clean(reason, ctx));
                format!("refused: {}", truncate(&reason, (ctx.width / 2).max(8)))
            }
            None => "refused".to_string(),
        };
        Some((text, theme.styles.refused))
    } else if is_error {
        Some(("failed".to_string(), theme.styles.error))
    } else if card.aborted {
        Some(("aborted".to_string(), theme.styles.pending))
    } else if card.call.response.is_none() {
        Some((
            if card.live {
                "running…"
            } else {
                "no response"
            }
            .to_string(),
            theme.styles.pending,
        ))
    } else {
        None
    };
    if let Some((text, style)) = status {
        tail.push(Span::styled(format!(" · {text}"), style));
    }
    if let Some(task) = &card.task {
        tail.push(Span::styled(
            format!(" · {}", task_label(task)),
            theme.styles.pending,
        ));
    }
    if let Some(took) = call_duration(card, ctx) {
        tail.push(Span::styled(
            format!(" · {}", duration::human(took)),
            theme.styles.turn_rule,
        ));
    }
    if hidden > 0 {
        let lines = if hidden == 1 { "line" } else { "lines" };
        let enter = if hint.viewer { " (Enter shows)" } else { "" };
        tail.push(Span::styled(
            format!(" · {hidden} {lines} hidden by policy{enter}"),
            theme.styles.turn_rule,
        ));
    }
    if folded {
        let n = card_result_lines(card, ctx);
        let lines = if n == 1 { "line" } else { "lines" };
        tail.push(Span::styled(
            format!(" · {n} {lines} folded"),
            theme.styles.turn_rule,
        ));
    }
    // What the call did, cut to what the line leaves once the rest is said
    // (and to a third of the width at least: the rest may wrap).
    if !function_call && let Some(subject) = facts::subject(&events[card.call.request]) {
        let subject = first_line(&clean(subject, ctx));
        let used = spans_width(&spans) + spans_width(&tail) + 3;
        let room = ctx.width.saturating_sub(used).max(ctx.width / 3).max(1);
        spans.push(Span::styled(" · ", theme.styles.turn_rule));
        spans.push(Span::styled(truncate(&subject, room), theme.styles.result_text));
    }
    spans.extend(tail);
    wrap_spans(&spans, ctx.width, &[], &[Span::raw("    ")])
}

/// The first line of `text` that holds anything, with `…` when more follow.
fn first_line(text: &str) -> String {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("");
    if lines.next().is_some() {
        format!("{first} …")
    } else {
        first.to_string()
    }
}

/// How long a call took, from its request's stored time to its response's,
/// when both are stored and differ (equal times record no duration).
pub(super) fn call_duration(card: &ToolCard, ctx: &LayoutContext<'_>) -> Option<u64> {
    let events = &ctx.conv.events;
    let start = events[card.call.request].timestamp.as_deref()?;
    let end = events.get(card.call.response?)?.timestamp.as_deref()?;
    duration::between(start, end).filter(|&ms| ms > 0)
}

/// Lines of the results the policy hides on `card` (none when it shows
/// any result: then the cut notes say what is missing).
pub(super) fn hidden_result_lines(card: &ToolCard, ctx: &LayoutContext<'_>) -> usize {
    let Some(EventKind::ToolCallResponse { content, .. }) =
        card.call.response.map(|r| &ctx.conv.events[r].kind)
    else {
        return 0;
    };
    let views = content.views();
    card.results
        .iter()
        .filter(|(_, d)| *d == BlockDisplay::Hidden)
        .filter_map(|&(b, _)| views.get(b).and_then(|v| v.text))
        .map(line_count)
        .sum()
}

pub(super) fn card_result_lines(card: &ToolCard, ctx: &LayoutContext<'_>) -> usize {
    match card.call.response.map(|r| &ctx.conv.events[r].kind) {
        Some(EventKind::ToolCallResponse { content, .. }) => line_count(&content.plain_text()),
        _ => 0,
    }
}

pub(super) fn function_call_spans(
    arguments: &Value,
    ctx: &LayoutContext<'_>,
) -> Vec<Span<'static>> {
    let Some(map) = arguments.as_object().filter(|m| !m.is_empty()) else {
        return Vec::new();
    };
    let mut spans = vec![Span::styled("(", ctx.theme.styles.turn_rule)];
    for (i, (key, value)) in map.iter().enumerate() {
        if i > 0 {
            spans.push(Span::styled(", ", ctx.theme.styles.turn_rule));
        }
        spans.push(Span::styled(
            format!("{}: ", clean(key, ctx)),
            ctx.theme.styles.tool_arg_key,
        ));
        spans.push(Span::styled(
            clean(&value.to_string(), ctx).into_owned(),
            ctx.theme.styles.result_text,
        ));
    }
    spans.push(Span::styled(")", ctx.theme.styles.turn_rule));
    spans
}

pub(super) fn arguments_lines(
    card: &ToolCard,
    request: &crate::model::Event,
    arguments: &Value,
    whole: bool,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    let empty = match arguments {
        Value::Null => true,
        Value::Object(m) => m.is_empty(),
        Value::Array(a) => a.is_empty(),
        _ => false,
    };
    let parameters = if card.label_audience {
        &Parameters::Json
    } else {
        &card.style.parameters
    };
    match parameters {
        _ if empty => Vec::new(),
        Parameters::Json => json_lines(arguments, ctx),
        Parameters::Custom(_) if facts::call_view(request).is_some() => {
            let subject = facts::subject(request);
            call_view::of(request).map_or_else(Vec::new, |view| {
                super::call_view::lines(&view, subject, whole, ctx)
            })
        }
        Parameters::Custom(command) => match request
            .metadata
            .get("rendered_arguments")
            .and_then(Value::as_str)
        {
            Some(rendered) => indent_code(
                crate::render::ansi::ansi_to_lines(rendered.trim_end(), ctx.sanitize),
                "    ",
                ctx,
            ),
            // overhear's own style made for a view this call has none of
            // (OpenCode's `bash` style on another agent's `bash` call): the
            // arguments are shown as they are, never nothing. A user's own
            // command with nothing rendered shows nothing, as JP does.
            None if command == call_view::VIEW_PARAMETERS => {
                json_lines(arguments, ctx)
            }
            None => Vec::new(),
        },
        Parameters::FunctionCall | Parameters::Off => Vec::new(),
    }
}

/// A call's arguments as pretty, highlighted JSON, indented, each line cut
/// to the code width (the first [`JSON_SHOWN_LINES`](super::lines::JSON_SHOWN_LINES)
/// of them, then a note of how many more).
fn json_lines(arguments: &Value, ctx: &LayoutContext<'_>) -> Vec<Line<'static>> {
    json_value_lines(arguments, ctx)
        .into_iter()
        .map(|l| {
            let mut spans = vec![Span::raw("  ")];
            spans.extend(l.spans);
            let line = Line::from(spans);
            if line_width(&line) > ctx.code_limit() {
                cut_to_width(&line, ctx.code_limit())
            } else {
                line
            }
        })
        .collect()
}

/// How much of one result block is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Budget {
    /// The first N lines (the policy's cut for a terminal).
    Lines(usize),
    /// Everything.
    Full,
    /// Everything up to [`WHOLE_RESULT_LINES`] lines or
    /// [`WHOLE_RESULT_BYTES`] bytes (an export).
    Whole,
}

/// One result block: sanitized, presented by its mime type, cut to its
/// budget with a visible note of what was cut.
pub(super) fn result_lines(
    text: &str,
    mime: Option<&str>,
    display: Budget,
    is_error: bool,
    viewer: bool,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    // Colour in plain tool output becomes styles (never raw escapes).
    let text = if mime.is_none() && text.contains('\u{1b}') {
        sanitize_keep_sgr(text, ctx.sanitize)
    } else {
        clean(text, ctx)
    };
    let (presentation, normalized) = classify_result(&text, mime);
    let total = line_count(&normalized);
    let limit = match display {
        Budget::Lines(n) => Some(n),
        Budget::Full => None,
        Budget::Whole => Some(whole_lines(&normalized)),
    };
    let shown: Cow<'_, str> = match limit {
        Some(n) if total > n => {
            Cow::Owned(normalized.lines().take(n).collect::<Vec<_>>().join("\n"))
        }
        _ => Cow::Borrowed(normalized.as_ref()),
    };
    let mut lines = presented(&presentation, &shown, is_error, ctx);
    if let Some(n) = limit
        && total > n
    {
        let cut = total - n;
        let plural = if cut == 1 { "" } else { "s" };
        let note = if display == Budget::Whole {
            let bytes = normalized.len().saturating_sub(shown.len());
            format!(
                "… {cut} more line{plural} ({}) left out: an export keeps {WHOLE_RESULT_LINES} lines or {} of a result",
                size(bytes),
                size(WHOLE_RESULT_BYTES)
            )
        } else {
            let enter = if viewer { " (Enter shows)" } else { "" };
            format!("{}{enter}", lines_not_shown(cut))
        };
        let gutter = [Span::styled(RESULT_GUTTER, gutter_style(is_error, ctx))];
        lines.extend(wrap_spans(
            &[Span::styled(note, ctx.theme.styles.truncation_note)],
            ctx.width,
            &gutter,
            &gutter,
        ));
    }
    lines
}

/// How many of the first lines of `text` fit in an export's cap of
/// [`WHOLE_RESULT_LINES`] lines and [`WHOLE_RESULT_BYTES`] bytes (one line
/// at least, however long: a line is cut only by the cap on lines).
fn whole_lines(text: &str) -> usize {
    let mut bytes = 0;
    let mut count = 0;
    // `str::lines`, each line found with memchr: a result is all lines.
    let mut rest = text;
    while count < WHOLE_RESULT_LINES && !rest.is_empty() {
        let (line, next) = match memchr::memchr(b'\n', rest.as_bytes()) {
            Some(at) => (&rest[..at], &rest[at + 1..]),
            None => (rest, ""),
        };
        let line = line.strip_suffix('\r').unwrap_or(line);
        bytes += line.len() + 1;
        if bytes > WHOLE_RESULT_BYTES && count > 0 {
            break;
        }
        count += 1;
        rest = next;
    }
    count
}

/// A size as a person reads it: `512 bytes`, `1.5 KiB`, `1 MiB`.
fn size(bytes: usize) -> String {
    const UNITS: [(&str, u32); 2] = [("MiB", 20), ("KiB", 10)];
    for (unit, shift) in UNITS {
        let one = 1usize << shift;
        if bytes >= one {
            return if bytes.is_multiple_of(one) {
                format!("{} {unit}", bytes / one)
            } else {
                format!("{:.1} {unit}", bytes as f64 / one as f64)
            };
        }
    }
    let plural = if bytes == 1 { "" } else { "s" };
    format!("{bytes} byte{plural}")
}

/// Result text laid out as `presentation` behind the result gutter, line by
/// line for plain text (so a result can be laid out a piece at a time).
pub(super) fn presented(
    presentation: &Presentation,
    text: &str,
    is_error: bool,
    ctx: &LayoutContext<'_>,
) -> Vec<Line<'static>> {
    let gutter = [Span::styled(RESULT_GUTTER, gutter_style(is_error, ctx))];
    let inner = inner_width(ctx.width, RESULT_GUTTER);
    let code = inner + ctx.code_slack();
    let mut body = match presentation {
        Presentation::Plain if !ctx.wrap_results => plain_lines(text, None, ctx.theme),
        _ => present_highlighting(presentation, text, inner, code, ctx.theme, ctx.highlighting),
    };
    if is_error && matches!(presentation, Presentation::Plain) {
        body = body
            .into_iter()
            .map(|l| dim_line(l, ctx.theme.styles.error))
            .collect();
    }
    prefix_lines(body, &gutter, &gutter, ctx.width, inner)
}

pub(super) fn gutter_style(is_error: bool, ctx: &LayoutContext<'_>) -> Style {
    if is_error {
        ctx.theme.styles.error
    } else {
        ctx.theme.styles.turn_rule
    }
}

#[cfg(test)]
mod tests {
    use super::{WHOLE_RESULT_BYTES, WHOLE_RESULT_LINES, whole_lines};

    /// What `whole_lines` counts, by `str::lines`.
    fn by_lines(text: &str) -> usize {
        let mut bytes = 0;
        let mut count = 0;
        for line in text.lines().take(WHOLE_RESULT_LINES) {
            bytes += line.len() + 1;
            if bytes > WHOLE_RESULT_BYTES && count > 0 {
                break;
            }
            count += 1;
        }
        count
    }

    #[test]
    fn whole_lines_counts_the_lines_str_lines_gives() {
        let long = "x".repeat(WHOLE_RESULT_BYTES / 3);
        let many = "line\n".repeat(WHOLE_RESULT_LINES + 7);
        let texts = [
            "",
            "\n",
            "\n\n",
            "a",
            "a\n",
            "a\nb",
            "a\r\nb\r\n",
            "a\r\n\r\nb\r",
            "\r",
            &format!("{long}\n{long}\n{long}\n{long}\n"),
            &format!("{long}\r\n{long}\r\n{long}"),
            &many,
        ];
        for text in texts {
            assert_eq!(whole_lines(text), by_lines(text), "{:?}", &text[..text.len().min(20)]);
        }
    }
}
