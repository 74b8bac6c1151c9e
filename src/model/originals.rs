//! The stored lines of a stream, kept for the raw view: compressed in chunks,
//! since a followed stream keeps every line it reads and the raw view shows a
//! screenful at a time.
//!
//! Each line keeps a small record (its number, where its text ends, the turn
//! it names as an index into the turn ids seen). The texts are appended to an
//! open chunk; once it holds [`CHUNK`] bytes it is compressed (LZ4, pure
//! Rust) and a new one opened. A line is read back whole from its chunk
//! ([`Originals::get`]): a line never straddles two chunks.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::original::Original;

/// How many bytes of text a chunk holds before it is compressed: large
/// enough for the lines of a stream to share their repeated keys, small
/// enough that reading one line back decompresses little.
pub const CHUNK: usize = 32 * 1024;

/// The stored lines of a stream, in the order read ([`Original`] each).
#[derive(Clone, Default)]
pub struct Originals {
    /// One record per line.
    records: Vec<Record>,
    /// The lines' texts.
    text: PackedText,
    /// The turn ids the lines name, each once; a record's `turn` is its
    /// index here plus one.
    turn_ids: Vec<Box<str>>,
    /// Where each turn id is in `turn_ids`.
    turn_index: HashMap<Box<str>, u32>,
    /// Why a line could not be read, by record index (rare: kept apart).
    errors: Vec<(usize, Box<str>)>,
}

/// What is kept of one line besides its text.
#[derive(Debug, Clone, Copy)]
struct Record {
    /// 1-based line number in the stream.
    line: usize,
    /// Where the line's text ends in the concatenated texts (it starts where
    /// the previous line's ends).
    end: u64,
    /// The turn id the line names: index into `turn_ids` plus one, 0 for none.
    turn: u32,
    /// Whether the line parsed (it has a text).
    parsed: bool,
}

/// Texts appended one after another: compressed chunks, and the open one.
#[derive(Default)]
struct PackedText {
    /// The compressed chunks, by where their text starts.
    sealed: Vec<Sealed>,
    /// Where the open chunk starts in the concatenated texts.
    open_start: u64,
    /// The open chunk's text, not compressed yet.
    open: Vec<u8>,
    /// The chunk read last, decompressed (where it starts, its text): lines
    /// are mostly read in order (a screenful, a search), so a chunk is
    /// decompressed once for all its lines.
    last: Mutex<Option<(u64, Arc<[u8]>)>>,
}

impl Clone for PackedText {
    fn clone(&self) -> Self {
        PackedText {
            sealed: self.sealed.clone(),
            open_start: self.open_start,
            open: self.open.clone(),
            last: Mutex::default(),
        }
    }
}

/// One compressed chunk.
#[derive(Clone)]
struct Sealed {
    /// Where its text starts in the concatenated texts.
    start: u64,
    /// Its text, LZ4-compressed with its size in front.
    packed: Box<[u8]>,
}

impl PackedText {
    /// The end of everything appended.
    fn end(&self) -> u64 {
        self.open_start + self.open.len() as u64
    }

    /// Appends one line's text; returns where it ends.
    fn push(&mut self, text: &[u8]) -> u64 {
        self.open.extend_from_slice(text);
        let end = self.end();
        if self.open.len() >= CHUNK {
            let packed = lz4_flex::block::compress_prepend_size(&self.open);
            self.sealed.push(Sealed {
                start: self.open_start,
                packed: packed.into_boxed_slice(),
            });
            self.open_start = end;
            self.open = Vec::new();
        }
        end
    }

