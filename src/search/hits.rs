//! Where a query matches in a decoded conversation: every text a reader of
//! the conversation can be shown — prompts, replies, reasoning, structured
//! output, a tool call's arguments and result, questions and answers, and
//! the same inside each sub-agent — with the turn it is in and the line
//! around the match.

use std::ops::Range;

use serde_json::Value;

use super::query::Query;
use crate::model::{ChatResponse, Conversation, EventKind, Item};

/// The kind of block a match is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// What the user said.
    Prompt,
    /// What the assistant said.
    Reply,
    /// What the assistant thought.
    Reasoning,
    /// Structured output.
    Data,
    /// A tool call's arguments.
    Arguments,
    /// A tool call's result.
    Result,
    /// A question asked during the turn.
    Question,
    /// Its answer.
    Answer,
}

impl Place {
    /// The name `--json` and the printout use.
    pub fn name(self) -> &'static str {
        match self {
            Place::Prompt => "prompt",
            Place::Reply => "reply",
            Place::Reasoning => "reasoning",
            Place::Data => "data",
            Place::Arguments => "arguments",
            Place::Result => "result",
            Place::Question => "question",
            Place::Answer => "answer",
        }
    }
}

/// One line holding a match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// The turn (1-based) of the session: for a match in a sub-agent, the
    /// turn of the call that started it.
    pub turn: usize,
    /// The sub-agents the match is inside, outermost first (each named by
    /// its call's description, else its call id); empty in the session's own
    /// text.
    pub subagents: Vec<String>,
    /// The kind of block.
    pub place: Place,
    /// The tool, for arguments and results.
    pub tool: Option<String>,
    /// The line around the match, as stored (unsanitized: the printer shows
    /// it through the text layer), cut to [`CONTEXT_BYTES`] around the
    /// matches with `…` where it was cut.
    pub line: String,
    /// The matches, as byte ranges of `line`.
    pub matches: Vec<Range<usize>>,
}

impl Hit {
    /// Where the hit is, in words: `prompt`, `tool Bash result`,
    /// `sub-agent Explore › reply`, each sub-agent's name written by `name`
    /// (to sanitize or shorten it) and the tool's by `tool`.
    pub fn label_with(&self, name: impl Fn(&str) -> String, tool: impl Fn(&str) -> String) -> String {
        let mut label = String::new();
        for agent in &self.subagents {
            label.push_str("sub-agent ");
            label.push_str(&name(agent));
            label.push_str(" › ");
        }
        if let Some(called) = &self.tool {
            label.push_str("tool ");
            label.push_str(&tool(called));
            label.push(' ');
        }
        label.push_str(self.place.name());
        label
    }
}

/// How much of a line is kept before the first match and after the last.
pub const CONTEXT_BYTES: usize = 160;

/// Every hit of `query` in `conv`, in reading order, sub-agents' after the
/// call that started them.
pub fn hits(conv: &Conversation, query: &Query) -> Vec<Hit> {
    let mut found = Vec::new();
    let mut walk = Walk {
        query,
        found: &mut found,
    };
    walk.conversation(conv, None, &mut Vec::new(), 0);
    found
}

/// How deep sub-agents are searched (the loader nests them at most this
/// deep already; the walk does not trust it).
const MAX_SUBAGENT_DEPTH: usize = 16;

struct Walk<'q, 'f> {
    query: &'q Query,
    found: &'f mut Vec<Hit>,
}

impl Walk<'_, '_> {
    /// Searches `conv`; `outer_turn` is the turn of the call that started
    /// it when it is a sub-agent.
    fn conversation(
        &mut self,
        conv: &Conversation,
        outer_turn: Option<usize>,
        path: &mut Vec<String>,
        depth: usize,
    ) {
        for turn in &conv.turns {
            let number = outer_turn.unwrap_or(turn.number);
            for item in &turn.items {
                self.item(conv, item, number, path, depth);
            }
        }
    }

