//! `code_frame`: the viewer's frames around one big code block
//! (highlighted only where the viewer shows it, plus a margin). A
//! conversation whose first message holds one fenced block of about 60 KB —
//! real Rust (overhear's own sources), CSV, and the worst shape measured
//! (docs/hardening.md's tables fenced as Rust, just under the 64 KiB bound) —
//! is opened through the real path (`Live::open_jp` → `LiveDocument` →
//! `App`) and drawn into a 200×60 `TestBackend`:
//!
//! * *cached*: the top of the block drawn again (the baseline, same run);
//! * *first*: a fresh viewer's jump to the block's turn and its frame (the
//!   key the user waits for when the block first comes into view);
//! * *page*: one page down inside the block, and its frame; then a second;
//! * *end*: a jump to the end of the block (a search for its last line) from
//!   its top, and its frame;
//! * *idle*: after the jump, the work left to colour what it shows (done
//!   between keys, nothing waits for it).
//!
//! Every sample opens the conversation again, so no colouring is cached from
//! an earlier one; the grammar's regexes are compiled before the first.

mod common;

use std::path::Path;
use std::time::Duration;

use common::Took;
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use overhear::load::Live;
use overhear::render::document::DocOptions;
use overhear::render::lazy_highlight::ColourStep;
use overhear::render::theme::Theme;
use overhear::source::ConversationDir;
use overhear::text::sanitize::SanitizeMode;
use overhear::tui::app::AppEvent;
use overhear::tui::live::LiveDocument;
use overhear::tui::{App, Blocks, ViewerOptions};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::json;

const WIDTH: u16 = 200;
const HEIGHT: u16 = 60;
const SAMPLES: usize = 9;

/// About `bytes` of overhear's own Rust sources.
fn rust(bytes: usize) -> String {
    let sources = [
        include_str!("../src/render/markdown.rs"),
        include_str!("../src/tui/app.rs"),
        include_str!("../src/render/layout.rs"),
        include_str!("../src/tui/lazy_layout.rs"),
        include_str!("../src/render/highlight.rs"),
    ];
    take_lines(sources.iter().flat_map(|s| s.lines()).cycle(), bytes)
}

/// About `bytes` of CSV: a header and rows of numbers, names and dates.
fn csv(bytes: usize) -> String {
    let rows = (0u64..).map(|i| {
        format!(
            "{i},item-{},{}.{:02},2026-{:02}-{:02},\"note {}\",{}",
            i * 7919 % 1000,
            i * 31 % 997,
            i % 100,
            1 + i % 12,
            1 + i % 28,
            i % 13,
            i % 2 == 0
        )
    });
    let header = ["id,name,price,date,note,ok".to_string()];
    take_lines(header.into_iter().chain(rows), bytes)
}

/// docs/hardening.md's table rows fenced as Rust: the slowest shape measured
/// (`benches/highlight.rs`), up to `bytes`.
fn tables(bytes: usize) -> String {
    let doc = include_str!("../docs/hardening.md");
    let rows = doc.lines().filter(|l| l.starts_with('|')).cycle();
    take_lines(rows, bytes)
}

fn take_lines<S: AsRef<str>>(lines: impl Iterator<Item = S>, bytes: usize) -> String {
    let mut out = String::with_capacity(bytes + 256);
    for line in lines {
        if out.len() + line.as_ref().len() + 1 > bytes {
            break;
        }
        out.push_str(line.as_ref());
        out.push('\n');
    }
    out
}

/// The line that ends every block, found by a search.
const LAST_LINE: &str = "END OF THE BLOCK";

/// A conversation whose first request holds `code` fenced as `lang`, and a
/// second turn of prose longer than a screen (the viewer opens at the end:
/// opening does not show the block).
fn write(parent: &Path, lang: &str, code: &str) -> std::path::PathBuf {
    let ts = |k: u32| format!("2026-05-01 10:00:0{k}.0");
    let prose = "A paragraph of the answer, long enough to wrap once or twice at two hundred columns of text, about the code above and what to change in it next.\n\n".repeat(80);
    let events = vec![
        json!({"timestamp": ts(0), "type": "turn_start"}),
        json!({"timestamp": ts(1), "type": "chat_request",
               "content": format!("Here it is:\n\n```{lang}\n{code}{LAST_LINE}\n```\n")}),
        json!({"timestamp": ts(2), "type": "chat_response", "message": "Thanks, reading it."}),
        json!({"timestamp": ts(3), "type": "turn_start"}),
        json!({"timestamp": ts(4), "type": "chat_request", "content": "And now?"}),
        json!({"timestamp": ts(5), "type": "chat_response", "message": prose}),
    ];
    common::write_conversation(parent, &common::stored(&events))
}

fn open(dir: &Path) -> App<LiveDocument> {
    let live = Live::open_jp(ConversationDir::new(dir), None).expect("valid conversation");
    let doc = LiveDocument::new(
        live,
        DocOptions::default(),
        Theme::dark(),
        SanitizeMode::Strip,
    );
    let mut app = App::new(doc, ViewerOptions::default());
    app.resize(usize::from(WIDTH), usize::from(HEIGHT));
    app
}