    /// The text between `start` and `end` (within one chunk).
    fn get(&self, start: u64, end: u64) -> Cow<'_, [u8]> {
        if start >= self.open_start {
            let at = |offset: u64| (offset - self.open_start) as usize;
            return Cow::Borrowed(&self.open[at(start)..at(end)]);
        }
        let chunk = &self.sealed[self.sealed.partition_point(|c| c.start <= start) - 1];
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        let text = match &*last {
            Some((at, text)) if *at == chunk.start => text.clone(),
            _ => {
                let text: Arc<[u8]> = unpack(chunk).into();
                *last = Some((chunk.start, text.clone()));
                text
            }
        };
        let at = |offset: u64| (offset - chunk.start) as usize;
        Cow::Owned(text[at(start)..at(end)].to_vec())
    }

    /// Keeps the texts up to `end` (a line's end).
    fn truncate(&mut self, end: u64) {
        if end < self.open_start {
            let keep = self.sealed.partition_point(|c| c.start < end);
            let reopened = self.sealed.drain(keep.saturating_sub(1)..).next();
            match reopened {
                Some(chunk) => {
                    self.open_start = chunk.start;
                    self.open = unpack(&chunk);
                }
                None => {
                    self.open_start = 0;
                    self.open.clear();
                }
            }
        }
        self.open.truncate((end - self.open_start) as usize);
        *self.last.get_mut().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

/// A chunk's text.
fn unpack(chunk: &Sealed) -> Vec<u8> {
    lz4_flex::block::decompress_size_prepended(&chunk.packed)
        .expect("a chunk this store compressed")
}

impl Originals {
    /// No lines.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many lines are kept.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether no line is kept.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Line `index` (0-based among the kept lines), read back.
    pub fn get(&self, index: usize) -> Option<Original> {
        let record = self.records.get(index)?;
        let start = self.start(index);
        let text = self.text.get(start, record.end);
        let error = self
            .errors
            .binary_search_by_key(&index, |(i, _)| *i)
            .ok()
            .map(|at| self.errors[at].1.to_string());
        Some(Original::new(
            record.line,
            &text,
            record.parsed,
            self.turn_id(index),
            error,
        ))
    }

    /// The 1-based stream line number of line `index`.
    pub fn line(&self, index: usize) -> Option<usize> {
        self.records.get(index).map(|r| r.line)
    }

    /// The turn line `index` names, if any (no text is read back).
    pub fn turn_id(&self, index: usize) -> Option<&str> {
        let turn = self.records.get(index)?.turn;
        let at = usize::try_from(turn.checked_sub(1)?).ok()?;
        self.turn_ids.get(at).map(|id| &**id)
    }

    /// The lines, read back in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            originals: self,
            next: 0,
        }
    }

    /// Appends a line.
    pub fn push(&mut self, original: Original) {
        let index = self.records.len();
        let turn = match original.turn_id() {
            Some(id) => self.intern(id),
            None => 0,
        };
        let end = match &original.json {
            Some(json) => self.text.push(json.as_bytes()),
            None => self.text.end(),
        };
        if let Some(error) = original.error {
            self.errors.push((index, error));
        }
        self.records.push(Record {
            line: original.line,
            end,
            turn,
            parsed: original.json.is_some(),
        });
    }

    /// Keeps the first `len` lines.
    pub fn truncate(&mut self, len: usize) {
        if len >= self.records.len() {
            return;
        }
        self.records.truncate(len);
        self.text.truncate(self.records.last().map_or(0, |r| r.end));
        self.errors.retain(|(i, _)| *i < len);
    }

    /// Keeps the texts of the lines `keep` names (by index) and forgets the
    /// others': their records stay (number, turn, error), read back as
    /// lines without text, so every index still names its line. Only the
    /// texts kept are read back and stored again.
    #[cfg(feature = "cli")]
    pub fn keep_texts(&mut self, keep: impl Fn(usize) -> bool) {
        let mut kept = PackedText::default();
        let mut records = Vec::with_capacity(self.records.len());
        for (index, record) in self.records.iter().enumerate() {
            let parsed = record.parsed && keep(index);
            let end = if parsed {
                kept.push(&self.text.get(self.start(index), record.end))
            } else {
                kept.end()
            };
            records.push(Record {
                end,
                parsed,
                ..*record
            });
        }
        self.records = records;
        self.text = kept;
    }

    /// Changes the lines from `from` on through `change` (redaction): each
    /// is read back and changed once. Only the lines that changed are
    /// stored again, with the lines after the first of them: a store whose
    /// lines hold nothing to change is left as it is, not packed again.
    pub fn rewrite_from(&mut self, from: usize, mut change: impl FnMut(&mut Original)) {
        // The changed lines, kept compressed meanwhile: they may be a whole
        // stream's.
        let mut changed = Originals::new();
        let mut changed_at = Vec::new();
        for (index, original) in self.iter().enumerate().skip(from) {
            let mut now = original.clone();
            change(&mut now);
            if now != original {
                changed.push(now);
                changed_at.push(index);
            }
        }
        let Some(&first) = changed_at.first() else {
            return;
        };
        let mut rewritten = Originals::new();
        let mut next = changed_at.iter().zip(changed.iter()).peekable();
        for (index, original) in self.iter().enumerate().skip(first) {
            match next.next_if(|(at, _)| **at == index) {
                Some((_, now)) => rewritten.push(now),
                None => rewritten.push(original),
            }
        }
        if first == 0 {
            // Every line stored again: the new store is the store.
            *self = rewritten;
            return;
        }
        self.truncate(first);
        self.extend(rewritten.iter());
    }

    /// Where line `index`'s text starts.
    fn start(&self, index: usize) -> u64 {
        index
            .checked_sub(1)
            .and_then(|before| self.records.get(before))
            .map_or(0, |r| r.end)
    }

    /// The number `turn_ids` gives `id` (plus one), adding it if new.
    fn intern(&mut self, id: &str) -> u32 {
        if let Some(at) = self.turn_index.get(id) {
            return at + 1;
        }
        let at = u32::try_from(self.turn_ids.len()).unwrap_or(u32::MAX - 1);
        self.turn_ids.push(id.into());
        self.turn_index.insert(id.into(), at);
        at + 1
    }
}

