use std::fs;

use super::*;
use crate::source::test_support::{Fixture, Root};

const META: &str = r#"{"title":"T","last_activated_at":"2026-01-01 10:00:00.0"}"#;

fn conversation(target: Target) -> ConversationDir {
    match target {
        Target::JpConversation(conv) => conv,
        other => panic!("expected a conversation, got {other:?}"),
    }
}

#[test]
fn events_file_and_conversation_folder_name_the_conversation() {
    let fx = Fixture::new();
    let dir = fx.add(Root::Workspace, "17758406187-title", META, 1, 1000);
    let env = fx.env();
    let by_file = conversation(
        locate(
            Some("repo/.jp/conversations/17758406187-title/events.json"),
            &fx.base,
            &env,
        )
        .unwrap(),
    );
    assert_eq!(by_file.dir, dir);
    assert_eq!(by_file.id.as_deref(), Some("17758406187"));
    assert!(!by_file.is_standalone());
    let by_dir = conversation(locate(Some(dir.to_str().unwrap()), &fx.base, &env).unwrap());
    assert_eq!(by_dir, by_file);
    let by_meta = conversation(
        locate(
            Some(dir.join("metadata.json").to_str().unwrap()),
            &fx.base,
            &env,
        )
        .unwrap(),
    );
    assert_eq!(by_meta, by_file);
}

#[test]
fn ndjson_and_object_lines_are_eve_streams() {
    let fx = Fixture::new();
    let env = fx.env();
    let ndjson = fx.base.join("run.ndjson");
    fs::write(&ndjson, "").unwrap();
    assert_eq!(
        locate(Some("run.ndjson"), &fx.base, &env).unwrap(),
        Target::EveStream(ndjson)
    );
    let log = fx.base.join("session.log");
    fs::write(&log, "\n\n  {\"type\":\"session.started\",\"meta\":{}}\n").unwrap();
    assert_eq!(
        locate(Some("session.log"), &fx.base, &env).unwrap(),
        Target::EveStream(log)
    );
}

#[test]
fn another_file_holding_an_array_is_a_lone_events_file() {
    let fx = Fixture::new();
    let file = fx.base.join("saved.json");
    fs::write(&file, "\n[\n]\n").unwrap();
    let conv = conversation(locate(Some("saved.json"), &fx.base, &fx.env()).unwrap());
    assert!(conv.is_standalone());
    assert_eq!(conv.events_path(), file);
}

#[test]
fn dash_is_stdin() {
    let fx = Fixture::new();
    assert_eq!(
        locate(Some("-"), &fx.base, &fx.env()).unwrap(),
        Target::Stdin
    );
}

#[test]
fn workspace_folder_subfolder_and_no_argument_name_the_workspace() {
    let fx = Fixture::new();
    fx.add(Root::Workspace, "100", META, 1, 1000);
    let env = fx.env();
    let sub = fx.repo.join("src");
    fs::create_dir(&sub).unwrap();
    for target in [
        locate(Some("repo"), &fx.base, &env).unwrap(),
        locate(Some("src"), &fx.repo, &env).unwrap(),
        locate(None, &sub, &env).unwrap(),
    ] {
        match target {
            Target::Workspace(ws) => assert_eq!(ws.root, fx.repo),
            other => panic!("expected the workspace, got {other:?}"),
        }
    }
}

#[test]
fn ids_in_both_spellings_find_the_conversation_in_either_root_and_archive() {
    let fx = Fixture::new();
    let archived = fx.add(Root::Workspace, ".archive/17758406187-old", META, 1, 1000);
    let local = fx.add(Root::User, "17760760747-local", META, 1, 1000);
    let env = fx.env();
    let a = conversation(locate(Some("jp-c17758406187"), &fx.repo, &env).unwrap());
    assert_eq!(a.dir, archived);
    let b = conversation(locate(Some("17758406187"), &fx.repo, &env).unwrap());
    assert_eq!(b.dir, archived);
    let c = conversation(locate(Some("jp-c17760760747"), &fx.repo, &env).unwrap());
    assert_eq!(c.dir, local);
    assert_eq!(c.id.as_deref(), Some("17760760747"));
}

