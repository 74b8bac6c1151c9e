//! Text with ANSI colour (SGR) sequences turned into styled lines.
//!
//! Used for JP's `rendered_arguments` (a custom formatter's output, which carries colour) and for
//! ANSI colour in tool results. The text is first sanitized keeping only SGR (see
//! [`crate::text::sanitize::sanitize_keep_sgr`]); the SGR sequences then become ratatui styles, so no
//! escape byte survives into the lines. Colours are returned as the text states them; the
//! caller maps them to the terminal's depth ([`super::theme::Theme::adapt`]).

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use vte::{Params, Parser, Perform};

use crate::text::sanitize::{SanitizeMode, sanitize_keep_sgr};
use crate::text::width::display_width;

/// Tab stops in terminal output are every 8 columns.
const TAB_STOP: usize = 8;

/// Converts text with SGR colour sequences into styled lines, one per `\n`-separated line of
/// the text (like [`str::lines`]: no line for a final newline, none for empty text). Every
/// other escape sequence and control character is removed or, in
/// [`SanitizeMode::Visualize`], shown as `␛`. Tabs expand to 8-column tab stops.
pub fn ansi_to_lines(text: &str, mode: SanitizeMode) -> Vec<Line<'static>> {
    match plain_lines(text) {
        Some(lines) => lines,
        None => parsed_lines(text, mode),
    }
}

/// [`ansi_to_lines`] through the escape-sequence parser: a `vte` parser fed
/// every byte of the sanitized text.
fn parsed_lines(text: &str, mode: SanitizeMode) -> Vec<Line<'static>> {
    let clean = sanitize_keep_sgr(text, mode);
    let mut builder = Builder::default();
    Parser::new().advance(&mut builder, clean.as_bytes());
    builder.finish()
}

/// [`ansi_to_lines`] of text the sanitizer leaves as it is and that holds
/// no escape (most tool results): the same lines, without running a parser
/// per character — one unstyled span a line, tabs expanded. `None` for any
/// other text (an escape, a control character but `\n` and `\t`).
fn plain_lines(text: &str) -> Option<Vec<Line<'static>>> {
    if memchr::memchr(0x1b, text.as_bytes()).is_some() || !crate::text::sanitize::is_clean(text) {
        return None;
    }
    let mut lines = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let (line, next) = match memchr::memchr(b'\n', rest.as_bytes()) {
            Some(at) => (&rest[..at], &rest[at + 1..]),
            None => (rest, ""),
        };
        lines.push(plain_line(line));
        rest = next;
    }
    Some(lines)
}

/// One line of [`plain_lines`]: its tabs expanded to the terminal's stops,
/// as [`Builder`] expands them.
fn plain_line(line: &str) -> Line<'static> {
    if line.is_empty() {
        return Line::default();
    }
    let style = Rendition::default().style();
    // Room for the gutter a card puts in front (`text::wrap::prefix_lines`)
    // without growing the list.
    let mut spans = Vec::with_capacity(2);
    if memchr::memchr(b'\t', line.as_bytes()).is_none() {
        spans.push(Span::styled(line.to_string(), style));
        return Line::from(spans);
    }
    let mut out = String::with_capacity(line.len() + 8);
    let mut column = 0;
    let mut pieces = line.split('\t').peekable();
    while let Some(piece) = pieces.next() {
        out.push_str(piece);
        if pieces.peek().is_some() {
            column += display_width(piece);
            let to = (column / TAB_STOP + 1) * TAB_STOP;
            out.extend(std::iter::repeat_n(' ', to - column));
            column = to;
        }
    }
    spans.push(Span::styled(out, style));
    Line::from(spans)
}

/// The graphic rendition in force.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Rendition {
    fg: Option<Color>,
    bg: Option<Color>,
    modifiers: Modifier,
}

impl Rendition {
    fn style(self) -> Style {
        let mut style = Style::new().add_modifier(self.modifiers);
        style.fg = self.fg;
        style.bg = self.bg;
        style
    }
}

