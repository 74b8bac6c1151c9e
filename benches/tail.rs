//! `tail`: following a conversation as it grows (design "Budgets").
//!
//! * JP: a whole-file rewrite that appends one turn to a 100 MB conversation,
//!   applied the way the viewer applies it (`App::reload` → `LiveDocument`
//!   → `Live::refresh_unproven` → `JpStream::read_rest` +
//!   `Conversation::extend` + the document update), drawn and proven
//!   (`App::prove` → `JpStream::prove`), must cost under 10% of a full parse
//!   (`jp::load` of the same bytes) measured in the same run. Reported in
//!   the CPU time of the viewer's thread and of all threads (the prefix is
//!   read and hashed on several), and in wall time.
//! * eve: an appended NDJSON line must cost time proportional to the line,
//!   not to the stream: the same line appended to a short and to a long
//!   stream should cost the same.
//! * following: the whole way of an appended NDJSON line, as the viewer
//!   follows it — written to the file, noticed by the real watch
//!   (`source::watch::file`, inotify), read and applied to the viewer's
//!   document — must take under 10 ms; beside it, in the same run, the
//!   baseline: the same line written and read back with a plain `read`.
//! * following JP: the whole way of a rewrite that appends one turn to a
//!   100 MB conversation — the new file renamed over `events.json`, the
//!   rename noticed by the real watch (`source::watch::conversation`),
//!   reloaded and drawn — in wall time (issue 30: ≤ 20 ms); and beside it
//!   the time until the bytes before the new turn, read again after the
//!   frame, are proven unchanged. The writer's
//!   own work (the temporary file's 100 MB) is not timed: it is done before
//!   the rename, which is when the new turn exists for a reader.

mod common;

use std::io::{Read as _, Write as _};
use std::path::Path;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant, SystemTime};

use common::Took;

use criterion::{Criterion, criterion_group, criterion_main};
use overhear::format::PrefixHasher;
use overhear::format::jp;
use overhear::load::Live;
use overhear::render::document::DocOptions;
use overhear::render::theme::Theme;
use overhear::source::ConversationDir;
use overhear::source::watch::{self, Change};
use overhear::text::sanitize::SanitizeMode;
use overhear::tui::live::{LiveDocument, LiveUpdate};
use overhear::tui::{App, Proven, Reload, ViewerOptions};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::{Value, json};
use std::hash::Hasher as _;

use twox_hash::XxHash3_64;

fn viewer(live: Live) -> App<LiveDocument> {
    let doc = LiveDocument::new(
        live,
        DocOptions::default(),
        Theme::dark(),
        SanitizeMode::Strip,
    );
    App::new(doc, ViewerOptions::default())
}

/// A reload as the viewer's loop makes it: the change read and drawn, then
/// the bytes before it proven unchanged (all of its work).
fn reload(app: &mut App<LiveDocument>, term: &mut Terminal<TestBackend>) {
    app.reload(Reload {
        epoch: 0,
        update: LiveUpdate::Changed(Change::Events),
        at: SystemTime::now(),
    });
    term.draw(|f| app.draw(f)).expect("test backend");
    prove(app);
}

/// Proves what the last reload showed, a step at a time as the viewer's
/// loop does when no key waits; the longest step (what a key may wait).
fn prove(app: &mut App<LiveDocument>) -> Duration {
    let mut longest = Duration::ZERO;
    loop {
        let started = Instant::now();
        let proven = app.prove();
        longest = longest.max(started.elapsed());
        match proven {
            Proven::Working => {}
            Proven::Shown => return longest,
            Proven::Redraw(_) => panic!("an append is proven"),
        }
    }
}

/// Waits for the watch to report that the followed file changed (its
/// events), and has the viewer read the change.
fn reload_on_change(app: &mut App<LiveDocument>, changes: &Receiver<Change>) {
    let change = changes
        .recv_timeout(Duration::from_secs(5))
        .expect("the watch reports the write");
    assert_eq!(change, Change::Events, "the write is reported");
    app.reload(Reload {
        epoch: 0,
        update: LiveUpdate::Changed(change),
        at: SystemTime::now(),
    });
}

