//! Writing the user's home folder as `~` while an export streams out: a
//! shared page tells no local user name, and the page is never held whole
//! in memory to rewrite it.
//!
//! [`Tilde`] is a [`Write`] adapter. The home folder is replaced wherever it
//! is a whole path or starts one (`/home/ada/src` → `~/src`); `/home/adam`
//! and `/x/home/ada` are other folders and are kept. A match may be cut
//! between two writes: the bytes that could still start one are held until
//! the next write tells, or until [`Tilde::finish`].

use std::io::{self, Write};

use memchr::memmem;

/// Rewrites `home` as `~` in what is written through it (see the module).
pub struct Tilde<W: Write> {
    out: W,
    home: Vec<u8>,
    finder: memmem::Finder<'static>,
    /// Written to this adapter, not yet passed on.
    pending: Vec<u8>,
    /// The last bytes passed on (the home folder's own after a match), to
    /// tell whether a match starts a path.
    tail: Vec<u8>,
}

impl<W: Write> Tilde<W> {
    /// Writes to `out`, with `home` (`/home/ada`, no trailing `/`) as `~`;
    /// an empty `home` rewrites nothing.
    pub fn new(out: W, home: &str) -> Tilde<W> {
        Tilde {
            out,
            home: home.as_bytes().to_vec(),
            finder: memmem::Finder::new(home.as_bytes()).into_owned(),
            pending: Vec::with_capacity(CHUNK + home.len()),
            tail: Vec::new(),
        }
    }

    /// Passes on what is still held (the end of the page ends any match),
    /// flushes, and gives the writer back.
    pub fn finish(mut self) -> io::Result<W> {
        self.drain(true)?;
        self.out.flush()?;
        Ok(self.out)
    }

    /// Passes on every byte of `pending` that no later write can change.
    fn drain(&mut self, last: bool) -> io::Result<()> {
        if self.home.is_empty() {
            self.out.write_all(&self.pending)?;
            self.pending.clear();
            return Ok(());
        }
        let mut start = 0;
        loop {
            let Some(found) = self.finder.find(&self.pending[start..]) else {
                let could_start = if last {
                    0
                } else {
                    (self.home.len() - 1).min(self.pending.len() - start)
                };
                let end = self.pending.len() - could_start;
                self.pass(start, end)?;
                start = end;
                break;
            };
            let at = start + found;
            let end = at + self.home.len();
            let after = match next_char(&self.pending[end..]) {
                Next::Char(c) => Some(c),
                Next::End | Next::Invalid => None,
                Next::Unknown if last => None,
                Next::Unknown => {
                    self.pass(start, at)?;
                    start = at;
                    break;
                }
            };
            self.pass(start, at)?;
            let starts = !last_char(&self.tail).is_some_and(in_path);
            let ends = after.is_none_or(|c| c == '/' || !in_path(c));
            if starts && ends {
                self.out.write_all(b"~")?;
            } else {
                self.out.write_all(&self.home)?;
            }
            let keep = self.home.len().saturating_sub(4);
            self.tail.clear();
            self.tail.extend_from_slice(&self.home[keep..]);
            start = end;
        }
        self.pending.drain(..start);
        Ok(())
    }

    /// Passes `pending[from..to]` on as it is.
    fn pass(&mut self, from: usize, to: usize) -> io::Result<()> {
        let bytes = &self.pending[from..to];
        if bytes.is_empty() {
            return Ok(());
        }
        self.out.write_all(bytes)?;
        let keep = bytes.len().saturating_sub(4);
        self.tail.extend_from_slice(&bytes[keep..]);
        let drop = self.tail.len().saturating_sub(4);
        self.tail.drain(..drop);
        Ok(())
    }
}

/// How much is gathered before it is searched and passed on: small writes
/// are searched together, a large one a piece at a time (never copied whole).
const CHUNK: usize = 64 * 1024;

impl<W: Write> Write for Tilde<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let take = buf.len().min(CHUNK);
        self.pending.extend_from_slice(&buf[..take]);
        if self.pending.len() >= CHUNK {
            self.drain(false)?;
        }
        Ok(take)
    }

    /// Passes on and flushes all but the bytes that may start a match.
    fn flush(&mut self) -> io::Result<()> {
        self.drain(false)?;
        self.out.flush()
    }
}

/// A character that can be part of a folder's name in a path.
fn in_path(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/')
}

