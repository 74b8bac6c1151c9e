//! Finding printable ASCII eight bytes at a time.
//!
//! Nearly every byte a conversation holds is printable ASCII, and the text
//! layer asks of each piece of text whether it is (to measure it by its
//! length, to copy it to the output as it is, to skip the sanitizer's work).
//! Asked a byte at a time that question was a few percent of a render; here a
//! machine word of eight bytes is answered at once, and only a word that holds
//! another byte is looked at byte by byte.

/// Eight copies of `byte`, one per byte of a `u64`.
const fn lanes(byte: u8) -> u64 {
    u64::from_ne_bytes([byte; 8])
}

/// Whether any of the eight bytes of `word` is outside `b' '..=b'~'`.
///
/// Below `0x20`: subtracting `0x20` from each byte borrows into its top bit
/// exactly when the byte was smaller (a byte that already had its top bit is
/// masked out by `!word`, and is caught by the second test). From `0x7F` on:
/// adding 1 sets the top bit of `0x7F`, and a byte that had it keeps it
/// through the `| word`. Both tests are exact as yes-or-no answers for the
/// whole word (a borrow or carry across bytes can only start at a byte that
/// is itself outside), which is all that is asked of them.
fn has_unprintable(word: u64) -> bool {
    let below_space = word.wrapping_sub(lanes(0x20)) & !word;
    let from_delete = word.wrapping_add(lanes(0x01)) | word;
    (below_space | from_delete) & lanes(0x80) != 0
}

/// The length of the run of printable ASCII (`b' '..=b'~'`) `bytes` starts with.
pub fn printable_prefix(bytes: &[u8]) -> usize {
    run_prefix(bytes, has_unprintable, |b| matches!(b, b' '..=b'~'))
}

/// The length of the run of bytes `is_in` takes that `bytes` starts with,
/// found eight bytes at a time while `has_other` says a word holds none
/// other, then byte by byte.
fn run_prefix(
    bytes: &[u8],
    has_other: impl Fn(u64) -> bool,
    is_in: impl Fn(u8) -> bool,
) -> usize {
    let mut at = 0;
    for chunk in bytes.chunks_exact(8) {
        let word = u64::from_ne_bytes(chunk.try_into().unwrap_or([0; 8]));
        if has_other(word) {
            break;
        }
        at += 8;
    }
    at + bytes[at..]
        .iter()
        .position(|&b| !is_in(b))
        .unwrap_or(bytes.len() - at)
}

/// Whether any of the eight bytes of `word` is neither printable ASCII nor
/// a line feed nor a tab: the bytes the sanitizer may act on.
///
/// Each test is made on the low seven bits of every byte (`low`), where
/// adding never carries into the next byte, so each byte's answer is its own
/// (a byte with its top bit set is caught by the first test whatever the
/// others say).
fn has_unquiet(word: u64) -> bool {
    let high = word & lanes(0x80);
    let low = word & lanes(0x7F);
    // Top bit set: the low bits are 0x20 or more; 0x7F; not `byte`.
    let from_space = low.wrapping_add(lanes(0x60));
    let delete = low.wrapping_add(lanes(0x01));
    let other_than = |byte: u8| (low ^ lanes(byte)).wrapping_add(lanes(0x7F));
    let control = !from_space & other_than(b'\n') & other_than(b'\t');
    (high | ((control | delete) & lanes(0x80))) != 0
}

/// The length of the run `bytes` starts with of printable ASCII, line feeds
/// and tabs: what the sanitizer leaves as it is without a second look.
pub fn quiet_prefix(bytes: &[u8]) -> usize {
    run_prefix(bytes, has_unquiet, is_quiet)
}

/// Whether `byte` is printable ASCII, a line feed or a tab.
fn is_quiet(byte: u8) -> bool {
    matches!(byte, b' '..=b'~' | b'\n' | b'\t')
}