    fn item(
        &mut self,
        conv: &Conversation,
        item: &Item,
        turn: usize,
        path: &mut Vec<String>,
        depth: usize,
    ) {
        let events = &conv.events;
        let at = |place, tool: Option<&str>| Spot {
            turn,
            path: path.clone(),
            place,
            tool: tool.map(str::to_owned),
        };
        match item {
            Item::UserMessage(i) => {
                if let EventKind::ChatRequest { content, .. } = &events[*i].kind {
                    self.text(content, &at(Place::Prompt, None));
                }
            }
            Item::Speech(range) | Item::Reasoning(range) => {
                let mut joined = String::new();
                let mut place = Place::Reply;
                for event in &events[range.clone()] {
                    match &event.kind {
                        EventKind::ChatResponse(ChatResponse::Message(Some(text))) => {
                            joined.push_str(text);
                        }
                        EventKind::ChatResponse(ChatResponse::Reasoning(text)) => {
                            place = Place::Reasoning;
                            joined.push_str(text);
                        }
                        _ => {}
                    }
                }
                self.text(&joined, &at(place, None));
            }
            Item::Data(i) => {
                if let EventKind::ChatResponse(ChatResponse::Data(value)) = &events[*i].kind {
                    self.value(value, &at(Place::Data, None));
                }
            }
            Item::ToolCall(call) => {
                let EventKind::ToolCallRequest {
                    id,
                    name,
                    arguments,
                } = &events[call.request].kind
                else {
                    return;
                };
                self.value(arguments, &at(Place::Arguments, Some(name)));
                if let Some(response) = call.response {
                    self.response(conv, response, &at(Place::Result, Some(name)));
                }
                for inquiry in &call.inquiries {
                    self.inquiry(conv, inquiry.request, inquiry.response, &at(Place::Question, None));
                }
                if let Some(sub) = conv.subagents.get(id)
                    && depth < MAX_SUBAGENT_DEPTH
                {
                    path.push(subagent_label(id, arguments));
                    self.conversation(sub, Some(turn), path, depth + 1);
                    path.pop();
                }
            }
            Item::OrphanResponse(i) => self.response(conv, *i, &at(Place::Result, None)),
            Item::Inquiry(pair) => {
                self.inquiry(conv, pair.request, pair.response, &at(Place::Question, None));
            }
            Item::TurnStart(_)
            | Item::ConfigDelta(_)
            | Item::Compaction(_)
            | Item::Unknown(_) => {}
        }
    }

    fn response(&mut self, conv: &Conversation, index: usize, spot: &Spot) {
        if let EventKind::ToolCallResponse { content, .. } = &conv.events[index].kind {
            self.text(&content.plain_text(), spot);
        }
    }

    fn inquiry(&mut self, conv: &Conversation, request: usize, response: Option<usize>, spot: &Spot) {
        if let EventKind::InquiryRequest { question, .. } = &conv.events[request].kind {
            self.value(question, spot);
        }
        if let Some(answer) = response
            && let EventKind::InquiryResponse { answer, .. } = &conv.events[answer].kind
        {
            let spot = Spot {
                place: Place::Answer,
                ..spot.clone()
            };
            self.value(answer, &spot);
        }
    }

    /// Every string in `value` (keys are names, not text; numbers and
    /// booleans are searched as written).
    fn value(&mut self, value: &Value, spot: &Spot) {
        let mut stack = vec![value];
        while let Some(value) = stack.pop() {
            match value {
                Value::String(text) => self.text(text, spot),
                Value::Number(n) => self.text(&n.to_string(), spot),
                Value::Bool(b) => self.text(if *b { "true" } else { "false" }, spot),
                Value::Array(items) => stack.extend(items.iter().rev()),
                Value::Object(map) => stack.extend(map.values().rev()),
                Value::Null => {}
            }
        }
    }

    fn text(&mut self, text: &str, spot: &Spot) {
        let matches = self.query.find_in(text);
        let mut rest = matches.as_slice();
        while let Some(first) = rest.first() {
            let line = line_around(text, first.start);
            // A match starting at the line's own newline belongs to it too.
            let on_line = rest
                .iter()
                .take_while(|m| m.start < line.end || m.start == first.start)
                .count();
            let (shown, ranges) = context(text, line, &rest[..on_line]);
            self.found.push(Hit {
                turn: spot.turn,
                subagents: spot.path.clone(),
                place: spot.place,
                tool: spot.tool.clone(),
                line: shown,
                matches: ranges,
            });
            rest = &rest[on_line..];
        }
    }
}

