//! The library's public surface, re-exported at the crate root: open a
//! conversation, render it as `overhear render` prints it, and render one
//! tool result as `overhear card` prints it. Everything here is plain types
//! over the same pipeline the binary uses (source → format → model → policy
//! → document → layout): there is no second renderer.

mod card;
mod tool_result;

use std::path::{Path, PathBuf};

pub use card::{CardOptions, CardView, card};
pub use tool_result::ToolResult;

use crate::load::{Live, OpenError};
use crate::policy::{Overlay, OverlayError};
use crate::render::document::{DocOptions, DocView};
use crate::render::print::{CodeOverflow, PrintOptions, TurnSpec, render_to_string};
use crate::render::theme::{self, ColorDepth};
use crate::source::LocateError;
use crate::text::sanitize::SanitizeMode;

/// What went wrong, in one line that names the file (or option), the place
/// and the problem: `events.json: line 412, column 7: expected ',' or ']'`.
/// [`Error::kind`] says which kind of mistake it is, for callers that act on
/// it rather than show it.
///
/// ```
/// let err = overhear::Conversation::open("no/such/events.json").unwrap_err();
/// assert!(err.to_string().contains("no/such"));
/// assert_eq!(err.kind(), overhear::ErrorKind::NotFound);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Error {
    kind: ErrorKind,
    message: String,
}

/// Which kind of mistake an [`Error`] is, so that a caller can match on what
/// went wrong without reading the message. New kinds may be added in any
/// release: a `match` needs a `_` arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The path names nothing: no such file or folder.
    NotFound,
    /// The path names something that is not a conversation overhear reads:
    /// an empty file or folder, a file of another format, a workspace
    /// without conversations, a path that is not UTF-8.
    NotAConversation,
    /// A file or stream could not be read (permission, a device error, a
    /// file over overhear's size limit).
    Io,
    /// A conversation's bytes are not what its format says they should be
    /// (malformed JSON, an event of the wrong shape).
    Malformed,
    /// A style setting was refused: TOML that does not parse, a key overhear
    /// does not know, a value of the wrong form, an assignment that is not
    /// `KEY=VALUE`.
    Style,
    /// A tool result is not an MCP `CallToolResult` (not JSON, a missing `content`, a
    /// block of an unknown type, an audience that is neither `user` nor
    /// `assistant`).
    ToolResult,
}

impl Error {
    fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
        }
    }

    /// A tool result that is not a `CallToolResult`.
    pub(crate) fn tool_result(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::ToolResult, message)
    }

    /// Which kind of mistake this is.
    ///
    /// ```
    /// let err = overhear::Styles::from_toml("[conversation").unwrap_err();
    /// assert_eq!(err.kind(), overhear::ErrorKind::Style);
    /// ```
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }
}

impl From<OpenError> for Error {
    fn from(err: OpenError) -> Error {
        let kind = match &err {
            OpenError::Locate(LocateError::NotFound(_)) => ErrorKind::NotFound,
            OpenError::Locate(_) => ErrorKind::NotAConversation,
            OpenError::Io(io) if io.kind() == std::io::ErrorKind::NotFound => ErrorKind::NotFound,
            OpenError::Io(_) => ErrorKind::Io,
            OpenError::Format { .. } => ErrorKind::Malformed,
        };
        Error::new(kind, err.to_string())
    }
}

impl From<OverlayError> for Error {
    fn from(err: OverlayError) -> Error {
        let kind = match &err {
            OverlayError::Read { .. } => ErrorKind::Io,
            OverlayError::Syntax { .. }
            | OverlayError::Invalid { .. }
            | OverlayError::Assignment { .. } => ErrorKind::Style,
        };
        Error::new(kind, err.to_string())
    }
}

/// A conversation read to its end: a JP `events.json`, a JP conversation
/// folder or workspace, or an eve NDJSON stream.
///
/// ```
/// let bytes = br#"[{"type":"chat_request","content":"hello"},
///                 {"type":"chat_response","message":"Hi!"}]"#;
/// let conversation = overhear::Conversation::from_bytes(bytes)?;
/// assert_eq!(conversation.turns(), 1);
/// # Ok::<(), overhear::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Conversation {
    inner: crate::model::Conversation,
    finished: bool,
    warnings: Vec<String>,
}

