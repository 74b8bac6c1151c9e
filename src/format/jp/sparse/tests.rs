use std::io::Cursor;

use proptest::prelude::*;

use super::*;
use crate::format::jp::follow::tests::fixtures;
use crate::format::jp::outline::tests::{entry, escaped_keys_and_ids};
use crate::model::Conversation;

/// Checks that the sparse read of `events` groups into the whole read's
/// turns (each starting at the same stored entry, with the same
/// configuration changes before it) with the same problems, and that
/// decoding from any turn's start gives the whole read's events from there;
/// and so does a read that folds the turns before its last 1, 2 or 3 into
/// their count, folding as often as it can or every few events, for the
/// turns it keeps, each numbered as in the whole read.
fn sparse_matches_the_whole_read(name: &str, events: &[u8], base: Option<&[u8]>) {
    for (last, fold_at) in [(None, FOLD_AT), (Some(1), 1), (Some(2), 3), (Some(3), 1)] {
        let name = format!("{name} (last {last:?}, folded at {fold_at})");
        sparse_read_matches(&name, events, base, last, fold_at);
    }
}

/// [`sparse_matches_the_whole_read`] for one way of reading.
fn sparse_read_matches(
    name: &str,
    events: &[u8],
    base: Option<&[u8]>,
    last: Option<usize>,
    fold_at: usize,
) {
    let Ok((_, whole)) = JpStream::open(events, base) else {
        // Not JSON: the sparse read checks only what it reads, as the
        // outline does.
        return;
    };
    let (stream, load, sparse) = JpSparse::read_folding_at(&mut &events[..], base, last, fold_at)
        .unwrap()
        .unwrap_or_else(|| panic!("{name}: no sparse read"));
    assert_eq!(stream.prefix_len(), usize::MAX, "{name}: never followed");
    assert_eq!(load.base_config, whole.base_config, "{name}: base config");
    assert_eq!(load.generation, whole.generation, "{name}: generation");
    assert_eq!(load.diagnostics, whole.diagnostics, "{name}: problems");
    let stored: Vec<usize> = sparse.stored_indices().collect();
    assert_eq!(stored.len(), load.events.len(), "{name}: places");
    let deltas = |events: &[Event]| -> Vec<Event> {
        events
            .iter()
            .filter(|e| matches!(e.kind, EventKind::ConfigDelta { .. }))
            .cloned()
            .collect()
    };
    assert_eq!(deltas(&load.events), deltas(&whole.events), "{name}: deltas");
    let offset = whole.stored_offset();
    let deltas_before = |events: &[Event], end: usize| deltas(&events[..end]).len();
    let mut sparse_conv = Conversation::new(load.events, None, None);
    let numbers = sparse.turn_numbers(&sparse_conv.turns);
    sparse_conv.number_turns(&numbers);
    let whole_conv = Conversation::new(whole.events.clone(), None, None);
    let (sparse_turns, whole_turns) = (&sparse_conv.turns, &whole_conv.turns);
    assert_eq!(sparse_conv.turn_count(), whole_turns.len(), "{name}: turns");
    assert!(
        last.is_some() || sparse_turns.len() == whole_turns.len(),
        "{name}: folded unasked"
    );
    let last_kept = whole_turns.len() - last.unwrap_or(0).min(whole_turns.len());
    assert!(
        numbers.ends_with(&(last_kept + 1..=whole_turns.len()).collect::<Vec<_>>()),
        "{name}: the last turns kept: {numbers:?}"
    );
    let diagnosed = |index: usize| load.diagnostics.iter().any(|d| d.index == index);
    for kept in sparse_turns {
        let turn = &whole_turns[kept.number - 1];
        let from = kept.events.start;
        if turn.events.is_empty() {
            continue;
        }
        assert_eq!(
            stored[from],
            turn.events.start + offset,
            "{name}: turn {} starts at the same entry",
            turn.number
        );
        assert_eq!(
            deltas_before(&sparse_conv.events, from),
            deltas_before(&whole.events, turn.events.start),
            "{name}: the same configuration changes before turn {}",
            turn.number
        );
        // The same changes merged by the time the turn is shown (at its
        // first event that is not one: `PolicyTimeline::advance`), so each
        // turn's step merges what it merges in the whole read.
        let shown_at = |events: &[Event], range: std::ops::Range<usize>| {
            let first = range
                .clone()
                .find(|&i| !matches!(events[i].kind, EventKind::ConfigDelta { .. }))
                .unwrap_or(range.end);
            deltas_before(events, first)
        };
        assert_eq!(
            shown_at(&sparse_conv.events, kept.events.clone()),
            shown_at(&whole.events, turn.events.clone()),
            "{name}: the same changes merged at turn {}",
            turn.number
        );
        let decoded = sparse
            .decode_from(&mut Cursor::new(events), from, &diagnosed)
            .unwrap()
            .unwrap_or_else(|| panic!("{name}: turn {} not decoded", turn.number));
        let expected: Vec<(Event, usize)> = whole.events[turn.events.start..]
            .iter()
            .cloned()
            .zip(turn.events.start + offset..)
            .collect();
        assert_eq!(decoded, expected, "{name}: from turn {}", turn.number);
    }
}

