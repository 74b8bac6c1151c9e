//! The largest input overhear reads, and reading with that bound decided
//! before the bytes are read.
//!
//! A conversation file is read whole (or parsed as it is read, keeping its
//! events): its size must fit in memory. Past [`DEFAULT_LIMIT`] (4 GiB,
//! four times the largest conversation the budgets ask to open) a file is
//! refused before anything is read, with a message naming the limit and the
//! environment variable [`LIMIT_VAR`] that raises it. A start that is not
//! JSON stops the read at once, whatever the size: a 3 GB file of NUL bytes
//! costs its first 64 KiB, and the parser reports the place (see
//! [`crate::format::detect`]).

use std::io::{self, Read};

use crate::format::detect::{Detected, HEAD, detect};

/// The largest file or JP stream read when [`LIMIT_VAR`] is not set: 4 GiB.
pub const DEFAULT_LIMIT: u64 = 4 << 30;

/// The environment variable that sets another limit: a number of bytes,
/// optionally followed by `K`, `M`, `G` or `T` (powers of 1024).
pub const LIMIT_VAR: &str = "OVERHEAR_MAX_BYTES";

/// The limit in force: [`LIMIT_VAR`] when it holds a size, else
/// [`DEFAULT_LIMIT`].
pub fn limit() -> u64 {
    std::env::var(LIMIT_VAR)
        .ok()
        .and_then(|value| parse_size(&value))
        .unwrap_or(DEFAULT_LIMIT)
}

/// `123`, `512M`, `8G` as bytes; `None` for anything else.
pub fn parse_size(text: &str) -> Option<u64> {
    let text = text.trim();
    let (digits, shift) = match text.char_indices().last()? {
        (at, 'k' | 'K') => (&text[..at], 10),
        (at, 'm' | 'M') => (&text[..at], 20),
        (at, 'g' | 'G') => (&text[..at], 30),
        (at, 't' | 'T') => (&text[..at], 40),
        _ => (text, 0),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<u64>().ok()?.checked_mul(1 << shift)
}

/// A size as a person reads it: `4 GiB`, `3.0 GiB`, `512 bytes`.
pub fn human(bytes: u64) -> String {
    const UNITS: [(&str, u32); 4] = [("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)];
    for (unit, shift) in UNITS {
        let size = 1u64 << shift;
        if bytes >= size {
            return if bytes.is_multiple_of(size) {
                format!("{} {unit}", bytes / size)
            } else {
                format!("{:.1} {unit}", bytes as f64 / size as f64)
            };
        }
    }
    format!("{bytes} bytes")
}

/// The error for an input larger than `limit` (`size` when it is known
/// before reading).
pub fn too_large(size: Option<u64>, limit: u64) -> io::Error {
    let what = match size {
        Some(size) => format!("{} is more than", human(size)),
        None => "more than".to_string(),
    };
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!(
            "{what} the {} overhear reads; set {LIMIT_VAR} to a larger size (e.g. {LIMIT_VAR}=16G) to read it anyway",
            human(limit)
        ),
    )
}

/// Refuses a file of `len` bytes when it is larger than the limit.
pub fn check_len(len: u64) -> io::Result<()> {
    let limit = limit();
    if len > limit {
        Err(too_large(Some(len), limit))
    } else {
        Ok(())
    }
}

/// Reads the file at `path` whole (opened read-only), refusing it before
/// reading when it is larger than the limit; see [`read_to_end`].
pub fn read_file(path: &std::path::Path) -> io::Result<Vec<u8>> {
    let mut file = crate::files::open(path)?;
    let meta = file.metadata()?;
    if meta.is_file() {
        check_len(meta.len())?;
    }
    read_to_end(&mut file, limit())
}

/// Reads `reader` to its end, at most `limit` bytes (more is an error). When
/// its first bytes are not JSON (see [`detect`]) it stops after them: the
/// parser given those bytes reports the same error at the same place.
pub fn read_to_end(reader: &mut impl Read, limit: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader.take(HEAD as u64 + 4).read_to_end(&mut bytes)?;
    if matches!(detect(&bytes), Detected::Other { .. } | Detected::BlankHead) {
        return Ok(bytes);
    }
    let room = limit.saturating_add(1).saturating_sub(bytes.len() as u64);
    reader.take(room).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(None, limit));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_with_or_without_a_unit() {
        assert_eq!(parse_size("123"), Some(123));
        assert_eq!(parse_size(" 8G "), Some(8 << 30));
        assert_eq!(parse_size("512m"), Some(512 << 20));
        for bad in ["", "G", "-1", "1.5G", "1 G", "12x", "99999999999999999999"] {
            assert_eq!(parse_size(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn sizes_print_in_the_largest_unit() {
        assert_eq!(human(DEFAULT_LIMIT), "4 GiB");
        assert_eq!(human(3_221_225_472 + (1 << 29)), "3.5 GiB");
        assert_eq!(human(100), "100 bytes");
    }

    #[test]
    fn reading_stops_after_a_start_that_is_not_json() {
        // An endless source of NUL bytes: only the head is read.
        let mut zeros = io::repeat(0);
        let bytes = read_to_end(&mut zeros, 1 << 40).unwrap();
        assert_eq!(bytes.len(), HEAD + 4);
    }

    #[test]
    fn more_than_the_limit_is_an_error_naming_the_way_around() {
        let mut json = io::repeat(b' ').take(10).chain(io::repeat(b'['));
        let error = read_to_end(&mut json, 1 << 20).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::FileTooLarge);
        let text = error.to_string();
        assert!(text.contains("1 MiB") && text.contains(LIMIT_VAR), "{text}");
        let mut small = &b"[1, 2]"[..];
        assert_eq!(read_to_end(&mut small, 6).unwrap(), b"[1, 2]");
    }
}
