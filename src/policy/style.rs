//! A tool's display style (display-policy §3) and the parsing of every form JP
//! accepts for each of its keys, from `serde_json::Value`.
//!
//! Parsing is per field: a conversation whose stored style has one bad value still
//! renders, with that one field at its default and the error kept as a warning
//! ([`PartialToolStyle::parse`]). The viewer's own configuration is parsed
//! [`Strictness::Strict`]ly instead: unknown keys and nulls are mistakes there.

use serde_json::{Map, Value};

use super::error::{StyleError, child};

/// How a tool call's arguments are shown (`parameters`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Parameters {
    /// Pretty, highlighted JSON (`"json"`, the default).
    #[default]
    Json,
    /// `name(key: value, …)` (`"function_call"`).
    FunctionCall,
    /// Nothing (`"off"`).
    Off,
    /// A custom formatter command; the viewer never runs it, it shows the stored
    /// `rendered_arguments` instead. The command line is kept for display only.
    Custom(String),
}

/// What one audience's result blocks get (one side of `inline_results`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultSetting {
    /// Not shown.
    Off,
    /// The first N lines and a note of how many were cut.
    Lines(usize),
    /// Everything.
    Full,
    /// Rendered as assistant speech (valid only for the `user` audience).
    Chat,
}

/// `inline_results`: the result setting per audience.
///
/// The scalar form sets both audiences; the map form `{user, assistant}` sets each,
/// an omitted key keeping the default of [`InlineResults::DEFAULT_LINES`] lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InlineResults {
    /// Setting for blocks addressed to the user.
    pub user: ResultSetting,
    /// Setting for blocks addressed to the assistant (never [`ResultSetting::Chat`]).
    pub assistant: ResultSetting,
}

/// Where the full result of a tool call can be opened from (`results_file_link`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LinkStyle {
    /// A visible link (the default).
    #[default]
    Full,
    /// A terminal hyperlink in JP; for the viewer simply "a link is offered".
    Osc8,
    /// No link.
    Off,
}

/// The `error` overlay: values used instead of the top-level ones when the result
/// is an error. Unset fields leave the top-level value in force.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ErrorStyle {
    /// `error.inline_results`.
    pub inline_results: Option<InlineResults>,
    /// `error.results_file_link`.
    pub results_file_link: Option<LinkStyle>,
}

/// The complete display style of one tool, every field resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolStyle {
    /// Nothing at all is shown for the call, user-addressed blocks included.
    pub hidden: bool,
    /// The `Calling tool <name>` header line is shown.
    pub header: bool,
    /// How the arguments are shown.
    pub parameters: Parameters,
    /// How result blocks are shown, per audience.
    pub inline_results: InlineResults,
    /// Whether the full result can be opened from the card.
    pub results_file_link: LinkStyle,
    /// Values that replace the two above for error results.
    pub error: ErrorStyle,
}

/// A style that names only some fields: one layer of the resolution (a stored
/// tool style, the `"*"` style, the viewer's overlay).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PartialToolStyle {
    /// `hidden`, when named.
    pub hidden: Option<bool>,
    /// `header`, when named.
    pub header: Option<bool>,
    /// `parameters`, when named.
    pub parameters: Option<Parameters>,
    /// `inline_results`, when named (a map value is one value: its omitted key is
    /// the default, not the layer below).
    pub inline_results: Option<InlineResults>,
    /// `results_file_link`, when named.
    pub results_file_link: Option<LinkStyle>,
    /// `error.*`, field by field.
    pub error: ErrorStyle,
}

/// How forgiving a parse is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strictness {
    /// Stored conversation config: unknown keys are ignored (JP strips keys unknown to
    /// its schema) and `null` means "not set".
    Lenient,
    /// The viewer's own configuration: unknown keys and `null` are errors.
    Strict,
}

