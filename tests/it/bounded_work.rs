//! Bounded work for every input (docs/hardening.md, "Bounded work"): the worst shapes found — JSON nested thousands deep in
//! a tool result, a Markdown table of a million cells, a `.jsonl.zst` that
//! inflates to gigabytes, sub-agents that link one another in a cycle — run
//! through the real binary, in every command that reads them. Each run
//! must end with the behaviour stated (a notice where work was cut) in
//! memory ≤ 4× the input + 64 MiB and within seconds.

use crate::common;
use crate::common::support::{Run, overhear, overhear_fed, overhear_with};

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};

const MIB: u64 = 1024 * 1024;

/// The rule: memory ≤ 4× the input + 64 MiB, and a few seconds at most
/// (every input here is read in well under a second on an idle machine;
/// the slack is for a machine shared with builds).
fn check_bounds(what: &str, input_bytes: u64, run: &Run) {
    eprintln!(
        "bounded work: {what}: input {:.2} MiB, peak {:.1} MiB, {:.2?}",
        input_bytes as f64 / MIB as f64,
        run.peak_mib(),
        run.elapsed
    );
    let bound_kib = (4 * input_bytes + 64 * MIB) / 1024;
    assert!(
        run.peak_kib <= bound_kib,
        "{what}: peak memory {:.0} MiB > 4 × {} bytes + 64 MiB",
        run.peak_mib(),
        input_bytes
    );
    assert!(
        run.elapsed <= Duration::from_secs(10),
        "{what}: took {:?}",
        run.elapsed
    );
}

fn text(run: &Run) -> String {
    String::from_utf8_lossy(&run.stdout).into_owned()
}

/// A Claude Code transcript line.
fn claude_line(uuid: &str, parent: Option<&str>, kind: &str, message: Value) -> Value {
    json!({"type": kind, "uuid": uuid, "parentUuid": parent, "sessionId": "s",
           "timestamp": "2026-01-01T00:00:00Z", "message": message})
}

fn write_lines(path: &Path, lines: &[Value]) -> u64 {
    let text: String = lines.iter().map(|l| l.to_string() + "\n").collect();
    std::fs::write(path, &text).expect("transcript written");
    text.len() as u64
}

/// A Claude Code transcript whose one `Bash` call returns `result`.
fn with_result(path: &Path, result: &str) -> u64 {
    write_lines(
        path,
        &[
            claude_line("u1", None, "user", json!({"role": "user", "content": "hi"})),
            claude_line(
                "a1",
                Some("u1"),
                "assistant",
                json!({"role": "assistant", "id": "m1", "content": [
                    {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "x"}}]}),
            ),
            claude_line(
                "u2",
                Some("a1"),
                "user",
                json!({"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": "t1", "content": result}]}),
            ),
        ],
    )
}

fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 temporary path")
}

#[test]
fn a_result_of_json_nested_thirty_thousand_deep_costs_linear_memory_in_every_command() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let depth = 30_000;
    let nested = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let transcript = dir.path().join("deep.jsonl");
    let size = with_result(&transcript, &nested);
    let result_file = dir.path().join("result.txt");
    std::fs::write(&result_file, &nested).expect("result written");
    let out = dir.path().join("out");

    let render = overhear([
        "render",
        "--color",
        "never",
        "--width",
        "80",
        arg(&transcript),
    ]);
    render.expect_code(0);
    check_bounds("render", size, &render);
    // Indented 16 levels deep, then the rest of the value on one line.
    let screen = text(&render);
    assert!(
        screen.contains(&format!("│ {}[", "  ".repeat(7))),
        "{screen}"
    );

    let raw = overhear(["render", "--view", "raw", "--width", "80", arg(&transcript)]);
    raw.expect_code(0);
    check_bounds("render --view raw", size, &raw);
    let events = overhear(["events", arg(&transcript)]);
    events.expect_code(0);
    check_bounds("events", size, &events);
    for ext in ["md", "html"] {
        let target = out.with_extension(ext);
        let export = overhear(["export", arg(&transcript), "-o", arg(&target)]);
        export.expect_code(0);
        check_bounds(&format!("export .{ext}"), size, &export);
    }
    let card = overhear(["card", "--tool", "Bash", "--result", arg(&result_file)]);
    card.expect_code(0);
    check_bounds("card --result", nested.len() as u64, &card);
    assert!(
        text(&card).contains("more lines not shown"),
        "{}",
        text(&card)
    );
}