impl Conversation {
    /// Opens what `path` names, as `overhear render PATH` does: an
    /// `events.json`, a conversation folder, a JP workspace (its most
    /// recently active conversation) or an eve stream file. Files are only
    /// read.
    ///
    /// ```no_run
    /// let conversation = overhear::Conversation::open(".jp/conversations/17-fix-ci")?;
    /// println!("{}", overhear::render(&conversation, &overhear::RenderOptions::default()));
    /// # Ok::<(), overhear::Error>(())
    /// ```
    pub fn open(path: impl AsRef<Path>) -> Result<Conversation, Error> {
        let path = path.as_ref();
        let text = path.to_str().ok_or_else(|| {
            Error::new(
                ErrorKind::NotAConversation,
                format!("{}: the path is not valid UTF-8", path.to_string_lossy()),
            )
        })?;
        let live = Live::read_once(text)?;
        Ok(Conversation::from_live(live))
    }

    /// Reads a conversation held in memory: a JP events array or an eve
    /// stream, told apart by their first bytes as for `overhear render -`.
    ///
    /// ```
    /// let eve = br#"{"type":"session.started","session_id":"s1","seq":1}"#;
    /// let conversation = overhear::Conversation::from_bytes(eve)?;
    /// assert_eq!(conversation.turns(), 0);
    /// # Ok::<(), overhear::Error>(())
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Conversation, Error> {
        let mut live = Live::stream(PathBuf::from("(bytes)"));
        live.push_stream(bytes, true)?;
        Ok(Conversation::from_live(live))
    }

    fn from_live(live: Live) -> Conversation {
        Conversation {
            finished: live.finished(),
            warnings: live.warnings.clone(),
            inner: live.conversation,
        }
    }

    /// How many turns it has.
    ///
    /// ```
    /// let conversation = overhear::Conversation::from_bytes(br#"[
    ///     {"type":"turn_start"}, {"type":"chat_request","content":"one"},
    ///     {"type":"turn_start"}, {"type":"chat_request","content":"two"}
    /// ]"#)?;
    /// assert_eq!(conversation.turns(), 2);
    /// # Ok::<(), overhear::Error>(())
    /// ```
    pub fn turns(&self) -> usize {
        self.inner.turns.len()
    }

    /// Problems that did not stop reading (a malformed line, a skipped
    /// block), one line each naming the file and place.
    ///
    /// ```
    /// let conversation = overhear::Conversation::from_bytes(b"[]")?;
    /// assert!(conversation.warnings().is_empty());
    /// # Ok::<(), overhear::Error>(())
    /// ```
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }
}

/// Which rendering of a conversation to make (`render --view`).
///
/// ```
/// let options = overhear::RenderOptions::default().with_view(overhear::View::User);
/// assert_eq!(options.view, overhear::View::User);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum View {
    /// The display policy applied: what a person at the terminal sees.
    #[default]
    Terminal,
    /// Only what is addressed to the user, as a chat.
    User,
    /// Everything, every result block labelled with its audience.
    Raw,
}

impl From<View> for DocView {
    fn from(view: View) -> DocView {
        match view {
            View::Terminal => DocView::Terminal,
            View::User => DocView::User,
            View::Raw => DocView::Raw,
        }
    }
}

/// Whether and how deep to write colour (SGR sequences).
///
/// ```
/// let options = overhear::RenderOptions::default().with_color(overhear::Color::Ansi256);
/// assert_eq!(options.color, overhear::Color::Ansi256);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Color {
    /// Plain text: the best for snapshots.
    #[default]
    Never,
    /// The 16 ANSI colours.
    Ansi16,
    /// The xterm 256-colour palette.
    Ansi256,
    /// 24-bit colour.
    TrueColor,
}

impl Color {
    fn depth(self) -> ColorDepth {
        match self {
            Color::Never => ColorDepth::None,
            Color::Ansi16 => ColorDepth::Ansi16,
            Color::Ansi256 => ColorDepth::Ansi256,
            Color::TrueColor => ColorDepth::TrueColor,
        }
    }
}

/// The built-in colour themes (`--theme`).
///
/// ```
/// let options = overhear::RenderOptions::default().with_theme(overhear::Theme::Light);
/// assert_eq!(options.theme, overhear::Theme::Light);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Theme {
    /// For dark backgrounds.
    #[default]
    Dark,
    /// For light backgrounds.
    Light,
}

impl Theme {
    /// The theme at `color`'s depth.
    fn load(self, color: Color) -> theme::Theme {
        let name = match self {
            Theme::Dark => "dark",
            Theme::Light => "light",
        };
        // The built-in themes are part of the binary (tested to parse).
        theme::Theme::builtin(name)
            .unwrap_or_else(theme::Theme::dark)
            .with_depth(color.depth())
    }
}

