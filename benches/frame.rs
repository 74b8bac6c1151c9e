//! `frame`: drawing one 200×60 frame of the viewer anywhere in a long
//! conversation (design "Budgets": under 5 ms however long the
//! conversation). Conversations of 1, 10 and 100 MB are opened through the
//! real path (`Live::open_jp` → `LiveDocument` → `App`) and drawn into a
//! ratatui `TestBackend`, at their top, middle and end:
//!
//! * a *cached* frame: the same place drawn again (what every keypress or
//!   tick that moves nothing costs);
//! * an *uncached* frame: a jump to a turn never shown before, then the frame
//!   (layout, highlighting and fingerprints of what lands on screen).
//!
//! The baseline, measured in the same run, is the cached frame of a small
//! (~20 KB) conversation; the ratios show whether a frame grows with length.
//!
//! The *first frame* of a fresh viewer is drawn the way the viewer opens a
//! conversation — at its end ([`Live::open_jp_at_end`]: the earlier turns in
//! outline, the last ones decoded) — beside the same frame of the
//! conversation read whole, its baseline in the same run.

mod common;

use std::path::Path;
use std::rc::Rc;
use std::time::Duration;

use common::Took;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use overhear::load::Live;
use overhear::render::document::{BlockKey, DocOptions};
use overhear::render::lazy_highlight::{Colour, ColourStep};
use overhear::render::theme::Theme;
use overhear::source::ConversationDir;
use overhear::text::sanitize::SanitizeMode;
use overhear::tui::blocks::Landmark;
use overhear::tui::live::{LiveDocument, LiveUpdate};
use overhear::tui::{
    App, BlockClass, Blocks, EarlierTurns, Follow, LiveState, ReadError, Replaying, ViewerOptions,
};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::text::Line;

const WIDTH: u16 = 200;
const HEIGHT: u16 = 60;

/// One opened document shared by many viewers, so each measurement can start
/// from an empty layout cache without opening the conversation again.
struct Shared(Rc<LiveDocument>);

impl Blocks for Shared {
    type Key = BlockKey;

    fn len(&self) -> usize {
        self.0.len()
    }

    fn key(&self, i: usize) -> BlockKey {
        self.0.key(i)
    }

    fn revision(&self, i: usize) -> u64 {
        self.0.revision(i)
    }

    fn turn(&self, i: usize) -> usize {
        self.0.turn(i)
    }

    fn class(&self, i: usize) -> BlockClass {
        self.0.class(i)
    }

    fn is(&self, i: usize, landmark: Landmark) -> bool {
        self.0.is(i, landmark)
    }

    fn limited(&self, i: usize) -> bool {
        self.0.limited(i)
    }

    fn foldable(&self, i: usize) -> bool {
        self.0.foldable(i)
    }

    fn lines(&self, i: usize, width: usize, folded: bool) -> Vec<Line<'static>> {
        self.0.lines(i, width, folded)
    }

    fn lines_coloured(
        &self,
        i: usize,
        width: usize,
        folded: bool,
        colour: Colour,
    ) -> (Vec<Line<'static>>, usize) {
        self.0.lines_coloured(i, width, folded, colour)
    }

    fn colour_generation(&self) -> u64 {
        self.0.colour_generation()
    }

    fn colour_more(&self) -> ColourStep {
        self.0.colour_more()
    }

    fn search_text(&self, i: usize) -> String {
        self.0.search_text(i)
    }

    fn full_text(&self, i: usize) -> Option<String> {
        self.0.full_text(i)
    }

    fn title(&self) -> String {
        self.0.title()
    }

    fn event_count(&self) -> usize {
        self.0.event_count()
    }

    fn view_name(&self) -> &'static str {
        self.0.view_name()
    }

    fn cycle_view(&mut self) {}
}

impl Follow for Shared {
    type Update = LiveUpdate;

    fn attention(&self) -> overhear::tui::blocks::Attention {
        self.0.attention()
    }

    fn live(&self) -> LiveState {
        self.0.live()
    }

    fn update(&mut self, _: LiveUpdate) -> Result<bool, ReadError> {
        Err(ReadError::new("a shared document is not updated"))
    }
}

impl EarlierTurns for Shared {}

impl Replaying for Shared {}

struct Opened {
    name: String,
    doc: Rc<LiveDocument>,
    turns: usize,
    tmp: tempfile::TempDir,
}

fn open(name: &str, bytes: usize) -> Opened {
    let events = common::conversation_events(bytes);
    let turns = common::turns_in(&events);
    let stored = common::stored(&events);
    drop(events);
    let tmp = tempfile::tempdir().expect("temporary folder");
    let dir = common::write_conversation(tmp.path(), &stored);
    drop(stored);
    Opened {
        name: name.into(),
        doc: Rc::new(open_dir(&dir, false)),
        turns,
        tmp,
    }
}

/// The conversation in `dir`, read whole or, as the viewer opens it, `at_end`.
fn open_dir(dir: &Path, at_end: bool) -> LiveDocument {
    let dir = ConversationDir::new(dir);
    let live = if at_end {
        Live::open_jp_at_end(dir, None)
    } else {
        Live::open_jp(dir, None)
    }
    .expect("valid conversation");
    LiveDocument::new(
        live,
        DocOptions::default(),
        Theme::dark(),
        SanitizeMode::Strip,
    )
}

/// A viewer with an empty layout cache, sized like the frame.
fn viewer(doc: &Rc<LiveDocument>) -> App<Shared> {
    let mut app = App::new(Shared(doc.clone()), ViewerOptions::default());
    app.resize(usize::from(WIDTH), usize::from(HEIGHT));
    app
}

fn terminal() -> Terminal<TestBackend> {
    Terminal::new(TestBackend::new(WIDTH, HEIGHT)).expect("test backend")
}

