//! Every secret kind in every place of every format, through
//! every output of the binary — `render --redact`, `export` to Markdown and
//! to HTML, the viewer's `--redact` — and none survives. One conversation
//! per format holds every secret in every place it has (prompt, reply,
//! reasoning, tool arguments, tool result, sub-agent, title), so a format
//! costs one process per output, not one per cell. The formats: Codex and
//! Claude Code (each with a sub-agent and a title), Gemini CLI and Qwen
//! Code (the same), JP (a title in
//! `metadata.json`), eve (a reply streamed in two deltas, every secret cut
//! between them), Copilot CLI (a `task` sub-agent in the same log, a title),
//! OpenCode (a database with a sub-agent session and a title).

use crate::common;

use std::path::{Path, PathBuf};

use common::pty::Viewer;
use common::support::overhear;
use serde_json::{Value, json};

/// Each secret kind as users' text holds it (`text`), with a piece of the
/// secret that must not survive (`needle`). Synthetic values, never real keys.
struct Planted {
    kind: &'static str,
    text: &'static str,
    needle: &'static str,
}

const PLANTED: &[Planted] = &[
    Planted {
        kind: "anthropic, end of a sentence",
        text: "Use sk-ant-api03-ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdeAA.",
        needle: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij",
    },
    Planted {
        kind: "openai",
        text: "sk-proj-abcdefghijABCDEFGHIJ0123456789abcdefghijABCDEFGHIJ0123456789abcdefghijABCDT3BlbkFJabcdefghijABCDEFGHIJ0123456789abcdefghijABCDEFGHIJ0123456789abcdefghijABCD",
        needle: "T3BlbkFJ",
    },
    Planted {
        kind: "aws access key in a list",
        text: "[AKIAQWERTYUIOPASDFGH, x]",
        needle: "QWERTYUIOPASDFGH",
    },
    Planted {
        kind: "aws sts json",
        text: r#"{"SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzFAKEKEY0", "SessionToken": "FwoGZXIvYXdzEXAMPLESESSIONTOKEN0123456789"}"#,
        needle: "XIvYXdzEXAMPLESESSION",
    },
    Planted {
        kind: "aws sts json secret",
        text: r#"{"SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzFAKEKEY0"}"#,
        needle: "K7MDENG",
    },
    Planted {
        kind: "github",
        text: "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789,",
        needle: "HiJkLmNoPqRsTuV",
    },
    Planted {
        kind: "gitlab",
        text: "glpat-xYz0123456789AbCdEfG",
        needle: "xYz0123456789AbC",
    },
    Planted {
        kind: "slack",
        text: "xoxb-1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
        needle: "AbCdEfGhIjKlMnOpQr",
    },
    Planted {
        kind: "google in a url",
        text: "https://maps.example.com/api?key=AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW&q=1",
        needle: "A1b2C3d4E5f6G7h8",
    },
    Planted {
        kind: "stripe in curl -u",
        text: "curl https://api.stripe.com/v1/charges -u sk_live_4eC39HqLyjWDarjtT1zdp7dc:",
        needle: "4eC39HqLyjWDarjt",
    },
    Planted {
        kind: "stripe in a call",
        text: "stripe.setKey(rk_live_9fD28GpKxiVCzqisS0ycO6cb)",
        needle: "9fD28GpKxiVCzqis",
    },
    Planted {
        kind: "jwt, end of a sentence",
        text: "The token is eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c.",
        needle: "SflKxwRJSMeKKF2QT4fw",
    },
    Planted {
        kind: "private key without END",
        text: "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw\n7onLRnrq0QWERTYplantedBODYline2ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijkl",
        needle: "QWERTYplantedBODY",
    },
    Planted {
        kind: "bare PASSWORD=",
        text: "PASSWORD=plantedPw4ssw0rd ./deploy",
        needle: "plantedPw4ssw0rd",
    },
    Planted {
        kind: "json password",
        text: r#"{"user": "ada", "password": "plantedJsonPw 9"}"#,
        needle: "plantedJsonPw",
    },
    Planted {
        kind: "env value with punctuation",
        text: "DB_PASSWORD=ab;cdPlantedPunct!x",
        needle: "cdPlantedPunct",
    },
];

/// Ordinary text that looks like a key to a careless rule: a git hash, a
/// UUID, a sha256, base64 image data. It must come out unchanged.
const ORDINARY: &[&str] = &[
    "3f786850e387550fdab836ed7e6dc881de23001b",
    "123e4567-e89b-12d3-a456-426614174000",
    "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7",
];

