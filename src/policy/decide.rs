//! What is displayed for one result block of a tool call (display-policy §3.2,
//! steps 1, 4 and 5), given the tool's resolved [`ToolStyle`].

#[cfg(any(test, feature = "internals"))]
use super::style::LinkStyle;
use super::style::{InlineResults, ResultSetting, ToolStyle};
pub use crate::model::Audience;

/// How one result block is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockDisplay {
    /// Not shown.
    Hidden,
    /// The first N lines, then a visible note of how many lines were cut.
    Lines(usize),
    /// Everything, as result display.
    Full,
    /// As assistant speech (a speech pane, markdown, never truncated).
    Speech,
}

/// Total order of permissiveness: `off` (and 0 lines) < N lines < `full`; `chat`
/// counts as `full`.
fn permissiveness(setting: ResultSetting) -> (u8, usize) {
    match setting {
        ResultSetting::Off | ResultSetting::Lines(0) => (0, 0),
        ResultSetting::Lines(n) => (1, n),
        ResultSetting::Full | ResultSetting::Chat => (2, 0),
    }
}

/// How a setting shows a block; `speech` says whether `chat` may render as speech.
fn display_for(setting: ResultSetting, speech: bool) -> BlockDisplay {
    match setting {
        ResultSetting::Off | ResultSetting::Lines(0) => BlockDisplay::Hidden,
        ResultSetting::Lines(n) => BlockDisplay::Lines(n),
        ResultSetting::Full => BlockDisplay::Full,
        ResultSetting::Chat if speech => BlockDisplay::Speech,
        ResultSetting::Chat => BlockDisplay::Full,
    }
}

impl ToolStyle {
    /// `inline_results` for a result, after the `error` overlay.
    pub fn effective_inline_results(&self, is_error: bool) -> InlineResults {
        match self.error.inline_results {
            Some(overlay) if is_error => overlay,
            _ => self.inline_results,
        }
    }

    /// How a block addressed to `audience` is shown, in a result that is an error
    /// or not.
    ///
    /// `hidden` wins over everything (the card is not drawn at all); then the
    /// `error` overlay is applied; a user-only block follows the `user` setting
    /// (`chat` → [`BlockDisplay::Speech`]), an assistant-only block the
    /// `assistant` setting, and a block for both the more permissive of the two —
    /// where `chat` counts as `full` and renders as [`BlockDisplay::Full`], never
    /// as speech.
    pub fn block_display(&self, audience: Audience, is_error: bool) -> BlockDisplay {
        if self.hidden {
            return BlockDisplay::Hidden;
        }
        let settings = self.effective_inline_results(is_error);
        match audience {
            Audience::User => display_for(settings.user, true),
            Audience::Assistant => display_for(settings.assistant, false),
            Audience::Both => {
                let wider = if permissiveness(settings.user) >= permissiveness(settings.assistant) {
                    settings.user
                } else {
                    settings.assistant
                };
                display_for(wider, false)
            }
        }
    }

    /// Whether (and how) the full result can be opened, after the `error` overlay;
    /// always [`LinkStyle::Off`] for a hidden tool.
    #[cfg(any(test, feature = "internals"))]
    pub fn file_link(&self, is_error: bool) -> LinkStyle {
        if self.hidden {
            return LinkStyle::Off;
        }
        match self.error.results_file_link {
            Some(link) if is_error => link,
            _ => self.results_file_link,
        }
    }

    /// Whether the header line is drawn (`header` on and the tool not hidden).
    #[cfg(any(test, feature = "internals"))]
    pub fn header_shown(&self) -> bool {
        self.header && !self.hidden
    }
}

#[cfg(test)]
mod tests;
