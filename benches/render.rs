//! `render`: laying out and printing the largest conversation at 120 columns,
//! next to loading it, both measured in the same run.

mod common;

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use overhear::format::jp;
use overhear::model::Conversation;
use overhear::render::document::{DocOptions, Document};
use overhear::render::print::{CodeOverflow, PrintOptions, print_document};
use overhear::render::theme::Theme;
use overhear::text::sanitize::SanitizeMode;

fn bench(c: &mut Criterion) {
    let (name, events, base) = common::largest_fixture().unwrap_or_else(|| {
        let events = common::stored(&common::conversation_events(2 * 1024 * 1024));
        ("synthetic-2MB".into(), events, Some(common::base_config()))
    });
    let load = jp::load(&events, base.as_deref()).expect("valid");
    let conv = Conversation::new(load.events, load.base_config, None);
    let options = PrintOptions {
        width: 120,
        color: true,
        theme: Theme::builtin("dark").expect("built-in theme"),
        sanitize: SanitizeMode::Strip,
        turns: None,
        code: CodeOverflow::Wrap,
    };
    let mut group = c.benchmark_group("render");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function(format!("load/{name}"), |b| {
        b.iter(|| jp::load(&events, base.as_deref()).expect("valid"))
    });
    group.bench_function(format!("render-120/{name}"), |b| {
        b.iter(|| {
            let doc = Document::build(&conv, &DocOptions::default());
            let mut out = Vec::with_capacity(1 << 20);
            print_document(&mut out, &conv, &doc, &options).expect("in memory");
            out
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
