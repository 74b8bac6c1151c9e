//! The search over every session from the viewer (`S`, or `Ctrl-s` in the
//! picker): a prompt, and the hits of the pattern streaming into a list as
//! a background search finds them (the same engine as `overhear search`,
//! run by the [`super::run::Host`]); `Enter` opens the session of the hit
//! selected, at its turn, with the match highlighted. The list stays while
//! another conversation is shown, so the same key (or `Esc` in the
//! conversation opened from it) comes back to it.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::chrome::Chrome;
use super::list::ListScreen;
use crate::search::fit::fit;
use crate::text::sanitize::echo_line;
use crate::text::truncate::{cut_to_width, truncate_middle};
use crate::text::width::display_width;

/// One hit, as the list shows it and as opening it needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundHit {
    /// What opens the session: a transcript, or a JP conversation folder.
    pub open: String,
    /// The agent that wrote it (`claude`, `codex`, `jp`, …).
    pub agent: &'static str,
    /// The folder it ran in, home written `~`, when known.
    pub project: Option<String>,
    /// Its title or first prompt, when known.
    pub title: Option<String>,
    /// The turn (1-based) of the hit.
    pub turn: usize,
    /// The kind of block (`prompt`, `tool Bash result`, `sub-agent X › reply`).
    pub kind: String,
    /// The line around the match, as stored (shown through the text layer).
    pub line: String,
    /// The matches, as byte ranges of `line`.
    pub matches: Vec<std::ops::Range<usize>>,
    /// How many hits listed before this one have the same session, turn
    /// and line (set when it is opened): it is at the place after as many
    /// places that read the same.
    pub alike_before: usize,
}

/// What the background search reports, as it goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Which search this is about (a newer one makes older reports stale).
    pub generation: u64,
    /// The hits of one more session searched (often none).
    pub hits: Vec<FoundHit>,
    /// Sessions searched so far, of how many.
    pub searched: usize,
    /// How many sessions the search covers.
    pub sessions: usize,
    /// The search is over (every session searched, or it was stopped).
    pub done: bool,
    /// A session that could not be read (the others are searched).
    pub problem: Option<String>,
}

/// What a key did in the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListOutcome {
    /// Nothing else to do.
    Stay,
    /// Search every session for this pattern.
    Run(String),
    /// Stop the search under way.
    Cancel,
    /// Open this hit.
    Open(FoundHit),
    /// Back to the conversation.
    Back,
}

/// The prompt, the hits found so far and the one selected.
#[derive(Debug, Clone, Default)]
pub struct HitList {
    /// The pattern being typed.
    typed: String,
    /// The pattern the hits are of, once searched.
    searched: Option<String>,
    hits: Vec<FoundHit>,
    selected: usize,
    /// The search's number: reports of another are dropped.
    generation: u64,
    running: bool,
    progress: (usize, usize),
    problems: usize,
    /// What the list says of the hit being opened: how far its session's
    /// read is, or why it could not be opened (until the next key).
    note: Option<String>,
}

impl HitList {
    /// The hits so far.
    #[cfg(test)]
    pub fn hits(&self) -> &[FoundHit] {
        &self.hits
    }

    /// The pattern of the hits listed, once searched.
    pub fn pattern(&self) -> Option<&str> {
        self.searched.as_deref()
    }

    /// The number the next search's reports must carry.
    pub fn start(&mut self, pattern: String) -> u64 {
        self.generation += 1;
        self.searched = Some(pattern);
        self.hits.clear();
        self.selected = 0;
        self.running = true;
        self.progress = (0, 0);
        self.problems = 0;
        self.note = None;
        self.generation
    }

    /// Says something of the hit being opened on the list's second row.
    pub fn note(&mut self, text: String) {
        self.note = Some(text);
    }

    /// Takes the note of [`HitList::note`] away.
    pub fn forget_note(&mut self) {
        self.note = None;
    }

    /// Takes in what the search reports (stale reports are dropped).
    pub fn found(&mut self, found: Found) {
        if found.generation != self.generation {
            return;
        }
        self.hits.extend(found.hits);
        self.progress = (found.searched, found.sessions);
        self.problems += usize::from(found.problem.is_some());
        if found.done {
            self.running = false;
        }
    }

    /// The search was stopped (`Esc`).
    pub fn stopped(&mut self) {
        self.running = false;
        // Reports still on their way are of a search no longer wanted.
        self.generation += 1;
    }