/// The style keys JP knows; the values under them are single values, never merged
/// key by key (see [`super::config::merge_config`]).
pub(crate) const STYLE_VALUE_KEYS: [&str; 5] = [
    "hidden",
    "header",
    "parameters",
    "inline_results",
    "results_file_link",
];

/// The keys of the `error` overlay.
pub(crate) const ERROR_VALUE_KEYS: [&str; 2] = ["inline_results", "results_file_link"];

const INLINE_RESULTS_FORMS: &str = "is not an inline_results value (expected \"off\", \"full\", \
     true, false, a line count, a digit string, {\"truncate\":{\"lines\":N}} or \
     {\"user\":…,\"assistant\":…})";

impl InlineResults {
    /// Lines shown when nothing says otherwise (JP's `Truncate { lines: 10 }`).
    pub const DEFAULT_LINES: usize = 10;

    /// The same setting for both audiences (the scalar form).
    pub fn both(setting: ResultSetting) -> Self {
        InlineResults {
            user: setting,
            assistant: setting,
        }
    }

    /// Parses any accepted `inline_results` form; `path` names the key in errors.
    pub fn from_value(value: &Value, path: &str) -> Result<Self, StyleError> {
        match value {
            Value::Object(map) if !map.contains_key("truncate") => audience_map(map, value, path),
            _ => scalar_setting(value, path, Side::Scalar).map(Self::both),
        }
    }
}

impl Default for InlineResults {
    fn default() -> Self {
        Self::both(ResultSetting::Lines(Self::DEFAULT_LINES))
    }
}

/// Which position a result setting is parsed in (decides whether `chat` is allowed).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Scalar,
    User,
    Assistant,
}

/// The map form `{user = V, assistant = V}`.
fn audience_map(
    map: &Map<String, Value>,
    whole: &Value,
    path: &str,
) -> Result<InlineResults, StyleError> {
    let mut result = InlineResults::default();
    for (key, value) in map {
        let side = match key.as_str() {
            "user" => Side::User,
            "assistant" => Side::Assistant,
            _ => {
                return Err(StyleError::new(
                    path,
                    whole,
                    format!(
                        "has unknown key {} (the audience map takes only user and assistant)",
                        super::error::key_segment(key)
                    ),
                ));
            }
        };
        if value.is_null() {
            continue;
        }
        let setting = scalar_setting(value, &child(path, key), side)?;
        match side {
            Side::User => result.user = setting,
            _ => result.assistant = setting,
        }
    }
    Ok(result)
}

/// One result setting: every scalar form, plus `chat` on the user side.
fn scalar_setting(value: &Value, path: &str, side: Side) -> Result<ResultSetting, StyleError> {
    let lines = |n: usize| {
        if n == 0 {
            ResultSetting::Off
        } else {
            ResultSetting::Lines(n)
        }
    };
    match value {
        Value::Bool(true) => Ok(ResultSetting::Full),
        Value::Bool(false) => Ok(ResultSetting::Off),
        Value::String(s) => match s.as_str() {
            "off" => Ok(ResultSetting::Off),
            "full" => Ok(ResultSetting::Full),
            "chat" if side == Side::User => Ok(ResultSetting::Chat),
            "chat" if side == Side::Assistant => {
                Err(StyleError::new(path, value, "is only valid for user"))
            }
            "chat" => Err(StyleError::new(
                path,
                value,
                "is only valid for user, in the audience map ({\"user\":\"chat\"})",
            )),
            _ if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => match s.parse::<usize>()
            {
                Ok(n) => Ok(lines(n)),
                Err(_) => Err(StyleError::new(path, value, "is too large a line count")),
            },
            _ => Err(StyleError::new(path, value, INLINE_RESULTS_FORMS)),
        },
        Value::Number(_) => line_count(value, path).map(lines),
        Value::Object(map) => {
            let only_truncate = map.len() == 1 && map.contains_key("truncate");
            let inner = map.get("truncate").and_then(Value::as_object);
            match inner {
                Some(inner) if only_truncate && inner.len() == 1 && inner.contains_key("lines") => {
                    let n = inner.get("lines").unwrap_or(&Value::Null);
                    match line_count(n, path) {
                        Ok(n) => Ok(lines(n)),
                        Err(_) => Err(StyleError::new(
                            path,
                            value,
                            "is not a valid truncation (truncate.lines must be a whole number ≥ 0)",
                        )),
                    }
                }
                _ if only_truncate => Err(StyleError::new(
                    path,
                    value,
                    "is not a valid truncation (expected {\"truncate\":{\"lines\":N}})",
                )),
                _ => Err(StyleError::new(path, value, INLINE_RESULTS_FORMS)),
            }
        }
        _ => Err(StyleError::new(path, value, INLINE_RESULTS_FORMS)),
    }
}

