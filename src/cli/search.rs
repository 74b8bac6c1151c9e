//! `overhear search PATTERN [PATH…]`: every hit of a text in the sessions
//! overhear finds, grouped by session, like ripgrep's `--heading` output;
//! `--json` for one object per hit. Exit 0 when something matched, 1 when
//! nothing did, 2 on an error (docs/search.md).

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use clap::Args;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use serde_json::{Value, json};

use super::discover::{AgentArg, agent_filter};
use super::render::ColorWhen;
use crate::render::output::write_lines;
use crate::render::theme::ColorDepth;
use crate::search::fit::fit;
use crate::search::{self, Case, Hit, Kinds, Outcome, Query, Scope, Session};
use crate::text::sanitize::echo_line;
use crate::text::truncate::{cut_to_width, truncate_middle};
use crate::text::width::display_width;

/// Arguments of `overhear search`.
#[derive(Debug, Clone, Args)]
pub struct SearchArgs {
    /// The text to find (a regular expression with --regex).
    pub pattern: String,
    /// Conversations to search too: eve streams, transcripts, JP
    /// conversations or workspaces.
    pub paths: Vec<PathBuf>,
    /// Only sessions written since DATE: 2026-11-30, an RFC 3339 time, or
    /// an age such as 36h, 7d, 2w.
    #[arg(long, value_name = "DATE", value_parser = since)]
    pub since: Option<SystemTime>,
    /// The sessions of this folder instead of the current one.
    #[arg(long, value_name = "DIR", conflicts_with = "all_projects")]
    pub project: Option<PathBuf>,
    /// The sessions of every folder.
    #[arg(long)]
    pub all_projects: bool,
    /// PATTERN is a regular expression (Rust `regex` syntax).
    #[arg(long, short = 'e')]
    pub regex: bool,
    /// Letters match in either case.
    #[arg(long, short = 'i', conflicts_with = "smart_case")]
    pub ignore_case: bool,
    /// Letters match in either case unless PATTERN has an uppercase one.
    #[arg(long, short = 'S')]
    pub smart_case: bool,
    /// One JSON object per hit, one per line.
    #[arg(long)]
    pub json: bool,
    /// When to write colour.
    #[arg(long, value_enum, default_value = "auto")]
    pub color: ColorWhen,
    /// Cut each line to this many columns (default: the terminal's width
    /// when stdout is one, else not cut).
    #[arg(long, value_name = "COLUMNS", value_parser = clap::value_parser!(u16).range(20..))]
    pub width: Option<u16>,
}

