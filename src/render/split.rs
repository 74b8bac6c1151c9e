//! Cutting the text of a huge block into pieces that are laid out one at a
//! time, so that the first screen of a 50 MB message or of a million-line
//! result costs what is on it, not the whole block.
//!
//! A cut is only made where laying out the pieces one after another gives
//! exactly the lines of laying out the whole: between two top-level markdown
//! blocks for speech, between two lines for a plain result. Where that cannot
//! be told for sure by looking at lines (an HTML block, a fence whose
//! container is unclear, an escape sequence the sanitizer would read across
//! lines, a link or footnote definition that reaches across the text), no
//! cut is made. Nothing here lays anything out.

use std::borrow::Cow;
use std::ops::Range;

/// When a block's text is cut, and how finely.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SplitLimits {
    /// Texts of up to this many bytes stay whole.
    pub above: usize,
    /// A piece ends at the first possible cut after this many bytes.
    pub bytes: usize,
    /// A piece of plain lines holds at most this many lines.
    pub lines: usize,
}

impl Default for SplitLimits {
    /// 256 KiB and more is cut, in pieces of about 64 KiB or 2,048 lines:
    /// a few milliseconds of layout each.
    fn default() -> Self {
        SplitLimits {
            above: 256 * 1024,
            bytes: 64 * 1024,
            lines: 2048,
        }
    }
}

/// The byte ranges of markdown `text`, in order and together covering it,
/// that can be laid out separately (blocks joined by one blank line). One
/// range when the text is small or offers no safe cut.
pub fn markdown_pieces(text: &str, limits: &SplitLimits) -> Vec<Range<usize>> {
    // A definition (`[x]: url`, `[^x]: note`) is used anywhere in the text;
    // an HTML comment dropped inside a paragraph changes how the next one starts.
    if text.len() <= limits.above || text.contains("]:") || text.contains("<!--") {
        return ranges(Vec::new(), text.len());
    }
    let bytes = text.as_bytes();
    let mut cuts = Vec::new();
    let mut start = 0;
    let mut fence: Option<Fence> = None;
    let mut after_blank = false;
    // Whether the piece so far shows something: a piece laid out as nothing
    // would leave a blank line too many between its neighbours.
    let mut shows = false;
    for line in lines(text) {
        let content = &bytes[line.clone()];
        // The sanitizer may read an escape sequence on into the next lines,
        // or leave nothing of a line of controls.
        let escape = has_control(content);
        if let Some(open) = fence {
            if escape {
                break;
            }
            if open.closed_by(content) {
                fence = None;
            } else {
                shows |= !is_blank(content);
            }
            after_blank = false;
            continue;
        }
        if is_blank(content) {
            after_blank = true;
            continue;
        }
        let cut = after_blank && shows && !escape && line.start - start >= limits.bytes;
        if cut && starts_top_level_block(content) {
            cuts.push(line.start);
            start = line.start;
            shows = false;
        }
        after_blank = false;
        if escape {
            break;
        }
        let indent = indentation(content);
        let rest = content.trim_ascii_start();
        if rest.first() == Some(&b'<') {
            // An HTML block may run across blank lines.
            break;
        }
        if let Some(open) = Fence::opened_by(rest) {
            if indent > 0 {
                // Maybe inside a list item, maybe not: where it ends is unclear.
                break;
            }
            fence = Some(open);
        } else {
            shows = true;
        }
    }
    ranges(cuts, text.len())
}

/// The byte ranges of `text`, in order and together covering it, each
/// ending after a newline (but the last) and holding at most
/// [`SplitLimits::lines`] lines or about [`SplitLimits::bytes`] bytes. One
/// range when the text is small.
pub fn line_pieces(text: &str, limits: &SplitLimits) -> Vec<Range<usize>> {
    if text.len() <= limits.above {
        return ranges(Vec::new(), text.len());
    }
    line_chunks(text, limits)
}

/// [`line_pieces`] whatever the text's size.
fn line_chunks(text: &str, limits: &SplitLimits) -> Vec<Range<usize>> {
    let mut cuts = Vec::new();
    let (mut start, mut count) = (0, 0);
    for line in lines(text) {
        if count == limits.lines.max(1) || line.start - start >= limits.bytes.max(1) {
            cuts.push(line.start);
            start = line.start;
            count = 0;
        }
        count += 1;
    }
    ranges(cuts, text.len())
}

/// How a piece of a block's text is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PieceForm {
    /// Laid out as its block lays out text (markdown, result lines).
    #[default]
    Laid,
    /// Markdown laid out whole as it is: when the text was cut, it held no
    /// table or line to fence and was within its budget
    /// ([`crate::render::markdown::Prepared::is_plain`]), so its layout does
    /// not look again.
    Plain,
    /// The first piece of a text's part past its markdown budget
    /// ([`crate::render::markdown::markdown_end`]): a note saying how many
    /// `lines` that part has, then its lines as written.
    AsWrittenFrom {
        /// The lines of the whole part shown as written.
        lines: usize,
    },
    /// A further piece of lines shown as written: it goes on from the piece
    /// before, with no blank line between.
    AsWrittenMore,
}

