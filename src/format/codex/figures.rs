//! A Codex rollout's figures (`format::figures_of`) in one pass over its
//! lines, each decoded only as far as the figures need: the envelope's
//! time and type, and of the payload the fields that decide a turn, a call,
//! a failure, a reply shown and the usage. Instructions, reasoning, tool
//! arguments and the events' output copies are skipped, not built; a tool
//! output's text is decoded, as the failure rules (§3.8) read it.
//!
//! It follows the reader ([`super::State`]) rule for rule, through the
//! reader's own functions: a prompt from `user_message` or from a user
//! `message` that is not injected context (the other copy of it opening no
//! turn), a reply shown once of its two copies (an event, so its time
//! counts, only when shown), usage as the growth of `total_token_usage`
//! over a turn, an output's failure by its text unless an extended-mode
//! event says otherwise. A call written again while unanswered is one call
//! only if it asks the same, and a `thread_name_updated` without a name
//! leaves the title to when the viewer looked: the scan gives up (`None`)
//! on both, and the reader reads the file.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use super::{Spoken, UserItem, output};
use crate::format::figures::{Figures, LineScan, Turns, scan};
use crate::format::transcript::looks_like_time;
use crate::model::facts::TurnInfo;

/// The figures of a Codex rollout, or `None` when a line is one the scan
/// does not read exactly.
pub(crate) fn figures(bytes: &[u8]) -> Option<Figures> {
    scan::<Scan>(bytes)
}

/// What the lines read so far said.
#[derive(Default)]
struct Scan {
    figures: Figures,
    /// The turns (something a turn holds: speech, reasoning, a call, an
    /// output); the current one's facts.
    turns: Turns,
    /// The current turn's prompt and whether `user_message` gave it.
    prompt: Option<(String, bool)>,
    spoken: Spoken,
    /// By call id: how many calls are unanswered, and whether the latest
    /// is one of them.
    calls: HashMap<String, (usize, bool)>,
    /// Each output's failure flag, as it stands.
    failed: Vec<bool>,
    /// By call id: the latest output's place in `failed`.
    outputs: HashMap<String, usize>,
    /// Failure verdicts of extended-mode events that came before their
    /// output.
    verdicts: HashMap<String, bool>,
    usage_at_start: (u64, u64, u64),
    usage_now: (u64, u64, u64),
    model: Option<String>,
    title: Option<String>,
    first_prompt_line: Option<String>,
}

impl LineScan for Scan {
    fn line(&mut self, line: &[u8]) -> Option<()> {
        if line.first() != Some(&b'{') {
            return None;
        }
        let record: Envelope = serde_json::from_slice(line).ok()?;
        let time = record.timestamp.0.as_deref().filter(|t| looks_like_time(t));
        let kind = record.kind.0.as_deref();
        let payload = record.payload.as_ref().map(|p| &p.0);
        let events = match (kind, payload) {
            (Some("response_item"), Some(item)) => self.item(item)?,
            (Some("event_msg"), Some(event)) => self.event(event)?,
            (Some("turn_context"), Some(context)) => {
                if let Some(model) = &context.model.0 {
                    self.model = Some(model.to_string());
                    self.update_turn();
                }
                true
            }
            // A legacy rollout: bare response items.
            (Some(_), None) if record.record_type.is_none() => {
                let item: Payload = serde_json::from_slice(line).ok()?;
                self.item(&item)?
            }
            _ => true,
        };
        if events {
            self.figures.saw_time(time);
        }
        Some(())
    }

    fn finish(self) -> Figures {
        let mut figures = self.figures;
        self.turns.finish(&mut figures);
        figures.failures = self.failed.iter().filter(|f| **f).count();
        figures.title = self.title.or(self.first_prompt_line);
        figures
    }
}

impl Scan {
    /// A `response_item`: whether it made an event; `None` to give up.
    fn item(&mut self, item: &Payload) -> Option<bool> {
        let call_id = item.call_id.0.as_deref().unwrap_or("");
        Some(match item.kind.0.as_deref().unwrap_or("") {
            "message" => self.message(item),
            "reasoning" => {
                self.hold();
                true
            }
            "function_call" | "custom_tool_call" | "local_shell_call" => self.call(call_id)?,
            "function_call_output" | "custom_tool_call_output" => {
                let (text, mut failed) = output::judge(output::text(item.output.as_ref()));
                if let Some(verdict) = self.verdicts.remove(call_id) {
                    failed = verdict;
                }
                self.failed.push(failed || output::refused(&text));
                if let Some((open, latest_open)) = self.calls.get_mut(call_id)
                    && *open > 0
                {
                    *open -= 1;
                    *latest_open = false;
                }
                self.outputs
                    .insert(call_id.to_string(), self.failed.len() - 1);
                self.hold();
                true
            }
            _ => true,
        })
    }

