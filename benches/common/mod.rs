//! A deterministic synthetic JP conversation of any size, shaped like the real
//! corpus (jp-format §1.10: reasoning ~1.2 KB, results ~750 chars with a long
//! tail, base64 in arguments and results, pretty-printed like JP writes it).

#![allow(dead_code)]

pub mod process;
pub mod sessions;
#[cfg(feature = "cli")]
pub mod viewer;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

/// A tiny deterministic generator (no external randomness in benchmarks).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const WORDS: &[&str] = &[
    "the",
    "conversation",
    "stream",
    "reader",
    "turn",
    "tool",
    "result",
    "parse",
    "render",
    "width",
    "agent",
    "file",
    "event",
    "config",
    "style",
    "line",
    "markdown",
    "table",
    "cache",
    "terminal",
];

fn prose(rng: &mut Lcg, chars: usize) -> String {
    let mut s = String::with_capacity(chars + 16);
    while s.len() < chars {
        s.push_str(WORDS[rng.below(WORDS.len() as u64) as usize]);
        s.push(if rng.below(12) == 0 { '\n' } else { ' ' });
    }
    s
}

fn code(rng: &mut Lcg, lines: usize) -> String {
    let mut s = String::from("```rs\n");
    for i in 0..lines {
        s.push_str(&format!(
            "    let value_{i} = compute({}, \"{}\");\n",
            rng.below(1000),
            WORDS[i % WORDS.len()]
        ));
    }
    s.push_str("```");
    s
}

/// One turn's events, as stored.
pub fn turn_events(rng_seed: u64, n: usize) -> Vec<Value> {
    let mut rng = Lcg(rng_seed ^ (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let ts = |k: usize| format!("2026-05-01 10:{:02}:{:02}.{}", (n / 60) % 60, n % 60, k + 1);
    let mut out = vec![
        json!({"timestamp": ts(0), "type": "turn_start"}),
        json!({"timestamp": ts(1), "type": "chat_request", "content": prose(&mut rng, 200)}),
        json!({"timestamp": ts(2), "type": "chat_response", "reasoning": prose(&mut rng, 1200),
               "metadata": {"anthropic_thinking_signature": STANDARD.encode(prose(&mut rng, 300))}}),
    ];
    let calls = 2 + rng.below(6) as usize;
    for c in 0..calls {
        let id = format!("toolu_{n}_{c}");
        let path = format!("crates/jp_{}/src/lib.rs", WORDS[c % WORDS.len()]);
        out.push(json!({"timestamp": ts(3), "type": "tool_call_request", "id": id, "name": "fs_read_file",
                        "arguments": {"path": STANDARD.encode(path)}}));
        let lines = if rng.below(20) == 0 {
            400
        } else {
            15 + rng.below(30) as usize
        };
        out.push(
            json!({"timestamp": ts(4), "type": "tool_call_response", "id": id,
                        "content": STANDARD.encode(code(&mut rng, lines)), "is_error": false}),
        );
    }
    out.push(json!({"timestamp": ts(5), "type": "chat_response", "message": prose(&mut rng, 500)}));
    out
}

/// The events of a conversation of about `target_bytes` when stored.
pub fn conversation_events(target_bytes: usize) -> Vec<Value> {
    let mut events = Vec::new();
    let mut size = 0;
    let mut n = 0;
    while size < target_bytes {
        let turn = turn_events(42, n);
        size += turn
            .iter()
            .map(|e| serde_json::to_vec_pretty(e).map_or(0, |v| v.len() + 4))
            .sum::<usize>();
        events.extend(turn);
        n += 1;
    }
    events
}

/// `events` with their ids and timestamps as long as JP's own: a call's id
/// `toolu_01` and 22 more characters (30 in all, against `toolu_17_3`), a
/// timestamp to the microsecond (26 characters, against 21; the same
/// instant, so that every duration shown stays the same). The short ones
/// are kinder to a reader than JP's: an outline keeps every call's and
/// result's id, each its own allocation, and a decoded event keeps its
/// timestamp inline only up to 24 bytes. Every id stays unique (the short
/// one is kept in the long one) and every turn's timestamps stay in order.
pub fn with_jp_lengths(mut events: Vec<Value>) -> Vec<Value> {
    for event in events.iter_mut() {
        let Some(entry) = event.as_object_mut() else {
            continue;
        };
        if let Some(Value::String(id)) = entry.get_mut("id") {
            *id = jp_length_id(id);
        }
        if let Some(Value::String(timestamp)) = entry.get_mut("timestamp") {
            let fraction = timestamp.rsplit('.').next().map_or(0, str::len);
            timestamp.extend(std::iter::repeat_n('0', 6usize.saturating_sub(fraction)));
        }
    }
    events
}

/// `toolu_17_3` as long as JP's ids: `toolu_01`, then `17x3`, then
/// letters that depend on it, 30 characters in all.
fn jp_length_id(short: &str) -> String {
    const LETTERS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let kept = short
        .strip_prefix("toolu_")
        .unwrap_or(short)
        .replace('_', "x");
    let mut id = format!("toolu_01{kept}");
    let mut rng = Lcg(kept.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    }));
    while id.len() < 30 {
        id.push(char::from(
            LETTERS[rng.below(LETTERS.len() as u64) as usize],
        ));
    }
    id
}

/// Stored bytes of `events`, exactly as JP writes them.
pub fn stored(events: &[Value]) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(events).expect("serializable");
    bytes.push(b'\n');
    bytes
}

