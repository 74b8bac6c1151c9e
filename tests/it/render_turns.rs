//! `render --turn` decodes only the chosen turns of a JP conversation
//!: what it prints must be exactly what a full read prints
//! of those turns, its warnings those of a full read, on the fixtures, the
//! real conversations of `$OVERHEAR_CORPUS` and a generated conversation.

use crate::common;

use crate::common::generate;

use std::path::{Path, PathBuf};
use std::process::Output;

use overhear::load::Live;
use overhear::policy::Overlay;
use overhear::render::document::{DocOptions, DocView, Document};
use overhear::render::print::{CodeOverflow, PrintOptions, TurnSpec, print_document};
use overhear::render::theme::{ColorDepth, Theme};
use overhear::text::sanitize::SanitizeMode;

/// `overhear render DIR ARGS…` with no user configuration.
fn overhear(dir: &Path, args: &[&str]) -> Output {
    let config = tempfile::tempdir().unwrap();
    crate::common::overhear()
        .arg("render")
        .arg(dir)
        .args(args)
        .env("XDG_CONFIG_HOME", config.path())
        .env_remove("NO_COLOR")
        .output()
        .expect("overhear runs")
}

/// What a full read prints of the turns `spec` chooses, at 80 columns
/// without colour: the conversation read whole, its document built whole.
fn printed_from_a_full_read(dir: &Path, spec: TurnSpec) -> String {
    let live = Live::read_once(dir.to_str().unwrap()).unwrap();
    let options = DocOptions {
        view: DocView::Terminal,
        overlay: Overlay::default(),
        finished: live.finished(),
    };
    let doc = Document::build(&live.conversation, &options);
    let print = PrintOptions {
        width: 80,
        color: false,
        theme: Theme::dark().with_depth(ColorDepth::None),
        sanitize: SanitizeMode::Strip,
        turns: Some(spec),
        code: CodeOverflow::Wrap,
    };
    let mut out = Vec::new();
    print_document(&mut out, &live.conversation, &doc, &print).unwrap();
    String::from_utf8(out).unwrap()
}

/// The specs to try on a conversation of `total` turns: every turn of a
/// short one, a sample of a long one, and ranges from either end.
fn specs(total: usize) -> Vec<String> {
    let mut specs: Vec<String> = if total <= 12 {
        (1..=total).map(|n| n.to_string()).collect()
    } else {
        [1, 2, total / 2, total - 1, total]
            .iter()
            .map(|n| n.to_string())
            .collect()
    };
    specs.extend(["-1", "-3..-1", "2..", "1..", "-2"].map(String::from));
    specs
}

fn check_conversation(dir: &Path) {
    let full = overhear(dir, &["--width", "80", "--color", "never"]);
    if !full.status.success() {
        // Not readable whole: not readable in part either, with the same error.
        let part = overhear(dir, &["--width", "80", "--color", "never", "--turn", "-1"]);
        assert_eq!(part.status.code(), full.status.code(), "{dir:?}");
        assert_eq!(part.stderr, full.stderr, "{dir:?}");
        return;
    }
    let total = Live::read_once(dir.to_str().unwrap())
        .unwrap()
        .conversation
        .turns
        .len();
    for spec in specs(total) {
        let parsed: TurnSpec = spec.parse().unwrap();
        let part = overhear(dir, &["--width", "80", "--color", "never", "--turn", &spec]);
        if parsed.check(total).is_err() {
            assert!(!part.status.success(), "{dir:?} --turn {spec}");
            continue;
        }
        assert!(part.status.success(), "{dir:?} --turn {spec}");
        assert_eq!(
            String::from_utf8(part.stdout).unwrap(),
            printed_from_a_full_read(dir, parsed),
            "{dir:?} --turn {spec}: printed"
        );
        assert_eq!(
            String::from_utf8_lossy(&part.stderr),
            String::from_utf8_lossy(&full.stderr),
            "{dir:?} --turn {spec}: the warnings of a full read"
        );
    }
    // In colour, the last turn is how the full printout ends, the first how it starts.
    let colour = ["--width", "100", "--color", "always"];
    let whole = overhear(dir, &colour).stdout;
    let last = overhear(dir, &[&colour[..], &["--turn", "-1"]].concat()).stdout;
    let first = overhear(dir, &[&colour[..], &["--turn", "1"]].concat()).stdout;
    assert!(whole.ends_with(&last), "{dir:?}: the last turn in colour");
    assert!(
        whole.starts_with(&first),
        "{dir:?}: the first turn in colour"
    );
}

fn fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/jp");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("events.json").is_file())
        .collect();
    dirs.sort();
    dirs
}

