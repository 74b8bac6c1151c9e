//! Reading a stream as it arrives (`curl -N … | overhear -`, a FIFO,
//! `/dev/fd/N`): exactly once, on a background thread, into a bounded inbox.
//!
//! Reads block, so they happen on a thread of their own. What they bring is
//! kept in a [`StreamInbox`] holding at most [`INBOX_BYTES`]: when the viewer
//! falls behind a writer that floods it, the thread stops reading and the
//! pipe pushes back on the writer, instead of a queue of pending chunks
//! growing without end. The viewer is told once that bytes are waiting, and
//! takes them in slices ([`StreamInbox::take`]) between the keys it handles.

use std::io::{self, Read};
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;

/// The most bytes an inbox holds before its reader waits for room.
pub const INBOX_BYTES: usize = 4 << 20;

/// How a stream ended.
#[derive(Debug)]
pub enum StreamEnd {
    /// The writer closed it.
    Closed,
    /// Reading failed (the message names the stream).
    Failed(io::Error),
}

/// What [`StreamInbox::take`] took.
#[derive(Debug, Default)]
pub struct Taken {
    /// Bytes in the order they arrived; may end mid-line.
    pub bytes: Vec<u8>,
    /// Set once, with the last bytes: nothing more will come.
    pub end: Option<StreamEnd>,
}

/// Told that an inbox has bytes (or its end) waiting, once until they are
/// taken: the viewer sends itself an event with the inbox.
type Announce = Box<dyn Fn(StreamInbox) + Send + Sync>;

struct State {
    bytes: Vec<u8>,
    end: Option<StreamEnd>,
    /// An announcement is out and its taker has not taken everything yet.
    announced: bool,
}

struct Shared {
    state: Mutex<State>,
    room: Condvar,
    announce: Announce,
}

/// Bytes read from a stream, waiting to be taken; cheap to clone (shared).
#[derive(Clone)]
pub struct StreamInbox {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for StreamInbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamInbox").finish_non_exhaustive()
    }
}

