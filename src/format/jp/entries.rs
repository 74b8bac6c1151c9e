//! Finds the entries of a JSON array in bytes that arrive a chunk at a time,
//! so that a 100 MB `events.json` can be parsed (or its events counted) entry
//! by entry while it is read, without holding the whole file (peak
//! memory under 2× the file). [`ArrayScanner`] finds entries in a buffer;
//! [`ArrayReader`] keeps that buffer filled from a reader and drained.
//!
//! The scanner only tracks strings, escapes and bracket depth; it validates
//! nothing else. Each entry it finds is parsed by serde_json on its own, and
//! anything unusual (not an array, a trailing comma, text after the array,
//! nesting deep enough to meet serde_json's recursion limit) is reported as
//! [`Scan::Unusual`]: the caller then reads the file whole, the way that
//! reports the exact error.

use std::io::{self, Read};
use std::ops::Range;

use crate::format::surrogates;

/// The UTF-8 byte order mark, which JP's files may start with.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// JSON's whitespace: space, tab, newline, carriage return (not form feed,
/// which Rust's `is_ascii_whitespace` also counts and JSON rejects).
pub fn is_json_space(byte: &u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
}

/// Eight spaces, read as one word.
const SPACES: u64 = u64::from_ne_bytes([b' '; 8]);

/// Where the JSON whitespace that `pos` may start ends in `bytes`: a
/// pretty-printed file's indentation is skipped eight spaces a step, not a
/// byte at a time (which cost `render --turn -1` 4 % more, docs/benchmarks.md,
/// "Row 1's CPU").
pub fn after_space(bytes: &[u8], mut pos: usize) -> usize {
    loop {
        if let Some(word) = bytes.get(pos..pos + 8) {
            let word = u64::from_le_bytes(word.try_into().expect("eight bytes"));
            // The spaces before the first other byte (all eight: 64 / 8).
            let spaces = ((word ^ SPACES).trailing_zeros() / 8) as usize;
            pos += spaces;
            if spaces == 8 {
                continue;
            }
        }
        match bytes.get(pos) {
            Some(byte) if is_json_space(byte) => pos += 1,
            _ => return pos,
        }
    }
}

/// Entries nested deeper than this are left to the whole-file parse, whose
/// recursion limit (128 levels, the array included) decides what they are.
const MAX_DEPTH: usize = 100;

/// What [`ArrayScanner::scan`] found next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scan {
    /// The bytes of one entry ([`ArrayScanner::top_level_ends`] tells where
    /// its top-level strings and nested values end).
    Entry(Range<usize>),
    /// The array's closing `]`, at this offset.
    End(usize),
    /// The buffer ends before the next entry or the array's end does.
    NeedMore,
    /// Something the scanner does not follow; read the file whole.
    Unusual,
}

/// Where the scanner is in the array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Before the array's `[` (a BOM is the caller's business).
    BeforeArray,
    /// Just after `[`: an entry or `]`.
    FirstEntry,
    /// After a `,`: an entry.
    NextEntry,
    /// Inside an entry that started at `start`.
    InEntry {
        start: usize,
        depth: usize,
        in_string: bool,
    },
    /// Inside a number or literal entry (`12`, `null`) that started at `start`.
    InScalar { start: usize },
    /// After an entry: `,` or `]`.
    AfterEntry,
    /// After the array's `]`.
    Done,
}

/// An incremental scanner over a buffer the caller appends to and drains
/// from its front (telling the scanner with [`ArrayScanner::drained`]).
#[derive(Debug, Clone)]
pub struct ArrayScanner {
    state: State,
    /// How far the buffer has been scanned.
    pos: usize,
    /// Where each string and nested value at depth 1 of the entry being
    /// scanned ends (just past it), from the entry's start: an object
    /// entry's keys and the values that take more than a glance to cross,
    /// so that its members are read without walking its bytes again
    /// (one pass over the bytes).
    ends: Vec<usize>,
    /// Whether a `\u` escape was met in the entry being scanned: only then
    /// can it hold a lone surrogate escape (`surrogates::first_lone`, a
    /// search of its bytes that most entries are spared).
    unicode_escape: bool,
}

