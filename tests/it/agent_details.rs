//! The details a user checks in an agent's transcript, through the real
//! binary: how long a turn took (not the user's idle time after it), calls
//! the user refused (shown as refused, skipped by `x`), card headers that
//! say what a call did (in `render`, folded or not, and in exports), IDE
//! context and hook output as short notes, checklists wrapped at words, and
//! a wrapped header printed once in an export.

use crate::common;

use common::pty::Viewer;
use serde_json::{Value, json};

const SESSION: &str = "5e55a0e1-0000-4000-8000-0000000de7a1";

/// A Claude Code record of `kind` at `time` (`HH:MM:SS` on one day).
fn claude(kind: &str, uuid: &str, time: &str, mut extra: Value) -> String {
    let map = extra.as_object_mut().expect("an object");
    map.insert("type".into(), kind.into());
    map.insert("uuid".into(), uuid.into());
    map.insert("sessionId".into(), SESSION.into());
    map.insert("cwd".into(), "/w/app".into());
    map.insert("timestamp".into(), format!("2026-01-22T{time}.000Z").into());
    format!("{extra}\n")
}

fn prompt(uuid: &str, time: &str, content: Value) -> String {
    claude(
        "user",
        uuid,
        time,
        json!({"message": {"role": "user", "content": content}}),
    )
}

fn reply(uuid: &str, time: &str, content: Value) -> String {
    let message = json!({"id": format!("msg_{uuid}"), "role": "assistant", "content": content});
    claude("assistant", uuid, time, json!({"message": message}))
}

fn call(uuid: &str, time: &str, id: &str, name: &str, input: Value) -> String {
    reply(
        uuid,
        time,
        json!([{"type": "tool_use", "id": id, "name": name, "input": input}]),
    )
}

fn result(uuid: &str, time: &str, id: &str, text: &str, is_error: bool) -> String {
    let block =
        json!({"type": "tool_result", "tool_use_id": id, "content": text, "is_error": is_error});
    prompt(uuid, time, json!([block]))
}

/// `overhear ARGS… -` with `input` on standard input; its standard output.
fn run(args: &[&str], input: &str) -> String {
    common::stdout_fed(args, input)
}

fn render(input: &str, width: usize) -> String {
    let width = width.to_string();
    run(&["render", "--color", "never", "--width", &width], input)
}

fn rule_of(screen: &str, turn: usize) -> String {
    let label = format!("── turn {turn} ");
    screen
        .lines()
        .find(|l| l.starts_with(&label))
        .unwrap_or_else(|| panic!("no rule of turn {turn}:\n{screen}"))
        .to_string()
}

#[test]
fn a_turn_lasts_from_its_prompt_to_its_last_record_not_to_the_next_prompt() {
    let input = [
        prompt("u1", "10:00:00", json!("Count the files")),
        call(
            "a1",
            "10:00:05",
            "t1",
            "Bash",
            json!({"command": "ls | wc -l"}),
        ),
        result("u2", "10:00:10", "t1", "12", false),
        reply(
            "a2",
            "10:00:30",
            json!([{"type": "text", "text": "There are 12."}]),
        ),
        // The user comes back twenty minutes later: the next prompt's records.
        claude(
            "queue-operation",
            "q1",
            "10:20:00",
            json!({"operation": "enqueue", "content": "And now?"}),
        ),
        claude(
            "queue-operation",
            "q2",
            "10:20:00",
            json!({"operation": "dequeue"}),
        ),
        claude(
            "file-history-snapshot",
            "f1",
            "10:20:01",
            json!({"snapshot": {}}),
        ),
        prompt("u3", "10:20:01", json!("And now?")),
        reply(
            "a3",
            "10:20:04",
            json!([{"type": "text", "text": "Still 12."}]),
        ),
    ]
    .concat();
    let screen = render(&input, 100);
    let first = rule_of(&screen, 1);
    assert!(first.contains("· 30s"), "turn 1 took 30 s of work: {first}");
    assert!(
        !first.contains("20m"),
        "the idle time is not the turn's: {first}"
    );
    assert!(rule_of(&screen, 2).contains("· 3s"), "{screen}");
}

