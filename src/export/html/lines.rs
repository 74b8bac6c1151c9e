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

/// The (dark, light) style of a run of text.
type Pair = (Style, Style);

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
    for (i, line) in laid.lines[..=end].iter().enumerate() {
        if i > 0 {
            body.push('\n');
        }
        let pair = |style: Style| layouts.roles().pair(line.style.patch(style));
        match laid.light.as_ref().map(|light| light.get(i)) {
            None => {
                for span in &line.spans {
                    run.push(&span.content, pair(span.style), classes, body);
                }
            }
            // A block with colours of its own, laid out in both themes.
            Some(Some(light)) if crate::export::plain(Some(line)) == crate::export::plain(Some(light)) => {
                let light_chars = light.spans.iter().flat_map(|s| {
                    let style = light.style.patch(s.style);
                    s.content.chars().map(move |_| style)
                });
                let mut chars = line
                    .spans
                    .iter()
                    .flat_map(|s| {
                        let dark = pair(s.style).0;
                        s.content.chars().map(move |c| (c, dark))
                    })
                    .zip(light_chars);
                let mut buffer = [0u8; 4];
                for ((c, dark), light) in &mut chars {
                    run.push(c.encode_utf8(&mut buffer), (dark, light), classes, body);
                }
            }
            // The two layouts differ (never expected): the dark one's
            // styles for both.
            Some(_) => {
                for span in &line.spans {
                    let dark = pair(span.style).0;
                    run.push(&span.content, (dark, dark), classes, body);
                }
            }
        }
        run.flush(classes, body);
    }
    body.push_str("</pre>\n");
}

/// Text of one (dark, light) style gathered until the style changes:
/// adjacent spans that look the same in both themes are one `<span>`.
#[derive(Default)]
struct Run {
    pair: Option<Pair>,
    text: String,
}

impl Run {
    /// Adds `text` of style `pair`, writing out what came before it when
    /// the style changes.
    fn push(&mut self, text: &str, pair: Pair, classes: &mut Classes, body: &mut String) {
        if text.is_empty() {
            return;
        }
        if self.pair != Some(pair) {
            self.flush(classes, body);
            self.pair = Some(pair);
        }
        self.text.push_str(text);
    }

    /// Writes the gathered text: as it is in the default style, else in a
    /// span of the pair's class.
    fn flush(&mut self, classes: &mut Classes, body: &mut String) {
        let Some(pair) = self.pair.take() else {
            return;
        };
        if pair == (Style::default(), Style::default()) {
            escape_into(&self.text, body);
        } else {
            let n = classes.of(pair);
            let _ = write!(body, "<span class=\"s{n}\">");
            escape_into(&self.text, body);
            body.push_str("</span>");
        }
        self.text.clear();
    }
}