/// Tool display styles on top of the conversation's own (`--config`,
/// `--set`): display-policy §3.1, layer 3.
///
/// ```
/// let mut styles = overhear::Styles::default();
/// styles.set("conversation.tools.fs_read_file.style.inline_results=full")?;
/// styles.set_tool("fs_read_file", "parameters=off")?;
/// let err = styles.set_tool("fs_read_file", "inline_results.assistant=chat").unwrap_err();
/// assert!(err.to_string().starts_with("--set inline_results.assistant=chat: "));
/// # Ok::<(), overhear::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Styles {
    overlay: Overlay,
}

impl Styles {
    /// Reads a TOML file with JP's key paths (`[conversation.tools.NAME.style]`).
    ///
    /// ```no_run
    /// let styles = overhear::Styles::from_file("overhear.toml")?;
    /// # Ok::<(), overhear::Error>(())
    /// ```
    pub fn from_file(path: impl AsRef<Path>) -> Result<Styles, Error> {
        let overlay = Overlay::from_toml_file(path)?;
        Ok(Styles { overlay })
    }

    /// Reads TOML text with JP's key paths.
    ///
    /// ```
    /// let styles = overhear::Styles::from_toml(
    ///     "[conversation.tools.fs_read_file.style]\ninline_results = 3\n",
    /// )?;
    /// # Ok::<(), overhear::Error>(())
    /// ```
    pub fn from_toml(text: &str) -> Result<Styles, Error> {
        let overlay = Overlay::from_toml_str(text, "styles")?;
        Ok(Styles { overlay })
    }

    /// Sets one key, as `--set KEY=VALUE` does
    /// (`conversation.tools.NAME.style.KEY=VALUE`, `style.reasoning.display=full`).
    ///
    /// ```
    /// let mut styles = overhear::Styles::default();
    /// styles.set("style.tool_call.show=false")?;
    /// # Ok::<(), overhear::Error>(())
    /// ```
    pub fn set(&mut self, assignment: &str) -> Result<(), Error> {
        Ok(self.overlay.set(assignment)?)
    }

    /// Sets one key of `tool`'s style, as `overhear card --set KEY=VALUE`
    /// does: `inline_results.user=chat` is
    /// `conversation.tools.TOOL.style.inline_results.user=chat`. Errors name
    /// the assignment as given.
    ///
    /// ```
    /// let mut styles = overhear::Styles::default();
    /// styles.set_tool("tell_user", "inline_results.user=chat")?;
    /// # Ok::<(), overhear::Error>(())
    /// ```
    pub fn set_tool(&mut self, tool: &str, assignment: &str) -> Result<(), Error> {
        let as_given = |problem: String| {
            Error::new(ErrorKind::Style, format!("--set {assignment}: {problem}"))
        };
        if tool.contains('"') || tool.contains('\\') {
            return Err(as_given(format!(
                "the tool name {tool:?} holds a quote or backslash, which a key path cannot name"
            )));
        }
        let full = format!("conversation.tools.\"{tool}\".style.{assignment}");
        self.overlay.set(&full).map_err(|err| match err {
            OverlayError::Invalid { source, .. } => as_given(source.to_string()),
            OverlayError::Assignment { problem, .. } => as_given(problem),
            other => Error::from(other),
        })
    }
}

/// The widest output [`render()`] and [`card()`] lay out, in columns: a
/// line is laid out in full at the width asked for, so a width of billions
/// of columns would ask for gigabytes for one line. A wider `width` is
/// taken as this, as `overhear render --width` and `overhear card --width`
/// refuse more.
pub const MAX_WIDTH: usize = 10_000;

/// `width` taken into 1..=[`MAX_WIDTH`].
fn columns(width: usize) -> usize {
    width.clamp(1, MAX_WIDTH)
}

/// How [`render()`] draws a conversation: `overhear render`'s options, as
/// plain values. The defaults are `render`'s when stdout is not a terminal:
/// 80 columns, no colour, the terminal view, every turn, the dark theme, no
/// style overrides.
///
/// ```
/// let options = overhear::RenderOptions::default().with_width(40).with_turn(-1);
/// assert_eq!((options.width, options.turn), (40, Some(-1)));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct RenderOptions {
    /// Columns; no line is wider. Taken into 1..=[`MAX_WIDTH`] when the
    /// conversation is rendered.
    pub width: usize,
    /// Colour.
    pub color: Color,
    /// Which rendering.
    pub view: View,
    /// One turn, 1-based; negative counts from the end (`-1`: the last).
    pub turn: Option<i64>,
    /// Colour theme (matters only with colour).
    pub theme: Theme,
    /// Style overrides (`--config`, `--set`).
    pub styles: Styles,
}

