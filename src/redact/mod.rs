//! Redaction: secrets in a conversation's text replaced by `[redacted RULE]`
//! before anything is laid out, so that an export, a printed transcript or a
//! screen share shows none of them and widths stay right.
//!
//! The patterns are data ([`rules.toml`](rules.toml)): gitleaks' rules for the
//! common providers plus a few of overhear's own. A rule is tried only on text
//! holding one of its keywords (one Aho-Corasick pass finds them all), as
//! gitleaks does. This module knows nothing of how text is shown; it is not a
//! guarantee that a transcript holds no secret (docs/export.md says what is
//! and is not caught).

mod conversation;

use std::borrow::Cow;
use std::sync::OnceLock;

use aho_corasick::AhoCorasick;
#[cfg(feature = "cli")]
use aho_corasick::AhoCorasickBuilder;
use regex::Regex;
#[cfg(feature = "cli")]
use serde::Deserialize;

pub use conversation::{
    Joiner, redact_conversation, redact_event, redact_stream_tail, redact_title,
    redact_value,
};

/// How every mark a redaction writes begins (`[redacted RULE]`).
const MARK_START: &str = "[redacted ";

/// The built-in rules, as shipped.
#[cfg(feature = "cli")]
const RULES: &str = include_str!("rules.toml");