/// `pieces` of markdown `text` (from [`markdown_pieces`]) with the part of
/// each that is past its markdown budget cut into pieces of lines shown as
/// written, so that a text no cut can divide (one list of a million items,
/// a table of a million rows) is laid out a few thousand lines at a time.
/// Each piece is prepared once here
/// ([`crate::render::markdown::prepare`]); one that needs nothing of it is
/// [`PieceForm::Plain`]. A part past the budget holding a control
/// character stays whole (the sanitizer may read across its lines).
pub fn with_as_written(
    text: &str,
    pieces: Vec<Range<usize>>,
    limits: &SplitLimits,
) -> Vec<(Range<usize>, PieceForm)> {
    let mut out = Vec::with_capacity(pieces.len());
    for range in pieces {
        let piece = &text[range.clone()];
        let prepared = crate::render::markdown::prepare(piece);
        let end = prepared.as_written_from().filter(|&end| end < piece.len());
        let Some(end) = end else {
            let form = if prepared.is_plain() {
                PieceForm::Plain
            } else {
                PieceForm::Laid
            };
            out.push((range, form));
            continue;
        };
        let rest = &piece[end..];
        if lines(rest).any(|line| has_control(&rest.as_bytes()[line])) {
            out.push((range, PieceForm::Laid));
            continue;
        }
        let from = range.start + end;
        if end > 0 {
            out.push((range.start..from, PieceForm::Laid));
        }
        let total = rest.lines().count();
        for (index, chunk) in line_chunks(rest, limits).into_iter().enumerate() {
            let form = if index == 0 {
                PieceForm::AsWrittenFrom { lines: total }
            } else {
                PieceForm::AsWrittenMore
            };
            out.push((from + chunk.start..from + chunk.end, form));
        }
    }
    out
}

/// The text of `range` in the concatenation of `parts`, borrowed when it
/// lies within one part.
pub fn slice_of_parts<'t>(parts: &[&'t str], range: Range<usize>) -> Cow<'t, str> {
    let mut offset = 0;
    let mut pieces = Vec::new();
    for part in parts {
        let span = offset..offset + part.len();
        let from = range.start.max(span.start);
        let to = range.end.min(span.end);
        if from < to {
            pieces.push(&part[from - offset..to - offset]);
        }
        offset = span.end;
    }
    match pieces.as_slice() {
        [] => Cow::Borrowed(""),
        [one] => Cow::Borrowed(one),
        many => Cow::Owned(many.concat()),
    }
}

/// `0..len` cut at `cuts` (ascending, inside the text).
fn ranges(cuts: Vec<usize>, len: usize) -> Vec<Range<usize>> {
    let mut out = Vec::with_capacity(cuts.len() + 1);
    let mut start = 0;
    for cut in cuts {
        out.push(start..cut);
        start = cut;
    }
    out.push(start..len);
    out
}

/// The byte ranges of the lines of `text`, without their newlines.
fn lines(text: &str) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= text.len() {
            return None;
        }
        let end = text[at..].find('\n').map_or(text.len(), |p| at + p);
        let line = at..end;
        at = end + 1;
        Some(line)
    })
}

/// Whether the line holds a control character the sanitizer acts on (a
/// line-ending carriage return aside): ESC or a C1 control may start a
/// sequence that runs on into the following lines.
fn has_control(line: &[u8]) -> bool {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    line.iter().enumerate().any(|(i, &b)| {
        (b < 0x20 && b != b'\t')
            || b == 0x7F
            || (b == 0xC2 && matches!(line.get(i + 1), Some(0x80..=0x9F)))
    })
}

/// A line of spaces, tabs and carriage returns only (a blank line, once the
/// sanitizer drops a line-ending carriage return).
fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r'))
}

/// Columns of leading spaces; a tab counts as an indented block's four.
fn indentation(line: &[u8]) -> usize {
    let mut columns = 0;
    for &b in line {
        match b {
            b' ' => columns += 1,
            b'\t' => return columns.max(4),
            _ => break,
        }
    }
    columns
}

/// Whether an unindented line after a blank line can only start a new
/// top-level block, never continue the one before: a letter (not a list
/// marker, a quote, a table row of the block above or a definition), a
/// heading or a fence.
fn starts_top_level_block(line: &[u8]) -> bool {
    match line.first() {
        Some(&b) => b.is_ascii_alphabetic() || b >= 0x80 || matches!(b, b'#' | b'`' | b'~'),
        None => false,
    }
}

/// An open fenced code block: its character and length.
#[derive(Debug, Clone, Copy)]
struct Fence {
    marker: u8,
    len: usize,
}

impl Fence {
    /// The fence `line` (without its indentation) opens, if it opens one.
    fn opened_by(line: &[u8]) -> Option<Fence> {
        let marker = *line.first().filter(|b| matches!(b, b'`' | b'~'))?;
        let len = line.iter().take_while(|&&b| b == marker).count();
        // A backtick fence's info string holds no backtick.
        let info = &line[len..];
        (len >= 3 && !(marker == b'`' && info.contains(&b'`'))).then_some(Fence { marker, len })
    }

    /// Whether `line` closes the fence.
    fn closed_by(self, line: &[u8]) -> bool {
        let indent = indentation(line);
        if indent > 3 {
            return false;
        }
        let rest = &line[indent..];
        let len = rest.iter().take_while(|&&b| b == self.marker).count();
        len >= self.len && is_blank(&rest[len..])
    }
}

#[cfg(test)]
mod tests;