impl PartialEq for Originals {
    /// The same lines, however they were chunked.
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl std::fmt::Debug for Originals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Extend<Original> for Originals {
    fn extend<I: IntoIterator<Item = Original>>(&mut self, lines: I) {
        lines.into_iter().for_each(|line| self.push(line));
    }
}

impl FromIterator<Original> for Originals {
    fn from_iter<I: IntoIterator<Item = Original>>(lines: I) -> Self {
        let mut originals = Originals::new();
        originals.extend(lines);
        originals
    }
}

/// The lines of an [`Originals`], read back one by one.
#[derive(Debug)]
pub struct Iter<'a> {
    originals: &'a Originals,
    next: usize,
}

impl Iterator for Iter<'_> {
    type Item = Original;

    fn next(&mut self) -> Option<Original> {
        let original = self.originals.get(self.next)?;
        self.next += 1;
        Some(original)
    }

    fn nth(&mut self, n: usize) -> Option<Original> {
        self.next = self.next.saturating_add(n);
        self.next()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.originals.len().saturating_sub(self.next);
        (left, Some(left))
    }
}

impl<'a> IntoIterator for &'a Originals {
    type Item = Original;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Line `n` of a stream: JSON naming a turn, every seventh malformed.
    fn line(n: usize) -> Original {
        let turn = format!("turn_{}", n / 20);
        if n.is_multiple_of(7) {
            return Original::new(n, b"{oops", false, None, Some(format!("bad {n}")));
        }
        let json = format!(
            r#"{{"type":"message","n":{n},"turnId":"{turn}","pad":"{}"}}"#,
            "x".repeat(n % 50)
        );
        Original::new(n, json.as_bytes(), true, Some(&turn), None)
    }

    #[test]
    fn lines_read_back_as_they_were_stored_across_chunks() {
        let lines: Vec<Original> = (1..5_000).map(line).collect();
        let store: Originals = lines.iter().cloned().collect();
        assert!(store.text.sealed.len() > 5, "several chunks");
        assert_eq!(store.len(), lines.len());
        assert_eq!(store.iter().collect::<Vec<_>>(), lines);
        for (i, original) in lines.iter().enumerate() {
            assert_eq!(store.turn_id(i), original.turn_id());
            assert_eq!(store.line(i), Some(original.line));
        }
    }

