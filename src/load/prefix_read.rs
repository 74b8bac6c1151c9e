//! Hashing the first bytes of a rewritten file on several threads at once,
//! without waiting for a thread the machine has not run.
//!
//! After a JP rewrite the bytes parsed before are most of the new file (100 MB
//! of a long conversation), and their hash is what tells the viewer it may
//! parse only the rest (docs/benchmarks.md's history, "Following while earlier turns are
//! in outline"). The chunks of [`PREFIX_CHUNK`] bytes are read (`pread`) and
//! hashed by the caller and up to [`HASH_THREADS`]` - 1` helper threads, each
//! taking the next chunk no one has taken. When the caller runs out of chunks
//! to take, it hashes itself every chunk a helper has taken and not finished:
//! on a busy machine a helper may not be run for several milliseconds, and the
//! new turn must not wait for it. A helper that finishes later finds its chunk
//! done and stops; a helper that cannot be started, or that meets an error,
//! leaves its chunks to the caller, which meets the error itself. The
//! caller takes its chunks a few at a time ([`PrefixHashing::step`]): the
//! viewer answers keys between two steps.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use crate::format::{PREFIX_CHUNK, PrefixHasher};

/// How many bytes a hashing thread reads at a time: the read copies them
/// into a buffer that is still in the core's cache when the hash reads them.
const READ_BUFFER: usize = 128 << 10;

/// At most how many threads (the caller's included) hash a prefix at once.
const HASH_THREADS: usize = 4;

/// The prefix hash of the first `prefix` bytes of `file` on `threads`
/// threads at most, the caller's included, a chunk a step; `None` when the
/// file is shorter.
#[cfg(test)]
fn hash_prefix_with(
    file: &File,
    prefix: usize,
    threads: usize,
) -> io::Result<Option<PrefixHasher>> {
    let mut hashing = PrefixHashing::start_with(file, prefix, threads)?;
    loop {
        if let Hashed::Done(hashed) = hashing.step(file, 1)? {
            return Ok(hashed.map(|hasher| *hasher));
        }
    }
}

/// A prefix hashed a few chunks at a time by the caller
/// ([`PrefixHashing::step`]), helper threads hashing chunks meanwhile: the
/// viewer proves a rewrite's prefix between keys, so that no key waits for
/// the whole of a 1 GB conversation's.
pub(super) struct PrefixHashing {
    board: Arc<Board>,
}

impl Drop for PrefixHashing {
    /// A proof given up (the conversation read again whole meanwhile)
    /// leaves the helpers no chunk to take: they stop after the one they
    /// hash, instead of hashing the rest of the prefix for nobody.
    fn drop(&mut self) {
        self.board
            .next
            .store(self.board.hashed.len(), Ordering::Relaxed);
    }
}

/// What a step of [`PrefixHashing`] left.
pub(super) enum Hashed {
    /// Chunks are left to hash.
    Working,
    /// Every chunk is hashed: the prefix's hash (boxed: a hasher's state
    /// is 744 bytes), or `None` when the file is shorter than the prefix.
    Done(Option<Box<PrefixHasher>>),
}

impl PrefixHashing {
    /// Starts hashing the first `prefix` bytes of `file`, helper threads
    /// taking chunks at once.
    pub(super) fn start(file: &File, prefix: usize) -> io::Result<PrefixHashing> {
        PrefixHashing::start_with(file, prefix, cores().min(HASH_THREADS))
    }

    /// [`PrefixHashing::start`] on `threads` threads at most, the caller's
    /// included.
    fn start_with(file: &File, prefix: usize, threads: usize) -> io::Result<PrefixHashing> {
        let chunks = prefix.div_ceil(PREFIX_CHUNK);
        let helpers = threads.min(chunks).saturating_sub(1);
        let board = Arc::new(Board {
            file: if helpers > 0 {
                Some(file.try_clone()?)
            } else {
                None
            },
            prefix,
            next: AtomicUsize::new(0),
            hashed: (0..chunks).map(|_| OnceLock::new()).collect(),
        });
        for _ in 0..helpers {
            let board = Arc::clone(&board);
            let started = std::thread::Builder::new()
                .name("prefix-hash".to_owned())
                .spawn(move || {
                    if let Some(file) = &board.file {
                        // An error leaves the chunk to the caller, which meets it.
                        let _ = board.take_chunks(file, usize::MAX);
                    }
                });
            if started.is_err() {
                break;
            }
        }
        Ok(PrefixHashing { board })
    }

