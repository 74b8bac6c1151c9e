//! `highlight`: the shape of fuzz finding 10 (docs/hardening.md) — a long
//! ```` ```rust ```` fence holding docs/hardening.md's own tables — laid out
//! by the markdown bridge at 10, 20, 40 and 60 KB, next to the same fence
//! shown plain (no language) in the same run; and an 80 KB fence, past
//! `MAX_HIGHLIGHT_BYTES`, which is shown plain by design.
//!
//! Each case is timed warm (the grammar's regexes compiled by an earlier
//! iteration): what a second block of the same language costs. The budget
//! lines after criterion's report give CPU time per KB at each size (flat
//! when the cost is linear in the block) and the ratio to the plain fence.

mod common;

use std::time::Duration;

use common::Took;
use criterion::{Criterion, criterion_group, criterion_main};
use overhear::render::markdown::markdown_to_lines;
use overhear::render::theme::Theme;

/// The rows of docs/hardening.md's tables, repeated to `bytes`, fenced as `lang`.
fn fence(lang: &str, bytes: usize) -> String {
    let doc = include_str!("../docs/hardening.md");
    let rows: Vec<&str> = doc.lines().filter(|line| line.starts_with('|')).collect();
    let mut code = String::with_capacity(bytes + 512);
    for row in rows.iter().cycle() {
        if code.len() >= bytes {
            break;
        }
        code.push_str(row);
        code.push('\n');
    }
    format!("```{lang}\n{code}```\n")
}

fn lay_out(text: &str, theme: &Theme) -> usize {
    markdown_to_lines(text, 100, theme).len()
}

fn bench(c: &mut Criterion) {
    let theme = Theme::builtin("dark").expect("built-in theme");
    // Compile the grammar's regexes once, as any block after the first finds them.
    lay_out(&fence("rust", 4 * 1024), &theme);
    let sizes = [10, 20, 40, 60, 80];
    let mut group = c.benchmark_group("highlight");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    for kb in sizes {
        let rust = fence("rust", kb * 1024);
        let plain = fence("", kb * 1024);
        group.bench_function(format!("plain/{kb}KB"), |b| {
            b.iter(|| lay_out(&plain, &theme))
        });
        group.bench_function(format!("rust/{kb}KB"), |b| {
            b.iter(|| lay_out(&rust, &theme))
        });
    }
    group.finish();

    // Medians of interleaved rounds, so that both see the same load.
    for kb in sizes {
        let rust = fence("rust", kb * 1024);
        let plain = fence("", kb * 1024);
        let mut highlighted = Vec::new();
        let mut shown_plain = Vec::new();
        for _ in 0..7 {
            shown_plain.push(Took::of(|| lay_out(&plain, &theme)).1);
            highlighted.push(Took::of(|| lay_out(&rust, &theme)).1);
        }
        let (highlighted, shown_plain) = (Took::median(&highlighted), Took::median(&shown_plain));
        println!(
            "highlight rust {kb} KB: {} = {:.2} ms CPU per KB; plain {}; ratio {:.1}",
            highlighted.ms(),
            highlighted.cpu.as_secs_f64() * 1000.0 / kb as f64,
            shown_plain.ms(),
            highlighted.ratio(&shown_plain)
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
