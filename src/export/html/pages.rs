//! The page, or the pages: the skeleton (head, stylesheet, the session's
//! header, the show/hide controls, the table of contents) around the turns,
//! cut into files of at most a limit each when the session is large.
//!
//! Files are cut between turns, or between two blocks of a turn larger than
//! a page (the rest of it continues on the next page under `turn N
//! (continued)`); a single block larger than the limit is a page of its own.
//! Every page has a table of contents of its own turns and a line linking
//! every page with the turns it holds (a contents of every turn on every
//! page cost a large session's pages most of their size), and links to the
//! previous and the next page. Pages are named after the output:
//! `run.html`, `run-2.html`, `run-3.html`, ….

use std::cell::RefCell;
use std::fmt::Write as _;
use std::io::{self, Write};

use super::header::Figures;
use super::spill::Window;
use super::{Built, Section, Unit, escape};

/// The largest HTML file an export writes (bytes), as `overhear export`
/// uses it: a browser opens a page this large in under 3 s on a loaded
/// 2-core machine (docs/benchmarks.md, "A page in a browser"), where
/// 16 MiB took 50 s.
pub const PAGE_LIMIT: usize = 512 * 1024;

/// The file name of page `index` (0-based) of an export written to
/// `name`: the name itself, then `NAME-2.EXT`, `NAME-3.EXT`, ….
pub fn page_name(name: &str, index: usize) -> String {
    if index == 0 {
        return name.to_string();
    }
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => format!("{stem}-{}.{ext}", index + 1),
        _ => format!("{name}-{}", index + 1),
    }
}

/// Which units of which sections a page holds.
struct Cut {
    /// (section index, first unit, end unit).
    spans: Vec<(usize, usize, usize)>,
}

/// A page's entry in the list of pages.
struct PageEntry {
    /// The turns it holds: ` (turns 41–95)`.
    turns: String,
    /// The entry linked to the page: ` <a href="…">2</a> (turns 41–95)`.
    linked: String,
}

impl Cut {
    /// The turns this page holds, as the list of pages says them:
    /// ` (turn 7)`, ` (turns 41–95)`, nothing when it holds none.
    fn turns(&self, sections: &[Section]) -> String {
        let numbers = self
            .spans
            .iter()
            .map(|&(section, _, _)| sections[section].number)
            .filter(|&n| n > 0);
        match (numbers.clone().min(), numbers.max()) {
            (Some(a), Some(b)) if a == b => format!(" (turn {a})"),
            (Some(a), Some(b)) => format!(" (turns {a}–{b})"),
            _ => String::new(),
        }
    }
}

/// The pages of an export, cut but not yet written: each is written
/// ([`Pages::write`]) straight to its file, none is held whole in memory.
pub(in crate::export) struct Pages {
    built: Built,
    title: String,
    /// The stylesheet (the classes met are known once every block is laid out).
    css: String,
    /// The session's header and controls.
    header: String,
    /// The name of the first page, which the others are named after.
    name: String,
    cuts: Vec<Cut>,
    /// Each page's entry in the list of pages, made once: every page
    /// lists every page.
    entries: Vec<PageEntry>,
    /// The page that holds each section's heading (its anchor).
    home: Vec<usize>,
    /// What was last read back of the scratch file: one for every page, so
    /// that a page goes on where the one before stopped reading, and the
    /// buffer is made once.
    window: RefCell<Window>,
}