/// A JP conversation of `bytes` followed by the viewer; each step rewrites
/// the file with one more turn (untimed) and times the reload and frame.
struct JpTail {
    dir: std::path::PathBuf,
    stored: Vec<u8>,
    next_turn: usize,
    app: App<LiveDocument>,
    term: Terminal<TestBackend>,
    _tmp: tempfile::TempDir,
}

impl JpTail {
    fn new(bytes: usize) -> Self {
        let events = common::conversation_events(bytes);
        let next_turn = common::turns_in(&events);
        let stored = common::stored(&events);
        drop(events);
        let tmp = tempfile::tempdir().expect("temporary folder");
        let dir = common::write_conversation(tmp.path(), &stored);
        // Opened as the viewer opens it: at its end, earlier turns in outline.
        let live = Live::open_jp_at_end(ConversationDir::new(&dir), None).expect("valid");
        let mut app = viewer(live);
        let mut term = Terminal::new(TestBackend::new(200, 60)).expect("test backend");
        term.draw(|f| app.draw(f)).expect("test backend");
        JpTail {
            dir,
            stored,
            next_turn,
            app,
            term,
            _tmp: tmp,
        }
    }

    /// One more turn at the end of the stored bytes (not written yet).
    fn grow(&mut self) {
        let turn = common::turn_events(42, self.next_turn);
        self.next_turn += 1;
        self.stored = common::appended(&self.stored, &turn);
    }

    /// Appends a turn and returns the time the viewer took to show it, and
    /// the CPU time of all the process's threads meanwhile (the prefix is
    /// hashed on several).
    fn step(&mut self) -> (Took, Duration) {
        self.grow();
        write_replacing(&self.dir.join("events.json"), &self.stored);
        let before = process_cpu_time();
        let took = Took::of(|| reload(&mut self.app, &mut self.term)).1;
        (took, process_cpu_time() - before)
    }

    /// Appends a turn through the real watch: the temporary file written
    /// (untimed), then the wall time from the rename to the frame drawn
    /// with the turn, the change received from `changes` on the way. The
    /// rename is the writer's, made on a thread of its own as JP makes it in
    /// its own process: the kernel frees the replaced 100 MB inside the
    /// writer's `rename` call (45–50 ms on ext4), after the new file is in
    /// place and the watch has been told.
    ///
    /// Also the wall time from the rename to the turn proven (the bytes
    /// before it read again and found unchanged), which the viewer's loop
    /// does after drawing it, a step at a time, and its longest step.
    fn follow_step(&mut self, changes: &Receiver<Change>) -> Followed {
        self.grow();
        let path = self.dir.join("events.json");
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, &self.stored).expect("temporary folder");
        let started = Instant::now();
        let writer = std::thread::spawn(move || {
            std::fs::rename(&tmp, &path).expect("temporary folder");
        });
        reload_on_change(&mut self.app, changes);
        self.term.draw(|f| self.app.draw(f)).expect("test backend");
        let shown = started.elapsed();
        let step = prove(&mut self.app);
        let proven = started.elapsed();
        writer.join().expect("the writer renames");
        // The burst the writes began ends before the next one.
        while changes.recv_timeout(Duration::from_millis(60)).is_ok() {}
        Followed {
            shown,
            proven,
            step,
        }
    }
}

/// One rewrite followed through the watch ([`JpTail::follow_step`]).
struct Followed {
    /// From the rename to the frame with the new turn.
    shown: Duration,
    /// From the rename to the bytes before it proven unchanged.
    proven: Duration,
    /// The longest step of the proof: what a key waits at most.
    step: Duration,
}

/// CPU time of all the process's threads: [`Took`] counts the calling
/// thread's only.
// Read with clock_gettime(2), which has no safe wrapper.
#[allow(unsafe_code)]
fn process_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec for the call to fill in.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Replaces a file the way JP does: a temporary file renamed over it.
fn write_replacing(path: &Path, bytes: &[u8]) {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes).expect("temporary folder");
    std::fs::rename(&tmp, path).expect("temporary folder");
}

