use std::time::{Duration, Instant};

use proptest::prelude::*;
use ratatui::style::Modifier;

use super::*;
use crate::render::output::lines_to_string;
use crate::text::width::{line_text, line_width};

fn render(text: &str, width: usize) -> String {
    lines_to_string(&markdown_to_lines(text, width, &Theme::dark()))
}

fn max_width(lines: &[Line<'_>]) -> usize {
    lines.iter().map(line_width).max().unwrap_or(0)
}

#[test]
fn blocks_are_separated_by_one_blank_line_and_none_at_the_ends() {
    assert_eq!(
        render("\n\n# Head\n\n\n\npara one\n\n\n---\n\n", 20),
        "# Head\n\npara one\n\n────────────────────\n"
    );
    assert_eq!(render("", 20), "");
    assert_eq!(render("   \n\n", 20), "");
}

#[test]
fn styled_spans_wrapped_across_lines_do_not_bleed() {
    let theme = Theme::dark();
    let lines = markdown_to_lines("lead **bold words wrap here** tail text", 12, &theme);
    let text: Vec<String> = lines.iter().map(line_text).collect();
    assert_eq!(text, ["lead bold", "words wrap", "here tail", "text"]);
    let bold = |line: &Line<'_>, word: &str| {
        line.spans
            .iter()
            .find(|s| s.content.contains(word))
            .map(|s| s.style.add_modifier.contains(Modifier::BOLD))
    };
    assert_eq!(bold(&lines[0], "lead"), Some(false));
    assert_eq!(bold(&lines[0], "bold"), Some(true));
    assert_eq!(bold(&lines[1], "words"), Some(true));
    assert_eq!(bold(&lines[2], "here"), Some(true));
    assert_eq!(bold(&lines[2], "tail"), Some(false));
    assert_eq!(bold(&lines[3], "text"), Some(false));
}

#[test]
fn base_style_lies_under_every_element_but_code() {
    let theme = Theme::dark();
    let dim = Style::new().add_modifier(Modifier::DIM);
    let lines = markdown_to_lines_styled("plain **strong**\n\n```\ncode\n```", 40, &theme, dim);
    assert!(
        lines[0]
            .spans
            .iter()
            .all(|s| s.style.add_modifier.contains(Modifier::DIM))
    );
    assert!(
        lines[0].spans[1]
            .style
            .add_modifier
            .contains(Modifier::BOLD)
    );
    assert_eq!(lines[3].spans[0].style, theme.styles.code_block);
}

#[test]
fn nested_list_ending_before_a_paragraph() {
    assert_eq!(
        render("- one\n  - inner a\n  - inner b\n\nAfter the list.", 40),
        "• one\n  ◦ inner a\n  ◦ inner b\n\nAfter the list.\n"
    );
}

#[test]
fn code_block_inside_a_list_item_keeps_the_indent() {
    assert_eq!(
        render("1. step\n\n   ```sh\n   echo hi\n   ```\n2. next", 40),
        "1. step\n\n   ```sh\n   echo hi\n   ```\n\n2. next\n"
    );
}

#[test]
fn a_code_width_keeps_long_code_lines_whole_and_prose_wrapped() {
    let long = format!("echo {}END", "x".repeat(60));
    let text =
        format!("> - a quoted item with words enough to wrap\n>\n>   ```sh\n>   {long}\n>   ```");
    let lines = markdown_to_lines_wide_code(&text, 30, 100, &Theme::dark(), Style::new());
    let out = lines_to_string(&lines);
    assert!(out.contains(&format!("│   {long}")), "{out}");
    assert!(max_width(&lines) <= 100);
    for line in lines.iter().filter(|l| line_text(l).contains("words")) {
        assert!(line_width(line) <= 30, "{out}");
    }
    let narrow = markdown_to_lines_wide_code(&text, 30, 40, &Theme::dark(), Style::new());
    assert_eq!(
        max_width(&narrow),
        40,
        "code is cut at the code width, prefixes included"
    );
}

#[test]
fn html_comments_never_show() {
    let out = render("- a\n- b\n\n<!-- end list -->\n\n- c <!-- inline -->\n", 40);
    assert!(
        !out.contains("end list") && !out.contains("inline"),
        "{out}"
    );
    assert!(out.contains("• c"), "{out}");
    assert_eq!(render("<div>\nshown\n</div>", 40), "<div>\nshown\n</div>\n");
}

#[test]
fn links_show_their_url_unless_it_is_the_text() {
    assert_eq!(
        render(
            "[docs](https://d.example) and <https://a.example> and www.b.example",
            80
        ),
        "docs (https://d.example) and https://a.example and www.b.example\n"
    );
    assert_eq!(render("![a cat](cat.png)", 80), "[image: a cat](cat.png)\n");
}