/// Every planted secret, one a line, named by the place it is put in, then
/// the ordinary text.
fn all(place: &str) -> String {
    PLANTED
        .iter()
        .map(|p| format!("{place} {}: {}", p.kind, p.text))
        .chain(ORDINARY.iter().map(|o| format!("{place} ordinary: {o}.")))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A title holding secrets (one line: titles are).
fn title() -> String {
    "Title sk_live_4eC39HqLyjWDarjtT1zdp7dc, PASSWORD=plantedPw4ssw0rd ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"
        .into()
}

/// Fails naming the ordinary text that `output` lost (redacted by mistake).
fn assert_ordinary_kept(output: &str, what: &str) {
    for o in ORDINARY {
        assert!(output.contains(o), "{what}: {o} was changed:\n{output}");
    }
}

/// Fails naming the planted secret and the output it survived in.
fn assert_clean(output: &str, what: &str) {
    for p in PLANTED {
        assert!(
            !output.contains(p.needle),
            "{what}: {} ({}) survived:\n{output}",
            p.kind,
            p.needle
        );
    }
    assert!(
        output.contains("[redacted"),
        "{what}: nothing redacted:\n{output}"
    );
}

fn codex_line(time: &str, kind: &str, payload: Value) -> String {
    json!({"timestamp": format!("2026-01-22T10:{time}Z"), "type": kind, "payload": payload})
        .to_string()
        + "\n"
}

/// A Codex session: the parent (prompt, reasoning, reply, tool call and
/// result, a thread name) and the child rollout its `spawn_agent` started,
/// holding every secret in each of its places.
fn codex(dir: &Path) -> PathBuf {
    let parent_id = "0199aaaa-0000-7000-8000-000000000001";
    let child_id = "0199bbbb-0000-7000-8000-000000000002";
    let args = json!({"message": "Look around.", "agent_type": "explorer"}).to_string();
    let shell = json!({"command": all("tool arguments")}).to_string();
    let parent = [
        codex_line(
            "15:23.000",
            "session_meta",
            json!({"id": parent_id, "cwd": "/work/app", "source": "cli"}),
        ),
        codex_line(
            "15:23.500",
            "event_msg",
            json!({"type": "thread_name_updated", "thread_name": title()}),
        ),
        codex_line(
            "15:24.000",
            "event_msg",
            json!({"type": "user_message", "message": all("prompt")}),
        ),
        codex_line(
            "15:25.000",
            "response_item",
            json!({"type": "reasoning", "summary": [{"type": "summary_text", "text": all("reasoning")}]}),
        ),
        codex_line(
            "15:26.000",
            "response_item",
            json!({"type": "function_call", "name": "shell_command", "call_id": "call_sh", "arguments": shell}),
        ),
        codex_line(
            "15:27.000",
            "response_item",
            json!({"type": "function_call_output", "call_id": "call_sh", "output": all("tool result")}),
        ),
        codex_line(
            "15:30.000",
            "response_item",
            json!({"type": "function_call", "name": "spawn_agent", "call_id": "call_spawn", "arguments": args}),
        ),
        codex_line(
            "15:31.000",
            "response_item",
            json!({"type": "function_call_output", "call_id": "call_spawn",
                   "output": format!("{{\"agent_id\":\"{child_id}\"}}")}),
        ),
        codex_line(
            "17:05.000",
            "response_item",
            json!({"type": "message", "role": "assistant",
                   "content": [{"type": "output_text", "text": all("reply")}]}),
        ),
        codex_line("17:06.000", "event_msg", json!({"type": "task_complete"})),
    ];
    let child = [
        codex_line(
            "15:40.000",
            "session_meta",
            json!({"id": child_id, "cwd": "/work/app", "source": {"subagent": {"thread_spawn": {
                "parent_thread_id": parent_id, "depth": 1, "agent_nickname": "Ada", "agent_role": "explorer"}}}}),
        ),
        codex_line(
            "15:41.000",
            "event_msg",
            json!({"type": "user_message", "message": "Look around."}),
        ),
        codex_line(
            "15:50.000",
            "response_item",
            json!({"type": "function_call", "name": "shell_command", "call_id": "call_rg",
                   "arguments": json!({"command": all("sub-agent tool arguments")}).to_string()}),
        ),
        codex_line(
            "15:51.000",
            "response_item",
            json!({"type": "function_call_output", "call_id": "call_rg", "output": all("sub-agent result")}),
        ),
        codex_line(
            "16:00.000",
            "response_item",
            json!({"type": "message", "role": "assistant",
                   "content": [{"type": "output_text", "text": all("sub-agent reply")}]}),
        ),
        codex_line("16:01.000", "event_msg", json!({"type": "task_complete"})),
    ];
    let path = dir.join(format!("rollout-2026-01-22T10-15-23-{parent_id}.jsonl"));
    std::fs::write(&path, parent.concat()).unwrap();
    std::fs::write(
        dir.join(format!("rollout-2026-01-22T10-15-40-{child_id}.jsonl")),
        child.concat(),
    )
    .unwrap();
    path
}

use crate::common::agents::claude::{AGENT, SESSION, assistant as cc_assistant, user as cc_user};

/// A Claude Code session: the parent (a `custom-title`, prompt, thinking,
/// a Bash call and its result, an `Agent` call, the reply) and the agent
/// file of its sub-agent, every secret in each place.
fn claude_code(dir: &Path) -> PathBuf {
    let prompt = "Look around.";
    let parent = [
        json!({"type": "custom-title", "customTitle": title(), "sessionId": SESSION}).to_string()
            + "\n",
        cc_user("p1", 0, false, json!(all("prompt"))),
        cc_assistant(
            "p2",
            1,
            false,
            json!([{"type": "thinking", "thinking": all("reasoning"), "signature": "x"}]),
        ),
        cc_assistant(
            "p3",
            2,
            false,
            json!([{"type": "tool_use", "id": "toolu_sh", "name": "Bash",
                    "input": {"command": all("tool arguments")}}]),
        ),
        cc_user(
            "p4",
            3,
            false,
            json!([{"type": "tool_result", "tool_use_id": "toolu_sh", "content": all("tool result")}]),
        ),
        cc_assistant(
            "p5",
            4,
            false,
            json!([{"type": "tool_use", "id": "toolu_agent", "name": "Agent",
                    "input": {"description": "Explore", "subagent_type": "Explore", "prompt": prompt}}]),
        ),
        json!({"type": "user", "uuid": "p6", "sessionId": SESSION,
            "timestamp": "2026-01-22T10:00:41.000Z",
            "toolUseResult": {"status": "completed", "agentId": AGENT},
            "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_agent",
                "content": [{"type": "text", "text": "done"}]}]}})
        .to_string()
            + "\n",
        cc_assistant("p7", 45, false, json!([{"type": "text", "text": all("reply")}])),
    ];
    let agent = [
        cc_user("s1", 5, true, json!(prompt)),
        cc_assistant(
            "s2",
            6,
            true,
            json!([{"type": "tool_use", "id": "toolu_grep", "name": "Grep",
                    "input": {"pattern": all("sub-agent tool arguments")}}]),
        ),
        cc_user(
            "s3",
            7,
            true,
            json!([{"type": "tool_result", "tool_use_id": "toolu_grep", "content": all("sub-agent result")}]),
        ),
        cc_assistant(
            "s4",
            40,
            true,
            json!([{"type": "text", "text": all("sub-agent reply")}]),
        ),
    ];
    let folder = dir.join(SESSION).join("subagents");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join(format!("agent-{AGENT}.jsonl")), agent.concat()).unwrap();
    let path = dir.join(format!("{SESSION}.jsonl"));
    std::fs::write(&path, parent.concat()).unwrap();
    path
}

