//! The text layer's two bounds on arbitrary input: the
//! first byte picks a width 10..=200, the rest (as UTF-8, invalid bytes
//! replaced) goes into every block kind of a conversation. No rendered line may
//! be wider than the width by `overhear::text::width`, and nothing but SGR may
//! be emitted. `tests/it/all_widths.rs` checks the same at every width.

#![no_main]

#[path = "../../tests/it/all_widths/check.rs"]
mod check;
#[path = "../../tests/it/common/sgr.rs"]
mod sgr;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let width = 10 + usize::from(pick) % 191;
    let text = String::from_utf8_lossy(rest);
    let conv = check::conversation(&text);
    if let Some(why) = check::violation(&conv, width) {
        panic!("{why}\ntext: {text:?}");
    }
});
