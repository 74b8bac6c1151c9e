//! A Claude Code transcript's figures (`format::figures_of`) in one pass
//! over its lines, each decoded only as far as the figures need: the
//! envelope, a response's `id`, `model` and `usage`, and of each content
//! block its type, call id and failure flag. Text, tool arguments and
//! results are skipped, not built. A prompt's record (small) and a title's
//! are parsed whole and told by the reader's own code ([`user::said`]).
//!
//! It follows the reader (`State::record`) rule for rule: records written
//! twice (same `uuid`) count once, an inline sub-agent's records count for
//! nothing, usage is counted once per `message.id` and summed per turn,
//! and a turn is what `Conversation` groups. A call written again while
//! unanswered is one call only if it asks the same: the scan cannot tell
//! without its arguments, and gives up (`None`).

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::user::{self, Said};
use crate::format::figures::{Figures, LineScan, Turns, scan};
use crate::format::transcript::looks_like_time;
use crate::model::facts::TurnInfo;

/// The figures of a Claude Code transcript, or `None` when a line is one
/// the scan does not read exactly.
pub(crate) fn figures(bytes: &[u8]) -> Option<Figures> {
    scan::<Scan>(bytes)
}

/// What the lines read so far said.
#[derive(Default)]
struct Scan {
    figures: Figures,
    seen_uuids: HashSet<String>,
    /// Whether the file is a sub-agent's own (its first conversation record
    /// is a sidechain).
    sidechain_file: Option<bool>,
    /// By call id: how many calls are unanswered, and whether the latest
    /// is one of them.
    calls: HashMap<String, (usize, bool)>,
    /// The turns; the current one's facts once a response stated usage.
    turns: Turns,
    /// The current turn's responses' usage by `message.id`.
    usage: HashMap<String, [u64; 4]>,
    model: Option<String>,
    /// Title candidates: custom, ai, summary.
    titles: [Option<String>; 3],
    first_prompt_line: Option<String>,
}

impl LineScan for Scan {
    fn line(&mut self, line: &[u8]) -> Option<()> {
        if line.first() != Some(&b'{') {
            return None;
        }
        let record: Record = serde_json::from_slice(line).ok()?;
        if let Some(uuid) = &record.uuid
            && !self.seen_uuids.insert(uuid.to_string())
        {
            return Some(()); // written twice: no event
        }
        let kind = record.kind.as_deref().unwrap_or("");
        let time = record.timestamp.as_deref().filter(|t| looks_like_time(t));
        if matches!(kind, "user" | "assistant") {
            let own = *self.sidechain_file.get_or_insert(record.sidechain);
            if record.sidechain && !own {
                // An inline sub-agent's record: raw view only.
                self.figures.saw_time(time);
                return Some(());
            }
        }
        let events = match kind {
            "user" => self.user(&record, line)?,
            "assistant" => self.assistant(&record)?,
            _ => {
                if let Some((slot, key)) = super::title_slot(kind) {
                    let value: Value = serde_json::from_slice(line).ok()?;
                    if let Some(title) = value.get(key).and_then(Value::as_str) {
                        self.titles[slot] = Some(title.to_string());
                    }
                }
                true // a notice or the record kept for the raw view
            }
        };
        if events {
            self.figures.saw_time(time);
        }
        Some(())
    }

    fn finish(self) -> Figures {
        let mut figures = self.figures;
        self.turns.finish(&mut figures);
        figures.title = self
            .titles
            .into_iter()
            .flatten()
            .next()
            .or(self.first_prompt_line);
        figures
    }
}