impl ArrayScanner {
    /// A scanner whose array starts at or after `start` (past a BOM).
    pub fn new(start: usize) -> Self {
        ArrayScanner {
            state: State::BeforeArray,
            pos: start,
            ends: Vec::new(),
            unicode_escape: false,
        }
    }

    /// A scanner of the rest of an array whose bytes up to the end of an
    /// entry were read before: `,` and more entries, or the `]`.
    pub fn after_entry() -> Self {
        ArrayScanner {
            state: State::AfterEntry,
            pos: 0,
            ends: Vec::new(),
            unicode_escape: false,
        }
    }

    /// After [`Scan::Entry`]: where each string and nested value at depth 1
    /// of that entry ends (just past it), in order, counted from the
    /// entry's start — for an object, its keys, string values, arrays and
    /// objects (see [`super::members`]).
    pub fn top_level_ends(&self) -> &[usize] {
        &self.ends
    }

    /// After [`Scan::Entry`]: whether a string of that entry holds a `\u`
    /// escape (else it holds no lone surrogate escape).
    pub fn saw_unicode_escape(&self) -> bool {
        self.unicode_escape
    }

    /// Scans `buf` on from where the last call stopped.
    pub fn scan(&mut self, buf: &[u8]) -> Scan {
        while self.pos < buf.len() {
            let byte = buf[self.pos];
            match self.state {
                State::BeforeArray | State::FirstEntry | State::NextEntry | State::AfterEntry
                    if is_json_space(&byte) =>
                {
                    self.pos = after_space(buf, self.pos);
                }
                State::BeforeArray => {
                    if byte != b'[' {
                        return Scan::Unusual;
                    }
                    self.pos += 1;
                    self.state = State::FirstEntry;
                }
                State::FirstEntry if byte == b']' => {
                    self.state = State::Done;
                    return Scan::End(self.pos);
                }
                State::FirstEntry | State::NextEntry => {
                    let start = self.pos;
                    self.pos += 1;
                    self.ends.clear();
                    self.unicode_escape = false;
                    self.state = match byte {
                        b'{' | b'[' => State::InEntry {
                            start,
                            depth: 1,
                            in_string: false,
                        },
                        b'"' => State::InEntry {
                            start,
                            depth: 0,
                            in_string: true,
                        },
                        b'-' | b'0'..=b'9' | b't' | b'f' | b'n' => State::InScalar { start },
                        _ => return Scan::Unusual,
                    };
                }
                State::InEntry {
                    start,
                    depth,
                    in_string,
                } => {
                    return self.scan_entry(buf, start, depth, in_string);
                }
                State::InScalar { start } => {
                    if is_json_space(&byte) || byte == b',' || byte == b']' {
                        self.state = State::AfterEntry;
                        return Scan::Entry(start..self.pos);
                    }
                    self.pos += 1;
                }
                State::AfterEntry => {
                    self.pos += 1;
                    match byte {
                        b',' => self.state = State::NextEntry,
                        b']' => {
                            self.state = State::Done;
                            return Scan::End(self.pos - 1);
                        }
                        _ => return Scan::Unusual,
                    }
                }
                State::Done => return Scan::Unusual,
            }
        }
        Scan::NeedMore
    }

