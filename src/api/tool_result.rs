//! A tool's result as a tool author hands it to [`card()`](crate::card): an
//! MCP `CallToolResult` or plain text, checked field by field.

use serde_json::{Map, Value};

use super::Error;
use crate::model::{Block, Content};
use crate::problem::json_kind;

/// Block types a `CallToolResult` may hold: MCP's five, and JP's `question`
/// (RFD 058). The display policy shows the ones it cannot draw as
/// `[unsupported block: TYPE]`, as in a conversation.
const BLOCK_TYPES: [&str; 6] = [
    "text",
    "image",
    "audio",
    "resource_link",
    "resource",
    "question",
];

/// One tool result: its content blocks (or one plain text) and whether the
/// tool failed.
///
/// ```
/// let result = overhear::ToolResult::from_json(
///     r#"{"content":[{"type":"text","text":"done","annotations":{"audience":["user"]}}]}"#,
/// )?;
/// assert!(!result.is_error());
/// let plain = overhear::ToolResult::text("fn main() {}").with_error(true);
/// assert!(plain.is_error());
/// # Ok::<(), overhear::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResult {
    pub(crate) content: Content,
    pub(crate) is_error: bool,
}

impl ToolResult {
    /// A plain-text result: one block with no audience (addressed to both the
    /// user and the model), as every JP conversation stores results today.
    ///
    /// ```
    /// let result = overhear::ToolResult::text("3 files changed");
    /// assert!(!result.is_error());
    /// ```
    pub fn text(text: impl Into<String>) -> ToolResult {
        ToolResult {
            content: Content::Text(text.into()),
            is_error: false,
        }
    }

    /// The same result, marked as failed (`isError`) or not.
    ///
    /// ```
    /// let failed = overhear::ToolResult::text("no such file").with_error(true);
    /// assert!(failed.is_error());
    /// ```
    pub fn with_error(mut self, is_error: bool) -> ToolResult {
        self.is_error = is_error;
        self
    }

    /// Whether the tool failed.
    ///
    /// ```
    /// assert!(!overhear::ToolResult::text("ok").is_error());
    /// ```
    pub fn is_error(&self) -> bool {
        self.is_error
    }

    /// Reads an MCP `CallToolResult` written as JSON text; see
    /// [`ToolResult::from_value`] for what is checked.
    ///
    /// ```
    /// let err = overhear::ToolResult::from_json(r#"{"content":[{"type":"vid"}]}"#).unwrap_err();
    /// assert_eq!(err.to_string(), r#"content[0]: unknown block type "vid""#);
    /// ```
    pub fn from_json(text: &str) -> Result<ToolResult, Error> {
        let value: Value = serde_json::from_str(text).map_err(|err| {
            Error::tool_result(format!(
                "line {}, column {}: {}",
                err.line(),
                err.column(),
                json_problem(&err)
            ))
        })?;
        ToolResult::from_value(value)
    }

    /// Reads an MCP `CallToolResult`: `content` (an array of blocks: `text`,
    /// `image`, `audio`, `resource_link`, `resource`, or JP's `question`, each
    /// with its required fields and an optional `annotations.audience` of
    /// `"user"` and `"assistant"`) and `isError` (JP's `is_error` is
    /// accepted too). A mistake is an error naming the field, e.g.
    /// `content[2].annotations.audience[0]: expected "user" or "assistant", found "model"`.
    ///
    /// ```
    /// use serde_json::json;
    /// let result = overhear::ToolResult::from_value(json!({
    ///     "content": [{"type": "text", "text": "Saved.", "annotations": {"audience": ["user"]}}],
    ///     "isError": false,
    /// }))?;
    /// assert!(!result.is_error());
    /// # Ok::<(), overhear::Error>(())
    /// ```
    pub fn from_value(value: Value) -> Result<ToolResult, Error> {
        let Value::Object(mut map) = value else {
            return Err(Error::tool_result(format!(
                "expected a CallToolResult object, found {}",
                json_kind(&value)
            )));
        };
        let is_error = match (map.remove("isError"), map.remove("is_error")) {
            (Some(flag), _) => boolean(&flag, "isError")?,
            (None, Some(flag)) => boolean(&flag, "is_error")?,
            (None, None) => false,
        };
        let blocks = match map.remove("content") {
            Some(Value::Array(blocks)) => blocks,
            Some(other) => {
                return Err(Error::tool_result(format!(
                    "content: expected an array of blocks, found {}",
                    json_kind(&other)
                )));
            }
            None => {
                return Err(Error::tool_result(
                    "content: missing (a CallToolResult holds an array of content blocks)",
                ));
            }
        };
        for (index, block) in blocks.iter().enumerate() {
            check_block(block, &format!("content[{index}]"))?;
        }
        Ok(ToolResult {
            content: Content::Blocks(blocks.into_iter().map(Block).collect()),
            is_error,
        })
    }

    /// Reads a result as `overhear card --result` does: text that is a JSON
    /// object with a `content` or `isError` key is a `CallToolResult`
    /// ([`ToolResult::from_value`]); text starting with `{` that is not JSON
    /// is an error (a broken result file, named by line and column); any
    /// other text is the plain text of the result.
    ///
    /// ```
    /// let plain = overhear::ToolResult::parse(r#"{"files": 3}"#)?;
    /// assert_eq!(plain, overhear::ToolResult::text(r#"{"files": 3}"#));
    /// assert!(overhear::ToolResult::parse(r#"{"content": [], "isError": true}"#)?.is_error());
    /// # Ok::<(), overhear::Error>(())
    /// ```
    pub fn parse(text: &str) -> Result<ToolResult, Error> {
        if !text.trim_start().starts_with('{') {
            return Ok(ToolResult::text(text));
        }
        let value: Value = match serde_json::from_str(text) {
            Ok(value) => value,
            Err(_) => return ToolResult::from_json(text),
        };
        let is_envelope = value.as_object().is_some_and(|map| {
            ["content", "isError", "is_error"]
                .iter()
                .any(|k| map.contains_key(*k))
        });
        if is_envelope {
            ToolResult::from_value(value)
        } else {
            Ok(ToolResult::text(text))
        }
    }
}