/// Where a text being searched sits.
#[derive(Clone)]
struct Spot {
    turn: usize,
    path: Vec<String>,
    place: Place,
    tool: Option<String>,
}

/// A sub-agent's name in a hit: its call's `description` (Claude Code's
/// Task, Codex's spawn), else the call id.
fn subagent_label(id: &str, arguments: &Value) -> String {
    ["description", "agent_type", "subagent_type"]
        .iter()
        .find_map(|key| arguments.get(key).and_then(Value::as_str))
        .filter(|text| !text.trim().is_empty())
        .map_or_else(|| id.to_owned(), |text| text.trim().to_owned())
}

/// The line of `text` holding byte `at`.
fn line_around(text: &str, at: usize) -> Range<usize> {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    start..end
}

/// The part of `line` shown for `matches` (all inside it): at most
/// [`CONTEXT_BYTES`] before the first and after the last, cut at character
/// boundaries and marked with `…`, without the line's leading white space;
/// the matches' ranges in what is shown.
fn context(text: &str, line: Range<usize>, matches: &[Range<usize>]) -> (String, Vec<Range<usize>>) {
    let first = matches.first().map_or(line.start, |m| m.start);
    let last = matches.last().map_or(line.end, |m| m.end);
    let mut start = first.saturating_sub(CONTEXT_BYTES).max(line.start);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    // A line's indentation says nothing: it is left out (never a part of
    // the match).
    let indent = text[start..first].len() - text[start..first].trim_start().len();
    let cut_before = start > line.start;
    start += indent;
    let mut end = (last + CONTEXT_BYTES).min(line.end);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let mut shown = String::new();
    if cut_before {
        shown.push('…');
    }
    let offset = shown.len();
    shown.push_str(text[start..end].trim_end_matches('\r'));
    let ranges = matches
        .iter()
        .map(|m| m.start - start + offset..(m.end.min(end) - start + offset).min(shown.len()))
        .collect();
    if end < line.end {
        shown.push('…');
    }
    (shown, ranges)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::query::Case;

    #[test]
    fn a_long_line_is_cut_around_its_matches() {
        let text = format!("{}needle{}\nnext", "a".repeat(500), "b".repeat(500));
        let start = text.find("needle").unwrap();
        let needle = start..start + 6;
        let (shown, ranges) = context(&text, line_around(&text, start), std::slice::from_ref(&needle));
        assert!(shown.starts_with('…') && shown.ends_with('…'));
        assert_eq!(&shown[ranges[0].clone()], "needle");
        assert!(shown.len() < 2 * CONTEXT_BYTES + 20);
    }

    #[test]
    fn a_lines_indentation_is_left_out_and_the_matches_move_with_it() {
        let text = "fn main() {\n        let needle = 1;\n}";
        let start = text.find("needle").unwrap();
        let (shown, ranges) = context(text, line_around(text, start), std::slice::from_ref(&(start..start + 6)));
        assert_eq!(shown, "let needle = 1;");
        assert_eq!(&shown[ranges[0].clone()], "needle");
        // A match in the white space keeps it.
        let at = text.find("    let").unwrap();
        let (shown, ranges) = context(text, line_around(text, at), std::slice::from_ref(&(at..at + 7)));
        assert_eq!(&shown[ranges[0].clone()], "    let");
    }

    #[test]
    fn matches_on_one_line_are_one_hit() {
        let query = Query::new("x", false, Case::Sensitive).unwrap();
        let mut found = Vec::new();
        let mut walk = Walk {
            query: &query,
            found: &mut found,
        };
        let spot = Spot {
            turn: 2,
            path: Vec::new(),
            place: Place::Reply,
            tool: None,
        };
        walk.text("a x b x\nno\nx é", &spot);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].matches, vec![2..3, 6..7]);
        assert_eq!(found[1].line, "x é");
    }

    #[test]
    fn a_match_that_starts_with_a_line_break_is_one_hit() {
        let query = Query::new("\nnext", false, Case::Sensitive).unwrap();
        let mut found = Vec::new();
        let mut walk = Walk {
            query: &query,
            found: &mut found,
        };
        let spot = Spot {
            turn: 1,
            path: Vec::new(),
            place: Place::Reply,
            tool: None,
        };
        walk.text("first\nnext line", &spot);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].line, "first");
    }
}