fn key(app: &mut App<LiveDocument>, code: KeyCode) {
    let modifiers = match code {
        KeyCode::Char(c) if c.is_ascii_uppercase() => KeyModifiers::SHIFT,
        _ => KeyModifiers::NONE,
    };
    app.handle(AppEvent::Terminal(Event::Key(KeyEvent::new(
        code, modifiers,
    ))));
}

fn terminal() -> Terminal<TestBackend> {
    Terminal::new(TestBackend::new(WIDTH, HEIGHT)).expect("test backend")
}

fn draw(term: &mut Terminal<TestBackend>, app: &mut App<LiveDocument>) {
    term.draw(|f| app.draw(f)).expect("test backend");
}

/// A fresh viewer at the block's top, its first frame drawn; how long the
/// jump and the frame took.
fn at_top(dir: &Path) -> (App<LiveDocument>, Terminal<TestBackend>, Took) {
    let mut app = open(dir);
    let mut term = terminal();
    let ((), took) = Took::of(|| {
        app.go_to_turn(1);
        draw(&mut term, &mut app);
    });
    (app, term, took)
}

/// A search for the block's last line, and its frame.
fn to_the_end(app: &mut App<LiveDocument>, term: &mut Terminal<TestBackend>) {
    key(app, KeyCode::Char('/'));
    for c in LAST_LINE.chars() {
        key(app, KeyCode::Char(c));
    }
    key(app, KeyCode::Enter);
    draw(term, app);
}

/// Colours what is left to colour between keys; how long it took.
fn idle(app: &mut App<LiveDocument>) -> Took {
    Took::of(|| while app.document().colour_more() != ColourStep::Idle {}).1
}

struct Case {
    name: &'static str,
    cached: Took,
    first: Took,
    page: Took,
    next_page: Took,
    end: Took,
    idle: Took,
}

fn measure(name: &'static str, dir: &Path) -> Case {
    let (mut cached, mut first, mut page, mut next_page, mut end, mut left) = (
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
    );
    for _ in 0..SAMPLES {
        let (mut app, mut term, took) = at_top(dir);
        first.push(took);
        cached.push(Took::of(|| draw(&mut term, &mut app)).1);
        page.push(
            Took::of(|| {
                key(&mut app, KeyCode::PageDown);
                draw(&mut term, &mut app);
            })
            .1,
        );
        next_page.push(
            Took::of(|| {
                key(&mut app, KeyCode::PageDown);
                draw(&mut term, &mut app);
            })
            .1,
        );
        let (mut app, mut term, _) = at_top(dir);
        end.push(Took::of(|| to_the_end(&mut app, &mut term)).1);
        left.push(idle(&mut app));
    }
    Case {
        name,
        cached: Took::median(&cached),
        first: Took::median(&first),
        page: Took::median(&page),
        next_page: Took::median(&next_page),
        end: Took::median(&end),
        idle: Took::median(&left),
    }
}

fn bench(c: &mut criterion::Criterion) {
    let tmp = tempfile::tempdir().expect("temporary folder");
    let cases = [
        ("rust-60KB", "rust", rust(60 * 1024)),
        ("csv-60KB", "csv", csv(60 * 1024)),
        ("tables-as-rust-63KB", "rust", tables(63 * 1024)),
    ];
    let dirs: Vec<_> = cases
        .iter()
        .map(|(name, lang, code)| (*name, write(&tmp.path().join(name), lang, code)))
        .collect();
    // Compile the grammars' regexes once, as any viewer after the first finds them.
    for (_, dir) in &dirs {
        let (mut app, mut term, _) = at_top(dir);
        to_the_end(&mut app, &mut term);
        while app.document().colour_more() != ColourStep::Idle {}
    }
    let mut group = c.benchmark_group("code_frame");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(3));
    group.warm_up_time(Duration::from_secs(1));
    for (name, dir) in &dirs {
        group.bench_function(format!("first/{name}"), |b| {
            b.iter_batched(
                || open(dir),
                |mut app| {
                    app.go_to_turn(1);
                    draw(&mut terminal(), &mut app);
                },
                criterion::BatchSize::PerIteration,
            )
        });
    }
    group.finish();

    for (name, dir) in &dirs {
        let case = measure(name, dir);
        let base = &case.cached;
        println!(
            "code_frame {}: cached frame {} (baseline)",
            case.name,
            base.ms()
        );
        for (what, took) in [
            ("first frame at the block's top", &case.first),
            ("a page down inside it", &case.page),
            ("a second page down", &case.next_page),
            ("a jump to its end (a search)", &case.end),
            ("then colouring between keys", &case.idle),
        ] {
            println!(
                "code_frame {}: {what}: {} · ratio {:.1}× the cached frame",
                case.name,
                took.ms(),
                took.ratio(base)
            );
        }
    }
}

criterion::criterion_group!(benches, bench);
criterion::criterion_main!(benches);
