//! The canonical events every input format is turned into: JP's vocabulary.
//!
//! The model, the policy and the renderer only ever see these types, so a JP
//! conversation and an eve stream go through one set of rules. Text held here
//! is already decoded (base64 removed) but not yet sanitized: sanitizing is a
//! display concern and happens in `render`.

use std::borrow::Cow;
use std::sync::Arc;

use compact_str::CompactString;
use serde_json::{Map, Value};

use super::facts::Facts;

/// One entry of a conversation stream, decoded.
///
/// The timestamp and the ids are [`CompactString`]s: as large as a `String`,
/// but holding up to 24 bytes in place, so an RFC 3339 time with
/// milliseconds (`2026-02-01T12:34:56.789Z`) or a short id costs no
/// allocation of its own: a followed stream keeps every event
/// (docs/hardening.md, the flood).
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// The stored timestamp, verbatim (JP's human format or RFC 3339).
    pub timestamp: Option<CompactString>,
    /// What happened.
    pub kind: EventKind,
    /// The event's `metadata` map (string leaves base64-decoded), empty when
    /// absent, and its RFD 098 `request_id` ([`Event::request_id`]).
    pub metadata: Metadata,
    /// RFD 097 stable identity, when the writer stored one.
    pub event_id: Option<CompactString>,
    /// What the reader learned beyond JP's fields (final reply, attempts,
    /// task, turn facts, …), read and set through [`super::facts`]; boxed,
    /// and `None` for most events.
    pub facts: Option<Box<Facts>>,
}

/// What JP stores beside an event's kind and rarely: its `metadata` map and
/// its RFD 098 `request_id`. Most events have neither: then it is one null
/// pointer (a `serde_json::Map` is 72 bytes even when empty, and a followed
/// stream holds every event).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Metadata(Option<Box<Stored>>);

/// The parts behind [`Metadata`]'s pointer.
#[derive(Debug, Clone, Default, PartialEq)]
struct Stored {
    map: Map<String, Value>,
    request_id: Option<CompactString>,
}

impl Metadata {
    /// The `metadata` map and the `request_id` an entry stored.
    pub fn stored(map: Map<String, Value>, request_id: Option<CompactString>) -> Metadata {
        let empty = map.is_empty() && request_id.is_none();
        Metadata((!empty).then(|| Box::new(Stored { map, request_id })))
    }

    /// The value under `key`, if any.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.as_deref()?.map.get(key)
    }

    /// Sets `key` to `value`; returns the value it had.
    #[cfg(any(test, feature = "internals"))]
    pub fn insert(&mut self, key: String, value: Value) -> Option<Value> {
        self.0.get_or_insert_default().map.insert(key, value)
    }

    /// Removes `key`; returns the value it had. The box is dropped once
    /// nothing is left in it.
    #[cfg(any(test, feature = "internals"))]
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let stored = self.0.as_deref_mut()?;
        let old = stored.map.remove(key);
        if stored.map.is_empty() && stored.request_id.is_none() {
            self.0 = None;
        }
        old
    }

    /// Whether the map has no keys.
    pub fn is_empty(&self) -> bool {
        self.0.as_ref().is_none_or(|stored| stored.map.is_empty())
    }

    /// The values, to change them in place (redaction).
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut Value> {
        self.0.iter_mut().flat_map(|stored| stored.map.values_mut())
    }

    /// The keys and values, in stored order.
    #[cfg(any(test, feature = "internals"))]
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.0.iter().flat_map(|stored| stored.map.iter())
    }

    /// A copy of the map.
    pub fn to_map(&self) -> Map<String, Value> {
        self.0
            .as_deref()
            .map(|stored| stored.map.clone())
            .unwrap_or_default()
    }

    /// The RFD 098 link to the originating `chat_request`, when stored.
    pub fn request_id(&self) -> Option<&str> {
        self.0.as_deref()?.request_id.as_deref()
    }
}

