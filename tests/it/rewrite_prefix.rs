//! JP rewrites `events.json` whole (a new file renamed over the old one) on
//! every change, and may rewrite earlier entries. The viewer parses only
//! what follows the bytes it parsed before when a hash of those bytes, read
//! again from the new file, is unchanged — a hash of 1 MiB chunks computed
//! on several threads. Here a conversation of several chunks
//! is rewritten with one earlier entry changed in the first, a middle and
//! the last chunk, and cut short: each time, once the change it drew first
//! (the new turn) is proven, the viewer must show exactly what a full read
//! of the new file shows, never the old entry.

use crate::common;
use crate::common::generate;

use std::path::{Path, PathBuf};

use overhear::model::Event;
use overhear::tui::Proven;
use serde_json::Value;

use common::frames::{Viewer, text};

/// The size of the generated conversation: four hash chunks and more.
const SIZE: usize = 9 << 19;

impl Viewer {
    /// The viewer's events, decoded or in outline.
    fn events(&self) -> Vec<Event> {
        self.app.document().source().conversation.events.clone()
    }
}

/// A generated conversation folder, its stored bytes and its turn count.
fn conversation(parent: &Path) -> (PathBuf, Vec<u8>, usize) {
    let events = generate::conversation_events(SIZE);
    let turns = generate::turns_in(&events);
    let stored = generate::stored(&events);
    (generate::write_conversation(parent, &stored), stored, turns)
}

/// A generated conversation opened at its end in a viewer 100×30, its
/// first frame drawn: the folder (kept until the test ends), the
/// conversation's folder, its stored bytes, its turn count and the viewer.
fn followed() -> (tempfile::TempDir, PathBuf, Vec<u8>, usize, Viewer) {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, stored, turns) = conversation(tmp.path());
    let mut viewer = Viewer::at_end(&dir, 100, 30);
    viewer.frame();
    (tmp, dir, stored, turns, viewer)
}

/// Replaces the file the way JP does: a new file renamed over it.
fn rewrite(dir: &Path, bytes: &[u8]) {
    common::pty::replace(dir, &dir.join("events.json"), bytes);
}

/// `stored` with the first letters of the first user message at or after
/// byte `at` made `ZZZ…`: same length, still JSON, a text no generated
/// conversation holds.
fn user_message_changed(stored: &[u8], at: usize) -> Vec<u8> {
    let marker = b"\"type\": \"chat_request\",\n    \"content\": \"";
    let found = stored[at..]
        .windows(marker.len())
        .position(|w| w == marker)
        .expect("a user message after the offset");
    let text = at + found + marker.len();
    let mut changed = stored.to_vec();
    for i in text..text + 6 {
        if changed[i].is_ascii_lowercase() && changed[i - 1] != b'\\' {
            changed[i] = b'Z';
        }
    }
    changed
}

/// The viewer after the rewrite shows what a full read of the new file
/// shows: the same events, the same frame.
fn assert_shows_the_new_file(viewer: &mut Viewer, dir: &Path, what: &str) {
    let mut whole = Viewer::whole(dir, 100, 30);
    assert!(
        viewer.events() == whole.events(),
        "{what}: the followed conversation is not the new file's"
    );
    let (followed, fresh) = (viewer.frame(), whole.frame());
    assert!(
        followed == fresh,
        "{what}: the viewer shows\n{}\n\na full read shows\n{}",
        text(&followed),
        text(&fresh)
    );
}

/// The viewer, its earlier turns still in outline (its events are not a
/// full read's), draws the frame a full read of the new file draws.
fn assert_draws_the_new_file(viewer: &mut Viewer, dir: &Path) {
    let mut whole = Viewer::whole(dir, 100, 30);
    let (followed, fresh) = (viewer.frame(), whole.frame());
    assert!(followed == fresh, "{}\n\n{}", text(&followed), text(&fresh));
}

#[test]
fn an_earlier_entry_rewritten_in_any_chunk_is_shown_as_the_new_file_says() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, stored, turns) = conversation(tmp.path());
    let appended: Vec<Value> = generate::turn_events(7, turns);
    // The first chunk, a middle one, and the last before the new turn.
    for at in [0, 5 << 19, stored.len() - 40_000] {
        rewrite(&dir, &stored);
        let mut viewer = Viewer::at_end(&dir, 100, 30);
        viewer.frame();
        assert!(viewer.earlier() > 0, "earlier turns in outline");
        let changed = user_message_changed(&stored, at);
        rewrite(&dir, &generate::appended(&changed, &appended));
        let before = viewer.events().len();
        // The new turn is read and drawn first, the bytes before it as
        // they were read before (not read again yet)…
        viewer.reload_unproven();
        assert_eq!(
            viewer.events().len(),
            before + appended.len(),
            "changed near byte {at}: the new turn is shown first"
        );
        assert!(!format!("{:?}", viewer.events()).contains("ZZZ"));
        viewer.frame();
        // …then proven: the changed entry is found, and the file read again.
        assert!(
            matches!(viewer.prove(), Proven::Redraw(None)),
            "changed near byte {at}: the proof finds the change and draws again"
        );
        let shown = format!("{:?}", viewer.events());
        assert!(shown.contains("ZZZ"), "the entry changed near byte {at}");
        assert_shows_the_new_file(&mut viewer, &dir, &format!("changed near byte {at}"));
    }
}

