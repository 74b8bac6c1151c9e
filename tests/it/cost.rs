//! Cost through the binary: a Claude Code session and a Codex rollout whose
//! transcripts record tokens but no cost show the cost at the built-in
//! table's prices in the turn rule, computed here by hand from the table
//! itself; a model the table does not price says "not priced", never $0; the
//! user configuration's `[prices]` changes the figure, and a wrong price
//! stops overhear with a message naming the file and the key.

use std::path::{Path, PathBuf};

use crate::common::support::overhear_with;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/usage")
        .join(name)
}

/// A model's prices from src/usage/prices.toml: input, output, cache read,
/// cache write (dollars per million tokens).
fn table_price(model: &str) -> [f64; 4] {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("src/usage/prices.toml"),
    )
    .unwrap();
    let table: toml::Table = toml::from_str(&text).unwrap();
    let row = &table["models"][model];
    let get = |key: &str| row.get(key).and_then(toml::Value::as_float);
    let input = get("input").unwrap();
    [
        input,
        get("output").unwrap(),
        get("cache_read").unwrap_or(input),
        get("cache_write").unwrap_or(input),
    ]
}

/// `overhear render FILE` with the user configuration `config` (none when
/// `None`), as text.
fn render(file: &Path, config: Option<&str>) -> (i32, String, String) {
    let home = tempfile::tempdir().unwrap();
    if let Some(text) = config {
        std::fs::create_dir_all(home.path().join("overhear")).unwrap();
        std::fs::write(home.path().join("overhear/config.toml"), text).unwrap();
    }
    let run = overhear_with(
        [
            "render",
            file.to_str().unwrap(),
            "--width",
            "200",
            "--color",
            "never",
        ],
        &[("XDG_CONFIG_HOME", home.path().to_str().unwrap())],
    );
    (
        run.status.code().unwrap_or(-1),
        String::from_utf8(run.stdout).unwrap(),
        run.stderr,
    )
}

/// The turn rule's summary line (the one naming the tokens).
fn summary(output: &str) -> String {
    output
        .lines()
        .find(|line| line.contains("out tokens"))
        .unwrap_or_else(|| panic!("no turn summary in:\n{output}"))
        .trim()
        .to_owned()
}

#[test]
fn a_claude_code_turn_is_priced_at_the_table_prices() {
    let [input, output, read, write] = table_price("claude-sonnet-4-5");
    // 106,110 input tokens of which 103,000 read from and 2,100 written to the cache; 800 out.
    let dollars = (1_010.0 * input + 103_000.0 * read + 2_100.0 * write + 800.0 * output) / 1e6;
    let (code, out, err) = render(&fixture("claude-priced.jsonl"), None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        summary(&out),
        format!(
            "claude-sonnet-4-5-20250929 · 106,110 in (103,000 cache read, 2,100 cache write) / 800 out tokens · ~${dollars:.4}"
        )
    );
    assert_eq!(format!("{dollars:.4}"), "0.0538");
}

#[test]
fn a_codex_turn_is_priced_at_the_table_prices() {
    let [input, output, read, _] = table_price("gpt-5-codex");
    // 20,000 input tokens of which 15,000 cached; 1,200 out (reasoning included).
    let dollars = (5_000.0 * input + 15_000.0 * read + 1_200.0 * output) / 1e6;
    let (code, out, err) = render(&fixture("codex-priced.jsonl"), None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        summary(&out),
        format!("gpt-5-codex · 20,000 in (15,000 cache read) / 1,200 out tokens · ~${dollars:.4}")
    );
}

#[test]
fn a_model_without_a_price_says_so() {
    let (code, out, err) = render(&fixture("claude-not-priced.jsonl"), None);
    assert_eq!(code, 0, "{err}");
    let line = summary(&out);
    assert!(line.ends_with("800 out tokens · not priced"), "{line}");
    assert!(!line.contains('$'), "{line}");
}

#[test]
fn the_user_configuration_changes_the_prices() {
    // A price of one's own for a model the table has (the keys not given kept)…
    let (code, out, err) = render(
        &fixture("claude-priced.jsonl"),
        Some("[prices.\"claude-sonnet-4-5\"]\ninput = 30.0\n"),
    );
    assert_eq!(code, 0, "{err}");
    let [_, output, read, write] = table_price("claude-sonnet-4-5");
    let dollars = (1_010.0 * 30.0 + 103_000.0 * read + 2_100.0 * write + 800.0 * output) / 1e6;
    assert!(
        summary(&out).ends_with(&format!(" · ~${dollars:.4}")),
        "{}",
        summary(&out)
    );
    // …and a price for one it does not.
    let (code, out, err) = render(
        &fixture("claude-not-priced.jsonl"),
        Some(
            "[prices.\"claude-imaginary-9\"]\ninput = 3\noutput = 15\ncache_read = 0.3\ncache_write = 3.75\n",
        ),
    );
    assert_eq!(code, 0, "{err}");
    assert!(summary(&out).ends_with(" · ~$0.0538"), "{}", summary(&out));
}

#[test]
fn a_wrong_price_is_a_clear_error() {
    let (code, out, err) = render(
        &fixture("claude-priced.jsonl"),
        Some("[prices.\"claude-sonnet-4-5\"]\ninput = \"cheap\"\n"),
    );
    assert_eq!(code, 2, "{out}");
    assert!(
        err.contains(
            "overhear/config.toml: prices.claude-sonnet-4-5.input: \"cheap\" is not a price"
        ),
        "{err}"
    );
    let (code, _, err) = render(
        &fixture("claude-priced.jsonl"),
        Some("[prices.\"my-model\"]\ninput = 1\n"),
    );
    assert_eq!(code, 2);
    assert!(err.contains("prices.my-model: output is missing"), "{err}");
}