#[test]
fn a_table_of_a_million_cells_is_shown_as_written_behind_a_note() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (columns, rows) = (1000, 1000);
    let row = |cell: &str| format!("|{}\n", format!("{cell}|").repeat(columns));
    let mut table = row("h") + &row("-");
    for _ in 0..rows {
        table.push_str(&row("x"));
    }
    let transcript = dir.path().join("table.jsonl");
    let size = write_lines(
        &transcript,
        &[
            claude_line("u1", None, "user", json!({"role": "user", "content": "hi"})),
            claude_line(
                "a1",
                Some("u1"),
                "assistant",
                json!({"role": "assistant", "id": "m1", "content": [{"type": "text", "text": table}]}),
            ),
        ],
    );
    let note = "(a table of 1002 lines, shown as written: tables of more than 10000 cells are";

    let render = overhear([
        "render",
        "--color",
        "never",
        "--width",
        "100",
        arg(&transcript),
    ]);
    render.expect_code(0);
    check_bounds("render", size, &render);
    let screen = text(&render);
    assert!(
        screen.contains(note),
        "{}",
        &screen[..screen.len().min(2000)]
    );
    // The rows as written, cut at the width (code is never wrapped).
    assert!(
        screen.contains("|x|x|x|x|"),
        "{}",
        &screen[..screen.len().min(2000)]
    );

    let export = overhear([
        "export",
        arg(&transcript),
        "-o",
        arg(&dir.path().join("t.md")),
    ]);
    export.expect_code(0);
    check_bounds("export", size, &export);
}

/// A zstd frame that inflates to `size` bytes (a multiple of 128 KiB): one
/// raw block holding `first`, then run-length blocks of newlines, 4 bytes
/// each for 128 KiB.
fn zstd_bomb(first: &[u8], size: u64) -> Vec<u8> {
    const BLOCK: u32 = 128 * 1024;
    // Magic; frame header: no content size, not single segment; window 128 KiB.
    let mut out = vec![0x28, 0xB5, 0x2F, 0xFD, 0x00, 7 << 3];
    let header = |last: bool, kind: u32, size: u32| {
        let value = u32::from(last) | (kind << 1) | (size << 3);
        value.to_le_bytes()[..3].to_vec()
    };
    let first_len = u32::try_from(first.len()).expect("a short first line");
    out.extend(header(false, 0, first_len));
    out.extend_from_slice(first);
    let blocks = size / u64::from(BLOCK);
    for i in 0..blocks {
        out.extend(header(i + 1 == blocks, 1, BLOCK));
        out.push(b'\n');
    }
    out
}

fn write_bomb(dir: &Path, inflated: u64) -> (PathBuf, u64) {
    let meta = json!({"timestamp": "2025-09-25T02:12:23.966Z", "type": "session_meta",
                      "payload": {"id": "bomb", "cwd": "/work"}})
    .to_string()
        + "\n";
    let bytes = zstd_bomb(meta.as_bytes(), inflated);
    let path = dir.join("rollout-2025-09-25T02-12-23-bomb.jsonl.zst");
    std::fs::write(&path, &bytes).expect("bomb written");
    (path, bytes.len() as u64)
}

#[test]
fn a_zstd_bomb_is_refused_like_a_file_over_the_limit_in_little_memory() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    // 64 MiB of blank lines inflated from 2 KiB, under a 16 MiB limit.
    let inflated = 64 * MIB;
    let (bomb, size) = write_bomb(dir.path(), inflated);
    for command in [["render", "--color", "never"].as_slice(), &["events"]] {
        let mut args = command.to_vec();
        args.push(arg(&bomb));
        let run = overhear_with(&args, &[("OVERHEAR_MAX_BYTES", "16M")]);
        run.expect_code(1);
        check_bounds(command[0], size, &run);
        assert!(run.stdout.is_empty(), "{}", text(&run));
        assert!(
            run.stderr.contains(&format!(
                "{}: more than the 16 MiB overhear reads; set OVERHEAR_MAX_BYTES",
                bomb.display()
            )),
            "{}",
            run.stderr
        );
    }
    // Under the limit it reads as any rollout, its millions of blank lines
    // costing no more than their bytes.
    let run = overhear_with(
        ["render", "--color", "never", arg(&bomb)],
        &[("OVERHEAR_MAX_BYTES", "128M")],
    );
    run.expect_code(0);
    check_bounds("render under the limit", inflated, &run);
}

#[test]
fn a_zstd_bomb_past_the_default_limit_costs_neither_its_size_nor_minutes() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    // 6 GiB inflated from 192 KiB: past the default 4 GiB.
    let (bomb, size) = write_bomb(dir.path(), 6 << 30);
    let run = overhear(["render", arg(&bomb)]);
    run.expect_code(1);
    check_bounds("render", size, &run);
    assert!(
        run.stderr.contains("more than the 4 GiB overhear reads"),
        "{}",
        run.stderr
    );
}