#[test]
fn the_chosen_turns_of_each_fixture_print_as_a_full_read_prints_them() {
    for dir in fixtures() {
        check_conversation(&dir);
    }
}

#[test]
fn the_chosen_turns_of_each_real_conversation_print_as_a_full_read_prints_them() {
    let Some(dirs) = common::corpus::jp_conversations() else {
        return;
    };
    for dir in dirs {
        check_conversation(&dir);
    }
}

#[test]
fn the_chosen_turns_of_a_generated_conversation_print_as_a_full_read_prints_them() {
    let parent = tempfile::tempdir().unwrap();
    let events = generate::conversation_events(300 * 1024);
    let dir = generate::write_conversation(parent.path(), &generate::stored(&events));
    check_conversation(&dir);
}

/// `cargo bench --bench limits -- jp-lengths` measures the generated
/// conversation with ids and timestamps as long as JP's: it must be the same
/// conversation, its calls paired with their results as before.
#[test]
fn a_generated_conversation_with_jps_lengths_of_ids_prints_as_with_short_ones() {
    let parent = tempfile::tempdir().unwrap();
    let short = generate::conversation_events(300 * 1024);
    let long = generate::with_jp_lengths(short.clone());
    let id = |events: &[serde_json::Value]| events[3]["id"].as_str().unwrap().to_string();
    assert_eq!(id(&short), "toolu_0_0");
    assert!(
        id(&long).starts_with("toolu_01") && id(&long).len() == 30,
        "{}",
        id(&long)
    );
    let stamp = |events: &[serde_json::Value]| events[3]["timestamp"].as_str().unwrap().len();
    assert_eq!((stamp(&short), stamp(&long)), (21, 26));
    let printed = |events: &[serde_json::Value], name: &str| {
        let dir = parent.path().join(name);
        std::fs::create_dir(&dir).unwrap();
        let dir = generate::write_conversation(&dir, &generate::stored(events));
        check_conversation(&dir);
        let out = overhear(&dir, &["--color", "never", "--width", "100"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let (short, long) = (printed(&short, "short"), printed(&long, "long"));
    assert!(short.contains("fs_read_file"), "{short}");
    assert!(
        !short.contains("no response"),
        "every call has its result: {short}"
    );
    assert_eq!(long, short);
}

#[test]
fn an_entry_that_is_not_json_in_a_chosen_turn_is_the_full_read_error() {
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("17760760747-broken");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("base_config.json"), "{}").unwrap();
    std::fs::write(
        dir.join("events.json"),
        r#"[
  {"timestamp": "2026-04-10 17:04:20.5", "type": "turn_start"},
  {"timestamp": "2026-04-10 17:04:20.6", "type": "chat_request", "content": "hi"},
  {"timestamp": "2026-04-10 17:04:21.5", "type": "turn_start"},
  {"timestamp": "2026-04-10 17:04:21.6", "type": "chat_request", "content": "bad \x"}
]"#,
    )
    .unwrap();
    let full = overhear(&dir, &["--color", "never"]);
    let part = overhear(&dir, &["--color", "never", "--turn", "-1"]);
    assert!(!full.status.success());
    assert_eq!(part.status.code(), full.status.code());
    assert_eq!(
        part.stderr, full.stderr,
        "the error names the file and place"
    );
}

#[test]
fn last_turns_that_answer_earlier_calls_print_as_a_full_read_prints_them() {
    // Turn 2 answers the call and the question of turn 1 (a read of the
    // last turns alone would not know them); a style change in turn 1 and
    // one before turn 3 are wrong (their warnings name the stored entries,
    // which a read of the last turn holds one event for many of); turn 3
    // answers nothing.
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("17760760747-answers");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("base_config.json"), "{}").unwrap();
    std::fs::write(
        dir.join("events.json"),
        r#"[
  {"timestamp": "2026-04-10 17:04:20.5", "type": "turn_start"},
  {"timestamp": "2026-04-10 17:04:20.6", "type": "chat_request", "content": "read it"},
  {"timestamp": "2026-04-10 17:04:20.7", "type": "tool_call_request", "id": "call_1", "name": "fs_read_file", "arguments": {"path": "YS5ycw=="}},
  {"timestamp": "2026-04-10 17:04:20.8", "type": "inquiry_request", "id": "call_1.ok", "source": {"source": "tool", "name": "fs_read_file"}, "question": {"text": "May I?", "answer_type": {"type": "boolean"}}},
  {"type": "config_delta", "timestamp": "2026-04-10 17:04:20.9", "delta": {"conversation": {"tools": {"fs_list_files": {"style": {"inline_results": -3}}}}}},
  {"timestamp": "2026-04-10 17:04:21.5", "type": "turn_start"},
  {"timestamp": "2026-04-10 17:04:21.6", "type": "chat_request", "content": "go on"},
  {"timestamp": "2026-04-10 17:04:21.7", "type": "inquiry_response", "id": "call_1.ok", "answer": true},
  {"timestamp": "2026-04-10 17:04:21.8", "type": "tool_call_response", "id": "call_1", "content": "Zm4gbWFpbigpIHt9", "is_error": false},
  {"timestamp": "2026-04-10 17:04:21.9", "type": "chat_response", "message": "Read."},
  {"type": "config_delta", "timestamp": "2026-04-10 17:04:22.0", "delta": {"conversation": {"tools": {"fs_read_file": {"style": {"inline_results": -2}}}}}},
  {"timestamp": "2026-04-10 17:04:22.5", "type": "turn_start"},
  {"timestamp": "2026-04-10 17:04:22.6", "type": "chat_request", "content": "thanks"},
  {"timestamp": "2026-04-10 17:04:22.7", "type": "chat_response", "message": "You are welcome."}
]"#,
    )
    .unwrap();
    check_conversation(&dir);
    let warned = overhear(&dir, &["--color", "never", "--turn", "-1"]);
    assert!(
        ["event 4: config_delta", "event 10: config_delta"]
            .iter()
            .all(|place| String::from_utf8_lossy(&warned.stderr).contains(place)),
        "the style warnings name the stored entries: {}",
        String::from_utf8_lossy(&warned.stderr)
    );
}

