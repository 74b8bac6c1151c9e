//! OpenCode through the binary (spec agent-transcripts-2 §5, §9): the real
//! 1.18.13 database's sessions counted and pinned as snapshots, a store path
//! opened like a folder of conversations (`--session`, `<db>/<id>`),
//! discovery in a fake HOME, the legacy tree, and the user's database left
//! byte for byte as it was after every command.

use crate::common;

use std::path::Path;
use std::process::Output;

use common::opencode::{REAL_SESSIONS, Store, files_of, fixtures, real_db};
use serde_json::Value;

fn overhear(args: &[&str], cwd: &Path, env: &[(&str, &Path)]) -> Output {
    let mut command = crate::common::overhear();
    command.args(args).current_dir(cwd);
    command.env_remove("XDG_DATA_HOME");
    for (name, value) in env {
        command.env(name, value);
    }
    command.output().expect("overhear runs")
}

fn ok(out: Output) -> String {
    assert!(
        out.status.success(),
        "overhear failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// (prompts, calls, failed calls, replies) of `events --jsonl` output (spec §9).
fn counts(jsonl: &str) -> (usize, usize, usize, usize) {
    let events: Vec<Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).expect("one event per line"))
        .collect();
    let of = |kind: &'static str| events.iter().filter(move |e| e["type"] == kind);
    let replies = of("chat_response")
        .filter(|e| e.get("message").is_some_and(|m| m.is_string()))
        .count();
    (
        of("chat_request").count(),
        of("tool_call_request").count(),
        of("tool_call_response")
            .filter(|e| e["is_error"] == true)
            .count(),
        replies,
    )
}

#[test]
fn each_real_session_has_its_turns_calls_failures_and_replies_once() {
    let Some(db) = real_db() else { return };
    let cwd = db.parent().unwrap();
    let expected = [(1, 0, 0, 1), (1, 0, 0, 0), (1, 1, 0, 1)];
    for (session, expected) in REAL_SESSIONS.iter().zip(expected) {
        let by_flag = ok(overhear(
            &[
                "events",
                "--jsonl",
                "--session",
                session,
                db.to_str().unwrap(),
            ],
            cwd,
            &[],
        ));
        assert_eq!(counts(&by_flag), expected, "{session}");
        let by_path = ok(overhear(
            &["events", "--jsonl", db.join(session).to_str().unwrap()],
            cwd,
            &[],
        ));
        assert_eq!(by_flag, by_path, "{session}: --session and <db>/<id> agree");
    }
}