/// Where in the conversation: 1-based turn, or `None` for the end (following).
fn places(turns: usize) -> [(&'static str, Option<usize>); 3] {
    [
        ("top", Some(1)),
        ("middle", Some(turns.div_ceil(2))),
        ("end", None),
    ]
}

fn cached_frame(doc: &Rc<LiveDocument>, place: Option<usize>, runs: usize) -> Took {
    let mut app = viewer(doc);
    if let Some(turn) = place {
        app.go_to_turn(turn);
    }
    let mut term = terminal();
    term.draw(|f| app.draw(f)).expect("test backend");
    let samples: Vec<Took> = (0..runs)
        .map(|_| {
            Took::of(|| {
                term.draw(|f| app.draw(f)).expect("test backend");
            })
            .1
        })
        .collect();
    Took::median(&samples)
}

/// Jumps to `count` distinct turns never shown before (spread over the whole
/// conversation) and draws; the median and worst (by CPU time) of jump + frame.
fn uncached_frames(opened: &Opened, count: usize) -> (Took, Took) {
    let count = count.min(opened.turns);
    let mut samples = Vec::with_capacity(count);
    for k in 0..count {
        let turn = 1 + k * opened.turns / count;
        let mut app = viewer(&opened.doc);
        let mut term = terminal();
        let ((), took) = Took::of(|| {
            app.go_to_turn(turn);
            term.draw(|f| app.draw(f)).expect("test backend");
        });
        samples.push(took);
    }
    let worst = samples.iter().max().copied().unwrap_or_default();
    (Took::median(&samples), worst)
}

/// A fresh viewer's first frame at the end of the conversation read whole.
/// The viewer is made and its first frame drawn (as below).
fn first_frame(doc: &Rc<LiveDocument>) -> Took {
    let mut term = terminal();
    Took::of(|| {
        let mut app = App::new(Shared(doc.clone()), ViewerOptions::default());
        term.draw(|f| app.draw(f)).expect("test backend");
    })
    .1
}

/// The first frame the viewer draws: the conversation opened at its end,
/// then the viewer made and its first frame drawn, `runs` times (each on a
/// conversation opened anew); the median.
fn first_frame_at_end(opened: &Opened, runs: usize) -> Took {
    let dir = opened.tmp.path().join("17760760747-synthetic");
    let samples: Vec<Took> = (0..runs)
        .map(|_| {
            let doc = open_dir(&dir, true);
            let mut term = terminal();
            let (app, took) = Took::of(|| {
                let mut app = App::new(doc, ViewerOptions::default());
                term.draw(|f| app.draw(f)).expect("test backend");
                app
            });
            drop(app);
            took
        })
        .collect();
    Took::median(&samples)
}

fn bench(c: &mut Criterion) {
    let small = open("small-20KB", 20 * 1024);
    let sizes = [
        ("1MB", 1024 * 1024),
        ("10MB", 10 * 1024 * 1024),
        ("100MB", 100 * 1024 * 1024),
    ];

    let mut group = c.benchmark_group("frame");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(3));
    group.warm_up_time(Duration::from_secs(1));
    group.bench_function("empty-200x60", |b| {
        let mut term = terminal();
        b.iter(|| {
            term.draw(|_| {}).expect("test backend");
        })
    });
    let baseline = cached_frame(&small.doc, None, 101);
    let empty = {
        let mut term = terminal();
        let samples: Vec<Took> = (0..101)
            .map(|_| {
                Took::of(|| {
                    term.draw(|_| {}).expect("test backend");
                })
                .1
            })
            .collect();
        Took::median(&samples)
    };
    println!(
        "frame baseline: empty frame {} · cached frame of a {} conversation {}",
        empty.ms(),
        small.name,
        baseline.ms()
    );

    let mut report = Vec::new();
    for (name, bytes) in sizes {
        let opened = open(name, bytes);
        for (place, turn) in places(opened.turns) {
            let mut app = viewer(&opened.doc);
            if let Some(turn) = turn {
                app.go_to_turn(turn);
            }
            let mut term = terminal();
            term.draw(|f| app.draw(f)).expect("test backend");
            group.bench_function(BenchmarkId::new(format!("cached-{place}"), name), |b| {
                b.iter(|| {
                    term.draw(|f| app.draw(f)).expect("test backend");
                })
            });
        }
        let cached: Vec<(&str, Took)> = places(opened.turns)
            .into_iter()
            .map(|(place, turn)| (place, cached_frame(&opened.doc, turn, 51)))
            .collect();
        let (jump_median, jump_worst) = uncached_frames(&opened, 40);
        let first = (first_frame(&opened.doc), first_frame_at_end(&opened, 5));
        report.push((
            name,
            opened.turns,
            opened.doc.len(),
            cached,
            jump_median,
            jump_worst,
            first,
        ));
    }
    group.finish();

    // The budget, both sides measured here and now.
    for (name, turns, blocks, cached, jump_median, jump_worst, first) in report {
        for (place, frame) in cached {
            println!(
                "frame {name} ({turns} turns, {blocks} blocks) cached at {place}: {} · ratio {:.2}× the small conversation (budget 5 ms)",
                frame.ms(),
                frame.ratio(&baseline)
            );
        }
        println!(
            "frame {name} after a jump to an unseen turn: median {}, worst {} of 40 · ratio {:.2}× (budget 5 ms)",
            jump_median.ms(),
            jump_worst.ms(),
            jump_median.ratio(&baseline)
        );
        println!(
            "frame {name} first frame of a fresh viewer, opened at its end as the viewer does: {} · read whole (baseline): {} · ratio {:.2}×",
            first.1.ms(),
            first.0.ms(),
            first.1.ratio(&first.0)
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