impl StreamInbox {
    /// An empty inbox; `announce` is called (with the inbox) whenever bytes
    /// or the end arrive while no announcement is out.
    pub fn new(announce: impl Fn(StreamInbox) + Send + Sync + 'static) -> Self {
        StreamInbox {
            shared: Arc::new(Shared {
                state: Mutex::new(State {
                    bytes: Vec::new(),
                    end: None,
                    announced: false,
                }),
                room: Condvar::new(),
                announce: Box::new(announce),
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere cannot leave the state half-changed: use it.
        self.shared
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Adds bytes, waiting first while the inbox is full.
    pub fn put(&self, bytes: &[u8]) {
        let mut state = self.lock();
        while state.bytes.len() >= INBOX_BYTES {
            state = self
                .shared
                .room
                .wait(state)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
        state.bytes.extend_from_slice(bytes);
        self.announce(state);
    }

    /// Marks the end of the stream.
    pub fn finish(&self, end: StreamEnd) {
        let mut state = self.lock();
        state.end = Some(end);
        self.announce(state);
    }

    fn announce(&self, mut state: MutexGuard<'_, State>) {
        if !std::mem::replace(&mut state.announced, true) {
            drop(state);
            (self.shared.announce)(self.clone());
        }
    }

    /// Takes up to `max` of the waiting bytes (the end only with the last of
    /// them). When more are left, announces them again: the taker handles
    /// what else happened in between (keys, signals) before the next slice.
    pub fn take(&self, max: usize) -> Taken {
        let mut state = self.lock();
        let n = state.bytes.len().min(max);
        let bytes = if n == state.bytes.len() {
            std::mem::take(&mut state.bytes)
        } else {
            state.bytes.drain(..n).collect()
        };
        self.shared.room.notify_all();
        let more = !state.bytes.is_empty();
        let end = if more { None } else { state.end.take() };
        state.announced = false;
        if more {
            self.announce(state);
        }
        Taken { bytes, end }
    }
}

/// Starts reading the stream at `path` (`-`: standard input; else opened
/// read-only, on the thread, so that a FIFO without a writer yet does not
/// hold anything up) into `inbox`, chunk by chunk, until its end.
pub fn spawn_stream_reader(path: PathBuf, inbox: StreamInbox) -> io::Result<()> {
    thread::Builder::new()
        .name("overhear-stream".into())
        .spawn(move || {
            let end = if path.as_os_str() == "-" {
                crate::files::read::record_stdin();
                read_into(io::stdin().lock(), &inbox)
            } else {
                match crate::files::open(&path) {
                    Ok(file) => read_into(file, &inbox),
                    Err(e) => Err(e),
                }
            };
            inbox.finish(match end {
                Ok(()) => StreamEnd::Closed,
                Err(e) => StreamEnd::Failed(super::conversation::named(&path, &e)),
            });
        })?;
    Ok(())
}

/// Reads `reader` into `inbox` until its end.
fn read_into(mut reader: impl Read, inbox: &StreamInbox) -> io::Result<()> {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => inbox.put(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::sync::mpsc;
    use std::time::Duration;

    use super::*;

    /// An inbox whose announcements arrive on a channel.
    fn inbox() -> (StreamInbox, mpsc::Receiver<StreamInbox>) {
        let (tx, rx) = mpsc::channel();
        let tx = Mutex::new(tx);
        let inbox = StreamInbox::new(move |inbox| {
            let _ = tx.lock().unwrap().send(inbox);
        });
        (inbox, rx)
    }

    #[test]
    fn bytes_arrive_before_the_stream_ends_announced_once() {
        let (reader, mut writer) = io::pipe().unwrap();
        let (inbox, rx) = inbox();
        let thread = {
            let inbox = inbox.clone();
            thread::spawn(move || read_into(reader, &inbox))
        };
        writer.write_all(b"{\"type\":\"a\"}\n").unwrap();
        let announced = rx.recv_timeout(Duration::from_secs(2)).unwrap();
        // More bytes before the first are taken: no second announcement.
        writer.write_all(b"{\"type\":").unwrap();
        std::thread::sleep(Duration::from_millis(50));
        assert!(rx.try_recv().is_err(), "announced twice");
        let taken = announced.take(usize::MAX);
        assert!(taken.end.is_none());
        assert!(taken.bytes.starts_with(b"{\"type\":\"a\"}\n"), "{taken:?}");
        drop(writer);
        thread.join().unwrap().unwrap();
    }

    #[test]
    fn a_slice_at_a_time_and_the_end_with_the_last_one() {
        let (inbox, rx) = inbox();
        inbox.put(b"0123456789");
        inbox.finish(StreamEnd::Closed);
        let first = rx.recv().unwrap().take(4);
        assert_eq!(first.bytes, b"0123");
        assert!(first.end.is_none(), "bytes are left");
        let again = rx.try_recv().expect("the rest is announced again");
        let rest = again.take(100);
        assert_eq!(rest.bytes, b"456789");
        assert!(matches!(rest.end, Some(StreamEnd::Closed)));
        assert!(rx.try_recv().is_err());
    }

    #[test]
    fn a_full_inbox_makes_the_reader_wait() {
        let (inbox, rx) = inbox();
        let writer = {
            let inbox = inbox.clone();
            thread::spawn(move || {
                for _ in 0..3 {
                    inbox.put(&vec![b'x'; INBOX_BYTES]);
                }
            })
        };
        let announced = rx.recv_timeout(Duration::from_secs(2)).unwrap();
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(
            announced.lock().bytes.len(),
            INBOX_BYTES,
            "the reader waits"
        );
        let mut taken = 0;
        while taken < 3 * INBOX_BYTES {
            taken += announced.take(usize::MAX).bytes.len();
            std::thread::sleep(Duration::from_millis(10));
        }
        writer.join().unwrap();
    }

    #[test]
    fn read_errors_name_the_stream() {
        let (inbox, rx) = inbox();
        spawn_stream_reader(PathBuf::from("/nonexistent/overhear-fifo"), inbox).unwrap();
        let taken = rx.recv_timeout(Duration::from_secs(2)).unwrap().take(10);
        match taken.end {
            Some(StreamEnd::Failed(e)) => {
                assert!(
                    e.to_string().starts_with("/nonexistent/overhear-fifo: "),
                    "{e}"
                );
            }
            other => panic!("expected a failure, got {other:?}"),
        }
    }
}
