//! The viewer's own style configuration: a TOML file using JP's key paths and
//! repeatable `--set KEY=VALUE` overrides (display-policy §3.1, layer 3).
//!
//! The overlay replaces only the fields it names. Its mistakes are the user's own,
//! so they are errors (the CLI exits 2), never warnings — and unlike a stored
//! conversation config, unknown keys and `null`s are rejected.
//!
//! Accepted keys: `conversation.tools.<name>.style.<key>` (`<name>` may be `"*"`,
//! `<key>` one of `hidden`, `header`, `parameters`, `inline_results`,
//! `results_file_link`, `error`), `style.reasoning.display` and
//! `style.tool_call.show`.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Map, Value};

use super::error::{StyleError, child, tool_style_path};
use super::reasoning::ReasoningDisplay;
use super::style::{PartialToolStyle, Strictness};

/// What the viewer's configuration says, on top of a conversation's own config.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Overlay {
    /// The configuration as written (file, then each `--set` merged in), kept so
    /// that a later `--set` of `inline_results.user` can join an earlier
    /// `inline_results.assistant`.
    doc: Map<String, Value>,
    /// Parsed style layer per tool name (`"*"` included).
    tools: BTreeMap<String, PartialToolStyle>,
    tool_calls_shown: Option<bool>,
    reasoning: Option<ReasoningDisplay>,
    /// The user's configuration file, a layer under this one (docs/config.md):
    /// under a JP conversation's own configuration, over a format's built-in
    /// styles.
    user: Option<Box<Overlay>>,
}

/// A rejected viewer configuration; the message names the file (or the `--set`),
/// the key and the value.
#[derive(Debug, thiserror::Error)]
pub enum OverlayError {
    /// The file could not be read.
    #[error("{file}: cannot read the viewer configuration: {source}")]
    Read {
        /// The file, as given.
        file: String,
        /// Why reading failed: not a file, or the system refused.
        #[source]
        source: crate::files::read::SettingError,
    },
    /// The file is not valid TOML.
    #[error("{file}: {message}")]
    Syntax {
        /// The file, as given.
        file: String,
        /// Where and what, on one line: `line 1, column 5: string values must be quoted`.
        message: String,
    },
    /// A key the viewer does not know, or a value of the wrong form.
    #[error("{origin}: {source}")]
    Invalid {
        /// The file, or `--set <assignment>`.
        origin: String,
        /// The key path, value and problem.
        #[source]
        source: StyleError,
    },
    /// A `--set` argument that is not `KEY=VALUE` with a well-formed key path.
    #[error("--set {assignment}: {problem}")]
    Assignment {
        /// The argument as given.
        assignment: String,
        /// What is wrong with it.
        problem: String,
    },
}

/// The TOML text of a configuration as a table of JSON values (the form a
/// JP configuration takes). It is parsed as TOML first, so that a mistake
/// is worded as TOML (a number too large for a TOML integer), never as
/// JSON's; `origin` names the file in errors.
pub fn toml_table(text: &str, origin: &str) -> Result<Map<String, Value>, OverlayError> {
    let syntax = |message| OverlayError::Syntax {
        file: origin.to_owned(),
        message,
    };
    let table: toml::Table =
        toml::from_str(text).map_err(|err| syntax(super::error::toml_problem(text, &err)))?;
    match serde_json::to_value(table) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Ok(Map::new()),
        Err(err) => Err(syntax(err.to_string())),
    }
}

impl Overlay {
    /// Reads a TOML viewer configuration file.
    pub fn from_toml_file(path: impl AsRef<Path>) -> Result<Overlay, OverlayError> {
        let path = path.as_ref();
        let file = path.display().to_string();
        let text = crate::files::read_setting(path).map_err(|source| OverlayError::Read {
            file: file.clone(),
            source,
        })?;
        Overlay::from_toml_str(&text, &file)
    }

    /// Parses a TOML viewer configuration; `origin` names it in errors.
    pub fn from_toml_str(text: &str, origin: &str) -> Result<Overlay, OverlayError> {
        interpret(toml_table(text, origin)?, origin)
    }

    /// Checks a configuration already parsed into a table (the style keys of
    /// the user's configuration file); `origin` names it in errors.
    #[cfg(feature = "cli")]
    pub fn from_table(doc: Map<String, Value>, origin: &str) -> Result<Overlay, OverlayError> {
        interpret(doc, origin)
    }

    /// This overlay with `user` (the user's configuration file) as the layer
    /// under it; an empty `user` is no layer.
    #[cfg(feature = "cli")]
    pub fn with_user_layer(mut self, user: Overlay) -> Overlay {
        self.user = (!user.is_empty()).then(|| Box::new(user));
        self
    }

