//! The HTML export: a web page made for reading, in one or more
//! self-contained files. Inline CSS only (no script, no external request: a
//! Content-Security-Policy forbids any); prompts and replies as Markdown
//! rendered to HTML ([`prose`]); tool cards and reasoning in `<details>`
//! with a summary that says what happened ([`card`]); the session's figures
//! and each turn's ([`header`]); anchors and a table of contents; tool cards
//! and reasoning shown or hidden by CSS alone; dark and light; a print
//! stylesheet ([`css`]); images embedded ([`images`]); large sessions split
//! into linked pages ([`pages`]). Every byte of content is escaped.

mod card;
mod css;
mod header;
mod images;
mod lines;
mod pages;
mod prose;
mod spill;

use std::cell::OnceCell;
use std::fmt::Write as _;

use self::card::Outcome;
use self::css::Classes;
use self::header::Figures;
use self::lines::pre;
use self::spill::{Spill, Unit};
use super::forget::Forgetting;
use super::{ExportOptions, Laid, Layouts, Roles, plain, strip_marker};
use crate::model::{Conversation, facts};
use crate::policy::ReasoningDisplay;
use crate::render::document::{BlockKind, DocBlock, DocOptions, DocView, Document};
use crate::render::layout::full_text;
use crate::text::ascii::prefix_without;
use crate::text::sanitize::{SanitizeMode, sanitize, sanitize_cow};
use crate::text::truncate::truncate;

pub use self::pages::{PAGE_LIMIT, page_name};
pub(super) use self::pages::Pages;

/// Every element the HTML export writes: any other tag in an export would
/// be content that escaped escaping (the HTML-export fuzz target checks
/// that none does, on arbitrary conversations and titles).
#[cfg(any(test, feature = "internals"))]
pub const TAGS: &[&str] = &[
    "html",
    "head",
    "meta",
    "title",
    "style",
    "body",
    "input",
    "main",
    "header",
    "nav",
    "label",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "section",
    "div",
    "p",
    "dl",
    "dt",
    "dd",
    "details",
    "summary",
    "pre",
    "code",
    "span",
    "ul",
    "ol",
    "li",
    "a",
    "em",
    "strong",
    "del",
    "blockquote",
    "hr",
    "br",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "sup",
    "img",
];

/// The first tag in `html` that is not one of [`TAGS`] (its name as
/// written), if any: what the export tests and its fuzz target look for.
/// `<!DOCTYPE` is the one declaration allowed.
#[cfg(any(test, feature = "internals"))]
pub fn foreign_tag(html: &str) -> Option<&str> {
    html.match_indices('<').find_map(|(at, _)| {
        let rest = &html[at + 1..];
        let rest = rest.strip_prefix('/').unwrap_or(rest);
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '!'))
            .unwrap_or(rest.len());
        let name = &rest[..end];
        (name != "!DOCTYPE" && !TAGS.contains(&name)).then_some(name)
    })
}

/// `text` with the five HTML special characters escaped.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    escape_into(text, &mut out);
    out
}

/// [`escape`] onto the end of `out`: the runs without a special character
/// copied whole.
pub(crate) fn escape_into(text: &str, out: &mut String) {
    let bytes = text.as_bytes();
    let mut rest = 0;
    let mut at = 0;
    loop {
        at += prefix_without(&bytes[at..], *b"&<>\"'");
        let entity = match bytes.get(at) {
            None => break,
            Some(b'&') => "&amp;",
            Some(b'<') => "&lt;",
            Some(b'>') => "&gt;",
            Some(b'"') => "&quot;",
            Some(b'\'') => "&#39;",
            // The run stops at one of them: looked at again, never copied
            // unescaped.
            Some(_) => {
                at += 1;
                continue;
            }
        };
        out.push_str(&text[rest..at]);
        out.push_str(entity);
        at += 1;
        rest = at;
    }
    out.push_str(&text[rest..]);
}

/// One turn of the page (or what comes before the first turn: number 0).
pub(super) struct Section {
    /// The turn's number; 0 for blocks before any turn.
    number: usize,
    /// Its figures.
    figures: Figures,
    /// The first line of its first prompt, for the table of contents.
    prompt: Option<String>,
    /// Its blocks as HTML, each a whole element: a page may end between
    /// two of them.
    units: Vec<Unit>,
    /// The line of its figures, made when the pages are first measured
    /// (the turn is whole then) and kept for writing them.
    meta: OnceCell<String>,
}

impl Section {
    /// The heading of the turn (with its anchor) and the line of its
    /// figures; `continued` for the rest of a turn a page break cut.
    fn heading(&self, continued: bool) -> String {
        let n = self.number;
        if n == 0 {
            return String::new();
        }
        let mut out = if continued {
            format!("<h2>turn {n} (continued)</h2>\n")
        } else {
            format!("<h2 id=\"turn-{n}\"><a href=\"#turn-{n}\">turn {n}</a></h2>\n")
        };
        let line = self.meta.get_or_init(|| self.figures.turn_line());
        if !line.is_empty() {
            let _ = writeln!(out, "<p class=\"turn-meta\">{line}</p>");
        }
        if let Some(error) = &self.figures.error {
            let _ = writeln!(out, "<p class=\"turn-error\">✗ {}</p>", escape(error));
        }
        out
    }
}