const REFUSED: &str = "The user doesn't want to proceed with this tool use. The tool use was rejected \
    (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to \
    proceed, the user said:\nuse pnpm";

/// A turn with a refused call and (when `failure`) a call that failed.
fn refusals(failure: bool) -> String {
    let mut lines = vec![
        prompt("u1", "10:00:00", json!("Install the deps")),
        call(
            "a1",
            "10:00:01",
            "t1",
            "Bash",
            json!({"command": "npm install"}),
        ),
        result("u2", "10:00:02", "t1", REFUSED, true),
    ];
    if failure {
        lines.push(call(
            "a2",
            "10:00:03",
            "t2",
            "Bash",
            json!({"command": "pnpm install"}),
        ));
        lines.push(result(
            "u3",
            "10:00:04",
            "t2",
            "pnpm: command not found",
            true,
        ));
    }
    lines.push(reply(
        "a3",
        "10:00:05",
        json!([{"type": "text", "text": "Done."}]),
    ));
    lines.concat()
}

#[test]
fn a_call_the_user_refused_is_shown_refused_with_the_reason_not_failed() {
    let screen = render(&refusals(true), 100);
    let refused = screen
        .lines()
        .find(|l| l.contains("Bash · npm install"))
        .unwrap_or_else(|| panic!("no header for the refused call:\n{screen}"));
    assert!(refused.starts_with("⊘ Bash"), "{refused}");
    assert!(refused.contains("refused: use pnpm"), "{refused}");
    assert!(!refused.contains("failed"), "{refused}");
    let failed = screen
        .lines()
        .find(|l| l.starts_with("✗ Bash"))
        .unwrap_or_else(|| panic!("no failed header:\n{screen}"));
    assert!(
        failed.contains("pnpm install") && failed.contains("failed"),
        "{failed}"
    );
}

#[test]
fn codex_approvals_the_user_denied_are_refused_too() {
    let at = |s: u32| format!("2026-01-22T10:00:{s:02}.000Z");
    let lines = [
        json!({"timestamp": at(0), "type": "session_meta", "payload": {"id": "c0de", "timestamp": at(0),
            "cwd": "/w/app", "originator": "codex_cli_rs", "cli_version": "0.40.0"}}),
        json!({"timestamp": at(1), "type": "event_msg", "payload": {"type": "user_message", "message": "Clean up"}}),
        json!({"timestamp": at(2), "type": "response_item", "payload": {"type": "function_call", "name": "shell",
            "arguments": "{\"command\":[\"bash\",\"-lc\",\"rm -rf build\"]}", "call_id": "c1"}}),
        json!({"timestamp": at(3), "type": "response_item", "payload": {"type": "function_call_output",
            "call_id": "c1", "output": "exec command rejected by user"}}),
        json!({"timestamp": at(4), "type": "response_item", "payload": {"type": "message", "role": "assistant",
            "content": [{"type": "output_text", "text": "I left it."}]}}),
    ];
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let screen = render(&input, 100);
    let header = screen
        .lines()
        .find(|l| l.contains("shell"))
        .unwrap_or_else(|| panic!("no shell card:\n{screen}"));
    assert!(header.starts_with("⊘ shell · rm -rf build"), "{header}");
    assert!(header.contains("refused"), "{header}");
}

#[test]
fn x_in_the_viewer_skips_a_refused_call() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join(format!("{SESSION}.jsonl"));
    std::fs::write(&path, refusals(false)).expect("written");
    let mut viewer = Viewer::spawn(&[path.as_path()], dir.path(), dir.path(), 30, 100);
    viewer.wait_for_text("Install the deps");
    viewer.send(b"g");
    viewer.send(b"x");
    viewer.wait_for_text("no later failed tool call");
    viewer.quit();
}

