//! The key bindings: one table that both maps keys to actions and is shown by
//! the help overlay, so that the two cannot disagree.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// Everything a key can ask the viewer to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Cursor down a line (scrolls at the bottom edge).
    Down,
    /// Cursor up a line (scrolls at the top edge).
    Up,
    /// Scroll half a screen down.
    HalfDown,
    /// Scroll half a screen up.
    HalfUp,
    /// Scroll a screen down.
    PageDown,
    /// Scroll a screen up.
    PageUp,
    /// Go to the first line.
    Top,
    /// Go to the last line and follow.
    Bottom,
    /// Go to the previous turn.
    PrevTurn,
    /// Go to the next turn.
    NextTurn,
    /// Go to the previous tool call.
    PrevCard,
    /// Go to the next tool call.
    NextCard,
    /// Scroll left.
    Left,
    /// Scroll right.
    Right,
    /// Start typing a search forward (`/`).
    Search,
    /// Start typing a search backward (`?`).
    SearchBack,
    /// Go to the next match in the search's direction.
    NextHit,
    /// Go to the next match against the search's direction.
    PrevHit,
    /// Go to the turn given by the count (`12t`).
    GotoTurn,
    /// Go to the next failed tool call.
    NextFailure,
    /// Go to the previous failed tool call.
    PrevFailure,
    /// Go to the next message to the user.
    NextSpeech,
    /// Go to the previous message to the user.
    PrevSpeech,
    /// Clear the search highlights.
    ClearSearch,
    /// Fold or unfold the block under the cursor.
    ToggleFold,
    /// Fold or unfold every tool card.
    FoldAll,
    /// Cycle reasoning: shown, folded, hidden.
    CycleReasoning,
    /// Cycle views: terminal, user, raw.
    CycleView,
    /// Open the full text of the block under the cursor in `$PAGER`.
    Pager,
    /// Copy the block under the cursor to the clipboard (OSC 52).
    Copy,
    /// Start or stop following the end.
    ToggleFollow,
    /// Show the conversations of the folder (workspace and agent sessions).
    Picker,
    /// Search every session (the list of hits, its prompt).
    SearchEverywhere,
    /// Show and copy the command that resumes the session in its agent.
    Resume,
    /// Show the keys.
    Help,
    /// Suspend to the shell.
    Suspend,
    /// Quit.
    Quit,
    /// Open the sub-agent of the card under the cursor full-screen.
    OpenAgent,
    /// In a replay: pause, play on, or play again from the start.
    ReplayPause,
    /// In a replay: one step forward.
    ReplayForward,
    /// In a replay: one step back.
    ReplayBack,
    /// In a replay: faster.
    ReplayFaster,
    /// In a replay: slower.
    ReplaySlower,
}

impl Action {
    /// Whether the action may reach any turn of the conversation (the top,
    /// a search, a turn by number, every card or reasoning block): a
    /// conversation opened at its end reads all of its earlier turns first.
    /// Moving up by lines, screens and turns reads them as the view comes
    /// near them; the previous card or landmark reads them all when none
    /// is found in the turns read.
    pub fn needs_every_turn(self) -> bool {
        matches!(
            self,
            Action::Top
                | Action::Search
                | Action::SearchBack
                | Action::NextHit
                | Action::PrevHit
                | Action::GotoTurn
                | Action::FoldAll
                | Action::CycleReasoning
        )
    }
}

/// A key with its modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chord {
    /// The key.
    pub code: KeyCode,
    /// Ctrl held.
    pub ctrl: bool,
}

impl Chord {
    const fn key(code: KeyCode) -> Chord {
        Chord { code, ctrl: false }
    }

    const fn ch(c: char) -> Chord {
        Chord::key(KeyCode::Char(c))
    }

    const fn ctrl(c: char) -> Chord {
        Chord {
            code: KeyCode::Char(c),
            ctrl: true,
        }
    }

    /// The key event this chord matches, for tests and tools.
    #[cfg(any(test, feature = "internals"))]
    pub fn event(self) -> KeyEvent {
        let mods = if self.ctrl {
            KeyModifiers::CONTROL
        } else {
            KeyModifiers::NONE
        };
        KeyEvent::new(self.code, mods)
    }

    fn matches(self, event: &KeyEvent) -> bool {
        let ctrl = event.modifiers.contains(KeyModifiers::CONTROL);
        let alt = event.modifiers.contains(KeyModifiers::ALT);
        if ctrl != self.ctrl || alt {
            return false;
        }
        match (self.code, event.code) {
            (KeyCode::Char(a), KeyCode::Char(b)) if self.ctrl => a.eq_ignore_ascii_case(&b),
            (a, b) => a == b,
        }
    }
}