impl Pages {
    /// `built` cut into pages of at most `limit` bytes each (a single
    /// block past it excepted), for an export written to a file named
    /// `name`; one page whatever its size when `limit` is `None`.
    pub(in crate::export) fn new(
        built: Built,
        title: &str,
        agent: Option<&str>,
        project: Option<&str>,
        name: &str,
        limit: Option<usize>,
    ) -> Pages {
        let css = built.classes.css();
        let header = header(&built.figures, agent, project);
        let cuts = match limit {
            Some(limit) => {
                // The room the skeleton takes on any page: the list of
                // pages grows with their count, so the sections are cut
                // again until the count they need is the one allowed for.
                let fixed = head(title, &css).len() + header.len() + FOOT.len() + 600;
                // What each turn's heading and its line in the contents
                // take but the page name the line links to, measured once
                // for every round.
                let headings: Vec<usize> = built
                    .sections
                    .iter()
                    .map(|section| section.heading(false).len() + 64 + toc_line(section, "").len())
                    .collect();
                let mut pages = 1;
                loop {
                    let longest = page_name(name, pages + 1).len();
                    let skeleton = fixed + 4 * (longest + 200) + (pages + 2) * (longest + 80);
                    let room = limit.saturating_sub(skeleton);
                    let cuts = cut(&built.sections, &headings, room, longest);
                    // More pages need a longer list, which needs no more
                    // pages than the room it takes: a few rounds at most.
                    if cuts.len() <= pages {
                        break cuts;
                    }
                    pages = cuts.len();
                }
            }
            None => vec![Cut {
                spans: built
                    .sections
                    .iter()
                    .enumerate()
                    .map(|(i, s)| (i, 0, s.units.len()))
                    .collect(),
            }],
        };
        let mut home = vec![0; built.sections.len()];
        for (page, cut) in cuts.iter().enumerate() {
            for &(section, start, _) in &cut.spans {
                if start == 0 {
                    home[section] = page;
                }
            }
        }
        let entries = (cuts.iter().enumerate())
            .map(|(page, cut)| {
                let turns = cut.turns(&built.sections);
                let link = escape(&page_name(name, page));
                let linked = format!(" <a href=\"{link}\">{}</a>{turns}", page + 1);
                PageEntry { turns, linked }
            })
            .collect();
        Pages {
            built,
            title: title.to_string(),
            css,
            header,
            name: name.to_string(),
            cuts,
            entries,
            home,
            window: RefCell::new(Window::new()),
        }
    }

    /// How many pages there are.
    pub(in crate::export) fn count(&self) -> usize {
        self.cuts.len()
    }

    /// Writes page `page` (0-based) to `out`.
    pub(in crate::export) fn write(&self, page: usize, out: &mut dyn Write) -> io::Result<()> {
        let Some(cut) = self.cuts.get(page) else {
            return Ok(());
        };
        out.write_all(head(&self.title, &self.css).as_bytes())?;
        out.write_all(self.header.as_bytes())?;
        let link = |section: usize| {
            (self.home[section] != page).then(|| page_name(&self.name, self.home[section]))
        };
        let on_page: Vec<usize> = cut.spans.iter().map(|&(section, _, _)| section).collect();
        out.write_all(toc(&self.built.sections, &on_page, &link).as_bytes())?;
        out.write_all(self.page_list(page).as_bytes())?;
        out.write_all(b"</header>\n")?;
        let nav = navigation(&self.name, page, self.cuts.len());
        out.write_all(nav.as_bytes())?;
        let mut window = self.window.borrow_mut();
        for &(index, start, end) in &cut.spans {
            let section = &self.built.sections[index];
            out.write_all(b"<section class=\"turn\">\n")?;
            out.write_all(section.heading(start > 0).as_bytes())?;
            for &unit in &section.units[start..end] {
                self.built.spill.write_to(unit, &mut window, out)?;
            }
            out.write_all(b"</section>\n")?;
        }
        out.write_all(nav.as_bytes())?;
        out.write_all(FOOT.as_bytes())
    }
}

/// Cuts the sections into pages whose content is at most `room` bytes
/// (each page holds one unit at least), each section's heading and line
/// in the page's table of contents counted with it: `headings` has their
/// size without the name of the page the line links to, which is at most
/// `name_len` bytes.
fn cut(sections: &[Section], headings: &[usize], room: usize, name_len: usize) -> Vec<Cut> {
    let mut cuts = vec![Cut { spans: Vec::new() }];
    let mut used = 0;
    for (index, section) in sections.iter().enumerate() {
        let heading = headings[index] + name_len;
        let mut start = 0;
        // A turn that fits whole goes whole; one that does not fit the
        // rest of this page starts on the next, and is cut only when it
        // is larger than a page.
        let size: usize = heading + section.units.iter().map(Unit::len).sum::<usize>();
        if used > 0 && used + size > room {
            cuts.push(Cut { spans: Vec::new() });
            used = 0;
        }
        used += heading;
        for (at, unit) in section.units.iter().enumerate() {
            if used + unit.len() > room && used > heading {
                if let Some(current) = cuts.last_mut() {
                    current.spans.push((index, start, at));
                }
                cuts.push(Cut { spans: Vec::new() });
                start = at;
                used = heading;
            }
            used += unit.len();
        }
        if let Some(current) = cuts.last_mut() {
            current.spans.push((index, start, section.units.len()));
        }
    }
    cuts
}

/// The start of a page: the document's head with the stylesheet, the
/// show/hide switches, the title.
fn head(title: &str, css: &str) -> String {
    let title = escape(title);
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"overhear {}\">\n\
         <title>{title}</title>\n<style>\n{css}</style>\n</head>\n<body>\n\
         <input type=\"checkbox\" class=\"toggle\" id=\"show-tools\" checked>\
         <input type=\"checkbox\" class=\"toggle\" id=\"show-reasoning\" checked>\n\
         <main>\n<header class=\"session\">\n<h1>{title}</h1>\n",
        env!("CARGO_PKG_VERSION"),
    )
}

