//! Following a JP conversation across JP's whole-file rewrites, and reading
//! it the first time without holding the whole file.
//!
//! JP rewrites `events.json` whole on every change. When the new file starts
//! with the bytes already parsed, only the new tail of the array is parsed
//! ([`JpStream::update`]); the first read parses entry by entry as the file
//! is read ([`JpStream::read_from`]), so a 100 MB conversation costs its
//! events in memory, not its events and its bytes.

use std::io::{self, Read};

use twox_hash::XxHash3_64;

use super::entries::{ArrayEnd, ArrayReader, Next, is_json_space};
use super::entry;
use super::{Generation, JpLoad, LoadError, Reader, load, parsed_base, strip_bom};
use crate::format::PrefixHasher;

/// How much of the file is read at a time by [`JpStream::read_from`].
const CHUNK: usize = 1 << 20;

/// How a re-read changed the conversation.
#[derive(Debug, Clone, PartialEq)]
pub enum Delta {
    /// The bytes are the same as last time.
    Unchanged,
    /// The file kept everything parsed before: these events (and diagnostics,
    /// indexed in the whole file) follow the ones already read.
    Appended(JpLoad),
    /// The file changed in the middle (or the base config changed): this is
    /// the whole conversation, re-read.
    #[cfg(any(test, feature = "internals"))]
    Reloaded(JpLoad),
}

/// Follows a conversation across JP's whole-file rewrites. It keeps no
/// events, only what it needs to recognise the bytes it has parsed: the
/// caller owns the events it hands out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JpStream {
    /// Length of the stored bytes up to the end of the last parsed entry.
    prefix_len: usize,
    /// Hash of those bytes, so a rewrite can be compared without keeping them.
    prefix_hash: u64,
    /// Number of stored entries parsed (including a legacy base entry).
    entries: usize,
    /// Hash of the bytes after the last entry (the array's end), so an
    /// unchanged rewrite is spotted by the same pass that checks the prefix.
    rest_hash: u64,
    base_hash: Option<u64>,
}

impl JpStream {
    /// Reads a conversation for the first time.
    pub fn open(
        events_json: &[u8],
        base_config_json: Option<&[u8]>,
    ) -> Result<(Self, JpLoad), LoadError> {
        let mut stream = JpStream::default();
        let load = stream.reload(events_json, base_config_json)?;
        Ok((stream, load))
    }

    /// Reads a conversation for the first time from `events` as it arrives,
    /// parsing each entry as soon as it is whole and dropping its bytes: the
    /// file is never held in memory. The result is what [`JpStream::open`]
    /// makes of the same bytes. `Ok(None)` when the file is not a plain JSON
    /// array of entries (a syntax error, text after the array, nesting near
    /// serde_json's limit) or the base config is not JSON: read the file
    /// whole and use [`JpStream::open`], which reports exactly what is wrong.
    pub fn read_from(
        events: &mut impl Read,
        base_config_json: Option<&[u8]>,
    ) -> io::Result<Option<(Self, JpLoad)>> {
        Self::read_in_chunks(events, base_config_json, CHUNK)
    }

    /// [`JpStream::read_from`], reading `chunk` bytes at a time.
    fn read_in_chunks(
        events: &mut impl Read,
        base_config_json: Option<&[u8]>,
        chunk: usize,
    ) -> io::Result<Option<(Self, JpLoad)>> {
        let Some(base) = parsed_base(base_config_json) else {
            return Ok(None);
        };
        let mut reader = Reader::new(base.is_some(), 0);
        let mut hasher = PrefixHasher::new();
        let entries = ArrayReader::new(events, chunk)?;
        let Some(end) = parse_entries(entries, &mut reader, |bytes| hasher.update(bytes))? else {
            return Ok(None);
        };
        let stream = JpStream::after_read(&end, &hasher, reader.entries_read(), base_config_json);
        let mut load = reader.finish();
        if let Some(base) = base {
            load.base_config = Some(base);
            load.generation = Some(Generation::Current);
        }
        Ok(Some((stream, load)))
    }

