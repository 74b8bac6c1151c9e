//! Searching laid-out lines: a smart-case query and marking its matches.
//! Measuring, cutting and shifting lines is [`crate::text`]'s job.

use std::ops::Range;

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::text::width::line_text;

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
            let lowered = text.as_bytes().to_ascii_lowercase();
            return memchr::memmem::find(&lowered, self.query.as_bytes()).is_some();
        }
        !self.find(text).is_empty()
    }

    /// Byte ranges of the non-overlapping matches in `text`.
    pub fn find(&self, text: &str) -> Vec<Range<usize>> {
        let len = self.query.len();
        if !self.ignore_case {
            return text
                .match_indices(self.query.as_str())
                .map(|(at, _)| at..at + len)
                .collect();
        }
        if self.query.is_ascii() {
            // A lower-case ASCII query: the text lowered byte by byte keeps
            // every offset, and a match starts and ends on ASCII bytes, so
            // on characters' edges. (The two characters outside ASCII that
            // lower to a letter in it, `İ` and the Kelvin sign, match only
            // themselves, as in `is_in`.)
            let lowered = text.as_bytes().to_ascii_lowercase();
            return memchr::memmem::find_iter(&lowered, self.query.as_bytes())
                .map(|at| at..at + len)
                .collect();
        }
        self.find_folding(text)
    }

    /// [`Matcher::find`] for a query outside ASCII, case ignored: each
    /// character of the text lowered and compared, from each place the
    /// query's first character can start. When that one is an ASCII letter
    /// other than `i` and `k` (the only ones a character outside ASCII
    /// lowers to: `İ`, the Kelvin sign), only its two bytes can start a
    /// match, found by `memchr2`.
    fn find_folding(&self, text: &str) -> Vec<Range<usize>> {
        let Some((&first, rest)) = self.folded.split_first() else {
            return Vec::new();
        };
        let starts: Option<(u8, u8)> = (first.is_ascii_alphanumeric() && !matches!(first, 'i' | 'k'))
            .then(|| (first as u8, first.to_ascii_uppercase() as u8));
        let mut out = Vec::new();
        let mut at = 0;
        while at < text.len() {
            if let Some((lower, upper)) = starts {
                match memchr::memchr2(lower, upper, &text.as_bytes()[at..]) {
                    Some(skip) => at += skip,
                    None => break,
                }
            }
            let mut chars = text[at..].chars();
            let Some(c) = chars.next() else { break };
            if fold(c, true) == first
                && let Some(end) = self.rest_matches(text, at + c.len_utf8(), rest)
            {
                out.push(at..end);
                at = end;
            } else {
                at += c.len_utf8();
            }
        }
        out
    }

    /// Where a match ends whose query characters `rest` start at byte
    /// `from` of `text`, if they all match there.
    fn rest_matches(&self, text: &str, from: usize, rest: &[char]) -> Option<usize> {
        let mut end = from;
        let mut chars = text[from..].chars();
        for &wanted in rest {
            let c = chars.next()?;
            if fold(c, true) != wanted {
                return None;
            }
            end += c.len_utf8();
        }
        Some(end)
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

#[cfg(test)]
mod tests {
    use ratatui::style::Modifier;

    use super::*;

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

    /// The matcher as it was before its byte searches: character by
    /// character, each lowered when case is ignored.
    fn char_by_char(m: &Matcher, text: &str) -> Vec<Range<usize>> {
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        let n = m.folded.len();
        let mut out = Vec::new();
        let mut i = 0;
        while i + n <= chars.len() {
            if (0..n).all(|j| fold(chars[i + j].1, m.ignore_case) == m.folded[j]) {
                out.push(chars[i].0..chars.get(i + n).map_or(text.len(), |c| c.0));
                i += n;
            } else {
                i += 1;
            }
        }
        out
    }

    /// `find` and `is_in` for `query` in `text` say what the
    /// character-by-character search says.
    fn finds_as_char_by_char(text: &str, query: &str) -> Result<(), proptest::test_runner::TestCaseError> {
        let m = Matcher::new(query).unwrap();
        let found = m.find(text);
        proptest::prop_assert_eq!(&found, &char_by_char(&m, text));
        proptest::prop_assert_eq!(m.is_in(text), !found.is_empty());
        Ok(())
    }

    proptest::proptest! {
        /// A query outside ASCII, case ignored, finds what the
        /// character-by-character search finds, `İ` and the Kelvin sign
        /// (lowered to `i` and `k`) included.
        #[test]
        fn a_query_outside_ascii_finds_what_a_character_by_character_search_finds(
            text in "[aAcCiIkKİ\u{212A}éÉßẞ漢🙂\u{301} \n]{0,60}",
            query in "[acikéß ]{0,2}[éß漢][acikéß ]{0,2}",
        ) {
            finds_as_char_by_char(&text, &query)?;
        }

        /// Every query finds what the character-by-character search finds,
        /// in any text of ASCII, accented letters, `ß`, CJK, emoji and
        /// combining marks (`İ` and the Kelvin sign aside: see `find`).
        #[test]
        fn byte_searches_find_what_a_character_by_character_search_finds(
            text in "[aAbBcCaaab éÉßẞ漢字🙂\u{301}\n]{0,60}",
            query in "[aAbBcCé ß]{1,4}",
        ) {
            finds_as_char_by_char(&text, &query)?;
        }
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
}