/// Checks one content block at `place` (`content[2]`).
fn check_block(block: &Value, place: &str) -> Result<(), Error> {
    let fail = |problem: String| Err(Error::tool_result(format!("{place}{problem}")));
    let Value::Object(map) = block else {
        return fail(format!(
            ": expected a content block object, found {}",
            json_kind(block)
        ));
    };
    let kind = match map.get("type") {
        Some(Value::String(kind)) => kind.as_str(),
        Some(other) => {
            return fail(format!(
                ".type: expected a string, found {}",
                json_kind(other)
            ));
        }
        None => return fail(".type: missing".to_string()),
    };
    if !BLOCK_TYPES.contains(&kind) {
        return fail(format!(": unknown block type {kind:?}"));
    }
    match kind {
        "text" => string_field(map, "text", place)?,
        "image" | "audio" => {
            string_field(map, "data", place)?;
            string_field(map, "mimeType", place)?;
        }
        "resource_link" => {
            string_field(map, "uri", place)?;
            string_field(map, "name", place)?;
        }
        "resource" => check_resource(map.get("resource"), &format!("{place}.resource"))?,
        _ => object_field(map, "question", place)?,
    }
    if let Some(mime) = map.get("mimeType")
        && !mime.is_string()
    {
        return fail(format!(
            ".mimeType: expected a string, found {}",
            json_kind(mime)
        ));
    }
    check_annotations(map.get("annotations"), &format!("{place}.annotations"))?;
    if let Some(Value::Object(resource)) = map.get("resource") {
        check_annotations(
            resource.get("annotations"),
            &format!("{place}.resource.annotations"),
        )?;
    }
    Ok(())
}

/// An embedded resource: `uri` and `text` or `blob`.
fn check_resource(resource: Option<&Value>, place: &str) -> Result<(), Error> {
    let map = match resource {
        Some(Value::Object(map)) => map,
        Some(other) => {
            return Err(Error::tool_result(format!(
                "{place}: expected an object, found {}",
                json_kind(other)
            )));
        }
        None => return Err(Error::tool_result(format!("{place}: missing"))),
    };
    string_field(map, "uri", place)?;
    match (map.get("text"), map.get("blob")) {
        (Some(_), _) => string_field(map, "text", place),
        (None, Some(_)) => string_field(map, "blob", place),
        (None, None) => Err(Error::tool_result(format!(
            "{place}: expected \"text\" or \"blob\""
        ))),
    }
}

/// `annotations.audience`, when present: a list of `user` and `assistant`.
fn check_annotations(annotations: Option<&Value>, place: &str) -> Result<(), Error> {
    let map = match annotations {
        None => return Ok(()),
        Some(Value::Object(map)) => map,
        Some(other) => {
            return Err(Error::tool_result(format!(
                "{place}: expected an object, found {}",
                json_kind(other)
            )));
        }
    };
    let roles = match map.get("audience") {
        None => return Ok(()),
        Some(Value::Array(roles)) => roles,
        Some(other) => {
            return Err(Error::tool_result(format!(
                "{place}.audience: expected a list of \"user\" and \"assistant\", found {}",
                json_kind(other)
            )));
        }
    };
    for (index, role) in roles.iter().enumerate() {
        if !matches!(role.as_str(), Some("user" | "assistant")) {
            return Err(Error::tool_result(format!(
                "{place}.audience[{index}]: expected \"user\" or \"assistant\", found {}",
                shown(role)
            )));
        }
    }
    Ok(())
}

/// A required string field of a block.
fn string_field(map: &Map<String, Value>, key: &str, place: &str) -> Result<(), Error> {
    match map.get(key) {
        Some(Value::String(_)) => Ok(()),
        Some(other) => Err(Error::tool_result(format!(
            "{place}.{key}: expected a string, found {}",
            json_kind(other)
        ))),
        None => Err(Error::tool_result(format!("{place}.{key}: missing"))),
    }
}

/// A required object field of a block.
fn object_field(map: &Map<String, Value>, key: &str, place: &str) -> Result<(), Error> {
    match map.get(key) {
        Some(Value::Object(_)) => Ok(()),
        Some(other) => Err(Error::tool_result(format!(
            "{place}.{key}: expected an object, found {}",
            json_kind(other)
        ))),
        None => Err(Error::tool_result(format!("{place}.{key}: missing"))),
    }
}

/// `isError`: a boolean.
fn boolean(value: &Value, key: &str) -> Result<bool, Error> {
    value.as_bool().ok_or_else(|| {
        Error::tool_result(format!(
            "{key}: expected true or false, found {}",
            json_kind(value)
        ))
    })
}

/// A value as an error message names it: strings quoted, others by kind.
fn shown(value: &Value) -> String {
    match value {
        Value::String(text) => format!("{text:?}"),
        other => json_kind(other).to_string(),
    }
}

/// serde_json's message without its own ` at line L column C` suffix.
fn json_problem(err: &serde_json::Error) -> String {
    let message = err.to_string();
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message,
    }
}
