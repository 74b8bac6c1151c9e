use std::path::Path;

use super::*;
use crate::format::jp;

fn fixture(name: &str) -> Conversation {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/jp")
        .join(name);
    let events = std::fs::read(dir.join("events.json")).unwrap();
    let base = std::fs::read(dir.join("base_config.json")).ok();
    let load = jp::load(&events, base.as_deref()).unwrap();
    Conversation::new(load.events, load.base_config, None)
}

fn options(view: DocView, finished: bool) -> DocOptions {
    DocOptions {
        view,
        finished,
        ..DocOptions::default()
    }
}

/// Documents compare by everything they hold.
fn same(a: &Document, b: &Document) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

#[test]
fn rebuilding_after_an_append_is_building_from_scratch() {
    for name in ["current", "updates", "policy", "blocks"] {
        let whole = fixture(name);
        for view in [DocView::Terminal, DocView::User, DocView::Raw] {
            let opts = options(view, false);
            for cut in 0..=whole.events.len() {
                let mut conv = Conversation::new(
                    whole.events[..cut].to_vec(),
                    whole.base_config.clone(),
                    None,
                );
                let mut doc = Document::build(&conv, &opts);
                let untouched = conv.extend(whole.events[cut..].to_vec());
                doc.rebuild(&conv, &opts, untouched);
                assert!(
                    same(&doc, &Document::build(&conv, &opts)),
                    "{name}, {view:?}, appended after event {cut}"
                );
            }
        }
    }
}

#[test]
fn earlier_turns_put_first_and_rebuilding_after_them_are_building_those_turns() {
    for name in ["current", "updates", "policy", "blocks"] {
        let conv = fixture(name);
        let turns = conv.turns.len();
        for view in [DocView::Terminal, DocView::User, DocView::Raw] {
            let opts = options(view, false);
            for from in 0..turns {
                let mut doc = Document::build_turns(&conv, &opts, &|n| n > from);
                // As an append that touched no turn rebuilds it.
                doc.rebuild_after(&conv, &opts, turns, from);
                assert!(
                    same(&doc, &Document::build_turns(&conv, &opts, &|n| n > from)),
                    "{name}, {view:?}, rebuilt after turn {from}"
                );
                for first in 1..=from {
                    let mut some = doc.clone();
                    some.prepend_turns(&conv, &opts, first..=from);
                    let built = Document::build_turns(&conv, &opts, &|n| n >= first);
                    assert!(
                        same(&some, &built),
                        "{name}, {view:?}, turns {first}..={from} put first"
                    );
                }
            }
        }
    }
}

#[test]
fn a_walk_turn_by_turn_hands_out_the_blocks_of_the_whole_build() {
    for name in ["current", "updates", "policy", "blocks"] {
        let whole = fixture(name);
        for view in [DocView::Terminal, DocView::User, DocView::Raw] {
            for finished in [false, true] {
                let opts = options(view, finished);
                // Every prefix: a live last turn, a call still running.
                for cut in 0..=whole.events.len() {
                    let conv = Conversation::new(
                        whole.events[..cut].to_vec(),
                        whole.base_config.clone(),
                        None,
                    );
                    let mut walk = Document::turn_by_turn(&conv, &opts);
                    let mut steps = 0;
                    let mut blocks = Vec::new();
                    while let Some(turn) = walk.next(&conv) {
                        blocks.extend(turn);
                        steps += 1;
                    }
                    assert_eq!(steps, conv.turns.len() + 1, "a step a turn and one for the end");
                    let built = Document::build(&conv, &opts);
                    assert_eq!(
                        format!("{blocks:?}"),
                        format!("{:?}", built.blocks),
                        "{name}, {view:?}, finished {finished}, {cut} events"
                    );
                }
            }
        }
    }
}

#[test]
fn rebuilding_keeps_the_blocks_of_untouched_turns() {
    let whole = fixture("current");
    let cut = whole.turns[1].events.start + 1;
    let opts = options(DocView::Terminal, false);
    let mut conv = Conversation::new(
        whole.events[..cut].to_vec(),
        whole.base_config.clone(),
        None,
    );
    let mut doc = Document::build(&conv, &opts);
    let first_turn = doc.blocks.iter().filter(|b| b.turn == 1).count();
    let untouched = conv.extend(whole.events[cut..].to_vec());
    assert_eq!(untouched, 1);
    assert_eq!(doc.rebuild(&conv, &opts, untouched), first_turn);
}

#[test]
fn the_end_of_a_conversation_changes_only_its_last_turn() {
    let conv = fixture("updates");
    let mut doc = Document::build(&conv, &options(DocView::Terminal, false));
    let finished = options(DocView::Terminal, true);
    let kept = doc.rebuild(&conv, &finished, conv.turns.len());
    assert!(same(&doc, &Document::build(&conv, &finished)));
    let last = conv.turns.len();
    assert_eq!(kept, doc.blocks.iter().filter(|b| b.turn < last).count());
}