/// The page's content before it is cut into files.
pub(super) struct Built {
    /// The turns.
    sections: Vec<Section>,
    /// The session's figures.
    figures: Figures,
    /// The classes of the laid-out lines met.
    classes: Classes,
    /// The blocks' HTML.
    spill: Spill,
    /// The buffer a block's HTML is written to before it is kept, made
    /// once: written to from empty, a block's HTML grew a step at a time.
    spare: String,
}

/// Builds the turns of `conv` chosen by `options` as HTML, with the blocks
/// the document `doc_options` asks for makes of them, a turn at a time:
/// once a turn is laid out, the texts of the events no later turn reads
/// are forgotten ([`Forgetting`]).
pub(super) fn build(
    conv: &mut Conversation,
    doc_options: &DocOptions,
    options: &ExportOptions,
) -> Built {
    // The session's figures are the whole session's, counted once, before
    // any text is forgotten.
    let mut built = Built {
        sections: Vec::new(),
        figures: Figures::of_session(&crate::export::figures::Session::of(conv)),
        classes: Classes::default(),
        spill: Spill::new(),
        spare: String::new(),
    };
    let roles = Roles::new();
    let total = conv.turns.len();
    // The raw view of a stream's stored lines comes in one step, whose
    // blocks may read any event: nothing is forgotten then.
    let mut forgetting = (doc_options.view != DocView::Raw).then(|| Forgetting::new(conv));
    let mut walk = Document::turn_by_turn(conv, doc_options);
    // A card cut into pieces is one unit: its `<details>` stays whole.
    let mut open_unit: Option<String> = None;
    while let Some(blocks) = walk.next(conv) {
        let layouts = Layouts::new(conv, &roles, options.results, true);
        let chosen = blocks
            .iter()
            .filter(|b| options.turns.is_none_or(|spec| spec.contains(b.turn, total)));
        for block in chosen {
            built.add(block, conv, &layouts, &mut open_unit);
        }
        if let Some(forgetting) = &mut forgetting {
            forgetting.after_turn(conv);
        }
    }
    if let (Some(unit), Some(section)) = (open_unit, built.sections.last_mut()) {
        section.units.push(built.spill.push(&unit));
    }
    built
}

impl Built {
    /// Adds `block`: a turn's rule opens a section, any other block's HTML
    /// is added to the last section's units — or to `open_unit`, which
    /// holds a card cut into pieces until its last piece.
    fn add(
        &mut self,
        block: &DocBlock,
        conv: &Conversation,
        layouts: &Layouts<'_>,
        open_unit: &mut Option<String>,
    ) {
        if let BlockKind::TurnRule {
            number,
            timestamp,
            info,
            duration,
        } = &block.kind
        {
            self.sections.push(Section {
                number: *number,
                figures: Figures::of_turn(timestamp.as_deref(), *duration, info.as_deref()),
                prompt: None,
                units: Vec::new(),
                meta: OnceCell::new(),
            });
            return;
        }
        if self.sections.is_empty() {
            self.sections.push(Section {
                number: 0,
                figures: Figures::default(),
                prompt: None,
                units: Vec::new(),
                meta: OnceCell::new(),
            });
        }
        let Some(section) = self.sections.last_mut() else {
            return;
        };
        let classes = &mut self.classes;
        let first = block.piece.as_ref().is_none_or(|p| p.is_first());
        let last = block.piece.as_ref().is_none_or(|p| p.last);
        let mut unit = open_unit
            .take()
            .unwrap_or_else(|| std::mem::take(&mut self.spare));
        match &block.kind {
            BlockKind::UserMessage { .. }
            | BlockKind::AssistantMessage { .. }
            | BlockKind::ToolSpeech(_) => {
                if first {
                    speech(block, conv, layouts, classes, section, &mut unit);
                }
            }
            BlockKind::Reasoning {
                display: ReasoningDisplay::Full | ReasoningDisplay::Summary,
                ..
            } => {
                if first {
                    reasoning(block, conv, layouts, classes, &mut unit);
                }
            }
            BlockKind::ToolCard(tool) => {
                if first {
                    section.figures.calls += 1;
                    match Outcome::of(tool, conv) {
                        Outcome::Failed => section.figures.failures += 1,
                        Outcome::Refused => section.figures.refused += 1,
                        _ => {}
                    }
                }
                tool_card(block, tool, conv, layouts, classes, first, &mut unit);
            }
            BlockKind::Reasoning { .. } => fold(block, layouts, classes, first, last, &mut unit),
            _ => pre("lines", &layouts.lay(block, false), layouts, classes, &mut unit),
        }
        if !last {
            *open_unit = Some(unit);
            return;
        }
        if !unit.is_empty() {
            section.units.push(self.spill.push(&unit));
        }
        unit.clear();
        self.spare = unit;
    }
}