/// A Claude Code agent file whose `Task` call's result names `agent-<target>.jsonl`.
fn agent_file(dir: &Path, name: &str, target: &str) -> u64 {
    write_lines(
        &dir.join(format!("agent-{name}.jsonl")),
        &[
            claude_line(
                "u1",
                None,
                "user",
                json!({"role": "user", "content": format!("I am {name}")}),
            ),
            claude_line(
                "a1",
                Some("u1"),
                "assistant",
                json!({"role": "assistant", "id": "m1", "content": [
                    {"type": "tool_use", "id": "t1", "name": "Task",
                     "input": {"prompt": format!("go on from {name}"), "description": format!("from {name}")}}]}),
            ),
            {
                let mut line = claude_line(
                    "u2",
                    Some("a1"),
                    "user",
                    json!({"role": "user", "content": [
                        {"type": "tool_result", "tool_use_id": "t1", "content": [{"type": "text", "text": "done"}]}]}),
                );
                line["toolUseResult"] = json!({"agentId": target, "status": "completed",
                                               "content": [{"type": "text", "text": "done"}]});
                line
            },
        ],
    )
}

/// Runs every command on `path`; each must end and exit 0, and each but the
/// raw view (the parent's stored lines as they are) show the notice: the
/// file it names and what was cut (apart: a narrow nested notice wraps).
fn every_command_shows(path: &Path, note: [&str; 2], input: u64) {
    let out = path.with_extension("export.md");
    for args in [
        vec!["render", "--color", "never", "--width", "200", arg(path)],
        vec!["render", "--view", "raw", "--width", "200", arg(path)],
        vec!["events", arg(path)],
        vec!["export", arg(path), "-o", arg(&out)],
    ] {
        let run = overhear(&args);
        run.expect_code(0);
        check_bounds(&args.join(" "), input, &run);
        if args.contains(&"raw") {
            continue;
        }
        let shown = if args[0] == "export" {
            std::fs::read_to_string(&out).expect("the export is written")
        } else {
            text(&run)
        };
        assert!(
            note.iter().all(|part| shown.contains(part)),
            "{args:?}:\n{shown}"
        );
    }
}

/// [`every_command_shows`] the cycle cut at the file `path` names.
fn every_command_shows_a_cut_cycle(path: &Path, input: u64) {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    every_command_shows(path, [name, "cycle cut here"], input);
}

#[test]
fn a_claude_code_file_that_is_its_own_sub_agent_shows_a_cut_cycle() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let size = agent_file(dir.path(), "x", "x");
    let path = dir.path().join("agent-x.jsonl");
    every_command_shows_a_cut_cycle(&path, size);
}

#[test]
fn sub_agents_linking_back_a_to_b_to_a_show_a_cut_cycle() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let size = agent_file(dir.path(), "a", "b") + agent_file(dir.path(), "b", "a");
    let path = dir.path().join("agent-a.jsonl");
    every_command_shows_a_cut_cycle(&path, size);
    // b is read once, under a.
    let render = overhear(["render", "--color", "never", "--width", "200", arg(&path)]);
    assert_eq!(
        text(&render).matches("I am b").count(),
        1,
        "{}",
        text(&render)
    );
}

#[test]
fn a_chain_of_forty_sub_agents_is_read_sixteen_deep_then_cut() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut size = 0;
    for i in 0..40 {
        size += agent_file(dir.path(), &format!("n{i}"), &format!("n{}", i + 1));
    }
    let path = dir.path().join("agent-n0.jsonl");
    let note = ["agent-n17", "deep: not read"];
    every_command_shows(&path, note, size);
    let render = overhear(["render", "--color", "never", "--width", "200", arg(&path)]);
    let screen = text(&render);
    assert!(
        screen.contains("I am n16") && !screen.contains("I am n17"),
        "{screen}"
    );
}

/// A Codex rollout for thread `id` whose `spawn_agent` call started thread `child`.
fn rollout(dir: &Path, id: &str, child: &str) -> u64 {
    let line = |kind: &str, payload: Value| json!({"timestamp": "2026-01-22T10:15:23.000Z", "type": kind, "payload": payload});
    write_lines(
        &dir.join(format!("rollout-2026-01-22T10-15-23-{id}.jsonl")),
        &[
            line(
                "session_meta",
                json!({"id": id, "cwd": "/work/app", "source": "cli"}),
            ),
            line(
                "event_msg",
                json!({"type": "user_message", "message": format!("I am {id}")}),
            ),
            line(
                "response_item",
                json!({"type": "function_call", "name": "spawn_agent", "call_id": "call_spawn",
                       "arguments": "{\"message\":\"go on\"}"}),
            ),
            line(
                "response_item",
                json!({"type": "function_call_output", "call_id": "call_spawn",
                       "output": format!("{{\"agent_id\":\"{child}\"}}")}),
            ),
        ],
    )
}

#[test]
fn two_codex_rollouts_spawning_each_other_show_a_cut_cycle() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let a = "0199aaaa-0000-7000-8000-000000000001";
    let b = "0199bbbb-0000-7000-8000-000000000002";
    let size = rollout(dir.path(), a, b) + rollout(dir.path(), b, a);
    let path = dir
        .path()
        .join(format!("rollout-2026-01-22T10-15-23-{a}.jsonl"));
    every_command_shows_a_cut_cycle(&path, size);
}

