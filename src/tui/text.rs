//! Small operations on laid-out lines: their plain text, shifting them left
//! for horizontal scrolling, and marking search matches. Columns are counted
//! by the wrapper's own measure ([`grapheme_width`]), so that what was
//! laid out to fit is cut where it was measured.

use std::ops::Range;

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_segmentation::UnicodeSegmentation;

use crate::render::wrap::{display_width, grapheme_width};

/// The characters of `line`, styles dropped.
pub fn line_text(line: &Line<'_>) -> String {
    line.spans.iter().map(|s| s.content.as_ref()).collect()
}

/// `line` without its first `cols` display columns; a wide character cut in
/// half becomes a space so that the columns after it stay aligned.
pub fn shift(line: &Line<'static>, cols: usize) -> Line<'static> {
    if cols == 0 {
        return line.clone();
    }
    let mut skipped = 0;
    let mut spans = Vec::new();
    for span in &line.spans {
        if skipped >= cols {
            spans.push(span.clone());
            continue;
        }
        let mut kept = String::new();
        for g in span.content.graphemes(true) {
            if skipped >= cols {
                kept.push_str(g);
                continue;
            }
            let w = grapheme_width(g);
            skipped += w;
            if skipped > cols {
                kept.push_str(&" ".repeat(skipped - cols));
            }
        }
        if !kept.is_empty() {
            spans.push(Span::styled(kept, span.style));
        }
    }
    Line::from(spans).style(line.style)
}

/// A search query with vim's smart case: ignoring case unless it has capitals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Matcher {
    query: String,
    folded: Vec<char>,
    ignore_case: bool,
}

impl Matcher {
    /// A matcher for `query`; `None` when the query is empty.
    pub fn new(query: &str) -> Option<Matcher> {
        if query.is_empty() {
            return None;
        }
        let ignore_case = !query.chars().any(char::is_uppercase);
        Some(Matcher {
            query: query.to_string(),
            folded: query.chars().map(|c| fold(c, ignore_case)).collect(),
            ignore_case,
        })
    }

    /// The query as typed.
    pub fn query(&self) -> &str {
        &self.query
    }

    /// Whether `text` contains the query.
    pub fn is_in(&self, text: &str) -> bool {
        if !self.ignore_case {
            return text.contains(&self.query);
        }
        if self.query.is_ascii() {
            let q = self.query.as_bytes();
            return text
                .as_bytes()
                .windows(q.len())
                .any(|w| w.eq_ignore_ascii_case(q));
        }
        !self.find(text).is_empty()
    }

    /// Byte ranges of the non-overlapping matches in `text`.
    pub fn find(&self, text: &str) -> Vec<Range<usize>> {
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        let n = self.folded.len();
        let mut out = Vec::new();
        let mut i = 0;
        while i + n <= chars.len() {
            let hit = (0..n).all(|j| fold(chars[i + j].1, self.ignore_case) == self.folded[j]);
            if hit {
                let end = chars.get(i + n).map_or(text.len(), |c| c.0);
                out.push(chars[i].0..end);
                i += n;
            } else {
                i += 1;
            }
        }
        out
    }
}

fn fold(c: char, ignore_case: bool) -> char {
    if ignore_case {
        c.to_lowercase().next().unwrap_or(c)
    } else {
        c
    }
}

/// `line` with every match of `matcher` restyled by `style`.
pub fn highlight(line: &Line<'static>, matcher: &Matcher, style: Style) -> Line<'static> {
    let text = line_text(line);
    let hits = matcher.find(&text);
    if hits.is_empty() {
        return line.clone();
    }
    let mut spans = Vec::new();
    let mut offset = 0;
    for span in &line.spans {
        let content = span.content.as_ref();
        let range = offset..offset + content.len();
        let mut cuts = vec![0, content.len()];
        for hit in &hits {
            for edge in [hit.start, hit.end] {
                if edge > range.start && edge < range.end {
                    cuts.push(edge - range.start);
                }
            }
        }
        cuts.sort_unstable();
        cuts.dedup();
        for pair in cuts.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            if a == b {
                continue;
            }
            let at = range.start + a;
            let inside = hits.iter().any(|h| h.start <= at && at < h.end);
            let piece = content[a..b].to_string();
            let piece_style = if inside {
                span.style.patch(style)
            } else {
                span.style
            };
            spans.push(Span::styled(piece, piece_style));
        }
        offset = range.end;
    }
    Line::from(spans).style(line.style)
}

