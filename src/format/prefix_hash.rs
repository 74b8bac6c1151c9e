//! The hash that tells a whole-file rewrite still starts with the bytes
//! parsed before ([`super::DocumentReader::prove`]), without keeping
//! those bytes.
//!
//! It is XXH3-64 over fixed chunks of [`PREFIX_CHUNK`] bytes at fixed
//! offsets, then XXH3-64 over the chunks' hashes in order and the length: a
//! function of the bytes alone, however they are fed, so the prefix can be
//! hashed as the file is first read (a piece at a time) and, after a
//! rewrite, its chunks on several threads at once ([`PrefixHasher::concat`]),
//! and the two digests compared. Exact as a 64-bit hash is: two different
//! prefixes share a digest only if a chunk's hashes or the outer hash
//! collide. XXH3's output does not depend on the CPU; twox-hash picks its
//! AVX2 or SSE2 code at run time (the prefix is most of a 100 MB file read
//! on every rewrite), and both digests are made in the same process anyway.

use std::hash::Hasher as _;

use twox_hash::XxHash3_64;

/// The bytes of one chunk: each is hashed on its own, so chunks can be
/// hashed in parallel. Large enough that the outer hash costs nothing.
pub const PREFIX_CHUNK: usize = 1 << 20;

/// Hashes the leading bytes of a document as they are read (see the module
/// doc): [`PrefixHasher::update`] with the bytes in order, then
/// [`PrefixHasher::digest`].
#[derive(Clone)]
pub struct PrefixHasher {
    /// How many bytes were hashed.
    len: usize,
    /// The hash of the digests of the chunks before the current one.
    chunks: XxHash3_64,
    /// The hash of the current (last) chunk's bytes so far; it may be
    /// whole: it is added to `chunks` when the next byte comes.
    current: XxHash3_64,
}

impl Default for PrefixHasher {
    fn default() -> Self {
        PrefixHasher::new()
    }
}

impl std::fmt::Debug for PrefixHasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PrefixHasher")
            .field("len", &self.len)
            .field("digest", &self.digest())
            .finish()
    }
}

impl PrefixHasher {
    /// A hasher that has seen no bytes.
    pub fn new() -> Self {
        PrefixHasher {
            len: 0,
            chunks: XxHash3_64::new(),
            current: XxHash3_64::new(),
        }
    }

    /// Hashes the next `bytes`.
    pub fn update(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            if self.len > 0 && self.len.is_multiple_of(PREFIX_CHUNK) {
                // The current chunk is whole and more bytes follow it.
                let chunk = std::mem::replace(&mut self.current, XxHash3_64::new());
                self.chunks.write_u64(chunk.finish());
            }
            let room = PREFIX_CHUNK - self.len % PREFIX_CHUNK;
            let (now, later) = bytes.split_at(room.min(bytes.len()));
            self.current.write(now);
            self.len += now.len();
            bytes = later;
        }
    }

    /// The hash of every byte it has seen.
    pub fn digest(&self) -> u64 {
        let mut outer = self.chunks.clone();
        if self.len > 0 {
            outer.write_u64(self.current.finish());
        }
        outer.write_u64(self.len as u64);
        outer.finish()
    }

    /// The hasher of consecutive pieces hashed apart (on other threads):
    /// each a fresh [`PrefixHasher`] fed one chunk, whole
    /// ([`PREFIX_CHUNK`] bytes), but for the last, which may be shorter.
    /// `None` when a piece before the last is not a whole chunk.
    pub fn concat(pieces: impl IntoIterator<Item = PrefixHasher>) -> Option<PrefixHasher> {
        let mut all = PrefixHasher::new();
        for piece in pieces.into_iter().filter(|piece| piece.len > 0) {
            if !all.len.is_multiple_of(PREFIX_CHUNK) || piece.len > PREFIX_CHUNK {
                return None;
            }
            if all.len > 0 {
                all.chunks.write_u64(all.current.finish());
            }
            all.current = piece.current;
            all.len += piece.len;
        }
        Some(all)
    }
}

/// Deterministic bytes of any length, different at every offset: a file's
/// content for the tests of hashing it here and in `load/prefix_read.rs`.
#[cfg(test)]
pub(crate) fn sample_bytes(len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u32).wrapping_mul(2_654_435_761).to_le_bytes()[3])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(len: usize) -> Vec<u8> {
        sample_bytes(len)
    }

    fn hashed_in_pieces(bytes: &[u8], piece: usize) -> u64 {
        let mut hasher = PrefixHasher::new();
        for part in bytes.chunks(piece) {
            hasher.update(part);
        }
        hasher.digest()
    }

    fn hashed_in_chunks(bytes: &[u8]) -> u64 {
        let pieces = bytes.chunks(PREFIX_CHUNK).map(|chunk| {
            let mut piece = PrefixHasher::new();
            piece.update(chunk);
            piece
        });
        PrefixHasher::concat(pieces).expect("whole chunks").digest()
    }

    #[test]
    fn the_digest_depends_on_the_bytes_not_on_how_they_were_fed() {
        for len in [
            0,
            1,
            PREFIX_CHUNK - 1,
            PREFIX_CHUNK,
            PREFIX_CHUNK + 1,
            3 * PREFIX_CHUNK + 12_345,
        ] {
            let data = bytes(len);
            let whole = hashed_in_pieces(&data, len.max(1));
            for piece in [1_000, 65_536, PREFIX_CHUNK - 7, PREFIX_CHUNK] {
                assert_eq!(hashed_in_pieces(&data, piece), whole, "{len} by {piece}");
            }
            assert_eq!(hashed_in_chunks(&data), whole, "{len} in chunks");
        }
    }

    #[test]
    fn a_changed_byte_anywhere_or_a_shorter_prefix_changes_the_digest() {
        let data = bytes(2 * PREFIX_CHUNK + 100);
        let whole = hashed_in_chunks(&data);
        for at in [0, PREFIX_CHUNK - 1, PREFIX_CHUNK, 2 * PREFIX_CHUNK + 99] {
            let mut changed = data.clone();
            changed[at] ^= 1;
            assert_ne!(hashed_in_chunks(&changed), whole, "byte {at}");
        }
        assert_ne!(hashed_in_chunks(&data[..data.len() - 1]), whole);
        // Two chunks swapped: same chunk hashes, other order.
        let mut swapped = data[PREFIX_CHUNK..2 * PREFIX_CHUNK].to_vec();
        swapped.extend_from_slice(&data[..PREFIX_CHUNK]);
        let original = hashed_in_chunks(&data[..2 * PREFIX_CHUNK]);
        assert_ne!(hashed_in_chunks(&swapped), original);
    }

    #[test]
    fn a_hasher_continued_after_concat_matches_one_fed_throughout() {
        let data = bytes(2 * PREFIX_CHUNK + 5_000);
        let split = PREFIX_CHUNK + 300;
        let head = data[..split].chunks(PREFIX_CHUNK).map(|chunk| {
            let mut piece = PrefixHasher::new();
            piece.update(chunk);
            piece
        });
        let mut continued = PrefixHasher::concat(head).expect("whole chunks");
        continued.update(&data[split..]);
        assert_eq!(continued.digest(), hashed_in_pieces(&data, 4096));
    }

    #[test]
    fn concat_refuses_a_short_piece_before_the_last() {
        let mut short = PrefixHasher::new();
        short.update(b"short");
        let mut whole = PrefixHasher::new();
        whole.update(&bytes(PREFIX_CHUNK));
        assert!(PrefixHasher::concat([short, whole]).is_none());
    }
}