/// A JP conversation folder: every secret in the prompt, the reasoning, the
/// reply, a tool call's arguments and result, and the title of
/// `metadata.json`.
fn jp(dir: &Path) -> PathBuf {
    let folder = dir.join("17760760747-matrix");
    std::fs::create_dir_all(&folder).unwrap();
    let events = json!([
        {"timestamp": "2026-04-10 17:04:00.5", "type": "turn_start"},
        {"timestamp": "2026-04-10 17:04:01.5", "type": "chat_request", "content": all("prompt")},
        {"timestamp": "2026-04-10 17:04:02.5", "type": "chat_response", "reasoning": all("reasoning")},
        {"timestamp": "2026-04-10 17:04:03.5", "type": "tool_call_request", "id": "call_1",
         "name": "fs_read_file", "arguments": {"path": all("tool arguments")}},
        {"timestamp": "2026-04-10 17:04:04.5", "type": "tool_call_response", "id": "call_1",
         "content": all("tool result"), "is_error": false},
        {"timestamp": "2026-04-10 17:04:05.5", "type": "chat_response", "message": all("reply")},
    ]);
    std::fs::write(folder.join("events.json"), events.to_string()).unwrap();
    std::fs::write(
        folder.join("metadata.json"),
        json!({"title": title(), "last_activated_at": "2026-04-10 17:05:00.0"}).to_string(),
    )
    .unwrap();
    folder
}