/// Found by the `agent_readers` fuzz target (docs/hardening.md, finding
/// 11): two running sub-agents' files, each with a `Task` call whose prompt
/// is the other's first prompt. Telling which file is a running call's
/// sub-agent read each candidate with its own sub-agents, which looked at
/// the other file, and so on: a stack overflow.
#[test]
fn running_sub_agents_found_by_each_others_prompt_are_read_once() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut size = 0;
    for name in ["p", "q"] {
        size += write_lines(
            &dir.path().join(format!("agent-{name}.jsonl")),
            &[
                claude_line("u1", None, "user", json!({"role": "user", "content": "go"})),
                claude_line(
                    "a1",
                    Some("u1"),
                    "assistant",
                    json!({"role": "assistant", "id": "m1", "content": [
                        {"type": "tool_use", "id": "t1", "name": "Task",
                         "input": {"prompt": "go", "description": format!("from {name}")}}]}),
                ),
            ],
        );
    }
    let path = dir.path().join("agent-p.jsonl");
    let render = overhear(["render", "--color", "never", "--width", "200", arg(&path)]);
    render.expect_code(0);
    check_bounds("render", size, &render);
    assert!(text(&render).contains("from p"), "{}", text(&render));
}

/// A Claude Code transcript whose assistant replies `text`.
fn with_reply(path: &Path, text: &str) -> u64 {
    write_lines(
        path,
        &[
            claude_line("u1", None, "user", json!({"role": "user", "content": "hi"})),
            claude_line(
                "a1",
                Some("u1"),
                "assistant",
                json!({"role": "assistant", "id": "m1", "content": [{"type": "text", "text": text}]}),
            ),
        ],
    )
}

#[test]
fn markdown_nested_a_hundred_thousand_deep_on_one_line_is_shown_as_written() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for (name, marker) in [("list", "- "), ("quote", "> "), ("ordered", "1. ")] {
        let depth = 100_000;
        let transcript = dir.path().join(format!("{name}.jsonl"));
        let size = with_reply(&transcript, &format!("{}x", marker.repeat(depth)));
        let render = overhear([
            "render",
            "--color",
            "never",
            "--width",
            "80",
            arg(&transcript),
        ]);
        render.expect_code(0);
        check_bounds(&format!("render {name}"), size, &render);
        let screen = text(&render);
        assert!(
            screen.contains(&format!(
                "(markdown nested {depth} levels deep on one line, shown as written:"
            )),
            "{name}: {}",
            &screen[..screen.len().min(2000)]
        );
        // As written, wrapped like any code line.
        assert!(screen.contains(&marker.repeat(10)), "{name}");

        let target = dir.path().join(format!("{name}.html"));
        let export = overhear(["export", arg(&transcript), "-o", arg(&target)]);
        export.expect_code(0);
        check_bounds(&format!("export {name}"), size, &export);
    }
}

/// What the note before the lines of a text past its budget says.
const AS_WRITTEN: &str = "are shown as written: this text holds more markdown than is laid out";

/// Renders a transcript in `dir` whose assistant replies `reply`, at
/// `width`, and exports it to `page` in `dir` (its ending names the
/// format), each within the rule; returns the rendered screen.
fn reply_within_the_rule(dir: &Path, name: &str, reply: &str, width: &str, page: &str) -> String {
    let transcript = dir.join("reply.jsonl");
    let size = with_reply(&transcript, reply);
    let render = overhear([
        "render",
        "--color",
        "never",
        "--width",
        width,
        arg(&transcript),
    ]);
    render.expect_code(0);
    check_bounds(&format!("render {name}"), size, &render);
    let export = overhear(["export", arg(&transcript), "-o", arg(&dir.join(page))]);
    export.expect_code(0);
    check_bounds(&format!("export {name}"), size, &export);
    text(&render)
}

/// Texts no cut can divide whose every few bytes open a parser node: many
/// lines each nested as deep as a line may be (or a few dozen deep), one
/// list of 300,000 items, a paragraph of a million emphasised words. Past
/// its budget a text is shown as written, so each stays within the memory
/// rule, and still shows its first and its last words.
#[test]
fn markdown_that_opens_a_node_every_few_bytes_costs_memory_within_the_rule() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let lines_of = |prefix: &str, count: usize, blank: &str| -> String {
        (0..count)
            .map(|line| format!("{prefix}word{line}\n{blank}"))
            .collect()
    };
    let shapes = [
        (
            "list 1,024 deep × 2,000",
            lines_of(&"- ".repeat(1024), 2_000, "\n"),
            1_999,
        ),
        (
            "quote 1,024 deep × 2,000",
            lines_of(&"> ".repeat(1024), 2_000, "\n"),
            1_999,
        ),
        (
            "list 32 deep × 60,000",
            lines_of(&"- ".repeat(32), 60_000, "\n"),
            59_999,
        ),
        (
            "a list of 300,000 items",
            lines_of("- ", 300_000, ""),
            299_999,
        ),
        (
            "a million emphasised words",
            format!("word0 {}word1000000", "*a* ".repeat(1_000_000)),
            1_000_000,
        ),
    ];
    for (name, reply, last) in shapes {
        let screen = reply_within_the_rule(dir.path(), name, &reply, "1000", "deep.html");
        let last = format!("word{last}");
        for word in ["word0", last.as_str()] {
            assert!(screen.contains(word), "{name}: {word} missing");
        }
        assert!(screen.contains(AS_WRITTEN), "{name}: no note");
    }
}

