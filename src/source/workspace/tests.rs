use std::fs;
use std::path::PathBuf;

use super::*;
use crate::source::test_support::{Fixture, Root, event_count, set_mtime};

fn meta(title: &str, activated: &str) -> String {
    format!(r#"{{"title":"{title}","last_activated_at":"{activated}"}}"#)
}

#[test]
fn discovers_workspace_and_user_silo_from_a_subfolder() {
    let fx = Fixture::new();
    let sub = fx.repo.join("src/deep");
    fs::create_dir_all(&sub).unwrap();
    let ws = Workspace::discover(&sub, &fx.env()).unwrap();
    assert_eq!(ws.root, fx.repo);
    assert_eq!(ws.id.as_deref(), Some("otvo8"));
    assert_eq!(
        ws.user_root,
        Some(fx.user_data.join("workspace/repo-otvo8"))
    );
    assert_eq!(Workspace::discover(&fx.base, &fx.env()), None);
}

#[test]
fn lists_both_roots_and_archive_most_recent_first() {
    let fx = Fixture::new();
    fx.add(
        Root::Workspace,
        "100-older",
        &meta("Older", "2026-01-01 10:00:00.0"),
        2,
        1000,
    );
    fx.add(
        Root::User,
        "200",
        &meta("Local only", "2026-03-01 10:00:00.5"),
        3,
        1000,
    );
    fx.add(
        Root::Workspace,
        ".archive/300-archived",
        &meta("Archived", "2026-02-01 10:00:00.0"),
        1,
        1000,
    );
    let ws = Workspace::discover(&fx.repo, &fx.env()).unwrap();
    let list = ws.conversations();
    let ids: Vec<&str> = list.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, ["200", "300", "100"]);
    assert_eq!(list[0].title.as_deref(), Some("Local only"));
    assert_eq!(event_count(&list[0].conversation()), Some(3));
    assert!(!list[0].archived);
    assert!(list[1].archived);
    assert_eq!(
        list[1].dir,
        fx.conversations(Root::Workspace)
            .join(".archive/300-archived")
    );
    assert_eq!(
        list[2].last_activated_at.as_deref(),
        Some("2026-01-01 10:00:00.0")
    );
}

#[test]
fn a_conversation_in_both_roots_appears_once_as_the_newer_copy() {
    let fx = Fixture::new();
    let m = meta("Same", "2026-01-01 10:00:00.0");
    fx.add(Root::User, "400-same", &m, 1, 1000);
    let newer = fx.add(Root::Workspace, "400-same", &m, 5, 2000);
    let ws = Workspace::discover(&fx.repo, &fx.env()).unwrap();
    let list = ws.conversations();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].dir, newer);
    assert_eq!(event_count(&list[0].conversation()), Some(5));

    // A newer base_config.json makes the user-local copy the newer stream.
    let user = fx.conversations(Root::User).join("400-same");
    fs::write(user.join("base_config.json"), "{}").unwrap();
    set_mtime(&user.join("base_config.json"), 3000);
    assert_eq!(ws.conversations()[0].dir, user);
}

#[test]
fn equal_times_prefer_the_user_local_copy() {
    let fx = Fixture::new();
    let m = meta("Tie", "2026-01-01 10:00:00.0");
    let user = fx.add(Root::User, "500", &m, 1, 1000);
    fx.add(Root::Workspace, "500", &m, 1, 1000);
    let ws = Workspace::discover(&fx.repo, &fx.env()).unwrap();
    assert_eq!(ws.find("500").unwrap().dir, user);
}

#[test]
fn skips_dot_entries_other_than_archive_and_folders_without_events() {
    let fx = Fixture::new();
    let m = meta("Real", "2026-01-01 10:00:00.0");
    fx.add(Root::Workspace, "600-real", &m, 1, 1000);
    fx.add(Root::Workspace, ".trash/601-broken", &m, 1, 1000);
    fx.add(Root::Workspace, ".staging-602", &m, 1, 1000);
    fs::create_dir_all(fx.conversations(Root::Workspace).join("603-no-events")).unwrap();
    fs::create_dir_all(fx.conversations(Root::Workspace).join("notes")).unwrap();
    let ws = Workspace::discover(&fx.repo, &fx.env()).unwrap();
    let ids: Vec<String> = ws.conversations().into_iter().map(|e| e.id).collect();
    assert_eq!(ids, ["600"]);
}

