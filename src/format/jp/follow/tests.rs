use std::path::Path;

use super::*;

/// `read_in_chunks` of `events`, at `chunk` bytes a read.
fn streamed(events: &[u8], base: Option<&[u8]>, chunk: usize) -> Option<(JpStream, JpLoad)> {
    JpStream::read_in_chunks(&mut &events[..], base, chunk).unwrap()
}

/// Every events file under `tests/fixtures/jp`, with its base config.
pub(in crate::format::jp) fn fixtures() -> Vec<(String, Vec<u8>, Option<Vec<u8>>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/jp");
    let mut found = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.file_name().is_some_and(|n| n == "events.json") {
                let base = std::fs::read(dir.join("base_config.json")).ok();
                found.push((
                    path.display().to_string(),
                    std::fs::read(&path).unwrap(),
                    base,
                ));
            }
        }
    }
    assert!(found.len() > 5, "fixtures: {found:?}");
    found
}

#[test]
fn reading_in_chunks_makes_what_reading_whole_makes() {
    for (name, events, base) in fixtures() {
        let Ok(whole) = JpStream::open(&events, base.as_deref()) else {
            // A file that is not an array of entries is read whole.
            assert_eq!(streamed(&events, base.as_deref(), 7), None, "{name}");
            continue;
        };
        for chunk in [1, 2, 3, 5, 64, 4096, 1 << 20] {
            assert_eq!(
                streamed(&events, base.as_deref(), chunk).as_ref(),
                Some(&whole),
                "{name}, {chunk} bytes at a time"
            );
        }
    }
}

#[test]
fn a_streamed_read_follows_rewrites_like_a_whole_one() {
    let first = b"\xEF\xBB\xBF[\n  {\"type\": \"turn_start\", \"timestamp\": \"t1\"}\n]\n";
    let second =
        b"\xEF\xBB\xBF[\n  {\"type\": \"turn_start\", \"timestamp\": \"t1\"},\n  {\"type\": \"chat_request\", \"content\": \"hi\"}\n]\n";
    let (mut stream, _) = streamed(first, Some(b"{}"), 4).unwrap();
    assert_eq!(stream.update(first, Some(b"{}")).unwrap(), Delta::Unchanged);
    match stream.update(second, Some(b"{}")).unwrap() {
        Delta::Appended(load) => assert_eq!(load.events.len(), 1),
        other => panic!("expected an append, got {other:?}"),
    }
}

#[test]
fn what_the_scanner_does_not_follow_is_left_to_the_whole_read() {
    for text in [
        "",
        "   ",
        "{}",
        "[{},]",
        "[{}] x",
        "[{}]]",
        "[{\"type\": }]",
        "[{\"type\": \"turn_start\"}",
        "[\"\\u12\"]",
    ] {
        assert_eq!(streamed(text.as_bytes(), None, 3), None, "{text:?}");
    }
    assert_eq!(streamed(b"[]", Some(b"{oops"), 3), None);
}

#[test]
fn an_empty_array_and_whitespace_around_it() {
    for text in ["[]", " [ ]\n", "\u{feff}[\n]\n\n"] {
        assert_eq!(
            streamed(text.as_bytes(), None, 1),
            Some(JpStream::open(text.as_bytes(), None).unwrap()),
            "{text:?}"
        );
    }
}