/// A base config like a real one.
pub fn base_config() -> Vec<u8> {
    br#"{"conversation":{"tools":{"*":{"style":{"inline_results":{"truncate":{"lines":10}},"results_file_link":"osc8","parameters":"json"}},"fs_read_file":{"style":{"inline_results":"off","parameters":"function_call"}}}}}"#.to_vec()
}

/// The largest conversation of the real corpus, if `$OVERHEAR_CORPUS` names it.
pub fn largest_fixture() -> Option<(String, Vec<u8>, Option<Vec<u8>>)> {
    let dir = std::env::var_os("OVERHEAR_CORPUS")?;
    let mut best: Option<(u64, std::path::PathBuf)> = None;
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let events = entry.path().join("events.json");
        if let Ok(meta) = std::fs::metadata(&events)
            && best.as_ref().is_none_or(|(size, _)| meta.len() > *size)
        {
            best = Some((meta.len(), entry.path()));
        }
    }
    let (_, dir) = best?;
    let events = std::fs::read(dir.join("events.json")).ok()?;
    let base = std::fs::read(dir.join("base_config.json")).ok();
    Some((
        dir.file_name()?.to_string_lossy().into_owned(),
        events,
        base,
    ))
}

/// A JP conversation folder holding `events` (and the base config) under
/// `parent`, named like JP names them; returns the folder.
pub fn write_conversation(parent: &std::path::Path, events: &[u8]) -> std::path::PathBuf {
    let dir = parent.join("17760760747-synthetic");
    std::fs::create_dir_all(&dir).expect("temporary folder");
    std::fs::write(dir.join("events.json"), events).expect("temporary folder");
    std::fs::write(dir.join("base_config.json"), base_config()).expect("temporary folder");
    dir
}

/// How many turns `conversation_events(target_bytes)` generated.
pub fn turns_in(events: &[Value]) -> usize {
    events
        .iter()
        .filter(|e| e.get("type").and_then(Value::as_str) == Some("turn_start"))
        .count()
}

/// The stored bytes after JP's whole-file rewrite that appends `more` to the
/// stored array `stored` (pretty-printed, as JP writes it).
pub fn appended(stored: &[u8], more: &[Value]) -> Vec<u8> {
    let end = stored
        .iter()
        .rposition(|&b| b == b']')
        .expect("a stored array");
    let keep = stored[..end]
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |i| i + 1);
    let pretty = serde_json::to_vec_pretty(more).expect("serializable");
    // `[\n  {…},\n  {…}\n]` → the entries between the brackets.
    let inner = &pretty[2..pretty.len() - 2];
    let mut out = Vec::with_capacity(keep + inner.len() + 8);
    out.extend_from_slice(&stored[..keep]);
    out.extend_from_slice(b",\n");
    out.extend_from_slice(inner);
    out.extend_from_slice(b"\n]\n");
    out
}

/// CPU time this thread has used. The machine is shared: wall-clock times
/// stretch with everyone else's load, CPU time much less, so budget lines
/// report both.
// A thread's CPU time is read with clock_gettime(2), which has no safe wrapper.
#[allow(unsafe_code)]
pub fn cpu_time() -> std::time::Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec for the call to fill in.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    std::time::Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// The CPU time of the whole process so far, every thread's (those that
/// ended included): for work spread over threads.
// Read with clock_gettime(2), which has no safe wrapper.
#[allow(unsafe_code)]
pub fn process_cpu_time() -> std::time::Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec for the call to fill in.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    std::time::Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Wall-clock and CPU time of one call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Took {
    /// CPU time of this thread (compared first: it is the steadier one).
    pub cpu: std::time::Duration,
    /// Elapsed time.
    pub wall: std::time::Duration,
}

impl Took {
    /// Times `f`.
    pub fn of<T>(f: impl FnOnce() -> T) -> (T, Took) {
        let (wall, cpu) = (std::time::Instant::now(), cpu_time());
        let out = f();
        let took = Took {
            cpu: cpu_time() - cpu,
            wall: wall.elapsed(),
        };
        (out, took)
    }

    /// Times `f`, which may spread its work over threads: the CPU time is
    /// the whole process's.
    pub fn of_process<T>(f: impl FnOnce() -> T) -> (T, Took) {
        let (wall, cpu) = (std::time::Instant::now(), process_cpu_time());
        let out = f();
        let took = Took {
            cpu: process_cpu_time() - cpu,
            wall: wall.elapsed(),
        };
        (out, took)
    }

    /// The median of each (taken separately) over `samples`.
    pub fn median(samples: &[Took]) -> Took {
        let mut cpu: Vec<_> = samples.iter().map(|t| t.cpu).collect();
        let mut wall: Vec<_> = samples.iter().map(|t| t.wall).collect();
        cpu.sort();
        wall.sort();
        Took {
            cpu: cpu[cpu.len() / 2],
            wall: wall[wall.len() / 2],
        }
    }

    /// Milliseconds of CPU and wall time, for reports.
    pub fn ms(&self) -> String {
        format!(
            "{:.3} ms CPU ({:.3} ms wall)",
            self.cpu.as_secs_f64() * 1000.0,
            self.wall.as_secs_f64() * 1000.0
        )
    }

    /// This over `base`, by CPU time.
    pub fn ratio(&self, base: &Took) -> f64 {
        self.cpu.as_secs_f64() / base.cpu.as_secs_f64()
    }
}
