//! Telling the formats apart from their first bytes, before anything is
//! parsed: a JP events file is a JSON array (`[`), an eve stream holds JSON
//! objects one per line (`{`). Anything else is not an input overhear reads,
//! and says so at once — a 3 GB file of NUL bytes is rejected from its first
//! byte, not after being read whole.

/// How far into the input [`detect`] looks for its first character: a file
/// that starts with more whitespace than this is not one a writer made.
pub const HEAD: usize = 64 * 1024;

/// What the first bytes of an input say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detected {
    /// Only whitespace so far (or nothing): more bytes must tell.
    Blank,
    /// Nothing but whitespace in the first [`HEAD`] bytes, and more after.
    BlankHead,
    /// A JSON array: a JP `events.json`.
    Jp,
    /// A JSON object (or a zstd frame): lines of JSON — an eve stream, a
    /// Claude Code transcript or a Codex rollout, told apart by
    /// [`line_format`] once a line is complete.
    Eve,
    /// Something else, at this place.
    Other {
        /// 1-based line of the first character that is not whitespace.
        line: usize,
        /// 1-based column (in bytes) of that character.
        column: usize,
        /// The character (U+FFFD when it is not UTF-8).
        found: char,
    },
}

/// The format of an input that starts with `head` (a UTF-8 byte order mark
/// and JSON whitespace are skipped). Looks at most [`HEAD`] bytes in: a
/// longer blank start is [`Detected::BlankHead`].
pub fn detect(head: &[u8]) -> Detected {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let within = &head[..head.len().min(HEAD)];
    let at = match within.iter().position(|b| !is_space(*b)) {
        Some(at) => at,
        None if head.len() > HEAD => return Detected::BlankHead,
        None => return Detected::Blank,
    };
    if head.starts_with(&ZSTD_MAGIC) {
        return Detected::Eve; // a compressed rollout: lines once decompressed
    }
    match head[at] {
        b'[' => Detected::Jp,
        b'{' => Detected::Eve,
        _ => {
            let before = &head[..at];
            let line_start = before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            let rest = &head[at..head.len().min(at + 4)];
            let found = String::from_utf8_lossy(rest)
                .chars()
                .next()
                .unwrap_or(char::REPLACEMENT_CHARACTER);
            Detected::Other {
                line: before.iter().filter(|&&b| b == b'\n').count() + 1,
                column: at - line_start + 1,
                found,
            }
        }
    }
}

/// The first four bytes of a zstd frame (a Codex `.jsonl.zst` rollout).
pub const ZSTD_MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];

/// Which line-delimited format a line belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineFormat {
    /// An eve session stream.
    Eve,
    /// A Claude Code transcript.
    ClaudeCode,
    /// A Codex rollout (envelope or legacy).
    Codex,
    /// A Gemini CLI chat (JSON Lines, or a legacy whole-JSON file).
    Gemini,
    /// A Qwen Code chat.
    Qwen,
    /// A GitHub Copilot CLI event log (`session-state/<id>/events.jsonl`).
    Copilot,
    /// OpenCode row records, made of its store by `source::opencode`.
    OpenCode,
}

impl LineFormat {
    /// The format's name in messages: `a Claude Code transcript`.
    pub fn described(self) -> &'static str {
        match self {
            LineFormat::Eve => "an eve stream",
            LineFormat::ClaudeCode => "a Claude Code transcript",
            LineFormat::Codex => "a Codex rollout",
            LineFormat::Gemini => "a Gemini CLI chat",
            LineFormat::Qwen => "a Qwen Code chat",
            LineFormat::Copilot => "a Copilot CLI event log",
            LineFormat::OpenCode => "an OpenCode session",
        }
    }
}

/// Record types only Claude Code writes (spec agent-transcripts §1.1).
const CLAUDE_TYPES: [&str; 18] = [
    "user",
    "assistant",
    "system",
    "summary",
    "file-history-snapshot",
    "queue-operation",
    "progress",
    "attachment",
    "permission-mode",
    "mode",
    "last-prompt",
    "custom-title",
    "ai-title",
    "agent-name",
    "pr-link",
    "bridge-session",
    "agent-setting",
    "worktree-state",
];

