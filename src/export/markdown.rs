//! The Markdown export: reads well on GitHub. Turns are `##` headings,
//! speech is its own Markdown (with raw HTML neutralised and any fence it
//! leaves open closed), tool cards and reasoning are `<details>` whose
//! summary is the folded line (tool · subject · outcome · duration · size),
//! their laid-out lines fenced. Written part by part, as laid out.

use std::io::{self, Write};

use ratatui::text::Line;

use super::html::escape;
use super::{Part, plain};

/// Writes `parts` as a Markdown document titled `title`, each part as it
/// comes.
pub(super) fn write(
    out: &mut impl Write,
    title: &str,
    parts: impl IntoIterator<Item = Part>,
) -> io::Result<()> {
    writeln!(out, "# {}\n", neutralise_html(title))?;
    for part in parts {
        match &part {
            Part::Turn { title, .. } => writeln!(out, "## {}\n", escape(title))?,
            Part::Speech {
                label,
                source,
                laid,
            } => match source {
                Some(text) if !text.trim().is_empty() => {
                    writeln!(out, "**{}**\n", escape(label))?;
                    writeln!(out, "{}\n", neutralise_html(text.trim_end()))?;
                }
                Some(_) => fenced(out, &laid.lines)?,
                // A continuation piece: its text came with the first piece.
                None => {}
            },
            Part::Fold {
                summary,
                body,
                open,
                close,
            } => {
                if *open {
                    let head: Vec<String> = summary.lines.iter().map(|l| plain(Some(l))).collect();
                    let head = head.join(" ");
                    writeln!(
                        out,
                        "<details>\n<summary>{}</summary>\n",
                        escape(&summary_words(head.trim()))
                    )?;
                }
                fenced(out, &body.lines)?;
                if *close {
                    writeln!(out, "</details>\n")?;
                }
            }
            Part::Lines(laid) => fenced(out, &laid.lines)?,
        }
    }
    Ok(())
}

/// A folded line as a summary: the viewer's `· 12 lines folded` says
/// how long the result is, `· 12 lines` here, where nothing is folded
/// away (the body holds them).
fn summary_words(folded: &str) -> String {
    if let Some(rest) = folded.strip_suffix(", folded)") {
        return format!("{rest})");
    }
    let Some(rest) = folded.strip_suffix(" folded") else {
        return folded.to_string();
    };
    let count = rest
        .rsplit_once(" · ")
        .map(|(_, count)| count)
        .filter(|count| {
            let mut words = count.split(' ');
            words.next().is_some_and(|n| n.parse::<u64>().is_ok())
                && matches!(words.next(), Some("line" | "lines"))
                && words.next().is_none()
        });
    match count {
        Some(_) => rest.to_string(),
        None => folded.to_string(),
    }
}

