//! Printing a document to a byte stream: what `overhear render` does, and
//! what a tool author calls from a snapshot test.
//!
//! Output is deterministic for the same input and options, and streamed: each
//! turn is written (and flushed) as soon as it is laid out.

use std::fmt;
use std::io::{self, Write};
use std::str::FromStr;

use super::code_wrap::wrap_long_line;
use super::document::{BlockKind, DocBlock, DocOptions, Document};
use super::duration::epoch_millis;
use super::layout::{LayoutContext, layout, running_turn_rule};
use super::lazy_highlight::Highlighting;
use super::output::LineWriter;
use super::theme::Theme;
use crate::model::Conversation;
use crate::text::sanitize::SanitizeMode;
use crate::text::width::line_fits;

/// Which turns to print: `3`, `2..4` (inclusive), `-1` (the last), `-3..-1`, `2..`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnSpec {
    from: i64,
    to: Option<i64>,
}

/// Why a `--turn` value names no turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TurnSpecError {
    /// Not a number or a range of numbers.
    #[error("not a turn: use 3, 2..4, -1 or 2..")]
    NotATurn,
    /// Turn 0, which does not exist.
    #[error("turns are numbered from 1 (-1 is the last)")]
    Zero,
}

impl FromStr for TurnSpec {
    type Err = TurnSpecError;

    fn from_str(s: &str) -> Result<Self, TurnSpecError> {
        let parse = |t: &str| -> Result<i64, TurnSpecError> {
            let n: i64 = t.trim().parse().map_err(|_| TurnSpecError::NotATurn)?;
            if n == 0 {
                return Err(TurnSpecError::Zero);
            }
            Ok(n)
        };
        match s.split_once("..") {
            Some((a, b)) => Ok(TurnSpec {
                from: if a.trim().is_empty() { 1 } else { parse(a)? },
                to: if b.trim().is_empty() {
                    None
                } else {
                    Some(parse(b)?)
                },
            }),
            None => {
                let n = parse(s)?;
                Ok(TurnSpec {
                    from: n,
                    to: Some(n),
                })
            }
        }
    }
}

impl fmt::Display for TurnSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to {
            Some(to) if to == self.from => write!(f, "{}", self.from),
            Some(to) => write!(f, "{}..{}", self.from, to),
            None => write!(f, "{}..", self.from),
        }
    }
}

/// A `--turn` that selects no turn of the conversation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TurnRangeError {
    /// An end of the spec lies before the first or after the last turn.
    #[error("conversation has {}; --turn {spec} is out of range", turns(*.total))]
    OutOfRange {
        /// The spec as given.
        spec: TurnSpec,
        /// How many turns the conversation has.
        total: usize,
    },
    /// The spec's first turn comes after its last (`4..2`).
    #[error("conversation has {}; --turn {spec} is an empty range", turns(*.total))]
    Empty {
        /// The spec as given.
        spec: TurnSpec,
        /// How many turns the conversation has.
        total: usize,
    },
}

/// `no turns`, `1 turn`, `5 turns`.
fn turns(total: usize) -> String {
    match total {
        0 => "no turns".to_string(),
        1 => "1 turn".to_string(),
        n => format!("{n} turns"),
    }
}

impl TurnSpec {
    /// Checks that the spec selects at least one of `total` turns and that
    /// each end it names is one of them (`-1` is the last): a spec past the
    /// end is a mistake, not an empty transcript.
    pub fn check(&self, total: usize) -> Result<(), TurnRangeError> {
        let resolve = |n: i64| -> i64 { if n < 0 { total as i64 + 1 + n } else { n } };
        let within = |n: i64| (1..=total as i64).contains(&n);
        let from = resolve(self.from);
        let to = self.to.map(resolve);
        if !within(from) || to.is_some_and(|to| !within(to)) {
            return Err(TurnRangeError::OutOfRange { spec: *self, total });
        }
        if to.is_some_and(|to| to < from) {
            return Err(TurnRangeError::Empty { spec: *self, total });
        }
        Ok(())
    }