impl Default for RenderOptions {
    fn default() -> RenderOptions {
        RenderOptions {
            width: 80,
            color: Color::Never,
            view: View::Terminal,
            turn: None,
            theme: Theme::Dark,
            styles: Styles::default(),
        }
    }
}

impl RenderOptions {
    /// With `width` columns, taken into 1..=[`MAX_WIDTH`] as
    /// `overhear render --width` takes them: 0 is 1, and more than 10 000
    /// is 10 000 (a line is laid out whole at its width).
    ///
    /// ```
    /// use overhear::{MAX_WIDTH, RenderOptions};
    /// assert_eq!(RenderOptions::default().with_width(120).width, 120);
    /// assert_eq!(RenderOptions::default().with_width(0).width, 1);
    /// assert_eq!(RenderOptions::default().with_width(usize::MAX).width, MAX_WIDTH);
    /// ```
    pub fn with_width(mut self, width: usize) -> RenderOptions {
        self.width = columns(width);
        self
    }

    /// With colour.
    ///
    /// ```
    /// let options = overhear::RenderOptions::default().with_color(overhear::Color::Ansi16);
    /// assert_eq!(options.color, overhear::Color::Ansi16);
    /// ```
    pub fn with_color(mut self, color: Color) -> RenderOptions {
        self.color = color;
        self
    }

    /// With another view.
    ///
    /// ```
    /// let options = overhear::RenderOptions::default().with_view(overhear::View::Raw);
    /// assert_eq!(options.view, overhear::View::Raw);
    /// ```
    pub fn with_view(mut self, view: View) -> RenderOptions {
        self.view = view;
        self
    }

    /// Only turn `turn` (1-based; `-1` is the last).
    ///
    /// ```
    /// assert_eq!(overhear::RenderOptions::default().with_turn(2).turn, Some(2));
    /// ```
    pub fn with_turn(mut self, turn: i64) -> RenderOptions {
        self.turn = Some(turn);
        self
    }

    /// With another theme.
    ///
    /// ```
    /// let options = overhear::RenderOptions::default().with_theme(overhear::Theme::Light);
    /// assert_eq!(options.theme, overhear::Theme::Light);
    /// ```
    pub fn with_theme(mut self, theme: Theme) -> RenderOptions {
        self.theme = theme;
        self
    }

    /// With style overrides.
    ///
    /// ```
    /// let mut styles = overhear::Styles::default();
    /// styles.set("conversation.tools.\"*\".style.inline_results=full")?;
    /// let options = overhear::RenderOptions::default().with_styles(styles);
    /// # Ok::<(), overhear::Error>(())
    /// ```
    pub fn with_styles(mut self, styles: Styles) -> RenderOptions {
        self.styles = styles;
        self
    }
}

/// The conversation as `overhear render` prints it with the same options:
/// the same bytes, deterministic. A turn the conversation does not have
/// renders as one line that says so, which a snapshot shows.
///
/// ```
/// let conversation = overhear::Conversation::from_bytes(
///     br#"[{"type":"chat_request","content":"hello"},{"type":"chat_response","message":"Hi!"}]"#,
/// )?;
/// let text = overhear::render(&conversation, &overhear::RenderOptions::default().with_width(40));
/// assert!(text.contains("hello") && text.contains("Hi!"));
/// # Ok::<(), overhear::Error>(())
/// ```
pub fn render(conversation: &Conversation, options: &RenderOptions) -> String {
    let total = conversation.turns();
    let turns = match options.turn {
        None => None,
        Some(turn) => match turn.to_string().parse::<TurnSpec>() {
            Ok(spec) if spec.check(total).is_ok() => Some(spec),
            _ => {
                return format!(
                    "(turn {turn}: the conversation has {total} turn{}, numbered from 1; -1 is the last)\n",
                    if total == 1 { "" } else { "s" }
                );
            }
        },
    };
    let doc = DocOptions {
        view: options.view.into(),
        overlay: options.styles.overlay.clone(),
        finished: conversation.finished,
    };
    let print = PrintOptions {
        width: columns(options.width),
        color: options.color != Color::Never,
        theme: options.theme.load(options.color),
        sanitize: SanitizeMode::Strip,
        turns,
        code: CodeOverflow::Wrap,
    };
    render_to_string(&conversation.inner, &doc, &print)
}
