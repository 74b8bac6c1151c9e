//! Lines that open more blocks than the layout lays out: a list or quote
//! nested tens of thousands deep on one line (`- - - … x`, `> > > …`,
//! `1. 1. 1. …`). The parser builds every level before the layout shows
//! those past [`MAX_DEPTH`] as plain text, a few hundred bytes each: 200 KB
//! of `- ` took 140 MB. Such a line is shown as written instead, behind a
//! note, and the parser never sees it (docs/hardening.md, "Bounded work").

use std::borrow::Cow;

/// Lines opening more blocks than this are shown as written. Above the
/// layout's own depth ([`super::MAX_DEPTH`], past which it shows plain
/// text), so that text nested a thousand deep, one level a line, still
/// reads as it always has.
pub(super) const MAX_DEPTH: usize = 1024;
use super::as_written::{AsWritten, Fenced, fenced, prose_lines};

/// `text` with every line (outside fenced code) that opens more than
/// [`MAX_DEPTH`] block quotes and list items put in a fenced code block
/// behind a note (neighbouring ones in one block): one pass, linear in the
/// text. Borrowed when there is none; with where each line went.
pub(super) fn deep_lines_as_written(text: &str) -> (Cow<'_, str>, Vec<Fenced>) {
    let mut parts: Vec<(AsWritten, usize)> = Vec::new();
    prose_lines(text, |start, line| {
        let Some(line) = line else { return };
        let depth = containers_opened(line.as_bytes()).blocks;
        if depth <= MAX_DEPTH {
            return;
        }
        let end = start + line.len();
        match parts.last_mut() {
            Some((part, deepest)) if part.end == start => {
                part.end = end;
                *deepest = (*deepest).max(depth);
            }
            _ => parts.push((
                AsWritten {
                    start,
                    end,
                    note: String::new(),
                },
                depth,
            )),
        }
    });
    let parts: Vec<AsWritten> = parts
        .into_iter()
        .map(|(part, depth)| AsWritten {
            note: format!(
                "(markdown nested {depth} levels deep on one line, shown as written: lines \
                 opening more than {MAX_DEPTH} blocks are not laid out)"
            ),
            ..part
        })
        .collect();
    fenced(text, &parts)
}

fn is_blank(b: &u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// The blocks a line opens at its start, before its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Opened {
    /// Block quotes and list items, in all.
    pub(super) blocks: usize,
    /// The block quotes before the first list item (a line continues those
    /// of the line before it).
    pub(super) quotes: usize,
    /// Where the text after them begins.
    pub(super) end: usize,
}

/// The block quotes (`>`) and list items (`-`, `*`, `+`, `1.`, `1)`
/// followed by a blank) `line` opens one after another from its start,
/// blanks between them. Where the rest of the line is a thematic break
/// (`- - -`), no item opens.
pub(super) fn containers_opened(line: &[u8]) -> Opened {
    let rule = thematic_break_from(line);
    let mut opened = Opened {
        blocks: 0,
        quotes: 0,
        end: 0,
    };
    let mut in_item = false;
    let mut at = 0;
    loop {
        while line.get(at).is_some_and(is_blank) {
            at += 1;
        }
        if at >= rule {
            return opened;
        }
        let after = match line.get(at) {
            Some(b'>') => at + 1,
            Some(b'-' | b'*' | b'+') => at + 1,
            Some(b'0'..=b'9') => {
                let digits = line[at..].iter().take_while(|b| b.is_ascii_digit()).count();
                match line.get(at + digits) {
                    Some(b'.' | b')') if digits <= 9 => at + digits + 1,
                    _ => return opened,
                }
            }
            _ => return opened,
        };
        let quote = line[at] == b'>';
        if !quote && !line.get(after).is_none_or(is_blank) {
            return opened;
        }
        in_item |= !quote;
        opened.blocks += 1;
        if !in_item {
            opened.quotes += 1;
        }
        at = after;
        opened.end = at;
    }
}

/// Where the thematic break that ends `line` begins: the start of its
/// longest tail made of blanks and three or more of one of `-`, `*`, `_`;
/// the line's length when it ends in none.
fn thematic_break_from(line: &[u8]) -> usize {
    let mut mark = None;
    let mut marks = 0;
    let mut from = line.len();
    for (at, b) in line.iter().enumerate().rev() {
        if is_blank(b) {
            continue;
        }
        if !matches!(b, b'-' | b'*' | b'_') || mark.is_some_and(|m| m != *b) {
            break;
        }
        mark = Some(*b);
        marks += 1;
        from = at;
    }
    if marks >= 3 { from } else { line.len() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_and_items_opened_on_a_line_are_counted() {
        let blocks = |line: &[u8]| containers_opened(line).blocks;
        assert_eq!(blocks(b"- - - x\n"), 3);
        assert_eq!(blocks(b"> > >x"), 3);
        assert_eq!(blocks(b">>> - 1. 2) x"), 6);
        assert_eq!(blocks(b"  * + text"), 2);
        assert_eq!(blocks(b"-x"), 0);
        assert_eq!(blocks(b"1.5 apples"), 0);
        assert_eq!(blocks(b"1234567890. x"), 0);
        assert_eq!(blocks(b"- -"), 2);
        // A thematic break is no item, inside a quote or item or not.
        assert_eq!(blocks(b"- - - -\n"), 0);
        assert_eq!(blocks(b"> > * * *"), 2);
        assert_eq!(blocks(b"* - - -"), 1);
    }

    #[test]
    fn the_quotes_before_the_first_item_and_where_the_text_begins_are_told() {
        assert_eq!(
            containers_opened(b"> > - > x"),
            Opened {
                blocks: 4,
                quotes: 2,
                end: 7
            }
        );
        assert_eq!(
            containers_opened(b"plain"),
            Opened {
                blocks: 0,
                quotes: 0,
                end: 0
            }
        );
    }

    #[test]
    fn ordinary_markdown_is_left_as_it_is() {
        let text = "- a\n  - b\n    - c\n\n> quoted\n> > twice\n\n1. one\n2. two\n\n---\n";
        assert!(matches!(deep_lines_as_written(text).0, Cow::Borrowed(_)));
        let just_deep_enough = format!("{}x\n", "- ".repeat(MAX_DEPTH));
        assert!(matches!(
            deep_lines_as_written(&just_deep_enough).0,
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn a_line_nested_too_deep_is_fenced_behind_a_note_and_code_is_not_looked_at() {
        let deep = format!("{}x\n", "> ".repeat(MAX_DEPTH + 1));
        let text = format!("before\n{deep}{deep}after\n```\n{deep}```\n");
        let (out, _) = deep_lines_as_written(&text);
        assert_eq!(
            out,
            format!(
                "before\n\n*(markdown nested 1025 levels deep on one line, shown as written: lines \
                 opening more than 1024 blocks are not laid out)*\n\n```\n{deep}{deep}```\n\nafter\n```\n{deep}```\n"
            )
        );
    }
}