#[test]
fn errors_name_the_path_in_one_line() {
    let fx = Fixture::new();
    let env = fx.env();
    let msg = |r: Result<Target, LocateError>| {
        let text = r.unwrap_err().to_string();
        assert!(!text.contains('\n'), "{text}");
        text
    };

    let missing = fx.base.join("nope.json");
    assert_eq!(
        msg(locate(Some("nope.json"), &fx.base, &env)),
        format!("{}: no such file or folder", missing.display())
    );

    let empty = fx.base.join("empty");
    fs::create_dir(&empty).unwrap();
    assert_eq!(
        msg(locate(Some("empty"), &fx.base, &env)),
        format!("{}: empty folder, not a JP conversation", empty.display())
    );

    let other = fx.base.join("other");
    fs::create_dir(&other).unwrap();
    fs::write(other.join("README"), "hi").unwrap();
    let text = msg(locate(Some("other"), &fx.base, &env));
    assert!(
        text.starts_with(&format!("{}: not a JP conversation", other.display())),
        "{text}"
    );

    // The fixture's workspace has no conversations yet.
    assert_eq!(
        msg(locate(None, &fx.repo, &env)),
        format!("{}: JP workspace without conversations", fx.repo.display())
    );

    fx.add(Root::Workspace, "100", META, 1, 1000);
    assert_eq!(
        msg(locate(Some("jp-c999"), &fx.repo, &env)),
        format!(
            "999: no such conversation in the JP workspace at {}",
            fx.repo.display()
        )
    );

    let text = msg(locate(None, &fx.base, &env));
    assert!(
        text.starts_with(&format!("{}: not inside a JP workspace", fx.base.display())),
        "{text}"
    );

    let binary = fx.base.join("image.png");
    fs::write(&binary, b"\x89PNG").unwrap();
    let text = msg(locate(Some("image.png"), &fx.base, &env));
    assert!(
        text.starts_with(&format!(
            "{}: line 1, column 1: '\u{fffd}' starts neither a JP events file",
            binary.display()
        )),
        "{text}"
    );

    let text_file = fx.base.join("notes.txt");
    fs::write(&text_file, "\n  hello").unwrap();
    let text = msg(locate(Some("notes.txt"), &fx.base, &env));
    assert!(
        text.starts_with(&format!(
            "{}: line 2, column 3: 'h' starts neither",
            text_file.display()
        )),
        "{text}"
    );

    let spaced = fx.base.join("spaced.jsonl");
    fs::write(&spaced, format!("{}{{}}\n", "\n".repeat(HEAD + 1))).unwrap();
    assert_eq!(
        msg(locate(Some("spaced.jsonl"), &fx.base, &env)),
        format!(
            "{}: nothing but whitespace in its first 64 KiB; a JP events file starts with `[`, a stream with `{{`",
            spaced.display()
        )
    );

    let blank = fx.base.join("blank.json");
    fs::write(&blank, "  \n").unwrap();
    assert!(
        msg(locate(Some("blank.json"), &fx.base, &env))
            .starts_with(&format!("{}: empty file; ", blank.display()))
    );
}

#[test]
fn an_existing_path_wins_over_an_id() {
    let fx = Fixture::new();
    let dir = fx.base.join("123");
    fs::create_dir(&dir).unwrap();
    fs::write(dir.join("events.json"), "[]").unwrap();
    let conv = conversation(locate(Some("123"), &fx.base, &fx.env()).unwrap());
    assert_eq!(conv.dir, dir);
}

#[test]
fn a_folder_of_conversation_folders_opens_like_a_workspace() {
    let fx = Fixture::new();
    fx.add(Root::User, "17758406187-first", META, 2, 1000);
    let earlier = r#"{"title":"Old","last_activated_at":"2025-12-01 10:00:00.0"}"#;
    fx.add(Root::User, ".archive/17758406190-old", earlier, 1, 900);
    let folder = fx.conversations(Root::User);
    // Not a conversation itself; a lone note beside the folders is ignored.
    fs::write(folder.join("notes.txt"), "x").unwrap();
    let env = fx.env();
    let Target::Workspace(ws) = locate(Some(folder.to_str().unwrap()), &fx.base, &env).unwrap()
    else {
        panic!("expected the folder as a workspace");
    };
    assert!(ws.plain_folder);
    let ids: Vec<String> = ws.conversations().into_iter().map(|c| c.id).collect();
    assert_eq!(ids, ["17758406187", "17758406190"]);
    // Locks are looked for where JP's user-local storage keeps them: beside.
    assert_eq!(
        ws.lock_files("17758406187"),
        [fx.locks(Root::User).join("jp-c17758406187.lock")]
    );
}

#[test]
fn a_folder_of_unrelated_folders_is_not_a_conversation() {
    let fx = Fixture::new();
    let dir = fx.base.join("photos/2026");
    fs::create_dir_all(&dir).unwrap();
    let env = fx.env();
    assert!(matches!(
        locate(Some("photos"), &fx.base, &env),
        Err(LocateError::NotAConversation(_))
    ));
}
