//! The display policy in force for one turn: every tool's resolved style, whether
//! tool calls are shown, how reasoning is shown — built from the turn's effective
//! configuration and the viewer's overlay (display-policy §3.1).

use std::collections::HashMap;

use serde_json::Value;

pub use crate::model::message_tools::MESSAGE_TOOLS;

use super::error::{StyleError, child, tool_style_path};
use super::overlay::Overlay;
use super::reasoning::ReasoningDisplay;
use super::style::{
    InlineResults, LinkStyle, Parameters, PartialToolStyle, ResultSetting, Strictness, ToolStyle,
};

/// The built-in style of `tool` (layer 1 of display-policy §3.1): the defaults,
/// or for the [`MESSAGE_TOOLS`] `header="off"`, `parameters="off"`,
/// `inline_results={user="chat",assistant="off"}`, `results_file_link="off"`.
pub fn builtin_style(tool: &str) -> ToolStyle {
    if MESSAGE_TOOLS.contains(&tool) {
        ToolStyle {
            header: false,
            parameters: Parameters::Off,
            inline_results: InlineResults {
                user: ResultSetting::Chat,
                assistant: ResultSetting::Off,
            },
            results_file_link: LinkStyle::Off,
            ..ToolStyle::default()
        }
    } else {
        ToolStyle::default()
    }
}

/// The display policy of one turn.
///
/// Resolution of a tool's style, lowest layer first:
///
/// 1. [`builtin_style`] of the tool.
/// 2. The conversation's `conversation.tools.<name>.style` if the tool has one,
///    **as a whole** (JP's rule: fields it leaves out keep the built-in value of
///    layer 1, never the `"*"` value); otherwise `conversation.tools."*".style`,
///    except for the [`MESSAGE_TOOLS`]: their built-in style wins over `"*"`.
///    JP registers a built-in tool with its own per-tool style, so `"*"` never
///    reaches it; and every real conversation stores a fully filled `"*"`, which
///    would otherwise turn every `tell_user` message back into an ordinary card.
/// 3. The viewer's overlay: its `"*"` fields for every tool (message tools
///    included — the viewer asked for it), then the tool's own overlay fields.
///
/// A bad value stored in the conversation never stops rendering: that field keeps
/// the value of the layer below and the error is kept in [`TurnPolicy::warnings`].
#[derive(Debug, Clone)]
pub struct TurnPolicy {
    /// Styles of every tool the config or overlay names, plus the message tools.
    styles: HashMap<String, ToolStyle>,
    /// Style of any other tool.
    fallback: ToolStyle,
    tool_calls_shown: bool,
    reasoning: ReasoningDisplay,
    warnings: Vec<StyleError>,
}

impl TurnPolicy {
    /// Resolves every tool's style from one effective configuration (base config
    /// plus the deltas before the turn's first event) and the viewer's overlay.
    pub fn new(config: &Value, overlay: &Overlay) -> TurnPolicy {
        let mut warnings = Vec::new();
        let (star, own) = stored_styles(config, &mut warnings);

        let resolve = |tool: Option<&str>| {
            let mut style = tool.map(builtin_style).unwrap_or_default();
            let own_style = tool.and_then(|t| own.iter().find(|(name, _)| name == t));
            match own_style {
                Some((_, layer)) => style.apply(layer),
                None if tool.is_some_and(|t| MESSAGE_TOOLS.contains(&t)) => {}
                None => style.apply(&star),
            }
            if let Some(layer) = overlay.tool("*") {
                style.apply(layer);
            }
            if let Some(layer) = tool.and_then(|t| overlay.tool(t)) {
                style.apply(layer);
            }
            style
        };

        let names = own
            .iter()
            .map(|(name, _)| name.as_str())
            .chain(overlay.tool_names())
            .chain(MESSAGE_TOOLS)
            .filter(|name| *name != "*");
        let styles = names
            .map(|name| (name.to_owned(), resolve(Some(name))))
            .collect();
        let fallback = resolve(None);

        let style = config.get("style");
        let mut tool_calls_shown = match style
            .and_then(|s| s.get("tool_call"))
            .and_then(|t| t.get("show"))
        {
            None | Some(Value::Null) => true,
            Some(Value::Bool(show)) => *show,
            Some(other) => {
                warnings.push(StyleError::new(
                    "style.tool_call.show",
                    other,
                    "is not a boolean (expected true or false); tool calls are shown",
                ));
                true
            }
        };
        let mut reasoning = match style
            .and_then(|s| s.get("reasoning"))
            .and_then(|r| r.get("display"))
        {
            None | Some(Value::Null) => ReasoningDisplay::Full,
            Some(value) => {
                let (display, warning) =
                    ReasoningDisplay::from_value(value, "style.reasoning.display");
                warnings.extend(warning);
                display
            }
        };
        if let Some(show) = overlay.tool_calls_shown() {
            tool_calls_shown = show;
        }
        if let Some(display) = overlay.reasoning() {
            reasoning = display;
        }

        TurnPolicy {
            styles,
            fallback,
            tool_calls_shown,
            reasoning,
            warnings,
        }
    }

