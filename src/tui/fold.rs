//! Which blocks are folded: a default per kind plus the user's choices, keyed
//! by block identity so that they survive reloads and view changes.

use std::collections::HashMap;
use std::hash::Hash;

use super::blocks::BlockClass;

/// How reasoning is shown, cycled by `r`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReasoningMode {
    /// As the document lays it out.
    #[default]
    Shown,
    /// Folded to a one-line summary.
    Folded,
    /// Not drawn at all.
    Hidden,
}

impl ReasoningMode {
    /// Every mode, in the order `r` cycles them.
    pub const ALL: [ReasoningMode; 3] = [
        ReasoningMode::Shown,
        ReasoningMode::Folded,
        ReasoningMode::Hidden,
    ];

    /// The mode of this name ([`ReasoningMode::name`]).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|mode| mode.name() == name)
    }

    /// The next mode for the `r` key.
    pub fn next(self) -> Self {
        match self {
            ReasoningMode::Shown => ReasoningMode::Folded,
            ReasoningMode::Folded => ReasoningMode::Hidden,
            ReasoningMode::Hidden => ReasoningMode::Shown,
        }
    }

    /// The mode's name for messages.
    pub fn name(self) -> &'static str {
        match self {
            ReasoningMode::Shown => "shown",
            ReasoningMode::Folded => "folded",
            ReasoningMode::Hidden => "hidden",
        }
    }
}

/// The fold state of every block.
#[derive(Debug, Clone)]
pub struct Folds<K> {
    overrides: HashMap<K, bool>,
    cards_folded: bool,
    reasoning: ReasoningMode,
}

impl<K> Default for Folds<K> {
    fn default() -> Self {
        Folds {
            overrides: HashMap::new(),
            cards_folded: false,
            reasoning: ReasoningMode::default(),
        }
    }
}

impl<K> Folds<K> {
    /// No block folded or unfolded by itself; reasoning and tool cards as
    /// `reasoning` and `cards_folded` say (the viewer's start, or the modes
    /// of another conversation's view).
    pub fn with_modes(reasoning: ReasoningMode, cards_folded: bool) -> Self {
        Folds {
            overrides: HashMap::new(),
            cards_folded,
            reasoning,
        }
    }

    /// The same modes, without the choices made block by block: for
    /// another conversation or a sub-agent opened full-screen.
    pub fn modes_only(&self) -> Self {
        Folds::with_modes(self.reasoning, self.cards_folded)
    }
}

impl<K: Clone + Eq + Hash> Folds<K> {
    /// Whether the block with `key` is drawn folded; a `limited` block (see
    /// [`super::blocks::Blocks::limited`]) starts folded to what the policy
    /// shows, whatever `z` chose.
    pub fn is_folded(&self, key: &K, class: BlockClass, limited: bool) -> bool {
        if let Some(&folded) = self.overrides.get(key) {
            return folded;
        }
        limited || self.default_for(class)
    }

    /// Whether blocks of `class` are not drawn at all.
    pub fn is_hidden(&self, class: BlockClass) -> bool {
        class == BlockClass::Reasoning && self.reasoning == ReasoningMode::Hidden
    }

    fn default_for(&self, class: BlockClass) -> bool {
        match class {
            BlockClass::ToolCard => self.cards_folded,
            BlockClass::Reasoning => self.reasoning == ReasoningMode::Folded,
            BlockClass::Other => false,
        }
    }

    /// Folds or unfolds one block; returns whether it is now folded.
    pub fn toggle(&mut self, key: &K, class: BlockClass, limited: bool) -> bool {
        let folded = !self.is_folded(key, class, limited);
        self.set(key, class, limited, folded);
        folded
    }

    /// Sets one block's fold state.
    pub fn set(&mut self, key: &K, class: BlockClass, limited: bool, folded: bool) {
        if folded == (limited || self.default_for(class)) {
            self.overrides.remove(key);
        } else {
            self.overrides.insert(key.clone(), folded);
        }
    }

    /// Folds every tool card, or unfolds them all when they already are
    /// (the `z` key); returns whether cards are now folded. Choices made
    /// card by card are forgotten.
    pub fn toggle_all_cards(&mut self, card_keys: impl Iterator<Item = K>) -> bool {
        for key in card_keys {
            self.overrides.remove(&key);
        }
        self.cards_folded = !self.cards_folded;
        self.cards_folded
    }

    /// Moves reasoning to its next mode (the `r` key), forgetting per-block choices.
    pub fn cycle_reasoning(&mut self, reasoning_keys: impl Iterator<Item = K>) -> ReasoningMode {
        for key in reasoning_keys {
            self.overrides.remove(&key);
        }
        self.reasoning = self.reasoning.next();
        self.reasoning
    }

    /// The current reasoning mode.
    #[cfg(any(test, feature = "internals"))]
    pub fn reasoning(&self) -> ReasoningMode {
        self.reasoning
    }

    /// Whether `z` has folded all cards.
    #[cfg(any(test, feature = "internals"))]
    pub fn cards_folded(&self) -> bool {
        self.cards_folded
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_toggled_card_stays_folded_until_toggled_back() {
        let mut folds = Folds::<u32>::default();
        assert!(!folds.is_folded(&1, BlockClass::ToolCard, false));
        assert!(folds.toggle(&1, BlockClass::ToolCard, false));
        assert!(folds.is_folded(&1, BlockClass::ToolCard, false));
        assert!(!folds.is_folded(&2, BlockClass::ToolCard, false));
        assert!(!folds.toggle(&1, BlockClass::ToolCard, false));
        assert!(folds.overrides.is_empty());
    }

    #[test]
    fn fold_all_forgets_single_choices() {
        let mut folds = Folds::<u32>::default();
        folds.toggle(&1, BlockClass::ToolCard, false);
        assert!(folds.toggle_all_cards([1, 2].into_iter()));
        assert!(folds.is_folded(&1, BlockClass::ToolCard, false));
        assert!(folds.is_folded(&2, BlockClass::ToolCard, false));
        assert!(!folds.is_folded(&3, BlockClass::Other, false));
    }

    #[test]
    fn a_limited_card_starts_folded_whatever_z_says() {
        let mut folds = Folds::<u32>::default();
        assert!(folds.is_folded(&1, BlockClass::ToolCard, true));
        assert!(
            !folds.toggle(&1, BlockClass::ToolCard, true),
            "Enter unfolds it"
        );
        assert!(!folds.is_folded(&1, BlockClass::ToolCard, true));
        folds.toggle_all_cards([1].into_iter());
        folds.toggle_all_cards([1].into_iter());
        assert!(
            folds.is_folded(&1, BlockClass::ToolCard, true),
            "z twice: back to policy"
        );
    }

    #[test]
    fn reasoning_cycles_shown_folded_hidden() {
        let mut folds = Folds::<u32>::default();
        assert_eq!(folds.cycle_reasoning([].into_iter()), ReasoningMode::Folded);
        assert!(folds.is_folded(&7, BlockClass::Reasoning, false));
        assert_eq!(folds.cycle_reasoning([].into_iter()), ReasoningMode::Hidden);
        assert!(folds.is_hidden(BlockClass::Reasoning));
        assert!(!folds.is_hidden(BlockClass::ToolCard));
        assert_eq!(folds.cycle_reasoning([].into_iter()), ReasoningMode::Shown);
    }
}
