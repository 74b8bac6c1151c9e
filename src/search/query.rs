//! What `overhear search` looks for: a literal (the default) or a regular
//! expression, in a chosen case mode, matched against decoded text; and,
//! for a literal, the byte forms that let a file be skipped unread
//! ([`super::forms`]).

use std::ops::Range;

use regex::{Regex, RegexBuilder};

use super::forms::Forms;

/// How letter case counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Case {
    /// `a` matches only `a` (the default, as in ripgrep).
    #[default]
    Sensitive,
    /// `a` matches `a` and `A`.
    Ignore,
    /// Ignore case unless the pattern holds an uppercase letter.
    Smart,
}

/// A pattern that cannot be searched for.
#[derive(Debug, thiserror::Error)]
pub enum QueryError {
    /// Nothing to look for: it would match every line.
    #[error("the pattern is empty: it would match every line")]
    Empty,
    /// Not a regular expression this engine reads.
    #[error("not a regular expression: {0}")]
    Regex(String),
}

/// A compiled search: the exact matcher, and the prefilter when there is one.
pub struct Query {
    matcher: Regex,
    forms: Option<Forms>,
}

impl Query {
    /// `pattern` as a literal, or with `regex` as a regular expression
    /// (Rust `regex` syntax, Unicode-aware), in the case mode `case`.
    pub fn new(pattern: &str, regex: bool, case: Case) -> Result<Query, QueryError> {
        if pattern.is_empty() {
            return Err(QueryError::Empty);
        }
        let ignore = match case {
            Case::Sensitive => false,
            Case::Ignore => true,
            Case::Smart => !pattern.chars().any(char::is_uppercase),
        };
        let source = if regex {
            pattern.to_owned()
        } else {
            regex::escape(pattern)
        };
        let matcher = RegexBuilder::new(&source)
            .case_insensitive(ignore)
            .build()
            .map_err(|err| QueryError::Regex(err.to_string()))?;
        // Only a literal has fixed bytes to look for; ignoring case, only one
        // whose letters ASCII's case folding covers.
        // A reader may compose what it shows of pieces stored apart (a slash
        // command's name and arguments, a result's blocks), joined by a space
        // or a line break: a file may hold the shown text without holding the
        // whole pattern. Its longest word is stored whole, in some form.
        let word = pattern.split_whitespace().max_by_key(|word| word.len());
        let forms = match word {
            Some(word) if !regex && (!ignore || word.is_ascii()) => Forms::new(word, ignore),
            _ => None,
        };
        Ok(Query { matcher, forms })
    }

    /// The byte ranges of the matches in `text`, left to right, none empty.
    pub fn find_in(&self, text: &str) -> Vec<Range<usize>> {
        self.matcher
            .find_iter(text)
            .filter(|m| !m.is_empty())
            .map(|m| m.range())
            .collect()
    }

    /// The prefilter, made of the pattern's longest word: `None` when every
    /// file must be decoded (a regular expression, a non-ASCII word with case
    /// ignored, or a pattern of spaces only).
    pub(crate) fn forms(&self) -> Option<&Forms> {
        self.forms.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_literal_is_not_a_regular_expression() {
        let query = Query::new("a.b(", false, Case::Sensitive).unwrap();
        assert_eq!(query.find_in("xa.b(y axb("), vec![1..5]);
        assert!(query.forms().is_some());
    }

    #[test]
    fn smart_case_ignores_case_only_for_a_lowercase_pattern() {
        let lower = Query::new("login", false, Case::Smart).unwrap();
        assert_eq!(lower.find_in("LOGIN Login").len(), 2);
        let upper = Query::new("Login", false, Case::Smart).unwrap();
        assert_eq!(upper.find_in("LOGIN Login"), vec![6..11]);
    }

    #[test]
    fn ignoring_case_folds_unicode_and_then_decodes_every_file() {
        let query = Query::new("straße", false, Case::Ignore).unwrap();
        assert_eq!(query.find_in("STRASSE Straße STRAßE").len(), 2);
        assert!(query.forms().is_none());
    }

    #[test]
    fn bad_patterns_say_why() {
        assert!(matches!(
            Query::new("", false, Case::Sensitive),
            Err(QueryError::Empty)
        ));
        let err = Query::new("(", true, Case::Sensitive).err().unwrap();
        assert!(err.to_string().starts_with("not a regular expression"));
    }
}