    #[test]
    fn lines_whose_texts_are_forgotten_keep_their_places() {
        let lines: Vec<Original> = (1..5_000).map(line).collect();
        let mut store: Originals = lines.iter().cloned().collect();
        let keep = |index: usize| index % 1_000 == 3 || index == 4_998;
        store.keep_texts(keep);
        assert_eq!(store.len(), lines.len());
        assert!(store.text.sealed.is_empty(), "six short lines kept: one chunk");
        for (index, (now, was)) in store.iter().zip(&lines).enumerate() {
            assert_eq!(now.line, was.line, "line {index}: its number");
            assert_eq!(now.turn_id(), was.turn_id(), "line {index}: its turn");
            assert_eq!(now.error, was.error, "line {index}: why it was skipped");
            let text = if keep(index) { was.json.clone() } else { None };
            assert_eq!(now.json, text, "line {index}: its text");
        }
    }

    #[test]
    fn stored_lines_take_a_fraction_of_their_text() {
        let lines: Vec<Original> = (1..20_000).map(line).collect();
        let text: usize = lines
            .iter()
            .filter_map(|o| o.json.as_ref())
            .map(|j| j.len())
            .sum();
        let store: Originals = lines.into_iter().collect();
        let packed: usize = store
            .text
            .sealed
            .iter()
            .map(|c| c.packed.len())
            .sum::<usize>()
            + store.text.open.len();
        let records = store.records.len() * std::mem::size_of::<Record>();
        assert!(
            packed + records < text / 2,
            "{packed} bytes of text and {records} of records for {text} bytes"
        );
    }

    #[test]
    fn truncating_and_rewriting_keep_the_other_lines() {
        let lines: Vec<Original> = (1..3_000).map(line).collect();
        for cut in [0, 1, 700, 1_234, 2_998, 2_999] {
            let mut store: Originals = lines.iter().cloned().collect();
            store.truncate(cut);
            assert_eq!(
                store.iter().collect::<Vec<_>>(),
                lines[..cut],
                "cut at {cut}"
            );
            store.extend(lines[cut..].iter().cloned());
            assert_eq!(
                store.iter().collect::<Vec<_>>(),
                lines,
                "cut at {cut}, grown again"
            );
        }
        let mut store: Originals = lines.iter().cloned().collect();
        store.rewrite_from(1_000, |o| {
            o.rewrite(|value| {
                value["type"] = "redacted".into();
                true
            })
        });
        let changed: Vec<Original> = store.iter().collect();
        assert_eq!(changed[..1_000], lines[..1_000]);
        let second = changed[1_001].fields().unwrap();
        assert_eq!(second["type"], "redacted");
        assert_eq!(changed[1_001].turn_id(), lines[1_001].turn_id());
        assert_eq!(changed[1_001].error, None);

        // From the first line on: every line changed, none lost, and the
        // store keeps growing after it.
        let mut store: Originals = lines.iter().cloned().collect();
        store.rewrite_from(0, |o| {
            o.rewrite(|value| {
                value["type"] = "redacted".into();
                true
            })
        });
        store.push(line(3_000));
        let changed: Vec<Original> = store.iter().collect();
        assert_eq!(changed.len(), lines.len() + 1);
        for (now, was) in changed.iter().zip(&lines) {
            match now.fields() {
                Some(value) => assert_eq!(value["type"], "redacted"),
                // A line that did not parse is kept as it was.
                None => assert_eq!(now, was),
            }
            assert_eq!((now.line, now.turn_id()), (was.line, was.turn_id()));
        }
        assert_eq!(changed[lines.len()], line(3_000));

        // A few lines changed among many: those, and only those, differ;
        // none changed: the store reads as before.
        for from in [0, 500] {
            let mut store: Originals = lines.iter().cloned().collect();
            store.rewrite_from(from, |o| {
                if o.line % 400 == 1 {
                    o.rewrite(|value| {
                        value["type"] = "redacted".into();
                        true
                    });
                }
            });
            for (index, (now, was)) in store.iter().zip(&lines).enumerate() {
                let rewritten = index >= from && was.line % 400 == 1 && was.fields().is_some();
                assert_eq!(now != *was, rewritten, "line {}, from {from}", was.line);
            }
            assert_eq!(store.len(), lines.len());
            store.rewrite_from(from, |_| {});
            assert_eq!(store.len(), lines.len());
        }
        let mut store: Originals = lines.iter().cloned().collect();
        store.rewrite_from(0, |_| {});
        assert_eq!(store.iter().collect::<Vec<_>>(), lines);
    }
}
