//! The real eve streams (`$OVERHEAR_EVE_CORPUS`, eve's own conformance
//! recordings): every stream reads cleanly, nothing said is lost, every task
//! outcome is shown, and the corpus manifest's expectations hold. Without the
//! variable the test says "skipped" and passes.

use crate::common;

use crate::common::eve_support;

use std::collections::BTreeSet;
use std::path::PathBuf;

use overhear::format::eve::EveReader;
use overhear::model::facts::{self, TaskState, TaskStatus};
use overhear::model::{ChatResponse, EventKind};
use serde_json::Value;

fn originals_of<'a>(r: &'a EveReader, kind: &'a str) -> impl Iterator<Item = Value> + 'a {
    r.originals()
        .iter()
        .filter_map(|o| o.fields())
        .filter(move |v| v["type"] == kind)
        .map(|mut v| v["data"].take())
}

fn task_of(r: &EveReader, task_id: &str) -> TaskStatus {
    r.events()
        .iter()
        .filter_map(facts::task)
        .find(|t| t.task_id.as_deref() == Some(task_id))
        .unwrap_or_else(|| panic!("no call carries task {task_id}"))
}

fn state(name: &str) -> TaskState {
    serde_json::from_value(Value::from(name)).expect("task status")
}

#[test]
fn every_corpus_stream_reads_completely() {
    let Some(dir) = common::corpus::eve_dir() else {
        return;
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("corpus readable")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ndjson"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "corpus holds streams");
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let r = EveReader::read_all(&std::fs::read(&path).unwrap());
        assert!(r.diagnostics().is_empty(), "{name}: {:?}", r.diagnostics());

        // Every completed message is in the canonical events.
        let messages: Vec<&str> = r
            .events()
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::ChatResponse(ChatResponse::Message(Some(m))) => Some(m.as_str()),
                _ => None,
            })
            .collect();
        for data in originals_of(&r, "message.completed") {
            if let Some(text) = data["message"].as_str() {
                assert!(messages.contains(&text), "{name}: lost message {text:?}");
            }
        }
        // Every user message is a chat_request; task results are not.
        let requests: Vec<&str> = r
            .events()
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::ChatRequest { content, .. } => Some(content.as_str()),
                _ => None,
            })
            .collect();
        for data in originals_of(&r, "message.received") {
            let text = data["message"].as_str().unwrap();
            let is_result = data["kind"] == "task.result";
            assert_eq!(requests.contains(&text), !is_result, "{name}: {text:?}");
        }
        // Every call result is a response.
        for data in originals_of(&r, "action.result") {
            let call = data["result"]["callId"].as_str().unwrap();
            eve_support::find_call(&r, "tool_call_response", call);
        }
        // Every task outcome is on its call.
        for data in originals_of(&r, "task.settled") {
            let task = task_of(&r, data["taskId"].as_str().unwrap());
            assert_eq!(
                task.status,
                Some(state(data["status"].as_str().unwrap())),
                "{name}"
            );
            if let Some(code) = data["error"]["code"].as_str() {
                assert_eq!(task.code.as_deref(), Some(code), "{name}");
            }
        }
        // One turn_start per turn id; held turns resume under their id.
        let turn_ids: BTreeSet<String> = originals_of(&r, "turn.started")
            .filter_map(|d| d["turnId"].as_str().map(str::to_string))
            .collect();
        let turns = eve_support::turns(&r);
        assert_eq!(turns.len(), turn_ids.len(), "{name}: turn count");
        assert!(
            turns.iter().all(|t| t.ended.is_some() && !t.held),
            "{name}: every turn ended"
        );
        // Each turn's last message is its final reply.
        assert_eq!(
            r.events().iter().filter(|e| facts::final_reply(e)).count(),
            turns.len(),
            "{name}: one final reply per turn"
        );
        let ended = originals_of(&r, "session.completed").count()
            + originals_of(&r, "session.failed").count();
        assert_eq!(r.finished(), ended > 0, "{name}: finished");
    }
}

#[test]
fn corpus_manifest_expectations_hold() {
    let Some(dir) = common::corpus::eve_dir() else {
        return;
    };
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).expect("manifest"))
            .expect("manifest is JSON");
    let fixtures = manifest["fixtures"].as_array().expect("fixtures list");
    assert!(!fixtures.is_empty());
    for fixture in fixtures {
        let file = fixture["file"].as_str().unwrap();
        let r = EveReader::read_all(&std::fs::read(dir.join(file)).unwrap());
        for expected in fixture["tasks"].as_array().unwrap() {
            let task = task_of(&r, expected["taskId"].as_str().unwrap());
            let what = format!("{file}: {}", expected["taskId"]);
            assert_eq!(
                task.name.as_deref(),
                expected["name"].as_str(),
                "{what} name"
            );
            assert_eq!(
                task.kind.as_deref(),
                expected["kind"].as_str(),
                "{what} kind"
            );
            assert_eq!(
                task.mode.as_deref(),
                expected["mode"].as_str(),
                "{what} mode"
            );
            assert_eq!(
                task.status,
                Some(state(expected["status"].as_str().unwrap())),
                "{what} status"
            );
            assert_eq!(
                task.code.as_deref(),
                expected["errorCode"].as_str(),
                "{what} code"
            );
            assert_eq!(
                Some(task.remote),
                expected["remote"].as_bool(),
                "{what} remote"
            );
            assert_eq!(
                Some(u64::from(task.input_requests)),
                expected["inputRequests"].as_u64(),
                "{what} input requests"
            );
            assert_eq!(
                Some(task.delivered),
                expected["delivered"].as_bool(),
                "{what} delivered"
            );
            assert_eq!(
                Some(task.ended),
                expected["ended"].as_bool(),
                "{what} ended"
            );
        }
    }
}