impl From<Map<String, Value>> for Metadata {
    fn from(map: Map<String, Value>) -> Self {
        Metadata::stored(map, None)
    }
}

impl std::ops::Index<&str> for Metadata {
    type Output = Value;

    /// The value under `key`, `null` when there is none (as `Value`'s index).
    fn index(&self, key: &str) -> &Value {
        const NULL: &Value = &Value::Null;
        self.get(key).unwrap_or(NULL)
    }
}

/// The kinds of event JP stores, plus `Unknown` for anything else.
#[derive(Debug, Clone, PartialEq)]
pub enum EventKind {
    /// Opens a turn (only if the current turn already holds an event).
    TurnStart,
    /// What the user said.
    ChatRequest {
        /// The message text.
        content: String,
        /// Display name of the author, cosmetic.
        author: Option<String>,
        /// JSON Schema of a structured-output request (boxed: rare and large).
        schema: Option<Box<Value>>,
    },
    /// What the assistant said or thought.
    ChatResponse(ChatResponse),
    /// The assistant asks for a tool to run.
    ToolCallRequest {
        /// Call id; ids repeat, pair by nearest unanswered request.
        id: String,
        /// Tool name.
        name: String,
        /// Arguments, string leaves decoded. Behind a pointer (a `Value` is
        /// 72 bytes) that is shared: a JP file read in outline gives each of
        /// its calls the same empty arguments, not an allocation each
        /// (`Arc::make_mut` changes them).
        arguments: Arc<Value>,
    },
    /// A tool's result.
    ToolCallResponse {
        /// The id of the request this answers.
        id: String,
        /// The result: a string or RFD 058 blocks.
        content: Content,
        /// Whether the tool failed.
        is_error: bool,
    },
    /// A question asked during a tool call (or by the assistant).
    InquiryRequest {
        /// Inquiry id, conventionally `<tool_call_id>.<question_id>`.
        id: String,
        /// Who asks (`{"source": "tool", "name": …}` etc.), kept as stored.
        source: Box<Value>,
        /// `{text, answer_type, default?}`, kept as stored.
        question: Box<Value>,
    },
    /// The answer to an inquiry.
    InquiryResponse {
        /// The inquiry id.
        id: String,
        /// The answer (bool, option value, text), kept as stored.
        answer: Box<Value>,
    },
    /// A change of configuration that applies from the next turn on.
    ConfigDelta {
        /// The partial configuration, as its text: a conversation may hold
        /// hundreds of thousands, each merged once ([`super::JsonText`]).
        delta: super::JsonText,
    },
    /// A compaction overlay, kept as stored (projection-only).
    Compaction(Box<Map<String, Value>>),
    /// Any other entry, kept verbatim (including `type` when it had one).
    Unknown(Box<Value>),
}

/// The three shapes of `chat_response`.
#[derive(Debug, Clone, PartialEq)]
pub enum ChatResponse {
    /// Assistant speech; `None` is an explicit `null` (intentional silence, eve).
    Message(Option<String>),
    /// Reasoning text (may be empty for redacted thinking).
    Reasoning(String),
    /// Structured output.
    Data(Box<Value>),
}

/// A tool result's content as stored.
#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    /// A plain string (every JP file today): one unannotated text block.
    Text(String),
    /// An RFD 058 block array.
    Blocks(Vec<Block>),
}

/// Who a content block is addressed to (display-policy §1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Audience {
    /// Only the user.
    User,
    /// Only the assistant.
    Assistant,
    /// Both, or no annotation.
    Both,
}

impl Audience {
    /// Reads the roles of an `audience` list. Roles other than `user` and
    /// `assistant` are ignored; a list naming neither means both (like no list).
    pub fn from_names<'a, I>(names: I) -> Self
    where
        I: IntoIterator<Item = &'a str>,
    {
        let (mut user, mut assistant) = (false, false);
        for name in names {
            match name {
                "user" => user = true,
                "assistant" => assistant = true,
                _ => {}
            }
        }
        match (user, assistant) {
            (true, false) => Audience::User,
            (false, true) => Audience::Assistant,
            _ => Audience::Both,
        }
    }