    /// Handles one key; `page` is how many rows a page holds.
    pub fn handle(&mut self, key: &KeyEvent, page: usize) -> ListOutcome {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let count = self.hits.len();
        self.note = None;
        match key.code {
            KeyCode::Esc if self.running => return ListOutcome::Cancel,
            KeyCode::Esc => return ListOutcome::Back,
            KeyCode::Char('c') if ctrl => return ListOutcome::Back,
            KeyCode::Enter => {
                let typed = self.typed.trim();
                if !typed.is_empty() && self.searched.as_deref() != Some(&self.typed) {
                    return ListOutcome::Run(self.typed.clone());
                }
                return match self.hits.get(self.selected) {
                    Some(hit) => {
                        let alike_before = self.hits[..self.selected]
                            .iter()
                            .filter(|h| h.open == hit.open && h.turn == hit.turn && h.line == hit.line)
                            .count();
                        ListOutcome::Open(FoundHit {
                            alike_before,
                            ..hit.clone()
                        })
                    }
                    None => ListOutcome::Stay,
                };
            }
            KeyCode::Down => self.selected += 1,
            KeyCode::Char('n') if ctrl => self.selected += 1,
            KeyCode::Up => self.selected = self.selected.saturating_sub(1),
            KeyCode::Char('p') if ctrl => self.selected = self.selected.saturating_sub(1),
            KeyCode::PageDown => self.selected += page.max(1),
            KeyCode::PageUp => self.selected = self.selected.saturating_sub(page.max(1)),
            KeyCode::Home => self.selected = 0,
            KeyCode::End => self.selected = count.saturating_sub(1),
            KeyCode::Backspace => {
                self.typed.pop();
            }
            KeyCode::Char('u') if ctrl => self.typed.clear(),
            KeyCode::Char(c) if !ctrl => self.typed.push(c),
            _ => {}
        }
        self.selected = self.selected.min(count.saturating_sub(1));
        ListOutcome::Stay
    }

    /// What the second row says: of the hit being opened first, when
    /// there is something to say, then of the search.
    fn state(&self) -> String {
        match &self.note {
            Some(note) => format!("{} · {}", echo_line(note), self.search_state()),
            None => self.search_state(),
        }
    }

    /// What the second row says of the search.
    fn search_state(&self) -> String {
        let hits = self.hits.len();
        let plural = if hits == 1 { "" } else { "s" };
        let (searched, of) = self.progress;
        let problems = match self.problems {
            0 => String::new(),
            n => format!(" · {n} unreadable"),
        };
        match (&self.searched, self.running) {
            (None, _) => "type a pattern, Enter searches every session".to_owned(),
            (Some(_), true) => {
                format!("{hits} hit{plural} · searching {searched}/{of} · Esc stops{problems}")
            }
            (Some(_), false) if searched < of => {
                format!("{hits} hit{plural} · stopped at {searched}/{of}{problems}")
            }
            (Some(_), false) => format!("{hits} hit{plural} in {of} sessions{problems}"),
        }
    }

    /// Draws the list over the whole of `area`.
    pub fn draw(&self, area: Rect, buf: &mut Buffer, chrome: &Chrome) {
        let headers = [
            " Search every session — Enter searches, then opens the hit; Esc goes back",
            " Search every session — Enter opens · Esc: back",
            " Search every session",
            " Search",
        ]
        .map(str::to_owned);
        let lines = self.lines(usize::from(area.width), chrome);
        let screen = ListScreen {
            headers: &headers,
            label: " search: ",
            typed: echo_line(&self.typed).into_owned(),
            after: Some(Span::styled(format!("  {}", self.state()), chrome.secondary)),
            rows: lines.len(),
            selected: lines.iter().position(|(hit, _)| *hit == Some(self.selected)),
        };
        screen.draw(area, buf, chrome, |i| lines[i].1.clone());
    }

