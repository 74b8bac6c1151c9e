//! Lines parsed before, remembered: the same line parsed from the same parser state gives the
//! same scope changes and the same state after it, so a repeated line is looked up instead of
//! run through the grammar's regexes again.
//!
//! Agents read the same files again and again, and show the same code in results, diffs and
//! messages; a remembered line is keyed by its text *and* the whole parser state it starts in
//! (syntect's `ParseState` is `Eq`: the context stack, with the captures of a heredoc or a raw
//! string's delimiter), so a hit is exact by construction — the memory only ever answers
//! what parsing would have. It is per thread and bounded (see [`BUDGET`]).

use std::cell::RefCell;
use std::collections::HashMap;

use syntect::parsing::{ParseState, ParsingError, ScopeStackOp, SyntaxSet};

/// Roughly how many bytes the remembered lines may take per thread, in two generations of half
/// each: when the recent one is full it becomes the older one (the older one is forgotten), and
/// a line found in the older one moves back to the recent one, so lines still in use survive.
const BUDGET: usize = 16 << 20;

/// Lines remembered per text hash: a short line (`}`, an empty one) is parsed from many states.
const PER_TEXT: usize = 4;

/// One line parsed from one state.
struct Parsed {
    line: Box<str>,
    before: ParseState,
    ops: Box<[(usize, ScopeStackOp)]>,
    after: ParseState,
}

impl Parsed {
    /// The bytes it holds, roughly (the states are a few small vectors).
    fn size(&self) -> usize {
        self.line.len() + std::mem::size_of_val(&*self.ops) + 2 * 128 + 64
    }

    fn is(&self, line: &str, state: &ParseState) -> bool {
        &*self.line == line && self.before == *state
    }
}

/// Lines remembered since a moment, by the hash of their text.
#[derive(Default)]
struct Generation {
    by_text: HashMap<u64, Vec<Parsed>>,
    bytes: usize,
}

impl Generation {
    fn find(&self, key: u64, line: &str, state: &ParseState) -> Option<&Parsed> {
        self.by_text.get(&key)?.iter().find(|p| p.is(line, state))
    }

    fn take(&mut self, key: u64, line: &str, state: &ParseState) -> Option<Parsed> {
        let same_text = self.by_text.get_mut(&key)?;
        let at = same_text.iter().position(|p| p.is(line, state))?;
        let parsed = same_text.remove(at);
        self.bytes -= parsed.size();
        Some(parsed)
    }

    fn insert(&mut self, key: u64, parsed: Parsed) {
        self.bytes += parsed.size();
        let same_text = self.by_text.entry(key).or_default();
        if same_text.len() >= PER_TEXT {
            self.bytes -= same_text.remove(0).size();
        }
        same_text.push(parsed);
    }
}

/// The remembered lines of one thread.
#[derive(Default)]
struct Remembered {
    recent: Generation,
    older: Generation,
}

impl Remembered {
    fn insert(&mut self, key: u64, parsed: Parsed) {
        if self.recent.bytes + parsed.size() > BUDGET / 2 {
            self.older = std::mem::take(&mut self.recent);
        }
        self.recent.insert(key, parsed);
    }
}

thread_local! {
    static REMEMBERED: RefCell<Remembered> = RefCell::new(Remembered::default());
}

/// What `state.parse_line(line, syntaxes)` returns, and the state it leaves: from memory when
/// this line was parsed from this state before on this thread.
pub(super) fn parse_line(
    state: &mut ParseState,
    line: &str,
    syntaxes: &SyntaxSet,
) -> Result<Vec<(usize, ScopeStackOp)>, ParsingError> {
    let key = twox_hash::XxHash3_64::oneshot(line.as_bytes());
    let known = REMEMBERED.with(|memory| {
        let memory = &mut *memory.borrow_mut();
        if let Some(parsed) = memory.recent.find(key, line, state) {
            return Some((parsed.ops.to_vec(), parsed.after.clone()));
        }
        let parsed = memory.older.take(key, line, state)?;
        let known = (parsed.ops.to_vec(), parsed.after.clone());
        memory.insert(key, parsed);
        Some(known)
    });
    if let Some((ops, after)) = known {
        *state = after;
        return Ok(ops);
    }
    let before = state.clone();
    let ops = state.parse_line(line, syntaxes)?;
    let parsed = Parsed {
        line: line.into(),
        before,
        ops: ops.as_slice().into(),
        after: state.clone(),
    };
    REMEMBERED.with(|memory| memory.borrow_mut().insert(key, parsed));
    Ok(ops)
}

