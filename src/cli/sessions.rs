//! `overhear sessions`: every session `overhear search` would cover, one
//! per line with its agent, project, title, start, last activity, duration,
//! turns, tool calls, failures, tokens, cost and a live marker, as a table
//! that fits the terminal, or `--json`, one object per session. Exit 0 when
//! some session was listed, 1 when none was found, 2 on an error
//! (docs/sessions.md).

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use clap::{Args, ValueEnum};
use jiff::Timestamp;
use serde_json::{Value, json};

use super::discover::AgentArg;
use crate::search::{self, Listed};
use crate::text::sanitize::echo_line;
use crate::text::truncate::truncate;
use crate::text::width::display_width;
use crate::usage::Summary;

/// Arguments of `overhear sessions`.
#[derive(Debug, Clone, Args)]
pub struct SessionsArgs {
    /// Only sessions written since DATE: 2026-11-30, an RFC 3339 time, or
    /// an age such as 36h, 7d, 2w.
    #[arg(long, value_name = "DATE", value_parser = super::search::since)]
    pub since: Option<SystemTime>,
    /// The sessions of this folder instead of the current one.
    #[arg(long, value_name = "DIR", conflicts_with = "all_projects")]
    pub project: Option<PathBuf>,
    /// The sessions of every folder.
    #[arg(long)]
    pub all_projects: bool,
    /// The order: by last activity, start, duration, turns or cost, the
    /// latest or largest first.
    #[arg(long, value_enum, default_value = "last")]
    pub sort: SortBy,
    /// One JSON object per session, one per line.
    #[arg(long)]
    pub json: bool,
}

/// What `--sort` orders by (the latest or largest first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SortBy {
    /// When it started.
    Start,
    /// When it last did something.
    Last,
    /// How long it ran.
    Duration,
    /// How many turns it has.
    Turns,
    /// What it cost.
    Cost,
}

/// Lists the sessions; returns the exit code (0 listed, 1 none, 2 an error).
pub fn run(args: &SessionsArgs, agent: Option<AgentArg>) -> anyhow::Result<i32> {
    // Its `[prices]` price the turns that record no cost.
    super::user_config::load().map_err(super::UsageError::from)?;
    let sessions = super::search::selected(
        args.project.as_deref(),
        args.all_projects,
        args.since,
        agent,
        &[],
    )?;
    let threads = std::thread::available_parallelism().map_or(2, usize::from);
    let mut listed = search::list(sessions, threads, SystemTime::now());
    sort(&mut listed, args.sort);
    let mut failed = false;
    for row in &listed {
        if let Err(message) = &row.figures {
            failed = true;
            super::report(format_args!("overhear: {message}"));
        }
    }
    let home = std::env::var("HOME")
        .ok()
        .filter(|h| !h.is_empty())
        .map(PathBuf::from);
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let written = if args.json {
        listed.iter().try_for_each(|row| {
            crate::text::safe_json::to_writer(&mut out, &json_row(row))?;
            out.write_all(b"\n")
        })
    } else if listed.is_empty() {
        Ok(())
    } else {
        let width = super::terminal::print_columns(None);
        let cells: Vec<Vec<String>> = listed.iter().map(|r| cells(r, home.as_deref())).collect();
        let lines = table(&cells, width);
        lines
            .iter()
            .try_for_each(|line| writeln!(out, "{}", line.trim_end()))
    };
    let written = written.and_then(|()| out.flush());
    super::stdout_written(written)?;
    Ok(if failed {
        2
    } else if listed.is_empty() {
        1
    } else {
        0
    })
}

/// When a session last did something: its last stated time, else when its
/// file was written.
fn last(row: &Listed) -> Option<Timestamp> {
    let stated = row.figures.as_ref().ok().and_then(|f| f.last);
    stated.or_else(|| {
        row.session
            .modified
            .and_then(|at| Timestamp::try_from(at).ok())
    })
}

/// How long a session ran: from its first stated time to its last.
fn duration(figures: &Summary) -> Option<jiff::SignedDuration> {
    Some(figures.last?.duration_since(figures.started?))
}

