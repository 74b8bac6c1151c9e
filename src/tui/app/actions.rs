//! What each key, click and wheel turn does to the viewer: the keys of the
//! normal mode, the picker's, folding, views, the card text for the pager
//! and the clipboard. The state they change and its lifecycle (opening,
//! reloads, resizing) are in the parent module.

use std::borrow::Cow;
use std::time::SystemTime;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseEvent, MouseEventKind};

use super::{App, Effect, HSCROLL_STEP, Left, Mode, WHEEL_LINES};
use crate::text::sanitize::{SanitizeMode, sanitize_cow};
use crate::tui::blocks::ReplayControl;
use crate::tui::blocks::{BlockClass, Landmark, Viewable, find_key, turn_start};
use crate::tui::cache::LayoutCache;
use crate::tui::find::{HitCounts, SearchPrompt};
use crate::tui::help::{self, HelpKey};
use crate::tui::keys::{Action, action_for, replay_action_for};
use crate::tui::everywhere::ListOutcome;
use crate::tui::picker::PickerOutcome;
use crate::tui::lazy_layout::Pos;
use crate::tui::view_prefs::ViewChoices;

impl<D: Viewable> App<D> {
    pub(super) fn key(&mut self, key: &KeyEvent) -> Option<Effect> {
        // A one-off note goes; a read error stays until the file reads again.
        self.message = self.read_error.clone();
        self.reload_problem = self.read_error.is_some();
        match self.mode.clone() {
            Mode::Help(scroll) => {
                self.mode = match help::handle(key, scroll, self.screen()) {
                    HelpKey::Scroll(to) => Mode::Help(to),
                    HelpKey::Close => Mode::Normal,
                };
                None
            }
            Mode::Prompt(prompt) => {
                self.prompt_key(key, prompt);
                None
            }
            Mode::Picker => self.picker_key(key),
            Mode::Everywhere => self.list_key(key),
            Mode::Normal => {
                if let Some(count) = self.count_digit(key) {
                    self.count = Some(count);
                    self.note(format!("count {count}"));
                    return None;
                }
                if !self.agents.is_empty() && self.leaves_agent(key) {
                    self.close_agent();
                    return None;
                }
                let count = self.count.take();
                let replayed = self.doc.replay().and_then(|_| replay_action_for(key));
                let action = replayed.or_else(|| action_for(key))?;
                // `10G` goes to a line counted from the first.
                let to_line = count.is_some() && matches!(action, Action::Bottom);
                if (action.needs_every_turn() || to_line) && self.doc.earlier() > 0 {
                    self.read_all_then(action, count);
                    return None;
                }
                self.act_counted(action, count)
            }
        }
    }

    pub(super) fn picker_key(&mut self, key: &KeyEvent) -> Option<Effect> {
        if key.code == KeyCode::Char('s') && key.modifiers.contains(KeyModifiers::CONTROL) {
            self.mode = Mode::Everywhere;
            return None;
        }
        let rows = self.rows.saturating_sub(2);
        let outcome = self
            .picker
            .as_mut()
            .map_or(PickerOutcome::Back, |p| p.handle(key, rows));
        match outcome {
            PickerOutcome::Stay => None,
            PickerOutcome::Back => {
                self.mode = Mode::Normal;
                self.picker = None;
                None
            }
            PickerOutcome::Open(id) => Some(Effect::Open(id)),
        }
    }

    /// A key in the search over every session.
    fn list_key(&mut self, key: &KeyEvent) -> Option<Effect> {
        let page = self.rows.saturating_sub(2);
        match self.everywhere.handle(key, page) {
            ListOutcome::Stay => None,
            ListOutcome::Run(pattern) => {
                let generation = self.everywhere.start(pattern.clone());
                Some(Effect::SearchAll {
                    pattern,
                    generation,
                })
            }
            ListOutcome::Cancel => {
                self.everywhere.stopped();
                Some(Effect::CancelSearch)
            }
            ListOutcome::Open(hit) => Some(Effect::OpenHit(hit)),
            ListOutcome::Back => {
                self.mode = Mode::Normal;
                None
            }
        }
    }

