//! `overhear render` of the hand-written eve streams at 80 columns, pinned as
//! insta snapshots in `snapshots/`: channel updates delivered, failed,
//! pending and retried, an update then the final reply, updates with no final
//! reply, silence, a held turn resumed, steering, questions and approvals,
//! text being written, and the raw view of a stream with malformed lines.
//! Beside each snapshot, the facts a reader checks by eye: an update and the
//! final reply are never confused.

use crate::common;

use common::snapshot::snapshot;
use std::path::Path;

fn render(fixture: &str, args: &[&str]) -> String {
    render_at("80", fixture, args)
}

fn render_at(width: &str, fixture: &str, args: &[&str]) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/eve")
        .join(fixture);
    let out = crate::common::overhear()
        .args(["render", "--color", "never", "--width", width])
        .args(args)
        .arg(&path)
        .output()
        .expect("overhear runs");
    assert!(
        out.status.success(),
        "{fixture}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// The speech panes of a rendering: (label line, text of the pane).
fn panes(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if line.starts_with("── ") && !line.starts_with("── turn ") {
            out.push((line.to_string(), String::new()));
        } else if line.starts_with("── turn ") || !line.starts_with("  ") && !line.is_empty() {
            out.push((String::new(), String::new()));
        } else if let Some((_, body)) = out.last_mut() {
            body.push_str(line.trim());
            body.push(' ');
        }
    }
    out.retain(|(label, _)| !label.is_empty());
    out
}

fn updates(text: &str) -> Vec<(String, String)> {
    panes(text)
        .into_iter()
        .filter(|(label, _)| label.contains("· update (send_channel_update)"))
        .collect()
}

fn final_replies(text: &str) -> Vec<(String, String)> {
    panes(text)
        .into_iter()
        .filter(|(label, _)| label.contains("· final reply"))
        .collect()
}

/// No pane is both an update and a final reply, and no update's text is
/// shown as a final reply (or the other way round).
fn assert_never_confused(name: &str, text: &str) {
    let updates = updates(text);
    let finals = final_replies(text);
    for (label, body) in &updates {
        assert!(!label.contains("final reply"), "{name}: {label}");
        for (_, reply) in &finals {
            assert_ne!(
                body.trim(),
                reply.trim(),
                "{name}: update shown as the reply"
            );
        }
    }
    for (label, _) in &finals {
        assert!(!label.contains("update"), "{name}: {label}");
    }
}

#[test]
fn channel_updates() {
    let delivered = render("update-then-final.ndjson", &[]);
    assert_never_confused("update-then-final", &delivered);
    let ups = updates(&delivered);
    assert_eq!(ups.len(), 1);
    assert!(ups[0].0.ends_with("delivered ──"), "{}", ups[0].0);
    assert_eq!(final_replies(&delivered).len(), 1);
    snapshot("eve-update-then-final-80", &delivered);

    let failed = render("update-failed.ndjson", &[]);
    assert_never_confused("update-failed", &failed);
    let ups = updates(&failed);
    assert!(ups[0].0.ends_with("failed ──"), "{}", ups[0].0);
    assert!(ups[0].1.contains("✗ not delivered: CHANNEL_UNAVAILABLE"));
    snapshot("eve-update-failed-80", &failed);

    let pending = render("update-pending.ndjson", &[]);
    assert_never_confused("update-pending", &pending);
    assert!(updates(&pending)[0].0.ends_with("pending ──"));
    assert!(final_replies(&pending).is_empty());
    snapshot("eve-update-pending-80", &pending);

    let retried = render("update-retried.ndjson", &[]);
    assert_never_confused("update-retried", &retried);
    let ups = updates(&retried);
    assert_eq!(ups.len(), 1, "shown once whatever the attempts");
    assert!(
        ups[0].0.ends_with("delivered · attempts: 3 ──"),
        "{}",
        ups[0].0
    );
    snapshot("eve-update-retried-80", &retried);

    let lost = render("updates-no-final.ndjson", &[]);
    assert_never_confused("updates-no-final", &lost);
    assert_eq!(updates(&lost).len(), 2);
    assert!(final_replies(&lost).is_empty());
    assert_eq!(
        lost.matches("⚠ no final reply — the answer may be lost")
            .count(),
        1,
        "flagged on the turn that sent updates only"
    );
    snapshot("eve-updates-no-final-80", &lost);

    let v27 = render("v27-update-reply.ndjson", &[]);
    assert_never_confused("v27-update-reply", &v27);
    assert_eq!(updates(&v27).len(), 1);
    assert_eq!(final_replies(&v27).len(), 1);
    snapshot("eve-v27-update-reply-80", &v27);
}