    /// The user's configuration file layer, when there is one.
    pub fn user_layer(&self) -> Option<&Overlay> {
        self.user.as_deref()
    }

    /// The configuration as written, in JP's key paths.
    pub fn document(&self) -> &Map<String, Value> {
        &self.doc
    }

    /// `self` as the layer under `top`: `top`'s values win key by key, as
    /// `--set` does; the result has no user layer of its own.
    pub fn under(&self, top: &Overlay) -> Overlay {
        let mut doc = self.doc.clone();
        merge_overlay(&mut doc, &top.doc);
        // Two valid documents merge into a valid one; should that ever fail,
        // the layer on top is the one the user asked for last.
        interpret(doc, "").unwrap_or_else(|_| Overlay {
            user: None,
            ..top.clone()
        })
    }

    /// Applies one `--set KEY=VALUE` (e.g.
    /// `conversation.tools.fs_read_file.style.inline_results=full`).
    ///
    /// The key is a dotted path; a segment holding dots or `*` may be double-quoted
    /// (`conversation.tools."*".style.header=off`). The value is JSON when it parses
    /// as JSON (`true`, `10`, `{"user":"chat"}`), else the text as a string. A
    /// path inside a value (`….inline_results.user=chat`) joins what is already set
    /// there when both are audience maps. On error the overlay is unchanged.
    pub fn set(&mut self, assignment: &str) -> Result<(), OverlayError> {
        let fail = |problem: &str| OverlayError::Assignment {
            assignment: assignment.to_owned(),
            problem: problem.to_owned(),
        };
        let (key, raw) = assignment
            .split_once('=')
            .ok_or_else(|| fail("expected KEY=VALUE, e.g. conversation.tools.fs_read_file.style.inline_results=full"))?;
        let segments = parse_key_path(key.trim()).map_err(|problem| fail(&problem.to_string()))?;
        let value =
            serde_json::from_str::<Value>(raw).unwrap_or_else(|_| Value::String(raw.to_owned()));
        let delta = segments.iter().rev().fold(value, |inner, key| {
            Value::Object(Map::from_iter([(key.clone(), inner)]))
        });
        let Value::Object(delta) = delta else {
            return Err(fail("expected KEY=VALUE with a non-empty KEY"));
        };
        let mut doc = self.doc.clone();
        merge_overlay(&mut doc, &delta);
        let user = self.user.take();
        let result = interpret(doc, &format!("--set {assignment}"));
        match result {
            Ok(overlay) => {
                *self = Overlay { user, ..overlay };
                Ok(())
            }
            Err(err) => {
                self.user = user;
                Err(err)
            }
        }
    }

    /// True when the overlay names nothing.
    #[cfg(feature = "cli")]
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty() && self.tool_calls_shown.is_none() && self.reasoning.is_none()
    }

    /// The overlay's style fields for `tool` (`"*"` for every tool).
    pub fn tool(&self, tool: &str) -> Option<&PartialToolStyle> {
        self.tools.get(tool)
    }

    /// Every tool name the overlay has style fields for (`"*"` included).
    pub fn tool_names(&self) -> impl Iterator<Item = &str> {
        self.tools.keys().map(String::as_str)
    }

    /// `style.tool_call.show`, when set.
    pub fn tool_calls_shown(&self) -> Option<bool> {
        self.tool_calls_shown
    }

    /// `style.reasoning.display`, when set.
    pub fn reasoning(&self) -> Option<ReasoningDisplay> {
        self.reasoning
    }
}

