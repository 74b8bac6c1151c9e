//! Where each block's HTML waits for its page. Pages are cut, and their
//! stylesheet known, only once every block is laid out, so the blocks are
//! kept until then: the first MiB in memory, the rest in an unnamed
//! scratch file in the temporary folder (`TMPDIR`), as `sort` keeps what
//! does not fit — a large session's pages are not held in memory beside
//! the conversation they are made of. A scratch file that cannot be
//! created or written (a read-only or full temporary folder) costs memory,
//! never the export: what is not in the file stays in memory.

use std::fs::File;
use std::io::{self, Write};
use std::os::unix::fs::FileExt;

use crate::files::scratch;

/// How much HTML is gathered in memory before it is written to the
/// scratch file at once.
const STEP: usize = 1024 * 1024;

/// One block's HTML: where it is in the [`Spill`] and how long.
#[derive(Clone, Copy)]
pub(in crate::export) struct Unit {
    at: u64,
    len: usize,
}

impl Unit {
    /// The HTML's length in bytes.
    pub(super) fn len(&self) -> usize {
        self.len
    }
}

/// The scratch file, once asked for.
enum Scratch {
    /// Nothing written yet (a small export never needs one).
    NotYet,
    /// The open, already removed, file.
    Open(File),
    /// It could not be created or written: the rest stays in memory.
    Unavailable,
}

/// The blocks' HTML in the order they were laid out: the first `on_disk`
/// bytes in the scratch file, the rest in memory.
pub(in crate::export) struct Spill {
    scratch: Scratch,
    on_disk: u64,
    memory: Vec<u8>,
}

impl Spill {
    /// An empty spill; no file is created until there is more than a step.
    pub(super) fn new() -> Spill {
        Spill {
            scratch: Scratch::NotYet,
            on_disk: 0,
            memory: Vec::new(),
        }
    }

    /// Keeps `html`, returning where it is.
    pub(super) fn push(&mut self, html: &str) -> Unit {
        // Written out before it would grow past a step: the memory held
        // stays one step (a larger block alone excepted).
        if self.memory.len() + html.len() > STEP && !self.memory.is_empty() {
            self.write_out();
        }
        let unit = Unit {
            at: self.on_disk + self.memory.len() as u64,
            len: html.len(),
        };
        self.memory.extend_from_slice(html.as_bytes());
        unit
    }

    /// Moves what is in memory to the scratch file, when there is one.
    fn write_out(&mut self) {
        if let Scratch::NotYet = self.scratch {
            self.scratch = scratch::file().map_or(Scratch::Unavailable, Scratch::Open);
        }
        let Scratch::Open(file) = &self.scratch else {
            return;
        };
        // A failed write may leave part of the bytes past `on_disk`:
        // nothing is read there, and they are kept in memory.
        match file.write_all_at(&self.memory, self.on_disk) {
            Ok(()) => {
                self.on_disk += self.memory.len() as u64;
                self.memory.clear();
            }
            Err(_) => self.scratch = Scratch::Unavailable,
        }
    }

    /// Writes `unit`'s HTML to `out`; the blocks of a page are read back
    /// in their order through `window`, a large read at a time.
    pub(super) fn write_to(
        &self,
        unit: Unit,
        window: &mut Window,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        if let Some(at) = unit.at.checked_sub(self.on_disk) {
            let at = at as usize;
            return out.write_all(&self.memory[at..at + unit.len]);
        }
        let Scratch::Open(file) = &self.scratch else {
            return Err(io::Error::other("an export's scratch file was lost"));
        };
        let end = unit.at + unit.len as u64;
        let mut at = unit.at;
        while at < end {
            if !(window.start..window.start + window.bytes.len() as u64).contains(&at) {
                window.fill(file, at, self.on_disk)?;
            }
            let from = (at - window.start) as usize;
            let to = ((end - window.start) as usize).min(window.bytes.len());
            out.write_all(&window.bytes[from..to])?;
            at = window.start + to as u64;
        }
        Ok(())
    }
}

/// The part of the scratch file last read back.
pub(in crate::export) struct Window {
    start: u64,
    bytes: Vec<u8>,
}

impl Window {
    /// How much of the scratch file is read at once.
    const SIZE: usize = 1024 * 1024;

    /// An empty window.
    pub(super) fn new() -> Window {
        Window {
            start: 0,
            bytes: Vec::new(),
        }
    }

    /// Reads the file from `at` (up to `end`, where its written bytes end).
    fn fill(&mut self, file: &File, at: u64, end: u64) -> io::Result<()> {
        let len = (end - at).min(Self::SIZE as u64) as usize;
        self.bytes.resize(len, 0);
        self.start = at;
        file.read_exact_at(&mut self.bytes, at).map_err(|err| {
            io::Error::new(err.kind(), format!("reading back an export's scratch file: {err}"))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(spill: &Spill, unit: Unit) -> String {
        let mut out = Vec::new();
        spill.write_to(unit, &mut Window::new(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn blocks_past_a_step_are_read_back_from_the_scratch_file() {
        let mut spill = Spill::new();
        let mut blocks: Vec<String> = (0..3000)
            .map(|i| format!("<p>block {i}</p>{}\n", "x".repeat(i % 4000)))
            .collect();
        // Larger than the window read back at once.
        blocks.insert(1000, format!("<pre>{}</pre>", "w".repeat(3 * Window::SIZE)));
        let units: Vec<Unit> = blocks.iter().map(|b| spill.push(b)).collect();
        assert!(spill.on_disk > 0, "nothing was written to the scratch file");
        assert!(!spill.memory.is_empty());
        // In order through one window, as a page is written, then backwards.
        let mut window = Window::new();
        for (block, &unit) in blocks.iter().zip(&units) {
            let mut out = Vec::new();
            spill.write_to(unit, &mut window, &mut out).unwrap();
            assert!(out == block.as_bytes());
        }
        for (block, &unit) in blocks.iter().zip(&units).rev() {
            assert_eq!(&read(&spill, unit), block);
        }
    }

    #[test]
    fn without_a_scratch_file_the_blocks_stay_in_memory() {
        let mut spill = Spill::new();
        spill.scratch = Scratch::Unavailable;
        let block = "y".repeat(STEP + 1);
        let first = spill.push(&block);
        spill.push("<p>between</p>");
        let second = spill.push("<p>after</p>");
        assert_eq!(spill.on_disk, 0);
        assert_eq!(read(&spill, first), block);
        assert_eq!(read(&spill, second), "<p>after</p>");
    }

    #[test]
    fn a_scratch_file_that_cannot_be_written_keeps_the_blocks_in_memory() {
        let mut spill = Spill::new();
        // Open for reading only: every write to it fails.
        spill.scratch = Scratch::Open(File::open(std::env::current_exe().unwrap()).unwrap());
        let block = "z".repeat(STEP);
        let first = spill.push(&block);
        spill.push("<p>between</p>");
        let second = spill.push("<p>after</p>");
        assert!(matches!(spill.scratch, Scratch::Unavailable));
        assert_eq!(read(&spill, first), block);
        assert_eq!(read(&spill, second), "<p>after</p>");
    }
}