/// An eve (v26) stream whose reply streams in deltas cut in the middle of
/// every planted secret (each secret is in two lines, neither holding it
/// whole), then completes.
fn eve(dir: &Path) -> PathBuf {
    let reply = all("reply");
    let mut cuts: Vec<usize> = PLANTED
        .iter()
        .map(|p| reply.find(p.needle).unwrap() + p.needle.len() / 2)
        .collect();
    cuts.sort_unstable();
    cuts.push(reply.len());
    let mut deltas = Vec::new();
    let mut at = 0;
    for cut in cuts {
        deltas.push(&reply[at..cut]);
        at = cut;
    }
    let meta =
        |n: usize| json!({"id": format!("e{n}"), "at": format!("2026-04-10T17:04:{n:02}.000Z")});
    let mut lines = vec![
        json!({"type": "session.started", "data": {"runtime": {"agentId": "matrix"}}, "meta": meta(0)}),
        json!({"type": "turn.started", "data": {"sequence": 0, "turnId": "t1"}, "meta": meta(1)}),
        json!({"type": "message.received", "data": {"sequence": 0, "turnId": "t1", "message": all("prompt")}, "meta": meta(2)}),
        json!({"type": "step.started", "data": {"sequence": 0, "turnId": "t1", "stepIndex": 0}, "meta": meta(3)}),
    ];
    for delta in deltas {
        let n = lines.len();
        lines.push(json!({"type": "message.appended",
            "data": {"sequence": 0, "turnId": "t1", "stepIndex": 0, "messageDelta": delta}, "meta": meta(n)}));
    }
    let n = lines.len();
    lines.push(json!({"type": "message.completed",
        "data": {"sequence": 0, "turnId": "t1", "stepIndex": 0, "finishReason": "stop", "message": reply}, "meta": meta(n)}));
    let text: String = lines.iter().map(|l| l.to_string() + "\n").collect();
    let path = dir.join("matrix.eve.ndjson");
    std::fs::write(&path, text).unwrap();
    path
}

/// A Gemini CLI chat with every secret in the prompt, the reasoning, the
/// reply, a call's arguments and result, a sub-agent's own file and the
/// title (`$set.summary`).
fn gemini(dir: &Path) -> PathBuf {
    let line = |value: Value| value.to_string() + "\n";
    let at = |s: u32| format!("2026-01-22T10:00:{s:02}.000Z");
    let result = |id: &str, text: String| json!([{"functionResponse": {"id": id, "name": "tool", "response": {"output": text}}}]);
    let parent = [
        line(json!({"sessionId": "main-1", "projectHash": "h", "startTime": at(0)})),
        line(json!({"id": "u1", "timestamp": at(1), "type": "user", "content": all("prompt")})),
        line(
            json!({"id": "g1", "timestamp": at(2), "type": "gemini", "content": all("reply"),
            "thoughts": [{"subject": "Plan", "description": all("reasoning")}],
            "toolCalls": [
                {"id": "c1", "name": "run_shell_command", "args": {"command": all("tool arguments")},
                 "status": "success", "result": result("c1", all("tool result"))},
                {"id": "c2", "name": "invoke_agent", "args": {"objective": "Look around."},
                 "status": "success", "agentId": "sub-1", "result": result("c2", "done".into())}]}),
        ),
        line(json!({"$set": {"summary": title()}})),
    ];
    let agent = [
        line(json!({"sessionId": "sub-1", "projectHash": "h", "kind": "subagent"})),
        line(json!({"id": "s1", "timestamp": at(3), "type": "user", "content": "Look around."})),
        line(
            json!({"id": "s2", "timestamp": at(4), "type": "gemini", "content": all("sub-agent reply"),
            "toolCalls": [{"id": "s3", "name": "grep_search", "args": {"pattern": all("sub-agent tool arguments")},
                "status": "success", "result": result("s3", all("sub-agent result"))}]}),
        ),
    ];
    let chats = dir.join("chats");
    std::fs::create_dir_all(chats.join("main-1")).unwrap();
    std::fs::write(chats.join("main-1/sub-1.jsonl"), agent.concat()).unwrap();
    let path = chats.join("session-2026-01-22T10-00-main-1.jsonl");
    std::fs::write(&path, parent.concat()).unwrap();
    path
}

/// A Qwen Code chat with every secret in the prompt, the reasoning, the
/// reply, a call's arguments and result, an inline sub-agent and the title
/// (`custom_title`).
fn qwen(dir: &Path) -> PathBuf {
    let record = |uuid: &str, kind: &str, extra: Value| {
        let mut value = json!({"uuid": uuid, "sessionId": "q1", "type": kind,
            "timestamp": "2026-01-22T10:00:00.000Z", "cwd": "/work", "version": "0.21.6"});
        if let (Value::Object(map), Value::Object(more)) = (&mut value, extra) {
            map.extend(more);
        }
        value.to_string() + "\n"
    };
    let parts = |parts: Value| json!({"message": {"role": "model", "parts": parts}});
    let call = |id: &str, name: &str, args: Value| json!({"functionCall": {"id": id, "name": name, "args": args}});
    let result = |id: &str, text: String| {
        json!({"message": {"role": "user", "parts": [{"functionResponse": {"id": id, "name": "tool",
            "response": {"output": text}}}]}, "toolCallResult": {"callId": id, "status": "success"}})
    };
    let sub = |uuid: &str, kind: &str, mut extra: Value| {
        extra["isSidechain"] = json!(true);
        extra["agentId"] = json!("explore-1");
        record(uuid, kind, extra)
    };
    let lines = [
        record(
            "t",
            "system",
            json!({"subtype": "custom_title", "systemPayload": {"customTitle": title()}}),
        ),
        record(
            "u1",
            "user",
            json!({"message": {"role": "user", "parts": [{"text": all("prompt")}]}}),
        ),
        record(
            "a1",
            "assistant",
            parts(json!([{"text": all("reasoning"), "thought": true},
            call("c1", "run_shell_command", json!({"command": all("tool arguments")}))])),
        ),
        record("r1", "tool_result", result("c1", all("tool result"))),
        record(
            "a2",
            "assistant",
            parts(json!([call(
                "c2",
                "agent",
                json!({"prompt": "Look around."})
            )])),
        ),
        sub(
            "s1",
            "user",
            json!({"message": {"role": "user", "parts": [{"text": "Look around."}]}}),
        ),
        sub(
            "s2",
            "assistant",
            parts(json!([call(
                "s3",
                "grep_search",
                json!({"pattern": all("sub-agent tool arguments")})
            )])),
        ),
        sub("s4", "tool_result", result("s3", all("sub-agent result"))),
        sub(
            "s5",
            "assistant",
            parts(json!([{"text": all("sub-agent reply")}])),
        ),
        record("r2", "tool_result", result("c2", "done".into())),
        record("a3", "assistant", parts(json!([{"text": all("reply")}]))),
    ];
    let path = dir.join("q1.jsonl");
    std::fs::write(&path, lines.concat()).unwrap();
    path
}

