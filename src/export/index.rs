//! The index of `export --all`: every session exported, grouped by the
//! project folder it ran in, each with its agent, its title (a link to its
//! page) and its figures. One self-contained HTML page (inline CSS, no
//! script, the same Content-Security-Policy as a session's page), or a
//! Markdown table per project for `--format md`. The caller writes it
//! through [`super::Tilde`], so the home folder is `~` here too.

use std::io::{self, Write};

use serde::{Deserialize, Serialize};

use super::Figures;
use super::html::escape;

/// One session of the index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The agent that wrote it (`claude`, `codex`, `jp`…).
    pub agent: String,
    /// Its title: the conversation's, else its first prompt's first line.
    pub title: String,
    /// Its page's file name, beside the index.
    pub page: String,
    /// What it holds.
    pub figures: Figures,
}

/// The sessions of one project folder.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// The folder as a path (`/home/ada/src/app`), or a phrase when the
    /// session does not record it.
    pub project: String,
    /// Its sessions, newest first.
    pub rows: Vec<Row>,
}

/// Groups `rows` (each with its project, `None` when unknown) by project:
/// projects in name order, the unknown last; sessions newest first.
pub fn group(rows: Vec<(Option<String>, Row)>) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    let mut sorted = rows;
    sorted.sort_by(|(a, ra), (b, rb)| {
        (a.is_none(), a, std::cmp::Reverse(ra.figures.start), &ra.page).cmp(&(
            b.is_none(),
            b,
            std::cmp::Reverse(rb.figures.start),
            &rb.page,
        ))
    });
    for (project, row) in sorted {
        let project = project.unwrap_or_else(|| UNKNOWN_FOLDER.to_string());
        match groups.last_mut() {
            Some(group) if group.project == project => group.rows.push(row),
            _ => groups.push(Group {
                project,
                rows: vec![row],
            }),
        }
    }
    groups
}

/// The heading of the sessions that do not record their folder.
pub const UNKNOWN_FOLDER: &str = "(folder not recorded)";