#[test]
fn every_fixture_read_sparsely_is_the_whole_read() {
    for (name, events, base) in fixtures() {
        sparse_matches_the_whole_read(&name, &events, base.as_deref());
    }
}

#[test]
fn keys_and_ids_with_escapes_read_sparsely_are_the_whole_read() {
    let events = escaped_keys_and_ids();
    sparse_matches_the_whole_read("escapes", events.as_bytes(), None);
}

/// The real conversations (`OVERHEAR_CORPUS`), when named.
#[test]
fn every_corpus_conversation_read_sparsely_is_the_whole_read() {
    let Some(dir) = std::env::var_os("OVERHEAR_CORPUS") else {
        eprintln!("skipped: OVERHEAR_CORPUS is not set (it names the real JP conversations)");
        return;
    };
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let Ok(events) = std::fs::read(entry.path().join("events.json")) else {
            continue;
        };
        let base = std::fs::read(entry.path().join("base_config.json")).ok();
        let name = entry.path().display().to_string();
        sparse_matches_the_whole_read(&name, &events, base.as_deref());
        seen += 1;
    }
    assert!(seen > 0, "the corpus holds conversations");
}

/// Twelve turns, a configuration change inside turn 4 (merged when turn 5
/// is shown) and one before turn 9 (grouped into it): read to print the
/// last turn, only the turns those changes decide and the last are kept,
/// each with its number.
#[test]
fn turns_no_configuration_change_decides_are_folded_into_their_count() {
    let delta = r#"{"type": "config_delta", "delta": {"conversation": {}}}"#;
    let mut entries = Vec::new();
    for turn in 1..=12 {
        if turn == 9 {
            entries.push(delta.to_owned());
        }
        entries.push(r#"{"type": "turn_start"}"#.to_owned());
        entries.push(format!(r#"{{"type": "chat_request", "content": "q{turn}"}}"#));
        if turn == 4 {
            entries.push(delta.to_owned());
            entries.push(r#"{"type": "chat_request", "content": "more"}"#.to_owned());
        }
    }
    let events = format!("[\n  {}\n]\n", entries.join(",\n  "));
    let (_, load, sparse) = JpSparse::read_folding_at(&mut events.as_bytes(), Some(b"{}"), Some(1), 1)
        .unwrap()
        .unwrap();
    let conv = Conversation::new(load.events, None, None);
    let numbers = sparse.turn_numbers(&conv.turns);
    assert_eq!(numbers, [4, 5, 9, 12]);
    let stored: Vec<usize> = conv
        .turns
        .iter()
        .map(|turn| sparse.stored_indices().nth(turn.events.start).unwrap())
        .collect();
    // Turn 4 starts at entry 6 (its change is entry 8), turn 5 at 10, turn
    // 9 at 18 (its change first), turn 12 at 25.
    assert_eq!(stored, [6, 10, 18, 25]);
}

#[test]
fn a_file_cut_short_between_two_entries_since_is_not_decoded() {
    let events = br#"[{"type": "turn_start"}, {"type": "chat_request", "content": "hi"}, {"type": "chat_request", "content": "again"}]"#;
    let (_, _, sparse) = JpSparse::read_from(&mut &events[..], Some(b"{}"), None)
        .unwrap()
        .unwrap();
    let whole = sparse.decode_from(&mut Cursor::new(&events[..]), 0, &|_| false);
    assert_eq!(whole.unwrap().map(|decoded| decoded.len()), Some(3));
    // The same file cut just after its second entry.
    let cut = &events[..events.len() - r#", {"type": "chat_request", "content": "again"}]"#.len()];
    let decoded = sparse.decode_from(&mut Cursor::new(cut), 0, &|_| false);
    assert_eq!(decoded.unwrap(), None);
}

#[test]
fn an_entry_wrong_where_the_sparse_read_found_it_right_is_not_decoded() {
    let events = br#"[{"type": "turn_start"}, {"type": "chat_request", "content": "hi"}]"#;
    let (_, _, sparse) = JpSparse::read_from(&mut &events[..], Some(b"{}"), None)
        .unwrap()
        .unwrap();
    // Decoded from a file whose second entry is now malformed.
    let changed = br#"[{"type": "turn_start"}, {"type": "chat_request", "content": 7}]"#;
    let decoded = sparse.decode_from(&mut Cursor::new(&changed[..]), 0, &|_| false);
    assert_eq!(decoded.unwrap(), None);
}

#[test]
fn runs_of_events_are_one_stand_in_each() {
    let events = br#"[
  {"type": "turn_start", "timestamp": "2026-01-01 00:00:00.0"},
  {"type": "chat_request", "content": "hi"},
  {"type": "chat_response", "message": "a"},
  {"type": "chat_response", "message": "b"},
  {"type": "something_new"},
  {"type": "something_else"},
  {"type": "config_delta", "delta": {}},
  {"type": "turn_start", "timestamp": "2026-01-01 00:00:01.0"},
  {"type": "chat_request", "content": "again"}
]"#;
    let (_, load, sparse) = JpSparse::read_from(&mut &events[..], Some(b"{}"), None)
        .unwrap()
        .unwrap();
    let kinds: Vec<&str> = load.events.iter().map(Event::type_name).collect();
    assert_eq!(
        kinds,
        [
            "turn_start",
            "chat_response",
            "unknown",
            "config_delta",
            "turn_start",
            "chat_response"
        ]
    );
    assert_eq!(
        sparse.stored_indices().collect::<Vec<_>>(),
        [0, 1, 4, 6, 7, 8]
    );
}

#[test]
fn entries_inside_a_run_keep_their_problems_where_they_are() {
    // The two wrong entries are kept as unknown: one run, one event for
    // both, and each one's problem where it is.
    let events = br#"[
  {"type": "turn_start"},
  {"type": "chat_request", "content": "hi"},
  {"type": "chat_request", "content": 7},
  {"type": "tool_call_response", "id": "c1", "content": {"x": 1}, "is_error": "no"},
  {"type": "turn_start"},
  {"type": "chat_request", "content": "again"}
]"#;
    sparse_matches_the_whole_read("run with problems", events, Some(b"{}"));
    let (_, load, _) = JpSparse::read_from(&mut &events[..], Some(b"{}"), None)
        .unwrap()
        .unwrap();
    let indices: Vec<usize> = load.diagnostics.iter().map(|d| d.index).collect();
    assert_eq!(indices, [2, 3]);
    let kinds: Vec<&str> = load.events.iter().map(Event::type_name).collect();
    assert_eq!(
        kinds,
        ["turn_start", "chat_response", "unknown", "turn_start", "chat_response"]
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn generated_conversations_read_sparsely_are_the_whole_read(
        entries in proptest::collection::vec(entry(), 0..30),
        has_base in any::<bool>(),
    ) {
        let events = format!("[\n  {}\n]\n", entries.join(",\n  "));
        let base = has_base.then_some(&b"{\"style\": {}}"[..]);
        sparse_matches_the_whole_read(&events, events.as_bytes(), base);
    }
}