    /// Whether a block with this audience is addressed to the user.
    pub fn includes_user(self) -> bool {
        matches!(self, Audience::User | Audience::Both)
    }

    /// Whether a block with this audience is addressed to the assistant.
    pub fn includes_assistant(self) -> bool {
        matches!(self, Audience::Assistant | Audience::Both)
    }
}

/// One RFD 058 content block, kept as its stored JSON so views print it back
/// unchanged; accessors read the fields the display rules need.
#[derive(Debug, Clone, PartialEq)]
pub struct Block(pub Value);

impl Block {
    /// A `text` block with optional mime type and audience.
    pub fn text(
        text: impl Into<String>,
        mime_type: Option<&str>,
        audience: Option<Audience>,
    ) -> Self {
        let mut map = Map::new();
        map.insert("type".into(), Value::from("text"));
        map.insert("text".into(), Value::from(text.into()));
        if let Some(mime) = mime_type {
            map.insert("mimeType".into(), Value::from(mime));
        }
        let names: &[&str] = match audience {
            Some(Audience::User) => &["user"],
            Some(Audience::Assistant) => &["assistant"],
            Some(Audience::Both) => &["user", "assistant"],
            None => &[],
        };
        if audience.is_some() {
            let list = names.iter().map(|n| Value::from(*n)).collect();
            let mut annotations = Map::new();
            annotations.insert("audience".into(), Value::Array(list));
            map.insert("annotations".into(), Value::Object(annotations));
        }
        Block(Value::Object(map))
    }

    /// The block's `type` (`text`, `resource`, `question`, or anything else).
    pub fn kind(&self) -> &str {
        self.0.get("type").and_then(Value::as_str).unwrap_or("")
    }

    /// The audience from `annotations.audience` (absent or empty → both).
    pub fn audience(&self) -> Audience {
        let list = self
            .0
            .get("annotations")
            .or_else(|| self.0.get("resource").and_then(|r| r.get("annotations")))
            .and_then(|a| a.get("audience"))
            .and_then(Value::as_array);
        match list {
            Some(list) => Audience::from_names(list.iter().filter_map(Value::as_str)),
            None => Audience::Both,
        }
    }

    /// The block's mime type (`mimeType`, or the resource's).
    pub fn mime_type(&self) -> Option<&str> {
        self.0
            .get("mimeType")
            .or_else(|| self.0.get("resource").and_then(|r| r.get("mimeType")))
            .and_then(Value::as_str)
    }

    /// The displayable text: `text` of a text block, `formatted` or
    /// `resource.text` of a resource, `question.text` of a question.
    pub fn display_text(&self) -> Option<&str> {
        let v = &self.0;
        match self.kind() {
            "text" => v.get("text").and_then(Value::as_str),
            "resource" => v
                .get("formatted")
                .or_else(|| v.get("resource").and_then(|r| r.get("formatted")))
                .or_else(|| v.get("resource").and_then(|r| r.get("text")))
                .and_then(Value::as_str),
            "question" => v
                .get("question")
                .and_then(|q| q.get("text"))
                .and_then(Value::as_str),
            _ => None,
        }
    }
}

/// A borrowed view of one content block: what display needs, no text copied.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BlockView<'a> {
    /// The block's `type`.
    pub kind: &'a str,
    /// Its displayable text, if it has one.
    pub text: Option<&'a str>,
    /// Its mime type.
    pub mime_type: Option<&'a str>,
    /// Whom it is addressed to.
    pub audience: Audience,
}

