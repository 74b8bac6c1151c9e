//! One tool result, rendered for every audience: what `overhear card`
//! prints. The call is made into a conversation of one tool call (its
//! request and its response) and goes through the normal policy → document
//! → layout path, and the views of display-policy §2, so the card is exactly
//! what the viewer and `overhear render` show for that call.

use std::sync::Arc;

use serde_json::Value;

use super::{Color, Styles, Theme, ToolResult};
use crate::model::{Conversation, View};
use crate::model::{Event, EventKind};
use crate::render::document::{BlockKind, DocOptions, DocView, Document};
use crate::render::print::{CodeOverflow, PrintOptions, print_document};
use crate::text::safe_json;
use crate::text::sanitize::SanitizeMode;
use crate::text::truncate::truncate;
use crate::text::width::display_width;

/// The id the one call of a card is given (the provider view shows it).
const CALL_ID: &str = "call_1";

/// Which audience's rendering of a card to make (`card --view`).
///
/// ```
/// let options = overhear::CardOptions::default().with_view(overhear::CardView::All);
/// assert_eq!(options.view, overhear::CardView::All);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum CardView {
    /// The card as the terminal user sees it in the viewer and in `render`.
    #[default]
    Terminal,
    /// The user view as JSON, as `overhear events --view user` prints it.
    User,
    /// What the provider (the model) receives, as JSON, as
    /// `overhear events --view provider` prints it.
    Provider,
    /// The three, each under a labelled rule.
    All,
}

/// How [`card()`] draws a tool result: `overhear card`'s options as plain
/// values. The defaults are 80 columns, no colour, the terminal view, the
/// dark theme and no style overrides.
///
/// ```
/// let options = overhear::CardOptions::default().with_width(40);
/// assert_eq!(options.width, 40);
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct CardOptions {
    /// Columns of the terminal rendering; no line of it is wider. Taken
    /// into 1..=[`MAX_WIDTH`](crate::MAX_WIDTH) when the card is drawn.
    pub width: usize,
    /// Colour of the terminal rendering.
    pub color: Color,
    /// Which audience.
    pub view: CardView,
    /// Colour theme (matters only with colour).
    pub theme: Theme,
    /// Style overrides; see [`Styles::set_tool`] for keys relative to the tool.
    pub styles: Styles,
}

impl Default for CardOptions {
    fn default() -> CardOptions {
        CardOptions {
            width: 80,
            color: Color::Never,
            view: CardView::Terminal,
            theme: Theme::Dark,
            styles: Styles::default(),
        }
    }
}

impl CardOptions {
    /// With `width` columns, taken into 1..=[`MAX_WIDTH`](crate::MAX_WIDTH)
    /// as `overhear card --width` takes them: 0 is 1, and more than
    /// 10 000 is 10 000 (a line is laid out whole at its width).
    ///
    /// ```
    /// use overhear::{CardOptions, MAX_WIDTH};
    /// assert_eq!(CardOptions::default().with_width(200).width, 200);
    /// assert_eq!(CardOptions::default().with_width(0).width, 1);
    /// assert_eq!(CardOptions::default().with_width(usize::MAX).width, MAX_WIDTH);
    /// ```
    pub fn with_width(mut self, width: usize) -> CardOptions {
        self.width = super::columns(width);
        self
    }

    /// With colour.
    ///
    /// ```
    /// let options = overhear::CardOptions::default().with_color(overhear::Color::TrueColor);
    /// assert_eq!(options.color, overhear::Color::TrueColor);
    /// ```
    pub fn with_color(mut self, color: Color) -> CardOptions {
        self.color = color;
        self
    }

    /// With another audience's view.
    ///
    /// ```
    /// let options = overhear::CardOptions::default().with_view(overhear::CardView::Provider);
    /// assert_eq!(options.view, overhear::CardView::Provider);
    /// ```
    pub fn with_view(mut self, view: CardView) -> CardOptions {
        self.view = view;
        self
    }

    /// With another theme.
    ///
    /// ```
    /// let options = overhear::CardOptions::default().with_theme(overhear::Theme::Light);
    /// assert_eq!(options.theme, overhear::Theme::Light);
    /// ```
    pub fn with_theme(mut self, theme: Theme) -> CardOptions {
        self.theme = theme;
        self
    }

    /// With style overrides.
    ///
    /// ```
    /// let mut styles = overhear::Styles::default();
    /// styles.set_tool("fs_read_file", "inline_results=3")?;
    /// let options = overhear::CardOptions::default().with_styles(styles);
    /// # Ok::<(), overhear::Error>(())
    /// ```
    pub fn with_styles(mut self, styles: Styles) -> CardOptions {
        self.styles = styles;
        self
    }
}

