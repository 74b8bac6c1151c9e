//! Redaction applied to the model's events: every text a user can be shown
//! (messages, reasoning, tool arguments and results, questions and answers,
//! configuration, unknown entries, the facts a reader learned) passes
//! through [`Redactor::redact`].

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde_json::Value;

use super::{Redactor, Secret};
use crate::model::{ChatResponse, Content, Conversation, Event, EventKind, StreamPiece};

/// Replaces `*text` by its redaction when that differs.
fn redact_string(redactor: &Redactor, text: &mut String) {
    if let std::borrow::Cow::Owned(clean) = redactor.redact(text) {
        *text = clean;
    }
}

/// Redacts every string leaf of `value`, a leaf under a name that tells a
/// secret (`"password"`, `"SecretAccessKey"`) seen with its name (object
/// keys are left as they are: they are names, not values).
pub fn redact_value(redactor: &Redactor, value: &mut Value) {
    match value {
        Value::String(text) => redact_string(redactor, text),
        Value::Array(items) => items.iter_mut().for_each(|v| redact_value(redactor, v)),
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                if let Value::String(text) = value
                    && let Some(clean) = redactor.redact_named(key, text)
                {
                    *text = clean;
                }
                redact_value(redactor, value);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// Whether `value` holds a string anywhere: redaction changes nothing else
/// (a key is looked at only for the string beside it).
fn holds_text(value: &Value) -> bool {
    match value {
        Value::String(_) => true,
        Value::Array(items) => items.iter().any(holds_text),
        Value::Object(map) => map.values().any(holds_text),
        Value::Null | Value::Bool(_) | Value::Number(_) => false,
    }
}

/// Redacts the text of one event in place. Ids and names are kept, so
/// pairing and turns are the same before and after.
pub fn redact_event(redactor: &Redactor, event: &mut Event) {
    for value in event.metadata.values_mut() {
        redact_value(redactor, value);
    }
    if let Some(facts) = &mut event.facts {
        facts.texts_mut(&mut |text| redact_string(redactor, text), &mut |value| {
            redact_value(redactor, value)
        });
    }
    match &mut event.kind {
        EventKind::TurnStart => {}
        EventKind::ChatRequest {
            content, schema, ..
        } => {
            redact_string(redactor, content);
            if let Some(schema) = schema {
                redact_value(redactor, schema);
            }
        }
        EventKind::ChatResponse(ChatResponse::Message(Some(text)))
        | EventKind::ChatResponse(ChatResponse::Reasoning(text)) => redact_string(redactor, text),
        EventKind::ChatResponse(ChatResponse::Message(None)) => {}
        EventKind::ChatResponse(ChatResponse::Data(value)) => redact_value(redactor, value),
        // Arguments shared with other events (a JP file read in outline
        // gives its calls one empty value) are copied only when they hold
        // text to redact.
        EventKind::ToolCallRequest { arguments, .. } => {
            if holds_text(arguments) {
                redact_value(redactor, Arc::make_mut(arguments));
            }
        }
        EventKind::ToolCallResponse { content, .. } => match content {
            Content::Text(text) => redact_string(redactor, text),
            Content::Blocks(blocks) => blocks
                .iter_mut()
                .for_each(|block| redact_value(redactor, &mut block.0)),
        },
        EventKind::InquiryRequest {
            source, question, ..
        } => {
            redact_value(redactor, source);
            redact_value(redactor, question);
        }
        EventKind::InquiryResponse { answer, .. } => redact_value(redactor, answer),
        EventKind::ConfigDelta { delta } => delta.change(|value| redact_value(redactor, value)),
        EventKind::Compaction(map) => map.values_mut().for_each(|v| redact_value(redactor, v)),
        EventKind::Unknown(value) => redact_value(redactor, value),
    }
}

/// Says which stored lines hold a piece of a text streamed in pieces
/// ([`StreamPiece`]); the format knows (`StreamReader::stream_piece`).
pub type PieceOf<'a> = &'a dyn Fn(&Value) -> Option<StreamPiece>;

/// Redacts everything a user can be shown of a conversation read already
/// (the one-shot commands, and the viewer when it starts redacting):
/// every part [`Conversation::shown_parts`] lists — events, title, base
/// configuration, stored lines, the text being written — and its
/// sub-agents' conversations the same way. `pieces` tells the streamed
/// pieces among the stored lines, so a secret split across two is found;
/// `joiner` keeps the streamed texts' tails for the lines read next
/// ([`redact_stream_tail`]).
pub fn redact_conversation(
    redactor: &Redactor,
    conv: &mut Conversation,
    joiner: &mut Joiner,
    pieces: PieceOf<'_>,
) {
    let parts = conv.shown_parts();
    for event in parts.events.iter_mut() {
        redact_event(redactor, event);
    }
    redact_title(redactor, parts.title);
    if let Some(config) = parts.base_config {
        redact_value(redactor, config);
    }
    for child in parts.subagents.values_mut() {
        // A sub-agent's lines are read by its own format's reader: none of
        // them are pieces of the parent's streamed texts.
        redact_conversation(redactor, child, &mut Joiner::default(), &|_| None);
    }
    redact_stream_tail(redactor, conv, 0, joiner, pieces);
}

/// Redacts a title in place (a conversation's, as a format read it).
pub fn redact_title(redactor: &Redactor, title: &mut Option<String>) {
    if let Some(title) = title {
        redact_string(redactor, title);
    }
}

/// Redacts a stream's stored lines from index `from` on (the ones read since
/// the last call) and the text being written right now. `joiner` holds the
/// streamed texts of the lines before `from` (the same one at every call for
/// one stream): a secret split across pieces is redacted in each, lines
/// read at an earlier call rewritten.
pub fn redact_stream_tail(
    redactor: &Redactor,
    conv: &mut Conversation,
    from: usize,
    joiner: &mut Joiner,
    pieces: PieceOf<'_>,
) {
    let parts = conv.shown_parts();
    let originals = parts.originals;
    // Each new line parsed once: its streamed piece joined with the ones
    // before, then its text redacted. A secret it completes may start in an
    // earlier line: those are fixed after (`late`; rare).
    let mut late: BTreeMap<usize, (&'static str, String)> = BTreeMap::new();
    let mut index = from;
    originals.rewrite_from(from, |original| {
        let line = index;
        index += 1;
        original.rewrite(|value| {
            let before = value.clone();
            if let Some(piece) = pieces(value)
                && let Some(raw) = value.pointer(piece.pointer).and_then(Value::as_str)
            {
                let fixes = joiner.feed(redactor, piece.key, line, raw);
                for (fixed, clean) in fixes {
                    if fixed != line {
                        late.insert(fixed, (piece.pointer, clean));
                    } else if let Some(slot) = value.pointer_mut(piece.pointer) {
                        *slot = Value::String(clean);
                    }
                }
            }
            redact_value(redactor, value);
            *value != before
        });
        if let Some(error) = &mut original.error
            && let std::borrow::Cow::Owned(clean) = redactor.redact(error)
        {
            *error = clean.into_boxed_str();
        }
    });
    if let Some(&first) = late.keys().next() {
        let mut index = first;
        originals.rewrite_from(first, |original| {
            let Some((pointer, clean)) = late.remove(&index) else {
                index += 1;
                return;
            };
            index += 1;
            original.rewrite(|value| {
                let Some(slot) = value.pointer_mut(pointer) else {
                    return false;
                };
                *slot = Value::String(clean);
                redact_value(redactor, value);
                true
            });
        });
    }
    if let Some(progress) = parts.in_progress {
        redact_string(redactor, &mut progress.text);
    }
}

/// How far before a new piece a secret it completes may start: the joined
/// text is searched from there (a secret longer than this, split across
/// pieces, is not found whole; no secret the rules know comes near but a
/// private key, whose unterminated form is found piece by piece from its
/// BEGIN line on).
const JOIN_LOOKBACK: usize = 4 * 1024;

/// How much of a streamed text is kept to join with its next pieces.
const JOIN_WINDOW: usize = 16 * 1024;

/// How many streamed texts are kept at once (their pieces may interleave).
const JOIN_TEXTS: usize = 64;

/// The texts being streamed in pieces across stored lines (eve's deltas),
/// the tail of each as read (unredacted), so that a secret split across
/// two pieces is found in the joined text and redacted in every piece.
#[derive(Debug, Default)]
pub struct Joiner {
    /// By the text's key, in order of last use.
    texts: Vec<(String, Joined)>,
}

/// The tail of one streamed text.
#[derive(Debug, Default)]
struct Joined {
    /// The pieces joined (its last [`JOIN_WINDOW`] bytes or so).
    text: String,
    /// Each piece still in `text`, in order.
    pieces: Vec<Piece>,
}

/// One piece of a streamed text.
#[derive(Debug)]
struct Piece {
    /// Its stored line.
    line: usize,
    /// Where it starts in [`Joined::text`].
    start: usize,
    /// Its parts of the secrets that span it and another piece, relative
    /// to its start.
    cuts: Vec<Secret>,
}

impl Joiner {
    /// Adds the piece `raw` (stored line `line`) to the text `key`; returns
    /// the pieces of that text whose redaction differs from their own
    /// (a secret spans them), each as its line and its redacted text.
    pub(super) fn feed(
        &mut self,
        redactor: &Redactor,
        key: String,
        line: usize,
        raw: &str,
    ) -> Vec<(usize, String)> {
        let at = match self.texts.iter().position(|(k, _)| *k == key) {
            Some(at) => at,
            None => {
                if self.texts.len() >= JOIN_TEXTS {
                    self.texts.remove(0);
                }
                self.texts.push((key, Joined::default()));
                self.texts.len() - 1
            }
        };
        let entry = self.texts.remove(at);
        self.texts.push(entry);
        let Some((_, joined)) = self.texts.last_mut() else {
            return Vec::new();
        };
        let start = joined.text.len();
        joined.pieces.push(Piece {
            line,
            start,
            cuts: Vec::new(),
        });
        joined.text.push_str(raw);
        let out = joined.spanning(redactor, start);
        joined.trim();
        out
    }
}

impl Joined {
    /// Finds the secrets of the joined text that the piece starting at
    /// `new` completes and that span two pieces or more; returns each piece
    /// they span, redacted: its parts of every such secret (found now or
    /// before) and its own secrets replaced by the mark.
    fn spanning(&mut self, redactor: &Redactor, new: usize) -> Vec<(usize, String)> {
        let mut from = new.saturating_sub(JOIN_LOOKBACK);
        while !self.text.is_char_boundary(from) {
            from -= 1;
        }
        let bounds = |pieces: &[Piece], k: usize, len: usize| {
            (pieces[k].start, pieces.get(k + 1).map_or(len, |p| p.start))
        };
        let mut touched = BTreeSet::new();
        for found in redactor.secrets(&self.text[from..]) {
            let (start, end) = (found.start + from, found.end + from);
            if end <= new {
                continue; // found (or not spanning) before
            }
            let spans: Vec<usize> = (0..self.pieces.len())
                .filter(|&k| {
                    let (s, e) = bounds(&self.pieces, k, self.text.len());
                    start < e && s < end
                })
                .collect();
            if spans.len() < 2 {
                continue;
            }
            for &k in &spans {
                let (s, e) = bounds(&self.pieces, k, self.text.len());
                let cut = Secret {
                    start: start.max(s) - s,
                    end: end.min(e) - s,
                    rule: found.rule,
                };
                if !self.pieces[k].cuts.contains(&cut) {
                    self.pieces[k].cuts.push(cut);
                }
            }
            touched.extend(spans);
        }
        touched
            .into_iter()
            .map(|k| {
                let (s, e) = bounds(&self.pieces, k, self.text.len());
                let piece = &self.text[s..e];
                // Its parts of the joined text's secrets and its own, merged.
                let mut cuts = self.pieces[k].cuts.clone();
                cuts.extend(redactor.secrets(piece));
                cuts.sort_by_key(|c| (c.start, std::cmp::Reverse(c.end)));
                let mut out = String::with_capacity(piece.len());
                let mut at = 0;
                for cut in &cuts {
                    if cut.start >= at {
                        out.push_str(&piece[at..cut.start]);
                        out.push_str(redactor.mark(cut));
                    }
                    at = at.max(cut.end);
                }
                out.push_str(&piece[at.min(piece.len())..]);
                (self.pieces[k].line, out)
            })
            .collect()
    }

    /// Forgets the pieces wholly before the last [`JOIN_WINDOW`] bytes.
    fn trim(&mut self) {
        if self.text.len() <= 2 * JOIN_WINDOW {
            return;
        }
        let keep_from = self.text.len() - JOIN_WINDOW;
        let first = self
            .pieces
            .iter()
            .rposition(|p| p.start <= keep_from)
            .unwrap_or(0);
        let cut = self.pieces[first].start;
        self.pieces.drain(..first);
        self.pieces.iter_mut().for_each(|p| p.start -= cut);
        self.text.drain(..cut);
    }
}