/// The session's facts and the controls.
fn header(figures: &Figures, agent: Option<&str>, project: Option<&str>) -> String {
    let mut out = figures.session_list(agent, project);
    out.push_str(
        "<div class=\"controls\"><label for=\"show-tools\">tool cards</label>\
         <label for=\"show-reasoning\">reasoning</label></div>\n",
    );
    out
}

/// The end of a page.
const FOOT: &str = "</main>\n</body>\n</html>\n";

/// The table of contents of a page: each turn among `sections` (the
/// indices of those on the page), its first prompt and its figures,
/// linked to its anchor (`link` names the other page that holds it, for
/// a turn a page break cut).
fn toc(all: &[Section], sections: &[usize], link: &dyn Fn(usize) -> Option<String>) -> String {
    let turns: Vec<(usize, &Section)> = sections
        .iter()
        .map(|&index| (index, &all[index]))
        .filter(|(_, s)| s.number > 0)
        .collect();
    if turns.is_empty() {
        return String::new();
    }
    let open = if turns.len() <= 20 { " open" } else { "" };
    let mut out = format!(
        "<nav class=\"toc\"><details{open}><summary>{} turn{}</summary><ol>\n",
        turns.len(),
        if turns.len() == 1 { "" } else { "s" }
    );
    for (index, section) in turns {
        let page = link(index).map(|p| escape(&p)).unwrap_or_default();
        out.push_str(&toc_line(section, &page));
    }
    out.push_str("</ol></details></nav>\n");
    out
}

/// A turn's line in the table of contents, linked to `page` (empty: this one).
fn toc_line(section: &Section, page: &str) -> String {
    let n = section.number;
    let label = section
        .prompt
        .as_deref()
        .map_or_else(|| format!("turn {n}"), escape);
    let mut out = format!("<li value=\"{n}\"><a href=\"{page}#turn-{n}\">{label}</a>");
    let figures = &section.figures;
    if figures.calls > 0 {
        let _ = write!(
            out,
            " <span class=\"meta\">· {} tool call{}",
            figures.calls,
            if figures.calls == 1 { "" } else { "s" }
        );
        if figures.failures > 0 {
            let _ = write!(out, ", {} failed", figures.failures);
        }
        out.push_str("</span>");
    }
    out.push_str("</li>\n");
    out
}

impl Pages {
    /// Every page with the turns it holds, linked, the current one not:
    /// `pages: 1 (turns 1–40) · 2 (turns 41–95) · …`; nothing for a single
    /// page. Each turn's line in the contents is on the page that holds it.
    fn page_list(&self, current: usize) -> String {
        if self.cuts.len() < 2 {
            return String::new();
        }
        let mut out = String::from("<nav class=\"toc pages-list\">pages:");
        for (page, entry) in self.entries.iter().enumerate() {
            if page > 0 {
                out.push_str(" ·");
            }
            if page == current {
                let _ = write!(out, " <strong>{}</strong>{}", page + 1, entry.turns);
            } else {
                out.push_str(&entry.linked);
            }
        }
        out.push_str("</nav>\n");
        out
    }
}

/// Links to the previous and the next page; nothing for a single page.
fn navigation(name: &str, page: usize, pages: usize) -> String {
    if pages < 2 {
        return String::new();
    }
    let mut out = String::from("<nav class=\"pages\">");
    match page.checked_sub(1) {
        Some(previous) => {
            let _ = write!(
                out,
                "<a rel=\"prev\" href=\"{}\">← previous page</a>",
                escape(&page_name(name, previous))
            );
        }
        None => out.push_str("<span></span>"),
    }
    let _ = write!(out, "<span>page {} of {pages}</span>", page + 1);
    if page + 1 < pages {
        let _ = write!(
            out,
            "<a rel=\"next\" href=\"{}\">next page →</a>",
            escape(&page_name(name, page + 1))
        );
    } else {
        out.push_str("<span></span>");
    }
    out.push_str("</nav>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::page_name;

    #[test]
    fn pages_are_named_after_the_output() {
        assert_eq!(page_name("run.html", 0), "run.html");
        assert_eq!(page_name("run.html", 1), "run-2.html");
        assert_eq!(page_name("a.b.htm", 2), "a.b-3.htm");
        assert_eq!(page_name("page", 1), "page-2");
    }
}
