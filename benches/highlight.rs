//! `highlight`: the shape of fuzz finding 10 (docs/hardening.md) — a long
//! ```` ```rust ```` fence holding docs/hardening.md's own tables — laid out
//! by the markdown bridge at 10, 20, 40 and 60 KB, next to the same fence
//! shown plain (no language) in the same run; and an 80 KB fence, past
//! `MAX_HIGHLIGHT_BYTES`, which is shown plain by design.
//!
//! Each case is timed warm (the grammar's regexes compiled by an earlier
//! iteration): what a second block of the same language costs. Every line
//! of every block laid out is new (the rows carry a running number), so
//! the highlighter's memory of lines parsed before (`render/highlight/
//! parse_memo.rs`) never answers: this is the cost of code never seen. The
//! `again` lines time the same block laid out a second time, answered from
//! that memory. The budget lines after criterion's report give CPU time per
//! KB at each size (flat when the cost is linear in the block) and the ratio
//! to the plain fence.

mod common;

use std::time::Duration;

use common::Took;
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use overhear::render::markdown::markdown_to_lines;
use overhear::render::theme::Theme;

/// The rows of docs/hardening.md's tables, repeated to `bytes`, fenced as `lang`; each row
/// ends in its number counted from `first`, so no two lines are the same.
fn fence(lang: &str, bytes: usize, first: usize) -> String {
    let doc = include_str!("../docs/hardening.md");
    let rows: Vec<&str> = doc.lines().filter(|line| line.starts_with('|')).collect();
    let mut code = String::with_capacity(bytes + 512);
    for (number, row) in rows.iter().cycle().enumerate() {
        if code.len() >= bytes {
            break;
        }
        code.push_str(&format!("{row} {}\n", first + number));
    }
    format!("```{lang}\n{code}```\n")
}

/// Fences never laid out before: each call numbers its rows after the last.
struct Fresh(usize);

impl Fresh {
    fn fence(&mut self, lang: &str, bytes: usize) -> String {
        self.0 += 1_000_000;
        fence(lang, bytes, self.0)
    }
}

fn lay_out(text: &str, theme: &Theme) -> usize {
    markdown_to_lines(text, 100, theme).len()
}

fn bench(c: &mut Criterion) {
    let theme = Theme::builtin("dark").expect("built-in theme");
    let mut fresh = Fresh(0);
    // Compile the grammar's regexes once, as any block after the first finds them.
    lay_out(&fresh.fence("rust", 4 * 1024), &theme);
    let sizes = [10, 20, 40, 60, 80];
    let mut group = c.benchmark_group("highlight");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    for kb in sizes {
        group.bench_function(format!("plain/{kb}KB"), |b| {
            b.iter_batched(
                || fresh.fence("", kb * 1024),
                |plain| lay_out(&plain, &theme),
                BatchSize::LargeInput,
            )
        });
        group.bench_function(format!("rust/{kb}KB"), |b| {
            b.iter_batched(
                || fresh.fence("rust", kb * 1024),
                |rust| lay_out(&rust, &theme),
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();

    // Medians of interleaved rounds, so that both see the same load.
    for kb in sizes {
        let mut highlighted = Vec::new();
        let mut again = Vec::new();
        let mut shown_plain = Vec::new();
        for _ in 0..7 {
            let plain = fresh.fence("", kb * 1024);
            shown_plain.push(Took::of(|| lay_out(&plain, &theme)).1);
            let rust = fresh.fence("rust", kb * 1024);
            highlighted.push(Took::of(|| lay_out(&rust, &theme)).1);
            again.push(Took::of(|| lay_out(&rust, &theme)).1);
        }
        let (highlighted, again, shown_plain) = (
            Took::median(&highlighted),
            Took::median(&again),
            Took::median(&shown_plain),
        );
        println!(
            "highlight rust {kb} KB: {} = {:.2} ms CPU per KB; plain {}; ratio {:.1}; again {} (ratio to plain {:.1})",
            highlighted.ms(),
            highlighted.cpu.as_secs_f64() * 1000.0 / kb as f64,
            shown_plain.ms(),
            highlighted.ratio(&shown_plain),
            again.ms(),
            again.ratio(&shown_plain)
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
