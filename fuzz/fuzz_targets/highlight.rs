//! Syntax highlighting of arbitrary code in the languages agents show most.
//!
//! The first byte picks the language (a fence token, some of them aliases);
//! the rest is the code. Highlighting keeps the code's text: one line per
//! line of code, each the line with its controls removed and its tabs
//! expanded, whatever the grammar makes of it. libFuzzer's `-timeout`
//! makes any input that takes longer a finding: a grammar regex that
//! backtracks without end must stop at the regex engine's limit.

#![no_main]

use libfuzzer_sys::fuzz_target;
use overhear::render::highlight::{CODE_TAB, highlight};
use overhear::render::theme::Theme;
use overhear::text::sanitize::{SanitizeMode, sanitize};
use overhear::text::width::{expand_tabs, line_text};

/// Fence tokens, one picked by the first byte.
const LANGUAGES: &[&str] = &[
    "rust", "python", "js", "ts", "tsx", "c", "cpp", "go", "java", "sh", "zsh", "ruby", "php",
    "html", "css", "json", "yaml", "toml", "sql", "xml", "diff", "make", "dockerfile", "lua",
    "perl", "haskell", "kotlin", "swift", "cs", "tex", "graphql", "csv",
];

fuzz_target!(|data: &[u8]| {
    let [pick, rest @ ..] = data else {
        return;
    };
    let lang = LANGUAGES[usize::from(*pick) % LANGUAGES.len()];
    let code = String::from_utf8_lossy(rest);
    let lines = highlight(&code, Some(lang), &Theme::dark());
    let clean = sanitize(&code, SanitizeMode::Strip);
    let expected: Vec<String> = clean
        .lines()
        .map(|line| expand_tabs(line, 0, CODE_TAB).0.into_owned())
        .collect();
    let shown: Vec<String> = lines.iter().map(line_text).collect();
    assert_eq!(shown, expected, "{lang}");
});
