//! Laid-out lines (the terminal's layout of a card, a notice, structured
//! data) as HTML: a `<pre>` of spans whose class carries the pair of
//! styles the dark and the light theme gave each character.

use std::fmt::Write as _;

use ratatui::style::Style;
use ratatui::text::Line;

use super::css::Classes;
use super::escape;
use crate::export::Laid;

/// A segment of a line: its text and its (dark, light) style.
pub(super) type Segment = (String, (Style, Style));

/// Laid-out lines as a `<pre>` of class `kind`; nothing when all blank.
pub(super) fn pre(kind: &str, laid: &Laid, classes: &mut Classes, body: &mut String) {
    let mut lines = zip(laid);
    while lines
        .last()
        .is_some_and(|l| l.iter().all(|(t, _)| t.trim().is_empty()))
    {
        lines.pop();
    }
    if lines.is_empty() {
        return;
    }
    let _ = write!(body, "<pre class=\"{kind}\">");
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            body.push('\n');
        }
        spans(line, classes, body);
    }
    body.push_str("</pre>\n");
}

/// One line's segments as spans.
pub(super) fn spans(line: &[Segment], classes: &mut Classes, body: &mut String) {
    for (text, pair) in line {
        let trimmed = text.as_str();
        if *pair == (Style::default(), Style::default()) {
            body.push_str(&escape(trimmed));
        } else {
            let n = classes.of(*pair);
            let _ = write!(body, "<span class=\"s{n}\">{}</span>", escape(trimmed));
        }
    }
}

/// The dark and the light lines as segments of constant (dark, light) style.
/// Both layouts have the same text; a line where they differ (never
/// expected) keeps the dark one's styles for both.
pub(super) fn zip(laid: &Laid) -> Vec<Vec<Segment>> {
    laid.dark
        .iter()
        .enumerate()
        .map(|(i, dark)| match laid.light.get(i) {
            Some(light) if crate::export::plain(Some(dark)) == crate::export::plain(Some(light)) => {
                merge(dark, light)
            }
            _ => dark
                .spans
                .iter()
                .map(|s| {
                    (
                        s.content.to_string(),
                        (dark.style.patch(s.style), dark.style.patch(s.style)),
                    )
                })
                .collect(),
        })
        .collect()
}

/// Per character styles of a line.
fn char_styles(line: &Line<'_>) -> Vec<(char, Style)> {
    line.spans
        .iter()
        .flat_map(|s| {
            let style = line.style.patch(s.style);
            s.content.chars().map(move |c| (c, style))
        })
        .collect()
}

/// The segments of a line laid out twice, by (dark, light) style.
fn merge(dark: &Line<'_>, light: &Line<'_>) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::new();
    for ((c, d), (_, l)) in char_styles(dark).into_iter().zip(char_styles(light)) {
        match out.last_mut() {
            Some((text, pair)) if *pair == (d, l) => text.push(c),
            _ => out.push((c.to_string(), (d, l))),
        }
    }
    out
}