/// `text` cut to `width` columns, with `…` when it was longer.
pub fn truncate(text: &str, width: usize) -> String {
    if display_width(text) <= width {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for g in text.graphemes(true) {
        let w = grapheme_width(g);
        if used + w + 1 > width {
            break;
        }
        out.push_str(g);
        used += w;
    }
    if width > 0 {
        out.push('…');
    }
    out
}

/// `text` cut to its last `width` columns, with `…` in front when it was
/// longer (for text being typed: its end is what matters).
pub fn truncate_start(text: &str, width: usize) -> String {
    if display_width(text) <= width {
        return text.to_string();
    }
    let mut kept = Vec::new();
    let mut used = 0;
    for g in text.graphemes(true).rev() {
        let w = grapheme_width(g);
        if used + w + 1 > width {
            break;
        }
        kept.push(g);
        used += w;
    }
    let mut out = String::new();
    if width > 0 {
        out.push('…');
    }
    out.extend(kept.into_iter().rev());
    out
}

#[cfg(test)]
mod tests {
    use ratatui::style::{Color, Modifier};

    use super::*;

    #[test]
    fn shifting_drops_columns_across_spans() {
        let line = Line::from(vec![
            Span::raw("abc"),
            Span::styled("defg", Style::new().fg(Color::Red)),
        ]);
        let shifted = shift(&line, 4);
        assert_eq!(line_text(&shifted), "efg");
        assert_eq!(shifted.spans[0].style.fg, Some(Color::Red));
    }

    #[test]
    fn shifting_through_a_wide_character_keeps_alignment() {
        let line = Line::from("a界b");
        assert_eq!(line_text(&shift(&line, 2)), " b");
        assert_eq!(line_text(&shift(&line, 3)), "b");
    }

    #[test]
    fn shifting_counts_an_emoji_sequence_as_the_wrapper_does() {
        // A family emoji: one cluster the wrapper counts 8 columns wide (its
        // characters' widths added up, as xterm and tmux draw it).
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}";
        let line = Line::from(format!("{family}xyz"));
        let cols = display_width(family);
        assert_eq!(line_text(&shift(&line, cols)), "xyz");
        assert_eq!(line_text(&shift(&line, cols + 1)), "yz");
        assert_eq!(
            truncate(&format!("{family}xyz"), cols + 2),
            format!("{family}x…")
        );
    }

    #[test]
    fn smart_case_ignores_case_only_for_lowercase_queries() {
        let lower = Matcher::new("parser").unwrap();
        assert!(lower.is_in("The Parser"));
        let upper = Matcher::new("Parser").unwrap();
        assert!(!upper.is_in("the parser"));
        assert!(upper.is_in("the Parser"));
        assert!(Matcher::new("").is_none());
    }

    #[test]
    fn non_ascii_queries_fold_case_too() {
        let m = Matcher::new("éclair").unwrap();
        assert!(m.is_in("ÉCLAIR au chocolat"));
        assert_eq!(m.find("un Éclair"), vec![3..10]);
    }

    #[test]
    fn highlight_splits_spans_at_match_edges() {
        let line = Line::from(vec![Span::raw("the par"), Span::raw("ser and parser")]);
        let m = Matcher::new("parser").unwrap();
        let mark = Style::new().add_modifier(Modifier::REVERSED);
        let out = highlight(&line, &m, mark);
        assert_eq!(line_text(&out), "the parser and parser");
        let marked: Vec<&str> = out
            .spans
            .iter()
            .filter(|s| s.style.add_modifier.contains(Modifier::REVERSED))
            .map(|s| s.content.as_ref())
            .collect();
        assert_eq!(marked, ["par", "ser", "parser"]);
    }

    #[test]
    fn truncate_marks_the_cut() {
        assert_eq!(truncate("conversation", 6), "conve…");
        assert_eq!(truncate("short", 6), "short");
        assert_eq!(truncate_start("conversation", 6), "…ation");
        assert_eq!(truncate_start("short", 6), "short");
    }
}