/// One line of the help overlay and the keys it names.
#[derive(Debug, Clone, Copy)]
pub struct Binding {
    /// The keys as shown.
    pub label: &'static str,
    /// The keys.
    pub keys: &'static [Chord],
    /// What they do.
    pub action: Action,
    /// What they do, in words.
    pub help: &'static str,
}

const fn bind(
    label: &'static str,
    keys: &'static [Chord],
    action: Action,
    help: &'static str,
) -> Binding {
    Binding {
        label,
        keys,
        action,
        help,
    }
}

/// Every key binding, in the order the help overlay lists them.
pub const BINDINGS: &[Binding] = &[
    bind(
        "j ↓",
        &[Chord::ch('j'), Chord::key(KeyCode::Down)],
        Action::Down,
        "cursor down a line",
    ),
    bind(
        "k ↑",
        &[Chord::ch('k'), Chord::key(KeyCode::Up)],
        Action::Up,
        "cursor up a line",
    ),
    bind(
        "Ctrl-d",
        &[Chord::ctrl('d')],
        Action::HalfDown,
        "half a screen down",
    ),
    bind(
        "Ctrl-u",
        &[Chord::ctrl('u')],
        Action::HalfUp,
        "half a screen up",
    ),
    bind(
        "PgDn Space",
        &[
            Chord::key(KeyCode::PageDown),
            Chord::ch(' '),
            Chord::ctrl('f'),
        ],
        Action::PageDown,
        "a screen down",
    ),
    bind(
        "PgUp b",
        &[
            Chord::key(KeyCode::PageUp),
            Chord::ch('b'),
            Chord::ctrl('b'),
        ],
        Action::PageUp,
        "a screen up",
    ),
    bind(
        "g Home",
        &[Chord::ch('g'), Chord::key(KeyCode::Home)],
        Action::Top,
        "first line (10g: line 10)",
    ),
    bind(
        "G End",
        &[Chord::ch('G'), Chord::key(KeyCode::End)],
        Action::Bottom,
        "last line, and follow (10G: line 10)",
    ),
    bind(
        "12t",
        &[Chord::ch('t')],
        Action::GotoTurn,
        "turn 12 (a count before j, k, n, ] … repeats them)",
    ),
    bind(
        "[ ]",
        &[Chord::ch('[')],
        Action::PrevTurn,
        "previous / next turn",
    ),
    bind("]", &[Chord::ch(']')], Action::NextTurn, ""),
    bind(
        "{ }",
        &[Chord::ch('{')],
        Action::PrevCard,
        "previous / next tool call",
    ),
    bind("}", &[Chord::ch('}')], Action::NextCard, ""),
    bind(
        "x X",
        &[Chord::ch('x')],
        Action::NextFailure,
        "next / previous failed tool call",
    ),
    bind("X", &[Chord::ch('X')], Action::PrevFailure, ""),
    bind(
        ") (",
        &[Chord::ch(')')],
        Action::NextSpeech,
        "next / previous message to the user",
    ),
    bind("(", &[Chord::ch('(')], Action::PrevSpeech, ""),
    bind(
        "h ←  l →",
        &[Chord::ch('h'), Chord::key(KeyCode::Left)],
        Action::Left,
        "scroll left / right (long code lines)",
    ),
    bind(
        "l →",
        &[Chord::ch('l'), Chord::key(KeyCode::Right)],
        Action::Right,
        "",
    ),
    bind(
        "/",
        &[Chord::ch('/')],
        Action::Search,
        "search forward (folded content too)",
    ),
    bind(
        "?",
        &[Chord::ch('?')],
        Action::SearchBack,
        "search backward",
    ),
    bind(
        "n N",
        &[Chord::ch('n')],
        Action::NextHit,
        "next match / previous (in the search's direction)",
    ),
    bind("N", &[Chord::ch('N')], Action::PrevHit, ""),
    bind(
        "Esc",
        &[Chord::key(KeyCode::Esc)],
        Action::ClearSearch,
        "clear the search highlights",
    ),
    bind(
        "Enter Tab",
        &[Chord::key(KeyCode::Enter), Chord::key(KeyCode::Tab)],
        Action::ToggleFold,
        "fold / unfold the card under the cursor",
    ),
    bind(
        "z",
        &[Chord::ch('z')],
        Action::FoldAll,
        "fold / unfold all tool cards",
    ),
    bind(
        "r",
        &[Chord::ch('r')],
        Action::CycleReasoning,
        "reasoning: shown, folded, hidden",
    ),
    bind(
        "v",
        &[Chord::ch('v')],
        Action::CycleView,
        "view: terminal, user, raw",
    ),
    bind(
        "a",
        &[Chord::ch('a')],
        Action::OpenAgent,
        "the card's sub-agent full-screen; Esc or q back",
    ),
    bind(
        "o",
        &[Chord::ch('o')],
        Action::Pager,
        "open the card's full text in $PAGER",
    ),
    bind(
        "y",
        &[Chord::ch('y')],
        Action::Copy,
        "copy the card's text (OSC 52)",
    ),
    bind(
        "F",
        &[Chord::ch('F')],
        Action::ToggleFollow,
        "follow the end on / off",
    ),
    bind(
        "p",
        &[Chord::ch('p')],
        Action::Picker,
        "other conversations of this folder",
    ),
    bind(
        "R",
        &[Chord::ch('R')],
        Action::Resume,
        "show and copy the command that resumes this session",
    ),
    bind(
        "S Ctrl-s",
        &[Chord::ch('S'), Chord::ctrl('s')],
        Action::SearchEverywhere,
        "search every session (Ctrl-s in the picker too)",
    ),
    bind(
        "H F1",
        &[Chord::ch('H'), Chord::key(KeyCode::F(1))],
        Action::Help,
        "this help",
    ),
    bind(
        "Ctrl-z",
        &[Chord::ctrl('z')],
        Action::Suspend,
        "suspend to the shell",
    ),
    bind(
        "q Ctrl-c",
        &[Chord::ch('q'), Chord::ctrl('c')],
        Action::Quit,
        "quit",
    ),
];

