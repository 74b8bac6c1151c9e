//! The display policy over a whole conversation: the configuration in force
//! changes with every `config_delta`, and each turn is shown with the policy
//! at its first event (display-policy §3.1). [`PolicyTimeline`] walks the
//! turns in order and re-resolves the [`TurnPolicy`] only when a delta
//! changed the configuration, so that the document stage asks the policy what
//! to show and never merges configurations itself.

use std::borrow::Cow;
use std::rc::Rc;

use serde_json::Value;

use super::config::merge_config;
use super::error::StyleError;
use super::overlay::Overlay;
use super::turn::TurnPolicy;
use crate::model::EventKind;
use crate::model::{Conversation, Turn};

/// The policy in force turn by turn, for turns asked in reading order.
pub struct PolicyTimeline<'c> {
    /// The viewer's overlay, with the user's configuration file folded in
    /// where it belongs (see [`PolicyTimeline::new`]).
    overlay: Cow<'c, Overlay>,
    /// The effective configuration: base config plus the deltas merged so far
    /// (the conversation's own base config, borrowed, until a delta or the
    /// user's configuration changes it).
    config: Cow<'c, Value>,
    /// The policy resolved from `config` and the overlay.
    policy: Rc<TurnPolicy>,
    /// The next event that may be a delta not merged yet.
    next_delta: usize,
    /// The last delta merged, where the current policy's warnings first appear.
    last_delta: Option<usize>,
}

/// What a turn's policy brought that the turn before did not: the stored
/// style values it rejected, and where they are stored.
pub struct PolicyChange<'p> {
    /// `None`: the base configuration. `Some(i)`: the `config_delta` at event
    /// `i` (the last one merged before the turn).
    pub delta: Option<usize>,
    /// The rejected values of the policy now in force.
    pub warnings: &'p [StyleError],
}

impl<'c> PolicyTimeline<'c> {
    /// Starts at the base configuration of `conv`, with the viewer's `overlay`.
    ///
    /// The overlay's user layer (the user's configuration file) goes under a
    /// configuration the conversation stores itself (JP's: its own config
    /// wins), and over one a format supplies as built-in styles (Claude Code,
    /// Codex) or none (eve), where it acts like a `--config` file read first.
    pub fn new(conv: &'c Conversation, overlay: &'c Overlay) -> Self {
        let config = match &conv.base_config {
            Some(base) => Cow::Borrowed(base),
            None => Cow::Owned(Value::Object(Default::default())),
        };
        PolicyTimeline::start(config, stores_own_config(conv), overlay)
    }

    /// [`PolicyTimeline::new`] with the base configuration copied: a
    /// timeline that does not borrow `conv`, for a walk that is handed the
    /// conversation a turn at a time and may change what it has shown
    /// between two turns (the export forgets their texts).
    #[cfg(feature = "cli")]
    pub fn detached(conv: &Conversation, overlay: &'c Overlay) -> Self {
        let config = Cow::Owned(
            conv.base_config
                .clone()
                .unwrap_or_else(|| Value::Object(Default::default())),
        );
        PolicyTimeline::start(config, stores_own_config(conv), overlay)
    }

    /// The timeline at `config`, the base configuration; `own` when the
    /// conversation stores it itself.
    fn start(mut config: Cow<'c, Value>, own: bool, overlay: &'c Overlay) -> Self {
        let overlay = match overlay.user_layer() {
            None => Cow::Borrowed(overlay),
            Some(user) if own => {
                let mut under = Value::Object(user.document().clone());
                merge_config(&mut under, &config);
                config = Cow::Owned(under);
                Cow::Borrowed(overlay)
            }
            Some(user) => Cow::Owned(user.under(overlay)),
        };
        PolicyTimeline {
            policy: Rc::new(TurnPolicy::new(&config, &overlay)),
            overlay,
            config,
            next_delta: 0,
            last_delta: None,
        }
    }

    /// The policy in force now: the base one before any turn was asked for,
    /// then the one of the last turn asked for.
    pub fn current(&self) -> &Rc<TurnPolicy> {
        &self.policy
    }

    /// The base policy's warnings, reported against the base configuration.
    pub fn base_change(&self) -> PolicyChange<'_> {
        PolicyChange {
            delta: None,
            warnings: self.policy.warnings(),
        }
    }

    /// Moves to `turn` of `conv` (turns in order): merges the deltas stored
    /// before its first event that is not itself a delta, and re-resolves
    /// the policy if any was merged; returns what changed, `None` when
    /// nothing did.
    pub fn advance(&mut self, conv: &Conversation, turn: &Turn) -> Option<PolicyChange<'_>> {
        let events = &conv.events;
        let first = turn
            .events
            .clone()
            .find(|&i| !matches!(events[i].kind, EventKind::ConfigDelta { .. }))
            .unwrap_or(turn.events.end);
        let mut merged = false;
        while self.next_delta < first {
            if let EventKind::ConfigDelta { delta } = &events[self.next_delta].kind {
                merge_config(self.config.to_mut(), &delta.value());
                merged = true;
                self.last_delta = Some(self.next_delta);
            }
            self.next_delta += 1;
        }
        if !merged {
            return None;
        }
        self.policy = Rc::new(TurnPolicy::new(&self.config, &self.overlay));
        Some(PolicyChange {
            delta: self.last_delta,
            warnings: self.policy.warnings(),
        })
    }
}

/// Whether the conversation's configuration is its own (JP stores it with
/// the events, which are then its records: no separate originals), rather
/// than a format's built-in styles.
fn stores_own_config(conv: &Conversation) -> bool {
    conv.originals.is_empty()
}