    /// Scans on inside a string, object or array entry, to its end, the end
    /// of the buffer or something unusual, jumping over string contents in
    /// one search each.
    fn scan_entry(
        &mut self,
        buf: &[u8],
        start: usize,
        mut depth: usize,
        mut in_string: bool,
    ) -> Scan {
        let mut pos = self.pos;
        let found = loop {
            if in_string {
                let Some(at) = memchr::memchr2(b'"', b'\\', &buf[pos..]) else {
                    pos = buf.len();
                    break Scan::NeedMore;
                };
                pos += at;
                if buf[pos] == b'\\' {
                    // The escaped byte may not have arrived yet.
                    if pos + 1 >= buf.len() {
                        break Scan::NeedMore;
                    }
                    self.unicode_escape |= buf[pos + 1] == b'u';
                    pos += 2;
                    continue;
                }
                pos += 1;
                in_string = false;
                match depth {
                    0 => break Scan::Entry(start..pos),
                    1 => self.ends.push(pos - start),
                    _ => {}
                }
                continue;
            }
            let Some(&byte) = buf.get(pos) else {
                break Scan::NeedMore;
            };
            pos += 1;
            match byte {
                b'"' => in_string = true,
                b'\n' => pos = after_space(buf, pos),
                b'{' | b'[' => {
                    depth += 1;
                    if depth > MAX_DEPTH {
                        break Scan::Unusual;
                    }
                }
                b'}' | b']' => {
                    depth -= 1;
                    match depth {
                        0 => break Scan::Entry(start..pos),
                        1 => self.ends.push(pos - start),
                        _ => {}
                    }
                }
                _ => {}
            }
        };
        self.pos = pos;
        self.state = match found {
            Scan::Entry(_) => State::AfterEntry,
            _ => State::InEntry {
                start,
                depth,
                in_string,
            },
        };
        found
    }

    /// The caller removed the first `n` bytes of the buffer (all of them
    /// scanned and outside the entry being scanned, if any).
    pub fn drained(&mut self, n: usize) {
        self.pos -= n;
        if let State::InEntry { start, .. } | State::InScalar { start } = &mut self.state {
            *start -= n;
        }
    }
}

/// What [`ArrayReader::next`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Next<'a> {
    /// The bytes of the next entry, and where its top-level strings and
    /// nested values end (see [`ArrayScanner::top_level_ends`]).
    Entry(&'a [u8], &'a [usize]),
    /// The array's end: [`ArrayReader::finish`] reads what follows.
    End,
    /// Not a plain JSON array of entries, or cut short.
    Unusual,
}

/// Reads a JSON array from `source` a chunk at a time and hands out its
/// entries; only the entry being read and one chunk are held.
#[derive(Debug)]
pub struct ArrayReader<R> {
    source: R,
    chunk: usize,
    /// The bytes read and not yet let go of, `buf[..filled]`; the rest is
    /// room that was read into before, so that it is not zeroed again.
    buf: Vec<u8>,
    filled: usize,
    scanner: ArrayScanner,
    /// Offset in the source of `buf[0]`: the bytes before it are gone.
    drained: usize,
    /// Where in `buf` the last entry handed out ends.
    entry_end: usize,
    /// Offset in the source of the last entry handed out.
    entry_offset: usize,
    /// Where in `buf` the array's `]` is, once found.
    end: Option<usize>,
    eof: bool,
    /// The last entry handed out, its lone surrogate escapes repaired
    /// (`super::super::surrogates`), when it had any; `buf` keeps the
    /// bytes as stored, which the caller hashes.
    repaired: Vec<u8>,
    /// Where in `buf` the first lone surrogate escape of the last entry
    /// handed out is, if it had one.
    lone: Option<usize>,
}

/// What follows the last entry, once the array has ended.
#[derive(Debug)]
pub struct ArrayEnd {
    /// Offset in the source just past the last entry (or the array's `[`).
    pub prefix_len: usize,
    /// The bytes from there to the end of the source.
    pub rest: Vec<u8>,
}

impl<R: Read> ArrayReader<R> {
    /// A reader of the array in `source`, `chunk` bytes a read (a leading
    /// byte order mark is skipped).
    pub fn new(source: R, chunk: usize) -> io::Result<Self> {
        let mut reader = ArrayReader::with(source, chunk, ArrayScanner::new(0), false);
        reader.eof = reader.fill(BOM.len())?;
        if reader.buf[..reader.filled].starts_with(BOM) {
            reader.scanner = ArrayScanner::new(BOM.len());
        }
        Ok(reader)
    }