/// `render --redact`, `export` to .md and to .html: no planted secret in any.
fn check_outputs(path: &Path, out_dir: &Path, format: &str) {
    let shown = path.to_str().unwrap();
    let run = overhear([
        "render", shown, "--redact", "--width", "200", "--color", "never",
    ]);
    run.expect_code(0);
    let printed = String::from_utf8_lossy(&run.stdout);
    assert_clean(&printed, &format!("{format}: render --redact"));
    assert_ordinary_kept(&printed, &format!("{format}: render --redact"));
    for ext in ["md", "html"] {
        let file = out_dir.join(format!("{format}.{ext}"));
        let run = overhear(["export", shown, "-o", file.to_str().unwrap()]);
        run.expect_code(0);
        let text = std::fs::read_to_string(&file).unwrap();
        assert_clean(&text, &format!("{format}: export .{ext}"));
        assert_ordinary_kept(&text, &format!("{format}: export .{ext}"));
    }
}

/// The sub-agent's reply is in the render at all (else the checks of the
/// outputs prove nothing about sub-agents).
fn assert_sub_agent_shown(path: &Path) {
    let run = overhear([
        "render",
        path.to_str().unwrap(),
        "--width",
        "200",
        "--color",
        "never",
    ]);
    let printed = String::from_utf8_lossy(&run.stdout);
    assert!(printed.contains("sub-agent reply"), "{printed}");
}

#[test]
fn codex_with_a_sub_agent_and_a_title_keeps_no_secret() {
    let tmp = tempfile::tempdir().unwrap();
    let path = codex(tmp.path());
    check_outputs(&path, tmp.path(), "codex");
    assert_sub_agent_shown(&path);
    let html = std::fs::read_to_string(tmp.path().join("codex.html")).unwrap();
    assert!(html.contains("<title>Title [redacted"), "{html}");
}

#[test]
fn claude_code_with_a_sub_agent_and_a_title_keeps_no_secret() {
    let tmp = tempfile::tempdir().unwrap();
    let path = claude_code(tmp.path());
    check_outputs(&path, tmp.path(), "claude-code");
    assert_sub_agent_shown(&path);
    let md = std::fs::read_to_string(tmp.path().join("claude-code.md")).unwrap();
    assert!(md.starts_with("# Title [redacted"), "{md}");
}

#[test]
fn gemini_with_a_sub_agent_and_a_title_keeps_no_secret() {
    let tmp = tempfile::tempdir().unwrap();
    let path = gemini(tmp.path());
    check_outputs(&path, tmp.path(), "gemini");
    assert_sub_agent_shown(&path);
    let md = std::fs::read_to_string(tmp.path().join("gemini.md")).unwrap();
    assert!(md.starts_with("# Title [redacted"), "{md}");
}

#[test]
fn qwen_with_a_sub_agent_and_a_title_keeps_no_secret() {
    let tmp = tempfile::tempdir().unwrap();
    let path = qwen(tmp.path());
    check_outputs(&path, tmp.path(), "qwen");
    assert_sub_agent_shown(&path);
    let md = std::fs::read_to_string(tmp.path().join("qwen.md")).unwrap();
    assert!(md.starts_with("# Title [redacted"), "{md}");
}

#[test]
fn jp_with_a_title_keeps_no_secret() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = jp(tmp.path());
    check_outputs(&folder, tmp.path(), "jp");
    let md = std::fs::read_to_string(tmp.path().join("jp.md")).unwrap();
    assert!(md.starts_with("# Title [redacted"), "{md}");
}