    /// The follower of a file read for the first time up to `end`, whose
    /// bytes before `end.prefix_len` `hasher` has hashed, holding `entries`
    /// stored entries.
    pub(super) fn after_read(
        end: &ArrayEnd,
        hasher: &PrefixHasher,
        entries: usize,
        base_config_json: Option<&[u8]>,
    ) -> Self {
        JpStream {
            prefix_len: end.prefix_len,
            prefix_hash: hasher.digest(),
            entries,
            rest_hash: XxHash3_64::oneshot(&end.rest),
            base_hash: base_config_json.map(XxHash3_64::oneshot),
        }
    }

    /// Re-reads after a rewrite: parses only the new tail when the file still
    /// starts with the bytes parsed before, else everything.
    #[cfg(any(test, feature = "internals"))]
    pub fn update(
        &mut self,
        events_json: &[u8],
        base_config_json: Option<&[u8]>,
    ) -> Result<Delta, LoadError> {
        if let Some(prefix) = events_json.get(..self.prefix_len) {
            // One pass over the bytes parsed before, whatever happens next:
            // a 100 MB conversation is not hashed again and again.
            let mut hasher = PrefixHasher::new();
            hasher.update(prefix);
            let rest = &events_json[self.prefix_len..];
            if let Some(delta) = self.update_rest(hasher, rest, base_config_json) {
                return Ok(delta);
            }
        }
        Ok(Delta::Reloaded(self.reload(events_json, base_config_json)?))
    }

    /// A reader that knows none of the file's bytes: its first change is
    /// read whole, as a new file. For a file read without hashing it
    /// (`JpSparse`, for printing), and a follower whose last change could
    /// not be proven.
    pub fn unfollowed() -> Self {
        JpStream {
            prefix_len: usize::MAX,
            ..JpStream::default()
        }
    }

    /// How many leading bytes of the file were parsed before (see
    /// [`JpStream::read_rest`]).
    pub fn prefix_len(&self) -> usize {
        self.prefix_len
    }

    /// [`JpStream::update`] for a file read in two parts, so that a reader
    /// need not hold the whole file ([`JpStream::read_rest`], then
    /// [`JpStream::prove`]): `hasher` has hashed its first
    /// [`JpStream::prefix_len`] bytes as they were read, and `rest` is what
    /// follows them. `None` when only re-reading the whole file will do (the
    /// bytes parsed before or the base config changed): pass it all to
    /// [`JpStream::update`] then.
    #[cfg(any(test, feature = "internals"))]
    pub fn update_rest(
        &mut self,
        hasher: PrefixHasher,
        rest: &[u8],
        base_config_json: Option<&[u8]>,
    ) -> Option<Delta> {
        let (delta, ahead) = self.read_rest(rest, base_config_json)?;
        self.prove(hasher, rest, ahead).then_some(delta)
    }

    /// The first half of re-reading a file in two parts, for a reader that shows
    /// a rewrite's new entries before it has read the bytes before them:
    /// what `rest`, the bytes after [`JpStream::prefix_len`], holds if those
    /// bytes are unchanged. The follower is left as it was until
    /// [`JpStream::prove`] is given their hash. `None` when only re-reading
    /// the whole file will do (the base config changed, `rest` is not the
    /// end of an array of entries).
    pub fn read_rest(
        &self,
        rest: &[u8],
        base_config_json: Option<&[u8]>,
    ) -> Option<(Delta, Ahead)> {
        if base_config_json.map(XxHash3_64::oneshot) != self.base_hash {
            return None;
        }
        if XxHash3_64::oneshot(rest) == self.rest_hash {
            let ahead = Ahead {
                entries_len: 0,
                entries: self.entries,
                rest_hash: self.rest_hash,
            };
            return Some((Delta::Unchanged, ahead));
        }
        let (load, ahead) = self.read_appended(rest)?;
        Some((Delta::Appended(load), ahead))
    }