#[cfg(test)]
mod tests {
    use super::*;
    use syntect::util::LinesWithEndings;

    /// The scope changes of each line of `code`, parsed through the memory.
    fn remembered(code: &str, token: &str) -> Vec<Vec<(usize, ScopeStackOp)>> {
        let (syntaxes, syntax) = super::super::by_token(token);
        let mut state = ParseState::new(syntax);
        LinesWithEndings::from(code)
            .map(|line| parse_line(&mut state, line, syntaxes).expect("parses"))
            .collect()
    }

    /// The same, parsed afresh.
    fn fresh(code: &str, token: &str) -> Vec<Vec<(usize, ScopeStackOp)>> {
        let (syntaxes, syntax) = super::super::by_token(token);
        let mut state = ParseState::new(syntax);
        LinesWithEndings::from(code)
            .map(|line| state.parse_line(line, syntaxes).expect("parses"))
            .collect()
    }

    #[test]
    fn a_remembered_line_parses_as_it_would_from_its_own_state() {
        // The same lines from different states: inside a heredoc ended by `EOF` or by `END`
        // (the delimiter is a capture in the state), in a Rust raw string with one `#` or two,
        // in a block comment or not.
        let snippets = [
            ("sh", "cat <<EOF\nx = 1\nEOF\necho done\n"),
            ("sh", "cat <<END\nx = 1\nEOF\necho done\nEND\necho done\n"),
            ("sh", "x = 1\nEOF\necho done\n"),
            ("rs", "let s = r#\"\nx = 1\n\"#;\nfn f() {}\n"),
            ("rs", "let s = r##\"\nx = 1\n\"#;\nfn f() {}\n\"##;\n"),
            ("rs", "/*\nfn f() {}\n*/\nfn f() {}\n"),
            ("rs", "fn f() {}\n"),
        ];
        for round in 0..2 {
            for (token, code) in snippets {
                assert_eq!(
                    remembered(code, token),
                    fresh(code, token),
                    "round {round}: {code:?}"
                );
            }
        }
    }

    #[test]
    fn lines_in_use_are_remembered_within_the_budget() {
        let in_use = "fn kept() {}\n";
        let start = ParseState::new(super::super::by_token("rs").1);
        let is_remembered = || {
            REMEMBERED.with(|memory| {
                let memory = memory.borrow();
                let key = twox_hash::XxHash3_64::oneshot(in_use.as_bytes());
                memory.recent.find(key, in_use, &start).is_some()
                    || memory.older.find(key, in_use, &start).is_some()
            })
        };
        remembered(in_use, "rs");
        // Far more new lines than the budget holds, the line in use parsed now and then.
        for block in 0..12 {
            let code: String = (0..4_000)
                .map(|i| format!("let value_{block}_{i} = compute({i}, \"{i:x}\");\n"))
                .collect();
            assert_eq!(remembered(&code, "rs"), fresh(&code, "rs"));
            assert!(is_remembered(), "after block {block}");
            remembered(in_use, "rs");
        }
        REMEMBERED.with(|memory| {
            let memory = memory.borrow();
            for generation in [&memory.recent, &memory.older] {
                let held: usize = generation
                    .by_text
                    .values()
                    .flatten()
                    .map(Parsed::size)
                    .sum();
                assert_eq!(held, generation.bytes, "the count follows what is held");
            }
            assert!(memory.recent.bytes + memory.older.bytes <= BUDGET);
        });
        let forgotten = "fn forgotten() {}\n";
        remembered(forgotten, "rs");
        let code: String = (0..40_000)
            .map(|i| format!("let more_{i} = {i};\n"))
            .collect();
        remembered(&code, "rs");
        let key = twox_hash::XxHash3_64::oneshot(forgotten.as_bytes());
        let still = REMEMBERED.with(|memory| {
            let memory = memory.borrow();
            memory.recent.find(key, forgotten, &start).is_some()
                || memory.older.find(key, forgotten, &start).is_some()
        });
        assert!(!still, "a line not used for two generations is forgotten");
    }
}