    /// Does what a key asks.
    pub fn act(&mut self, action: Action) -> Option<Effect> {
        self.resize_anchor = None;
        let rows = self.rows;
        match action {
            Action::Down => self.cursor_down(),
            Action::Up => self.cursor_up(),
            Action::HalfDown => self.scroll_down((rows / 2).max(1)),
            Action::HalfUp => self.scroll_up((rows / 2).max(1)),
            Action::PageDown => self.scroll_down(rows.max(1)),
            Action::PageUp => self.scroll_up(rows.max(1)),
            Action::Top => {
                self.cursor = 0;
                self.move_top(Pos::default(), false);
            }
            Action::Bottom => self.resume(),
            Action::PrevTurn => self.jump_turn(false),
            Action::NextTurn => self.jump_turn(true),
            Action::PrevCard => self.jump_card(false),
            Action::NextCard => self.jump_card(true),
            Action::Left => self.hscroll = self.hscroll.saturating_sub(HSCROLL_STEP),
            Action::Right => self.scroll_right(),
            Action::Search => self.mode = Mode::Prompt(SearchPrompt::new(true)),
            Action::SearchBack => self.mode = Mode::Prompt(SearchPrompt::new(false)),
            Action::NextHit => self.find(self.search_forward),
            Action::PrevHit => self.find(!self.search_forward),
            Action::ClearSearch if self.search.is_none() && self.from_list => {
                self.mode = Mode::Everywhere;
            }
            Action::ClearSearch => {
                self.search = None;
                self.hits = HitCounts::default();
            }
            Action::SearchEverywhere => self.mode = Mode::Everywhere,
            Action::Resume => match self.doc.resume_command() {
                Ok(command) => return Some(Effect::Resume(command)),
                Err(why) => self.note(why.to_string()),
            },
            Action::GotoTurn => self.note("type the turn's number first: 12t goes to turn 12"),
            Action::NextFailure => self.jump_to(Landmark::Failure, true),
            Action::PrevFailure => self.jump_to(Landmark::Failure, false),
            Action::NextSpeech => self.jump_to(Landmark::Speech, true),
            Action::PrevSpeech => self.jump_to(Landmark::Speech, false),
            Action::ToggleFold => self.toggle_fold(),
            Action::FoldAll => self.fold_all(),
            Action::CycleReasoning => self.cycle_reasoning(),
            Action::CycleView => self.cycle_view(),
            Action::Pager => return self.card_text("open").map(Effect::Pager),
            Action::Copy => return self.card_text("copy").map(Effect::Copy),
            Action::ToggleFollow => {
                if self.follow {
                    self.pause();
                } else {
                    self.resume();
                }
            }
            Action::Picker => {
                if self.workspace {
                    return Some(Effect::Pick);
                }
                self.note("not in a workspace: no other conversations to pick");
            }
            Action::Help => self.mode = Mode::Help(0),
            Action::Suspend => return Some(Effect::Suspend),
            Action::Quit => return Some(Effect::Quit),
            Action::OpenAgent => self.open_agent(),
            Action::ReplayPause => self.control(ReplayControl::Pause),
            Action::ReplayForward => self.control(ReplayControl::Forward),
            Action::ReplayBack => self.control(ReplayControl::Back),
            Action::ReplayFaster => self.control(ReplayControl::Faster),
            Action::ReplaySlower => self.control(ReplayControl::Slower),
        }
        None
    }

    /// Acts on a replay, the view kept as a reload keeps it.
    fn control(&mut self, control: ReplayControl) {
        let mut note = None;
        self.change(SystemTime::now(), |doc| {
            let (changed, said) = doc.control(control);
            note = said;
            Ok(changed)
        });
        if let Some(note) = note {
            self.note(note);
        }
    }