/// A JSON number that is a whole, non-negative line count.
fn line_count(value: &Value, path: &str) -> Result<usize, StyleError> {
    let Value::Number(n) = value else {
        return Err(StyleError::new(path, value, "is not a line count"));
    };
    if let Some(n) = n.as_u64() {
        return usize::try_from(n)
            .map_err(|_| StyleError::new(path, value, "is too large a line count"));
    }
    if n.as_i64().is_some_and(|n| n < 0) || n.as_f64().is_some_and(|f| f < 0.0) {
        return Err(StyleError::new(
            path,
            value,
            "is not a valid line count (it is negative)",
        ));
    }
    Err(StyleError::new(
        path,
        value,
        "is not a valid line count (it is not a whole number)",
    ))
}

impl LinkStyle {
    /// Parses `"full"`, `"osc8"`, `"off"`, `true` (full) or `false` (off).
    pub fn from_value(value: &Value, path: &str) -> Result<Self, StyleError> {
        match value {
            Value::Bool(true) => Ok(LinkStyle::Full),
            Value::Bool(false) => Ok(LinkStyle::Off),
            Value::String(s) if s == "full" => Ok(LinkStyle::Full),
            Value::String(s) if s == "osc8" => Ok(LinkStyle::Osc8),
            Value::String(s) if s == "off" => Ok(LinkStyle::Off),
            _ => Err(StyleError::new(
                path,
                value,
                "is not a results_file_link value (expected \"full\", \"osc8\", \"off\", true or false)",
            )),
        }
    }
}

impl Parameters {
    /// Parses `"json"`, `"function_call"`, `"off"`, any other string (a custom
    /// command) or the command object `{program, args?, shell?}`.
    pub fn from_value(value: &Value, path: &str) -> Result<Self, StyleError> {
        match value {
            Value::String(s) => match s.as_str() {
                "json" => Ok(Parameters::Json),
                "function_call" => Ok(Parameters::FunctionCall),
                "off" => Ok(Parameters::Off),
                _ if s.trim().is_empty() => Err(StyleError::new(
                    path,
                    value,
                    "is not a parameters value (expected \"json\", \"function_call\", \"off\" or a command)",
                )),
                _ => Ok(Parameters::Custom(s.clone())),
            },
            Value::Object(map) => command_object(map, value, path),
            _ => Err(StyleError::new(
                path,
                value,
                "is not a parameters value (expected \"json\", \"function_call\", \"off\", a command \
                 string or {\"program\":…,\"args\":[…],\"shell\":bool})",
            )),
        }
    }
}