/// Searches and prints; returns the exit code (0 matched, 1 nothing, 2 an
/// error).
pub fn run(args: &SearchArgs, agent: Option<AgentArg>) -> anyhow::Result<i32> {
    let case = match (args.ignore_case, args.smart_case) {
        (true, _) => Case::Ignore,
        (_, true) => Case::Smart,
        _ => Case::Sensitive,
    };
    let query = Query::new(&args.pattern, args.regex, case)
        .map_err(|err| super::UsageError::Option(format!("search: {err}")))?;
    let sessions = selected(
        args.project.as_deref(),
        args.all_projects,
        args.since,
        agent,
        &args.paths,
    )?;
    let env = |name: &str| std::env::var(name).ok();
    let targets: Vec<search::Target> = sessions.iter().map(|s| s.target.clone()).collect();
    let threads = std::thread::available_parallelism().map_or(2, usize::from);
    let home = env("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
    let printer = Printer {
        color: super::render::color_depth(args.color) != ColorDepth::None,
        width: args.width.map(usize::from).or_else(|| {
            io::stdout()
                .is_terminal()
                .then(|| super::terminal::print_columns(None))
        }),
        json: args.json,
        home,
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let (mut matched, mut failed) = (false, false);
    let mut written = Ok(());
    search::scan(&targets, &query, threads, &mut |index, outcome| {
        match outcome {
            Outcome::Skipped => {}
            Outcome::Failed(message) => {
                failed = true;
                super::report(format_args!("overhear: {message}"));
            }
            Outcome::Searched { title, hits } => {
                if hits.is_empty() {
                    return true;
                }
                matched = true;
                written = printer.session(&mut out, &sessions[index], title.as_deref(), &hits);
                if written.is_ok() {
                    written = out.flush();
                }
            }
        }
        written.is_ok()
    });
    super::stdout_written(written)?;
    Ok(if failed {
        2
    } else if matched {
        0
    } else {
        1
    })
}

/// The sessions `search` and `sessions` cover: those of `project` (else
/// the current folder) or of every folder, of `agent` (else every agent and
/// the JP workspace), written since `since`, then `paths`.
pub(super) fn selected(
    project: Option<&Path>,
    all_projects: bool,
    since: Option<SystemTime>,
    agent: Option<AgentArg>,
    paths: &[PathBuf],
) -> anyhow::Result<Vec<Session>> {
    let cwd = std::env::current_dir().map_err(|err| {
        anyhow::anyhow!("the current folder: {}", crate::problem::io_problem(&err))
    })?;
    let env = |name: &str| std::env::var(name).ok();
    let folder = project.map_or(cwd, Path::to_path_buf);
    let scope = if all_projects {
        Scope::AllProjects(folder)
    } else {
        Scope::Folder(folder)
    };
    let kinds = Kinds {
        agents: agent_filter(agent),
        jp: agent.is_none_or(|a| a == AgentArg::Jp),
    };
    let mut sessions = search::sessions(&scope, kinds, paths, &env);
    if let Some(since) = since {
        sessions.retain(|session| session.modified.is_none_or(|at| at >= since));
    }
    // A Codex child rollout searched with its parent is read as the
    // parent's sub-agent: listed once, under the parent.
    Ok(search::without_nested_children(sessions))
}

/// How hits are written.
struct Printer {
    color: bool,
    /// The terminal's width, when stdout is one: lines are cut to it.
    width: Option<usize>,
    json: bool,
    home: Option<PathBuf>,
}

impl Printer {
    fn session(
        &self,
        out: &mut impl Write,
        session: &Session,
        title: Option<&str>,
        hits: &[Hit],
    ) -> io::Result<()> {
        if self.json {
            for hit in hits {
                let line = json_line(session, title, hit);
                crate::text::safe_json::to_writer(&mut *out, &line)?;
                out.write_all(b"\n")?;
            }
            return Ok(());
        }
        let heading = Style::default()
            .fg(Color::Magenta)
            .add_modifier(Modifier::BOLD);
        let mut head = vec![Span::styled(session.agent, heading)];
        if let Some(project) = &session.project {
            head.push(Span::raw("  "));
            head.push(Span::styled(self.shown_path(project), heading));
        }
        if let Some(title) = title {
            head.push(Span::raw("  "));
            head.push(Span::raw(echo_line(title).into_owned()));
        }
        let mut lines = vec![
            Line::from(head),
            Line::from(Span::styled(
                self.shown_path(&session.target.open),
                Style::default().add_modifier(Modifier::DIM),
            )),
        ];
        lines.extend(hits.iter().map(|hit| hit_line(hit, self.width)));
        lines.push(Line::default());
        if let Some(width) = self.width {
            for line in &mut lines {
                *line = cut_to_width(line, width);
            }
        }
        write_lines(out, &lines, self.color)
    }

    /// A path with the home folder written `~`, sanitized.
    fn shown_path(&self, path: &Path) -> String {
        let shown = match self
            .home
            .as_deref()
            .and_then(|home| path.strip_prefix(home).ok())
        {
            Some(rest) => Path::new("~").join(rest).display().to_string(),
            None => path.display().to_string(),
        };
        echo_line(&shown).into_owned()
    }
}

/// `  3  tool Bash result  …line with the match marked…`; with a
/// `width`, a place too long to leave room for the match is shortened in
/// its middle, and the context before the match cut from its start, so
/// that the match shows (the caller cuts the line's end).
fn hit_line(hit: &Hit, width: Option<usize>) -> Line<'static> {
    let turn = format!("{:>4}  ", hit.turn);
    let mut label = place(hit);
    let room = width.map(|width| {
        let fixed = display_width(&turn) + 2;
        let context = display_width(&echo_line(&hit.line));
        let cap = (width / 2).max(10);
        if fixed + display_width(&label) + context > width && display_width(&label) > cap {
            label = shortened_place(hit, cap);
        }
        width.saturating_sub(fixed + display_width(&label))
    });
    let mut spans = vec![
        Span::styled(turn, Style::default().fg(Color::Green)),
        Span::styled(label, Style::default().fg(Color::Cyan)),
        Span::raw("  "),
    ];
    for piece in fit(&hit.line, &hit.matches, room) {
        spans.push(if piece.matched {
            Span::styled(
                piece.text,
                Style::default().fg(Color::Red).add_modifier(Modifier::BOLD),
            )
        } else {
            Span::raw(piece.text)
        });
    }
    Line::from(spans)
}

/// `prompt`, `tool Bash result`, `sub-agent Explore › reply`.
fn place(hit: &Hit) -> String {
    place_with(hit, |agent| echo_line(agent).into_owned())
}

/// [`place`] in at most `width` columns: the sub-agents' names shortened in
/// their middle first (`sub-agent Rou…son › reply`), then the whole.
fn shortened_place(hit: &Hit, width: usize) -> String {
    let names: usize = hit
        .subagents
        .iter()
        .map(|a| display_width(&echo_line(a)))
        .sum();
    let others = display_width(&place(hit)) - names;
    let count = hit.subagents.len();
    let each = width.saturating_sub(others).checked_div(count).unwrap_or(0);
    let label = if each >= 5 {
        place_with(hit, |agent| truncate_middle(&echo_line(agent), each))
    } else {
        place(hit)
    };
    truncate_middle(&label, width)
}

/// The place with each sub-agent's name written by `name`.
fn place_with(hit: &Hit, name: impl Fn(&str) -> String) -> String {
    hit.label_with(name, |tool| echo_line(tool).into_owned())
}

/// One hit as `--json` writes it (strings as stored; the writer escapes
/// every control character).
fn json_line(session: &Session, title: Option<&str>, hit: &Hit) -> Value {
    let kind = match &hit.tool {
        Some(tool) => format!("tool {tool} {}", hit.place.name()),
        None => hit.place.name().to_owned(),
    };
    json!({
        "path": session.target.open.display().to_string(),
        "agent": session.agent,
        "session": session.id,
        "project": session.project.as_ref().map(|p| p.display().to_string()),
        "title": title,
        "turn": hit.turn,
        "kind": kind,
        "place": hit.place.name(),
        "tool": hit.tool,
        "subagents": hit.subagents,
        "line": hit.line,
        "matches": hit.matches.iter().map(|m| [m.start, m.end]).collect::<Vec<_>>(),
    })
}

/// `--since`: a date (`2026-11-30`, midnight UTC), an RFC 3339 time, or an
/// age (`36h`, `7d`, `2w`) before now.
pub(super) fn since(text: &str) -> Result<SystemTime, NotADate> {
    let text = text.trim();
    if let Some(age) = age(text) {
        return SystemTime::now().checked_sub(age).ok_or(NotADate);
    }
    let at = match crate::model::timestamp::parse(text) {
        Some(at) => at,
        None => {
            let date: jiff::civil::Date = text.parse().map_err(|_| NotADate)?;
            jiff::tz::TimeZone::UTC
                .to_timestamp(date.at(0, 0, 0, 0))
                .map_err(|_| NotADate)?
        }
    };
    let seconds = std::time::Duration::from_secs(at.as_second().unsigned_abs());
    if at.as_second() >= 0 {
        SystemTime::UNIX_EPOCH.checked_add(seconds)
    } else {
        SystemTime::UNIX_EPOCH.checked_sub(seconds)
    }
    .ok_or(NotADate)
}

/// `36h`, `7d`, `2w` as a duration.
fn age(text: &str) -> Option<std::time::Duration> {
    let unit = text.chars().last()?;
    let hours: u64 = match unit {
        'h' => 1,
        'd' => 24,
        'w' => 24 * 7,
        _ => return None,
    };
    let count: u64 = text[..text.len() - 1].parse().ok()?;
    Some(std::time::Duration::from_secs(
        count.checked_mul(hours)?.checked_mul(3600)?,
    ))
}

/// `--since` given something that is no date.
#[derive(Debug, thiserror::Error)]
#[error("expected a date (2026-11-30), an RFC 3339 time, or an age (36h, 7d, 2w)")]
pub struct NotADate;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn since_reads_dates_times_and_ages() {
        let day = since("2026-11-30").unwrap();
        let time = since("2026-11-30T00:00:00Z").unwrap();
        assert_eq!(day, time);
        let week = since("1w").unwrap();
        let now = SystemTime::now();
        let ago = now.duration_since(week).unwrap().as_secs();
        assert!((7 * 24 * 3600 - 5..=7 * 24 * 3600 + 5).contains(&ago));
        assert!(since("yesterday").is_err());
        assert!(since("2999-01-01").unwrap() > SystemTime::now());
        assert!(since("99999999999999999w").is_err());
    }
}