impl Content {
    /// The content as block views: a string is one unannotated text block.
    pub fn views(&self) -> Vec<BlockView<'_>> {
        match self {
            Content::Text(text) => vec![BlockView {
                kind: "text",
                text: Some(text),
                mime_type: None,
                audience: Audience::Both,
            }],
            Content::Blocks(blocks) => blocks
                .iter()
                .map(|b| BlockView {
                    kind: b.kind(),
                    text: b.display_text(),
                    mime_type: b.mime_type(),
                    audience: b.audience(),
                })
                .collect(),
        }
    }

    /// All displayable text joined by newlines (for search and paging).
    pub fn plain_text(&self) -> Cow<'_, str> {
        match self {
            Content::Text(text) => Cow::Borrowed(text),
            Content::Blocks(blocks) => Cow::Owned(
                blocks
                    .iter()
                    .filter_map(Block::display_text)
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
        }
    }
}

/// What [`Event::forget_text`] leaves of a text: nothing, and in a debug
/// build a marker, so that a test catches a text read after it was
/// forgotten (`export` tests look for it in every page).
#[cfg(feature = "cli")]
pub const FORGOTTEN: &str = if cfg!(debug_assertions) {
    "[overhear: forgotten text]"
} else {
    ""
};

impl Event {
    /// An event with no metadata, facts or identity, for readers and tests.
    pub fn new(timestamp: Option<String>, kind: EventKind) -> Self {
        Event {
            timestamp: timestamp.map(CompactString::from),
            kind,
            metadata: Metadata::default(),
            event_id: None,
            facts: None,
        }
    }

    /// Lets go of what the event says — a message, reasoning, structured
    /// output, a call's arguments, a result — keeping its kind, ids, times
    /// and facts: for a reader that has shown the event and will not read
    /// it again (the export, a turn at a time). Questions, answers and
    /// configuration changes are kept (small, and a configuration change
    /// is read by every later turn's policy). What is left is [`FORGOTTEN`].
    #[cfg(feature = "cli")]
    pub fn forget_text(&mut self) {
        let forgotten = || FORGOTTEN.to_string();
        match &mut self.kind {
            EventKind::ChatRequest {
                content, schema, ..
            } => {
                *content = forgotten();
                *schema = None;
            }
            EventKind::ChatResponse(ChatResponse::Message(Some(text)) | ChatResponse::Reasoning(text)) => {
                *text = forgotten();
            }
            EventKind::ChatResponse(ChatResponse::Data(data)) => **data = Value::String(forgotten()),
            EventKind::ToolCallRequest { arguments, .. } => {
                *arguments = Arc::new(Value::String(forgotten()));
            }
            EventKind::ToolCallResponse { content, .. } => *content = Content::Text(forgotten()),
            EventKind::TurnStart
            | EventKind::ChatResponse(ChatResponse::Message(None))
            | EventKind::InquiryRequest { .. }
            | EventKind::InquiryResponse { .. }
            | EventKind::ConfigDelta { .. }
            | EventKind::Compaction(_)
            | EventKind::Unknown(_) => {}
        }
    }

    /// RFD 098 link to the originating `chat_request`, when stored.
    pub fn request_id(&self) -> Option<&str> {
        self.metadata.request_id()
    }

    /// The `type` tag this event is stored under.
    pub fn type_name(&self) -> &str {
        match &self.kind {
            EventKind::TurnStart => "turn_start",
            EventKind::ChatRequest { .. } => "chat_request",
            EventKind::ChatResponse(_) => "chat_response",
            EventKind::ToolCallRequest { .. } => "tool_call_request",
            EventKind::ToolCallResponse { .. } => "tool_call_response",
            EventKind::InquiryRequest { .. } => "inquiry_request",
            EventKind::InquiryResponse { .. } => "inquiry_response",
            EventKind::ConfigDelta { .. } => "config_delta",
            EventKind::Compaction(_) => "compaction",
            EventKind::Unknown(v) => v.get("type").and_then(Value::as_str).unwrap_or("unknown"),
        }
    }