const CSS: &str = "\
:root{color-scheme:light dark}
body{margin:0;background:#ffffff;color:#1f2328;font:15px/1.45 system-ui,sans-serif}
main{max-width:72rem;margin:0 auto;padding:1rem 1.5rem 3rem}
h1{font-size:1.4rem}
h2{font-size:1.05rem;margin:2rem 0 .5rem;font-family:ui-monospace,Menlo,Consolas,monospace}
table{border-collapse:collapse;width:100%;font-size:14px}
th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #d0d7de;vertical-align:top}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
a{color:#0969da}
@media (prefers-color-scheme: dark){
body{background:#0d1117;color:#e6edf3}
th,td{border-bottom-color:#30363d}
a{color:#4493f8}
}
@media (max-width:40rem){main{padding:.5rem}table{font-size:12px}}
";

/// Writes the index as an HTML page.
pub fn write_html(out: &mut impl Write, groups: &[Group]) -> io::Result<()> {
    let sessions: usize = groups.iter().map(|g| g.rows.len()).sum();
    let costs = groups
        .iter()
        .flat_map(|g| &g.rows)
        .any(|r| r.figures.has_cost());
    write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"overhear {}\">\n\
         <title>Sessions</title>\n<style>\n{CSS}</style>\n</head>\n<body>\n<main>\n<h1>Sessions</h1>\n\
         <p>{sessions} {} in {} {}.</p>\n",
        env!("CARGO_PKG_VERSION"),
        plural(sessions, "session", "sessions"),
        groups.len(),
        plural(groups.len(), "project", "projects"),
    )?;
    for group in groups {
        writeln!(
            out,
            "<section>\n<h2>{}</h2>\n<table>\n<thead><tr><th>agent</th><th>session</th>\
             <th>start</th><th class=\"n\">duration</th><th class=\"n\">turns</th>\
             <th class=\"n\">tool calls</th><th class=\"n\">failures</th><th class=\"n\">tokens</th>{}</tr></thead>\n<tbody>",
            escape(&group.project),
            if costs { "<th class=\"n\">cost</th>" } else { "" }
        )?;
        for row in &group.rows {
            let f = &row.figures;
            write!(
                out,
                "<tr><td>{}</td><td><a href=\"{}\">{}</a></td><td>{}</td><td class=\"n\">{}</td>\
                 <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>",
                escape(&row.agent),
                escape(&row.page),
                escape(&row.title),
                escape(&f.start_text()),
                escape(&f.duration_text()),
                f.turns,
                f.tool_calls,
                f.failures,
                escape(&f.tokens_text()),
            )?;
            if costs {
                write!(out, "<td class=\"n\">{}</td>", escape(&f.cost_text()))?;
            }
            writeln!(out, "</tr>")?;
        }
        writeln!(out, "</tbody>\n</table>\n</section>")?;
    }
    writeln!(out, "</main>\n</body>\n</html>")
}

/// Writes the index as Markdown: a table per project.
pub fn write_md(out: &mut impl Write, groups: &[Group]) -> io::Result<()> {
    let sessions: usize = groups.iter().map(|g| g.rows.len()).sum();
    let costs = groups
        .iter()
        .flat_map(|g| &g.rows)
        .any(|r| r.figures.has_cost());
    writeln!(
        out,
        "# Sessions\n\n{sessions} {} in {} {}.\n",
        plural(sessions, "session", "sessions"),
        groups.len(),
        plural(groups.len(), "project", "projects"),
    )?;
    for group in groups {
        writeln!(out, "## {}\n", cell(&group.project))?;
        write!(
            out,
            "| agent | session | start | duration | turns | tool calls | failures | tokens |"
        )?;
        writeln!(out, "{}", if costs { " cost |" } else { "" })?;
        write!(out, "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |")?;
        writeln!(out, "{}", if costs { " ---: |" } else { "" })?;
        for row in &group.rows {
            let f = &row.figures;
            write!(
                out,
                "| {} | [{}]({}) | {} | {} | {} | {} | {} | {} |",
                cell(&row.agent),
                cell(&row.title),
                row.page,
                f.start_text(),
                f.duration_text(),
                f.turns,
                f.tool_calls,
                f.failures,
                f.tokens_text(),
            )?;
            if costs {
                write!(out, " {} |", f.cost_text())?;
            }
            writeln!(out)?;
        }
        writeln!(out)?;
    }
    Ok(())
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

/// Text for a Markdown table cell or heading: no markup, no HTML, no `|`.
fn cell(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '&' => out.push_str("&amp;"),
            '|' | '\\' | '[' | ']' | '*' | '_' | '`' | '#' | '!' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(page: &str, start: i64, cost: Option<f64>) -> Row {
        Row {
            agent: "claude".into(),
            title: "<b>fix | it</b>".into(),
            page: page.into(),
            figures: Figures {
                start: Some(start),
                cost,
                ..Figures::default()
            },
        }
    }

    #[test]
    fn sessions_are_grouped_by_project_newest_first_unknown_last() {
        let groups = group(vec![
            (None, row("c.html", 5, None)),
            (Some("/b".into()), row("b.html", 1, None)),
            (Some("/a".into()), row("a1.html", 1, None)),
            (Some("/a".into()), row("a2.html", 2, None)),
        ]);
        let shape: Vec<(&str, Vec<&str>)> = groups
            .iter()
            .map(|g| {
                (
                    g.project.as_str(),
                    g.rows.iter().map(|r| r.page.as_str()).collect(),
                )
            })
            .collect();
        assert_eq!(
            shape,
            [
                ("/a", vec!["a2.html", "a1.html"]),
                ("/b", vec!["b.html"]),
                (UNKNOWN_FOLDER, vec!["c.html"]),
            ]
        );
    }

    #[test]
    fn titles_are_text_in_both_forms() {
        let groups = group(vec![(Some("/a".into()), row("a.html", 1, Some(1.5)))]);
        let mut html = Vec::new();
        write_html(&mut html, &groups).unwrap();
        let html = String::from_utf8(html).unwrap();
        assert!(html.contains("&lt;b&gt;fix | it&lt;/b&gt;"), "{html}");
        assert!(html.contains("<td class=\"n\">$1.50</td>"), "{html}");
        let mut md = Vec::new();
        write_md(&mut md, &groups).unwrap();
        let md = String::from_utf8(md).unwrap();
        assert!(md.contains("[&lt;b>fix \\| it&lt;/b>](a.html)"), "{md}");
    }
}