/// The keys of a replay (`overhear replay`), looked up before [`BINDINGS`]:
/// Space and ← → are the replay's there, not paging and scrolling (PgDn,
/// `h` and `l` still do those).
pub const REPLAY_BINDINGS: &[Binding] = &[
    bind(
        "Space",
        &[Chord::ch(' ')],
        Action::ReplayPause,
        "replay: pause / play (at the end: again)",
    ),
    bind(
        ". →",
        &[Chord::ch('.'), Chord::key(KeyCode::Right)],
        Action::ReplayForward,
        "replay: one event forward",
    ),
    bind(
        ", ←",
        &[Chord::ch(','), Chord::key(KeyCode::Left)],
        Action::ReplayBack,
        "replay: one event back",
    ),
    bind(
        "+",
        &[Chord::ch('+'), Chord::ch('=')],
        Action::ReplayFaster,
        "replay: faster",
    ),
    bind(
        "-",
        &[Chord::ch('-'), Chord::ch('_')],
        Action::ReplaySlower,
        "replay: slower",
    ),
];

/// The action a replay binds to `event`, if any (see [`REPLAY_BINDINGS`]).
pub fn replay_action_for(event: &KeyEvent) -> Option<Action> {
    if event.kind == KeyEventKind::Release {
        return None;
    }
    REPLAY_BINDINGS
        .iter()
        .find(|b| b.keys.iter().any(|k| k.matches(event)))
        .map(|b| b.action)
}

/// The action bound to `event`, if any; key releases are ignored.
pub fn action_for(event: &KeyEvent) -> Option<Action> {
    if event.kind == KeyEventKind::Release {
        return None;
    }
    BINDINGS
        .iter()
        .find(|b| b.keys.iter().any(|k| k.matches(event)))
        .map(|b| b.action)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_key_maps_to_its_action() {
        for binding in BINDINGS {
            for key in binding.keys {
                assert_eq!(
                    action_for(&key.event()),
                    Some(binding.action),
                    "{}",
                    binding.label
                );
            }
        }
    }

    #[test]
    fn shifted_letters_arrive_with_shift_and_still_match() {
        let g = KeyEvent::new(KeyCode::Char('G'), KeyModifiers::SHIFT);
        assert_eq!(action_for(&g), Some(Action::Bottom));
        let ctrl_shift_d = KeyEvent::new(
            KeyCode::Char('D'),
            KeyModifiers::CONTROL | KeyModifiers::SHIFT,
        );
        assert_eq!(action_for(&ctrl_shift_d), Some(Action::HalfDown));
    }

    #[test]
    fn a_plain_letter_is_not_its_control_chord() {
        assert_eq!(action_for(&Chord::ch('d').event()), None);
        assert_eq!(action_for(&Chord::ch('u').event()), None);
        assert_eq!(action_for(&Chord::ch('c').event()), None);
    }
}
