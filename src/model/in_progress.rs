//! Text an agent is writing right now: a message, reasoning or a tool call
//! still streaming, shown live until the completed event replaces it. Every
//! live format has one; the reader that follows the format keeps it.

/// What kind of text is streaming.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InProgressKind {
    /// Assistant speech (eve: `message.appended`, v27 text `content.delta`).
    Message,
    /// Reasoning (eve: `reasoning.appended`, v27 reasoning `content.delta`).
    Reasoning,
    /// A tool call's arguments as the model writes them (eve: `action.input.appended`, `call.input`).
    ToolInput,
    /// A tool's preliminary output (eve: `action.partial`, `call.progress`), replaced by each snapshot.
    ToolOutput,
}

/// The streaming text of the step in progress, shown live until the completed
/// event replaces it.
#[derive(Debug, Clone, PartialEq)]
pub struct InProgress {
    /// What is streaming.
    pub kind: InProgressKind,
    /// The text so far (deltas joined; old cumulative appends normalized).
    pub text: String,
    /// The turn it belongs to.
    pub turn_id: Option<String>,
    /// The call, for tool input or output.
    pub call_id: Option<String>,
    /// The tool's name, when known.
    pub tool_name: Option<String>,
}
