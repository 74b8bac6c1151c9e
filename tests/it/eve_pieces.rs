//! Pushing a stream in pieces, split anywhere (inside a JSON object, inside a
//! UTF-8 character), reads exactly as reading it whole; no event appears twice.
//! Runs over the hand-written streams and, when `$OVERHEAR_EVE_CORPUS` names
//! it, the real corpus.

use crate::common;
use crate::common::eve_support;

use std::collections::HashSet;
use std::path::PathBuf;

use overhear::format::eve::EveReader;

fn streams() -> Vec<PathBuf> {
    let mut dirs = vec![eve_support::fixtures_dir()];
    // Without the real corpus, only the hand-written streams are checked.
    dirs.extend(common::corpus::eve_dir());
    let mut files: Vec<PathBuf> = dirs
        .iter()
        .flat_map(|d| std::fs::read_dir(d).expect("stream folder readable"))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ndjson"))
        .collect();
    files.sort();
    assert!(files.len() >= 17, "hand-written streams present");
    files
}

fn assert_same(whole: &EveReader, pieces: &EveReader, what: &str) {
    assert_eq!(whole.events(), pieces.events(), "{what}: events");
    assert_eq!(whole.originals(), pieces.originals(), "{what}: originals");
    assert_eq!(
        whole.diagnostics(),
        pieces.diagnostics(),
        "{what}: diagnostics"
    );
    assert_eq!(
        whole.in_progress(),
        pieces.in_progress(),
        "{what}: in progress"
    );
    assert_eq!(whole.finished(), pieces.finished(), "{what}: finished");
    assert_eq!(whole.revision(), pieces.revision(), "{what}: revision");
}

/// Split points: an even sample over the stream plus every position inside a
/// multi-byte character.
fn split_points(bytes: &[u8]) -> Vec<usize> {
    let step = (bytes.len() / 100).max(1);
    let mut points: Vec<usize> = (1..bytes.len()).step_by(step).collect();
    points.extend((1..bytes.len()).filter(|&i| (bytes[i] & 0b1100_0000) == 0b1000_0000));
    points.sort_unstable();
    points.dedup();
    points
}

#[test]
fn pushing_in_pieces_reads_like_reading_whole() {
    for path in streams() {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let whole = EveReader::read_all(&bytes);

        let ids: Vec<_> = whole
            .events()
            .iter()
            .filter_map(|e| e.event_id.clone())
            .collect();
        let unique: HashSet<_> = ids.iter().collect();
        assert_eq!(ids.len(), unique.len(), "{name}: an event appears twice");
        let shapes: HashSet<String> = whole
            .events()
            .iter()
            .map(|e| e.to_json().to_string())
            .collect();
        assert_eq!(
            shapes.len(),
            whole.events().len(),
            "{name}: duplicate event"
        );

        let points = split_points(&bytes);
        assert!(
            !name.starts_with("update-then-final")
                || points
                    .iter()
                    .any(|&i| std::str::from_utf8(&bytes[..i]).is_err()),
            "the sample includes splits inside a UTF-8 character"
        );
        for &at in &points {
            let mut r = EveReader::new();
            r.push(&bytes[..at]);
            r.push(&bytes[at..]);
            r.finish();
            assert_same(&whole, &r, &format!("{name} split at {at}"));
        }

        let mut r = EveReader::new();
        for byte in &bytes {
            r.push(std::slice::from_ref(byte));
        }
        r.finish();
        assert_same(&whole, &r, &format!("{name} byte by byte"));
    }
}