    /// A reader of what follows an entry of an array read before (see
    /// [`ArrayScanner::after_entry`]): a re-read that parses only what is new.
    pub fn after_entry(source: R, chunk: usize) -> Self {
        ArrayReader::with(source, chunk, ArrayScanner::after_entry(), false)
    }

    fn with(source: R, chunk: usize, scanner: ArrayScanner, eof: bool) -> Self {
        ArrayReader {
            source,
            chunk,
            buf: Vec::new(),
            filled: 0,
            scanner,
            drained: 0,
            entry_end: 0,
            entry_offset: 0,
            end: None,
            eof,
            repaired: Vec::new(),
            lone: None,
        }
    }

    /// The next entry. `dropped` sees every byte before it, in order, as the
    /// buffer lets go of it (the caller may hash them).
    pub fn next(&mut self, mut dropped: impl FnMut(&[u8])) -> io::Result<Next<'_>> {
        loop {
            match self.scanner.scan(&self.buf[..self.filled]) {
                Scan::Entry(range) => {
                    self.entry_end = range.end;
                    self.entry_offset = self.drained + range.start;
                    let entry = &self.buf[range.clone()];
                    self.lone = if self.scanner.saw_unicode_escape() {
                        surrogates::first_lone(entry).map(|at| range.start + at)
                    } else {
                        None
                    };
                    if self.lone.is_none() {
                        return Ok(Next::Entry(entry, self.scanner.top_level_ends()));
                    }
                    self.repaired.clear();
                    self.repaired.extend_from_slice(entry);
                    surrogates::repair(&mut self.repaired);
                    return Ok(Next::Entry(&self.repaired, self.scanner.top_level_ends()));
                }
                Scan::End(at) => {
                    self.end = Some(at);
                    return Ok(Next::End);
                }
                Scan::Unusual => return Ok(Next::Unusual),
                Scan::NeedMore if self.eof => return Ok(Next::Unusual),
                Scan::NeedMore => {
                    dropped(&self.buf[..self.entry_end]);
                    self.buf.copy_within(self.entry_end..self.filled, 0);
                    self.filled -= self.entry_end;
                    self.scanner.drained(self.entry_end);
                    self.drained += self.entry_end;
                    self.entry_end = 0;
                    self.eof = self.fill(self.chunk)?;
                }
            }
        }
    }

    /// Reads up to `want` more bytes after the ones held; true at the
    /// source's end. The buffer grows (zeroed) only when it is too short: a
    /// reader that only implements `read` would otherwise have every chunk
    /// zeroed before it is read into (`Read::read_to_end`).
    fn fill(&mut self, want: usize) -> io::Result<bool> {
        let end = self.filled + want;
        if self.buf.len() < end {
            self.buf.resize(end, 0);
        }
        while self.filled < end {
            match self.source.read(&mut self.buf[self.filled..end]) {
                Ok(0) => return Ok(true),
                Ok(n) => self.filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(false)
    }

    /// The first lone surrogate escape (`\ud83d`) of the last entry
    /// [`ArrayReader::next`] handed out, as stored, if it had one: the entry
    /// was handed out with `\ufffd` in its place.
    pub fn lone_escape(&self) -> Option<&[u8]> {
        self.lone.and_then(|at| self.buf[..self.filled].get(at..at + 6))
    }

    /// Where in the source the last entry [`ArrayReader::next`] handed out
    /// starts.
    #[cfg(feature = "cli")]
    pub fn entry_offset(&self) -> usize {
        self.entry_offset
    }

    /// After [`Next::End`]: reads the rest of the source, which must be
    /// whitespace (`None` otherwise). `dropped` sees the bytes before the
    /// prefix's end that it has not seen yet.
    pub fn finish(mut self, dropped: impl FnOnce(&[u8])) -> io::Result<Option<ArrayEnd>> {
        let Some(end) = self.end else {
            return Ok(None);
        };
        self.buf.truncate(self.filled);
        self.source.read_to_end(&mut self.buf)?;
        if !self.buf[end + 1..].iter().all(is_json_space) {
            return Ok(None);
        }
        // Only whitespace lies between the last entry (or the `[` of an
        // empty array) and the `]`: the prefix ends at the last byte before.
        let prefix_end = self.buf[..end]
            .iter()
            .rposition(|b| !is_json_space(b))
            .map_or(0, |at| at + 1);
        dropped(&self.buf[..prefix_end]);
        self.buf.drain(..prefix_end);
        Ok(Some(ArrayEnd {
            prefix_len: self.drained + prefix_end,
            rest: self.buf,
        }))
    }
}


#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_ends_where_the_first_other_byte_is_however_long_the_run() {
        for spaces in 0..40 {
            for (before, after) in [("", "x"), ("\n", "\"k\""), ("\t\r\n", "}"), ("", "")] {
                let text = format!("{before}{}{after}", " ".repeat(spaces));
                let end = before.len() + spaces;
                assert_eq!(after_space(text.as_bytes(), 0), end, "{text:?}");
                let mixed = format!("{}\t \n{after}", " ".repeat(spaces));
                assert_eq!(after_space(mixed.as_bytes(), 0), spaces + 3, "{mixed:?}");
            }
        }
        assert_eq!(after_space(b"ab  ", 1), 1, "a byte that is not one");
        assert_eq!(after_space(b"a", 5), 5, "past the end");
    }

    /// Every entry of `text`, fed `chunk` bytes at a time; `None` if unusual.
    fn entries(text: &str, chunk: usize) -> Option<Vec<String>> {
        Some(
            entries_and_ends(text, chunk)?
                .into_iter()
                .map(|(entry, _)| entry)
                .collect(),
        )
    }

    /// Every entry of `text` with its top-level ends, fed `chunk` bytes at a
    /// time; `None` if unusual.
    fn entries_and_ends(text: &str, chunk: usize) -> Option<Vec<(String, Vec<usize>)>> {
        let bytes = text.as_bytes();
        let mut scanner = ArrayScanner::new(0);
        let mut buf = Vec::new();
        let mut fed = 0;
        let mut found = Vec::new();
        let mut parsed_end = 0;
        loop {
            match scanner.scan(&buf) {
                Scan::Entry(range) => {
                    let entry = String::from_utf8(buf[range.clone()].to_vec()).unwrap();
                    found.push((entry, scanner.top_level_ends().to_vec()));
                    parsed_end = range.end;
                }
                Scan::End(_) => return Some(found),
                Scan::Unusual => return None,
                Scan::NeedMore => {
                    if fed == bytes.len() {
                        return None;
                    }
                    // Drop what was parsed, as the reader does, then read on.
                    buf.drain(..parsed_end);
                    scanner.drained(parsed_end);
                    parsed_end = 0;
                    let next = (fed + chunk).min(bytes.len());
                    buf.extend_from_slice(&bytes[fed..next]);
                    fed = next;
                }
            }
        }
    }

    /// A source that gives at most `most` bytes a read, as a pipe may.
    struct Trickle<'a> {
        bytes: &'a [u8],
        most: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(self.most).min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    /// Every entry an [`ArrayReader`] hands out of `source`, what the
    /// dropped bytes and the end add up to, and the rest after the array.
    fn read_all(source: impl Read, chunk: usize) -> (Vec<String>, Vec<u8>, Vec<u8>) {
        let mut reader = ArrayReader::new(source, chunk).unwrap();
        let (mut found, mut seen) = (Vec::new(), Vec::new());
        loop {
            match reader.next(|bytes| seen.extend_from_slice(bytes)).unwrap() {
                Next::Entry(entry, _) => found.push(String::from_utf8(entry.to_vec()).unwrap()),
                Next::End => break,
                Next::Unusual => panic!("unusual"),
            }
        }
        let end = reader
            .finish(|bytes| seen.extend_from_slice(bytes))
            .unwrap()
            .unwrap();
        assert_eq!(end.prefix_len, seen.len());
        (found, seen, end.rest)
    }

    #[test]
    fn reads_the_same_entries_from_a_source_that_gives_a_few_bytes_a_read() {
        let long = "x".repeat(300);
        let bom = "\u{feff}";
        let text = format!("{bom}[{{\"a\": \"{long}\"}}, 1, {{}} , \"s\"\n]\n");
        let whole = read_all(text.as_bytes(), 1 << 20);
        assert_eq!(whole.0.len(), 4);
        assert_eq!(whole.0[0].len(), long.len() + 9);
        assert_eq!(whole.1, text.as_bytes()[..text.len() - 3]);
        assert_eq!(whole.2, b"\n]\n");
        for chunk in [1, 2, 3, 7, 64, 1000] {
            for most in [1, 2, 5, 4096] {
                let bytes = text.as_bytes();
                let trickled = read_all(Trickle { bytes, most }, chunk);
                assert_eq!(trickled, whole, "chunk {chunk}, at most {most} a read");
            }
        }
    }

    #[test]
    fn notes_which_entries_hold_a_unicode_escape() {
        let text = br#"[{"a": "\\u not one"}, {"b": "\u00e9"}, "\ud83d", {"c": "plain\n"}]"#;
        let mut scanner = ArrayScanner::new(0);
        let mut seen = Vec::new();
        while let Scan::Entry(_) = scanner.scan(text) {
            seen.push(scanner.saw_unicode_escape());
        }
        assert_eq!(seen, [false, true, true, false]);
    }

    #[test]
    fn finds_each_entry_whatever_the_chunks() {
        let text = r#" [ {"a": "x\"}]{[", "b": [1, {"c": "\\"}]}, "s\"", 12 ,null,
            [true] ,{} ] "#;
        let expected = vec![
            r#"{"a": "x\"}]{[", "b": [1, {"c": "\\"}]}"#,
            r#""s\"""#,
            "12",
            "null",
            "[true]",
            "{}",
        ];
        for chunk in 1..=text.len() {
            assert_eq!(entries(text, chunk).unwrap(), expected, "chunk {chunk}");
        }
    }

    #[test]
    fn notes_where_each_top_level_string_and_nested_value_ends() {
        let text = r#"[{"k": "v\"}", "n": 1, "o": {"p": "}"}, "l": [[]]}, "s", [1, "x"], {}]"#;
        let expected = vec![
            (
                r#"{"k": "v\"}", "n": 1, "o": {"p": "}"}, "l": [[]]}"#,
                vec![4, 12, 17, 25, 37, 42, 48],
            ),
            (r#""s""#, vec![]),
            (r#"[1, "x"]"#, vec![7]),
            ("{}", vec![]),
        ];
        for chunk in 1..=text.len() {
            let found = entries_and_ends(text, chunk).unwrap();
            let found: Vec<(&str, Vec<usize>)> = found
                .iter()
                .map(|(e, ends)| (e.as_str(), ends.clone()))
                .collect();
            assert_eq!(found, expected, "chunk {chunk}");
        }
    }

    #[test]
    fn an_empty_array_has_no_entries() {
        assert_eq!(entries("[]", 1), Some(vec![]));
        assert_eq!(entries(" [ \n ] ", 3), Some(vec![]));
    }

    #[test]
    fn leaves_what_it_does_not_follow_to_the_whole_file_parse() {
        for text in ["{}", "[{},]", "[{} {}]", "[,{}]", "[{}", r#"["abc"#] {
            assert_eq!(entries(text, 2), None, "{text}");
        }
        let deep = format!(
            "[{}{}]",
            "[".repeat(MAX_DEPTH + 1),
            "]".repeat(MAX_DEPTH + 1)
        );
        assert_eq!(entries(&deep, 64), None);
        let fine = format!("[{}{}]", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert_eq!(entries(&fine, 64).map(|e| e.len()), Some(1));
    }
}
