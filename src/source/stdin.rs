//! Reading a stream on standard input as it arrives (`curl -N … | overhear -`).
//!
//! Reads block, so they happen on a background thread that hands each chunk
//! over as soon as the pipe delivers it; the viewer stays responsive while
//! the producer is quiet.

use std::io::{self, Read};
use std::sync::mpsc::{self, Receiver};
use std::thread;

/// One message from the reader thread.
#[derive(Debug)]
pub enum StdinChunk {
    /// Bytes as they arrived; may end mid-line.
    Data(Vec<u8>),
    /// The writer closed the stream; nothing more will come.
    End,
    /// Reading failed; nothing more will come.
    Failed(io::Error),
}

/// Reads standard input on a background thread.
pub fn spawn_stdin_reader() -> Receiver<StdinChunk> {
    spawn_reader(io::stdin())
}

/// Reads any stream on a background thread, chunk by chunk, ending with
/// [`StdinChunk::End`] or [`StdinChunk::Failed`]. The thread stops early when
/// the receiver is dropped and the next chunk arrives.
pub fn spawn_reader<R: Read + Send + 'static>(mut reader: R) -> Receiver<StdinChunk> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            let message = match reader.read(&mut buf) {
                Ok(0) => StdinChunk::End,
                Ok(n) => StdinChunk::Data(buf[..n].to_vec()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => StdinChunk::Failed(e),
            };
            let last = !matches!(message, StdinChunk::Data(_));
            if tx.send(message).is_err() || last {
                return;
            }
        }
    });
    rx
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::time::Duration;

    use super::*;

    #[test]
    fn chunks_arrive_before_the_stream_ends() {
        let (reader, mut writer) = io::pipe().unwrap();
        let rx = spawn_reader(reader);
        writer.write_all(b"{\"type\":\"a\"}\n").unwrap();
        match rx.recv_timeout(Duration::from_secs(2)).unwrap() {
            StdinChunk::Data(bytes) => assert_eq!(bytes, b"{\"type\":\"a\"}\n"),
            other => panic!("expected data, got {other:?}"),
        }
        writer.write_all(b"{\"type\":").unwrap();
        drop(writer);
        let mut rest = Vec::new();
        loop {
            match rx.recv_timeout(Duration::from_secs(2)).unwrap() {
                StdinChunk::Data(bytes) => rest.extend(bytes),
                StdinChunk::End => break,
                StdinChunk::Failed(e) => panic!("{e}"),
            }
        }
        assert_eq!(rest, b"{\"type\":");
    }

    #[test]
    fn read_errors_are_reported() {
        struct Broken;
        impl Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("pipe broke"))
            }
        }
        let rx = spawn_reader(Broken);
        match rx.recv_timeout(Duration::from_secs(2)).unwrap() {
            StdinChunk::Failed(e) => assert_eq!(e.to_string(), "pipe broke"),
            other => panic!("expected a failure, got {other:?}"),
        }
    }
}
