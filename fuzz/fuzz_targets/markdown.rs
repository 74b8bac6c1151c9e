//! The markdown bridge at every width from 1 to 300.
//!
//! The first two bytes pick the width (1 + little-endian u16 % 300: one byte
//! could not reach every width); the rest is the text. No
//! rendered line may be wider than the width, and no span may hold a control
//! character (a tab or newline inside a span would move the cursor and break
//! the width on a real terminal; an escape would reach it). Cut into pieces
//! wherever `render::split` allows a cut, the text lays out into exactly the
//! same lines, piece by piece. libFuzzer's `-timeout=1` makes any input
//! slower than a second a finding.

#![no_main]

use libfuzzer_sys::fuzz_target;
use overhear::render::markdown::markdown_to_lines;
use overhear::render::split::{SplitLimits, markdown_pieces};
use overhear::render::theme::Theme;
use overhear::text::width::line_width;

fuzz_target!(|data: &[u8]| {
    let [a, b, rest @ ..] = data else {
        return;
    };
    let width = 1 + usize::from(u16::from_le_bytes([*a, *b])) % 300;
    let text = String::from_utf8_lossy(rest);
    let theme = Theme::dark();
    let lines = markdown_to_lines(&text, width, &theme);
    for (n, line) in lines.iter().enumerate() {
        let used = line_width(line);
        assert!(used <= width, "line {n} is {used} columns wide at width {width}: {line:?}");
        for span in &line.spans {
            assert!(
                !span.content.chars().any(char::is_control),
                "control character in line {n}: {line:?}"
            );
        }
    }
    let everywhere = SplitLimits {
        above: 0,
        bytes: 0,
        lines: 1,
    };
    let pieces = markdown_pieces(&text, &everywhere);
    if pieces.len() > 1 {
        let mut pieced = Vec::new();
        for (i, range) in pieces.iter().enumerate() {
            if i > 0 {
                pieced.push(Default::default());
            }
            pieced.extend(markdown_to_lines(&text[range.clone()], width, &theme));
        }
        assert_eq!(pieced, lines, "pieces {pieces:?} lay out unlike the whole");
    }
});
