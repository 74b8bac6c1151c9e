//! How much of a text is laid out as markdown. The parser builds a node of a
//! few hundred bytes for each block it opens and each piece of inline markup,
//! so four bytes of `*a* ` or `- x` cost a kilobyte: a 4 MB reply of either
//! took a gigabyte. Each text gets a budget of nodes, estimated in one pass
//! over its lines; where it runs out, the rest of the text is shown as
//! written, line by line, and the parser never sees it (docs/hardening.md,
//! "Bounded work").

use super::as_written::prose_lines;
use super::nesting::containers_opened;

/// The cost a text may have before the rest of it is shown as written: in
/// units of about half a parser node (some 200 bytes), so about 25 MiB of
/// nodes at most. Ordinary prose costs a unit for every ten bytes or so: a
/// megabyte of it is laid out whole (and a longer reply is cut into pieces
/// that are laid out one at a time, each with its own budget).
pub(crate) const MAX_COST: usize = 1 << 17;

/// What a prose line costs: its text and its line break.
const LINE: usize = 2;
/// What each block a line opens costs (a list and its item, a quote and its
/// paragraph).
const BLOCK: usize = 4;
/// What each byte that may be inline markup costs (the markup's node and
/// the text node it splits).
const MARKUP: usize = 4;
/// What a line inside fenced code costs: no node, a line laid out.
const CODE_LINE: usize = 1;

/// Where `text` stops being laid out as markdown: the start of the first
/// line past [`MAX_COST`], or `None` when the whole text is within it. One
/// pass, linear in the text.
pub(crate) fn markdown_end(text: &str) -> Option<usize> {
    // No line or byte costs more than this per byte: a short text is within.
    if text.len().saturating_mul(BLOCK + LINE) < MAX_COST {
        return None;
    }
    let mut cost = 0usize;
    let mut end = None;
    // Where the last prose line ended, and the quotes it had open.
    let mut after = 0;
    let mut quotes_before = 0;
    prose_lines(text, |start, line| {
        if end.is_some() {
            return;
        }
        // The lines of fenced code skipped since the last prose line.
        cost += CODE_LINE * text.as_bytes()[after..start].iter().filter(|b| **b == b'\n').count();
        let Some(line) = line else {
            after = start;
            quotes_before = 0;
            return;
        };
        after = start + line.len();
        let opened = containers_opened(line.as_bytes());
        let new_blocks = opened.blocks - opened.quotes.min(quotes_before);
        quotes_before = if line.trim().is_empty() { 0 } else { opened.quotes };
        let markup = line.as_bytes()[opened.end..]
            .iter()
            .filter(|b| is_markup(**b))
            .count();
        cost += LINE + BLOCK * new_blocks + MARKUP * markup;
        if cost > MAX_COST {
            end = Some(start);
        }
    });
    if end.is_none() {
        cost += CODE_LINE * text.as_bytes()[after..].iter().filter(|b| **b == b'\n').count();
        if cost > MAX_COST {
            // Within the last fence: the rest of it is shown as written.
            end = Some(after);
        }
    }
    end.filter(|&end| end < text.len())
}

/// Bytes that may open or close inline markup, an autolink, an entity or an
/// escape.
fn is_markup(b: u8) -> bool {
    matches!(
        b,
        b'*' | b'_' | b'`' | b'[' | b']' | b'<' | b'>' | b'!' | b'~' | b'|' | b'\\' | b'&' | b':'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_text_is_laid_out_whole() {
        let prose = "Some *words*, a [link](https://example.com) and `code`.\n\n".repeat(2_000);
        assert!(prose.len() > 100_000);
        assert_eq!(markdown_end(&prose), None);
        let code = format!("```rust\n{}```\n", "let x = a[i] * b[j] | c;\n".repeat(50_000));
        assert_eq!(markdown_end(&code), None);
    }

    #[test]
    fn markup_on_every_byte_runs_out_at_a_line_start() {
        let line = "*a* ".repeat(20) + "\n";
        let text = line.repeat(5_000);
        let end = markdown_end(&text).expect("over the budget");
        assert_eq!(end % line.len(), 0, "at a line start");
        // Each line costs 2 + 4 × 40 units.
        assert_eq!(end / line.len(), MAX_COST / (LINE + MARKUP * 40));
    }

    #[test]
    fn quotes_a_line_continues_cost_nothing_but_new_ones_do() {
        // Quotes nested one level more on each line: each line opens one.
        let deeper: String = (1..=1_000)
            .map(|level| format!("{}quote {level}\n", "> ".repeat(level)))
            .collect();
        assert_eq!(markdown_end(&deeper), None);
        // The same depth after a blank line opens every quote again.
        let reopened = format!("{}x\n\n", "> ".repeat(1_000)).repeat(40);
        assert!(markdown_end(&reopened).is_some());
        // List items always open anew.
        let items = format!("{}x\n\n", "- ".repeat(32)).repeat(2_000);
        assert!(markdown_end(&items).is_some());
    }
}