/// Texts no cut can divide, past their budget, whose layout first fences a
/// table too large to lay out or a line nested too deep: past the budget
/// their lines are shown as written a few thousand at a time, as in any
/// other text, so each stays within the memory rule (before, such a text
/// was laid out in one go: 120 MiB for 4 MiB, 280 MiB for 7 MiB).
#[test]
fn markdown_past_its_budget_after_a_fenced_table_or_deep_line_costs_memory_within_the_rule() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let items: String = (0..300_000).map(|i| format!("- word{i}\n")).collect();
    let table = format!("|{}\n", "x|".repeat(20)).repeat(1_000);
    let shapes = [
        (
            "a table of 20,000 cells, then 300,000 items",
            format!("{table}\n{items}"),
            "word299999",
        ),
        (
            "a line nested 1,100 deep, then 300,000 items",
            format!("{}x\n\n{items}", "- ".repeat(1_100)),
            "word299999",
        ),
        (
            "a table of 500,000 lines",
            "|a|b|\n".repeat(500_000) + "|last|\n",
            "|last|",
        ),
    ];
    for (name, reply, last) in shapes {
        let screen = reply_within_the_rule(dir.path(), name, &reply, "100", "fenced.md");
        assert!(screen.contains(last), "{name}: {last} missing");
        assert!(screen.contains(AS_WRITTEN), "{name}: no note");
    }
}

#[test]
fn a_code_line_of_tabs_or_of_vim_tags_costs_time_linear_in_it() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for (name, block) in [
        ("tabs", format!("```text\n{}x\n```\n", "\t".repeat(40_000))),
        ("vim", format!("```vim\n{}\n```\n", "<a ".repeat(13_334))),
    ] {
        let transcript = dir.path().join(format!("{name}.jsonl"));
        let size = with_reply(&transcript, &block);
        for width in ["100", "10000"] {
            let render = overhear([
                "render",
                "--color",
                "always",
                "--width",
                width,
                arg(&transcript),
            ]);
            render.expect_code(0);
            check_bounds(&format!("render {name} at {width}"), size, &render);
        }
    }
}

/// A Codex rollout of `lines` user prompts of text that hardly compresses,
/// compressed as a `.jsonl.zst`.
fn compressed_rollout(lines: usize) -> Vec<u8> {
    let line = |kind: &str, payload: Value| {
        json!({"timestamp": "2026-01-22T10:15:23.000Z", "type": kind, "payload": payload})
            .to_string()
            + "\n"
    };
    let mut text = line(
        "session_meta",
        json!({"id": "0199aaaa-0000-7000-8000-000000000001", "cwd": "/work/app", "source": "cli"}),
    );
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..lines {
        let words: String = (0..40)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                format!("{:x} ", seed)
            })
            .collect();
        text.push_str(&line(
            "event_msg",
            json!({"type": "user_message", "message": words}),
        ));
    }
    ruzstd::encoding::compress_to_vec(text.as_bytes(), ruzstd::encoding::CompressionLevel::Fastest)
}

/// A `.jsonl.zst` piped to standard input arrives in 64 KiB pieces: each
/// must cost what it holds (the frame was once inflated again, whole, for
/// every piece: four times the input took eight and a half times as long).
#[test]
fn a_compressed_rollout_piped_in_costs_time_linear_in_its_size() {
    let small = compressed_rollout(2_500);
    let large = compressed_rollout(15_000);
    let ratio = large.len() as f64 / small.len() as f64;
    let run = |bytes: &[u8]| {
        let run = overhear_fed(["events", "-"], &[], Some(bytes.to_vec()));
        run.expect_code(0);
        check_bounds("events - (a piped .jsonl.zst)", bytes.len() as u64, &run);
        assert!(
            text(&run).matches("\"chat_request\"").count() >= 2_500,
            "{}",
            &text(&run)[..text(&run).len().min(2000)]
        );
        run.elapsed
    };
    // The best of two runs each: a shared machine slows one now and then.
    let small_time = run(&small).min(run(&small));
    let large_time = run(&large).min(run(&large));
    let grew = large_time.as_secs_f64() / small_time.as_secs_f64();
    eprintln!(
        "piped .jsonl.zst: {} KiB in {small_time:.2?}, {} KiB in {large_time:.2?} (× {grew:.1} for × {ratio:.1})",
        small.len() / 1024,
        large.len() / 1024
    );
    assert!(
        grew < 2.0 * ratio,
        "{} KiB took {small_time:?}, {} KiB took {large_time:?}: × {grew:.1} for × {ratio:.1} the input",
        small.len() / 1024,
        large.len() / 1024
    );
}