/// A prompt or a reply: its label and its Markdown as HTML (the laid-out
/// pane when it has no text), its images after it.
fn speech(
    block: &DocBlock,
    conv: &Conversation,
    layouts: &Layouts<'_>,
    classes: &mut Classes,
    section: &mut Section,
    out: &mut String,
) {
    let (class, label) = match &block.kind {
        BlockKind::UserMessage { .. } => ("user", "you".to_string()),
        BlockKind::AssistantMessage {
            final_reply: true, ..
        } => ("assistant final", "final reply".to_string()),
        BlockKind::AssistantMessage { events, .. }
            if events.iter().any(|&e| facts::final_reply(&conv.events[e])) =>
        {
            ("assistant final", "final reply".to_string())
        }
        BlockKind::ToolSpeech(tool) => ("assistant tool-speech", tool.tool.clone()),
        _ => ("assistant", "assistant".to_string()),
    };
    let text = full_text(block, conv)
        .map(|text| sanitize_cow(text, SanitizeMode::Strip))
        .filter(|text| !text.trim().is_empty());
    if class == "user" && section.prompt.is_none() {
        section.prompt = text.as_deref().and_then(|t| {
            t.lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .map(|l| truncate(l, 80))
        });
    }
    let _ = write!(
        out,
        "<div class=\"speech {class}\"><div class=\"label\">{}</div>",
        escape(&sanitize(&label, SanitizeMode::Strip))
    );
    match text {
        Some(text) => {
            out.push_str("<div class=\"prose\">");
            prose::write_markdown(&text, out);
            out.push_str("</div>");
        }
        None => pre("lines", &layouts.lay(block, false), layouts, classes, out),
    }
    images::write(&images::of_speech(block, conv), out);
    out.push_str("</div>\n");
}

/// Reasoning shown whole: folded, its summary the folded line, its text as
/// Markdown.
fn reasoning(
    block: &DocBlock,
    conv: &Conversation,
    layouts: &Layouts<'_>,
    classes: &mut Classes,
    out: &mut String,
) {
    let summary = summary_text(&layouts.lay(block, true));
    match full_text(block, conv)
        .map(|text| sanitize_cow(text, SanitizeMode::Strip))
        .filter(|text| !text.trim().is_empty())
    {
        Some(text) => {
            let _ = write!(
                out,
                "<details class=\"reasoning\"><summary>{}</summary><div class=\"prose\">",
                escape(&summary),
            );
            prose::write_markdown(&text, out);
            out.push_str("</div></details>\n");
        }
        None => pre("lines", &layouts.lay(block, false), layouts, classes, out),
    }
}

/// A folded block shown as the terminal lays it out (reasoning cut by its
/// style): the folded line, then the open block's lines.
fn fold(
    block: &DocBlock,
    layouts: &Layouts<'_>,
    classes: &mut Classes,
    first: bool,
    last: bool,
    out: &mut String,
) {
    if first {
        let summary = summary_text(&layouts.lay(block, true));
        let _ = write!(
            out,
            "<details class=\"reasoning\"><summary>{}</summary>",
            escape(&summary)
        );
    }
    let mut body = layouts.lay(block, false);
    if first {
        body.drop_head(1);
    }
    pre("body", &body, layouts, classes, out);
    if last {
        out.push_str("</details>\n");
    }
}

/// A tool card: the summary of what happened, the card's lines (results
/// and diffs) inside. A card with nothing under its header does not fold.
fn tool_card(
    block: &DocBlock,
    tool: &crate::render::document::ToolCard,
    conv: &Conversation,
    layouts: &Layouts<'_>,
    classes: &mut Classes,
    first: bool,
    out: &mut String,
) {
    let last = block.piece.as_ref().is_none_or(|p| p.last);
    let body = layouts.lay_headless(block);
    if first {
        let class = match Outcome::of(tool, conv).word() {
            Some(word) => format!("card tool {word}"),
            None => "card tool".to_string(),
        };
        let summary = card::summary(tool, conv);
        if last && body.lines.iter().all(|l| plain(Some(l)).trim().is_empty()) {
            let _ = writeln!(out, "<div class=\"{class}\">{summary}</div>");
            return;
        }
        let _ = write!(
            out,
            "<details class=\"{class}\"><summary>{summary}</summary>"
        );
    }
    pre("body", &body, layouts, classes, out);
    if last {
        images::write(&images::of_card(tool, conv), out);
        out.push_str("</details>\n");
    }
}

/// The text of a folded line (its fold marker removed).
fn summary_text(folded: &Laid) -> String {
    let mut lines = folded.lines.iter();
    let mut first = lines.next().cloned();
    first.iter_mut().for_each(strip_marker);
    first
        .iter()
        .chain(lines)
        .map(|l| plain(Some(l)).trim().to_string())
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests;