/// Laid-out lines as a fenced block (longer fence than any backtick run
/// inside); nothing for lines that are all blank.
fn fenced(out: &mut impl Write, lines: &[Line<'_>]) -> io::Result<()> {
    let mut texts: Vec<String> = lines
        .iter()
        .map(|l| plain(Some(l)).trim_end().to_string())
        .collect();
    while texts.last().is_some_and(|t| t.is_empty()) {
        texts.pop();
    }
    while texts.first().is_some_and(|t| t.is_empty()) {
        texts.remove(0);
    }
    if texts.is_empty() {
        return Ok(());
    }
    let longest = texts.iter().map(|t| longest_run(t, '`')).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    writeln!(out, "{fence}text")?;
    for text in &texts {
        writeln!(out, "{text}")?;
    }
    writeln!(out, "{fence}\n")
}

/// The longest run of `c` in `text`.
fn longest_run(text: &str, c: char) -> usize {
    let (mut best, mut run) = (0, 0);
    for ch in text.chars() {
        run = if ch == c { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// Markdown with every `<` and `&` outside code escaped, so that HTML in
/// a message shows as text and cannot open or close the export's own
/// `<details>`; code (fenced blocks and inline spans) keeps its bytes, and
/// a fence left open is closed.
pub(super) fn neutralise_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut fence: Option<(char, usize)> = None;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let marker = trimmed.chars().next().filter(|c| *c == '`' || *c == '~');
        if let Some(c) = marker {
            let run = longest_prefix(trimmed, c);
            if run >= 3 {
                match fence {
                    None => fence = Some((c, run)),
                    Some((open, len)) if open == c && run >= len => fence = None,
                    Some(_) => {}
                }
                out.push_str(line);
                continue;
            }
        }
        if fence.is_some() {
            out.push_str(line);
        } else {
            outside_code_spans(&demoted(line), &mut out);
        }
    }
    // A fence the message leaves open is closed here: the rest of the
    // export is not swallowed into its code block.
    if let Some((c, len)) = fence {
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out.extend(std::iter::repeat_n(c, len));
    }
    out
}

/// A heading of a message two levels down (`# x` → `### x`, at most
/// `######`): the export's own `#` title and `##` turns stay on top.
fn demoted(line: &str) -> std::borrow::Cow<'_, str> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let rest = &line[indent..];
    let level = longest_prefix(rest, '#');
    let heading = indent <= 3
        && (1..=6).contains(&level)
        && rest[level..].starts_with([' ', '\t', '\n', '\r']);
    if !heading {
        return line.into();
    }
    let deeper = (level + 2).min(6);
    format!("{}{}", "#".repeat(deeper), &rest[level..]).into()
}

fn longest_prefix(text: &str, c: char) -> usize {
    text.chars().take_while(|&ch| ch == c).count()
}

/// One line of prose: `<` and `&` escaped except inside backtick spans.
fn outside_code_spans(line: &str, out: &mut String) {
    let mut rest = line;
    while let Some(at) = rest.find('`') {
        escape_into(&rest[..at], out);
        let run = longest_prefix(&rest[at..], '`');
        let ticks = &rest[at..at + run];
        let after = &rest[at + run..];
        match after.find(ticks) {
            Some(end) => {
                out.push_str(ticks);
                out.push_str(&after[..end + run]);
                rest = &after[end + run..];
            }
            None => {
                out.push_str(ticks);
                rest = after;
            }
        }
    }
    escape_into(rest, out);
}

fn escape_into(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '&' => out.push_str("&amp;"),
            _ => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::neutralise_html;

    #[test]
    fn html_in_prose_is_shown_as_text_and_code_keeps_its_bytes() {
        let text = "a <script>x</script> & `<b>` here\n```html\n<details>\n```\n</details>";
        assert_eq!(
            neutralise_html(text),
            "a &lt;script>x&lt;/script> &amp; `<b>` here\n```html\n<details>\n```\n&lt;/details>"
        );
    }

    #[test]
    fn an_unclosed_fence_is_closed_where_the_message_ends() {
        assert_eq!(
            neutralise_html("~~~~\n<a>\n~~~\n<b>"),
            "~~~~\n<a>\n~~~\n<b>\n~~~~"
        );
        assert_eq!(neutralise_html("```\nx\n"), "```\nx\n```");
    }

    #[test]
    fn a_summary_says_how_long_the_result_is_not_that_it_is_folded() {
        use super::summary_words;
        assert_eq!(
            summary_words("Bash · ls -la · failed · 2s · 12 lines folded"),
            "Bash · ls -la · failed · 2s · 12 lines"
        );
        assert_eq!(summary_words("Read · 1 line folded"), "Read · 1 line");
        assert_eq!(summary_words("Bash · echo folded"), "Bash · echo folded");
        assert_eq!(
            summary_words("thinking (40 characters, folded)"),
            "thinking (40 characters)"
        );
    }

    #[test]
    fn a_message_s_headings_go_under_the_turn_s() {
        assert_eq!(
            neutralise_html("# A\n### B\n##### C\n#no\n```\n# code\n```"),
            "### A\n##### B\n###### C\n#no\n```\n# code\n```"
        );
    }
}