    /// A call, unless it is written again while unanswered (`None`).
    fn call(&mut self, id: &str) -> Option<bool> {
        let (open, latest_open) = self.calls.entry(id.to_string()).or_default();
        if *latest_open {
            return None;
        }
        *open += 1;
        *latest_open = true;
        self.outputs.remove(id);
        self.verdicts.remove(id);
        self.figures.tool_calls += 1;
        self.hold();
        Some(true)
    }

    /// A `message` item: a reply, a prompt or context.
    fn message(&mut self, item: &Payload) -> bool {
        let texts = super::message_texts(item.content.as_ref());
        match item.role.0.as_deref() {
            Some("assistant") => self.speak(&super::spoken_text(&texts), true),
            Some("user") => {
                if let UserItem::Typed(typed) = super::user_item(&texts) {
                    let mirror = matches!(&self.prompt,
                        Some((prompt, true)) if super::same_prompt(prompt, &typed));
                    if !mirror {
                        self.open_turn(&typed, false);
                    }
                }
                true
            }
            _ => true,
        }
    }

    /// Speech: an event only when shown.
    fn speak(&mut self, text: &str, original: bool) -> bool {
        let shown = self.spoken.shown(text, original).is_some();
        if shown {
            self.hold();
        }
        shown
    }

    /// An `event_msg`: whether it made an event; `None` to give up.
    fn event(&mut self, event: &Payload) -> Option<bool> {
        let call_id = event.call_id.0.as_deref().unwrap_or("");
        let message = event.message.0.as_deref().unwrap_or("");
        match event.kind.0.as_deref().unwrap_or("") {
            "user_message" => {
                if event.kind_of_message.0.as_deref().is_some_and(|k| k != "plain") {
                    return Some(true);
                }
                match &mut self.prompt {
                    Some((prompt, from_event @ false)) if super::same_prompt(prompt, message) => {
                        *from_event = true;
                    }
                    _ => {
                        let images = event.images.0 + event.local_images.0;
                        self.open_turn(&super::with_images(message, images), true);
                    }
                }
            }
            "agent_message" => return Some(self.speak(message, false)),
            "token_count" => {
                if let Some(total) = super::total_usage(event.info.as_ref()) {
                    self.usage_now = total;
                    self.update_turn();
                }
            }
            "task_complete" | "turn_complete" | "turn_aborted" => self.update_turn(),
            "thread_name_updated" => self.title = Some(event.thread_name.0.as_deref()?.to_string()),
            kind @ ("exec_command_end" | "patch_apply_end" | "mcp_tool_call_end") => {
                let mut fields = Map::new();
                for (key, value) in [
                    ("exit_code", &event.exit_code),
                    ("success", &event.success),
                    ("result", &event.result),
                ] {
                    if let Some(value) = value {
                        fields.insert(key.into(), value.clone());
                    }
                }
                if let Some(failed) = super::verdict(kind, &Value::Object(fields)) {
                    match self.outputs.get(call_id) {
                        Some(&at) => self.failed[at] = failed,
                        None => {
                            self.verdicts.insert(call_id.to_string(), failed);
                        }
                    }
                }
            }
            _ => {}
        }
        Some(true)
    }

    /// Notes an event a turn holds.
    fn hold(&mut self) {
        self.turns.hold();
    }

    /// A prompt opens a turn.
    fn open_turn(&mut self, text: &str, from_event: bool) {
        self.turns.open();
        self.turns.current = Some(TurnInfo::default());
        self.prompt = Some((text.trim().to_string(), from_event));
        self.spoken.clear();
        self.usage_at_start = self.usage_now;
        self.update_turn();
        if self.first_prompt_line.is_none() {
            self.first_prompt_line = super::request(text)
                .lines()
                .map(str::trim)
                .find(|line| !line.is_empty())
                .map(str::to_owned);
        }
    }