/// An eve (gen A) stream of `turns` turns, one event per line, shaped like
/// the eve fixtures: each turn a question, one step with its answer, usage.
fn eve_lines(turns: usize) -> Vec<Vec<u8>> {
    let mut lines = Vec::new();
    let mut id = 0;
    let mut line = |kind: &str, data: Value| {
        id += 1;
        let value = json!({"type": kind, "data": data,
                           "meta": {"id": format!("evt-{id}"), "at": "2026-05-01T10:00:00.000Z"}});
        let mut bytes = serde_json::to_vec(&value).expect("serializable");
        bytes.push(b'\n');
        bytes
    };
    lines.push(line("session.started", json!({})));
    for t in 0..turns {
        let turn = format!("turn-{t}");
        let question = format!("question {t}: where is the parser?");
        let answer = "The parser lives in crates/jp_parse/src/lib.rs. ".repeat(8);
        lines.push(line("turn.started", json!({"sequence": t, "turnId": turn})));
        lines.push(line(
            "message.received",
            json!({"message": question, "parts": [{"text": question, "type": "text"}],
                   "sequence": t, "turnId": turn}),
        ));
        lines.push(line(
            "step.started",
            json!({"modelId": "eve-mock/model", "sequence": t, "stepIndex": 0, "turnId": turn}),
        ));
        lines.push(line(
            "message.completed",
            json!({"finishReason": "stop", "message": answer, "sequence": t, "stepIndex": 0,
                   "turnId": turn}),
        ));
        lines.push(line(
            "step.completed",
            json!({"finishReason": "stop", "sequence": t, "stepIndex": 0, "turnId": turn,
                   "usage": {"inputTokens": 100, "outputTokens": 10, "cacheReadTokens": 0,
                             "cacheWriteTokens": 0}}),
        ));
        lines.push(line(
            "turn.completed",
            json!({"sequence": t, "turnId": turn}),
        ));
    }
    lines
}

/// An eve stream of some turns written to a file and followed by a viewer
/// drawn at 200×60, with the lines that come next.
struct EveStream {
    file: std::fs::File,
    path: std::path::PathBuf,
    app: App<LiveDocument>,
    term: Terminal<TestBackend>,
    /// The lines not written yet, in order.
    next: Vec<Vec<u8>>,
    _tmp: tempfile::TempDir,
}

impl EveStream {
    /// A stream of `turns` turns, and `more` lines to append after them.
    fn new(turns: usize, more: usize) -> Self {
        let mut lines = eve_lines(turns + more.div_ceil(6));
        let next = lines.split_off(1 + 6 * turns);
        let tmp = tempfile::tempdir().expect("temporary folder");
        let path = tmp.path().join("session.ndjson");
        let mut file = std::fs::File::create(&path).expect("temporary folder");
        file.write_all(&lines.concat()).expect("temporary folder");
        file.flush().expect("temporary folder");
        let live = Live::open_eve(path.clone()).expect("valid stream");
        let mut app = viewer(live);
        let mut term = Terminal::new(TestBackend::new(200, 60)).expect("test backend");
        term.draw(|f| app.draw(f)).expect("test backend");
        EveStream {
            file,
            path,
            app,
            term,
            next: next.into_iter().take(more).collect(),
            _tmp: tmp,
        }
    }

    /// Writes `line` at the stream's end.
    fn write(&mut self, line: &[u8]) {
        self.file.write_all(line).expect("temporary folder");
        self.file.flush().expect("temporary folder");
    }

    /// Hands each next line in turn to `append`, which writes it (with
    /// [`EveStream::write`]) and times what it times; the samples.
    fn each_line(&mut self, mut append: impl FnMut(&mut Self, &[u8]) -> Took) -> Vec<Took> {
        std::mem::take(&mut self.next)
            .iter()
            .map(|line| append(self, line))
            .collect()
    }
}

