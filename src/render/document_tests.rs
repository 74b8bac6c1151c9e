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
/// bytes and a copy of the id).
#[test]
fn a_block_stays_small() {
    let size = std::mem::size_of::<DocBlock>();
    assert!(size <= 96, "DocBlock is {size} bytes");
}
