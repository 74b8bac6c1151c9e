//! The command line's names for the core's plain enums: clap parses these,
//! and each maps onto the core type it names (the core builds without clap).

use clap::ValueEnum;

use crate::export::ExportFormat;
use crate::model::View;
use crate::render::document::DocView;
use crate::tui::fold::ReasoningMode;

/// `overhear events --view`: which projection of the events to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EventsView {
    /// Every entry unchanged (after base64 decoding), unknown types included.
    Raw,
    /// What is addressed to the user; a projection, not a valid stream.
    User,
    /// What the model is sent back.
    Provider,
}

impl From<EventsView> for View {
    fn from(view: EventsView) -> View {
        match view {
            EventsView::Raw => View::Raw,
            EventsView::User => View::User,
            EventsView::Provider => View::Provider,
        }
    }
}

/// `--view` of the viewer and `render`: which rendering to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DisplayView {
    /// The display policy applied: what a person should see.
    Terminal,
    /// Only what is addressed to the user, as a chat.
    User,
    /// Everything, every result block labelled with its audience.
    Raw,
}

impl From<DisplayView> for DocView {
    fn from(view: DisplayView) -> DocView {
        match view {
            DisplayView::Terminal => DocView::Terminal,
            DisplayView::User => DocView::User,
            DisplayView::Raw => DocView::Raw,
        }
    }
}

/// `--reasoning` of the viewer: how reasoning is shown at first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReasoningArg {
    /// As the conversation lays it out.
    Shown,
    /// Folded to a one-line summary.
    Folded,
    /// Not drawn.
    Hidden,
}

impl From<ReasoningArg> for ReasoningMode {
    fn from(mode: ReasoningArg) -> ReasoningMode {
        match mode {
            ReasoningArg::Shown => ReasoningMode::Shown,
            ReasoningArg::Folded => ReasoningMode::Folded,
            ReasoningArg::Hidden => ReasoningMode::Hidden,
        }
    }
}

/// `--tool-cards` of the viewer: every tool card folded at first, or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CardsArg {
    /// Each card folded to its header.
    Folded,
    /// Each card as its style shows it.
    Unfolded,
}

/// `overhear export --format`: the file format of an export.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Markdown for GitHub: turn headings, speech as Markdown, tool cards
    /// and reasoning in `<details>`.
    Md,
    /// One self-contained HTML file (inline CSS, no script, no external request).
    Html,
}

impl From<FormatArg> for ExportFormat {
    fn from(format: FormatArg) -> ExportFormat {
        match format {
            FormatArg::Md => ExportFormat::Md,
            FormatArg::Html => ExportFormat::Html,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names on the command line are the ones documented (`--view raw`, …).
    #[test]
    fn each_choice_is_named_as_documented() {
        let names = |values: &[clap::builder::PossibleValue]| {
            values
                .iter()
                .map(|v| v.get_name().to_string())
                .collect::<Vec<_>>()
        };
        let events: Vec<_> = EventsView::value_variants()
            .iter()
            .filter_map(|v| v.to_possible_value())
            .collect();
        assert_eq!(names(&events), ["raw", "user", "provider"]);
        let display: Vec<_> = DisplayView::value_variants()
            .iter()
            .filter_map(|v| v.to_possible_value())
            .collect();
        assert_eq!(names(&display), ["terminal", "user", "raw"]);
        let formats: Vec<_> = FormatArg::value_variants()
            .iter()
            .filter_map(|v| v.to_possible_value())
            .collect();
        assert_eq!(names(&formats), ["md", "html"]);
        assert_eq!(View::from(EventsView::Provider), View::Provider);
        assert_eq!(DocView::from(DisplayView::Raw), DocView::Raw);
        assert_eq!(ExportFormat::from(FormatArg::Html), ExportFormat::Html);
    }
}