/// The 16 ANSI colours by SGR offset (`30 + i`, `90 + i - 8`).
const BASIC: [Color; 16] = [
    Color::Black,
    Color::Red,
    Color::Green,
    Color::Yellow,
    Color::Blue,
    Color::Magenta,
    Color::Cyan,
    Color::Gray,
    Color::DarkGray,
    Color::LightRed,
    Color::LightGreen,
    Color::LightYellow,
    Color::LightBlue,
    Color::LightMagenta,
    Color::LightCyan,
    Color::White,
];

/// An extended colour (`38;5;n`, `38;2;r;g;b` or the colon forms); returns the colour and how
/// many following semicolon groups it consumed.
fn extended_color(group: &[u16], rest: &[&[u16]]) -> (Option<Color>, usize) {
    let byte = |v: u16| u8::try_from(v).ok();
    if group.len() > 1 {
        // Colon form: 38:5:n, 38:2:r:g:b or 38:2:colourspace:r:g:b.
        let color = match group[1] {
            5 => group.get(2).and_then(|&n| byte(n)).map(Color::Indexed),
            2 if group.len() >= 5 => {
                let rgb = &group[group.len() - 3..];
                match (byte(rgb[0]), byte(rgb[1]), byte(rgb[2])) {
                    (Some(r), Some(g), Some(b)) => Some(Color::Rgb(r, g, b)),
                    _ => None,
                }
            }
            _ => None,
        };
        return (color, 0);
    }
    let value = |i: usize| rest.get(i).and_then(|g| g.first().copied());
    match value(0) {
        Some(5) => (value(1).and_then(byte).map(Color::Indexed), 2),
        Some(2) => {
            let color = match (
                value(1).and_then(byte),
                value(2).and_then(byte),
                value(3).and_then(byte),
            ) {
                (Some(r), Some(g), Some(b)) => Some(Color::Rgb(r, g, b)),
                _ => None,
            };
            (color, 4)
        }
        _ => (None, 0),
    }
}

/// Collects styled spans into lines.
#[derive(Default)]
struct Builder {
    lines: Vec<Line<'static>>,
    spans: Vec<Span<'static>>,
    text: String,
    /// The column of the last tab stop reached on this line.
    column: usize,
    /// What the line holds since that tab stop, measured when the next tab comes.
    since_tab: String,
    rendition: Rendition,
    /// Rendition of the text collected in `text`.
    text_rendition: Rendition,
}

impl Builder {
    fn flush_text(&mut self) {
        if !self.text.is_empty() {
            let text = std::mem::take(&mut self.text);
            self.spans
                .push(Span::styled(text, self.text_rendition.style()));
        }
    }

    fn push_char(&mut self, c: char) {
        if self.rendition != self.text_rendition {
            self.flush_text();
            self.text_rendition = self.rendition;
        }
        self.text.push(c);
    }

    fn end_line(&mut self) {
        self.flush_text();
        self.lines.push(Line::from(std::mem::take(&mut self.spans)));
        self.column = 0;
        self.since_tab.clear();
    }

    fn finish(mut self) -> Vec<Line<'static>> {
        self.flush_text();
        if !self.spans.is_empty() {
            self.lines.push(Line::from(std::mem::take(&mut self.spans)));
        }
        self.lines
    }

    fn apply_sgr(&mut self, params: &Params) {
        let groups: Vec<&[u16]> = params.iter().collect();
        let r = &mut self.rendition;
        if groups.is_empty() {
            *r = Rendition::default();
            return;
        }
        let mut i = 0;
        while i < groups.len() {
            let group = groups[i];
            i += 1;
            let code = group.first().copied().unwrap_or(0);
            match code {
                0 => *r = Rendition::default(),
                1 => r.modifiers |= Modifier::BOLD,
                2 => r.modifiers |= Modifier::DIM,
                3 => r.modifiers |= Modifier::ITALIC,
                4 => {
                    if group.get(1) == Some(&0) {
                        r.modifiers -= Modifier::UNDERLINED;
                    } else {
                        r.modifiers |= Modifier::UNDERLINED;
                    }
                }
                7 => r.modifiers |= Modifier::REVERSED,
                9 => r.modifiers |= Modifier::CROSSED_OUT,
                21 => r.modifiers |= Modifier::UNDERLINED,
                22 => r.modifiers -= Modifier::BOLD | Modifier::DIM,
                23 => r.modifiers -= Modifier::ITALIC,
                24 => r.modifiers -= Modifier::UNDERLINED,
                27 => r.modifiers -= Modifier::REVERSED,
                29 => r.modifiers -= Modifier::CROSSED_OUT,
                30..=37 => r.fg = Some(BASIC[usize::from(code - 30)]),
                39 => r.fg = None,
                40..=47 => r.bg = Some(BASIC[usize::from(code - 40)]),
                49 => r.bg = None,
                90..=97 => r.fg = Some(BASIC[usize::from(code - 90 + 8)]),
                100..=107 => r.bg = Some(BASIC[usize::from(code - 100 + 8)]),
                38 | 48 | 58 => {
                    let (color, used) = extended_color(group, &groups[i..]);
                    i += used;
                    match code {
                        38 => r.fg = color.or(r.fg),
                        48 => r.bg = color.or(r.bg),
                        _ => {}
                    }
                }
                // Blink, fonts, underline colour and the rest: not shown.
                _ => {}
            }
        }
    }
}