/// A Claude Code turn of `responses` responses, each with its usage.
fn one_turn_of_responses(path: &Path, responses: usize) -> u64 {
    let mut lines = vec![claude_line(
        "u0",
        None,
        "user",
        json!({"role": "user", "content": "go"}),
    )];
    for i in 0..responses {
        let message = json!({"id": format!("m{i}"), "model": "claude-x", "role": "assistant",
            "content": [{"type": "text", "text": "ok"}],
            "usage": {"input_tokens": 1, "output_tokens": 1}});
        lines.push(claude_line(&format!("a{i}"), None, "assistant", message));
    }
    write_lines(path, &lines)
}

/// A turn's token usage is the sum of its responses': kept as they come,
/// not summed again over all of them at each one (five times the responses
/// took sixty times as long: 100,000 responses, 26 MB, 8.2 s in a release
/// build; 0.8 s now).
#[test]
fn a_turn_of_many_responses_costs_time_linear_in_them() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let run = |responses: usize| {
        let path = dir.path().join(format!("turn-{responses}.jsonl"));
        let bytes = one_turn_of_responses(&path, responses);
        let run = overhear(["render", "--color", "never", arg(&path)]);
        run.expect_code(0);
        check_bounds("render (one turn of many responses)", bytes, &run);
        assert!(
            text(&run).contains("ok"),
            "{}",
            &text(&run)[..text(&run).len().min(2000)]
        );
        run.elapsed
    };
    let (small, large) = (8_000, 40_000);
    let ratio = (large / small) as f64;
    // The best of two runs each: a shared machine slows one now and then.
    let small_time = run(small).min(run(small));
    let large_time = run(large).min(run(large));
    let grew = large_time.as_secs_f64() / small_time.as_secs_f64();
    eprintln!(
        "one turn: {small} responses in {small_time:.2?}, {large} in {large_time:.2?} (× {grew:.1} for × {ratio:.1})"
    );
    assert!(
        grew < 2.0 * ratio,
        "{small} responses took {small_time:?}, {large} took {large_time:?}: × {grew:.1} for × {ratio:.1}"
    );
}

/// A sub-agent's file over the size limit is not read, and its call says
/// why, in the words the file would get on its own (it was once shown as
/// a sub-agent not found).
#[test]
fn a_sub_agent_file_over_the_limit_is_refused_with_the_limits_words() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    agent_file(dir.path(), "a", "b");
    let big = dir.path().join("agent-b.jsonl");
    write_lines(
        &big,
        &[claude_line(
            "u1",
            None,
            "user",
            json!({"role": "user", "content": "y".repeat(100_000)}),
        )],
    );
    let path = dir.path().join("agent-a.jsonl");
    // The export wraps the notice at 100 columns, after "reads;".
    let refusal = format!(
        "sub-agent {}: 97.8 KiB is more than the 64 KiB overhear reads;",
        big.display()
    );
    let out = dir.path().join("a.md");
    for args in [
        vec!["render", "--color", "never", "--width", "400", arg(&path)],
        vec!["events", arg(&path)],
        vec!["export", arg(&path), "-o", arg(&out)],
    ] {
        let run = overhear_with(&args, &[("OVERHEAR_MAX_BYTES", "64K")]);
        run.expect_code(0);
        let shown = if args[0] == "export" {
            std::fs::read_to_string(&out).expect("the export is written")
        } else {
            text(&run)
        };
        assert!(shown.contains(&refusal), "{args:?}:\n{shown}");
        assert!(!shown.contains("yyyy"), "{args:?}");
    }
}

/// A long Claude Code session (about 19 MiB) is rendered and exported in
/// less than 3× its size + 24 MiB: the file is read a step at a time, not
/// held whole beside what is made of it, and the export's blocks wait for
/// their page in a scratch file. Either held whole again costs about its size.
#[test]
fn a_long_session_is_rendered_and_exported_in_three_times_its_size() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("long.jsonl");
    let bytes = common::export_session::long_session(&path, 19 * MIB as usize);
    let bound_kib = (3 * bytes + 24 * MIB) / 1024;
    let pages = dir.path().join("long.html");
    for command in [
        vec!["render", "--color", "never", arg(&path)],
        vec!["export", arg(&path), "-o", arg(&pages)],
    ] {
        let run = overhear(&command);
        run.expect_code(0);
        check_bounds(command[0], bytes, &run);
        assert!(
            run.peak_kib <= bound_kib,
            "{}: peak memory {:.0} MiB > 3 × {bytes} bytes + 24 MiB",
            command[0],
            run.peak_mib()
        );
    }
    let first = std::fs::read_to_string(&pages).expect("the first page");
    assert!(
        first.contains("turn 1"),
        "the first page holds the first turn"
    );
}