/// A conversation of 1,200 short turns, whose configuration changes wrongly
/// in turn 300 (a warning names where) and in turn 600 (a tool's results
/// shown whole, hidden before): printed from its end, the turns before the
/// last ones are folded into their count as they are read, but for the two
/// the changes are merged at, and what is printed is still what a full read
/// prints, on stdout and stderr, the change of turn 600 in force.
#[test]
fn a_long_conversation_printed_from_its_end_folds_its_earlier_turns() {
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD;
    use serde_json::json;
    let mut events = Vec::new();
    for n in 1..=1200usize {
        let ts = format!(
            "2026-05-01 {:02}:{:02}:{:02}.0",
            n / 3600,
            (n / 60) % 60,
            n % 60
        );
        if n == 300 {
            events.push(json!({"type": "config_delta", "timestamp": ts, "delta":
                {"conversation": {"tools": {"fs_list_files": {"style": {"inline_results": -3}}}}}}));
        }
        if n == 600 {
            events.push(json!({"type": "config_delta", "timestamp": ts, "delta":
                {"conversation": {"tools": {"fs_read_file": {"style": {"inline_results": "full"}}}}}}));
        }
        let id = format!("toolu_{n}");
        let content = (1..=14)
            .map(|l| format!("line {l} of file {n}\n"))
            .collect::<String>();
        events.extend([
            json!({"type": "turn_start", "timestamp": ts}),
            json!({"type": "chat_request", "timestamp": ts, "content": format!("Question {n}")}),
            json!({"type": "tool_call_request", "timestamp": ts, "id": id, "name": "fs_read_file",
                "arguments": {"path": STANDARD.encode(format!("src/file_{n}.rs"))}}),
            json!({"type": "tool_call_response", "timestamp": ts, "id": id,
                "content": STANDARD.encode(content), "is_error": false}),
            json!({"type": "chat_response", "timestamp": ts, "message": format!("Answer {n}.")}),
        ]);
    }
    let parent = tempfile::tempdir().unwrap();
    let dir = generate::write_conversation(parent.path(), &generate::stored(&events));
    check_conversation(&dir);
    let last = overhear(&dir, &["--color", "never", "--turn", "-1"]);
    let warned = String::from_utf8_lossy(&last.stderr);
    assert!(warned.contains("inline_results"), "{warned}");
    let printed = String::from_utf8(last.stdout).unwrap();
    assert!(printed.contains("turn 1200"), "{printed}");
    assert!(
        printed.contains("line 14 of file 1200"),
        "turn 600's change in force: {printed}"
    );
    let path = dir.to_str().unwrap();
    let spec: TurnSpec = "-2..".parse().unwrap();
    let live = Live::read_turns_at(
        Some(path),
        &|number, total| spec.contains(number, total),
        spec.last_turns(),
    )
    .unwrap();
    let conv = &live.conversation;
    assert_eq!(conv.turn_count(), 1200);
    // Held: the turns the two changes are merged at, and the last two.
    let numbers: Vec<usize> = conv.turns.iter().map(|turn| turn.number).collect();
    assert_eq!(numbers, [300, 600, 1199, 1200]);
}
