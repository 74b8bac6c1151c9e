//! `overhear card`: the built binary, as a tool author runs it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use overhear::text::width::display_width;
use serde_json::{Value, json};

/// Runs the binary with `args`, `stdin` piped in when given, no colour
/// asked of the environment.
fn overhear_in(dir: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = crate::common::overhear()
        .args(args)
        .current_dir(dir)
        .env_remove("COLUMNS")
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    if let Some(text) = stdin {
        input
            .write_all(text.as_bytes())
            .expect("stdin takes the text");
    }
    drop(input);
    child.wait_with_output().expect("the binary ends")
}

/// A folder with the files a test writes.
struct Files(tempfile::TempDir);

impl Files {
    fn new() -> Files {
        Files(tempfile::tempdir().expect("a temporary folder"))
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.path().join(name);
        std::fs::write(&path, text).expect("the file is written");
        path
    }

    fn json(&self, name: &str, value: &Value) -> PathBuf {
        self.write(name, &value.to_string())
    }

    fn run(&self, args: &[&str]) -> Output {
        overhear_in(self.0.path(), args, None)
    }

    /// The card's stdout; the command must succeed with nothing on stderr.
    fn card(&self, args: &[&str]) -> String {
        let mut all = vec!["card"];
        all.extend_from_slice(args);
        let out = self.run(&all);
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "{all:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("stdout is UTF-8")
    }

    /// The one line on stderr of a command that must fail with `code`.
    fn error(&self, args: &[&str], code: i32) -> String {
        let mut all = vec!["card"];
        all.extend_from_slice(args);
        let out = self.run(&all);
        assert_eq!(out.status.code(), Some(code), "{all:?}");
        assert!(out.stdout.is_empty(), "{all:?} printed on stdout");
        let err = String::from_utf8(out.stderr).expect("stderr is UTF-8");
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        err.trim_end().to_string()
    }
}

