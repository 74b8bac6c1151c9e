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
    assert!(
        matches!(&fresh, LoadError::Events(e) if e.message.starts_with("more text after the JSON value"))
    );
    assert_eq!(stream.update(new, None), Err(fresh));
    // Trailing whitespace alone is still nothing new.
    let (mut stream, _) = JpStream::open(old, None).unwrap();
    let update = stream.update(b"[\n  {\"type\": \"turn_start\"}\n]\n\n  ", None);
    assert!(
        matches!(&update, Ok(Delta::Appended(added)) if added.events.is_empty()),
        "{update:?}"
    );
}

/// jp_reader, mode 2: a rewrite that added only a trailing comma after the last
/// entry (`…},\n]`) was taken as "nothing new" by the incremental reader, while
/// a fresh load rejects it (JSON allows no trailing comma).
#[test]
fn a_rewrite_ending_in_a_trailing_comma_is_an_error_as_on_a_fresh_load() {
    let old = b"[\n  {\"type\": \"turn_start\"}\n]";
    let new = b"[\n  {\"type\": \"turn_start\"},\n  \n]";
    let (mut stream, _) = JpStream::open(old, None).unwrap();
    let fresh = jp::load(new, None).unwrap_err();
    assert!(
        matches!(&fresh, LoadError::Events(e) if e.message.starts_with("a comma before a closing bracket")),
        "{fresh:?}"
    );
    assert_eq!(stream.update(new, None), Err(fresh));
    // A real entry after the comma is still read incrementally.
    let (mut stream, _) = JpStream::open(old, None).unwrap();
    let grown = b"[\n  {\"type\": \"turn_start\"},\n  {\"type\": \"turn_start\"}\n]";
    let update = stream.update(grown, None);
    assert!(
        matches!(&update, Ok(Delta::Appended(added)) if added.events.len() == 1),
        "{update:?}"
    );
}

/// jp_reader, mode 0: a form feed between the last entry and the `]` was
/// whitespace to the streaming reader (Rust's `is_ascii_whitespace` counts
/// it) but not to JSON, so the viewer opened a file `render` rejects. The
/// incremental reader had the same slip after the known prefix.
#[test]
fn a_form_feed_is_not_json_whitespace_to_any_reader() {
    let body = b"[\n\"   \"\r\r\r\r\n\x0c\r]";
    let fresh = jp::load(body, None).unwrap_err();
    assert!(
        matches!(&fresh, LoadError::Events(e) if e.line == 3),
        "{fresh:?}"
    );
    assert_eq!(JpStream::read_from(&mut &body[..], None).unwrap(), None);
    assert_eq!(jp::count_events(&body[..], false).unwrap(), None);

    let old = b"[\n  {\"type\": \"turn_start\"}\n]";
    for new in [
        &b"[\n  {\"type\": \"turn_start\"}\x0c\n]"[..],
        &b"[\n  {\"type\": \"turn_start\"}\n]\x0c"[..],
    ] {
        let (mut stream, _) = JpStream::open(old, None).unwrap();
        let fresh = jp::load(new, None).unwrap_err();
        assert_eq!(stream.update(new, None), Err(fresh));
    }
}

/// markdown: fenced markdown (```` ```markdown ````) took most of a second for
/// 6 KB — syntect's Markdown grammar spends up to 20 ms a line once its
/// context stack is deep. Such code is now shown plain, as written.
#[test]
fn fenced_markdown_is_shown_as_written_not_highlighted() {
    use overhear::render::highlight::highlight;
    use overhear::render::theme::Theme;
    let theme = Theme::dark();
    let source = "| `j ↓` / `k ↑` | cursor down / up a line |\n# a heading *here*\n";
    for lang in ["markdown", "md", "MD"] {
        let lines = highlight(source, Some(lang), &theme);
        assert_eq!(lines.len(), 2);
        for line in &lines {
            assert_eq!(line.spans.len(), 1, "{lang}: {line:?}");
            assert_eq!(line.spans[0].style, theme.styles.code_block);
        }
    }
    // Other languages are still highlighted.
    let rust = highlight("fn main() { let x = 1; }", Some("rust"), &theme);
    assert!(rust[0].spans.len() > 1);
}