    /// Every row of the list: a heading for each session (agent, project,
    /// title), then its hits (turn, kind, the line with the match marked),
    /// each with the index of its hit.
    fn lines(&self, width: usize, chrome: &Chrome) -> Vec<(Option<usize>, Line<'static>)> {
        let mut lines = Vec::new();
        let mut last: Option<&str> = None;
        for (i, hit) in self.hits.iter().enumerate() {
            if last != Some(hit.open.as_str()) {
                last = Some(hit.open.as_str());
                let mut head = vec![Span::styled(format!(" {}", hit.agent), chrome.secondary)];
                if let Some(project) = &hit.project {
                    head.push(Span::styled(
                        format!("  {}", truncate_middle(&echo_line(project), width / 3)),
                        chrome.secondary,
                    ));
                }
                if let Some(title) = &hit.title {
                    head.push(Span::styled(
                        format!("  {}", echo_line(title)),
                        Style::new().add_modifier(Modifier::BOLD),
                    ));
                }
                lines.push((None, cut_to_width(&Line::from(head), width)));
            }
            lines.push((Some(i), hit_line(hit, width, chrome)));
        }
        lines
    }
}

/// `   3  tool Bash result  …the line with the match marked…`, the kind
/// shortened and the context cut before the match so that it shows.
fn hit_line(hit: &FoundHit, width: usize, chrome: &Chrome) -> Line<'static> {
    let turn = format!("{:>5}  ", hit.turn);
    let kind = truncate_middle(&echo_line(&hit.kind), (width / 3).max(8));
    let room = width.saturating_sub(display_width(&turn) + display_width(&kind) + 2);
    let mut spans = vec![
        Span::styled(turn, chrome.secondary),
        Span::styled(kind, chrome.secondary),
        Span::raw("  "),
    ];
    for piece in fit(&hit.line, &hit.matches, Some(room)) {
        spans.push(if piece.matched {
            Span::styled(piece.text, chrome.search_hit)
        } else {
            Span::raw(piece.text)
        });
    }
    cut_to_width(&Line::from(spans), width)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    fn hit(open: &str, line: &str) -> FoundHit {
        let at = line.find("kiwi").unwrap_or(0);
        FoundHit {
            open: open.into(),
            agent: "claude",
            project: Some("~/app".into()),
            title: Some("Fix \u{1b}]0;x\u{7}it".into()),
            turn: 3,
            kind: "prompt".into(),
            line: line.into(),
            matches: std::iter::once(at..at + 4).collect(),
            alike_before: 0,
        }
    }

    #[test]
    fn typing_then_enter_searches_and_enter_again_opens() {
        let mut list = HitList::default();
        for c in "kiwi".chars() {
            assert_eq!(list.handle(&key(KeyCode::Char(c)), 10), ListOutcome::Stay);
        }
        assert_eq!(list.handle(&key(KeyCode::Enter), 10), ListOutcome::Run("kiwi".into()));
        let generation = list.start("kiwi".into());
        // Stale reports are dropped.
        list.found(Found {
            generation: generation - 1,
            hits: vec![hit("/a", "old kiwi")],
            searched: 1,
            sessions: 2,
            done: false,
            problem: None,
        });
        assert!(list.hits().is_empty());
        list.found(Found {
            generation,
            hits: vec![hit("/a", "a kiwi"), hit("/b", "b kiwi")],
            searched: 1,
            sessions: 2,
            done: false,
            problem: None,
        });
        assert_eq!(list.handle(&key(KeyCode::Esc), 10), ListOutcome::Cancel);
        list.stopped();
        list.handle(&key(KeyCode::Down), 10);
        assert_eq!(
            list.handle(&key(KeyCode::Enter), 10),
            ListOutcome::Open(hit("/b", "b kiwi"))
        );
        assert_eq!(list.handle(&key(KeyCode::Esc), 10), ListOutcome::Back);
    }

    #[test]
    fn the_list_fits_its_width_and_shows_no_escape_sequence() {
        let mut list = HitList::default();
        let generation = list.start("kiwi".into());
        let long = format!("{} kiwi at the end", "x".repeat(300));
        list.found(Found {
            generation,
            hits: vec![hit("/a", &long)],
            searched: 1,
            sessions: 1,
            done: true,
            problem: None,
        });
        for width in [20u16, 40, 80, 200] {
            let area = Rect::new(0, 0, width, 8);
            let mut buf = Buffer::empty(area);
            list.draw(area, &mut buf, &Chrome::default());
            let rows: Vec<String> = (0..8)
                .map(|y| (0..width).map(|x| buf[(x, y)].symbol().to_string()).collect())
                .collect();
            let all = rows.join("\n");
            assert!(!all.contains('\u{1b}'), "{all}");
            if width >= 40 {
                assert!(all.contains("Fix ␛it"), "{width}: {all}");
                assert!(all.contains("kiwi"), "{width}: the match shows: {all}");
            }
        }
    }
}