/// What follows a match.
enum Next {
    /// A whole character.
    Char(char),
    /// Nothing yet: a later write may bring it.
    Unknown,
    /// The end of the page (only when told so).
    End,
    /// Bytes that are no UTF-8: not part of a path.
    Invalid,
}

fn next_char(bytes: &[u8]) -> Next {
    if bytes.is_empty() {
        return Next::Unknown;
    }
    let take = bytes.len().min(4);
    match std::str::from_utf8(&bytes[..take]) {
        Ok(text) => text.chars().next().map_or(Next::End, Next::Char),
        Err(err) if err.valid_up_to() > 0 => std::str::from_utf8(&bytes[..err.valid_up_to()])
            .ok()
            .and_then(|t| t.chars().next())
            .map_or(Next::Invalid, Next::Char),
        Err(err) if err.error_len().is_none() => Next::Unknown,
        Err(_) => Next::Invalid,
    }
}

/// The last whole character of `tail`.
fn last_char(tail: &[u8]) -> Option<char> {
    (1..=tail.len().min(4)).find_map(|n| {
        std::str::from_utf8(&tail[tail.len() - n..])
            .ok()
            .and_then(|t| t.chars().next_back())
    })
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::Tilde;

    /// `text` through the adapter in one write, checked against every
    /// split of it into two writes and against one byte per write.
    fn tilde(text: &str, home: &str) -> String {
        let whole = through(&[text.as_bytes()], home);
        for at in 0..=text.len() {
            let (a, b) = text.as_bytes().split_at(at);
            assert_eq!(through(&[a, b], home), whole, "split at {at} of {text:?}");
        }
        let bytes: Vec<&[u8]> = text.as_bytes().chunks(1).collect();
        assert_eq!(through(&bytes, home), whole, "byte by byte: {text:?}");
        whole
    }

    /// `chunks` written one after the other, each flushed (which passes on
    /// all that no later write can change).
    fn through(chunks: &[&[u8]], home: &str) -> String {
        let mut out = Tilde::new(Vec::new(), home);
        for chunk in chunks {
            out.write_all(chunk).unwrap();
            out.flush().unwrap();
        }
        String::from_utf8(out.finish().unwrap()).unwrap()
    }

    #[test]
    fn the_home_folder_is_written_as_a_tilde_only_where_it_is_a_path() {
        let home = "/home/ada";
        assert_eq!(tilde("cd /home/ada/src && ls", home), "cd ~/src && ls");
        assert_eq!(tilde("in /home/ada: done", home), "in ~: done");
        assert_eq!(tilde("<td>/home/ada</td>", home), "<td>~</td>");
        assert_eq!(tilde("\"/home/ada/x\"", home), "\"~/x\"");
        assert_eq!(tilde("/home/ada", home), "~");
        // Other folders that merely contain the name.
        assert_eq!(tilde("/home/adam/x", home), "/home/adam/x");
        assert_eq!(tilde("/mnt/home/ada/x", home), "/mnt/home/ada/x");
        assert_eq!(tilde("/home/ada/home/ada", home), "~/home/ada");
        assert_eq!(tilde("é/home/ada é/home/adaé", home), "é/home/ada é/home/adaé");
        assert_eq!(tilde("→/home/ada→", home), "→~→");
    }

    #[test]
    fn a_match_cut_between_two_writes_is_still_found() {
        assert_eq!(
            through(&[b"cd /ho", b"me/ada", b"/src"], "/home/ada"),
            "cd ~/src"
        );
        // The character after the match is cut too.
        let arrow = "→".as_bytes();
        let mut out = Tilde::new(Vec::new(), "/home/ada");
        out.write_all(b"x /home/ada").unwrap();
        out.flush().unwrap();
        out.write_all(arrow).unwrap();
        assert_eq!(out.finish().unwrap(), "x ~→".as_bytes());
        // A match across the boundary of the pieces a large write is cut into.
        let mut text = "a".repeat(super::CHUNK - 4);
        text.push_str(" /home/ada/x");
        text.push_str(&"b".repeat(super::CHUNK));
        let mut expected = "a".repeat(super::CHUNK - 4);
        expected.push_str(" ~/x");
        expected.push_str(&"b".repeat(super::CHUNK));
        assert_eq!(through(&[text.as_bytes()], "/home/ada"), expected);
        assert_eq!(
            through(&[b"x /home/ada", &arrow[..1], &arrow[1..]], "/home/ada"),
            "x ~→"
        );
    }

    #[test]
    fn no_home_rewrites_nothing() {
        assert_eq!(through(&[b"/home/ada"], ""), "/home/ada");
    }
}
