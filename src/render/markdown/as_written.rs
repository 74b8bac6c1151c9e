//! Markdown the parser is never given as such: one pass over the text finds
//! what would cost more to parse and lay out than its size allows (a table
//! of a million cells, a list nested 100,000 deep on one line), and that
//! part goes into a fenced code block behind a note, shown as written
//! (docs/hardening.md, "Bounded work"). What finds it is in `table` and
//! `nesting`; this module walks the lines and writes the fences.

use std::borrow::Cow;

/// A part of the text shown as written: bytes `start..end` (whole lines),
/// after `note` (a sentence in parentheses, shown in italics).
pub(super) struct AsWritten {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) note: String,
}

/// Calls `each` with where each line of `text` starts and the line (with
/// its newline), for lines outside fenced code; at a fence that opens, with
/// `None` (a run of lines being gathered ends there). A fence's own lines
/// and the code between are skipped.
pub(super) fn prose_lines<'t>(text: &'t str, mut each: impl FnMut(usize, Option<&'t str>)) {
    let mut fence: Option<(u8, usize)> = None;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let trimmed = line.trim_start_matches(' ');
        let marker = trimmed.bytes().next().filter(|b| *b == b'`' || *b == b'~');
        let marker_run = marker.map_or(0, |m| trimmed.bytes().take_while(|b| *b == m).count());
        match (fence, marker) {
            (Some((open, length)), Some(m))
                if m == open && marker_run >= length && trimmed[marker_run..].trim().is_empty() =>
            {
                fence = None;
            }
            (Some(_), _) => {}
            (None, Some(m)) if marker_run >= 3 && line.len() - trimmed.len() < 4 => {
                each(start, None);
                fence = Some((m, marker_run));
            }
            _ => each(start, Some(line)),
        }
    }
}

/// Where a part of a text was fenced: its bytes `start..end` in the text,
/// and how many bytes the fencing put before them (the note and the
/// opening fence) and after them (the closing fence).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Fenced {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) before: usize,
    pub(super) after: usize,
}

/// `text` with each part of `parts` (in order, not overlapping) put in a
/// fenced code block behind its note, borrowed when there is none; and
/// where each part went ([`unfenced_at`] reads it back).
pub(super) fn fenced<'t>(text: &'t str, parts: &[AsWritten]) -> (Cow<'t, str>, Vec<Fenced>) {
    if parts.is_empty() {
        return (Cow::Borrowed(text), Vec::new());
    }
    let mut out = String::with_capacity(text.len() + parts.len() * 160);
    let mut places = Vec::with_capacity(parts.len());
    let mut copied = 0;
    for AsWritten { start, end, note } in parts {
        let body = &text[*start..*end];
        let mut longest = 0;
        let mut current = 0;
        for b in body.bytes() {
            current = if b == b'`' { current + 1 } else { 0 };
            longest = longest.max(current);
        }
        let fence = "`".repeat((longest + 1).max(3));
        out.push_str(&text[copied..*start]);
        let opened = out.len();
        out.push_str(&format!("\n*{note}*\n\n{fence}\n"));
        let before = out.len() - opened;
        out.push_str(body);
        let closed = out.len();
        if !body.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&fence);
        out.push_str("\n\n");
        places.push(Fenced {
            start: *start,
            end: *end,
            before,
            after: out.len() - closed,
        });
        copied = *end;
    }
    out.push_str(&text[copied..]);
    (Cow::Owned(out), places)
}

/// Where the line at byte `at` of a fenced text (from [`fenced`], its parts
/// `places`) comes from in the text before fencing: the same line outside
/// the parts; the start of a part for anywhere in it (its note, its lines,
/// its fences), so that a cut there leaves the part whole after it.
pub(super) fn unfenced_at(places: &[Fenced], at: usize) -> usize {
    // Bytes the fencing put before the part at hand.
    let mut shift = 0;
    for place in places {
        let start = place.start + shift;
        if at < start {
            break;
        }
        shift += place.before + place.after;
        if at < place.end + shift {
            return place.start;
        }
    }
    at - shift
}