/// Sorts `rows` by `by`, the latest or largest first; a session without
/// the figure goes last; ties keep the selection's order (newest first).
fn sort(rows: &mut [Listed], by: SortBy) {
    let figures = |row: &Listed| row.figures.as_ref().ok().copied();
    rows.sort_by(|a, b| {
        let key = |row: &Listed| -> Option<f64> {
            match by {
                SortBy::Start => figures(row)?.started.map(|t| t.as_millisecond() as f64),
                SortBy::Last => last(row).map(|t| t.as_millisecond() as f64),
                SortBy::Duration => duration(&figures(row)?).map(|d| d.as_secs_f64()),
                SortBy::Turns => Some(figures(row)?.turns as f64),
                SortBy::Cost => {
                    let cost = figures(row)?.cost;
                    (cost.costed > 0).then_some(cost.dollars)
                }
            }
        };
        match (key(a), key(b)) {
            (Some(x), Some(y)) => y.total_cmp(&x),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => std::cmp::Ordering::Equal,
        }
    });
}

/// The column headings, in order.
const HEADINGS: [&str; 12] = [
    "",
    "agent",
    "project",
    "title",
    "start (UTC)",
    "last (UTC)",
    "duration",
    "turns",
    "tools",
    "failed",
    "tokens in/out",
    "cost",
];

/// The columns dropped, in this order, when the table is too wide even with
/// the title and the project cut short (by index into [`HEADINGS`]).
const DROPPED_FIRST: [usize; 7] = [4, 9, 8, 6, 10, 2, 5];

/// Which columns are numbers (right-aligned).
const NUMERIC: [usize; 5] = [6, 7, 8, 9, 10];

/// A session's cells, sanitized, one per heading.
fn cells(row: &Listed, home: Option<&Path>) -> Vec<String> {
    let figures = row.figures.as_ref().ok();
    let time = |t: Option<Timestamp>| {
        t.map(|t| t.strftime("%Y-%m-%d %H:%M").to_string())
            .unwrap_or_default()
    };
    let count = |n: Option<usize>| n.map(|n| n.to_string()).unwrap_or_default();
    let tokens = figures
        .and_then(|f| match (f.input_tokens, f.output_tokens) {
            (None, None) => None,
            (i, o) => Some(format!(
                "{}/{}",
                i.map_or("-".into(), short),
                o.map_or("-".into(), short)
            )),
        })
        .unwrap_or_default();
    let project = row
        .session
        .project
        .as_deref()
        .map(|p| shown_path(p, home))
        .unwrap_or_default();
    vec![
        if row.live {
            "●".into()
        } else {
            String::new()
        },
        row.session.agent.to_owned(),
        project,
        row.title
            .as_deref()
            .map(|t| echo_line(t).into_owned())
            .unwrap_or_default(),
        time(figures.and_then(|f| f.started)),
        time(last(row)),
        figures
            .and_then(duration)
            .map(human_duration)
            .unwrap_or_default(),
        count(figures.map(|f| f.turns)),
        count(figures.map(|f| f.tool_calls)),
        count(figures.map(|f| f.failures)),
        tokens,
        match &row.figures {
            Ok(f) => f.cost.label().unwrap_or_default(),
            Err(_) => "unreadable".into(),
        },
    ]
}