/// A followed stream keeps a block per event: the rare large parts (a
/// piece's range, a tool speech) are boxed and an event's id is kept as its
/// hash, so a block is a fraction of the short line it shows (it was 144
/// bytes and a copy of the id, then 96 with a turn rule's time a `String`).
#[test]
fn a_block_stays_small() {
    let size = std::mem::size_of::<DocBlock>();
    assert!(size <= 88, "DocBlock is {size} bytes");
}

/// An eve stream fed to a `Live` `chunk` bytes at a time; after each chunk
/// the raw view's document is brought up to date and handed to `check`
/// with how many of its blocks were kept.
fn follow_raw(bytes: &[u8], chunk: usize, mut check: impl FnMut(&Conversation, &Document, usize)) {
    let mut live = crate::load::Live::stream(std::path::PathBuf::from("-"));
    let opts = options(DocView::Raw, false);
    let mut doc = Document::default();
    for piece in bytes.chunks(chunk) {
        live.push_stream(piece, false).unwrap();
        let untouched = live.take_untouched_turns();
        let kept = doc.rebuild(&live.conversation, &opts, untouched);
        check(&live.conversation, &doc, kept);
    }
    live.push_stream(&[], true).unwrap();
    let finished = options(DocView::Raw, true);
    let untouched = live.take_untouched_turns();
    doc.rebuild(&live.conversation, &finished, untouched);
    assert!(same(&doc, &Document::build(&live.conversation, &finished)));
}

/// The raw view of a followed stream, brought up to date after every few
/// bytes, is what building it from scratch makes: on every eve fixture,
/// including a line that names a turn before the turn starts.
#[test]
fn rebuilding_the_raw_view_of_a_stream_is_building_it_from_scratch() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/eve");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    files.sort();
    let line = |i: usize, kind: &str, turn: &str| {
        format!(
            r#"{{"type":"{kind}","data":{{"sequence":{i},"message":"m{i}","turnId":"{turn}"}},"meta":{{"id":"e{i}","at":"2026-01-01T00:00:0{i}.000Z"}}}}"#
        ) + "\n"
    };
    // A line naming turn t3 while t1 runs, kept by the update that brings
    // t2, moves to t3 once t3 starts.
    let early = [
        line(0, "turn.started", "t1"),
        line(1, "message.received", "t1"),
        line(2, "input.requested", "t3"),
        line(3, "turn.started", "t2"),
        line(4, "message.received", "t2"),
        line(5, "turn.started", "t3"),
        line(6, "message.received", "t3"),
    ]
    .concat();
    let streams = files
        .iter()
        .map(|path| (path.display().to_string(), std::fs::read(path).unwrap()))
        .chain([(
            "a line before its turn".to_string(),
            early.as_bytes().to_vec(),
        )]);
    for (name, bytes) in streams {
        for chunk in [1, 7, 64, 500] {
            follow_raw(&bytes, chunk, |conv, doc, _| {
                let fresh = Document::build(conv, &options(DocView::Raw, false));
                assert!(same(doc, &fresh), "{name}, {chunk} bytes at a time");
            });
        }
    }
}

/// A flood in the raw view costs what its new lines cost: bringing the
/// document up to date keeps the blocks of every turn but the last (whose
/// rule depends on whether a turn follows it), instead of building every
/// line's block again on each update.
#[test]
fn the_raw_view_of_a_growing_stream_builds_only_the_blocks_of_its_last_turn() {
    let mut stream = String::new();
    for i in 0..2000 {
        let turn = i / 20;
        let at = format!("2026-02-01T00:{:02}:{:02}.000Z", i / 60 % 60, i % 60);
        if i % 20 == 0 {
            stream += &format!(
                r#"{{"type":"turn.started","data":{{"sequence":{turn},"turnId":"turn_{turn}"}},"meta":{{"id":"evt-{i}","at":"{at}"}}}}"#
            );
        } else {
            stream += &format!(
                r#"{{"type":"message.received","data":{{"message":"message {i}","sequence":{turn},"turnId":"turn_{turn}"}},"meta":{{"id":"evt-{i}","at":"{at}"}}}}"#
            );
        }
        stream.push('\n');
    }
    let (mut updates, mut most) = (0, 0);
    follow_raw(stream.as_bytes(), 4096, |_, doc, kept| {
        let built = doc.blocks.len() - kept;
        most = most.max(built);
        updates += 1;
    });
    assert!(updates > 50, "{updates} updates");
    // A 4 KiB chunk holds about 30 lines: those, and the last turn's 20
    // lines and rule at most.
    assert!(most <= 60, "up to {most} blocks built in one update");
}