    /// The reader's `update_turn`: the turn's tokens so far and its model.
    fn update_turn(&mut self) {
        let Some(info) = &mut self.turns.current else { return };
        let (input, output, cached) = (
            self.usage_now.0.saturating_sub(self.usage_at_start.0),
            self.usage_now.1.saturating_sub(self.usage_at_start.1),
            self.usage_now.2.saturating_sub(self.usage_at_start.2),
        );
        if input > 0 || output > 0 {
            info.input_tokens = Some(input);
            info.output_tokens = Some(output);
            info.cache_read_tokens = Some(cached);
        }
        info.model.clone_from(&self.model);
    }
}

/// A rollout line's envelope.
#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(borrow, default)]
    timestamp: Text<'a>,
    #[serde(rename = "type", borrow, default)]
    kind: Text<'a>,
    /// Present (any value, `null` included) or not, as the reader tells it.
    #[serde(borrow, default, deserialize_with = "present")]
    payload: Option<AnyPayload<'a>>,
    #[serde(default, deserialize_with = "present")]
    record_type: Option<IgnoredAny>,
}

/// What the figures need of a payload (a response item or an event; a
/// legacy rollout's bare item). Unknown keys are skipped.
#[derive(Deserialize, Default)]
struct Payload<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Text<'a>,
    #[serde(borrow, default)]
    role: Text<'a>,
    #[serde(borrow, default)]
    call_id: Text<'a>,
    #[serde(default)]
    content: Option<Value>,
    #[serde(default)]
    output: Option<Value>,
    #[serde(borrow, default)]
    message: Text<'a>,
    /// A `user_message`'s `kind`.
    #[serde(rename = "kind", borrow, default)]
    kind_of_message: Text<'a>,
    #[serde(default)]
    images: Count,
    #[serde(default)]
    local_images: Count,
    #[serde(default)]
    info: Option<Value>,
    #[serde(borrow, default)]
    thread_name: Text<'a>,
    #[serde(default)]
    exit_code: Option<Value>,
    #[serde(default)]
    success: Option<Value>,
    #[serde(default)]
    result: Option<Value>,
    #[serde(borrow, default)]
    model: Text<'a>,
}

/// An envelope's `payload`: anything but an object reads as an empty one
/// (as the reader's `get` finds nothing in it).
#[derive(Default)]
struct AnyPayload<'a>(Payload<'a>);

/// Any value, `null` included, as present.
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(deserializer).map(Some)
}

/// A value read as the reader's `str_at` reads it: its text when it is a
/// string, else nothing (skipped, not built).
#[derive(Default)]
struct Text<'a>(Option<Cow<'a, str>>);

/// A value read as `as_array().len()`: how many items an array holds
/// (skipped, not built), 0 for anything else.
#[derive(Default)]
struct Count(usize);

/// Skips a map or a sequence.
fn skip<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
    Ok(())
}

/// The visitor methods of a lenient reader for the values it does not
/// keep: each reads as the target's `Default`.
macro_rules! anything_else_is_default {
    () => {
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
    };
}

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Of<'a>(std::marker::PhantomData<Text<'a>>);
        impl<'de: 'a, 'a> Visitor<'de> for Of<'a> {
            type Value = Text<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Text(Some(Cow::Borrowed(v))))
            }
            fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Text(Some(Cow::Owned(v.to_string()))))
            }
            fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
                Ok(Text(Some(Cow::Owned(v))))
            }
            anything_else_is_default!();
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Text(None))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                skip(map).map(|()| Text(None))
            }
        }
        deserializer.deserialize_any(Of(std::marker::PhantomData))
    }
}

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Of;
        impl<'de> Visitor<'de> for Of {
            type Value = Count;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
                Ok(Count(0))
            }
            anything_else_is_default!();
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut n = 0;
                while seq.next_element::<IgnoredAny>()?.is_some() {
                    n += 1;
                }
                Ok(Count(n))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                skip(map).map(|()| Count(0))
            }
        }
        deserializer.deserialize_any(Of)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for AnyPayload<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Of<'a>(std::marker::PhantomData<AnyPayload<'a>>);
        impl<'de: 'a, 'a> Visitor<'de> for Of<'a> {
            type Value = AnyPayload<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
                Ok(AnyPayload::default())
            }
            anything_else_is_default!();
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(AnyPayload::default())
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                Payload::deserialize(de::value::MapAccessDeserializer::new(map)).map(AnyPayload)
            }
        }
        deserializer.deserialize_any(Of(std::marker::PhantomData))
    }
}
