//! What the first bytes of a Claude Code or Codex session say about it
//! without reading it whole: the folder a Codex session ran in
//! (`session_meta.cwd`), for finding the sessions of a folder, and the
//! session's first real prompt, its title in the picker (docs/agents.md
//! "Finding sessions").

use std::io::Read;

use serde_json::Value;

use super::detect::ZSTD_MAGIC;
use super::ndjson::NdjsonReader;
use super::reader::StreamReader;
use crate::model::EventKind;

/// How much of a Codex session's start is read for its `cwd`: `cwd` comes
/// before the long instructions, and is read from a cut line too.
pub const CWD_HEAD: u64 = 8 * 1024;

pub use super::copilot::head::session_cwd as copilot_cwd;

/// How much of a session's start is read, at most, for its first prompt: a
/// Codex rollout's first prompt follows its instructions and injected
/// context (120 kB into a real v0.40 rollout).
pub const PROMPT_HEAD: u64 = 256 * 1024;

/// How recently a session's file must have been written for a picker to
/// mark it live: the time after which a followed transcript whose last turn
/// settled shows `○ finished` ([`super::ndjson::QUIET_SETTLED`]).
pub const LIVE_WITHIN: std::time::Duration = super::ndjson::QUIET_SETTLED;

/// How many characters of the first prompt's first line are kept as a title.
pub const TITLE_CHARS: usize = 200;

/// How much of a compressed head is decompressed, at most.
const PLAIN_LIMIT: u64 = 256 * 1024;

/// A file's first bytes as text: the start of a zstd frame decompressed
/// into `plain`, anything else as it is.
fn plain_head<'a>(head: &'a [u8], plain: &'a mut Vec<u8>) -> &'a [u8] {
    if head.starts_with(&ZSTD_MAGIC) {
        *plain = decompress_start(head);
        plain.as_slice()
    } else {
        head
    }
}

/// The `cwd` of a Codex rollout's `session_meta` line, from the file's first
/// bytes (plain or the start of a zstd frame). The first line may be cut
/// short by the head's end (its `base_instructions` can be long): `cwd` comes
/// before them, and is read from the cut line too.
pub fn codex_cwd(head: &[u8]) -> Option<String> {
    let mut plain = Vec::new();
    let line = first_line(head, &mut plain)?;
    if let Some(cwd) = whole_meta_value(line, "/payload/cwd") {
        return cwd;
    }
    cut_line_cwd(line)
}

/// The first non-blank line of a Codex rollout's first bytes (plain or the
/// start of a zstd frame, inflated into `plain`), cut at the head's end
/// when it has no line break.
fn first_line<'a>(head: &'a [u8], plain: &'a mut Vec<u8>) -> Option<&'a [u8]> {
    let head = plain_head(head, plain);
    let start = head.iter().position(|b| !b.is_ascii_whitespace())?;
    let line = &head[start..];
    Some(match line.iter().position(|&b| b == b'\n') {
        Some(end) => &line[..end],
        None => line,
    })
}

/// The string at `pointer` of a first line that parses whole: `Some(None)`
/// when it is no `session_meta` or has none there, `None` when the line
/// does not parse (cut short by the head's end).
fn whole_meta_value(line: &[u8], pointer: &str) -> Option<Option<String>> {
    let repaired = super::surrogates::repaired(line).0;
    let record = crate::model::bounded_value::from_slice(&repaired).ok()?.value;
    if record.get("type").and_then(Value::as_str) != Some("session_meta") {
        return Some(None);
    }
    Some(record.pointer(pointer).and_then(Value::as_str).map(str::to_owned))
}

/// The thread a Codex child rollout was spawned by
/// (`session_meta.source.subagent.thread_spawn.parent_thread_id`, spec
/// §3.9), from the file's first bytes; `None` for a session of its own.
/// Read from a first line cut short too (`source` comes before the
/// instructions).
pub fn codex_parent_thread(head: &[u8]) -> Option<String> {
    let mut plain = Vec::new();
    let line = first_line(head, &mut plain)?;
    if let Some(parent) = whole_meta_value(
        line,
        "/payload/source/subagent/thread_spawn/parent_thread_id",
    ) {
        return parent;
    }
    let key = find(line, b"\"parent_thread_id\":")?;
    find(&line[..key], b"\"type\":\"session_meta\"")?;
    let rest = &line[key + b"\"parent_thread_id\":".len()..];
    serde_json::Deserializer::from_slice(rest)
        .into_iter::<String>()
        .next()?
        .ok()
}

/// The folder a Claude Code session ran in: the `cwd` of the first
/// record in the file's first bytes that has one (every user and assistant
/// record does). A last line cut by the head's end is not read.
pub fn claude_cwd(head: &[u8]) -> Option<String> {
    let complete = match head.iter().rposition(|&b| b == b'\n') {
        Some(end) => &head[..end],
        None => return None,
    };
    complete.split(|&b| b == b'\n').find_map(|line| {
        find(line, b"\"cwd\"")?;
        let record: Value = serde_json::from_slice(&super::surrogates::repaired(line).0).ok()?;
        record.get("cwd").and_then(Value::as_str).map(str::to_owned)
    })
}

/// The first real prompt of a Claude Code transcript or Codex rollout, from
/// the file's first bytes (plain or the start of a zstd frame): the first
/// prompt the format's own reader finds (so meta lines, command output,
/// tool results and injected context are not prompts), as its first
/// non-blank line, trimmed, at most [`TITLE_CHARS`] characters. A last line
/// cut by the head's end is not read. Unsanitized: the caller shows it
/// through `text`.
pub fn first_prompt(head: &[u8]) -> Option<String> {
    let mut plain = Vec::new();
    let head = plain_head(head, &mut plain);
    // A frame inside the frame inflates no further than the head does.
    let mut reader = NdjsonReader::within(PLAIN_LIMIT);
    let mut events = Vec::new();
    reader.feed(head, &mut events);
    events.iter().find_map(|event| match &event.kind {
        EventKind::ChatRequest { content, .. } => {
            let line = content.lines().map(str::trim).find(|l| !l.is_empty())?;
            Some(line.chars().take(TITLE_CHARS).collect())
        }
        _ => None,
    })
}