/// Time to apply one more appended line to an eve stream of `turns` turns
/// followed by the viewer, reloaded and drawn (median over `runs` lines).
fn eve_append(turns: usize, runs: usize) -> Took {
    let mut stream = EveStream::new(turns, runs);
    let samples = stream.each_line(|s, line| {
        s.write(line);
        Took::of(|| reload(&mut s.app, &mut s.term)).1
    });
    Took::median(&samples)
}

/// Wall time from writing one more line to an eve stream of 100 turns to
/// the viewer's document holding it, through the real watch (median over
/// `runs` lines), and the baseline: the same line written to a file nobody
/// watches and read back with a plain `read`.
fn eve_follow(runs: usize) -> (Duration, Duration) {
    let mut stream = EveStream::new(100, runs);
    let (_watch, changes) = watch::file(&stream.path).expect("watchable folder");
    // The baseline's file is apart, in a folder nobody watches: its writes
    // must not begin a burst of the followed file's.
    let apart = tempfile::tempdir().expect("temporary folder");
    let plain_path = apart.path().join("plain.ndjson");
    let mut plain_file = std::fs::File::create(&plain_path).expect("temporary folder");
    let mut reader = std::fs::File::open(&plain_path).expect("temporary folder");
    let mut buf = vec![0u8; 64 * 1024];
    let mut plain = Vec::new();
    let followed = stream.each_line(|s, line| {
        // Baseline: write the line and read it back.
        let (_, took) = Took::of(|| {
            plain_file.write_all(line).expect("temporary folder");
            let mut got = 0;
            while got < line.len() {
                got += reader.read(&mut buf).expect("temporary folder");
            }
        });
        plain.push(took);
        // The viewer's way: the write, the change the watch reports, the reload.
        let (_, took) = Took::of(|| {
            s.write(line);
            reload_on_change(&mut s.app, &changes);
        });
        // The burst the write began ends before the next write.
        while changes.recv_timeout(Duration::from_millis(60)).is_ok() {}
        took
    });
    (Took::median(&followed).wall, Took::median(&plain).wall)
}

