//! What a well-known agent tool's call says, as facts a reader hands over
//! (`facts::CALL_VIEW` on a `tool_call_request`): a shell command with
//! its description, a diff, a checklist, questions with their options. The
//! render stage decides how each reads (colours from the theme, prose
//! wrapped at words, code and diffs never); a reader never styles text.

use serde::{Deserialize, Serialize};

use super::event::Event;
use super::facts;

/// The `parameters` value of overhear's own tool styles, which draw a call's
/// view: JP's form for a custom formatter, which the viewer never runs. A
/// call such a style meets without a view shows its arguments as JSON; a
/// user's own custom command without `rendered_arguments` shows nothing
/// (display-policy.md §3).
pub const VIEW_PARAMETERS: &str = "overhear";

/// The most lines of a diff a reader keeps in a [`CallView::Diff`]: the
/// terminal shows the first few dozen, an export all of these.
pub const DIFF_KEPT_LINES: usize = 5_000;

/// How a call's arguments read, by what the call does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CallView {
    /// A shell command (`$ command`), with what the agent said it does.
    Command {
        /// The call's own description of the command, when it gave one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        description: Option<String>,
        /// The command line (a script may span lines).
        command: String,
    },
    /// A change to files, as the lines of a unified diff.
    Diff {
        /// The diff's lines, each with what it is.
        lines: Vec<DiffLine>,
        /// Lines left out after these (a long diff is capped).
        #[serde(default, skip_serializing_if = "is_zero")]
        more: usize,
    },
    /// A plan or todo list.
    Checklist {
        /// What the agent said of the plan, above it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        explanation: Option<String>,
        /// The items, in order.
        items: Vec<ChecklistItem>,
    },
    /// Questions put to the user, with the answers offered.
    Questions {
        /// The questions, in order.
        questions: Vec<Question>,
    },
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// One line of a diff: what it is and its text (with its leading `+`, `-`
/// or space, as a unified diff writes it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiffLine {
    /// What the line is.
    pub kind: DiffLineKind,
    /// The line as a unified diff writes it.
    pub text: String,
}

/// What a line of a diff is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiffLineKind {
    /// A file's name (`--- a`, `+++ b`, `*** Update File: a`).
    File,
    /// A hunk's header (`@@ -1,2 +1,3 @@`).
    Hunk,
    /// A line added.
    Added,
    /// A line removed.
    Removed,
    /// A line kept, shown for context.
    Context,
}

/// One item of a checklist.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChecklistItem {
    /// Where the item stands.
    pub status: ItemStatus,
    /// What the item says.
    pub text: String,
}

/// Where a checklist item stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemStatus {
    /// Done.
    Done,
    /// Being worked on.
    Active,
    /// Not started.
    Pending,
}

/// A question with the answers offered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Question {
    /// The question.
    pub text: String,
    /// The answers offered: a label and what it means, when said.
    #[serde(default)]
    pub options: Vec<(String, Option<String>)>,
}

/// The view a reader stored on a call, when it stored one.
pub fn of(event: &Event) -> Option<CallView> {
    facts::call_view(event).cloned()
}

/// Stores `view` on a call; returns whether it changed.
pub fn set(event: &mut Event, view: &CallView) -> bool {
    facts::set_value(event, facts::CALL_VIEW, view)
}