impl Scan {
    /// A `user` record: tool results, or what [`user::said`] tells.
    /// Always makes an event.
    fn user(&mut self, record: &Record, line: &[u8]) -> Option<bool> {
        let blocks = match record.message.as_ref().map(|m| &m.content) {
            Some(Content::Blocks(blocks)) => blocks.as_slice(),
            _ => &[],
        };
        let mut results = blocks
            .iter()
            .filter_map(|block| match block {
                Block::Object(object) if object.kind.as_deref() == Some("tool_result") => {
                    Some(object)
                }
                _ => None,
            })
            .peekable();
        if results.peek().is_some() {
            for result in results {
                let id = result.tool_use_id.as_deref().unwrap_or("");
                if let Some((open, latest_open)) = self.calls.get_mut(id)
                    && *open > 0
                {
                    // The nearest unanswered call is answered: the latest
                    // one when it is still open.
                    *open -= 1;
                    *latest_open = false;
                }
                self.failures_and_holding(result.is_error);
            }
            return Some(true);
        }
        let value: Value = serde_json::from_slice(line).ok()?;
        if let Said::Prompt { typed, .. } = user::said(&value) {
            self.open_turn();
            if self.first_prompt_line.is_none() {
                self.first_prompt_line = typed
                    .lines()
                    .map(str::trim)
                    .find(|line| !line.is_empty())
                    .map(str::to_owned);
            }
        }
        Some(true)
    }

    /// Counts a tool result.
    fn failures_and_holding(&mut self, failed: bool) {
        self.hold();
        if failed {
            self.figures.failures += 1;
        }
    }

    /// Notes an event a turn holds.
    fn hold(&mut self) {
        self.turns.hold();
    }

    /// A prompt opens a turn.
    fn open_turn(&mut self) {
        self.turns.open();
        self.usage.clear();
    }

    /// An `assistant` record: its blocks, then its usage. Whether it made
    /// an event.
    fn assistant(&mut self, record: &Record) -> Option<bool> {
        if record.api_error {
            return Some(true); // a notice
        }
        let message = record.message.as_ref();
        let events = match message.map(|m| &m.content) {
            Some(Content::Text) => {
                self.hold();
                true
            }
            Some(Content::Blocks(blocks)) => {
                let mut any = false;
                for block in blocks {
                    any |= self.block(block)?;
                }
                any
            }
            Some(Content::Other) | None => true, // kept for the raw view
        };
        if let Some(message) = message {
            self.count_usage(message);
        }
        Some(events)
    }

    /// One content block of a response: whether it made an event.
    fn block(&mut self, block: &Block) -> Option<bool> {
        let shown = match block {
            Block::Text(nonempty) => *nonempty,
            Block::Other => true, // an unsupported block, said so
            Block::Object(object) => match object.kind.as_deref().unwrap_or("") {
                "text" => object.text.is_some_and(|Nonempty(n)| n),
                "tool_use" | "server_tool_use" => {
                    let id = object.id.as_deref().unwrap_or("");
                    let (open, latest_open) = self.calls.entry(id.to_string()).or_default();
                    if *latest_open {
                        // Written again while unanswered: the same call only if
                        // it asks the same, which the arguments would tell.
                        return None;
                    }
                    *open += 1;
                    *latest_open = true;
                    self.figures.tool_calls += 1;
                    true
                }
                _ => true,
            },
        };
        if shown {
            self.hold();
        }
        Some(shown)
    }

    /// A response's usage, once per `message.id` (the last line wins), into
    /// the current turn's facts.
    fn count_usage(&mut self, message: &Message) {
        let (true, Some(id), Some(usage)) =
            (self.turns.any_prompt(), message.id.as_deref(), message.usage.as_ref())
        else {
            return;
        };
        let count = |key: &str| usage.get(key).and_then(Value::as_u64).unwrap_or(0);
        let read = count("cache_read_input_tokens");
        let written = count("cache_creation_input_tokens");
        let input = count("input_tokens") + written + read;
        self.usage
            .insert(id.to_string(), [input, count("output_tokens"), read, written]);
        if let Some(model) = message.model.as_deref().filter(|m| *m != "<synthetic>") {
            self.model = Some(model.to_string());
        }
        let sum = self.usage.values().fold([0; 4], |mut sum, counts| {
            sum.iter_mut().zip(counts).for_each(|(s, c)| *s += c);
            sum
        });
        self.turns.current = Some(TurnInfo {
            input_tokens: Some(sum[0]),
            output_tokens: Some(sum[1]),
            cache_read_tokens: Some(sum[2]),
            cache_write_tokens: Some(sum[3]),
            model: self.model.clone(),
            ..TurnInfo::default()
        });
    }
}

