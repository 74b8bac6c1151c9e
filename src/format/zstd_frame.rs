//! A zstd frame inflated once, as its bytes arrive: each block is
//! decompressed when its last byte is there (a pipe hands a `.jsonl.zst`
//! over in 64 KiB pieces), so the cost is linear in the input however it
//! is cut. What it inflates to is counted as it comes: past the limit the
//! frame is refused at once, a bomb costing the decoder's window, not what
//! it inflates to (docs/hardening.md, "Bounded work").

use std::io::Read as _;

use ruzstd::decoding::FrameDecoder;
use ruzstd::decoding::errors::FrameDecoderError;

/// Bytes inflated so far are kept while they are at most this much plus
/// four times the compressed bytes (within the memory rule, with room for
/// what reads them); past it they are only counted, and a frame that ends
/// within the limit is inflated a second time, whole, into a buffer of the
/// size counted.
const KEPT_BEYOND_RULE: u64 = 32 << 20;

/// Why a zstd input is not decompressed.
#[derive(Debug, thiserror::Error)]
pub enum ZstdError {
    /// A block or the frame header does not decode.
    #[error("not a readable zstd frame: {0}")]
    Frame(FrameDecoderError),
    /// The input ended before the frame did.
    #[error("the zstd frame is cut short")]
    CutShort,
    /// It inflates to more than the size limit.
    #[error("it inflates to more than the size limit")]
    TooLarge,
}

/// What a frame fed so far gives.
#[derive(Debug)]
pub enum Inflated {
    /// Its last block has not arrived yet.
    More,
    /// It is complete: everything it inflates to.
    Whole(Vec<u8>),
}

/// One zstd frame being inflated.
pub struct Inflating {
    decoder: FrameDecoder,
    /// Every compressed byte fed (the second pass, if one is needed, reads them).
    packed: Vec<u8>,
    /// Where the next block not decoded yet starts in `packed`; 0 before
    /// the frame header is read.
    at: usize,
    /// Whether the frame ends in a 4-byte checksum.
    checksum: bool,
    /// What it inflated to, while it is kept.
    plain: Option<Vec<u8>>,
    /// How many bytes it inflated to so far.
    inflated: u64,
    /// The most it may inflate to.
    limit: u64,
    /// The frame is complete.
    done: bool,
}

impl std::fmt::Debug for Inflating {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Inflating")
            .field("packed", &self.packed.len())
            .field("at", &self.at)
            .field("inflated", &self.inflated)
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

impl Inflating {
    /// Nothing fed yet; it may inflate to `limit` bytes at most.
    pub fn new(limit: u64) -> Self {
        Inflating {
            decoder: FrameDecoder::new(),
            packed: Vec::new(),
            at: 0,
            checksum: false,
            plain: Some(Vec::new()),
            inflated: 0,
            limit,
            done: false,
        }
    }

    /// Feeds the next compressed bytes and decodes every block now
    /// complete; `end`: no more will come.
    pub fn feed(&mut self, bytes: &[u8], end: bool) -> Result<Inflated, ZstdError> {
        if self.done {
            return Ok(Inflated::More);
        }
        self.packed.extend_from_slice(bytes);
        while let Some(block_end) = self.next_block_end() {
            let source = &self.packed[self.at..block_end];
            self.decoder
                .decode_from_to(source, &mut [])
                .map_err(ZstdError::Frame)?;
            self.at = block_end;
            self.take_output()?;
            if self.decoder.is_finished() {
                self.done = true;
                return self.whole().map(Inflated::Whole);
            }
        }
        if end {
            return Err(ZstdError::CutShort);
        }
        Ok(Inflated::More)
    }

    /// Where the next block (with the frame header before the first, and
    /// the checksum after the last) ends in `packed`, when all of it is there.
    fn next_block_end(&mut self) -> Option<usize> {
        let mut end = self.at;
        if self.at == 0 {
            let (header, checksum) = frame_header_len(&self.packed)?;
            end = header;
            self.checksum = checksum;
        }
        let head = self.packed.get(end..end + 3)?;
        let value = u32::from(head[0]) | u32::from(head[1]) << 8 | u32::from(head[2]) << 16;
        let last = value & 1 == 1;
        let size = (value >> 3) as usize;
        // Raw and compressed blocks hold `size` bytes; a run-length one, one byte.
        let body = if (value >> 1) & 3 == 1 { 1 } else { size };
        end += 3 + body;
        if last && self.checksum {
            end += 4;
        }
        (end <= self.packed.len()).then_some(end)
    }

