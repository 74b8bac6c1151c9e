//! One test per finding of the fuzz targets in `fuzz/` (see docs/hardening.md):
//! the input that failed, minimized, and the behaviour it now has.

use overhear::format::jp::{self, Delta, JpStream, LoadError};

/// jp_reader, mode 2: a rewrite that put bytes after the closing `]` was taken
/// as "nothing new" by the incremental reader, while a fresh load rejects it.
#[test]
fn a_rewrite_with_trailing_bytes_after_the_array_is_an_error_as_on_a_fresh_load() {
    let old = b"[\n  {\"type\": \"turn_start\"}\n]\n";
    let new = b"[\n  {\"type\": \"turn_start\"}\n]\nx";
    let (mut stream, _) = JpStream::open(old, None).unwrap();
    let fresh = jp::load(new, None).unwrap_err();
    assert!(matches!(&fresh, LoadError::Events(e) if e.message.starts_with("more text after the JSON value")));
    assert_eq!(stream.update(new, None), Err(fresh));
    // Trailing whitespace alone is still nothing new.
    let (mut stream, _) = JpStream::open(old, None).unwrap();
    let update = stream.update(b"[\n  {\"type\": \"turn_start\"}\n]\n\n  ", None);
    assert!(
        matches!(&update, Ok(Delta::Appended(added)) if added.events.is_empty()),
        "{update:?}"
    );
}
