//! Laid-out lines (the terminal's layout of a card, a notice, structured
//! data) as HTML: a `<pre>` of spans whose class carries the pair of
//! styles the dark and the light theme give each character, read from the
//! roles the block was laid out with ([`crate::export::Roles`]).

use std::fmt::Write as _;

use ratatui::style::Style;
use ratatui::text::Line;

use super::css::Classes;
use super::escape_into;
use crate::export::{Laid, Layouts};
use crate::render::layout::result_gutter_spans;

/// The columns each gutter takes, a result's (`  │ `) as a sub-agent's: a
/// result's line hangs from its gutters (4 columns, the stylesheet's
/// default; more, as the line says, in a sub-agent's card).
const GUTTER_COLUMNS: usize = 4;

/// The (dark, light) style of a run of text.
type Pair = (Style, Style);

/// The pair of text in no style of its own: written without a `<span>`.
const DEFAULT: Pair = (Style::new(), Style::new());

/// Laid-out lines as a `<pre>` of class `kind`; nothing when all blank.
pub(super) fn pre(
    kind: &str,
    laid: &Laid,
    layouts: &Layouts<'_>,
    classes: &mut Classes,
    body: &mut String,
) {
    let blank = |line: &Line<'_>| line.spans.iter().all(|s| s.content.trim().is_empty());
    let Some(end) = laid.lines.iter().rposition(|line| !blank(line)) else {
        return;
    };
    let _ = write!(body, "<pre class=\"{kind}\">");
    let mut run = Run::default();
    let mut after_block = true;
    for (i, line) in laid.lines[..=end].iter().enumerate() {
        let pair = |style: Style| layouts.roles().pair(line.style.patch(style));
        // A result's line is a block of its own, hanging from its gutters
        // (the browser wraps it); the gutters cannot be selected, so a
        // copied line is the tool's text.
        let gutters = result_gutter_spans(line);
        if gutters > 0 {
            let hang = gutters * GUTTER_COLUMNS;
            // The line break is inside the tag, not in the text: the page's
            // source keeps a line per line, the page shows none.
            if gutters == 1 {
                body.push_str("<span\nclass=\"r\">");
            } else {
                let _ = write!(body, "<span\nclass=\"r\" style=\"--hang:{hang}ch\">");
            }
            for span in &line.spans[..gutters] {
                match pair(span.style) {
                    DEFAULT => body.push_str("<span class=\"g\">"),
                    pair => classes.open_span(pair, " g", body),
                }
                escape_into(&span.content, body);
                body.push_str("</span>");
            }
        } else if !after_block {
            body.push('\n');
        }
        after_block = gutters > 0;
        let spans = &line.spans[gutters..];
        // The characters of the gutters, for the light layout's line.
        let skipped: usize = line.spans[..gutters]
            .iter()
            .map(|s| s.content.chars().count())
            .sum();
        match laid.light.as_ref().map(|light| light.get(i)) {
            None => {
                for span in spans {
                    run.push(&span.content, pair(span.style), classes, body);
                }
            }
            // A block with colours of its own, laid out in both themes.
            Some(Some(light)) if crate::export::plain(Some(line)) == crate::export::plain(Some(light)) => {
                let light_chars = light.spans.iter().flat_map(|s| {
                    let style = light.style.patch(s.style);
                    s.content.chars().map(move |_| style)
                });
                let mut chars = spans
                    .iter()
                    .flat_map(|s| {
                        let dark = pair(s.style).0;
                        s.content.chars().map(move |c| (c, dark))
                    })
                    .zip(light_chars.skip(skipped));
                let mut buffer = [0u8; 4];
                for ((c, dark), light) in &mut chars {
                    run.push(c.encode_utf8(&mut buffer), (dark, light), classes, body);
                }
            }
            // The two layouts differ (never expected): the dark one's
            // styles for both.
            Some(_) => {
                for span in spans {
                    let dark = pair(span.style).0;
                    run.push(&span.content, (dark, dark), classes, body);
                }
            }
        }
        run.flush(body);
        if gutters > 0 {
            body.push_str("</span>");
        }
    }
    body.push_str("</pre>\n");
}

/// Text of one (dark, light) style written as it comes, in one `<span>`
/// until the style changes: adjacent spans that look the same in both
/// themes are one `<span>`.
#[derive(Default)]
struct Run {
    /// The style of the text written since the run opened: a `<span>` is
    /// open unless it is the default.
    pair: Option<Pair>,
}

impl Run {
    /// Writes `text` of style `pair`, closing the run before it when the
    /// style changes.
    fn push(&mut self, text: &str, pair: Pair, classes: &mut Classes, body: &mut String) {
        if text.is_empty() {
            return;
        }
        if self.pair != Some(pair) {
            self.flush(body);
            self.pair = Some(pair);
            if pair != DEFAULT {
                classes.open_span(pair, "", body);
            }
        }
        escape_into(text, body);
    }

    /// Ends the run: closes its `<span>`, if it opened one.
    fn flush(&mut self, body: &mut String) {
        if self.pair.take().is_some_and(|pair| pair != DEFAULT) {
            body.push_str("</span>");
        }
    }
}

#[cfg(test)]
mod tests {
    use ratatui::text::{Line, Span};

    use super::GUTTER_COLUMNS;
    use crate::render::layout::result_gutter_spans;
    use crate::text::width::spans_width;

    fn line(spans: &[&'static str]) -> Line<'static> {
        Line::from(spans.iter().map(|s| Span::raw(*s)).collect::<Vec<_>>())
    }

    #[test]
    fn a_results_line_hangs_from_every_gutter_in_front_of_it() {
        let cases: [(&[&str], usize); 6] = [
            (&["  │ ", "cargo build"], 1),
            (&["  │"], 1),
            (&["  ┆ ", "  │ ", "nested result"], 2),
            (&["  ┆ ", "  ┆ ", "  │"], 3),
            // A sub-agent's prose, and a card's head, are not a result's.
            (&["  ┆ ", "I'll look at the plan."], 0),
            (&["    $ make"], 0),
        ];
        for (spans, gutters) in cases {
            let line = line(spans);
            assert_eq!(result_gutter_spans(&line), gutters, "{spans:?}");
            if gutters > 0 && spans[gutters - 1].ends_with(' ') {
                assert_eq!(spans_width(&line.spans[..gutters]), gutters * GUTTER_COLUMNS);
            }
        }
    }
}