/// A large HTML export keeps its laid-out blocks in an unnamed scratch file
/// in `TMPDIR` and leaves nothing there; when that folder cannot be
/// written, the blocks stay in memory and the pages are the same, byte for
/// byte.
#[test]
fn an_export_writes_the_same_pages_whether_or_not_it_has_a_scratch_file() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("long.jsonl");
    common::export_session::long_session(&path, 6 * MIB as usize);
    let scratch = dir.path().join("scratch");
    std::fs::create_dir(&scratch).unwrap();
    let mut exports = Vec::new();
    for (name, tmpdir) in [
        ("with", scratch.clone()),
        ("without", dir.path().join("no such folder")),
    ] {
        let out = dir.path().join(name);
        std::fs::create_dir(&out).unwrap();
        let page = out.join("long.html");
        let run = overhear_with(
            ["export", arg(&path), "-o", arg(&page)],
            &[("TMPDIR", arg(&tmpdir))],
        );
        run.expect_code(0);
        let mut pages: Vec<(String, Vec<u8>)> = std::fs::read_dir(&out)
            .unwrap()
            .map(|entry| {
                let entry = entry.unwrap();
                let name = entry.file_name().to_string_lossy().into_owned();
                (name, std::fs::read(entry.path()).unwrap())
            })
            .collect();
        pages.sort();
        exports.push(pages);
    }
    assert!(exports[0].len() > 8, "{} pages", exports[0].len());
    assert!(exports[0] == exports[1], "the pages differ");
    let left: Vec<_> = std::fs::read_dir(&scratch).unwrap().collect();
    assert!(left.is_empty(), "left in TMPDIR: {left:?}");
}

/// A JP conversation folder `name` in `parent` of `events` and an empty
/// base configuration.
fn jp_conversation(parent: &Path, name: &str, events: &str) -> PathBuf {
    let dir = parent.join(name);
    std::fs::create_dir(&dir).expect("a conversation folder");
    std::fs::write(dir.join("base_config.json"), "{}").expect("written");
    std::fs::write(dir.join("events.json"), events).expect("written");
    dir
}

/// A JP conversation whose last turn is 600,000 `turn_start`s (they open
/// no turn without a conversation event between them: one turn of 37 MB),
/// printed with `--turn -1`: the sparse read's events of that turn are let
/// go of before it is decoded again from the file, so it is not held twice.
#[test]
fn a_last_turn_of_six_hundred_thousand_entries_is_printed_within_the_rule() {
    let entry = r#"{"type": "turn_start", "timestamp": "2026-05-01 10:00:00.1"}"#;
    let mut events = String::from("[\n");
    for i in 0..600_000 {
        if i > 0 {
            events.push_str(",\n");
        }
        events.push_str(entry);
    }
    events.push_str(",\n{\"type\": \"chat_request\", \"content\": \"the end\"}\n]\n");
    let parent = tempfile::tempdir().expect("a temporary folder");
    let dir = jp_conversation(parent.path(), "17760760747-starts", &events);
    let run = overhear([
        "render",
        "--turn",
        "-1",
        "--color",
        "never",
        "--width",
        "80",
        arg(&dir),
    ]);
    run.expect_code(0);
    check_bounds("render --turn -1", events.len() as u64, &run);
    assert!(text(&run).contains("the end"), "{}", text(&run));
}

/// A JP conversation of 90,000 turns, each changing one nested setting (a
/// `config_delta`), then asking (26 MB): printed whole and its last turn.
/// A change held as a JSON value cost about thirty times its text (a map per
/// object), 9.7× this file in all; it is held as its text now.
#[test]
fn a_conversation_of_ninety_thousand_configuration_changes_is_read_within_the_rule() {
    let time = "2026-05-01 10:00:00.1";
    let mut events = String::from("[\n");
    for i in 0..90_000 {
        let entries = [
            json!({"type": "turn_start", "timestamp": time}),
            json!({"type": "config_delta", "timestamp": time,
                   "delta": {"assistant": {"model": {"parameters": {"temperature": i % 10}}}}}),
            json!({"type": "chat_request", "timestamp": time, "content": format!("ask {i}")}),
        ];
        for entry in entries {
            if events.len() > 2 {
                events.push_str(",\n");
            }
            events.push_str("  ");
            events.push_str(&entry.to_string());
        }
    }
    events.push_str("\n]\n");
    let parent = tempfile::tempdir().expect("a temporary folder");
    let dir = jp_conversation(parent.path(), "17760760747-changes", &events);
    for last in [false, true] {
        let mut command = vec!["render", "--color", "never", "--width", "80", arg(&dir)];
        if last {
            command.extend(["--turn", "-1"]);
        }
        let run = overhear(&command);
        run.expect_code(0);
        check_bounds(&command.join(" "), events.len() as u64, &run);
        let shown = text(&run);
        assert!(
            shown.contains("turn 90000") && shown.contains("ask 89999"),
            "{}",
            &shown[shown.len().saturating_sub(400)..]
        );
    }
}