#[test]
fn a_store_opens_at_its_newest_session_and_names_one_that_is_not_there() {
    let Some(db) = real_db() else { return };
    let cwd = db.parent().unwrap();
    let newest = ok(overhear(
        &[
            "render",
            "--color",
            "never",
            "--width",
            "80",
            db.to_str().unwrap(),
        ],
        cwd,
        &[],
    ));
    assert!(
        newest.contains("make average_item_price return 0"),
        "{newest}"
    );
    // The data folder opens the same.
    let folder = ok(overhear(
        &[
            "render",
            "--color",
            "never",
            "--width",
            "80",
            cwd.to_str().unwrap(),
        ],
        cwd,
        &[],
    ));
    assert_eq!(newest, folder);
    let out = overhear(
        &["render", "--session", "ses_nope", db.to_str().unwrap()],
        cwd,
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no session ses_nope"), "{err}");
}

#[test]
fn the_real_sessions_at_40_80_and_200_columns() {
    let Some(db) = real_db() else { return };
    let cwd = db.parent().unwrap();
    for (index, session) in REAL_SESSIONS.iter().enumerate() {
        let widths: &[&str] = if index == 2 {
            &["40", "80", "200"]
        } else {
            &["80"]
        };
        for width in widths {
            let text = ok(overhear(
                &[
                    "render",
                    "--color",
                    "never",
                    "--width",
                    width,
                    "--session",
                    session,
                ],
                cwd,
                &[],
            ));
            insta::with_settings!({
                snapshot_path => concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots"),
                prepend_module_to_snapshot => false,
                description => *session,
            }, {
                insta::assert_snapshot!(format!("opencode-session-{}-{width}", index + 1), text);
            });
        }
    }
}

#[test]
fn no_command_changes_a_byte_of_the_users_database() {
    let Some(real) = real_db() else { return };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("opencode.db");
    // OpenCode running: WAL mode, its connection open, rows in the `-wal`.
    let store = Store::copy_of(&real, &db);
    store.conversation(
        "ses_live",
        "/nowhere",
        "still running",
        "yes",
        1_900_000_000_000,
    );
    let before = files_of(&db);
    assert!(before[1].1.is_some(), "the -wal exists while OpenCode runs");
    let out_file = dir.path().join("out.html");
    let db_arg = db.to_str().unwrap();
    let session = REAL_SESSIONS[2];
    let commands: [Vec<&str>; 5] = [
        vec!["render", "--width", "80", db_arg],
        vec!["events", "--jsonl", db_arg],
        vec!["render", "--session", "ses_live", db_arg],
        vec![
            "export",
            "--format",
            "html",
            "-o",
            out_file.to_str().unwrap(),
            db_arg,
        ],
        vec![
            "events",
            "--at",
            "2026-08-04T21:27:00Z",
            "--session",
            session,
            db_arg,
        ],
    ];
    for command in &commands {
        ok(overhear(command, dir.path(), &[]));
        assert_eq!(files_of(&db), before, "{command:?} changed the database");
    }
    // Export refuses to write over it.
    let out = overhear(&["export", "-o", db_arg, db_arg], dir.path(), &[]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(files_of(&db), before);
    // The newest rows, still in the -wal, were read.
    let text = ok(overhear(
        &["render", "--session", "ses_live", db_arg],
        dir.path(),
        &[],
    ));
    assert!(text.contains("still running"), "{text}");
    // Checkpointed and closed, in WAL mode without a `-wal`: no file appears.
    drop(store);
    let names = |dir: &Path| {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let before = (names(dir.path()), files_of(&db));
    ok(overhear(&["render", db_arg], dir.path(), &[]));
    assert_eq!((names(dir.path()), files_of(&db)), before);
}

#[test]
fn discovery_finds_the_folders_sessions_in_a_fake_home() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let project = root.join("work/app");
    std::fs::create_dir_all(&project).unwrap();
    let folder = project.to_str().unwrap();
    for (variable, data) in [
        ("HOME", root.join("home/.local/share/opencode")),
        ("XDG_DATA_HOME", root.join("xdg/opencode")),
    ] {
        std::fs::create_dir_all(&data).unwrap();
        let store = Store::create(&data.join("opencode.db"));
        store.conversation("ses_b", folder, "the older one", "old", 1_000);
        store.conversation("ses_a", folder, "the newer one", "new", 2_000);
        store.conversation("ses_c", "/elsewhere", "not this folder", "no", 3_000);
        let home = root.join("home");
        let xdg = root.join("xdg");
        let env: Vec<(&str, &Path)> = match variable {
            "HOME" => vec![("HOME", &home)],
            _ => vec![("HOME", &home), ("XDG_DATA_HOME", &xdg)],
        };
        let env: Vec<(&str, &Path)> = env.into_iter().collect();
        let text = ok(overhear(
            &["render", "--agent", "opencode", "--color", "never"],
            &project,
            &env,
        ));
        assert!(text.contains("the newer one"), "{variable}: {text}");
        let text = ok(overhear(
            &[
                "render",
                "--agent",
                "opencode",
                "--session",
                "ses_b",
                "--color",
                "never",
            ],
            &project,
            &env,
        ));
        assert!(text.contains("the older one"), "{variable}: {text}");
        drop(store);
        std::fs::remove_dir_all(&data).unwrap();
    }
    let out = overhear(
        &["render", "--agent", "opencode"],
        &project,
        &[("HOME", &root)],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--agent opencode: no session"));
}

#[test]
fn the_legacy_tree_reads_the_upstream_shape_and_tolerates_the_rest() {
    let Some(dir) = fixtures() else { return };
    let storage = dir.join("legacy-storage-synthetic/storage");
    let session = |id: &str| {
        ok(overhear(
            &[
                "events",
                "--jsonl",
                "--session",
                id,
                storage.to_str().unwrap(),
            ],
            &dir,
            &[],
        ))
    };
    // The upstream shape: one prompt (the synthetic text is context), a
    // completed `read`, reasoning.
    let upstream = session("ses_03");
    assert_eq!(counts(&upstream), (1, 1, 0, 1), "{upstream}");
    assert!(
        !upstream.contains("\"content\":\"<"),
        "synthetic text is no prompt"
    );
    // The typed shape and the cut file: kept as unknown, reading goes on.
    for id in ["ses_01", "ses_02"] {
        let text = session(id);
        assert_eq!(
            counts(&text).0,
            0,
            "{id}: no prompt of a shape not supported"
        );
        assert!(text.lines().count() > 1, "{id}: its records are kept");
    }
    let file = storage.join("session/prj_legacy/ses_03.json");
    let by_file = ok(overhear(
        &["events", "--jsonl", file.to_str().unwrap()],
        &dir,
        &[],
    ));
    assert_eq!(by_file, upstream);
}