    /// The event in JP's stored shape (keys as JP writes them, text decoded),
    /// its facts under their `overhear.*` names in `metadata` after what
    /// the entry stored there (which is kept as it is).
    pub fn to_json(&self) -> Value {
        let mut map = Map::new();
        if let EventKind::Unknown(value) = &self.kind {
            return (**value).clone();
        }
        if let Some(id) = &self.event_id {
            map.insert("event_id".into(), Value::from(id.as_str()));
        }
        let config_like = matches!(
            self.kind,
            EventKind::ConfigDelta { .. } | EventKind::Compaction(_)
        );
        if config_like {
            map.insert("type".into(), Value::from(self.type_name()));
        }
        if let Some(ts) = &self.timestamp {
            map.insert("timestamp".into(), Value::from(ts.as_str()));
        }
        if !config_like {
            map.insert("type".into(), Value::from(self.type_name()));
        }
        if let Some(id) = self.request_id() {
            map.insert("request_id".into(), Value::from(id));
        }
        match &self.kind {
            EventKind::TurnStart | EventKind::Unknown(_) => {}
            EventKind::ChatRequest {
                content,
                author,
                schema,
            } => {
                map.insert("content".into(), Value::from(content.as_str()));
                if let Some(schema) = schema {
                    map.insert("schema".into(), (**schema).clone());
                }
                if let Some(author) = author {
                    map.insert("author".into(), Value::from(author.as_str()));
                }
            }
            EventKind::ChatResponse(response) => {
                let (key, value) = match response {
                    ChatResponse::Message(text) => {
                        ("message", text.clone().map_or(Value::Null, Value::from))
                    }
                    ChatResponse::Reasoning(text) => ("reasoning", Value::from(text.as_str())),
                    ChatResponse::Data(data) => ("data", (**data).clone()),
                };
                map.insert(key.into(), value);
            }
            EventKind::ToolCallRequest {
                id,
                name,
                arguments,
            } => {
                map.insert("id".into(), Value::from(id.as_str()));
                map.insert("name".into(), Value::from(name.as_str()));
                map.insert("arguments".into(), (**arguments).clone());
            }
            EventKind::ToolCallResponse {
                id,
                content,
                is_error,
            } => {
                map.insert("id".into(), Value::from(id.as_str()));
                let content = match content {
                    Content::Text(text) => Value::from(text.as_str()),
                    Content::Blocks(blocks) => {
                        Value::Array(blocks.iter().map(|b| b.0.clone()).collect())
                    }
                };
                map.insert("content".into(), content);
                map.insert("is_error".into(), Value::Bool(*is_error));
            }
            EventKind::InquiryRequest {
                id,
                source,
                question,
            } => {
                map.insert("id".into(), Value::from(id.as_str()));
                map.insert("source".into(), (**source).clone());
                map.insert("question".into(), (**question).clone());
            }
            EventKind::InquiryResponse { id, answer } => {
                map.insert("id".into(), Value::from(id.as_str()));
                map.insert("answer".into(), (**answer).clone());
            }
            EventKind::ConfigDelta { delta } => {
                map.insert("delta".into(), delta.value());
            }
            EventKind::Compaction(rest) => {
                for (k, v) in rest.iter() {
                    map.insert(k.clone(), v.clone());
                }
            }
        }
        if !self.metadata.is_empty() || self.facts.is_some() {
            let mut metadata = self.metadata.to_map();
            if let Some(facts) = &self.facts {
                facts.write_into(&mut metadata);
            }
            map.insert("metadata".into(), Value::Object(metadata));
        }
        Value::Object(map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A followed stream holds every event: an `Event` is sized by its
    /// largest kind, so the rare large payloads are boxed (it was 312
    /// bytes, then 144 with `request_id` unboxed; `request_id` shares the
    /// metadata's box since the facts have one of their own).
    #[test]
    fn an_event_stays_small() {
        assert!(
            std::mem::size_of::<EventKind>() <= 64,
            "EventKind is {} bytes",
            std::mem::size_of::<EventKind>()
        );
        assert!(
            std::mem::size_of::<Event>() <= 128,
            "Event is {} bytes",
            std::mem::size_of::<Event>()
        );
    }
}