    /// The second half of re-reading a file in two parts: whether the file's
    /// first [`JpStream::prefix_len`] bytes, which `hasher` has hashed, are
    /// the bytes parsed before. If so the follower takes what
    /// [`JpStream::read_rest`] read in `rest` (`ahead`) and is ready for the
    /// next rewrite; if not it is left as it was, and only re-reading the
    /// whole file will do.
    pub fn prove(&mut self, mut hasher: PrefixHasher, rest: &[u8], ahead: Ahead) -> bool {
        if hasher.digest() != self.prefix_hash {
            return false;
        }
        hasher.update(&rest[..ahead.entries_len]);
        self.prefix_len += ahead.entries_len;
        self.prefix_hash = hasher.digest();
        self.entries = ahead.entries;
        self.rest_hash = ahead.rest_hash;
        true
    }

    fn reload(
        &mut self,
        events_json: &[u8],
        base_config_json: Option<&[u8]>,
    ) -> Result<JpLoad, LoadError> {
        let load = load(events_json, base_config_json)?;
        let bytes = strip_bom(events_json);
        let bom = events_json.len() - bytes.len();
        let prefix_len = bom + last_entry_end(bytes).unwrap_or(0);
        self.entries = load.events.len()
            + usize::from(matches!(
                load.generation,
                Some(Generation::LegacyWrapped | Generation::LegacyFlattened)
            ));
        self.prefix_len = prefix_len;
        let mut hasher = PrefixHasher::new();
        hasher.update(&events_json[..prefix_len]);
        self.prefix_hash = hasher.digest();
        self.rest_hash = XxHash3_64::oneshot(&events_json[prefix_len..]);
        self.base_hash = base_config_json.map(XxHash3_64::oneshot);
        Ok(load)
    }

    /// Parses `after`, what follows the known prefix; `None` when that is
    /// not possible (a trailing comma, text after the array: a re-read
    /// reports them as a fresh load does).
    fn read_appended(&self, after: &[u8]) -> Option<(JpLoad, Ahead)> {
        // An empty array is re-read whole: its first entry may be a legacy base.
        if self.entries == 0 {
            return None;
        }
        let mut reader = Reader::new(true, self.entries);
        let entries = ArrayReader::after_entry(after, after.len().max(1));
        // The bytes are hashed once they are proven to follow the prefix.
        let end = parse_entries(entries, &mut reader, |_| {}).ok()??;
        let ahead = Ahead {
            entries_len: end.prefix_len,
            entries: reader.entries_read(),
            rest_hash: XxHash3_64::oneshot(&end.rest),
        };
        Some((reader.finish(), ahead))
    }
}

/// What a rewrite holds after the bytes a [`JpStream`] parsed before, read
/// before those bytes are proven unchanged ([`JpStream::read_rest`]): what
/// the follower takes once they are ([`JpStream::prove`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ahead {
    /// How many leading bytes of the rest the new entries take.
    entries_len: usize,
    /// How many stored entries the file holds up to their end.
    entries: usize,
    /// The hash of the bytes after them (the array's end).
    rest_hash: u64,
}

/// Parses each entry `entries` hands out into `reader`, handing every byte
/// up to the end of the last one to `hashed`; what follows the last entry,
/// or `None` when the bytes are not a plain array of entries.
fn parse_entries<R: Read>(
    mut entries: ArrayReader<R>,
    reader: &mut Reader,
    mut hashed: impl FnMut(&[u8]),
) -> io::Result<Option<ArrayEnd>> {
    // Each entry's members, the vector kept from one entry to the next.
    let mut found = Vec::new();
    loop {
        match entries.next(&mut hashed)? {
            Next::Entry(bytes, ends) => {
                let Ok(entry) = entry::read(bytes, ends, &mut found) else {
                    return Ok(None);
                };
                reader.push(entry);
            }
            Next::End => break,
            Next::Unusual => return Ok(None),
        }
        if let Some(escape) = entries.lone_escape() {
            reader.note_lone(escape);
        }
    }
    entries.finish(hashed)
}

/// Byte offset just past the last entry of a JSON array: the array's closing
/// `]` with the whitespace before it removed. `None` if it does not end in `]`.
fn last_entry_end(bytes: &[u8]) -> Option<usize> {
    let end = bytes.iter().rposition(|b| !is_json_space(b))?;
    if bytes[end] != b']' {
        return None;
    }
    let before = bytes[..end].iter().rposition(|b| !is_json_space(b))?;
    Some(before + 1)
}

#[cfg(test)]
pub(super) mod tests;