#[test]
fn card_headers_say_what_each_call_did() {
    let long = format!("grep -rn {} .", "needle".repeat(30));
    let input = [
        prompt("u1", "10:00:00", json!("Look around")),
        call("a1", "10:00:01", "t1", "Bash", json!({"command": "npm test", "description": "Run the tests"})),
        result("u2", "10:00:02", "t1", "ok", false),
        call("a2", "10:00:03", "t2", "Bash", json!({"command": long})),
        result("u3", "10:00:04", "t2", "none", false),
        call("a3", "10:00:05", "t3", "Edit", json!({"file_path": "/w/app/src/app.ts", "old_string": "a", "new_string": "b"})),
        result("u4", "10:00:06", "t3", "edited", false),
        call("a4", "10:00:07", "t4", "Task", json!({"description": "Find the bug", "prompt": "Look for it", "subagent_type": "general"})),
        result("u5", "10:00:08", "t4", "found it", false),
        reply("a5", "10:00:09", json!([{"type": "text", "text": "Done."}])),
    ]
    .concat();
    let screen = render(&input, 80);
    let headers: Vec<&str> = screen.lines().filter(|l| l.starts_with("● ")).collect();
    assert!(
        headers
            .iter()
            .any(|h| h.starts_with("● Bash · Run the tests")),
        "{headers:?}"
    );
    assert!(
        headers.iter().any(|h| h.starts_with("● Edit · src/app.ts")),
        "{headers:?}"
    );
    assert!(
        headers
            .iter()
            .any(|h| h.starts_with("● Task · Find the bug")),
        "{headers:?}"
    );
    let cut = headers
        .iter()
        .find(|h| h.contains("grep -rn"))
        .unwrap_or_else(|| panic!("{headers:?}"));
    assert!(cut.chars().count() <= 80, "{cut}");
    assert_eq!(cut.matches('…').count(), 1, "cut once: {cut}");
    // The export's folded summaries say the same.
    let md = run(&["export", "--format", "md"], &input);
    assert!(
        md.contains("<summary>● Bash · Run the tests")
            || md.contains("<summary>Bash · Run the tests"),
        "{md}"
    );
    let html = run(&["export", "--format", "html"], &input);
    assert!(
        html.contains("Run the tests"),
        "no subject in the HTML export"
    );
}

#[test]
fn the_viewer_shows_what_a_call_did_on_a_folded_card() {
    let rows: Vec<String> = (1..=5).map(|n| format!("row {n}")).collect();
    let input = [
        prompt("u1", "10:00:00", json!("Show the rows")),
        call(
            "a1",
            "10:00:01",
            "t1",
            "Bash",
            json!({"command": "cat rows.txt", "description": "Print the rows"}),
        ),
        result("u2", "10:00:02", "t1", &rows.join("\n"), false),
        reply(
            "a2",
            "10:00:03",
            json!([{"type": "text", "text": "There."}]),
        ),
    ]
    .concat();
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join(format!("{SESSION}.jsonl"));
    std::fs::write(&path, input).expect("written");
    let mut viewer = Viewer::spawn(&[path.as_path()], dir.path(), dir.path(), 30, 100);
    viewer.wait_for_text("● Bash · Print the rows");
    // Every card folded to its header (`z`): the header still says it.
    viewer.send(b"z");
    viewer.wait_for_text("▸ Bash · Print the rows");
    viewer.wait_for_text("5 lines folded");
    viewer.quit();
}

#[test]
fn ide_context_in_a_prompt_reads_as_a_note_and_the_raw_view_keeps_it() {
    let opened = "<ide_opened_file>The user opened the file /w/app/src/app.ts in the IDE. This may or may not be related to the current task.</ide_opened_file>";
    let selected = "<ide_selection>The user selected the lines 3 to 9 from /w/app/src/app.ts:\nconst a = 1;\n\nThis may or may not be related to the current task.</ide_selection>";
    let input = [
        prompt(
            "u1",
            "10:00:00",
            json!([{"type": "text", "text": opened}, {"type": "text", "text": selected}, {"type": "text", "text": "Why is this slow?"}]),
        ),
        reply("a1", "10:00:02", json!([{"type": "text", "text": "Because."}])),
    ]
    .concat();
    let screen = render(&input, 100);
    assert!(
        !screen.contains("ide_opened_file") && !screen.contains("ide_selection"),
        "{screen}"
    );
    assert!(screen.contains("opened src/app.ts"), "{screen}");
    assert!(
        screen.contains("selected lines 3–9 of src/app.ts"),
        "{screen}"
    );
    assert!(screen.contains("Why is this slow?"), "{screen}");
    let raw = run(
        &[
            "render", "--color", "never", "--width", "200", "--view", "raw",
        ],
        &input,
    );
    assert!(
        raw.contains("<ide_opened_file>"),
        "the raw view keeps the tag:\n{raw}"
    );
}

