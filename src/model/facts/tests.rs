use serde_json::json;

use super::*;
use crate::model::EventKind;

fn blank() -> Event {
    Event::new(None, EventKind::TurnStart)
}

#[test]
fn absent_facts_read_as_defaults() {
    let e = blank();
    assert!(!final_reply(&e));
    assert_eq!(attempts(&e), 1);
    assert!(task(&e).is_none());
    assert!(turn_info(&e).is_none());
    assert!(session_end(&e).is_none());
    assert_eq!((outcome(&e), call_id(&e), turn_id(&e)), (None, None, None));
    assert!(!steering(&e) && !superseded(&e) && !interrupted(&e));
}

#[test]
fn a_task_is_written_under_its_documented_key_and_read_back() {
    let mut e = blank();
    let t = TaskStatus {
        status: Some(TaskState::Failed),
        code: Some("TIMED_OUT".into()),
        ended: true,
        ..TaskStatus::default()
    };
    assert!(set_value(&mut e, TASK, &t));
    assert!(!set_value(&mut e, TASK, &t), "the same value changes nothing");
    assert!(e.metadata.is_empty(), "facts are not metadata");
    assert_eq!(
        e.to_json()["metadata"],
        json!({"overhear.task": {"status": "failed", "code": "TIMED_OUT", "ended": true}})
    );
    assert_eq!(task(&e), Some(t));
}

#[test]
fn turn_facts_are_written_snake_case() {
    let mut e = blank();
    let info = TurnInfo {
        held: true,
        ended: Some(TurnEnd::Cancelled),
        turn_id: Some("turn_7".into()),
        ..TurnInfo::default()
    };
    set_value(&mut e, TURN, &info);
    assert_eq!(
        e.to_json()["metadata"][TURN.name()],
        json!({"turn_id": "turn_7", "held": true, "ended": "cancelled"})
    );
    assert_eq!(turn_id(&e), Some("turn_7"));
    assert_eq!(turn_info(&e), Some(info));
}

#[test]
fn flags_set_and_clear_and_no_fact_left_is_no_box() {
    let mut e = blank();
    assert!(set_flag(&mut e, FINAL_REPLY, true));
    assert!(!set_flag(&mut e, FINAL_REPLY, true));
    assert!(final_reply(&e));
    assert!(set_flag(&mut e, FINAL_REPLY, false));
    assert!(!final_reply(&e));
    assert!(!set_flag(&mut e, FINAL_REPLY, false));
    assert!(e.facts.is_none());
    assert_eq!(e, blank());
}

#[test]
fn one_attempt_is_not_marked() {
    let mut e = blank();
    assert!(!set_value(&mut e, ATTEMPTS, &1));
    assert_eq!(attempts(&e), 1);
    assert!(e.to_json().get("metadata").is_none());
    assert!(set_value(&mut e, ATTEMPTS, &3));
    assert_eq!(attempts(&e), 3);
    assert_eq!(e.to_json()["metadata"]["overhear.attempts"], json!(3));
}

/// `overhear events` output saved as a JP file reads back as the same
/// facts, and what the entry stored in `metadata` is written as stored.
#[test]
fn facts_written_out_read_back_and_stored_metadata_stays_as_written() {
    let mut e = Event::new(
        None,
        EventKind::InquiryRequest {
            id: "q".into(),
            source: Box::new(json!({"source": "tool"})),
            question: Box::new(json!({"text": "Deploy?"})),
        },
    );
    set_value(&mut e, CALL_ID, "deploy-call");
    set_flag(&mut e, STEERING, true);
    set_value(&mut e, OUTCOME, "approved");
    set_value(
        &mut e,
        SESSION,
        &SessionEnd {
            outcome: SessionOutcome::Failed,
            error: Some(ErrorInfo {
                code: "E".into(),
                message: "boom".into(),
            }),
        },
    );
    let written = e.to_json()["metadata"].as_object().unwrap().clone();
    assert_eq!(Facts::from_metadata(&written), e.facts);

    // An entry's own value under a fact's name (extra members, say) is
    // written back as it was stored, not as the fact reads it.
    let stored = json!({"overhear.turn": {"model": "m", "extra": [1, 2]}, "note": "x"});
    let map = stored.as_object().unwrap().clone();
    let mut e = blank();
    e.facts = Facts::from_metadata(&map);
    e.metadata = map.into();
    assert_eq!(turn_info(&e).and_then(|t| t.model).as_deref(), Some("m"));
    assert_eq!(e.to_json()["metadata"], stored);
}

#[test]
fn metadata_without_facts_or_with_misshapen_ones_makes_none() {
    let none = |v: serde_json::Value| Facts::from_metadata(v.as_object().unwrap());
    assert_eq!(none(json!({"rendered_arguments": "x"})), None);
    assert_eq!(
        none(json!({"overhear.final_reply": "yes", "overhear.turn": 3})),
        None
    );
}

#[test]
fn redaction_reaches_the_texts_and_leaves_the_ids() {
    let mut e = blank();
    let task = TaskStatus {
        task_id: Some("secret-id".into()),
        message: Some("secret".into()),
        output: Some(json!({"k": "secret"})),
        ..TaskStatus::default()
    };
    set_value(&mut e, TASK, &task);
    set_value(&mut e, CALL_ID, "secret-call");
    set_value(&mut e, OUTCOME, "secret");
    let facts = e.facts.as_mut().unwrap();
    facts.texts_mut(
        &mut |t| *t = t.replace("secret", "[r]"),
        &mut |v| *v = json!("[r]"),
    );
    let task = super::task(&e).unwrap();
    assert_eq!(task.message.as_deref(), Some("[r]"));
    assert_eq!(task.output, Some(json!("[r]")));
    assert_eq!(task.task_id.as_deref(), Some("secret-id"));
    assert_eq!(outcome(&e), Some("[r]"));
    assert_eq!(call_id(&e), Some("secret-call"));
}

#[test]
fn a_turn_edited_in_place_says_whether_it_changed_and_leaves_no_empty_facts() {
    let mut e = blank();
    assert!(!edit_turn(&mut e, |_| false), "nothing asked, nothing made");
    assert!(e.facts.is_none(), "no empty turn facts left behind");
    assert!(edit_turn(&mut e, |info| {
        info.output_tokens = Some(7);
        true
    }));
    assert!(!edit_turn(&mut e, |_| false));
    assert_eq!(turn_info(&e).and_then(|info| info.output_tokens), Some(7));
}