    pub(super) fn mouse(&mut self, mouse: &MouseEvent) {
        match mouse.kind {
            MouseEventKind::ScrollDown if self.mode == Mode::Normal => {
                self.scroll_down(WHEEL_LINES)
            }
            MouseEventKind::ScrollUp if self.mode == Mode::Normal => self.scroll_up(WHEEL_LINES),
            MouseEventKind::Down(_) if self.mode == Mode::Normal => {
                let row = usize::from(mouse.row);
                if row < self.rows {
                    self.cursor = row;
                    self.settle();
                }
            }
            _ => {}
        }
    }

    /// The full text of the block under the cursor, sanitized, or a note why not.
    pub(super) fn card_text(&mut self, verb: &str) -> Option<String> {
        let Some(pos) = self.cursor_pos() else {
            self.note(format!("nothing to {verb}"));
            return None;
        };
        match self.doc.full_text(pos.block) {
            Some(text) => Some(sanitize_cow(Cow::Owned(text), SanitizeMode::Strip).into_owned()),
            None => {
                self.note(format!(
                    "nothing to {verb} here: put the cursor on a card or a message"
                ));
                None
            }
        }
    }

    /// Whether `key` goes back from a sub-agent: `q`, or `Esc` with no
    /// search highlighted.
    fn leaves_agent(&self, key: &KeyEvent) -> bool {
        let plain = key.modifiers.difference(KeyModifiers::SHIFT).is_empty();
        plain
            && match key.code {
                KeyCode::Char('q') => true,
                KeyCode::Esc => self.search.is_none(),
                _ => false,
            }
    }

    /// Shows the sub-agent of the card under the cursor full-screen, from
    /// its first line; the place left is kept for [`App::close_agent`].
    pub(super) fn open_agent(&mut self) {
        let Some(pos) = self.cursor_pos() else { return };
        let b = self.doc.owner(pos.block);
        let top = self.anchor();
        let Some(name) = self.doc.open_subagent(b) else {
            self.note("no sub-agent here: put the cursor on an agent's card");
            return;
        };
        self.agents.push(Left {
            top,
            cursor: self.cursor,
            follow: self.follow,
            folds: {
                let modes = self.folds.modes_only();
                std::mem::replace(&mut self.folds, modes)
            },
        });
        self.cache = LayoutCache::default();
        self.search = None;
        self.hits = HitCounts::default();
        self.follow = false;
        self.paused_at = None;
        self.top = Pos::default();
        self.cursor = 0;
        self.note(format!("{name} · Esc or q: back"));
        self.settle();
    }

    /// Goes back from a sub-agent to where the viewer was when it was opened.
    pub(super) fn close_agent(&mut self) {
        let Some(left) = self.agents.pop() else {
            return;
        };
        self.doc.close_subagent();
        self.cache = LayoutCache::default();
        self.search = None;
        self.hits = HitCounts::default();
        self.folds = left.folds;
        self.restore_anchor(left.top);
        self.cursor = left.cursor;
        self.follow = left.follow;
        self.paused_at = (!left.follow).then(|| self.doc.event_count());
        self.settle();
    }

    pub(super) fn toggle_fold(&mut self) {
        let Some(pos) = self.cursor_pos() else { return };
        let b = self.doc.owner(pos.block);
        if !self.doc.foldable(b) {
            self.note("nothing to fold here: put the cursor on a tool card or reasoning");
            return;
        }
        let key = self.doc.key(b);
        self.folds
            .toggle(&key, self.doc.class(b), self.doc.limited(b));
        self.keep_header_under_cursor(b);
    }