    /// Hashes up to `chunks` chunks nobody has taken, reading them from
    /// `file` (the file [`PrefixHashing::start`] was given); once none is
    /// left, what the helpers took and have not finished too, and the hash.
    pub(super) fn step(&mut self, file: &File, chunks: usize) -> io::Result<Hashed> {
        if self.board.take_chunks(file, chunks)? {
            Ok(Hashed::Done(self.board.finish(file)?.map(Box::new)))
        } else {
            Ok(Hashed::Working)
        }
    }
}

/// The chunks of one prefix and who has done what: shared by the caller and
/// the helper threads, which may outlive the call.
struct Board {
    /// The file for the helpers (the caller reads through its own handle).
    file: Option<File>,
    /// How many leading bytes are hashed.
    prefix: usize,
    /// The first chunk nobody has taken yet.
    next: AtomicUsize,
    /// Each chunk's hash once a thread has finished it; `None` when the
    /// file ended within it.
    hashed: Box<[OnceLock<Option<PrefixHasher>>]>,
}

impl Board {
    /// The caller's last part, once no chunk is left to take: hashes
    /// itself what a helper took and has not finished, in order (a chunk
    /// cut short ends the prefix there).
    fn finish(&self, file: &File) -> io::Result<Option<PrefixHasher>> {
        if self
            .hashed
            .iter()
            .any(|piece| matches!(piece.get(), Some(None)))
        {
            return Ok(None);
        }
        let mut buffer = Vec::new();
        let mut pieces = Vec::with_capacity(self.hashed.len());
        for index in 0..self.hashed.len() {
            let piece = match self.hashed[index].get() {
                Some(piece) => piece.clone(),
                None => {
                    let piece = self.hash_chunk(file, index, &mut buffer)?;
                    self.hashed[index].get_or_init(|| piece).clone()
                }
            };
            match piece {
                Some(piece) => pieces.push(piece),
                None => return Ok(None),
            }
        }
        Ok(PrefixHasher::concat(pieces))
    }

    /// Takes and hashes the next chunk nobody has taken, `most` of them at
    /// most; whether none is left (all were taken, or the file was found
    /// to end early).
    fn take_chunks(&self, file: &File, most: usize) -> io::Result<bool> {
        let mut buffer = Vec::new();
        for _ in 0..most {
            let index = self.next.fetch_add(1, Ordering::Relaxed);
            if index >= self.hashed.len() {
                return Ok(true);
            }
            let piece = self.hash_chunk(file, index, &mut buffer)?;
            let short = piece.is_none();
            // Set by the caller first if it gave up waiting: the same hash.
            let _ = self.hashed[index].set(piece);
            if short {
                // The chunks after it do not count.
                self.next.store(self.hashed.len(), Ordering::Relaxed);
                return Ok(true);
            }
        }
        Ok(self.next.load(Ordering::Relaxed) >= self.hashed.len())
    }

    /// The prefix hash of chunk `index`, read from `file` through `buffer`;
    /// `None` when the file ends before the chunk does.
    fn hash_chunk(
        &self,
        file: &File,
        index: usize,
        buffer: &mut Vec<u8>,
    ) -> io::Result<Option<PrefixHasher>> {
        let start = index * PREFIX_CHUNK;
        let end = (start + PREFIX_CHUNK).min(self.prefix);
        buffer.resize(READ_BUFFER.min(end - start), 0);
        hash_range(file, start..end, buffer)
    }
}

