//! `load`: reading a JP conversation into events, against a plain
//! `serde_json::from_slice::<Value>` of the same bytes measured in the same
//! run. Budget: loading costs at most 1.5× that baseline. The
//! viewer's way of reading (`JpStream::read_from`, entry by entry while the
//! file is read), `render --turn`'s (`JpOutline::read_from`, in outline)
//! and `render --turn -1`'s (`JpSparse::read_from`: the turns and their
//! configuration only) are reported beside it.

mod common;

use std::time::Duration;

use common::Took;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use overhear::format::jp;

fn inputs() -> Vec<(String, Vec<u8>, Option<Vec<u8>>)> {
    let mut inputs = Vec::new();
    if let Some(fixture) = common::largest_fixture() {
        inputs.push(fixture);
    }
    let synthetic = common::stored(&common::conversation_events(100 * 1024 * 1024));
    inputs.push((
        "synthetic-100MB".into(),
        synthetic,
        Some(common::base_config()),
    ));
    inputs
}

/// The median CPU and wall time of each of `fs` over `runs` rounds. The
/// calls of a round run one after the other, so that all of them see the
/// same load on a shared machine and their ratios stay fair.
fn time_interleaved<const N: usize>(runs: usize, mut fs: [&mut dyn FnMut(); N]) -> [Took; N] {
    let mut samples: [Vec<Took>; N] = std::array::from_fn(|_| Vec::with_capacity(runs));
    for _ in 0..runs {
        for (f, samples) in fs.iter_mut().zip(samples.iter_mut()) {
            samples.push(Took::of(f).1);
        }
    }
    samples.map(|samples| Took::median(&samples))
}

fn bench(c: &mut Criterion) {
    let inputs = inputs();
    let mut group = c.benchmark_group("load");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(8));
    for (name, events, base) in &inputs {
        group.throughput(Throughput::Bytes(events.len() as u64));
        group.bench_with_input(
            BenchmarkId::new("serde_json_value", name),
            events,
            |b, events| {
                b.iter(|| serde_json::from_slice::<serde_json::Value>(events).expect("valid"))
            },
        );
        group.bench_with_input(BenchmarkId::new("overhear", name), events, |b, events| {
            b.iter(|| jp::load(events, base.as_deref()).expect("valid"))
        });
        group.bench_with_input(BenchmarkId::new("sparse", name), events, |b, events| {
            b.iter(|| {
                jp::JpSparse::read_from(&mut &events[..], base.as_deref(), Some(1)).expect("read")
            })
        });
    }
    group.finish();

    // The budget as a ratio, both sides measured here and now.
    for (name, events, base) in &inputs {
        let mb = events.len() as f64 / (1024.0 * 1024.0);
        let [baseline, ours, streamed, outlined, sparse] = time_interleaved(
            7,
            [
                &mut || drop(serde_json::from_slice::<serde_json::Value>(events)),
                &mut || drop(jp::load(events, base.as_deref())),
                // The viewer's way: entry by entry while reading, never the whole file.
                &mut || drop(jp::JpStream::read_from(&mut &events[..], base.as_deref())),
                // `render --turn`'s way: in outline, nothing decoded but config deltas.
                &mut || drop(jp::JpOutline::read_from(&mut &events[..], base.as_deref())),
                // `render --turn -1`'s: the turns and their configuration only,
                // the turns before the last two folded into their count.
                &mut || {
                    drop(jp::JpSparse::read_from(
                        &mut &events[..],
                        base.as_deref(),
                        Some(1),
                    ))
                },
            ],
        );
        println!(
            "load {name}: read sparsely (render --turn -1) {} · {:.2}× the baseline by CPU time",
            sparse.ms(),
            sparse.ratio(&baseline)
        );
        println!(
            "load {name}: read in outline (render --turn) {} · {:.2}× the baseline by CPU time",
            outlined.ms(),
            outlined.ratio(&baseline)
        );
        println!(
            "load {name}: read while streaming {} · {:.2}× the baseline by CPU time",
            streamed.ms(),
            streamed.ratio(&baseline)
        );
        println!(
            "load {name}: {mb:.1} MB · baseline {} = {:.0} MB/s · overhear {} = {:.0} MB/s · ratio {:.2}× by CPU time, {:.2}× by wall time (budget 1.5×)",
            baseline.ms(),
            mb / baseline.cpu.as_secs_f64(),
            ours.ms(),
            mb / ours.cpu.as_secs_f64(),
            ours.ratio(&baseline),
            ours.wall.as_secs_f64() / baseline.wall.as_secs_f64()
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
