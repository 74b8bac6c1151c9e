//! A hit's line fitted to a number of columns so that its first match
//! stays in view: the line, sanitized for a terminal, cut before the match
//! (with `…`) when what precedes it would push the match out. Shared by
//! `overhear search` and the viewer's list of hits; the caller cuts the
//! end and styles the pieces.

use std::ops::Range;

use crate::text::sanitize::echo_line;
use crate::text::truncate::truncate_start;
use crate::text::width::display_width;

/// A piece of a hit's line: text ready for a terminal, and whether it is a
/// match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// The text, sanitized (an escape sequence shown as `␛`).
    pub text: String,
    /// Whether it is a match (to be marked).
    pub matched: bool,
}

/// `line` cut into pieces at `matches` (byte ranges, in order), each
/// sanitized; with `width`, the text before the first match is cut from its
/// start to at most a third of the width (less when the match is wider), so
/// that the first match begins within the width.
pub fn fit(line: &str, matches: &[Range<usize>], width: Option<usize>) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut at = 0;
    let piece = |range: Range<usize>, matched| Piece {
        text: line
            .get(range)
            .map(|text| echo_line(text).into_owned())
            .unwrap_or_default(),
        matched,
    };
    for range in matches {
        if range.start < at || range.end > line.len() {
            continue;
        }
        if range.start > at {
            pieces.push(piece(at..range.start, false));
        }
        pieces.push(piece(range.clone(), true));
        at = range.end;
    }
    if at < line.len() {
        pieces.push(piece(at..line.len(), false));
    }
    let Some(width) = width else {
        return pieces;
    };
    let total: usize = pieces.iter().map(|p| display_width(&p.text)).sum();
    if total <= width || pieces.len() < 2 || pieces[0].matched {
        return pieces;
    }
    let matched = display_width(&pieces[1].text);
    let lead = (width / 3).min(width.saturating_sub(matched + 1));
    if display_width(&pieces[0].text) > lead {
        pieces[0].text = truncate_start(&pieces[0].text, lead);
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(pieces: &[Piece]) -> String {
        pieces.iter().map(|p| p.text.as_str()).collect()
    }

    #[test]
    fn the_text_before_a_match_gives_way_to_it() {
        let line = format!("{} kiwi after", "x".repeat(100));
        let at = line.find("kiwi").unwrap();
        let pieces = fit(&line, std::slice::from_ref(&(at..at + 4)), Some(30));
        assert_eq!(pieces[1], Piece { text: "kiwi".into(), matched: true });
        assert_eq!(pieces[0].text, "…xxxxxxxx ");
        assert!(display_width(&pieces[0].text) <= 10);
        // Room enough: nothing cut.
        let whole = fit(&line, std::slice::from_ref(&(at..at + 4)), Some(200));
        assert_eq!(text(&whole), line);
        assert_eq!(fit(&line, std::slice::from_ref(&(at..at + 4)), None).len(), 3);
    }

    #[test]
    fn pieces_are_sanitized() {
        let line = "a \u{1b}[2J kiwi \u{1b}]0;x\u{7}";
        let at = line.find("kiwi").unwrap();
        let all = text(&fit(line, std::slice::from_ref(&(at..at + 4)), None));
        assert!(!all.contains('\u{1b}'), "{all:?}");
        assert!(all.contains("kiwi"));
    }
}
