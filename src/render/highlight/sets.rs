//! The syntax sets highlighting reads, each holding only the parts of the dump its use needs
//! (`dump.rs`, [`Holding`]): reading a grammar's packed contexts costs ~11 instructions a byte,
//! 800 KB for all 220 grammars, when code in a conversation needs a few of them.
//!
//! Finding a grammar (by fence token, name or extension) reads only metadata: one set with
//! no packed contexts. Highlighting grammar G reads the contexts of the grammars parsing G can
//! enter (its *reach*, `dumps/reach.rs`, worked out from the dump by `dump_tests.rs`): one set
//! per distinct reach, built on its first use and kept for the process, so a grammar's regexes
//! compile once per process as before. Every set holds the 220 grammars in the dump's order, so
//! a context has the same `ContextId` in each and parser states (and the parse memory) mean the
//! same in all of them; a grammar out of a set's reach is never asked for its contexts.

use std::sync::{LazyLock, OnceLock};

use syntect::parsing::{SyntaxReference, SyntaxSet};

use super::dump::{self, Holding};
use super::reach::{REACH_OF, REACHES};

/// Every grammar's metadata and no packed contexts: what finding a grammar reads.
static FINDING: LazyLock<SyntaxSet> = LazyLock::new(|| dump::syntax_set(Holding::Metadata));

/// The set of each distinct reach ([`REACHES`]), read on its first use.
static BY_REACH: [OnceLock<SyntaxSet>; REACHES.len()] = [const { OnceLock::new() }; REACHES.len()];

/// The set to find grammars in (by token, name, extension); its grammars cannot highlight.
pub(super) fn finding() -> &'static SyntaxSet {
    &FINDING
}

/// `grammar`, one of [`finding`]'s, as the set that highlights it holds it: the set (to parse
/// with) and the grammar in it (to start a parser state from).
pub(super) fn highlighting(
    grammar: &SyntaxReference,
) -> (&'static SyntaxSet, &'static SyntaxReference) {
    let index = FINDING
        .syntaxes()
        .iter()
        .position(|found| std::ptr::eq(found, grammar))
        .expect("a grammar of the finding set");
    let reach = usize::from(REACH_OF[index]);
    let set = BY_REACH[reach].get_or_init(|| dump::syntax_set(Holding::Reach(REACHES[reach])));
    (set, &set.syntaxes()[index])
}

/// The grammar for `token` ([`SyntaxSet::find_syntax_by_token`]) as it highlights, for tests.
#[cfg(test)]
pub(super) fn by_token(token: &str) -> (&'static SyntaxSet, &'static SyntaxReference) {
    highlighting(finding().find_syntax_by_token(token).expect("a grammar"))
}

#[cfg(test)]
#[path = "sets_tests.rs"]
mod tests;