/// A record's envelope: what the figures need, the rest skipped.
#[derive(Deserialize)]
struct Record<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    uuid: Option<Cow<'a, str>>,
    #[serde(rename = "isSidechain", default, deserialize_with = "flag")]
    sidechain: bool,
    #[serde(rename = "isApiErrorMessage", default, deserialize_with = "flag")]
    api_error: bool,
    #[serde(borrow, default)]
    timestamp: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    message: Option<Message<'a>>,
}

/// A record's `message`.
#[derive(Deserialize)]
struct Message<'a> {
    #[serde(borrow, default)]
    id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    model: Option<Cow<'a, str>>,
    /// Present (even `null`) or not, as the reader tells it.
    #[serde(default, deserialize_with = "present")]
    usage: Option<Value>,
    #[serde(borrow, default)]
    content: Content<'a>,
}

/// A `message.content`.
#[derive(Default)]
enum Content<'a> {
    /// A string.
    Text,
    /// An array of blocks.
    Blocks(Vec<Block<'a>>),
    /// Anything else, or nothing.
    #[default]
    Other,
}

/// One content block.
enum Block<'a> {
    /// A bare string: whether it is not empty.
    Text(bool),
    /// An object.
    Object(BlockObject<'a>),
    /// Anything else.
    Other,
}

/// What the figures need of a block object.
#[derive(Deserialize)]
struct BlockObject<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    tool_use_id: Option<Cow<'a, str>>,
    #[serde(default, deserialize_with = "flag")]
    is_error: bool,
    #[serde(default)]
    text: Option<Nonempty>,
}

/// Whether a value is a non-empty string (anything else reads as empty),
/// told without keeping it.
#[derive(Clone, Copy)]
struct Nonempty(bool);

/// `true` only for JSON `true` (the reader's `as_bool() == Some(true)`).
fn flag<'de, D: Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    Ok(deserializer.deserialize_any(Kind)? == Some(true))
}

/// Any value, `null` included, as present.
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

/// Reads any value, skipping what it holds: `Some(b)` for a boolean,
/// `Some(false)` for a non-empty string, `None` otherwise. The two small
/// facts [`flag`] and [`Nonempty`] need.
struct Kind;

impl<'de> Visitor<'de> for Kind {
    type Value = Option<bool>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(Some(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok((!v.is_empty()).then_some(false))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(None)
    }
}

impl<'de> Deserialize<'de> for Nonempty {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Nonempty(deserializer.deserialize_any(Kind)? == Some(false)))
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Content<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Of<'a>(std::marker::PhantomData<Content<'a>>);
        impl<'de: 'a, 'a> Visitor<'de> for Of<'a> {
            type Value = Content<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a message content")
            }
            fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
                Ok(Content::Text)
            }
            fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
                Ok(Content::Other)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
                Ok(Content::Other)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
                Ok(Content::Other)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
                Ok(Content::Other)
            }
            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(Content::Other)
            }
            fn visit_none<E>(self) -> Result<Self::Value, E> {
                Ok(Content::Other)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut blocks = Vec::new();
                while let Some(block) = seq.next_element()? {
                    blocks.push(block);
                }
                Ok(Content::Blocks(blocks))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Content::Other)
            }
        }
        deserializer.deserialize_any(Of(std::marker::PhantomData))
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Block<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Of<'a>(std::marker::PhantomData<Block<'a>>);
        impl<'de: 'a, 'a> Visitor<'de> for Of<'a> {
            type Value = Block<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a content block")
            }
            fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Block::Text(!v.is_empty()))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
                Ok(Block::Other)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
                Ok(Block::Other)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
                Ok(Block::Other)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
                Ok(Block::Other)
            }
            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(Block::Other)
            }
            fn visit_none<E>(self) -> Result<Self::Value, E> {
                Ok(Block::Other)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Block::Other)
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                BlockObject::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(Block::Object)
            }
        }
        deserializer.deserialize_any(Of(std::marker::PhantomData))
    }
}
