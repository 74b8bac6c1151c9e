//! `overhear render` over the real JP conversations of `$OVERHEAR_CORPUS`, at
//! 40, 80 and 200 columns: it succeeds, shows every assistant message, cuts
//! every tool result exactly where the stored style says (computed here from
//! the stored config, independently of the renderer), and writes no escape
//! byte but SGR.

use crate::common;

use std::path::Path;

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, URL_SAFE};
use serde_json::{Map, Value};

fn render(dir: &Path, width: usize, color: &str) -> String {
    let out = crate::common::overhear()
        .args([
            "render",
            dir.to_str().unwrap(),
            "--width",
            &width.to_string(),
            "--color",
            color,
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{dir:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

fn decode(s: &str) -> String {
    for engine in [&STANDARD, &URL_SAFE] {
        if let Ok(bytes) = engine.decode(s)
            && let Ok(text) = String::from_utf8(bytes)
        {
            return text;
        }
    }
    s.to_string()
}

fn merge(base: &mut Value, delta: &Value) {
    match (base, delta) {
        (Value::Object(b), Value::Object(d)) => {
            for (k, v) in d {
                match b.get_mut(k) {
                    Some(existing)
                        if existing.is_object() && v.is_object() && !is_style_value(k) =>
                    {
                        merge(existing, v)
                    }
                    _ => {
                        b.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (b, d) => *b = d.clone(),
    }
}

fn is_style_value(key: &str) -> bool {
    matches!(key, "inline_results" | "results_file_link" | "parameters")
}

/// Lines a result may show: `None` = all, `Some(0)` = none.
fn limit(value: Option<&Value>) -> Option<usize> {
    match value {
        None | Some(Value::Null) => Some(10),
        Some(Value::Bool(true)) => None,
        Some(Value::Bool(false)) => Some(0),
        Some(Value::String(s)) if s == "full" => None,
        Some(Value::String(s)) if s == "off" => Some(0),
        Some(Value::String(s)) => s.parse().ok(),
        Some(Value::Number(n)) => n.as_u64().map(|n| n as usize),
        Some(Value::Object(o)) => o
            .get("truncate")
            .and_then(|t| t.get("lines"))
            .and_then(Value::as_u64)
            .map(|n| n as usize),
        _ => Some(10),
    }
}

/// The notes the renderer must print for each tool result, in order.
fn expected_notes(dir: &Path) -> Vec<usize> {
    let raw: Vec<Value> =
        serde_json::from_slice(&std::fs::read(dir.join("events.json")).unwrap()).unwrap();
    let (mut config, events) = match std::fs::read(dir.join("base_config.json")) {
        Ok(bytes) => (serde_json::from_slice(&bytes).unwrap(), &raw[..]),
        Err(_) => {
            let first = raw[0].as_object().unwrap();
            let base = first.get("delta").cloned().unwrap_or_else(|| {
                let mut m: Map<String, Value> = first.clone();
                m.remove("type");
                m.remove("timestamp");
                Value::Object(m)
            });
            (base, &raw[1..])
        }
    };
    let mut turn_config = config.clone();
    let mut turn_has_event = false;
    let mut names: std::collections::HashMap<String, Vec<String>> = Default::default();
    let mut notes = Vec::new();
    for (i, e) in events.iter().enumerate() {
        let kind = e["type"].as_str().unwrap_or("");
        match kind {
            "config_delta" => {
                merge(&mut config, &e["delta"]);
                continue;
            }
            "turn_start" if turn_has_event => turn_has_event = false,
            _ => {}
        }
        if !turn_has_event && kind != "config_delta" {
            turn_has_event = kind != "turn_start" || i == 0;
            turn_config = config.clone();
            if kind == "turn_start" {
                turn_has_event = false;
            }
        }
        if kind != "turn_start" {
            turn_has_event = true;
        }
        let id = e["id"].as_str().unwrap_or("").to_string();
        if kind == "tool_call_request" {
            names
                .entry(id)
                .or_default()
                .push(e["name"].as_str().unwrap().to_string());
            continue;
        }
        if kind != "tool_call_response" {
            continue;
        }
        let name = names.get_mut(&id).and_then(Vec::pop).unwrap();
        let tools = &turn_config["conversation"]["tools"];
        let style = tools[name.as_str()]
            .get("style")
            .filter(|s| !s.is_null())
            .or_else(|| tools["*"].get("style"))
            .cloned()
            .unwrap_or(Value::Null);
        if style["hidden"] == Value::Bool(true)
            || turn_config["style"]["tool_call"]["show"] == Value::Bool(false)
        {
            continue;
        }
        let is_error = e["is_error"] == Value::Bool(true);
        let setting = if is_error && !style["error"]["inline_results"].is_null() {
            style["error"].get("inline_results")
        } else {
            style.get("inline_results")
        };
        let Some(n) = limit(setting) else { continue };
        if n == 0 {
            continue;
        }
        let text = decode(e["content"].as_str().unwrap_or(""));
        let normalized = match serde_json::from_str::<Value>(text.trim()) {
            Ok(v @ (Value::Object(_) | Value::Array(_))) => {
                serde_json::to_string_pretty(&v).unwrap()
            }
            _ => strip_fence(&text),
        };
        let total = normalized.lines().count();
        if total > n {
            notes.push(total - n);
        }
    }
    notes
}

fn strip_fence(text: &str) -> String {
    let Some(rest) = text.strip_prefix("```") else {
        return text.to_string();
    };
    let Some((_, body)) = rest.split_once('\n') else {
        return text.to_string();
    };
    let body = body.trim_end();
    body.strip_suffix("```")
        .map_or(body, str::trim_end)
        .to_string()
}

fn notes_in(output: &str) -> Vec<usize> {
    output
        .lines()
        .filter_map(|l| l.split("… ").nth(1))
        .filter_map(|rest| rest.strip_suffix(" not shown"))
        .filter_map(|rest| rest.split(' ').next()?.parse().ok())
        .collect()
}

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

fn messages(dir: &Path) -> Vec<String> {
    let raw: Vec<Value> =
        serde_json::from_slice(&std::fs::read(dir.join("events.json")).unwrap()).unwrap();
    raw.iter()
        .filter_map(|e| e["message"].as_str().map(String::from))
        .collect()
}

fn alphanumerics(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The message without fenced code (whose long lines are cut by design) and
/// without table rows (whose cells wrap side by side), and the table's words.
fn prose(message: &str) -> (String, Vec<String>) {
    let mut out = String::new();
    let mut table = String::new();
    let mut in_code = false;
    for line in message.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        if line.trim_start().starts_with('|') {
            table.push_str(line);
            table.push('\n');
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    (out, words(&table))
}

#[test]
fn render_shows_messages_cuts_results_and_leaks_no_escapes() {
    let Some(dirs) = common::corpus::jp_conversations() else {
        return;
    };
    for dir in &dirs {
        let notes = expected_notes(dir);
        let messages = messages(dir);
        for width in [40, 80, 200] {
            let plain = render(dir, width, "never");
            assert!(
                !plain.contains('\u{1b}'),
                "{dir:?}: escape in --color never"
            );
            for line in plain.lines() {
                let w = overhear::text::width::display_width(line);
                assert!(w <= width, "{dir:?} at {width}: {w} columns: {line:?}");
            }
            assert_eq!(
                notes_in(&plain),
                notes,
                "{dir:?} at {width}: truncation notes"
            );
            // Every message's text, in order, as a subsequence of what is on
            // screen: wrapping may split a long word, gutters add symbols.
            let shown = alphanumerics(&plain);
            let mut at = 0;
            for message in &messages {
                let (prose, table_words) = prose(message);
                for c in alphanumerics(&prose).chars() {
                    let Some(found) = shown[at..].find(c) else {
                        panic!(
                            "{dir:?} at {width}: message text missing or out of order near {:?}",
                            &prose[..prose.len().min(80)]
                        );
                    };
                    at += found + c.len_utf8();
                }
                if width == 200 {
                    let all = words(&plain);
                    for word in table_words {
                        assert!(all.contains(&word), "{dir:?}: table word {word:?} missing");
                    }
                }
            }
            let colored = render(dir, width, "always");
            check_only_sgr(&colored, dir);
        }
    }
}

fn check_only_sgr(text: &str, dir: &Path) {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == 0x1b {
            assert_eq!(
                bytes.get(i + 1),
                Some(&b'['),
                "{dir:?}: non-CSI escape at byte {i}"
            );
            let end = bytes[i + 2..]
                .iter()
                .position(|b| (0x40..=0x7e).contains(b))
                .unwrap();
            let terminator = bytes[i + 2 + end];
            assert_eq!(terminator, b'm', "{dir:?}: CSI other than SGR at byte {i}");
            let params = &text[i + 2..i + 2 + end];
            assert!(
                params.chars().all(|c| c.is_ascii_digit() || c == ';'),
                "{dir:?}: odd SGR {params:?}"
            );
            i += 3 + end;
        } else {
            assert!(
                bytes[i] >= 0x20 || bytes[i] == b'\n' || bytes[i] == b'\t',
                "{dir:?}: control byte {}",
                bytes[i]
            );
            i += 1;
        }
    }
}