/// Whether any of the eight bytes of `word` may be one of `these` (ASCII
/// bytes). Exact for ASCII bytes; a byte with its top bit set may be taken
/// for one (its low seven bits are what is compared), which the look byte by
/// byte after it settles.
///
/// In the low seven bits of every byte, adding `0x7F` to a byte's
/// difference from the one sought sets the byte's top bit exactly when the
/// difference is not zero, and never carries into the next byte.
#[cfg(feature = "cli")]
fn may_hold<const N: usize>(word: u64, these: [u8; N]) -> bool {
    let low = word & lanes(0x7F);
    let differs = |byte: u8| (low ^ lanes(byte)).wrapping_add(lanes(0x7F));
    let differs_from_all = these.iter().fold(lanes(0x80), |all, &b| all & differs(b));
    differs_from_all & lanes(0x80) != lanes(0x80)
}

/// The length of the run `bytes` starts with that holds none of `these`
/// (ASCII bytes): what HTML escaping copies as it is.
#[cfg(feature = "cli")]
pub fn prefix_without<const N: usize>(bytes: &[u8], these: [u8; N]) -> usize {
    run_prefix(bytes, |word| may_hold(word, these), |b| !these.contains(&b))
}

/// Whether `text` is printable ASCII only (the empty text is).
pub fn is_printable(text: &str) -> bool {
    printable_prefix(text.as_bytes()) == text.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The answer a byte at a time, as it was asked before.
    fn printable_prefix_bytewise(bytes: &[u8]) -> usize {
        bytes
            .iter()
            .position(|&b| !matches!(b, b' '..=b'~'))
            .unwrap_or(bytes.len())
    }

    /// Each byte value at each of the eight places of a word, among each
    /// of `fills` (neighbours in the run and neighbours that may borrow or
    /// carry): `prefix` answers as looking at every byte with `is_in` does.
    fn assert_every_lane(prefix: fn(&[u8]) -> usize, is_in: fn(u8) -> bool, fills: &[u8]) {
        for &fill in fills {
            for byte in 0..=u8::MAX {
                for place in 0..8 {
                    let mut bytes = [fill; 8];
                    bytes[place] = byte;
                    let bytewise = bytes.iter().position(|&b| !is_in(b)).unwrap_or(8);
                    assert_eq!(prefix(&bytes), bytewise, "{byte:#x} at {place} among {fill:#x}");
                }
            }
        }
    }

    #[test]
    fn every_byte_in_every_lane_is_told_apart() {
        let printable = |b: u8| matches!(b, b' '..=b'~');
        assert_every_lane(printable_prefix, printable, b"a ~!");
        // The run that also takes line feeds and tabs.
        assert_every_lane(quiet_prefix, is_quiet, b"a ~\n\t!");
        // The run HTML escaping copies; fills next to the bytes sought.
        #[cfg(feature = "cli")]
        assert_every_lane(
            |bytes| prefix_without(bytes, *b"&<>\"'"),
            |b| !b"&<>\"'".contains(&b),
            b"a%=;(\xa6\xbc",
        );
    }

    proptest! {
        #[test]
        fn the_prefix_is_the_one_found_a_byte_at_a_time(
            bytes in prop::collection::vec(
                prop_oneof![8 => 0x20u8..=0x7e, 1 => any::<u8>(), 1 => prop::sample::select(vec![0x1f, 0x7f, 0x80, 0xff, 0x00, b'\n', b'\t'])],
                0..80,
            ),
        ) {
            prop_assert_eq!(printable_prefix(&bytes), printable_prefix_bytewise(&bytes));
        }

        #[cfg(feature = "cli")]
        #[test]
        fn the_run_without_html_specials_is_the_one_found_a_byte_at_a_time(
            bytes in prop::collection::vec(
                prop_oneof![8 => 0x20u8..=0x7e, 1 => any::<u8>(), 2 => prop::sample::select(b"&<>\"'".to_vec())],
                0..80,
            ),
        ) {
            let specials = *b"&<>\"'";
            let bytewise = bytes.iter().position(|b| specials.contains(b)).unwrap_or(bytes.len());
            prop_assert_eq!(prefix_without(&bytes, specials), bytewise);
        }
    }
}