#[test]
fn eve_with_a_secret_split_across_deltas_keeps_no_secret() {
    let tmp = tempfile::tempdir().unwrap();
    let path = eve(tmp.path());
    check_outputs(&path, tmp.path(), "eve");
}

/// The eve raw view (its stored lines): for every secret, the delta that
/// ends inside it and the one that completes it are both redacted.
#[test]
fn eve_raw_view_redacts_a_secret_split_across_two_deltas() {
    let tmp = tempfile::tempdir().unwrap();
    let path = eve(tmp.path());
    let mut live = overhear::load::Live::read_once(path.to_str().unwrap()).unwrap();
    let redactor = overhear::redact::Redactor::builtin().unwrap();
    live.redact_with(std::sync::Arc::new(redactor));
    let raw: String = live
        .conversation
        .originals
        .iter()
        .filter_map(|o| o.json.map(String::from))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(raw.contains("messageDelta"), "{raw}");
    assert!(
        !raw.contains("QWERTY"),
        "the delta before the cut kept its piece:\n{raw}"
    );
    assert!(
        !raw.contains("plantedBODY"),
        "the delta after the cut kept its piece:\n{raw}"
    );
    assert_clean(&raw, "eve raw view");
    assert_ordinary_kept(&raw, "eve raw view");
}

