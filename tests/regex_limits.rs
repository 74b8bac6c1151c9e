//! A grammar regex that backtracks without end on a code block's line stops
//! at Oniguruma's retry limit, with the default parameters syntect passes to
//! every search as with parameters set by hand.
//!
//! overhear's patched `onig` (`vendor/onig`, docs/architecture.md, "Patched
//! dependencies") makes default parameters on the C stack per search instead
//! of allocating them; were the limit lost on the way, a hostile code block
//! would hang the viewer instead of showing unhighlighted.

use onig::{MatchParam, Regex, SearchOptions};

/// Oniguruma's `ONIGERR_RETRY_LIMIT_IN_MATCH_OVER`.
const RETRY_LIMIT_IN_MATCH_OVER: i32 = -17;

/// Two ways to match each `a`, then the end: 2^n paths on `a…a!`.
const PATHOLOGICAL: &str = r"(?:a|a)*\z";

fn search(text: &str, match_param: MatchParam) -> Result<Option<usize>, onig::Error> {
    let regex = Regex::new(PATHOLOGICAL).unwrap();
    regex.search_with_param(
        text,
        0,
        text.len(),
        SearchOptions::SEARCH_OPTION_NONE,
        None,
        match_param,
    )
}

#[test]
fn default_parameters_stop_at_the_retry_limit() {
    let text = format!("{}!", "a".repeat(30));
    let error = search(&text, MatchParam::default()).unwrap_err();
    assert_eq!(error.code(), RETRY_LIMIT_IN_MATCH_OVER, "{error}");
}

#[test]
fn a_retry_limit_set_by_hand_is_kept() {
    // Short enough to end well under the default limit, not under 1,000.
    let text = format!("{}!", "a".repeat(14));
    assert_eq!(
        search(&text, MatchParam::default()).unwrap(),
        Some(text.len())
    );
    let mut limited = MatchParam::default();
    limited.set_retry_limit_in_match(1_000);
    let error = search(&text, limited).unwrap_err();
    assert_eq!(error.code(), RETRY_LIMIT_IN_MATCH_OVER, "{error}");
}