/// Turns a configuration document into an overlay, checking every key and value.
fn interpret(doc: Map<String, Value>, origin: &str) -> Result<Overlay, OverlayError> {
    let invalid = |source: StyleError| OverlayError::Invalid {
        origin: origin.to_owned(),
        source,
    };
    let mut overlay = Overlay::default();
    for (key, value) in &doc {
        match key.as_str() {
            "conversation" => {
                for (key, tools) in table(value, "conversation").map_err(invalid)? {
                    if key != "tools" {
                        return Err(invalid(unknown(&child("conversation", key), tools)));
                    }
                    for (name, entry) in table(tools, "conversation.tools").map_err(invalid)? {
                        let entry_path = child("conversation.tools", name);
                        for (key, style) in table(entry, &entry_path).map_err(invalid)? {
                            if key != "style" {
                                return Err(invalid(unknown(&child(&entry_path, key), style)));
                            }
                            let (layer, errors) = PartialToolStyle::parse(
                                style,
                                &tool_style_path(name),
                                Strictness::Strict,
                            );
                            if let Some(err) = errors.into_iter().next() {
                                return Err(invalid(err));
                            }
                            overlay.tools.insert(name.clone(), layer);
                        }
                    }
                }
            }
            "style" => {
                for (key, section) in table(value, "style").map_err(invalid)? {
                    let section_path = child("style", key);
                    let fields = match key.as_str() {
                        "reasoning" | "tool_call" => {
                            table(section, &section_path).map_err(invalid)?
                        }
                        _ => return Err(invalid(unknown(&section_path, section))),
                    };
                    for (field, value) in fields {
                        let path = child(&section_path, field);
                        match (key.as_str(), field.as_str()) {
                            ("reasoning", "display") => {
                                match ReasoningDisplay::from_value(value, &path) {
                                    (_, Some(err)) => return Err(invalid(err)),
                                    (display, None) => overlay.reasoning = Some(display),
                                }
                            }
                            ("tool_call", "show") => match value {
                                Value::Bool(show) => overlay.tool_calls_shown = Some(*show),
                                _ => {
                                    return Err(invalid(StyleError::new(
                                        &path,
                                        value,
                                        "is not a boolean (expected true or false)",
                                    )));
                                }
                            },
                            _ => return Err(invalid(unknown(&path, value))),
                        }
                    }
                }
            }
            _ => return Err(invalid(unknown(key, value))),
        }
    }
    overlay.doc = doc;
    Ok(overlay)
}

/// The entries of a table, or an error naming `path`.
fn table<'a>(value: &'a Value, path: &str) -> Result<&'a Map<String, Value>, StyleError> {
    value
        .as_object()
        .ok_or_else(|| StyleError::new(path, value, "is not a table"))
}

/// The error for a key the viewer's configuration does not hold.
fn unknown(path: &str, value: &Value) -> StyleError {
    StyleError::new(
        path,
        value,
        "is set under an unknown key (the viewer configuration holds \
         conversation.tools.<name>.style.<key>, style.reasoning.display and style.tool_call.show)",
    )
}

/// Why a dotted key path (`--set KEY=VALUE`'s KEY) cannot be split; each
/// names the key as given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum KeyPathError {
    /// A `"` segment with no closing quote.
    #[error("unterminated quoted key in {0:?}")]
    Unterminated(String),
    /// A quoted segment followed by something other than `.`.
    #[error("expected '.' after a quoted key in {0:?}")]
    NoDotAfterQuote(String),
    /// Two dots in a row, or a dot at either end.
    #[error("empty key segment in {0:?}")]
    EmptySegment(String),
}

/// Splits a dotted key path; a double-quoted segment may hold dots (`"mcp.tool"`),
/// with `\"` and `\\` escapes.
fn parse_key_path(key: &str) -> Result<Vec<String>, KeyPathError> {
    let mut segments = Vec::new();
    let mut chars = key.chars().peekable();
    loop {
        let mut segment = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            loop {
                match chars.next() {
                    Some('"') => break,
                    Some('\\') => match chars.next() {
                        Some(c) => segment.push(c),
                        None => return Err(KeyPathError::Unterminated(key.to_owned())),
                    },
                    Some(c) => segment.push(c),
                    None => return Err(KeyPathError::Unterminated(key.to_owned())),
                }
            }
            if !matches!(chars.peek(), None | Some('.')) {
                return Err(KeyPathError::NoDotAfterQuote(key.to_owned()));
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c == '.' {
                    break;
                }
                segment.push(c);
                chars.next();
            }
            if segment.is_empty() {
                return Err(KeyPathError::EmptySegment(key.to_owned()));
            }
        }
        segments.push(segment);
        // Past the '.' that ends the segment, or done.
        if chars.next().is_none() {
            return Ok(segments);
        }
    }
}

/// Merges a `--set` into the overlay document: tables merge key by key, other
/// values replace. An `inline_results` value merges only audience map into
/// audience map (`{"truncate":…}` and scalars replace it whole).
fn merge_overlay(doc: &mut Map<String, Value>, delta: &Map<String, Value>) {
    for (key, change) in delta {
        match (doc.get_mut(key.as_str()), change) {
            (Some(Value::Object(existing)), Value::Object(changes))
                if key != "inline_results"
                    || (is_audience_map(existing) && is_audience_map(changes)) =>
            {
                merge_overlay(existing, changes);
            }
            _ => {
                doc.insert(key.clone(), change.clone());
            }
        }
    }
}

/// An object in the `{user, assistant}` form of `inline_results` (not `{"truncate": …}`).
fn is_audience_map(map: &Map<String, Value>) -> bool {
    !map.contains_key("truncate")
}

#[cfg(test)]
mod tests;