#[test]
fn footnotes_are_numbered_notes_at_the_end() {
    let out = render(
        "First[^b] then[^a].\n\n[^a]: Note A.\n[^b]: Note B.\n\nLast paragraph.",
        40,
    );
    assert_eq!(
        out,
        "First[1] then[2].\n\nLast paragraph.\n\n[1] Note B.\n\n[2] Note A.\n"
    );
}

#[test]
fn task_lists_show_their_state() {
    assert_eq!(render("- [ ] open\n- [x] done", 40), "[ ] open\n[x] done\n");
}

#[test]
fn ordered_numbers_align() {
    let text: String = (9..=11).map(|n| format!("{n}. item {n}\n")).collect();
    assert_eq!(render(&text, 40), " 9. item 9\n10. item 10\n11. item 11\n");
}

#[test]
fn tables_never_drop_a_column() {
    let table = "| alpha | beta | gamma | delta |\n|---|---|---|---|\n\
                 | one two three four | five six seven | eight nine | ten eleven twelve |\n";
    for width in [20, 30, 40, 60, 80] {
        let lines = markdown_to_lines(table, width, &Theme::dark());
        assert!(max_width(&lines) <= width, "{width}");
        let text = lines_to_string(&lines);
        for word in [
            "alpha", "beta", "gamma", "delta", "one", "six", "nine", "twelve",
        ] {
            assert!(text.contains(word), "{width}: {word} missing\n{text}");
        }
    }
}

#[test]
fn cramped_tables_stack_as_key_value() {
    let table = "| name | value | note |\n|---|---|---|\n| a | 1 | x |\n| b | 2 | y |\n";
    assert_eq!(
        render(table, 12),
        "name: a\nvalue: 1\nnote: x\n───\nname: b\nvalue: 2\nnote: y\n"
    );
}

#[test]
fn code_is_cut_never_wrapped() {
    let out = render("```\nlet a_very_long_identifier = 1;\n```", 16);
    assert_eq!(out, "```\nlet a_very_long…\n```\n");
}

#[test]
fn quotes_nest_with_gutters() {
    assert_eq!(
        render("> outer\n>\n> > inner words here", 14),
        "│ outer\n│\n│ │ inner\n│ │ words here\n"
    );
}

#[test]
fn hard_and_soft_breaks() {
    assert_eq!(
        render("one\ntwo  \nthree\\\nfour", 40),
        "one two\nthree\nfour\n"
    );
}

#[test]
fn escape_sequences_in_markdown_are_removed() {
    assert_eq!(
        render("safe \x1b]0;title\x07text \x1b[2J\x1b[31mred", 40),
        "safe text red\n"
    );
}

#[test]
fn deep_nesting_stays_within_width_and_bounded() {
    let quotes = format!("{} deep", ">".repeat(500));
    let lines = markdown_to_lines(&quotes, 120, &Theme::dark());
    assert!(max_width(&lines) <= 120);
    assert!(lines_to_string(&lines).contains("deep"));
    let lists: String = (0..120)
        .map(|i| format!("{}- l{i}\n", "  ".repeat(i)))
        .collect();
    let lines = markdown_to_lines(&lists, 40, &Theme::dark());
    assert!(max_width(&lines) <= 40);
    let emphasis = format!("{}x{}", "*_".repeat(300), "_*".repeat(300));
    let lines = markdown_to_lines(&emphasis, 10, &Theme::dark());
    assert!(lines_to_string(&lines).contains('x'));
}

/// The time of one render, checking the width on the way.
fn timed(text: &str, theme: &Theme) -> Duration {
    let start = Instant::now();
    let lines = markdown_to_lines(text, 80, theme);
    let took = start.elapsed();
    assert!(max_width(&lines) <= 80);
    took
}

#[test]
fn long_paragraph_renders_in_linear_time() {
    let theme = Theme::dark();
    let unit = "word **bold** `code` [link](https://x.example) 中文 ";
    let small = unit.repeat(10_000 / unit.len());
    let large = unit.repeat(100_000 / unit.len());
    // Interleaved runs, fastest of each: the shared machine is noisy.
    let (mut t_small, mut t_large) = (Duration::MAX, Duration::MAX);
    for _ in 0..3 {
        t_small = t_small.min(timed(&small, &theme));
        t_large = t_large.min(timed(&large, &theme));
    }
    // Ten times the text: linear measures 10–25× here (allocation, caches), quadratic 100×.
    assert!(
        t_large <= t_small * 50 + Duration::from_millis(50),
        "10 KB: {t_small:?}, 100 KB: {t_large:?}"
    );
    let shown = lines_to_string(&markdown_to_lines(&large, 80, &theme));
    assert_eq!(
        shown.matches("bold").count(),
        large.matches("**bold**").count()
    );
}