/// Why the rules could not be made into a [`Redactor`].
#[cfg(feature = "cli")]
#[derive(Debug, thiserror::Error)]
pub enum RuleError {
    /// The rules file is not the expected TOML.
    #[error("redaction rules: {0}")]
    Toml(#[from] toml::de::Error),
    /// The keywords do not make an automaton.
    #[error("redaction keywords: {0}")]
    Keywords(#[from] aho_corasick::BuildError),
}

#[cfg(feature = "cli")]
#[derive(Deserialize)]
struct RuleFile {
    rule: Vec<RuleSpec>,
}

#[cfg(feature = "cli")]
#[derive(Deserialize)]
struct RuleSpec {
    id: String,
    regex: String,
    keywords: Vec<String>,
    #[serde(default)]
    secret_group: usize,
}

/// One rule, its regex compiled when first needed.
#[derive(Debug)]
struct Rule {
    mark: String,
    /// The pattern, as the rules state it.
    pattern: String,
    /// The compiled pattern, compiled on first use (a text holding one of
    /// the rule's keywords): compiling every rule took 30 ms, most of a
    /// small export's time, and a transcript meets the keywords of a few.
    regex: OnceLock<Regex>,
    secret_group: usize,
}

impl Rule {
    /// The compiled pattern.
    fn regex(&self) -> &Regex {
        self.regex.get_or_init(|| {
            // The rules are the built-in ones, and the test
            // `every_builtin_rule_compiles` compiles each of them.
            Regex::new(&self.pattern).expect("a built-in redaction rule compiles")
        })
    }
}

/// The rule set: replaces every secret it recognises in a text.
#[derive(Debug)]
pub struct Redactor {
    rules: Vec<Rule>,
    keywords: AhoCorasick,
    /// For each keyword (by pattern index), the rule it belongs to.
    keyword_rule: Vec<usize>,
}

impl Redactor {
    /// The built-in rule set ([`rules.toml`](rules.toml)), each rule's
    /// regex compiled when a text first holds one of its keywords.
    #[cfg(feature = "cli")]
    pub fn builtin() -> Result<Redactor, RuleError> {
        let file: RuleFile = toml::from_str(RULES)?;
        let mut rules = Vec::with_capacity(file.rule.len());
        let mut keywords = Vec::new();
        let mut keyword_rule = Vec::new();
        for (index, spec) in file.rule.into_iter().enumerate() {
            for keyword in spec.keywords {
                keywords.push(keyword);
                keyword_rule.push(index);
            }
            rules.push(Rule {
                mark: format!("{MARK_START}{}]", spec.id),
                pattern: spec.regex,
                regex: OnceLock::new(),
                secret_group: spec.secret_group,
            });
        }
        let keywords = AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .build(&keywords)?;
        Ok(Redactor {
            rules,
            keywords,
            keyword_rule,
        })
    }

    /// `text` with every secret replaced by `[redacted RULE]`; borrowed
    /// unchanged when it holds none.
    ///
    /// Redacting twice is redacting once: a mark can make a secret of what
    /// was glued to the one it replaced (`ghp_…CCCSERVICE_TOKEN=…`: once the
    /// token is a mark, `CCCSERVICE_TOKEN=` starts a word, and a name rule
    /// matches), so the text is redacted again until nothing more is found,
    /// at most [`MAX_PASSES`] times. A text with no secret is read once; one
    /// with secrets, twice in nearly every case.
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let Some(mut out) = self.redact_once(text) else {
            return Cow::Borrowed(text);
        };
        for _ in 1..MAX_PASSES {
            match self.redact_once(&out) {
                Some(again) => out = again,
                None => break,
            }
        }
        Cow::Owned(out)
    }

    /// One pass of [`Redactor::redact`]: `None` when `text` holds no secret.
    fn redact_once(&self, text: &str) -> Option<String> {
        let found = self.secrets(text);
        if found.is_empty() {
            return None;
        }
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for secret in found {
            out.push_str(&text[at..secret.start]);
            out.push_str(self.mark(&secret));
            at = secret.end;
        }
        out.push_str(&text[at..]);
        Some(out)
    }

    /// The redaction of the string `value` stored under the name `key` (a
    /// JSON object's entry): the rules that need the name to tell a secret
    /// (`"SecretAccessKey": …`, `"password": …`) see `"key": "value"`.
    /// `None`: the value holds no secret. Its own secrets are not looked
    /// for here (see [`Redactor::redact`]).
    pub(crate) fn redact_named(&self, key: &str, value: &str) -> Option<String> {
        let key_json = serde_json::to_string(key).ok()?;
        // No rule's keyword in the name (quoted, as the probe has it: some
        // keywords end at the name's closing quote): no rule needs it.
        self.keywords.find(&key_json)?;
        let value_json = serde_json::to_string(value).ok()?;
        let probe = format!("{key_json}: {value_json}");
        let from = key_json.len() + 2;
        let secrets = self.secrets(&probe);
        let inside: Vec<&Secret> = secrets
            .iter()
            .filter(|s| s.start > from && s.end < probe.len())
            .collect();
        if inside.is_empty() {
            return None;
        }
        // Back to the value's own text: its JSON without the quotes.
        let mut out = String::with_capacity(value_json.len());
        let mut at = from + 1;
        for secret in inside {
            out.push_str(&probe[at..secret.start]);
            out.push_str(self.mark(secret));
            at = secret.end;
        }
        out.push_str(&probe[at..probe.len() - 1]);
        serde_json::from_str(&format!("\"{out}\"")).ok()
    }

    /// Where the secrets of `text` are, in order, overlapping ones merged
    /// into one (the rule of the first).
    pub(crate) fn secrets(&self, text: &str) -> Vec<Secret> {
        // Which rules have a keyword in the text, by rule index (a keyword
        // met again costs a store, not a set insertion: prose meets "ey"
        // and "token" every few words).
        let mut candidates: Vec<bool> = Vec::new();
        for found in self.keywords.find_overlapping_iter(text) {
            if candidates.is_empty() {
                candidates.resize(self.rules.len(), false);
            }
            candidates[self.keyword_rule[found.pattern().as_usize()]] = true;
        }
        // (start, end, rule) of every secret, then the overlapping ones merged.
        let mut found: Vec<(usize, usize, usize)> = Vec::new();
        let rules = candidates.iter().enumerate().filter(|&(_, &candidate)| candidate);
        for (index, _) in rules {
            let rule = &self.rules[index];
            for caps in rule.regex().captures_iter(text) {
                let secret = caps.get(rule.secret_group).or_else(|| caps.get(0));
                // A secret that starts at a mark is what a redaction wrote
                // (a value whose end another secret's mark ran past): left
                // alone, so that redacting twice is redacting once.
                if let Some(m) = secret
                    && !m.is_empty()
                    && !text[m.start()..].starts_with(MARK_START)
                {
                    found.push((m.start(), m.end(), index));
                }
            }
        }
        found.sort_by_key(|&(start, end, _)| (start, std::cmp::Reverse(end)));
        let mut merged: Vec<Secret> = Vec::with_capacity(found.len());
        for (start, end, rule) in found {
            match merged.last_mut() {
                // A secret overlapping the one before extends its mark.
                Some(last) if start < last.end => last.end = last.end.max(end),
                _ => merged.push(Secret { start, end, rule }),
            }
        }
        merged
    }

    /// The text that replaces `secret`: `[redacted RULE]`.
    pub(crate) fn mark(&self, secret: &Secret) -> &str {
        &self.rules[secret.rule].mark
    }
}

/// How many times [`Redactor::redact`] goes over a text at most. Each pass
/// after the first finds only what a mark made a secret of; none of the
/// rules lets one mark make another past the second pass, and the cap keeps
/// a rule set that would from running on.
const MAX_PASSES: usize = 4;

/// One secret found in a text: its byte range and the rule that found it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Secret {
    /// First byte.
    pub start: usize,
    /// Byte after the last.
    pub end: usize,
    /// The rule, by index.
    rule: usize,
}

#[cfg(test)]
mod tests;