/// `cwd` from a `session_meta` line cut short: the string after its first
/// `"cwd":`, when the line says `"type":"session_meta"` before it.
fn cut_line_cwd(line: &[u8]) -> Option<String> {
    let key = find(line, b"\"cwd\":")?;
    find(&line[..key], b"\"type\":\"session_meta\"")?;
    let rest = &line[key + b"\"cwd\":".len()..];
    serde_json::Deserializer::from_slice(rest)
        .into_iter::<String>()
        .next()?
        .ok()
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

/// As much of the frame as decodes from its first bytes.
fn decompress_start(head: &[u8]) -> Vec<u8> {
    let mut plain = Vec::new();
    if let Ok(decoder) = ruzstd::decoding::StreamingDecoder::new(head) {
        let mut decoder = decoder.take(PLAIN_LIMIT);
        let mut buffer = [0u8; 8192];
        while let Ok(n) = decoder.read(&mut buffer) {
            if n == 0 {
                break;
            }
            plain.extend_from_slice(&buffer[..n]);
        }
    }
    plain
}

#[cfg(test)]
mod tests {
    use super::*;

    const META: &str = r#"{"timestamp":"2025-09-25T02:12:23.966Z","type":"session_meta","payload":{"id":"x","cwd":"/work/app","instructions":"long"}}"#;

    #[test]
    fn the_cwd_is_read_from_a_whole_or_cut_first_line() {
        let whole = format!("{META}\n{{\"garbage");
        assert_eq!(codex_cwd(whole.as_bytes()).as_deref(), Some("/work/app"));
        let cut = &META[..META.find("long").unwrap_or(META.len())];
        assert_eq!(codex_cwd(cut.as_bytes()).as_deref(), Some("/work/app"));
        let other = r#"{"type":"response_item","payload":{"cwd":"/work/app"}}"#;
        assert_eq!(codex_cwd(other.as_bytes()), None);
        assert_eq!(codex_cwd(b"not json"), None);
    }

    #[test]
    fn a_child_rollout_names_its_parent_thread() {
        let child = r#"{"type":"session_meta","payload":{"id":"c","cwd":"/w","source":{"subagent":{"thread_spawn":{"parent_thread_id":"019p","depth":1}}},"instructions":"long"}}"#;
        assert_eq!(codex_parent_thread(child.as_bytes()).as_deref(), Some("019p"));
        let cut = &child[..child.find("long").unwrap_or(child.len())];
        assert_eq!(codex_parent_thread(cut.as_bytes()).as_deref(), Some("019p"));
        assert_eq!(codex_parent_thread(META.as_bytes()), None);
        let review = r#"{"type":"session_meta","payload":{"id":"c","source":{"subagent":"review"}}}"#;
        assert_eq!(codex_parent_thread(review.as_bytes()), None);
    }

    #[test]
    fn the_first_prompt_is_the_first_real_one_as_one_line() {
        let claude = concat!(
            r#"{"type":"summary","summary":"A stored summary","leafUuid":"x"}"#,
            "\n",
            r#"{"type":"user","uuid":"u0","sessionId":"s","isMeta":true,"message":{"role":"user","content":"Caveat: meta"}}"#,
            "\n",
            r#"{"type":"user","uuid":"u1","sessionId":"s","message":{"role":"user","content":"\n  Fix the parser  \nand test it"}}"#,
            "\n",
        );
        assert_eq!(
            first_prompt(claude.as_bytes()).as_deref(),
            Some("Fix the parser")
        );
        let codex = format!(
            "{META}\n{}\n",
            r#"{"timestamp":"2025-09-25T02:12:24Z","type":"event_msg","payload":{"type":"user_message","message":"Add a timer","kind":"plain"}}"#
        );
        assert_eq!(
            first_prompt(codex.as_bytes()).as_deref(),
            Some("Add a timer")
        );
        // The prompt's line is cut by the head's end: not read.
        assert_eq!(first_prompt(&codex.as_bytes()[..codex.len() - 10]), None);
        let long = format!(
            r#"{{"type":"user","uuid":"u1","sessionId":"s","message":{{"role":"user","content":"{}"}}}}"#,
            "é".repeat(500)
        );
        let title = first_prompt(format!("{long}\n").as_bytes()).unwrap_or_default();
        assert_eq!(title.chars().count(), TITLE_CHARS);
    }

    #[test]
    fn a_claude_sessions_folder_is_its_first_records_cwd() {
        let head = b"{\"type\":\"summary\",\"summary\":\"x\"}\n\
                     {\"type\":\"user\",\"cwd\":\"/home/me/app\",\"message\":{}}\n\
                     {\"type\":\"user\",\"cwd\":\"/cut";
        assert_eq!(claude_cwd(head).as_deref(), Some("/home/me/app"));
        assert_eq!(claude_cwd(b"{\"cwd\":\"/only-a-cut-line\""), None);
    }

    #[test]
    fn the_cwd_is_read_from_a_compressed_head() {
        let packed = ruzstd::encoding::compress_to_vec(
            format!("{META}\n").as_bytes(),
            ruzstd::encoding::CompressionLevel::Fastest,
        );
        assert_eq!(codex_cwd(&packed).as_deref(), Some("/work/app"));
    }
}