/// Markdown fragments to build documents from.
fn fragment() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        "[a-zA-Z]{1,12}",
        Just("中文字符".to_string()),
        Just("👨‍👩‍👧".to_string()),
        Just("e\u{301}".to_string()),
        Just("https://example.com/a/very/long/path/that/keeps/going".to_string()),
        "[a-z]{30,60}",
        Just("\t".to_string()),
    ];
    let words = prop::collection::vec(word, 1..12).prop_map(|w| w.join(" "));
    let inline = (words.clone(), 0..8usize).prop_map(|(w, kind)| match kind {
        0 => format!("*{w}*"),
        1 => format!("**{w}**"),
        2 => format!("`{w}`"),
        3 => format!("~~{w}~~"),
        4 => format!("[{w}](https://l.example/{})", w.len()),
        5 => format!("![{w}](i.png)"),
        6 => format!("{w}[^n]"),
        _ => w,
    });
    let line = prop::collection::vec(inline, 1..5).prop_map(|p| p.join(" "));
    prop_oneof![
        line.clone(),
        (1..7usize, line.clone()).prop_map(|(n, l)| format!("{} {l}", "#".repeat(n))),
        (0..4usize, line.clone()).prop_map(|(d, l)| format!("{}- {l}", "  ".repeat(d))),
        (0..3usize, line.clone()).prop_map(|(d, l)| format!("{}1. {l}", "   ".repeat(d))),
        line.clone().prop_map(|l| format!("- [x] {l}")),
        (1..5usize, line.clone()).prop_map(|(d, l)| format!("{} {l}", ">".repeat(d))),
        line.clone()
            .prop_map(|l| format!("```rust\nfn x() {{ {l} }}\n```")),
        line.clone().prop_map(|l| format!("    {l}")),
        (1..6usize, line.clone()).prop_map(|(n, l)| {
            let head = vec!["h"; n].join(" | ");
            let sep = vec!["---"; n].join(" | ");
            let row = vec![l.as_str(); n].join(" | ");
            format!("| {head} |\n| {sep} |\n| {row} |")
        }),
        Just("---".to_string()),
        Just("<!-- comment -->".to_string()),
        Just("<div>\n<b>x</b>\n</div>".to_string()),
        line.prop_map(|l| format!("[^n]: {l}")),
    ]
}

fn document() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec((fragment(), prop_oneof![Just("\n"), Just("\n\n")]), 1..10)
            .prop_map(|parts| parts.into_iter().map(|(f, sep)| f + sep).collect()),
        any::<String>(),
        "[-*_`#>|\\[\\]()!~:0-9 \n\t<>a-c中👍\u{1b}]{0,200}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn no_line_is_ever_wider_than_the_width(text in document(), width in 1usize..=300) {
        let lines = markdown_to_lines(&text, width, &Theme::dark());
        for line in &lines {
            prop_assert!(line_width(line) <= width, "{} > {width}: {:?}", line_width(line), line_text(line));
        }
    }

    #[test]
    fn words_of_a_plain_paragraph_survive_in_order(
        words in prop::collection::vec("[a-z]{1,12}", 1..60),
        width in 1usize..=120,
    ) {
        let text = words.join(" ");
        let out = render(&text, width);
        let squeezed: String = out.split_whitespace().collect();
        prop_assert_eq!(squeezed, words.concat());
        if width >= 12 {
            let shown: Vec<&str> = out.split_whitespace().collect();
            prop_assert_eq!(shown, words.iter().map(String::as_str).collect::<Vec<_>>());
        }
    }
}

#[test]
fn a_text_cut_where_its_lines_as_written_begin_lays_out_before_it_as_in_the_whole() {
    // A table fenced for its size, then a list past the budget.
    let table = "|a|b|c|d|\n".repeat(3_000);
    let items: String = (0..40_000).map(|i| format!("- *item* {i}\n")).collect();
    let text = format!("intro\n\n{table}\n{items}");
    let prepared = prepare(&text);
    assert!(!prepared.is_plain());
    let from = prepared.as_written_from().expect("past the budget");
    assert!(from > 7 + table.len() && from < text.len(), "{from}");
    assert!(text[from..].starts_with("- *item* "), "at a line start");
    let whole = markdown_to_lines(&text, 60, &Theme::dark());
    let before = markdown_to_lines(&text[..from], 60, &Theme::dark());
    assert!(lines_to_string(&before).contains("(a table of 3000 lines, shown as written"));
    assert_eq!(whole[..before.len()], before[..]);
    assert!(prepare(&text[..from]).as_written_from().is_none());
}

#[test]
fn a_budget_that_ends_in_a_fenced_table_shows_the_whole_table_as_written() {
    // More table lines than the budget has for lines of code.
    let table = "|a|\n".repeat(200_000);
    let text = format!("intro\n\n{table}");
    let prepared = prepare(&text);
    assert_eq!(prepared.as_written_from(), Some("intro\n\n".len()));
    // Past a deep line fenced in the same text, the place is read back
    // through both fencings.
    let deep = format!("{}x\n", "- ".repeat(2_000));
    let text = format!("{deep}\n|a|b|\n\n{table}");
    assert_eq!(
        prepare(&text).as_written_from(),
        Some(deep.len() + "\n|a|b|\n\n".len())
    );
    assert!(prepare("plain *words*\n").is_plain());
}