/// The format one parsed line belongs to, when it tells (spec §1.1): a
/// `{type, payload}` envelope is Codex, a `{id, timestamp}` head without
/// either is a legacy Codex rollout, a Claude Code record type or
/// `sessionId`/`parentUuid` is Claude Code, a dotted `type` with `data` and
/// `parentId` is a Copilot CLI event, an eve event or v27 record is eve. `None`: the line says nothing (look at the next).
pub fn line_format(value: &serde_json::Value) -> Option<LineFormat> {
    let has = |key: &str| value.get(key).is_some();
    let opencode = value.get("opencode").and_then(serde_json::Value::as_str);
    if matches!(opencode, Some("session" | "message" | "part")) {
        return Some(LineFormat::OpenCode);
    }
    let kind = value.get("type").and_then(serde_json::Value::as_str);
    // Gemini: a metadata line (`sessionId` and `projectHash`, no `type`),
    // a `$set` or a `$rewindTo` (spec agent-transcripts-2 §1.1).
    if (has("sessionId") && has("projectHash") && kind.is_none()) || has("$set") || has("$rewindTo")
    {
        return Some(LineFormat::Gemini);
    }
    // Qwen Code: Claude Code's envelope with Gemini's `message.parts`
    // instead of `message.content`, a `systemPayload` or a `tool_result`.
    let parts = value.get("message").is_some_and(|m| m.get("parts").is_some());
    if has("uuid") && has("sessionId") && (parts || has("systemPayload") || kind == Some("tool_result")) {
        return Some(LineFormat::Qwen);
    }
    if kind.is_some() && has("payload") {
        return Some(LineFormat::Codex);
    }
    if has("sessionId") || has("parentUuid") || kind.is_some_and(|k| CLAUDE_TYPES.contains(&k)) {
        return Some(LineFormat::ClaudeCode);
    }
    if kind.is_none() && !has("payload") && has("id") && has("timestamp") {
        return Some(LineFormat::Codex);
    }
    if kind.is_some_and(|k| k.contains('.')) && has("data") && has("parentId") && !has("meta") {
        return Some(LineFormat::Copilot); // spec agent-transcripts-2 §1.1
    }
    if kind.is_some() || has("facts") || has("progress") || has("meta") {
        return Some(LineFormat::Eve);
    }
    None
}

/// JSON's four whitespace bytes (a form feed is not one).
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
}

#[cfg(test)]
mod tests {
    use crate::format::detect::*;

    #[test]
    fn the_first_character_tells_the_format() {
        assert_eq!(detect(b"\xEF\xBB\xBF \n [{}]"), Detected::Jp);
        assert_eq!(detect(b"\r\n{\"type\":\"x\"}\n"), Detected::Eve);
        assert_eq!(detect(b""), Detected::Blank);
        assert_eq!(detect(b" \n\t"), Detected::Blank);
    }

    #[test]
    fn each_line_format_is_told_by_its_first_record() {
        use serde_json::json;
        let codex = json!({"timestamp": "t", "type": "session_meta", "payload": {}});
        assert_eq!(line_format(&codex), Some(LineFormat::Codex));
        let legacy = json!({"id": "x", "timestamp": "t", "instructions": null});
        assert_eq!(line_format(&legacy), Some(LineFormat::Codex));
        let claude = json!({"type": "summary", "summary": "s", "leafUuid": "u"});
        assert_eq!(line_format(&claude), Some(LineFormat::ClaudeCode));
        let eve = json!({"type": "turn.started", "data": {}, "meta": {}});
        assert_eq!(line_format(&eve), Some(LineFormat::Eve));
        assert_eq!(line_format(&json!({"x": 1})), None);
        let copilot = json!({"type": "session.start", "data": {}, "id": "e", "parentId": null});
        assert_eq!(line_format(&copilot), Some(LineFormat::Copilot));
        assert_eq!(detect(&[0x28, 0xB5, 0x2F, 0xFD, 0]), Detected::Eve);
    }

    #[test]
    fn anything_else_is_named_with_its_place() {
        assert_eq!(
            detect(b"\n  x"),
            Detected::Other {
                line: 2,
                column: 3,
                found: 'x'
            }
        );
        assert_eq!(
            detect(&[0u8; 16]),
            Detected::Other {
                line: 1,
                column: 1,
                found: '\0'
            }
        );
        assert_eq!(
            detect(b"\xff\xfe"),
            Detected::Other {
                line: 1,
                column: 1,
                found: char::REPLACEMENT_CHARACTER
            }
        );
    }

    #[test]
    fn a_start_blank_for_longer_than_the_head_is_not_an_input() {
        let mut bytes = vec![b' '; HEAD];
        assert_eq!(detect(&bytes), Detected::Blank);
        bytes.push(b' ');
        assert_eq!(detect(&bytes), Detected::BlankHead);
    }
}