fn lines(prefix: &str, n: usize) -> String {
    (1..=n)
        .map(|i| format!("{prefix} {i}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A result with a user-only, an assistant-only and an unannotated block of five lines each.
fn three_audiences(files: &Files) -> PathBuf {
    files.json(
        "result.json",
        &json!({"content": [
            {"type": "text", "text": lines("for the user", 5), "annotations": {"audience": ["user"]}},
            {"type": "text", "text": lines("for the model", 5), "annotations": {"audience": ["assistant"]}},
            {"type": "text", "text": lines("for both", 5)},
        ], "isError": false}),
    )
}

const READ: [&str; 4] = [
    "--tool",
    "fs_read_file",
    "--args",
    r#"{"path":"src/main.rs"}"#,
];

fn card_of(files: &Files, result: &Path, extra: &[&str]) -> String {
    let mut args = READ.to_vec();
    args.extend(["--result", result.to_str().unwrap()]);
    args.extend_from_slice(extra);
    files.card(&args)
}

#[test]
fn the_default_style_shows_header_json_arguments_and_ten_lines_of_a_plain_result() {
    let files = Files::new();
    let result = files.write("result.txt", &lines("line", 15));
    let out = card_of(&files, &result, &[]);
    assert!(out.starts_with("● fs_read_file\n"), "{out}");
    assert!(out.contains(r#""path": "src/main.rs""#), "{out}");
    assert!(
        out.contains("line 10\n") && !out.contains("line 11"),
        "{out}"
    );
    assert!(out.contains("… 5 more lines not shown"), "{out}");
    // Not a conversation: no turn rule, no notice around the card.
    assert!(
        !out.contains("turn 1") && !out.contains("final reply"),
        "{out}"
    );
    assert!(
        !out.contains('\x1b'),
        "no colour when stdout is not a terminal"
    );
}

#[test]
fn hidden_prints_nothing_and_all_says_so_while_the_model_still_gets_the_result() {
    let files = Files::new();
    let result = three_audiences(&files);
    assert_eq!(card_of(&files, &result, &["--set", "hidden=true"]), "");
    let all = card_of(&files, &result, &["--set", "hidden=true", "--view", "all"]);
    assert!(
        all.contains("(nothing: the style hides this call)"),
        "{all}"
    );
    assert!(all.contains("for the model 5"), "{all}");
}

#[test]
fn header_off_drops_the_title_line_and_its_arguments() {
    let files = Files::new();
    let result = files.write("result.txt", "done");
    let out = card_of(&files, &result, &["--set", "header=off"]);
    // As in the viewer (docs/rendering.md): the arguments belong to the header.
    assert_eq!(out, "  │ done\n\n");
    let on = card_of(&files, &result, &["--set", "header=on"]);
    assert!(
        on.starts_with("● fs_read_file\n") && on.contains("src/main.rs"),
        "{on}"
    );
}

#[test]
fn parameters_json_function_call_and_off() {
    let files = Files::new();
    let result = files.write("result.txt", "done");
    let call = card_of(&files, &result, &["--set", "parameters=function_call"]);
    assert!(
        call.starts_with(r#"● fs_read_file(path: "src/main.rs")"#),
        "{call}"
    );
    let off = card_of(&files, &result, &["--set", "parameters=off"]);
    assert!(
        !off.contains("src/main.rs") && off.contains("done"),
        "{off}"
    );
}

#[test]
fn inline_results_take_each_blocks_audience_setting() {
    let files = Files::new();
    let result = three_audiences(&files);
    let out = card_of(
        &files,
        &result,
        &[
            "--set",
            "inline_results.user=2",
            "--set",
            "inline_results.assistant=off",
        ],
    );
    // User-only: 2 lines. Assistant-only: hidden (and counted). Unannotated:
    // the more permissive of the two, 2 lines.
    assert!(
        out.contains("for the user 2\n") && !out.contains("for the user 3"),
        "{out}"
    );
    assert!(!out.contains("for the model"), "{out}");
    assert!(
        out.contains("for both 2\n") && !out.contains("for both 3"),
        "{out}"
    );
    assert!(out.contains("5 lines hidden by policy"), "{out}");
    // Larger for the assistant: the unannotated block follows it.
    let out = card_of(
        &files,
        &result,
        &["--set", r#"inline_results={"user":1,"assistant":"full"}"#],
    );
    assert!(
        out.contains("for the user 1\n") && !out.contains("for the user 2"),
        "{out}"
    );
    assert!(
        out.contains("for the model 5") && out.contains("for both 5"),
        "{out}"
    );
}

#[test]
fn chat_renders_user_blocks_as_speech_and_unannotated_ones_as_results() {
    let files = Files::new();
    let result = three_audiences(&files);
    let out = card_of(
        &files,
        &result,
        &[
            "--set",
            "inline_results.user=chat",
            "--set",
            "inline_results.assistant=off",
        ],
    );
    let (card, speech) = out
        .split_once("── assistant · fs_read_file")
        .expect("a speech pane labelled with the tool");
    assert!(
        card.contains("│ for both 5"),
        "unannotated: result display, full: {out}"
    );
    assert!(!card.contains("for the user"), "{out}");
    // Speech is markdown: the five lines join into one paragraph.
    assert!(speech.contains("for the user 1 for the user 2"), "{out}");
    assert!(speech.contains("delivered"), "{out}");
}

#[test]
fn a_message_tool_is_speech_by_its_built_in_style() {
    let files = Files::new();
    let result = files.json(
        "result.json",
        &json!({"content": [
            {"type": "text", "text": "Phase 1 done.", "mimeType": "text/markdown", "annotations": {"audience": ["user"]}},
            {"type": "text", "text": "Message delivered.", "annotations": {"audience": ["assistant"]}},
        ]}),
    );
    let out = files.card(&[
        "--tool",
        "send_channel_update",
        "--args",
        r#"{"message":"Phase 1 done."}"#,
        "--result",
        result.to_str().unwrap(),
    ]);
    assert!(
        out.starts_with("── assistant · update (send_channel_update) ──"),
        "{out}"
    );
    assert!(
        out.contains("Phase 1 done.") && !out.contains("Message delivered."),
        "{out}"
    );
    assert!(!out.contains("● "), "no card header: {out}");
}

#[test]
fn an_error_result_is_marked_failed_and_the_model_gets_the_placeholder() {
    let files = Files::new();
    let result = files.json(
        "result.json",
        &json!({"content": [
            {"type": "text", "text": "disk full", "annotations": {"audience": ["user"]}},
        ], "isError": true}),
    );
    let out = card_of(&files, &result, &[]);
    assert!(out.starts_with("✗ fs_read_file · failed"), "{out}");
    assert!(out.contains("disk full"), "{out}");
    let provider: Value =
        serde_json::from_str(&card_of(&files, &result, &["--view", "provider"])).unwrap();
    assert_eq!(provider[1]["is_error"], true);
    assert_eq!(provider[1]["content"][0]["text"], "Tool failed.");
    let ok = files.json(
        "ok.json",
        &json!({"content": [{"type": "text", "text": "x", "annotations": {"audience": ["user"]}}]}),
    );
    let provider: Value =
        serde_json::from_str(&card_of(&files, &ok, &["--view", "provider"])).unwrap();
    assert_eq!(
        provider[1]["content"][0]["text"],
        "Tool executed successfully."
    );
}

#[test]
fn the_user_and_provider_views_are_what_events_prints_for_the_same_call() {
    let files = Files::new();
    let result = three_audiences(&files);
    let content = serde_json::from_str::<Value>(&std::fs::read_to_string(&result).unwrap())
        .unwrap()["content"]
        .clone();
    files.json(
        "events.json",
        &json!([
            {"type": "tool_call_request", "id": "call_1", "name": "fs_read_file", "arguments": {"path": "src/main.rs"}},
            {"type": "tool_call_response", "id": "call_1", "content": content, "is_error": false},
        ]),
    );
    for view in ["user", "provider"] {
        let card: Value =
            serde_json::from_str(&card_of(&files, &result, &["--view", view])).unwrap();
        let out = files.run(&["events", "events.json", "--view", view]);
        assert!(out.status.success());
        let events: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(card, events, "--view {view}");
    }
}

#[test]
fn view_all_has_three_labelled_sections_in_order() {
    let files = Files::new();
    let result = three_audiences(&files);
    let out = card_of(&files, &result, &["--view", "all", "--width", "80"]);
    let labels = [
        "── terminal — what the user sees ─",
        "── user view — as `overhear events --view user` ─",
        "── provider — what the model receives ─",
    ];
    let at: Vec<usize> = labels
        .iter()
        .map(|label| {
            out.find(label)
                .unwrap_or_else(|| panic!("{label} in {out}"))
        })
        .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{out}");
    let user = &out[at[1]..at[2]];
    assert!(
        user.contains("for the user 1") && !user.contains("for the model"),
        "{out}"
    );
    let provider = &out[at[2]..];
    assert!(
        provider.contains("for the model 1") && !provider.contains("for the user"),
        "{out}"
    );
}

#[test]
fn results_file_link_is_accepted_and_prints_no_link() {
    let files = Files::new();
    let result = files.write("result.txt", "done");
    let plain = card_of(&files, &result, &[]);
    for value in ["off", "osc8", "full"] {
        let set = format!("results_file_link={value}");
        assert_eq!(card_of(&files, &result, &["--set", &set]), plain, "{set}");
    }
    let err = files.error(
        &[
            "--tool",
            "t",
            "--result",
            "result.txt",
            "--set",
            "results_file_link=maybe",
        ],
        2,
    );
    assert!(
        err.starts_with("overhear: --set results_file_link=maybe: "),
        "{err}"
    );
    assert!(err.contains("results_file_link"), "{err}");
}

#[test]
fn the_result_can_come_on_stdin_and_the_arguments_from_a_file() {
    let files = Files::new();
    files.write("args.json", r#"{"path": "from/a/file.rs"}"#);
    let out = overhear_in(
        files.0.path(),
        &[
            "card",
            "--tool",
            "fs_read_file",
            "--args",
            "@args.json",
            "--result",
            "-",
        ],
        Some("piped result\n"),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.contains("from/a/file.rs") && out.contains("│ piped result"),
        "{out}"
    );
}

#[test]
fn errors_name_the_file_the_field_and_the_problem() {
    let files = Files::new();
    files.json(
        "result.json",
        &json!({"content": [
            {"type": "text", "text": "a"},
            {"type": "text", "text": "b"},
            {"type": "vid"},
        ]}),
    );
    let base = ["--tool", "t", "--result"];
    let error = |result: &str, extra: &[&str], code: i32| {
        let mut args = base.to_vec();
        args.push(result);
        args.extend_from_slice(extra);
        files.error(&args, code)
    };
    assert_eq!(
        error("result.json", &[], 1),
        r#"overhear: result.json: content[2]: unknown block type "vid""#
    );
    files.write(
        "audience.json",
        r#"{"content":[{"type":"text","text":"a","annotations":{"audience":["model"]}}]}"#,
    );
    assert_eq!(
        error("audience.json", &[], 1),
        r#"overhear: audience.json: content[0].annotations.audience[0]: expected "user" or "assistant", found "model""#
    );
    files.write("flag.json", r#"{"content":[],"isError":"yes"}"#);
    assert_eq!(
        error("flag.json", &[], 1),
        "overhear: flag.json: isError: expected true or false, found a string"
    );
    files.write("notext.json", r#"{"content":[{"type":"text"}]}"#);
    assert_eq!(
        error("notext.json", &[], 1),
        "overhear: notext.json: content[0].text: missing"
    );
    files.write(
        "broken.json",
        "{\"content\": [\n  {\"type\": \"text\",, }]}",
    );
    assert_eq!(
        error("broken.json", &[], 1),
        "overhear: broken.json: line 2, column 19: key must be a string"
    );
    let missing = error("nowhere.json", &[], 1);
    assert!(
        missing.starts_with("overhear: nowhere.json: cannot read: "),
        "{missing}"
    );
    files.write("ok.txt", "fine");
    assert_eq!(
        error("ok.txt", &["--args", "[1,2]"], 2),
        "overhear: --args: expected a JSON object of arguments, found an array"
    );
    assert_eq!(
        error("ok.txt", &["--args", "{\"a\":"], 2),
        "overhear: --args: line 1, column 5: EOF while parsing a value"
    );
    let missing_args = error("ok.txt", &["--args", "@none.json"], 1);
    assert!(
        missing_args.starts_with("overhear: none.json: cannot read: "),
        "{missing_args}"
    );
    assert_eq!(
        files.error(&["--tool", " ", "--result", "ok.txt"], 2),
        "overhear: --tool: the tool's name is empty"
    );
    let chat = error("ok.txt", &["--set", "inline_results.assistant=chat"], 2);
    assert!(
        chat.starts_with("overhear: --set inline_results.assistant=chat: "),
        "{chat}"
    );
    assert!(chat.contains("only valid for user"), "{chat}");
}

#[test]
fn escape_sequences_in_results_names_and_errors_never_reach_the_terminal() {
    let files = Files::new();
    files.write("evil.txt", "before\x1b]52;c;ZXZpbA==\x07after\x1b[2J");
    let out = files.card(&["--tool", "ev\x1b[31mil", "--result", "evil.txt"]);
    assert!(!out.contains('\x1b') && !out.contains('\x07'), "{out:?}");
    assert!(out.contains("beforeafter"), "{out:?}");
    files.write("evil.json", "{\"content\":[{\"type\":\"vid\\u001b[2J\"}]}");
    let err = files.error(&["--tool", "t", "--result", "evil.json"], 1);
    assert!(!err.contains('\x1b'), "{err:?}");
}

#[test]
fn every_line_fits_at_40_80_and_200_columns() {
    let files = Files::new();
    let long = "word ".repeat(120);
    let result = files.json(
        "result.json",
        &json!({"content": [
            {"type": "text", "text": format!("{long}\n{}", "x".repeat(300)), "annotations": {"audience": ["user"]}},
            {"type": "text", "text": long, "mimeType": "text/markdown", "annotations": {"audience": ["user"]}},
        ]}),
    );
    for width in [40, 80, 200] {
        let w = width.to_string();
        for set in ["inline_results=full", "inline_results.user=chat"] {
            let out = card_of(
                &files,
                &result,
                &["--width", &w, "--set", set, "--view", "all"],
            );
            let terminal = out.split("── user view").next().unwrap();
            for line in terminal.lines() {
                let columns = display_width(line);
                assert!(
                    columns <= width,
                    "{set} at {width}: {columns} columns: {line:?}"
                );
            }
            assert!(terminal.contains("word word"), "{out}");
        }
    }
    // The width follows COLUMNS when no --width is given.
    let narrow = crate::common::overhear()
        .args(["card", "--tool", "t", "--result", result.to_str().unwrap()])
        .env("COLUMNS", "40")
        .output()
        .unwrap();
    let text = String::from_utf8(narrow.stdout).unwrap();
    assert!(text.lines().all(|l| display_width(l) <= 40), "{text}");
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let files = Files::new();
    let result = files.write("result.txt", "done");
    assert!(!card_of(&files, &result, &[]).contains('\x1b'));
    let always = card_of(&files, &result, &["--color", "always"]);
    assert!(always.contains("\x1b["), "{always:?}");
    let never = card_of(&files, &result, &["--color", "never"]);
    assert_eq!(never, card_of(&files, &result, &[]));
}