/// The object form of a custom command, `{program, args?, shell?}`.
fn command_object(
    map: &Map<String, Value>,
    whole: &Value,
    path: &str,
) -> Result<Parameters, StyleError> {
    let bad = |problem: &str| StyleError::new(path, whole, problem);
    let mut line = match map.get("program") {
        Some(Value::String(p)) if !p.trim().is_empty() => p.clone(),
        _ => return Err(bad("is not a command (program must be a non-empty string)")),
    };
    for (key, value) in map {
        match (key.as_str(), value) {
            ("program", _) | ("shell", Value::Bool(_) | Value::Null) | ("args", Value::Null) => {}
            ("args", Value::Array(args)) => {
                for arg in args {
                    let Value::String(arg) = arg else {
                        return Err(bad("is not a command (args must be strings)"));
                    };
                    line.push(' ');
                    line.push_str(arg);
                }
            }
            ("args", _) => return Err(bad("is not a command (args must be an array of strings)")),
            ("shell", _) => return Err(bad("is not a command (shell must be true or false)")),
            _ => {
                return Err(bad(
                    "is not a command (it takes only program, args and shell)",
                ));
            }
        }
    }
    Ok(Parameters::Custom(line))
}

/// Parses `true`/`false` or `"on"`/`"off"` (`header`).
pub fn parse_header(value: &Value, path: &str) -> Result<bool, StyleError> {
    match value {
        Value::Bool(b) => Ok(*b),
        Value::String(s) if s == "on" => Ok(true),
        Value::String(s) if s == "off" => Ok(false),
        _ => Err(StyleError::new(
            path,
            value,
            "is not a header value (expected true, false, \"on\" or \"off\")",
        )),
    }
}

/// Parses `hidden`: a boolean only.
pub fn parse_hidden(value: &Value, path: &str) -> Result<bool, StyleError> {
    value
        .as_bool()
        .ok_or_else(|| StyleError::new(path, value, "is not a boolean (expected true or false)"))
}

impl Default for ToolStyle {
    /// The built-in defaults of display-policy §3.
    fn default() -> Self {
        ToolStyle {
            hidden: false,
            header: true,
            parameters: Parameters::Json,
            inline_results: InlineResults::default(),
            results_file_link: LinkStyle::Full,
            error: ErrorStyle::default(),
        }
    }
}

impl ToolStyle {
    /// This style with every field `layer` names replaced (the `error` overlay
    /// field by field).
    pub fn apply(&mut self, layer: &PartialToolStyle) {
        if let Some(hidden) = layer.hidden {
            self.hidden = hidden;
        }
        if let Some(header) = layer.header {
            self.header = header;
        }
        if let Some(parameters) = &layer.parameters {
            self.parameters = parameters.clone();
        }
        if let Some(inline_results) = layer.inline_results {
            self.inline_results = inline_results;
        }
        if let Some(link) = layer.results_file_link {
            self.results_file_link = link;
        }
        self.error.apply(&layer.error);
    }

    /// Parses a complete style object (fields it leaves out take the built-in
    /// defaults); the first rejected value is the error. Unknown keys are ignored,
    /// as JP ignores them.
    #[cfg(any(test, feature = "internals"))]
    pub fn parse(value: &Value, tool: &str) -> Result<Self, StyleError> {
        let (layer, errors) = PartialToolStyle::parse(
            value,
            &super::error::tool_style_path(tool),
            Strictness::Lenient,
        );
        match errors.into_iter().next() {
            Some(err) => Err(err),
            None => {
                let mut style = ToolStyle::default();
                style.apply(&layer);
                Ok(style)
            }
        }
    }
}

impl ErrorStyle {
    /// Replaces the fields `layer` sets.
    fn apply(&mut self, layer: &ErrorStyle) {
        if layer.inline_results.is_some() {
            self.inline_results = layer.inline_results;
        }
        if layer.results_file_link.is_some() {
            self.results_file_link = layer.results_file_link;
        }
    }
}