impl Perform for Builder {
    fn print(&mut self, c: char) {
        self.push_char(c);
        self.since_tab.push(c);
    }

    fn execute(&mut self, byte: u8) {
        match byte {
            b'\n' => self.end_line(),
            b'\t' => {
                self.column += display_width(&self.since_tab);
                self.since_tab.clear();
                let to = (self.column / TAB_STOP + 1) * TAB_STOP;
                for _ in self.column..to {
                    self.push_char(' ');
                }
                self.column = to;
            }
            // The sanitizer removed every other control.
            _ => {}
        }
    }

    fn csi_dispatch(&mut self, params: &Params, intermediates: &[u8], ignore: bool, action: char) {
        if action == 'm' && intermediates.is_empty() && !ignore {
            self.apply_sgr(params);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(line: &Line<'_>) -> Vec<(String, Style)> {
        line.spans
            .iter()
            .map(|s| (s.content.to_string(), s.style))
            .collect()
    }

    #[test]
    fn basic_colours_and_reset() {
        let lines = ansi_to_lines("a\x1b[31mred\x1b[0m b", SanitizeMode::Strip);
        assert_eq!(
            spans(&lines[0]),
            [
                ("a".into(), Style::new()),
                ("red".into(), Style::new().fg(Color::Red)),
                (" b".into(), Style::new()),
            ]
        );
    }

    #[test]
    fn bright_256_and_truecolor() {
        let lines = ansi_to_lines(
            "\x1b[92ma\x1b[38;5;208mb\x1b[38;2;1;2;3;48;5;8mc\x1b[38:2::9:8:7md\x1b[104me",
            SanitizeMode::Strip,
        );
        let styles: Vec<Style> = lines[0].spans.iter().map(|s| s.style).collect();
        assert_eq!(styles[0].fg, Some(Color::LightGreen));
        assert_eq!(styles[1].fg, Some(Color::Indexed(208)));
        assert_eq!(styles[2].fg, Some(Color::Rgb(1, 2, 3)));
        assert_eq!(styles[2].bg, Some(Color::Indexed(8)));
        assert_eq!(styles[3].fg, Some(Color::Rgb(9, 8, 7)));
        assert_eq!(styles[4].bg, Some(Color::LightBlue));
    }

    #[test]
    fn attributes_and_their_resets() {
        let lines = ansi_to_lines(
            "\x1b[1;3;4;7;9mall\x1b[22;23mmid\x1b[24;27;29mnone\x1b[2mdim",
            SanitizeMode::Strip,
        );
        let s = spans(&lines[0]);
        let all = Modifier::BOLD
            | Modifier::ITALIC
            | Modifier::UNDERLINED
            | Modifier::REVERSED
            | Modifier::CROSSED_OUT;
        assert_eq!(s[0].1.add_modifier, all);
        assert_eq!(
            s[1].1.add_modifier,
            Modifier::UNDERLINED | Modifier::REVERSED | Modifier::CROSSED_OUT
        );
        assert_eq!(s[2].1.add_modifier, Modifier::empty());
        assert_eq!(s[3].1.add_modifier, Modifier::DIM);
    }

    #[test]
    fn style_carries_across_lines_and_nothing_raw_survives() {
        let lines = ansi_to_lines(
            "\x1b[32mone\ntwo\x1b[2J\x1b]0;t\x07\x1b[8m\n",
            SanitizeMode::Strip,
        );
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[1].spans[0].style.fg, Some(Color::Green));
        for line in &lines {
            for span in &line.spans {
                assert!(!span.content.chars().any(|c| c.is_control()), "{span:?}");
            }
        }
        let shown = ansi_to_lines("x\x1b[2Jy", SanitizeMode::Visualize);
        assert_eq!(shown[0].spans[0].content, "x␛y");
    }

    #[test]
    fn conceal_is_not_applied() {
        let lines = ansi_to_lines("\x1b[8msecret", SanitizeMode::Strip);
        assert_eq!(spans(&lines[0]), [("secret".into(), Style::new())]);
    }

    #[test]
    fn tabs_expand_to_terminal_stops() {
        let lines = ansi_to_lines("ab\tc\n\td", SanitizeMode::Strip);
        assert_eq!(lines[0].spans[0].content, "ab      c");
        assert_eq!(lines[1].spans[0].content, "        d");
    }

    /// Inputs of every kind the fast path must agree on, or leave to the
    /// parser: plain, tabs, CR, wide characters, controls, escapes.
    const VARIED: &[&str] = &[
        "",
        "\n",
        "\n\n",
        "plain",
        "plain\n",
        "two\nlines",
        "two\nlines\n\n",
        "\nlead",
        "a\tb\tc",
        "\t\tdeep",
        "tab at end\t",
        "中文\t字\tx",
        "👍🏽\tthumb",
        "e\u{301}\tcombined",
        "cr\r\nlf",
        "progress\rdone",
        "bell\x07",
        "del\x7f",
        "c1\u{85}next",
        "\u{9b}31mcsi",
        "bidi\u{202e}txet",
        "\x1b[31mred\x1b[0m",
        "tab\t\x1b[1mbold\tx",
    ];

    #[test]
    fn text_without_escapes_is_laid_out_without_the_parser_and_the_same() {
        for text in VARIED {
            let slow = parsed_lines(text, SanitizeMode::Strip);
            match plain_lines(text) {
                Some(fast) => assert_eq!(fast, slow, "{text:?}"),
                None => assert!(
                    text.chars()
                        .any(|c| c.is_control() && c != '\n' && c != '\t')
                        || text.contains('\u{202e}'),
                    "{text:?} was left to the parser"
                ),
            }
            for mode in [SanitizeMode::Strip, SanitizeMode::Visualize] {
                assert_eq!(ansi_to_lines(text, mode), parsed_lines(text, mode), "{text:?}");
            }
        }
        assert!(plain_lines("中文\t字\tx").is_some());
        assert!(plain_lines("cr\r\nlf").is_none());
        assert!(plain_lines("\x1b[31mred").is_none());
    }

    use proptest::prelude::*;

    proptest! {
        #[test]
        fn the_fast_path_gives_the_parsers_lines(
            text in "([a-z ]|\t|\n|\r|\x07|\x1b\\[1m|中|👍🏽|e\u{301}|\u{85}|\u{200b}){0,40}",
        ) {
            for mode in [SanitizeMode::Strip, SanitizeMode::Visualize] {
                prop_assert_eq!(ansi_to_lines(&text, mode), parsed_lines(&text, mode), "{:?}", text);
            }
        }

        #[test]
        fn no_control_character_reaches_a_span(
            text in "(\x1b\\[[0-9;:]{0,12}m|\x1b\\]0;[a-z]*\x07|\x1b|[a-z \n\t\r\x07\u{9b}中]){0,30}",
        ) {
            for line in ansi_to_lines(&text, SanitizeMode::Visualize) {
                for span in &line.spans {
                    prop_assert!(!span.content.chars().any(char::is_control), "{:?}", span.content);
                }
            }
        }
    }
}
