//! Tool styles on agent transcripts, through the real binary: the built-in
//! shell style shows `$ command` and folds long output, `--set conversation.tools.Bash.style…`
//! overrides it by tool name, and a transcript on standard input needs no flag.

/// A Claude Code transcript: a prompt, a `Bash` call and its 30-line result.
fn transcript() -> String {
    let output: Vec<String> = (1..=30).map(|n| format!("row {n}")).collect();
    let result = serde_json::json!({"type": "user", "uuid": "u2", "sessionId": "s",
        "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
            "content": output.join("\n")}]}});
    [
        serde_json::json!({"type": "user", "uuid": "u1", "sessionId": "s",
            "message": {"role": "user", "content": "Show the rows"}}),
        serde_json::json!({"type": "assistant", "uuid": "a1", "sessionId": "s",
            "message": {"id": "m1", "content": [{"type": "tool_use", "id": "t1", "name": "Bash",
                "input": {"command": "cat rows.txt"}}]}}),
        result,
    ]
    .iter()
    .map(|v| format!("{v}\n"))
    .collect()
}

fn render(args: &[&str]) -> String {
    let mut all = vec!["--color", "never"];
    all.extend_from_slice(args);
    render_input(&all, &transcript())
}

fn render_input(args: &[&str], input: &str) -> String {
    let mut all = vec!["render", "--width", "80"];
    all.extend_from_slice(args);
    crate::common::stdout_fed(&all, input)
}

#[test]
fn the_shell_style_folds_output_and_set_overrides_it_by_tool_name() {
    let screen = render(&[]);
    assert!(screen.contains("Show the rows"), "{screen}");
    assert!(
        screen.contains("● Bash · cat rows.txt\n    $ cat rows.txt\n"),
        "{screen}"
    );
    assert!(
        screen.contains("row 8\n") && !screen.contains("row 9\n"),
        "{screen}"
    );
    assert!(screen.contains("22 more lines not shown"), "{screen}");

    let screen = render(&["--set", "conversation.tools.Bash.style.inline_results=2"]);
    assert!(
        screen.contains("row 2\n") && !screen.contains("row 3\n"),
        "{screen}"
    );
    assert!(screen.contains("28 more lines not shown"), "{screen}");

    // The arguments as JSON again, by tool name.
    let screen = render(&["--set", "conversation.tools.Bash.style.parameters=json"]);
    assert!(screen.contains("\"command\": \"cat rows.txt\""), "{screen}");
}

#[test]
fn a_call_whose_style_has_no_view_for_it_shows_its_arguments() {
    // `bash` in lower case is OpenCode's shell tool, whose style draws a view
    // that only OpenCode's reader makes: a Claude Code call of that name has
    // none, and its arguments are shown as JSON instead of nothing.
    let lowercase = transcript().replace("\"name\":\"Bash\"", "\"name\":\"bash\"");
    assert!(lowercase.contains("\"name\":\"bash\""), "{lowercase}");
    let screen = render_input(&["--color", "never"], &lowercase);
    assert!(screen.contains("● bash"), "{screen}");
    assert!(screen.contains("\"command\": \"cat rows.txt\""), "{screen}");
    // Its style still applies: the output folded at 8 lines.
    assert!(screen.contains("22 more lines not shown"), "{screen}");
}

#[test]
fn escapes_in_prompts_commands_paths_and_notices_are_never_obeyed() {
    let evil = "x\u{1b}]0;PWNED\u{7}y\u{1b}[2J";
    let records = [
        serde_json::json!({"type": "user", "uuid": "u1", "sessionId": "s",
            "message": {"role": "user", "content": format!("prompt {evil}")}}),
        serde_json::json!({"type": "assistant", "uuid": "a1", "sessionId": "s",
            "message": {"id": "m1", "content": [
                {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": format!("echo {evil}")}},
                {"type": "tool_use", "id": "t2", "name": "Edit", "input": {"file_path": evil, "old_string": evil, "new_string": "b"}}]}}),
        serde_json::json!({"type": "user", "uuid": "u2", "sessionId": "s",
            "message": {"role": "user", "content": format!("[Request interrupted by user {evil}]")}}),
    ];
    let input: String = records.iter().map(|r| format!("{r}\n")).collect();
    for color in ["always", "never"] {
        let screen = render_input(&["--color", color], &input);
        assert!(screen.contains("prompt"), "{screen}");
        assert!(
            !screen.contains("\u{1b}]"),
            "an OSC reached the terminal: {screen:?}"
        );
        assert!(
            !screen.contains('\u{7}'),
            "a BEL reached the terminal: {screen:?}"
        );
        assert!(
            !screen.contains("\u{1b}[2J"),
            "a clear reached the terminal: {screen:?}"
        );
    }
}