#[test]
fn hook_output_is_a_short_note_and_whole_in_the_raw_view() {
    let hook = json!({"type": "hook_success", "hookName": "PostToolUse:Bash", "toolUseID": "t1",
        "hookEvent": "PostToolUse", "content": "Status set to busy", "stdout": "Status set to busy\n",
        "stderr": "", "exitCode": 0, "command": "notify busy", "durationMs": 90});
    let failing = json!({"type": "hook_non_blocking_error", "hookName": "Stop", "toolUseID": "s1",
        "hookEvent": "Stop", "stderr": "lint found 3 problems", "stdout": "", "exitCode": 1,
        "command": "npm run lint", "durationMs": 900});
    let input = [
        prompt("u1", "10:00:00", json!("Build it")),
        call("a1", "10:00:01", "t1", "Bash", json!({"command": "make"})),
        result("u2", "10:00:02", "t1", "built", false),
        claude("attachment", "h1", "10:00:02", json!({"attachment": hook})),
        reply("a2", "10:00:03", json!([{"type": "text", "text": "Built."}])),
        claude("attachment", "h2", "10:00:04", json!({"attachment": failing})),
        claude("system", "h3", "10:00:04", json!({"subtype": "stop_hook_summary", "hookCount": 1,
            "hookInfos": [{"command": "npm run lint", "durationMs": 900}], "hookErrors": [],
            "preventedContinuation": false, "stopReason": "", "hasOutput": true, "level": "suggestion"})),
    ]
    .concat();
    let screen = render(&input, 100);
    assert!(screen.contains("hook PostToolUse:Bash: ok"), "{screen}");
    assert!(screen.contains("hook Stop: failed (exit 1)"), "{screen}");
    assert!(
        !screen.contains("Status set to busy"),
        "only a note in the turn:\n{screen}"
    );
    let raw = run(
        &[
            "render", "--color", "never", "--width", "300", "--view", "raw",
        ],
        &input,
    );
    assert!(raw.contains("Status set to busy"), "{raw}");
}

#[test]
fn checklists_wrap_at_words() {
    let todos = json!({"todos": [
        {"content": "Refactor timeline filtering to hide vis-groups instead of individual items", "status": "in_progress", "activeForm": "x"},
        {"content": "Fix colour mismatch between group headers and timeline items", "status": "pending", "activeForm": "y"}]});
    let input = [
        prompt("u1", "10:00:00", json!("Plan it")),
        call("a1", "10:00:01", "t1", "TodoWrite", todos),
        result("u2", "10:00:02", "t1", "ok", false),
        reply(
            "a2",
            "10:00:03",
            json!([{"type": "text", "text": "Planned."}]),
        ),
    ]
    .concat();
    let screen = render(&input, 40);
    assert!(!screen.contains('↪'), "no word cut:\n{screen}");
    let words: Vec<&str> = screen.split_whitespace().collect();
    for word in [
        "Refactor",
        "filtering",
        "vis-groups",
        "individual",
        "mismatch",
        "headers",
    ] {
        assert!(words.contains(&word), "{word} is whole:\n{screen}");
    }
}

#[test]
fn a_wrapped_card_header_is_printed_once_in_an_export() {
    let pattern = format!("{}TAIL_OF_THE_PATTERN", "alpha|beta|".repeat(12));
    let input = [
        prompt("u1", "10:00:00", json!("Search")),
        call(
            "a1",
            "10:00:01",
            "t1",
            "Grep",
            json!({"pattern": pattern, "include": "*.rs"}),
        ),
        result("u2", "10:00:02", "t1", "Found 1 file\nsrc/a.rs", false),
        reply(
            "a2",
            "10:00:03",
            json!([{"type": "text", "text": "Found."}]),
        ),
    ]
    .concat();
    let md = run(&["export", "--format", "md"], &input);
    assert_eq!(md.matches("TAIL_OF_THE_PATTERN").count(), 1, "{md}");
}