    /// How many turns from the end the spec reaches when its first turn is
    /// counted from the end (`-1`, `-3..-1`, `-2..`): whatever the total,
    /// no turn before the last that many is selected. `None` for a first
    /// turn counted from the start (`3`, `2..`).
    #[cfg(feature = "cli")]
    pub fn last_turns(&self) -> Option<usize> {
        (self.from < 0).then(|| usize::try_from(self.from.unsigned_abs()).unwrap_or(usize::MAX))
    }

    /// Whether 1-based turn `number` of `total` is selected.
    pub fn contains(&self, number: usize, total: usize) -> bool {
        let resolve = |n: i64| -> i64 { if n < 0 { total as i64 + 1 + n } else { n } };
        let from = resolve(self.from);
        let to = self.to.map_or(total as i64, resolve);
        (from..=to).contains(&(number as i64))
    }
}

/// What printing does with a line of code or JSON wider than the page
/// (prose is always wrapped at words).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CodeOverflow {
    /// Wrapped, each continuation marked `↪` in the gutter: nothing is lost.
    #[default]
    Wrap,
    /// Cut at the width, ending in a dim `…`.
    #[cfg(feature = "cli")]
    Cut,
}

/// Columns code is laid out at before [`CodeOverflow::Wrap`] wraps it: in
/// effect unbounded (no line of any input is this wide), yet far from overflowing
/// when widths are added to it.
const UNCUT: usize = usize::MAX / 4;

/// How to print.
#[derive(Debug, Clone)]
pub struct PrintOptions {
    /// Columns; no line is wider.
    pub width: usize,
    /// Whether to write SGR colour sequences.
    pub color: bool,
    /// Colours.
    pub theme: Theme,
    /// How to treat escape sequences in conversation text.
    pub sanitize: SanitizeMode,
    /// Which turns; all when `None`.
    pub turns: Option<TurnSpec>,
    /// Lines of code wider than `width`: wrapped or cut.
    pub code: CodeOverflow,
}

/// Writes `doc` (built from `conv`) to `out`, turn by turn.
pub fn print_document(
    out: &mut impl Write,
    conv: &Conversation,
    doc: &Document,
    options: &PrintOptions,
) -> io::Result<()> {
    print_document_at(out, conv, doc, options, None)
}

/// [`print_document`] as of the moment `now` (milliseconds since the epoch)
/// when one is given (`render --at-event`): the rule of a last turn that has
/// not ended says how long it had been running then (`running 4m12s`), as
/// the viewer shows a running turn.
pub fn print_document_at(
    out: &mut impl Write,
    conv: &Conversation,
    doc: &Document,
    options: &PrintOptions,
    now: Option<i64>,
) -> io::Result<()> {
    let ctx = LayoutContext {
        conv,
        theme: &options.theme,
        width: options.width.max(1),
        code_width: match options.code {
            CodeOverflow::Wrap => Some(UNCUT),
            #[cfg(feature = "cli")]
            CodeOverflow::Cut => None,
        },
        sanitize: options.sanitize,
        // Without colour, highlighting would change nothing printed.
        highlighting: if options.color {
            Highlighting::Whole
        } else {
            Highlighting::Plain
        },
        wrap_results: true,
    };
    let total = conv.turn_count();
    let mut current_turn = 0;
    let mut writer = LineWriter::default();
    for block in &doc.blocks {
        if let Some(spec) = &options.turns
            && !spec.contains(block.turn, total)
        {
            continue;
        }
        if block.turn != current_turn {
            out.flush()?;
            current_turn = block.turn;
        }
        let running = now.and_then(|now| running_for(block, conv, now));
        let mut lines = match running.and_then(|ms| running_turn_rule(block, ms, &ctx)) {
            Some(lines) => lines,
            None => layout(block, false, &ctx),
        };
        if options.code == CodeOverflow::Wrap
            && let Some(first_long) = lines.iter().position(|line| !line_fits(line, ctx.width))
        {
            // Only a block with a line too long is rebuilt, from that line on.
            let long = lines.split_off(first_long);
            for line in long {
                if line_fits(&line, ctx.width) {
                    lines.push(line);
                } else {
                    lines.extend(wrap_long_line(line, ctx.width));
                }
            }
        }
        writer.write(out, &lines, options.color)?;
    }
    out.flush()
}