/// The prefix hash of the bytes of `file` in `range`, read through
/// `buffer`; `None` when the file ends before.
fn hash_range(
    file: &File,
    range: std::ops::Range<usize>,
    buffer: &mut [u8],
) -> io::Result<Option<PrefixHasher>> {
    let mut hasher = PrefixHasher::new();
    let mut at = range.start;
    while at < range.end {
        let want = buffer.len().min(range.end - at);
        let n = match file.read_at(&mut buffer[..want], at as u64) {
            Ok(0) => return Ok(None),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        hasher.update(&buffer[..n]);
        at += n;
    }
    Ok(Some(hasher))
}

/// How many threads can run at once here (asked once: it reads cgroup files).
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

#[cfg(test)]
mod tests {
    use std::io::Write as _;

    use super::*;
    use crate::format::sample_bytes as bytes;

    fn file_of(data: &[u8]) -> (tempfile::NamedTempFile, File) {
        let mut temp = tempfile::NamedTempFile::new().expect("temp file");
        temp.write_all(data).expect("written");
        let file = File::open(temp.path()).expect("opened");
        (temp, file)
    }

    fn read_through(data: &[u8]) -> u64 {
        let mut hasher = PrefixHasher::new();
        hasher.update(data);
        hasher.digest()
    }

    #[test]
    fn any_number_of_threads_gives_the_hash_of_reading_the_prefix_through() {
        let data = bytes(5 * PREFIX_CHUNK + 4_321);
        let (_temp, file) = file_of(&data);
        for prefix in [
            0,
            1,
            PREFIX_CHUNK - 1,
            PREFIX_CHUNK,
            PREFIX_CHUNK + 1,
            3 * PREFIX_CHUNK,
            data.len(),
        ] {
            for threads in [1, 2, 4, 9] {
                let hashed = hash_prefix_with(&file, prefix, threads)
                    .expect("read")
                    .expect("the file is long enough");
                assert_eq!(
                    hashed.digest(),
                    read_through(&data[..prefix]),
                    "{prefix} bytes on {threads} threads"
                );
            }
        }
    }

    #[test]
    fn chunks_a_helper_took_and_never_finished_are_hashed_by_the_caller() {
        let data = bytes(4 * PREFIX_CHUNK + 99);
        let (_temp, file) = file_of(&data);
        let board = Board {
            file: None,
            prefix: data.len(),
            // A helper took the first two chunks and was never run again.
            next: AtomicUsize::new(2),
            hashed: (0..5).map(|_| OnceLock::new()).collect(),
        };
        let mut hashing = PrefixHashing {
            board: Arc::new(board),
        };
        // The caller's steps take the three chunks left, one at a time.
        for _ in 0..2 {
            assert!(matches!(hashing.step(&file, 1), Ok(Hashed::Working)));
        }
        let Ok(Hashed::Done(Some(hashed))) = hashing.step(&file, 1) else {
            panic!("the last chunk taken, the prefix is hashed");
        };
        assert_eq!(hashed.digest(), read_through(&data));
    }

    #[test]
    fn a_proof_given_up_leaves_the_helpers_no_chunk_to_take() {
        let data = bytes(8 * PREFIX_CHUNK);
        let (_temp, file) = file_of(&data);
        // No helper: the caller alone has taken a chunk when it gives up.
        let mut hashing = PrefixHashing::start_with(&file, data.len(), 1).expect("started");
        assert!(matches!(hashing.step(&file, 1), Ok(Hashed::Working)));
        let board = Arc::clone(&hashing.board);
        drop(hashing);
        assert!(board.next.load(Ordering::Relaxed) >= board.hashed.len());
    }

    #[test]
    fn a_file_shorter_than_the_prefix_has_no_prefix_hash() {
        let data = bytes(2 * PREFIX_CHUNK + 10);
        let (_temp, file) = file_of(&data);
        for (prefix, threads) in [
            (data.len() + 1, 1),
            (data.len() + 1, 4),
            (4 * PREFIX_CHUNK, 2),
            (6 * PREFIX_CHUNK, 4),
        ] {
            assert!(
                hash_prefix_with(&file, prefix, threads)
                    .expect("read")
                    .is_none(),
                "{prefix} bytes on {threads} threads"
            );
        }
    }

    #[test]
    fn a_change_in_any_chunk_changes_the_hash() {
        let data = bytes(4 * PREFIX_CHUNK);
        let (_temp, file) = file_of(&data);
        let before = hash_prefix_with(&file, data.len(), 4)
            .expect("read")
            .expect("long enough")
            .digest();
        for at in [0, PREFIX_CHUNK + 17, data.len() - 1] {
            let mut changed = data.clone();
            changed[at] ^= 1;
            let (_temp, file) = file_of(&changed);
            let after = hash_prefix_with(&file, data.len(), 4)
                .expect("read")
                .expect("long enough")
                .digest();
            assert_ne!(after, before, "a byte changed at {at}");
        }
    }
}