    /// After block `b` changed height, puts its first line under the cursor
    /// when it was scrolled above the screen.
    pub(super) fn keep_header_under_cursor(&mut self, b: usize) {
        self.settle();
        let (top, rows) = (self.top, self.rows);
        match self.sheet().rows_between(top, Pos::new(b, 0), rows) {
            Some(row) => self.cursor = row,
            None => {
                self.top = Pos::new(b, 0);
                self.cursor = 0;
                self.pause();
                self.settle();
            }
        }
    }

    /// The keys of every block of `class` (each cut block once, by its first
    /// piece, which folding is keyed by).
    pub(super) fn keys_of(&self, class: BlockClass) -> Vec<D::Key> {
        (0..self.doc.len())
            .filter(|&i| self.doc.class(i) == class && self.doc.owner(i) == i)
            .map(|i| self.doc.key(i))
            .collect()
    }

    pub(super) fn fold_all(&mut self) {
        let keys = self.keys_of(BlockClass::ToolCard);
        let anchor = self.cursor_anchor();
        let folded = self.folds.toggle_all_cards(keys.into_iter());
        self.keep_choice(ViewChoices {
            cards_folded: Some(folded),
            ..ViewChoices::default()
        });
        self.note(if folded {
            "all tool cards folded"
        } else {
            "all tool cards unfolded"
        });
        self.restore_cursor_anchor(anchor);
    }

    pub(super) fn cycle_reasoning(&mut self) {
        let keys = self.keys_of(BlockClass::Reasoning);
        let anchor = self.cursor_anchor();
        let mode = self.folds.cycle_reasoning(keys.into_iter());
        self.keep_choice(ViewChoices {
            reasoning: Some(mode),
            ..ViewChoices::default()
        });
        self.note(format!("reasoning {}", mode.name()));
        self.restore_cursor_anchor(anchor);
    }

    /// Remembers a view choice for the next run, when the viewer does.
    fn keep_choice(&self, choices: ViewChoices) {
        if let Some(remember) = &self.remember {
            remember.choose(choices);
        }
    }

    /// The position under the cursor and its screen row, before a change
    /// that moves lines around (folding many blocks).
    pub(super) fn cursor_anchor(&mut self) -> Option<(Pos, usize)> {
        self.cursor_pos().map(|pos| (pos, self.cursor))
    }

    /// After such a change, keeps the line that was under the cursor (its
    /// block's first line if the block folded) on the same screen row. A
    /// view following the end keeps following.
    pub(super) fn restore_cursor_anchor(&mut self, anchor: Option<(Pos, usize)>) {
        let Some((pos, row)) = anchor else {
            self.settle();
            return;
        };
        let target = if self.sheet().is_folded(pos.block) {
            Pos::new(self.doc.owner(pos.block), 0)
        } else {
            pos
        };
        let target = self.sheet().normalize(target);
        if !self.follow {
            self.top = self.sheet().back(target, row);
        }
        self.settle();
        let (top, rows) = (self.top, self.rows);
        if let Some(row) = self.sheet().rows_between(top, target, rows) {
            self.cursor = row;
        }
    }

    pub(super) fn cycle_view(&mut self) {
        if self.doc.begin_view_change() {
            return self.change_view_stepwise();
        }
        let anchor = self.anchor();
        let turn = anchor.as_ref().map(|(_, b, _)| self.doc.turn(*b));
        self.doc.cycle_view();
        self.show_view_changed(anchor, turn);
    }

    /// Puts the view back where it was before the view changed (the block
    /// at the top, else the start of its turn) and says which view it is.
    pub(super) fn show_view_changed(
        &mut self,
        anchor: Option<(D::Key, usize, usize)>,
        turn: Option<usize>,
    ) {
        self.top = match anchor {
            Some((key, hint, line)) => match find_key(&self.doc, &key, hint) {
                Some(b) => Pos::new(b, line),
                None => Pos::new(turn_start(&self.doc, turn.unwrap_or(0)), 0),
            },
            None => Pos::default(),
        };
        self.note(format!("view: {}", self.doc.view_name()));
        self.settle();
    }
}
