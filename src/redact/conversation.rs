//! Redaction applied to the model's events: every text a user can be shown
//! (messages, reasoning, tool arguments and results, questions and answers,
//! configuration, unknown entries) passes through [`Redactor::redact`].

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::Redactor;
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

/// Redacts the text of one event in place. Ids and names are kept, so
/// pairing and turns are the same before and after.
pub fn redact_event(redactor: &Redactor, event: &mut Event) {
    for value in event.metadata.values_mut() {
        redact_value(redactor, value);
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
        EventKind::ToolCallRequest { arguments, .. } => redact_value(redactor, arguments),
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
        EventKind::ConfigDelta { delta } => redact_value(redactor, delta),
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
    // The new lines' pieces first: a secret they complete may start in a
    // line read before.
    let mut fixed: BTreeMap<usize, (String, String)> = BTreeMap::new();
    for index in from..originals.len() {
        let Some(value) = originals.get(index).and_then(|o| o.value()) else {
            continue;
        };
        let Some(piece) = pieces(&value) else {
            continue;
        };
        let Some(raw) = value.pointer(piece.pointer).and_then(Value::as_str) else {
            continue;
        };
        for (line, clean) in joiner.feed(redactor, piece.key, index, raw) {
            fixed.insert(line, (piece.pointer.to_string(), clean));
        }
    }
    let first = fixed.keys().next().map_or(from, |&line| line.min(from));
    let mut index = first;
    originals.rewrite_from(first, |original| {
        let piece = fixed.remove(&index);
        let redo = index >= from;
        index += 1;
        if piece.is_none() && !redo {
            return;
        }
        original.rewrite(|value| {
            let before = value.clone();
            if let Some((pointer, clean)) = &piece
                && let Some(slot) = value.pointer_mut(pointer)
            {
                *slot = Value::String(clean.clone());
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
    if let Some(progress) = parts.in_progress {
        redact_string(redactor, &mut progress.text);
    }
}

/// How much of a streamed text is kept to join with its next pieces: a
/// secret longer than this, split across pieces, is not found whole (no
/// secret the rules know comes near: a 4096-bit RSA key is 3.3 KB).
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
    /// Each piece still in `text`: its stored line and where it starts.
    pieces: Vec<(usize, usize)>,
}

impl Joiner {
    /// Adds the piece `raw` (stored line `line`) to the text `key`; returns
    /// the pieces of that text whose redaction differs from their own
    /// (a secret spans them), each as its line and its redacted text.
    fn feed(
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
        joined.pieces.push((line, joined.text.len()));
        joined.text.push_str(raw);
        let out = joined.spanning(redactor);
        joined.trim();
        out
    }
}

impl Joined {
    /// The pieces a secret of the joined text spans (two pieces or more),
    /// each redacted: its part of every such secret, and its own secrets,
    /// replaced by the mark.
    fn spanning(&self, redactor: &Redactor) -> Vec<(usize, String)> {
        let secrets = redactor.secrets(&self.text);
        let bounds = |k: usize| {
            let start = self.pieces[k].1;
            let end = self.pieces.get(k + 1).map_or(self.text.len(), |p| p.1);
            (start, end)
        };
        let mut touched = BTreeSet::new();
        for secret in &secrets {
            let spans: Vec<usize> = (0..self.pieces.len())
                .filter(|&k| {
                    let (start, end) = bounds(k);
                    secret.start < end && start < secret.end
                })
                .collect();
            if spans.len() > 1 {
                touched.extend(spans);
            }
        }
        touched
            .into_iter()
            .map(|k| {
                let (start, end) = bounds(k);
                let piece = &self.text[start..end];
                // Its own secrets and its parts of the joined text's, merged.
                let mut cuts: Vec<(usize, usize, &str)> = secrets
                    .iter()
                    .filter(|s| s.start < end && start < s.end)
                    .map(|s| {
                        (
                            s.start.max(start) - start,
                            s.end.min(end) - start,
                            redactor.mark(s),
                        )
                    })
                    .collect();
                cuts.extend(
                    redactor
                        .secrets(piece)
                        .iter()
                        .map(|s| (s.start, s.end, redactor.mark(s))),
                );
                cuts.sort_by_key(|&(s, e, _)| (s, std::cmp::Reverse(e)));
                let mut out = String::with_capacity(piece.len());
                let mut at = 0;
                for (s, e, mark) in cuts {
                    if s >= at {
                        out.push_str(&piece[at..s]);
                        out.push_str(mark);
                    }
                    at = at.max(e);
                }
                out.push_str(&piece[at.min(piece.len())..]);
                (self.pieces[k].0, out)
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
            .rposition(|&(_, start)| start <= keep_from)
            .unwrap_or(0);
        let cut = self.pieces[first].1;
        self.pieces.drain(..first);
        self.pieces.iter_mut().for_each(|p| p.1 -= cut);
        self.text.drain(..cut);
    }
}