/// Waits until `path` holds more than `len` bytes (the pager wrote).
fn wait_for_growth(path: &Path, len: u64) -> u64 {
    let start = std::time::Instant::now();
    loop {
        let now = std::fs::metadata(path).map_or(0, |m| m.len());
        if now > len {
            return now;
        }
        assert!(
            start.elapsed() < common::pty::TIMEOUT,
            "the pager wrote nothing"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Back from a pager that returned at once: the viewer waits for a key.
fn back_from_the_pager(viewer: &mut Viewer) {
    viewer.wait_until("the prompt after the pager", common::pty::TIMEOUT, |s| {
        s.contents().contains("press any key to return")
    });
    viewer.send(b"x");
    viewer.wait_until("the viewer after the pager", common::pty::TIMEOUT, |s| {
        s.alternate_screen()
    });
}

/// The texts put on the clipboard (OSC 52) in the viewer's output.
fn clipboard(output: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(output);
    text.split("\u{1b}]52;c;")
        .skip(1)
        .filter_map(|rest| rest.split('\u{7}').next())
        .map(|b64| {
            let bytes = base64_simd::STANDARD
                .decode_to_vec(b64.as_bytes())
                .expect("OSC 52 carries base64");
            String::from_utf8_lossy(&bytes).into_owned()
        })
        .collect()
}

/// The viewer's `--redact` on the Codex session: the screen, the pager
/// (`o`) and the clipboard (`y`) on the spawn call's card, then the same
/// in its sub-agent opened full-screen (`a`); every byte the viewer wrote
/// holds no planted secret.
#[test]
fn viewer_redact_keeps_secrets_off_the_screen_the_pager_and_the_clipboard() {
    let tmp = tempfile::tempdir().unwrap();
    let path = codex(tmp.path());
    let paged = tmp.path().join("paged.txt");
    let mut cmd = Viewer::command(tmp.path(), &tmp.path().join("no-user-data"));
    cmd.env("PAGER", format!("cat >> '{}'", paged.display()));
    cmd.arg(&path);
    cmd.arg("--redact");
    let mut viewer = Viewer::recording(cmd, 60, 200);
    viewer.wait_for_text("[redacted");
    let mut screens = vec![viewer.settled_screen().contents()];
    // The first card (the shell call): pager, then clipboard.
    viewer.send(b"g}o");
    let len = wait_for_growth(&paged, 0);
    back_from_the_pager(&mut viewer);
    viewer.send(b"y");
    // The next card, the spawn call: its sub-agent full-screen, its first
    // card: pager, then clipboard.
    viewer.send(b"}a");
    viewer.wait_for_text("sub-agent reply");
    screens.push(viewer.settled_screen().contents());
    viewer.send(b"g}o");
    wait_for_growth(&paged, len);
    back_from_the_pager(&mut viewer);
    viewer.send(b"y");
    // `q` leaves the sub-agent (then quits).
    viewer.send(b"q");
    viewer.wait_until("the parent", common::pty::TIMEOUT, |s| {
        !s.contents().contains("sub-agent reply")
    });
    let output = viewer.quit_and_output();

    for screen in &screens {
        assert_clean(screen, "viewer screen");
    }
    let paged = std::fs::read_to_string(&paged).unwrap();
    for p in PLANTED {
        assert!(
            !paged.contains(p.needle),
            "pager: {} survived:\n{paged}",
            p.kind
        );
    }
    assert!(
        paged.contains("sub-agent"),
        "the sub-agent's card was paged:\n{paged}"
    );
    let copied = clipboard(&output);
    assert_eq!(copied.len(), 2, "two cards copied");
    for text in &copied {
        for p in PLANTED {
            assert!(
                !text.contains(p.needle),
                "clipboard: {} survived:\n{text}",
                p.kind
            );
        }
    }
    let all = String::from_utf8_lossy(&output);
    for p in PLANTED {
        assert!(
            !all.contains(p.needle),
            "viewer output: {} survived",
            p.kind
        );
    }
}

/// The viewer's `--redact` on the Claude Code session, the JP folder (its
/// title in the status bar) and the eve stream (the raw view, `v` twice,
/// holds the split deltas).
#[test]
fn viewer_redact_keeps_secrets_off_the_screen_for_claude_code_jp_and_eve() {
    let tmp = tempfile::tempdir().unwrap();
    let paths = [
        (claude_code(tmp.path()), &b""[..]),
        (jp(tmp.path()), &b""[..]),
        (eve(tmp.path()), &b"vv"[..]),
    ];
    for (path, keys) in paths {
        let mut cmd = Viewer::command(tmp.path(), &tmp.path().join("no-user-data"));
        cmd.arg(&path);
        cmd.arg("--redact");
        let mut viewer = Viewer::recording(cmd, 60, 200);
        viewer.wait_for_text("[redacted");
        viewer.send(keys);
        if !keys.is_empty() {
            viewer.wait_for_text("messageDelta");
        }
        let screen = viewer.settled_screen().contents();
        assert_clean(&screen, &format!("{}: screen", path.display()));
        let output = viewer.quit_and_output();
        let all = String::from_utf8_lossy(&output);
        for p in PLANTED {
            assert!(
                !all.contains(p.needle),
                "{}: output: {} survived",
                path.display(),
                p.kind
            );
        }
    }
}

/// The viewer's `--redact` in a JP workspace: the picker (`p`) lists the
/// conversation by its title, redacted as the opened conversation is.
#[test]
fn viewer_redact_keeps_secrets_out_of_the_picker() {
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let conversations = common::pty::jp_workspace(&project);
    jp(&conversations);
    let mut cmd = Viewer::command(&project, &home.join("jp"));
    cmd.env("HOME", &home);
    cmd.env_remove("CODEX_HOME");
    cmd.env_remove("CLAUDE_CONFIG_DIR");
    cmd.env_remove("XDG_CONFIG_HOME");
    cmd.arg("--redact");
    let mut viewer = Viewer::start(cmd, 30, 200);
    viewer.wait_for_text("[redacted");
    viewer.send(b"p");
    viewer.wait_for_text("Title [redacted");
    let screen = viewer.settled_screen().contents();
    assert!(!screen.contains("4eC39HqLyjWDarjt"), "{screen}");
    assert!(!screen.contains("plantedPw4ssw0rd"), "{screen}");
    assert!(!screen.contains("HiJkLmNoPqRsTuV"), "{screen}");
    // Esc closes the picker (a key right after it would read as Alt-key).
    viewer.send(b"\x1b");
    viewer.wait_until("the picker closed", common::pty::TIMEOUT, |s| {
        !s.contents().contains("Conversations (")
    });
    viewer.quit();
}

/// One Copilot CLI event (`agent`: a sub-agent's) as a line.
fn copilot_line(n: u32, kind: &str, data: Value, agent: Option<&str>) -> String {
    let mut line = json!({"type": kind, "data": data, "id": format!("e{n}"),
        "timestamp": format!("2026-01-22T10:00:{n:02}.000Z"),
        "parentId": if n == 0 { Value::Null } else { json!(format!("e{}", n - 1)) }});
    if let Some(agent) = agent {
        line["agentId"] = json!(agent);
    }
    line.to_string() + "\n"
}

/// A Copilot CLI session log: every secret in the prompt, the reasoning,
/// the reply, a tool call's arguments and result, a `task` sub-agent's
/// prompt, call, result and reply, and the title.
fn copilot(dir: &Path) -> PathBuf {
    let sub = Some("agent-1");
    let lines = [
        copilot_line(
            0,
            "session.start",
            json!({"sessionId": "s", "version": 1, "context": {"cwd": "/w"}}),
            None,
        ),
        copilot_line(1, "session.title_changed", json!({"title": title()}), None),
        copilot_line(2, "user.message", json!({"content": all("prompt")}), None),
        copilot_line(
            3,
            "assistant.message",
            json!({"messageId": "m1", "content": "",
            "reasoningText": all("reasoning"),
            "toolRequests": [{"toolCallId": "c1", "name": "bash",
                "arguments": {"command": all("tool arguments")}}]}),
            None,
        ),
        copilot_line(
            4,
            "tool.execution_complete",
            json!({"toolCallId": "c1", "success": true,
            "result": {"content": all("tool result")}}),
            None,
        ),
        copilot_line(
            5,
            "assistant.message",
            json!({"messageId": "m2", "content": "",
            "toolRequests": [{"toolCallId": "t1", "name": "task",
                "arguments": {"description": "Explore", "prompt": "Look around."}}]}),
            None,
        ),
        copilot_line(
            6,
            "subagent.started",
            json!({"toolCallId": "t1", "agentName": "explore"}),
            None,
        ),
        copilot_line(7, "user.message", json!({"content": "Look around."}), sub),
        copilot_line(
            8,
            "assistant.message",
            json!({"messageId": "s1", "content": "",
            "toolRequests": [{"toolCallId": "g1", "name": "grep",
                "arguments": {"pattern": all("sub-agent tool arguments")}}]}),
            sub,
        ),
        copilot_line(
            9,
            "tool.execution_complete",
            json!({"toolCallId": "g1", "success": true,
            "result": {"content": all("sub-agent result")}}),
            sub,
        ),
        copilot_line(
            10,
            "assistant.message",
            json!({"messageId": "s2",
            "content": all("sub-agent reply")}),
            sub,
        ),
        copilot_line(
            11,
            "tool.execution_complete",
            json!({"toolCallId": "t1", "success": true,
            "result": {"content": "done"}}),
            None,
        ),
        copilot_line(
            12,
            "assistant.message",
            json!({"messageId": "m3", "content": all("reply")}),
            None,
        ),
    ];
    let folder = dir.join("session-state/5e55a0e1");
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join("events.jsonl");
    std::fs::write(&path, lines.concat()).unwrap();
    path
}

#[test]
fn copilot_with_a_sub_agent_and_a_title_keeps_no_secret() {
    let tmp = tempfile::tempdir().unwrap();
    let path = copilot(tmp.path());
    check_outputs(&path, tmp.path(), "copilot");
    assert_sub_agent_shown(&path);
    let md = std::fs::read_to_string(tmp.path().join("copilot.md")).unwrap();
    assert!(md.starts_with("# Title [redacted"), "{md}");
}

/// An OpenCode database: a session (titled) whose prompt, reasoning, reply,
/// tool call and result hold every secret, and a `task` call whose child
/// session (the sub-agent) does too. Named `<db>/<session id>`.
fn opencode(dir: &Path) -> PathBuf {
    let db = dir.join("opencode.db");
    let store = common::opencode::Store::create(&db);
    store.session("ses_main", None, "/w", &title(), 1_000);
    store.session(
        "ses_child",
        Some("ses_main"),
        "/w",
        "child (@general subagent)",
        1_001,
    );
    let user = json!({"role": "user", "time": {"created": 1_000}});
    store.message("msg_1", "ses_main", 1_000, user.clone());
    store.part(
        "prt_1",
        "msg_1",
        "ses_main",
        1_000,
        json!({"type": "text", "text": all("prompt")}),
    );
    store.message(
        "msg_2",
        "ses_main",
        1_001,
        json!({"role": "assistant", "parentID": "msg_1", "modelID": "m", "finish": "stop",
               "time": {"created": 1_001, "completed": 1_009}}),
    );
    let parts = [
        json!({"type": "reasoning", "text": all("reasoning")}),
        json!({"type": "tool", "tool": "bash", "callID": "call_b",
               "state": {"status": "completed", "input": {"command": all("arguments")},
                         "output": all("result")}}),
        json!({"type": "tool", "tool": "task", "callID": "call_t",
               "state": {"status": "completed", "input": {"prompt": "look"},
                         "output": "done", "metadata": {"sessionId": "ses_child"}}}),
        json!({"type": "text", "text": all("reply")}),
    ];
    for (n, part) in parts.into_iter().enumerate() {
        let id = format!("prt_2{n}");
        store.part(&id, "msg_2", "ses_main", 1_002 + n as i64, part);
    }
    store.message("msg_8", "ses_child", 1_003, user);
    store.part(
        "prt_8",
        "msg_8",
        "ses_child",
        1_003,
        json!({"type": "text", "text": "look"}),
    );
    store.message(
        "msg_9",
        "ses_child",
        1_004,
        json!({"role": "assistant", "parentID": "msg_8", "finish": "stop",
               "time": {"created": 1_004, "completed": 1_005}}),
    );
    let reply = format!("sub-agent reply\n{}", all("sub-agent"));
    store.part(
        "prt_9",
        "msg_9",
        "ses_child",
        1_004,
        json!({"type": "text", "text": reply}),
    );
    drop(store);
    db.join("ses_main")
}

#[test]
fn opencode_with_a_sub_agent_and_a_title_keeps_no_secret() {
    let tmp = tempfile::tempdir().unwrap();
    let path = opencode(tmp.path());
    check_outputs(&path, tmp.path(), "opencode");
    assert_sub_agent_shown(&path);
    let md = std::fs::read_to_string(tmp.path().join("opencode.md")).unwrap();
    assert!(md.starts_with("# Title [redacted"), "{md}");
}
