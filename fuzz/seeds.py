#!/usr/bin/env python3
"""Builds the fuzzers' starting corpus from the repository's own fixtures.

Run from anywhere: `python3 fuzz/seeds.py`. It writes fuzz/corpus/<target>/
(ignored by git). Inputs follow each target's layout: a mode byte, a 16-bit
little-endian split point, then the bytes (see fuzz_targets/*.rs).
"""

import hashlib
import json
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


if __name__ == "__main__":
    jp_seeds()
    style_seeds()