#[test]
fn turns_silence_steering_and_questions() {
    let silent = render("null-final.ndjson", &[]);
    assert_eq!(
        silent
            .matches("(no message — the assistant chose to stay silent)")
            .count(),
        2
    );
    snapshot("eve-null-final-80", &silent);

    let held = render("held-resumed.ndjson", &[]);
    assert!(held.contains("● deploy · task completed"));
    assert!(held.contains("Deploy started; I will report back."));
    assert!(held.contains("Deploy finished: v3 is live."));
    assert_eq!(
        held.matches("── turn ").count(),
        1,
        "resumed in the same turn"
    );
    snapshot("eve-held-resumed-80", &held);

    let steering = render("steering.ndjson", &[]);
    assert_never_confused("steering", &steering);
    assert!(steering.contains("── user · steering (sent mid-turn) ──"));
    snapshot("eve-steering-80", &steering);

    let question = render("input-question.ndjson", &[]);
    assert!(question.contains("  ? Which region? → Europe (eu)"));
    snapshot("eve-input-question-80", &question);

    let approvals = render("approvals.ndjson", &[]);
    assert!(approvals.contains("  ? Approve tool call: deploy → approved"));
    assert!(approvals.contains("  ? Approve tool call: drop_tables → denied"));
    snapshot("eve-approvals-80", &approvals);
}

#[test]
fn streams_being_written_and_the_raw_view() {
    let typing = render("legacy-appends.ndjson", &[]);
    assert!(typing.contains("── assistant · typing… ──"));
    assert!(typing.contains("  Hello, wörld▍"));
    snapshot("eve-partial-typing-80", &typing);

    let raw = render("malformed-line.ndjson", &["--view", "raw"]);
    assert!(raw.contains("⚠ malformed line 4, column 63: not JSON"));
    assert!(raw.contains("line 3 · message.received  2026-02-01 10:00:03 UTC"));
    snapshot("eve-malformed-line-raw-80", &raw);
}

/// An action whose `action.result` carries `error{code,message}` besides an
/// output says the code and the message on its card, before the output, in
/// every view and at every width: a retried update, one that failed, a tool
/// that failed, and an update whose reply was lost.
#[test]
fn action_errors_show_their_code_and_message() {
    let text = render("update-errors.ndjson", &[]);
    snapshot("eve_update_errors", &text);
    for width in ["40", "80", "120", "200"] {
        for view in ["terminal", "user"] {
            let text = render_at(width, "update-errors.ndjson", &["--view", view]);
            let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(
                flat.contains("✗ not delivered: CHANNEL_ARCHIVED: The channel #eng is archived"),
                "{width} {view}:\n{text}"
            );
            assert!(
                flat.contains("│ PERMISSION_DENIED: /srv is read-only"),
                "{width} {view}:\n{text}"
            );
            let code = flat.find("PERMISSION_DENIED").unwrap();
            assert!(
                code < flat.find("\"written\": 0").unwrap(),
                "the error before the output"
            );
        }
    }
    let raw = render("update-errors.ndjson", &["--view", "raw"]);
    assert!(raw.contains("RATE_LIMITED") && raw.contains("CHANNEL_ARCHIVED"));
}