impl PartialToolStyle {
    /// Parses a style object found at `path` (e.g. `conversation.tools.x.style`).
    ///
    /// Every field is parsed on its own: a rejected value leaves that field unset
    /// and adds its error to the list, the other fields still count.
    pub fn parse(value: &Value, path: &str, strictness: Strictness) -> (Self, Vec<StyleError>) {
        let mut layer = PartialToolStyle::default();
        let mut errors = Vec::new();
        let Value::Object(map) = value else {
            if !(value.is_null() && strictness == Strictness::Lenient) {
                errors.push(StyleError::new(
                    path,
                    value,
                    "is not a style (expected an object of style keys)",
                ));
            }
            return (layer, errors);
        };
        for (key, value) in map {
            let path = child(path, key);
            if is_null_key(value, &path, strictness, &mut errors) {
                continue;
            }
            let outcome =
                match key.as_str() {
                    "hidden" => parse_hidden(value, &path).map(|v| layer.hidden = Some(v)),
                    "header" => parse_header(value, &path).map(|v| layer.header = Some(v)),
                    "parameters" => {
                        Parameters::from_value(value, &path).map(|v| layer.parameters = Some(v))
                    }
                    "inline_results" => InlineResults::from_value(value, &path)
                        .map(|v| layer.inline_results = Some(v)),
                    "results_file_link" => LinkStyle::from_value(value, &path)
                        .map(|v| layer.results_file_link = Some(v)),
                    "error" => {
                        parse_error_style(value, &path, strictness, &mut layer.error, &mut errors);
                        Ok(())
                    }
                    _ if strictness == Strictness::Strict => Err(StyleError::new(
                        &path,
                        value,
                        "is not a style key (expected hidden, header, parameters, inline_results, \
                     results_file_link or error)",
                    )),
                    _ => Ok(()),
                };
            if let Err(err) = outcome {
                errors.push(err);
            }
        }
        (layer, errors)
    }

    /// Replaces the fields `other` names (the `error` overlay field by field).
    #[cfg(any(test, feature = "internals"))]
    pub fn merge_from(&mut self, other: &PartialToolStyle) {
        if other.hidden.is_some() {
            self.hidden = other.hidden;
        }
        if other.header.is_some() {
            self.header = other.header;
        }
        if other.parameters.is_some() {
            self.parameters.clone_from(&other.parameters);
        }
        if other.inline_results.is_some() {
            self.inline_results = other.inline_results;
        }
        if other.results_file_link.is_some() {
            self.results_file_link = other.results_file_link;
        }
        self.error.apply(&other.error);
    }
}

/// The `error` object: `{inline_results?, results_file_link?}`, parsed field by field.
fn parse_error_style(
    value: &Value,
    path: &str,
    strictness: Strictness,
    out: &mut ErrorStyle,
    errors: &mut Vec<StyleError>,
) {
    let Value::Object(map) = value else {
        errors.push(StyleError::new(
            path,
            value,
            "is not an error style (expected {\"inline_results\":…,\"results_file_link\":…})",
        ));
        return;
    };
    for (key, value) in map {
        let path = child(path, key);
        if is_null_key(value, &path, strictness, errors) {
            continue;
        }
        let outcome = match key.as_str() {
            "inline_results" => {
                InlineResults::from_value(value, &path).map(|v| out.inline_results = Some(v))
            }
            "results_file_link" => {
                LinkStyle::from_value(value, &path).map(|v| out.results_file_link = Some(v))
            }
            "header" if strictness == Strictness::Strict => Err(StyleError::new(
                &path,
                value,
                "cannot be set in the error overlay (the header is drawn before the result exists)",
            )),
            _ if strictness == Strictness::Strict => Err(StyleError::new(
                &path,
                value,
                "is not an error-overlay key (expected inline_results or results_file_link)",
            )),
            _ => Ok(()),
        };
        if let Err(err) = outcome {
            errors.push(err);
        }
    }
}

/// Whether a style key holds `null`, which leaves the key unset; the strict
/// reading (the viewer's own configuration) reports it.
fn is_null_key(
    value: &Value,
    path: &str,
    strictness: Strictness,
    errors: &mut Vec<StyleError>,
) -> bool {
    if value.is_null() && strictness == Strictness::Strict {
        errors.push(StyleError::new(
            path,
            value,
            "is not a value (leave the key out instead)",
        ));
    }
    value.is_null()
}

#[cfg(test)]
mod tests;