/// A Claude Code transcript of two lines holding long arrays of small
/// objects (12 MB): a tool result whose `toolUseResult` carries an MCP
/// tool's structured rows, and a call whose input holds an array of items.
/// Each line was one JSON value while it was read (about twenty times its
/// text), and the input was kept as one: 0.6 GB. Each array is left unread
/// past a line's budget of values now, said in a warning naming the line,
/// and the rest of the line (the result's text, the call) is shown.
#[test]
fn transcript_lines_of_long_arrays_of_small_objects_are_read_within_the_rule() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("rows.jsonl");
    let rows: Vec<Value> = (0..250_000).map(|i| json!({"id": i, "ok": true})).collect();
    let items: Vec<Value> = (0..500_000).map(|_| json!({"a": 1})).collect();
    let mut result = claude_line(
        "u2",
        Some("a1"),
        "user",
        json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "250000 rows"}]}),
    );
    result["toolUseResult"] = json!({"structuredContent": {"rows": rows}});
    let size = write_lines(
        &path,
        &[
            claude_line(
                "u1",
                None,
                "user",
                json!({"role": "user", "content": "query"}),
            ),
            claude_line(
                "a1",
                Some("u1"),
                "assistant",
                json!({"role": "assistant", "id": "m1", "content": [
                    {"type": "tool_use", "id": "t1", "name": "mcp__db__query", "input": {"sql": "select *"}}]}),
            ),
            result,
            claude_line(
                "a2",
                Some("u2"),
                "assistant",
                json!({"role": "assistant", "id": "m2", "content": [
                    {"type": "tool_use", "id": "t2", "name": "load", "input": {"path": "/x.json", "items": items}}]}),
            ),
        ],
    );
    let out = dir.path().join("out.md");
    for command in [
        vec!["render", "--color", "never", "--width", "80", arg(&path)],
        vec!["render", "--view", "raw", "--color", "never", arg(&path)],
        vec!["events", arg(&path)],
        vec!["export", arg(&path), "-o", arg(&out)],
    ] {
        let run = overhear(&command);
        run.expect_code(0);
        check_bounds(&command[..2].join(" "), size, &run);
        let warnings = &run.stderr;
        for line in [3, 4] {
            assert!(
                warnings.contains(&format!(
                    "line {line}: more values than overhear holds of one record: an array or object not read"
                )),
                "{warnings}"
            );
        }
    }
    let shown = text(&overhear([
        "render",
        "--color",
        "never",
        "--width",
        "80",
        arg(&path),
    ]));
    assert!(shown.contains("250000 rows"), "{shown}");
    assert!(
        shown.contains(r#""path": "/x.json","#)
            && shown.contains(
                r#""items": "(not read: more values than overhear holds of one record)""#
            ),
        "{shown}"
    );
}

/// The same for an eve stream: a message whose record also holds a long
/// array (6 MB) is shown, its array left unread, with a warning.
#[test]
fn an_eve_line_of_a_long_array_of_small_objects_is_read_within_the_rule() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("stream.ndjson");
    let meta =
        |n: usize| json!({"at": format!("2026-01-01T00:00:0{n}.000Z"), "id": format!("evt-{n}")});
    let extra: Vec<Value> = (0..500_000).map(|_| json!({"a": 1})).collect();
    let size = write_lines(
        &path,
        &[
            json!({"type": "session.started", "data": {"runtime": {"agentId": "a"}}, "meta": meta(1)}),
            json!({"type": "turn.started", "data": {"sequence": 0, "turnId": "turn-1"}, "meta": meta(2)}),
            json!({"type": "message.received", "meta": meta(3), "data": {
                "message": "what is in the file?", "sequence": 0, "turnId": "turn-1",
                "parts": [{"type": "text", "text": "what is in the file?"}], "extra": extra}}),
        ],
    );
    let run = overhear(["render", "--color", "never", "--width", "80", arg(&path)]);
    run.expect_code(0);
    check_bounds("render", size, &run);
    assert!(
        text(&run).contains("what is in the file?"),
        "{}",
        text(&run)
    );
    assert!(
        run.stderr.contains(
            "line 3: more values than overhear holds of one record: an array or object not read"
        ),
        "{}",
        run.stderr
    );
}
