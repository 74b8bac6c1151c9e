//! `overhear render` at 80 columns of one real transcript of each sample
//! folder (`../shared/fixtures/{claude-code,codex}`), pinned as insta
//! snapshots in `snapshots/`. Long transcripts are pinned by one turn that
//! shows what the folder is about. Without the fixtures the test says it was
//! skipped.

use crate::common;

use common::agents::fixtures_dir;

/// (snapshot name, transcript under the fixtures folder, turn to show).
const SAMPLES: [(&str, &str, Option<&str>); 13] = [
    (
        "claude-schema-coverage",
        "claude-code/schema-coverage-trimmed/small.jsonl",
        None,
    ),
    (
        "claude-inline-sidechains",
        "claude-code/v1.0.108-inline-sidechains/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl",
        Some("1"),
    ),
    (
        "claude-image-rejections",
        "claude-code/v1.0.43-image-rejections/0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl",
        Some("1"),
    ),
    (
        "claude-thinking",
        "claude-code/v2.0.24-thinking/claude-code-pomodoro-timer.jsonl",
        Some("2"),
    ),
    (
        "claude-agent-file",
        "claude-code/v2.0.55-agent-file/agent-c8d9b115.jsonl",
        None,
    ),
    (
        "claude-agent-file-parent",
        "claude-code/v2.0.55-agent-file/a7da6a22-facc-4fcd-8bab-f83c87862004.jsonl",
        Some("6"),
    ),
    (
        "claude-subagents",
        "claude-code/v2.1.114-subagents/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl",
        Some("2"),
    ),
    (
        "codex-schema-coverage",
        "codex/schema-coverage-trimmed/small.jsonl",
        None,
    ),
    (
        "codex-sandbox-denied",
        "codex/v0.40.0-sandbox-denied/rollout-2025-09-25T08-02-05-0199812e-64f0-7f73-91fc-095dda01c36e.jsonl",
        Some("1"),
    ),
    (
        "codex-shell",
        "codex/v0.40.0-shell/rollout-2025-09-24T20-12-23-01997ea4-a70d-7da3-8c20-c736db82a7c5.jsonl",
        Some("-1"),
    ),
    (
        "codex-apply-patch",
        "codex/v0.47.0-apply-patch/codex-pomodor-timer.jsonl",
        Some("-1"),
    ),
    (
        "codex-unfinished-turn",
        "codex/v0.58.0-unfinished-turn/rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl",
        None,
    ),
    (
        "codex-desktop",
        "codex/v0.80-v0.115-desktop-sanitized/sessions/2026/01/22/rollout-2026-01-22T10-15-23-019be37c-2706-70c0-8e0e-51985de49079.jsonl",
        None,
    ),
];

#[test]
fn one_transcript_of_each_sample_folder_at_80_columns() {
    let Some(dir) = fixtures_dir() else { return };
    for (name, file, turn) in SAMPLES {
        let mut command = crate::common::overhear();
        command.args(["render", "--color", "never", "--width", "80"]);
        if let Some(turn) = turn {
            command.args(["--turn", turn]);
        }
        let out = command.arg(dir.join(file)).output().expect("overhear runs");
        assert!(
            out.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).expect("UTF-8 output");
        insta::with_settings!({
            snapshot_path => concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots"),
            prepend_module_to_snapshot => false,
            description => file,
        }, {
            insta::assert_snapshot!(format!("agent-{name}-80"), text);
        });
    }
}