    /// The resolved style of `tool` (a tool the configuration does not name gets
    /// the `"*"` style).
    pub fn tool_style(&self, tool: &str) -> &ToolStyle {
        self.styles.get(tool).unwrap_or(&self.fallback)
    }

    /// `style.tool_call.show`: `false` hides every tool call.
    #[cfg(any(test, feature = "internals"))]
    pub fn tool_calls_shown(&self) -> bool {
        self.tool_calls_shown
    }

    /// Whether a call of `tool` is shown at all: tool calls are shown
    /// (`style.tool_call.show`) and the tool's style is not `hidden`.
    pub fn shows_tool(&self, tool: &str) -> bool {
        self.tool_calls_shown && !self.tool_style(tool).hidden
    }

    /// `style.reasoning.display`.
    pub fn reasoning(&self) -> ReasoningDisplay {
        self.reasoning
    }

    /// Values in the conversation's configuration that were rejected (each field
    /// fell back to the layer below), in the order they appear in the config.
    pub fn warnings(&self) -> &[StyleError] {
        &self.warnings
    }
}

/// The parsed `"*"` style and every tool's own style, in config order.
fn stored_styles(
    config: &Value,
    warnings: &mut Vec<StyleError>,
) -> (PartialToolStyle, Vec<(String, PartialToolStyle)>) {
    let mut star = PartialToolStyle::default();
    let mut own = Vec::new();
    let tools = match config.get("conversation").and_then(|c| c.get("tools")) {
        None | Some(Value::Null) => return (star, own),
        Some(Value::Object(tools)) => tools,
        Some(other) => {
            warnings.push(StyleError::new(
                "conversation.tools",
                other,
                "is not a map of tools; every tool gets the built-in style",
            ));
            return (star, own);
        }
    };
    for (name, entry) in tools {
        let Some(style) = tool_entry_style(name, entry, warnings) else {
            continue;
        };
        let (layer, errors) =
            PartialToolStyle::parse(style, &tool_style_path(name), Strictness::Lenient);
        warnings.extend(errors);
        if name == "*" {
            star = layer;
        } else if style.is_object() {
            own.push((name.clone(), layer));
        }
    }
    (star, own)
}

/// The `style` of one `conversation.tools` entry, if it has one.
fn tool_entry_style<'a>(
    name: &str,
    entry: &'a Value,
    warnings: &mut Vec<StyleError>,
) -> Option<&'a Value> {
    match entry {
        Value::Object(fields) => fields.get("style").filter(|s| !s.is_null()),
        Value::Null => None,
        other => {
            warnings.push(StyleError::new(
                &child("conversation.tools", name),
                other,
                "is not a tool configuration (expected an object)",
            ));
            None
        }
    }
}

#[cfg(test)]
mod tests;