/// How long the turn whose rule is `block` had been running at `now`, when
/// it is the last turn and has not ended (its rule states no duration).
fn running_for(block: &DocBlock, conv: &Conversation, now: i64) -> Option<u64> {
    let BlockKind::TurnRule {
        number,
        timestamp: Some(stamp),
        duration: None,
        ..
    } = &block.kind
    else {
        return None;
    };
    if *number < conv.turn_count() {
        return None;
    }
    u64::try_from(now - epoch_millis(stamp)?).ok()
}

/// Renders a conversation to a string, the way `overhear render` prints it:
/// for tool authors' snapshot tests.
pub fn render_to_string(
    conv: &Conversation,
    doc_options: &DocOptions,
    options: &PrintOptions,
) -> String {
    let doc = Document::build(conv, doc_options);
    let mut out = Vec::new();
    // Writing to a Vec cannot fail.
    let _ = print_document(&mut out, conv, &doc, options);
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turn_specs() {
        let spec: TurnSpec = "3".parse().unwrap();
        assert!(spec.contains(3, 5) && !spec.contains(2, 5));
        let spec: TurnSpec = "2..4".parse().unwrap();
        assert!(spec.contains(2, 5) && spec.contains(4, 5) && !spec.contains(5, 5));
        let spec: TurnSpec = "-1".parse().unwrap();
        assert!(spec.contains(5, 5) && !spec.contains(4, 5));
        let spec: TurnSpec = "-2..".parse().unwrap();
        assert!(spec.contains(4, 5) && spec.contains(5, 5) && !spec.contains(3, 5));
        assert!("0".parse::<TurnSpec>().is_err());
        let spec: TurnSpec = "-3..-1".parse().unwrap();
        assert!(spec.contains(3, 5) && spec.contains(5, 5) && !spec.contains(2, 5));
        assert!("x".parse::<TurnSpec>().is_err());
    }

    #[test]
    fn a_spec_outside_the_conversation_is_an_error_naming_the_count() {
        let check = |spec: &str, total: usize| spec.parse::<TurnSpec>().unwrap().check(total);
        for (spec, total) in [("2", 2), ("-2", 2), ("1..2", 2), ("2..", 2), ("-2..-1", 2)] {
            assert_eq!(check(spec, total), Ok(()), "{spec} of {total}");
        }
        let message = |spec: &str, total: usize| check(spec, total).unwrap_err().to_string();
        assert_eq!(
            message("5", 2),
            "conversation has 2 turns; --turn 5 is out of range"
        );
        assert_eq!(
            message("-3", 2),
            "conversation has 2 turns; --turn -3 is out of range"
        );
        assert_eq!(
            message("2..9", 5),
            "conversation has 5 turns; --turn 2..9 is out of range"
        );
        assert_eq!(
            message("3..", 2),
            "conversation has 2 turns; --turn 3.. is out of range"
        );
        assert_eq!(
            message("1", 0),
            "conversation has no turns; --turn 1 is out of range"
        );
        assert_eq!(
            message("2", 1),
            "conversation has 1 turn; --turn 2 is out of range"
        );
        assert_eq!(
            message("4..2", 5),
            "conversation has 5 turns; --turn 4..2 is an empty range"
        );
        assert_eq!(
            message("-1..-2", 5),
            "conversation has 5 turns; --turn -1..-2 is an empty range"
        );
    }
}
