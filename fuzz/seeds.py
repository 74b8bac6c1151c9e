#!/usr/bin/env python3
"""Builds the fuzzers' starting corpus from the repository's own fixtures.

Run from anywhere: `python3 fuzz/seeds.py`. It writes fuzz/corpus/<target>/
(ignored by git). Inputs follow each target's layout: a mode byte, a 16-bit
little-endian split point, then the bytes (see fuzz_targets/*.rs).
"""

import hashlib
import json
import os
import pathlib
import struct

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
CORPUS = ROOT / "fuzz" / "corpus"


def put(target, data):
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)


def framed(mode, first, second=b""):
    return bytes([mode]) + struct.pack("<H", len(first) % 65536) + first + second


def jp_seeds():
    for events_path in sorted(FIXTURES.glob("jp/*/events.json")):
        events = events_path.read_bytes()
        put("jp_reader", framed(0, events))
        base = events_path.with_name("base_config.json")
        if base.exists():
            put("jp_reader", framed(1, events, base.read_bytes()))
        try:
            entries = json.loads(events)
        except ValueError:
            continue
        # A JP rewrite: the same array with more entries, pretty-printed as JP does.
        for keep in (1, len(entries) // 2, len(entries) - 1):
            if 0 < keep < len(entries):
                old = json.dumps(entries[:keep], indent=2).encode()
                new = json.dumps(entries, indent=2).encode()
                put("jp_reader", framed(2, old, new))


def style_seeds():
    values = [
        True, False, "on", "off", "json", "function_call", "full", 10, "7", "chat",
        {"truncate": {"lines": 3}}, {"user": "chat", "assistant": "off"},
        {"program": "jq", "args": ["."], "shell": False},
        {"hidden": False, "header": "off", "parameters": "function_call",
         "inline_results": {"user": 5, "assistant": "full"}, "results_file_link": "osc8",
         "error": {"inline_results": "full", "results_file_link": False}},
        {"conversation": {"tools": {"*": {"style": {"inline_results": 3}}}},
         "style": {"reasoning": {"display": "summary"}, "tool_call": {"show": False}}},
    ]
    for value in values:
        put("style_value", json.dumps(value).encode())
    put("style_value", b"conversation.tools.fs_read_file.style.inline_results=full\n"
        b"conversation.tools.\"*\".style.header=off\nstyle.reasoning.display=hidden\n")
    put("style_value", b"[conversation.tools.x.style]\ninline_results = { user = \"chat\" }\n")


def eve_seeds():
    for stream in sorted(FIXTURES.glob("eve/*.ndjson")):
        data = stream.read_bytes()
        # No cuts, and three cuts spread over the stream (mid-line, mid-character).
        put("eve_lines", bytes([0]) + data)
        cuts = [len(data) // 4, len(data) // 2 + 1, 3 * len(data) // 4 + 2]
        put("eve_lines", bytes([3]) + b"".join(struct.pack("<H", c % 65536) for c in cuts) + data)


ESCAPES = [
    b"\x1b[2J", b"\x1b[31m", b"\x1b[8m", b"\x1b[1;38;5;8;8m", b"\x1b]0;title\x07",
    b"\x1b]8;;https://x/\x1b\\link\x1b]8;;\x1b\\", b"\x1b]52;c;eA==\x07", b"\x1bP1$qm\x1b\\",
    b"\x1b_apc\x1b\\", b"\x1b^pm\x1b\\", b"\x1bXsos\x1b\\", b"\x1bc", b"\x1b7", b"\x1b#8",
    b"\r", b"\r\n", b"\x07", b"\x08", b"\x00", b"\x7f", "\u009b2J".encode(),
    "\u009d0;t\u009c".encode(), "\u0090q\u009c".encode(), b"\x1b",
]


def sanitizer_seeds():
    for payload in ESCAPES:
        put("sanitizer", b"before" + payload + b"after\n")
    put("sanitizer", b"".join(b"x" + p + b"y\t" for p in ESCAPES))


def markdown_seeds():
    texts = [p.read_bytes() for p in sorted(FIXTURES.glob("markdown/*"))]
    texts += [p.read_bytes() for p in sorted((ROOT / "docs").glob("*.md"))]
    texts.append(b"| a | b |\n|---|:-:|\n| 1 | 2 |\n")
    texts.append(b"- a\n  - b\n    > c\n    > ```rust\n    > fn x() {}\n    > ```\n")
    texts.append("\u4e2d\u6587 family \U0001F468\u200d\U0001F469 e\u0301 \u202eabc\n".encode())
    for text in texts:
        for width in (1, 7, 40, 80, 299):
            put("markdown", struct.pack("<H", width - 1) + text[:65000])


def redactor_seeds():
    # The planted-secrets fixture's texts, and every fixture's bytes, each
    # with a secret picked and planted in its middle.
    texts = [(FIXTURES / "jp" / "secrets" / "events.json").read_bytes()]
    texts += [p.read_bytes()[:20000] for p in sorted(FIXTURES.glob("eve/*.ndjson"))]
    texts.append(b"commit 3f786850e387550fdab836ed7e6dc881de23001b\n"
                 b"id 123e4567-e89b-12d3-a456-426614174000\n"
                 b"Authorization: Bearer abc123def456ghi789\n\"password\": \"x\"\n")
    for pick, text in enumerate(texts):
        put("redactor", bytes([pick % 256]) + struct.pack("<H", len(text) // 2 % 65536) + text)


def html_export_seeds():
    for stream in sorted(FIXTURES.glob("eve/*.ndjson")):
        put("html_export", bytes([0]) + struct.pack("<H", 9) + b"<b>t</b>&" + stream.read_bytes())
    for events in sorted(FIXTURES.glob("jp/*/events.json")):
        put("html_export", bytes([1]) + struct.pack("<H", 0) + events.read_bytes())


def highlight_seeds():
    # The first byte picks the language (see fuzz_targets/highlight.rs): 0 is Rust, 1 Python,
    # 9 sh, 15 JSON, 20 diff.
    for path in sorted((ROOT / "src" / "render").glob("*.rs"))[:8]:
        put("highlight", bytes([0]) + path.read_bytes()[:16000])
    put("highlight", bytes([1]) + (ROOT / "fuzz" / "seeds.py").read_bytes())
    put("highlight", bytes([9]) + (ROOT / ".ci" / "run").read_bytes())
    for path in sorted(FIXTURES.glob("jp/*/base_config.json")):
        put("highlight", bytes([15]) + path.read_bytes()[:16000])
    put("highlight", bytes([20]) + b"--- a/x.rs\n+++ b/x.rs\n@@ -1 +1 @@\n-a\n+b\n")


def lines_up_to(path, size=24 * 1024):
    """The whole lines of a transcript's first `size` bytes."""
    data = path.read_bytes()[:size]
    return data[: data.rfind(b"\n") + 1] if b"\n" in data else data


def agent_seeds():
    """agent_readers: a parent transcript and its sub-agent's file (mode bit 0:
    Codex; bit 1: the child is the parent itself), from the shared fixtures
    when they are there (../shared/fixtures, or $OVERHEAR_AGENT_FIXTURES, as
    for the tests), and the shapes of tests/it/bounded_work.rs."""
    shared = pathlib.Path(
        os.environ.get("OVERHEAR_AGENT_FIXTURES", ROOT.parent / "shared" / "fixtures"))
    for folder, mode in (("claude-code", 0), ("codex", 1)):
        paths = sorted((shared / folder).glob("**/*.jsonl")) + sorted(
            (FIXTURES / folder).glob("*.jsonl"))
        for path in paths:
            parent = lines_up_to(path)
            put("agent_readers", framed(mode, parent))
            put("agent_readers", framed(mode | 2, parent))
    agent_file = shared / "claude-code" / "v2.0.55-agent-file"
    if agent_file.is_dir():
        parent = lines_up_to(agent_file / "a7da6a22-facc-4fcd-8bab-f83c87862004.jsonl")
        child = lines_up_to(agent_file / "agent-c8d9b115.jsonl")
        put("agent_readers", framed(0, parent, child))
    def claude(agent):
        rows = [
            {"type": "user", "uuid": "u1", "sessionId": "s",
             "message": {"role": "user", "content": "hi"}},
            {"type": "assistant", "uuid": "a1", "parentUuid": "u1", "sessionId": "s",
             "message": {"role": "assistant", "id": "m1", "content": [
                 {"type": "tool_use", "id": "t1", "name": "Task",
                  "input": {"prompt": "go", "description": "d"}}]}},
            {"type": "user", "uuid": "u2", "parentUuid": "a1", "sessionId": "s",
             "toolUseResult": {"agentId": agent, "status": "completed"},
             "message": {"role": "user", "content": [
                 {"type": "tool_result", "tool_use_id": "t1", "content": "done"}]}},
        ]
        return b"".join(json.dumps(r).encode() + b"\n" for r in rows)
    def codex(me, child):
        rows = [
            {"type": "session_meta", "payload": {"id": me, "cwd": "/w"}},
            {"type": "response_item", "payload": {"type": "function_call",
             "name": "spawn_agent", "call_id": "c1", "arguments": "{}"}},
            {"type": "response_item", "payload": {"type": "function_call_output",
             "call_id": "c1", "output": json.dumps({"agent_id": child})}},
        ]
        return b"".join(json.dumps(r).encode() + b"\n" for r in rows)
    put("agent_readers", framed(0, claude("c"), claude("p")))
    put("agent_readers", framed(2, claude("c")))
    put("agent_readers", framed(1, codex("p", "c"), codex("c", "p")))
    put("agent_readers", framed(3, codex("p", "c")))


def gemini_qwen_seeds():
    """gemini_reader and qwen_reader: byte 0 cuts the input in two; the rest
    follows the format's first line (a Gemini legacy file, `{` alone on its
    first line, stands alone). Seeds: the synthetic Gemini chats of
    tests/fixtures/gemini and the real Qwen Code chats when they are there."""
    for path in sorted((FIXTURES / "gemini").glob("**/*.json*")):
        data = lines_up_to(path)
        if data.startswith(b"{\n"):
            put("gemini_reader", bytes([128]) + path.read_bytes()[:24 * 1024])
        else:
            put("gemini_reader", bytes([128]) + data.split(b"\n", 1)[-1])
    shared = pathlib.Path(
        os.environ.get("OVERHEAR_AGENT_FIXTURES", ROOT.parent / "shared" / "fixtures"))
    for path in sorted((shared / "qwen").glob("**/*.jsonl")):
        put("qwen_reader", bytes([100]) + lines_up_to(path))
    glued = (b'{"uuid":"a","sessionId":"s","type":"assistant","message":{"parts":[{"text":"x"}]}}'
             b'{"uuid":"b","sessionId":"s","type":"assistant","message":{"parts":[{"text":"y"}]}}\n')
    put("qwen_reader", bytes([7]) + glued)


def opencode_seeds():
    """opencode_reader: rows cut at 0xFF, each led by a byte that picks its
    table, session and id (fuzz_targets/opencode_reader.rs). Seeds: each
    session of the real OpenCode database, its messages and parts in order,
    when the shared fixtures are there."""
    import sqlite3
    shared = pathlib.Path(
        os.environ.get("OVERHEAR_AGENT_FIXTURES", ROOT.parent / "shared" / "fixtures"))
    database = shared / "opencode" / "v1.18.13-sqlite" / "opencode.db"
    if not database.exists():
        return
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)

    def pick(table, number):
        # The first byte whose table (byte % 3), id (byte >> 4) and main
        # session (bit 3 clear) are the ones asked for.
        return next(b for b in range(255)
                    if b % 3 == table and b >> 4 == number and not b & 0x08)

    sessions = connection.execute("select id from session order by time_created")
    for (session,) in sessions.fetchall():
        rows = []
        messages = connection.execute(
            "select id, data from message where session_id = ? order by time_created",
            (session,)).fetchall()
        for number, (message, data) in enumerate(messages[:4]):
            rows.append(bytes([pick(0, number)]) + data.encode())
            parts = connection.execute(
                "select data from part where message_id = ? order by id", (message,))
            for k, (part,) in enumerate(parts.fetchall()[:4]):
                # A part row's message is msg_{id % 4}: ids number + 4k keep
                # the pairing and give each of the first four parts its own id.
                rows.append(bytes([pick(1, number + 4 * k)]) + part.encode())
        put("opencode_reader", b"\xff".join(rows))


def copilot_seeds():
    """copilot_reader: two bytes of split point, then a log — each fixture log
    whole and split mid-line."""
    for path in sorted(FIXTURES.glob("copilot/session-state/*/events.jsonl")):
        log = path.read_bytes()
        for split in (0, len(log) // 3, len(log) // 2 + 7):
            put("copilot_reader", struct.pack("<H", split % 65536) + log)


if __name__ == "__main__":
    redactor_seeds()
    html_export_seeds()
    jp_seeds()
    style_seeds()
    eve_seeds()
    sanitizer_seeds()
    markdown_seeds()
    highlight_seeds()
    agent_seeds()
    gemini_qwen_seeds()
    copilot_seeds()
    opencode_seeds()