/// One call of `tool` with `arguments` (usually a JSON object) that returned
/// `result`, rendered as `options.view` asks: the card exactly as the viewer
/// and `overhear render` show it in a conversation, or the user view or the
/// provider view as JSON, or all three under labelled rules. Deterministic:
/// the same input gives the same text.
///
/// ```
/// use serde_json::json;
/// let result = overhear::ToolResult::from_value(json!({"content": [
///     {"type": "text", "text": "Saved 3 files.", "annotations": {"audience": ["user"]}},
///     {"type": "text", "text": "wrote a.rs b.rs c.rs", "annotations": {"audience": ["assistant"]}},
/// ]}))?;
/// let args = json!({"paths": ["a.rs", "b.rs", "c.rs"]});
/// let options = overhear::CardOptions::default().with_view(overhear::CardView::Provider);
/// let provider = overhear::card("save_files", &args, &result, &options);
/// assert!(provider.contains("wrote a.rs") && !provider.contains("Saved 3 files."));
/// # Ok::<(), overhear::Error>(())
/// ```
pub fn card(tool: &str, arguments: &Value, result: &ToolResult, options: &CardOptions) -> String {
    let conv = one_call(tool, arguments, result);
    match options.view {
        CardView::Terminal => terminal(&conv, options),
        CardView::User => json(&conv, View::User),
        CardView::Provider => json(&conv, View::Provider),
        CardView::All => {
            let width = super::columns(options.width);
            // The blank line that ends the card would double the one
            // between sections.
            let mut shown = terminal(&conv, options).trim_end_matches('\n').to_string();
            if shown.is_empty() {
                shown = "(nothing: the style hides this call)".to_string();
            }
            shown.push('\n');
            [
                ("terminal — what the user sees", shown),
                (
                    "user view — as `overhear events --view user`",
                    json(&conv, View::User),
                ),
                (
                    "provider — what the model receives",
                    json(&conv, View::Provider),
                ),
            ]
            .iter()
            .map(|(label, body)| format!("{}\n{body}", rule(label, width)))
            .collect::<Vec<_>>()
            .join("\n")
        }
    }
}

/// The conversation of one call: its request and its response.
fn one_call(tool: &str, arguments: &Value, result: &ToolResult) -> Conversation {
    let request = EventKind::ToolCallRequest {
        id: CALL_ID.to_string(),
        name: tool.to_string(),
        arguments: Arc::new(arguments.clone()),
    };
    let response = EventKind::ToolCallResponse {
        id: CALL_ID.to_string(),
        content: result.content.clone(),
        is_error: result.is_error,
    };
    let events = vec![Event::new(None, request), Event::new(None, response)];
    Conversation::new(events, None, None)
}

/// The card as the terminal shows it: the call's own blocks (its card, and
/// the speech panes of blocks the style renders as `chat`), without the
/// turn's rule and the turn-level notices around it.
fn terminal(conv: &Conversation, options: &CardOptions) -> String {
    let doc_options = DocOptions {
        view: DocView::Terminal,
        overlay: options.styles.overlay.clone(),
        finished: true,
    };
    let mut doc = Document::build(conv, &doc_options);
    doc.blocks.retain(|block| {
        matches!(
            block.kind,
            BlockKind::ToolCard(_) | BlockKind::ToolSpeech(_)
        )
    });
    let print = PrintOptions {
        width: super::columns(options.width),
        color: options.color != Color::Never,
        theme: options.theme.load(options.color),
        sanitize: SanitizeMode::Strip,
        turns: None,
        code: CodeOverflow::Wrap,
    };
    let mut out = Vec::new();
    // Writing to a Vec cannot fail.
    let _ = print_document(&mut out, conv, &doc, &print);
    String::from_utf8_lossy(&out).into_owned()
}

/// A view of the conversation as a pretty JSON array, as `overhear events`
/// prints it (terminal-safe: controls are `\u` escapes).
fn json(conv: &Conversation, view: View) -> String {
    let events: Vec<Value> = conv.view(view).iter().map(Event::to_json).collect();
    let mut out = Vec::new();
    // Writing to a Vec cannot fail.
    let _ = safe_json::to_writer_pretty(&mut out, &events);
    out.push(b'\n');
    String::from_utf8_lossy(&out).into_owned()
}

/// `── label ─────` across `width` columns.
fn rule(label: &str, width: usize) -> String {
    let head = truncate(&format!("── {label} "), width);
    let fill = width.saturating_sub(display_width(&head));
    format!("{head}{}", "─".repeat(fill))
}