#[test]
fn a_rewrite_shorter_than_what_was_parsed_is_read_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, _, _) = conversation(tmp.path());
    let mut viewer = Viewer::at_end(&dir, 100, 30);
    viewer.frame();
    // JP rewrote the conversation with fewer entries (its end cut off):
    // the file ends inside what the viewer had parsed, mid-chunk.
    let events = generate::conversation_events(SIZE / 2);
    rewrite(&dir, &generate::stored(&events));
    viewer.reload();
    assert_shows_the_new_file(&mut viewer, &dir, "cut short");
}

#[test]
fn a_rewrite_that_only_appends_keeps_earlier_turns_in_outline() {
    let (_tmp, dir, stored, turns, mut viewer) = followed();
    let outlined = viewer.earlier();
    assert!(outlined > 0);
    let mut now = stored;
    for turn in turns..turns + 3 {
        now = generate::appended(&now, &generate::turn_events(7, turn));
        rewrite(&dir, &now);
        viewer.reload_unproven();
        viewer.frame();
        // The prefix hashed in parallel matched the one hashed as the
        // outline was read: nothing to draw again, nothing read again.
        assert!(
            matches!(viewer.prove(), Proven::Shown),
            "turn {turn} appended: proven"
        );
        assert_eq!(viewer.earlier(), outlined, "turn {turn} appended");
    }
    assert_draws_the_new_file(&mut viewer, &dir);
}

#[test]
fn a_file_cut_short_where_it_is_before_the_proof_is_read_again_whole() {
    let (_tmp, dir, stored, turns, mut viewer) = followed();
    rewrite(
        &dir,
        &generate::appended(&stored, &generate::turn_events(7, turns)),
    );
    viewer.reload_unproven();
    viewer.frame();
    // The file the new turn was read from is cut short and written again
    // where it is (not replaced by a rename) before the proof reads it.
    let events = generate::conversation_events(SIZE / 2);
    std::fs::write(dir.join("events.json"), generate::stored(&events)).unwrap();
    assert!(matches!(viewer.prove(), Proven::Redraw(None)));
    assert_shows_the_new_file(&mut viewer, &dir, "cut short before the proof");
}

#[test]
fn a_rewrite_that_comes_while_the_last_is_proven_is_read_after_the_proof() {
    let (_tmp, dir, stored, turns, mut viewer) = followed();
    let before = viewer.events().len();
    let first = generate::turn_events(7, turns);
    let once = generate::appended(&stored, &first);
    rewrite(&dir, &once);
    viewer.reload_unproven();
    viewer.frame();
    assert_eq!(viewer.events().len(), before + first.len());
    // The next rewrite is reported before the first one is proven: it is
    // not read yet…
    let second = generate::turn_events(7, turns + 1);
    rewrite(&dir, &generate::appended(&once, &second));
    viewer.reload_unproven();
    assert_eq!(viewer.events().len(), before + first.len());
    // …but as soon as the proof is done, and drawn.
    assert!(matches!(viewer.prove(), Proven::Redraw(None)));
    assert_eq!(viewer.events().len(), before + first.len() + second.len());
    assert!(
        matches!(viewer.prove(), Proven::Shown),
        "the second proven too"
    );
    assert_draws_the_new_file(&mut viewer, &dir);
}

#[test]
fn a_change_that_waited_for_a_proof_that_failed_is_still_read() {
    let (_tmp, dir, stored, turns, mut viewer) = followed();
    // An earlier entry rewritten with its length kept, and a turn added:
    // the turn is read and drawn first.
    let first = generate::turn_events(7, turns);
    rewrite(
        &dir,
        &generate::appended(&user_message_changed(&stored, 0), &first),
    );
    viewer.reload_unproven();
    viewer.frame();
    // The next rewrite is reported while the first waits for its proof.
    rewrite(&dir, b"[{");
    viewer.reload_unproven();
    // The proof finds the entry changed, and reading the file whole fails
    // (it is not JSON): a note says so.
    assert!(matches!(viewer.prove(), Proven::Redraw(None)));
    // The file is whole again before the viewer's next step (a failure
    // that passed): the change that waited is read, with no other report.
    let second = generate::turn_events(7, turns + 1);
    let now = generate::appended(&generate::appended(&stored, &first), &second);
    rewrite(&dir, &now);
    assert!(matches!(viewer.prove(), Proven::Redraw(None)));
    assert_draws_the_new_file(&mut viewer, &dir);
}

/// The status bar says when the file last changed (docs/tui.md, "The
/// screen"): the file's own time, however late the viewer reads it, as a
/// full read of the same file says. Here the change is found by the proof
/// that follows the frame (an earlier entry rewritten), after the reload.
#[test]
fn the_status_bar_tells_when_the_file_changed_not_when_it_was_read() {
    let (_tmp, dir, stored, turns, mut viewer) = followed();
    rewrite(
        &dir,
        &generate::appended(
            &user_message_changed(&stored, 0),
            &generate::turn_events(7, turns),
        ),
    );
    let written = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_767_323_045);
    std::fs::File::options()
        .write(true)
        .open(dir.join("events.json"))
        .unwrap()
        .set_modified(written)
        .unwrap();
    viewer.reload_unproven();
    viewer.frame();
    assert!(matches!(viewer.prove(), Proven::Redraw(None)));
    let bar = text(&viewer.frame());
    assert!(bar.contains("2026-01-02 03:04"), "{bar}");
    assert_draws_the_new_file(&mut viewer, &dir);
}
