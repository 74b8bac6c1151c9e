//! The JP reader on arbitrary bytes.
//!
//! The first byte picks a mode; the next two (little-endian) pick a split point:
//!
//! * mode 0: the rest is `events.json`, with no `base_config.json`;
//! * mode 1: the rest split in two: `events.json` and `base_config.json`;
//! * mode 2: the rest split in two versions of `events.json` (a JP rewrite):
//!   opening the first and updating to the second must read exactly what loading
//!   the second afresh reads — the incremental tail parser may not differ.
//!
//! Modes 0 and 1 also read the same bytes the viewer's way, entry by entry
//! while streaming (`JpStream::read_from`), and count their events the
//! picker's way (`jp::count_events`): when those give an answer, it must be
//! what reading the whole file gives.
//!
//! Whatever loads is then grouped into a conversation and projected into every
//! view, so the model is fuzzed with every event shape the reader can produce.
//! Errors must be one line (they are printed after the file name).

#![no_main]

use libfuzzer_sys::fuzz_target;
use overhear::format::jp::{self, Delta, JpStream};
use overhear::model::{Conversation, View};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let (split, body) = match rest {
        [a, b, body @ ..] => (usize::from(u16::from_le_bytes([*a, *b])), body),
        _ => (0, rest),
    };
    let at = if body.is_empty() { 0 } else { split % (body.len() + 1) };
    let (first, second) = body.split_at(at);
    match mode % 3 {
        0 => exercise(body, None),
        1 => exercise(first, Some(second)),
        _ => incremental(first, second),
    }
});

fn exercise(events: &[u8], base: Option<&[u8]>) {
    let whole = JpStream::open(events, base);
    if let Some(streamed) = JpStream::read_from(&mut &events[..], base).expect("no I/O error") {
        assert_eq!(whole.as_ref().ok(), Some(&streamed), "streamed read differs");
    }
    if let (Ok((_, load)), Some(count)) = (
        &whole,
        jp::count_events(events, base.is_some()).expect("no I/O error"),
    ) {
        assert_eq!(count, load.events.len(), "the picker's count differs");
    }
    match jp::load(events, base) {
        Ok(load) => {
            for diagnostic in &load.diagnostics {
                let line = diagnostic.to_string();
                assert!(!line.contains('\n'), "diagnostic spans lines: {line:?}");
            }
            let conversation = Conversation::new(load.events, load.base_config, None);
            for view in [View::Raw, View::User, View::Provider] {
                for event in conversation.view(view).iter() {
                    let _ = event.to_json();
                }
            }
        }
        Err(err) => {
            let line = err.to_string();
            assert!(!line.contains('\n'), "error spans lines: {line:?}");
        }
    }
}

fn incremental(old: &[u8], new: &[u8]) {
    let Ok((mut stream, mut known)) = JpStream::open(old, None) else {
        return;
    };
    let updated = stream.update(new, None);
    let fresh = jp::load(new, None);
    match (updated, fresh) {
        (Ok(Delta::Unchanged), Ok(fresh)) => assert_eq!(known, fresh, "unchanged, yet different"),
        (Ok(Delta::Reloaded(load)), Ok(fresh)) => assert_eq!(load, fresh, "reload differs"),
        (Ok(Delta::Appended(added)), Ok(fresh)) => {
            known.events.extend(added.events);
            known.diagnostics.extend(added.diagnostics);
            assert_eq!(known, fresh, "appending differs from a fresh load");
        }
        (Err(a), Err(b)) => assert_eq!(a, b),
        (a, b) => panic!("update gave {a:?}, a fresh load gave {b:?}"),
    }
}