/// The rows laid out under their headings, columns two spaces apart, each
/// line at most `width` columns: the title, then the project, are cut
/// first (to 12 columns at least), then whole columns are left out
/// ([`DROPPED_FIRST`]), then each line is cut.
fn table(rows: &[Vec<String>], width: usize) -> Vec<String> {
    let natural: Vec<usize> = (0..HEADINGS.len())
        .map(|c| {
            rows.iter()
                .map(|r| display_width(&r[c]))
                .chain([display_width(HEADINGS[c])])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut shown: Vec<usize> = (0..HEADINGS.len()).collect();
    let mut widths = natural.clone();
    let total = |shown: &[usize], widths: &[usize]| {
        shown.iter().map(|&c| widths[c]).sum::<usize>() + 2 * shown.len().saturating_sub(1)
    };
    let mut dropped = DROPPED_FIRST.iter();
    loop {
        let over = total(&shown, &widths).saturating_sub(width);
        if over == 0 {
            break;
        }
        // Cut the title, then the project, down to 12 columns.
        let mut over = over;
        for c in [3, 2] {
            if shown.contains(&c) && widths[c] > 12 {
                let cut = over.min(widths[c] - 12);
                widths[c] -= cut;
                over -= cut;
            }
        }
        if over == 0 {
            break;
        }
        match dropped.next() {
            Some(c) => {
                shown.retain(|s| s != c);
                widths = natural.clone();
            }
            None => break,
        }
    }
    let line = |cells: &[&str]| {
        let mut text = String::new();
        for (k, &c) in shown.iter().enumerate() {
            if k > 0 {
                text.push_str("  ");
            }
            let cell = truncate(cells[c], widths[c]);
            let pad = " ".repeat(widths[c].saturating_sub(display_width(&cell)));
            if NUMERIC.contains(&c) {
                text.push_str(&pad);
                text.push_str(&cell);
            } else {
                text.push_str(&cell);
                text.push_str(&pad);
            }
        }
        truncate(&text, width)
    };
    let mut lines = vec![line(&HEADINGS)];
    for row in rows {
        let cells: Vec<&str> = row.iter().map(String::as_str).collect();
        lines.push(line(&cells));
    }
    lines
}

/// One session as JSON.
fn json_row(row: &Listed) -> Value {
    let figures = row.figures.as_ref().ok();
    let stamp = |t: Option<Timestamp>| t.map(|t| t.to_string());
    json!({
        "path": row.session.target.open.display().to_string(),
        "agent": row.session.agent,
        "session": row.session.id,
        "project": row.session.project.as_ref().map(|p| p.display().to_string()),
        "title": row.title,
        "start": stamp(figures.and_then(|f| f.started)),
        "last": stamp(last(row)),
        "duration_seconds": figures.and_then(duration).map(|d| d.as_secs()),
        "turns": figures.map(|f| f.turns),
        "tool_calls": figures.map(|f| f.tool_calls),
        "failures": figures.map(|f| f.failures),
        "input_tokens": figures.and_then(|f| f.input_tokens),
        "output_tokens": figures.and_then(|f| f.output_tokens),
        "cost_usd": figures.filter(|f| f.cost.costed > 0).map(|f| f.cost.dollars),
        "cost_estimated": figures.is_some_and(|f| f.cost.estimated),
        "turns_not_priced": figures.map(|f| f.cost.not_priced),
        "cost": figures.and_then(|f| f.cost.label()),
        "live": row.live,
        "error": row.figures.as_ref().err().map(ToString::to_string),
    })
}

/// A path with the home folder written `~`, sanitized.
fn shown_path(path: &Path, home: Option<&Path>) -> String {
    let shown = match home.and_then(|home| path.strip_prefix(home).ok()) {
        Some(rest) => Path::new("~").join(rest).display().to_string(),
        None => path.display().to_string(),
    };
    echo_line(&shown).into_owned()
}

/// A token count in a few characters: `950`, `12.3k`, `4.1M`.
fn short(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.1}k", n as f64 / 1e3),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

/// A duration as a user reads it: `45s`, `12m 5s`, `3h 12m`, `2d 4h`.
fn human_duration(d: jiff::SignedDuration) -> String {
    let s = d.as_secs().max(0);
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m {}s", s / 60, s % 60),
        3600..86_400 => format!("{}h {}m", s / 3600, s % 3600 / 60),
        _ => format!("{}d {}h", s / 86_400, s % 86_400 / 3600),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(title: &str) -> Vec<String> {
        let mut cells = vec![
            "●",
            "claude",
            "~/src/app",
            title,
            "2026-11-30 10:00",
            "2026-11-30 11:12",
            "1h 12m",
            "12",
            "40",
            "2",
            "1.2M/30.5k",
            "~$1.23",
        ];
        cells.truncate(HEADINGS.len());
        cells.into_iter().map(str::to_owned).collect()
    }

    #[test]
    fn the_table_fits_the_width_it_is_given() {
        let rows = vec![row(&"a long title ".repeat(10)), row("short")];
        for width in [200, 120, 80, 60, 40, 20] {
            let lines = table(&rows, width);
            for line in &lines {
                assert!(display_width(line) <= width, "{width}: {line:?}");
            }
        }
        let wide = table(&rows, 400);
        assert!(wide[1].contains(&"a long title ".repeat(10).trim_end().to_string()));
        let narrow = table(&rows, 80);
        assert!(
            narrow[0].contains("cost") && narrow[0].contains("turns"),
            "{narrow:?}"
        );
        assert!(narrow[1].contains("~$1.23"), "{narrow:?}");
    }

    #[test]
    fn durations_read_as_people_say_them() {
        let d = jiff::SignedDuration::from_secs;
        assert_eq!(human_duration(d(45)), "45s");
        assert_eq!(human_duration(d(725)), "12m 5s");
        assert_eq!(human_duration(d(3 * 3600 + 720)), "3h 12m");
        assert_eq!(human_duration(d(2 * 86_400 + 4 * 3600)), "2d 4h");
    }
}
