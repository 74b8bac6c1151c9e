//! Splitting arriving bytes into lines, holding a partial last line.
//!
//! Bytes come in pieces of any size (a file being appended to, a pipe): a
//! piece may end inside a JSON object or inside a UTF-8 character. Only the
//! partial last line is kept; each complete line is handed on once, so the
//! cost of a push is proportional to the bytes pushed.

/// Accumulates bytes and yields complete lines with their 1-based numbers.
#[derive(Debug, Default)]
pub(crate) struct LineSplitter {
    partial: Vec<u8>,
    lines: usize,
}

impl LineSplitter {
    /// Feeds bytes; calls `each(number, line)` for every line completed by
    /// them (without its `\n`).
    pub(crate) fn push(&mut self, bytes: &[u8], mut each: impl FnMut(usize, &[u8])) {
        let mut rest = bytes;
        while let Some(pos) = memchr::memchr(b'\n', rest) {
            self.lines += 1;
            if self.partial.is_empty() {
                each(self.lines, &rest[..pos]);
            } else {
                self.partial.extend_from_slice(&rest[..pos]);
                let line = std::mem::take(&mut self.partial);
                each(self.lines, &line);
            }
            rest = &rest[pos + 1..];
        }
        self.partial.extend_from_slice(rest);
    }

    /// End of input: a final line without a newline is yielded too.
    pub(crate) fn finish(&mut self, mut each: impl FnMut(usize, &[u8])) {
        if !self.partial.is_empty() {
            self.lines += 1;
            let line = std::mem::take(&mut self.partial);
            each(self.lines, &line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(pieces: &[&[u8]], finish: bool) -> Vec<(usize, Vec<u8>)> {
        let mut s = LineSplitter::default();
        let mut out = Vec::new();
        for p in pieces {
            s.push(p, |n, l| out.push((n, l.to_vec())));
        }
        if finish {
            s.finish(|n, l| out.push((n, l.to_vec())));
        }
        out
    }

    #[test]
    fn holds_partial_line_until_newline() {
        let out = collect(&[b"ab", b"c\nd", b"e\n\nf"], false);
        assert_eq!(
            out,
            vec![(1, b"abc".to_vec()), (2, b"de".to_vec()), (3, vec![])]
        );
    }

    #[test]
    fn finish_yields_unterminated_last_line() {
        let out = collect(&[b"x\ny"], true);
        assert_eq!(out, vec![(1, b"x".to_vec()), (2, b"y".to_vec())]);
    }

    #[test]
    fn split_inside_utf8_character_is_rejoined() {
        let text = "é\n".as_bytes();
        let out = collect(&[&text[..1], &text[1..]], false);
        assert_eq!(out, vec![(1, "é".as_bytes().to_vec())]);
    }
}