/// The median of `runs` timings of `f`.
fn median_of(runs: usize, mut f: impl FnMut()) -> Took {
    let samples: Vec<Took> = (0..runs).map(|_| Took::of(&mut f).1).collect();
    Took::median(&samples)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("tail");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));

    let mut tail = JpTail::new(100 * 1024 * 1024);
    let size = tail.stored.len() as f64 / (1024.0 * 1024.0);
    let base = common::base_config();
    group.bench_function("jp-full-parse/100MB", |b| {
        b.iter(|| jp::load(&tail.stored, Some(&base)).expect("valid"))
    });
    group.bench_function("jp-append-turn/100MB", |b| {
        b.iter_custom(|iters| (0..iters).map(|_| tail.step().0.wall).sum())
    });
    group.bench_function("eve-append-line/100-turns", |b| {
        b.iter_custom(|iters| eve_append(100, iters as usize).wall * iters as u32)
    });
    group.finish();

    // The budget as ratios, both sides measured here and now.
    let full = median_of(5, || drop(jp::load(&tail.stored, Some(&base))));
    // What a viewer that re-read everything would pay: read, parse, group.
    let reopen = median_of(5, || {
        drop(Live::open_jp(ConversationDir::new(&tail.dir), None).expect("valid"))
    });
    let (append, mut all_threads): (Vec<Took>, Vec<Duration>) = (0..9).map(|_| tail.step()).unzip();
    let append = Took::median(&append);
    all_threads.sort();
    let all_threads = all_threads[all_threads.len() / 2];
    // For comparison: reading the whole file (what an append no longer
    // does: the part parsed before is streamed through the hash) and
    // hashing it once (what an append still does, to know it is unchanged).
    let read = median_of(5, || {
        drop(ConversationDir::new(&tail.dir).read().expect("readable"))
    });
    let hash = median_of(5, || {
        std::hint::black_box(XxHash3_64::oneshot(&tail.stored));
    });
    // Streaming XXH3 over the whole file on one thread, from memory: what
    // the prefix hash below costs at least.
    let streamed = median_of(5, || {
        let mut hasher = XxHash3_64::new();
        tail.stored.chunks(1 << 20).for_each(|c| hasher.write(c));
        std::hint::black_box(hasher.finish());
    });
    let prefix = median_of(5, || {
        let mut hasher = PrefixHasher::new();
        tail.stored.chunks(1 << 20).for_each(|c| hasher.update(c));
        std::hint::black_box(hasher.digest());
    });
    println!(
        "tail jp {size:.1} MB: full parse (jp::load) {} · full re-open (read, parse, group) {} · one turn appended, reloaded and drawn {}, {:.3} ms CPU of all threads · ratio {:.3} of the parse by CPU time ({:.3} by wall time, {:.3} by the CPU time of all threads), {:.3} of the re-open by CPU time (budget 0.10)",
        full.ms(),
        reopen.ms(),
        append.ms(),
        all_threads.as_secs_f64() * 1e3,
        append.ratio(&full),
        append.wall.as_secs_f64() / full.wall.as_secs_f64(),
        all_threads.as_secs_f64() / full.cpu.as_secs_f64(),
        append.ratio(&reopen)
    );
    println!(
        "tail jp {size:.1} MB: for comparison, reading the whole file {} and hashing it once {} (together {:.3} of the parse by CPU time); streamed through a hash on one thread, from memory: XXH3 {}, the prefix hash {} (ratio {:.2})",
        read.ms(),
        hash.ms(),
        (read.cpu + hash.cpu).as_secs_f64() / full.cpu.as_secs_f64(),
        streamed.ms(),
        prefix.ms(),
        prefix.ratio(&streamed)
    );
    let (_watch, changes) =
        watch::conversation(&ConversationDir::new(&tail.dir)).expect("watchable folder");
    let steps: Vec<Followed> = (0..15).map(|_| tail.follow_step(&changes)).collect();
    let sorted = |of: fn(&Followed) -> Duration| {
        let mut all: Vec<Duration> = steps.iter().map(of).collect();
        all.sort();
        all
    };
    let (followed, proven, step) = (
        sorted(|f| f.shown),
        sorted(|f| f.proven),
        sorted(|f| f.step),
    );
    println!(
        "tail jp follow {size:.1} MB: one turn appended by a rewrite, from the rename to the frame drawn, through the watch {:.2} ms wall median (fastest {:.2}, slowest {:.2}; issue 30: ≤ 20 ms)",
        followed[followed.len() / 2].as_secs_f64() * 1e3,
        followed[0].as_secs_f64() * 1e3,
        followed[followed.len() - 1].as_secs_f64() * 1e3,
    );
    println!(
        "tail jp follow {size:.1} MB: the same, from the rename to the turn proven (the bytes before it read again and unchanged, after the frame, a step at a time) {:.2} ms wall median (fastest {:.2}, slowest {:.2}); the longest step of a proof, what a key waits at most, {:.2} ms median (longest {:.2})",
        proven[proven.len() / 2].as_secs_f64() * 1e3,
        proven[0].as_secs_f64() * 1e3,
        proven[proven.len() - 1].as_secs_f64() * 1e3,
        step[step.len() / 2].as_secs_f64() * 1e3,
        step[step.len() - 1].as_secs_f64() * 1e3,
    );
    let (followed, plain) = eve_follow(30);
    println!(
        "tail eve follow: one line appended, noticed by the watch, read and in the document {:.2} ms wall (budget 10 ms) · written and read back with a plain read {:.3} ms · ratio {:.1}",
        followed.as_secs_f64() * 1e3,
        plain.as_secs_f64() * 1e3,
        followed.as_secs_f64() / plain.as_secs_f64()
    );
    let short = eve_append(100, 30);
    let long = eve_append(10_000, 30);
    println!(
        "tail eve: one line appended to 100 turns {} · to 10000 turns {} · ratio {:.2} by CPU time (proportional to the line: ≈1)",
        short.ms(),
        long.ms(),
        long.ratio(&short)
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