#[test]
fn missing_activation_time_falls_back_to_file_time() {
    let fx = Fixture::new();
    fx.add(
        Root::Workspace,
        "700",
        r#"{"title":"no time"}"#,
        1,
        4_000_000_000,
    );
    fx.add(
        Root::Workspace,
        "701",
        &meta("t", "2026-01-01 10:00:00.0"),
        1,
        1000,
    );
    fx.add(Root::Workspace, "702", "not json", 1, 1000);
    let ws = Workspace::discover(&fx.repo, &fx.env()).unwrap();
    let ids: Vec<String> = ws.conversations().into_iter().map(|e| e.id).collect();
    assert_eq!(ids, ["700", "701", "702"]);
    assert_eq!(ws.most_recent().unwrap().id, "700");
    assert_eq!(
        event_count(&ws.most_recent().unwrap().conversation()),
        Some(1)
    );
}

#[test]
fn pinned_and_archived_marks_come_from_metadata() {
    let fx = Fixture::new();
    fx.add(
        Root::Workspace,
        "800",
        r#"{"last_activated_at":"2026-01-01 10:00:00.0","pinned_at":"2026-01-02 00:00:00.0","archived_at":"2026-01-03 00:00:00.0"}"#,
        0,
        1000,
    );
    let ws = Workspace::discover(&fx.repo, &fx.env()).unwrap();
    let entry = ws.find("800").unwrap();
    assert!(entry.pinned);
    assert!(entry.archived);
    assert_eq!(entry.title, None);
    assert_eq!(event_count(&entry.conversation()), Some(0));
}

#[test]
fn locked_when_a_live_pid_holds_the_lock_file_in_either_root() {
    let fx = Fixture::new();
    let m = meta("L", "2026-01-01 10:00:00.0");
    fx.add(Root::Workspace, "900", &m, 1, 1000);
    fx.add(Root::Workspace, "901", &m, 1, 1000);
    let ws = Workspace::discover(&fx.repo, &fx.env()).unwrap();
    assert!(!ws.find("900").unwrap().locked);

    fs::create_dir_all(fx.locks(Root::User)).unwrap();
    let lock = fx.locks(Root::User).join("jp-c900.lock");
    let body = format!(
        r#"{{"pid":{},"acquired_at":"2026-01-01T10:00:00Z"}}"#,
        std::process::id()
    );
    fs::write(&lock, &body).unwrap();
    assert!(ws.find("900").unwrap().locked);
    assert!(!ws.find("901").unwrap().locked);
    assert_eq!(fs::read_to_string(&lock).unwrap(), body);

    fs::create_dir_all(fx.locks(Root::Workspace)).unwrap();
    fs::write(fx.locks(Root::Workspace).join("jp-c901.lock"), &body).unwrap();
    assert!(ws.is_locked("901"));
}

#[test]
fn user_data_dir_follows_jp_precedence() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |key: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| v.to_string())
        }
    };
    let all = env(&[
        ("JP_USER_DATA_DIR", "/jp"),
        ("XDG_DATA_HOME", "/xdg"),
        ("HOME", "/home/u"),
    ]);
    assert_eq!(user_data_dir(&all), Some(PathBuf::from("/jp")));
    let xdg = env(&[("XDG_DATA_HOME", "/xdg"), ("HOME", "/home/u")]);
    assert_eq!(user_data_dir(&xdg), Some(PathBuf::from("/xdg/jp")));
    let relative_xdg = env(&[("XDG_DATA_HOME", "rel"), ("HOME", "/home/u")]);
    assert_eq!(
        user_data_dir(&relative_xdg),
        Some(PathBuf::from("/home/u/.local/share/jp"))
    );
    assert_eq!(user_data_dir(&env(&[])), None);
}

#[test]
fn without_a_silo_only_the_workspace_copy_is_listed() {
    let fx = Fixture::new();
    fs::remove_dir_all(fx.user_data.join("workspace")).unwrap();
    fx.add(
        Root::Workspace,
        "1000",
        &meta("W", "2026-01-01 10:00:00.0"),
        1,
        1000,
    );
    let ws = Workspace::discover(&fx.repo, &fx.env()).unwrap();
    assert_eq!(ws.user_root, None);
    assert_eq!(ws.conversations().len(), 1);
}