    /// Takes what the decoder holds beyond its window, counting it.
    fn take_output(&mut self) -> Result<(), ZstdError> {
        let Some(out) = self.decoder.collect() else {
            return Ok(());
        };
        self.inflated += out.len() as u64;
        if self.inflated > self.limit {
            self.plain = None;
            return Err(ZstdError::TooLarge);
        }
        let budget = 4 * self.packed.len() as u64 + KEPT_BEYOND_RULE;
        match &mut self.plain {
            // Checked before it grows: a buffer past the budget is never made.
            Some(plain) if self.inflated <= budget => plain.extend_from_slice(&out),
            _ => self.plain = None,
        }
        Ok(())
    }

    /// Everything the complete frame inflates to: what was kept, or (past
    /// the memory rule) the frame inflated again into a buffer of its size.
    fn whole(&mut self) -> Result<Vec<u8>, ZstdError> {
        if let Some(plain) = self.plain.take() {
            return Ok(plain);
        }
        let mut plain = Vec::with_capacity(usize::try_from(self.inflated).unwrap_or(0));
        ruzstd::decoding::StreamingDecoder::new(&self.packed[..])
            .map_err(ZstdError::Frame)?
            .take(self.limit.saturating_add(1))
            .read_to_end(&mut plain)
            .map_err(|_| ZstdError::CutShort)?;
        Ok(plain)
    }
}

/// The length of the frame header `bytes` start with (after the magic
/// number, which the caller checked) and whether the frame ends in a
/// checksum; `None` until its descriptor byte is there.
fn frame_header_len(bytes: &[u8]) -> Option<(usize, bool)> {
    let descriptor = *bytes.get(4)?;
    let single_segment = descriptor & 0x20 != 0;
    let window = usize::from(!single_segment);
    let dictionary = [0, 1, 2, 4][usize::from(descriptor & 3)];
    let content_size = match descriptor >> 6 {
        0 => usize::from(single_segment),
        1 => 2,
        2 => 4,
        _ => 8,
    };
    Some((
        5 + window + dictionary + content_size,
        descriptor & 4 != 0,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packed(plain: &[u8]) -> Vec<u8> {
        ruzstd::encoding::compress_to_vec(plain, ruzstd::encoding::CompressionLevel::Fastest)
    }

    /// Text that compresses to several blocks.
    fn text(lines: usize) -> Vec<u8> {
        (0..lines)
            .map(|i| format!("line {i}: {}\n", i.wrapping_mul(2_654_435_761) % 1_000_003))
            .collect::<String>()
            .into_bytes()
    }

    #[test]
    fn a_frame_fed_in_pieces_of_any_size_inflates_to_the_text() {
        let plain = text(100_000);
        let frame = packed(&plain);
        for piece in [1, 7, 4096, 65_536, frame.len()] {
            let mut inflating = Inflating::new(u64::MAX);
            let mut whole = None;
            let chunks: Vec<&[u8]> = frame.chunks(piece).collect();
            for (i, chunk) in chunks.iter().enumerate() {
                match inflating.feed(chunk, i + 1 == chunks.len()).unwrap() {
                    Inflated::Whole(out) => whole = Some(out),
                    Inflated::More => assert!(whole.is_none()),
                }
            }
            assert!(whole.as_deref() == Some(&plain[..]), "pieces of {piece}");
        }
    }

    #[test]
    fn past_the_limit_or_cut_short_it_says_so() {
        let plain = text(10_000);
        let frame = packed(&plain);
        let mut small = Inflating::new(plain.len() as u64 - 1);
        assert!(matches!(
            small.feed(&frame, true),
            Err(ZstdError::TooLarge)
        ));
        let mut cut = Inflating::new(u64::MAX);
        assert!(matches!(
            cut.feed(&frame[..frame.len() / 2], true),
            Err(ZstdError::CutShort)
        ));
        let mut exact = Inflating::new(plain.len() as u64);
        assert!(matches!(exact.feed(&frame, true), Ok(Inflated::Whole(_))));
    }
}
