//! Writing styled lines to a byte stream (stdout for `overhear render`, files for snapshots).
//!
//! Without colour it writes plain text; with colour only SGR sequences, opened per run of equal
//! style and reset before each newline, so the bytes are deterministic and no line leaks a style
//! into the next. Trailing spaces are trimmed. As a last line of defence any control character
//! still inside a span is written as `␛` (a tab as a space) and a bidi control is dropped:
//! whatever reaches the stream, no conversation byte can drive or reorder the terminal.

use std::io::{self, Write};

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;

use crate::text::ascii::is_printable;
use crate::text::sanitize::{VISIBLE_ESCAPE, is_bidi_control};

/// Writes `lines`, each followed by `\n`; with `color`, styles as SGR sequences.
#[cfg(any(test, feature = "cli"))]
pub fn write_lines(out: &mut impl Write, lines: &[Line<'_>], color: bool) -> io::Result<()> {
    LineWriter::default().write(out, lines, color)
}

/// `write_lines` called again and again (a printout, block after block):
/// the buffers a line is cleaned and written into are kept from one call to
/// the next, not grown anew for each block.
#[derive(Default)]
pub struct LineWriter {
    /// One line as written.
    buffer: String,
    /// Its text and runs of style.
    scratch: Scratch,
}

impl LineWriter {
    /// Writes `lines`, each followed by `\n`; with `color`, styles as SGR sequences.
    pub fn write(&mut self, out: &mut impl Write, lines: &[Line<'_>], color: bool) -> io::Result<()> {
        let LineWriter { buffer, scratch } = self;
        for line in lines {
            buffer.clear();
            render_line(buffer, line, color, scratch);
            buffer.push('\n');
            out.write_all(buffer.as_bytes())?;
        }
        Ok(())
    }
}

/// The lines as plain text, one `\n`-terminated row each (for snapshots and pipes).
#[cfg(any(test, feature = "internals"))]
pub fn lines_to_string(lines: &[Line<'_>]) -> String {
    let mut out = String::new();
    let mut scratch = Scratch::default();
    for line in lines {
        render_line(&mut out, line, false, &mut scratch);
        out.push('\n');
    }
    out
}

/// Span content with every control character made harmless. Printable
/// ASCII (nearly all of it) is copied as it is.
fn clean(text: &str, into: &mut String) {
    if is_printable(text) {
        into.push_str(text);
        return;
    }
    for c in text.chars() {
        match c {
            '\t' => into.push(' '),
            c if c.is_control() => into.push(VISIBLE_ESCAPE),
            c if is_bidi_control(c) => {}
            c => into.push(c),
        }
    }
}

/// The buffers a line is cleaned into before it is written, kept from one
/// line to the next.
#[derive(Default)]
struct Scratch {
    /// The line's text, cleaned.
    text: String,
    /// Each run of equal style and where its text ends in `text`.
    runs: Vec<(Style, usize)>,
}

fn render_line(out: &mut String, line: &Line<'_>, color: bool, scratch: &mut Scratch) {
    // The runs of equal style first, their text cleaned into one buffer (a
    // run ends where the next starts), so that trailing spaces can be
    // trimmed across spans.
    let Scratch { text, runs } = scratch;
    text.clear();
    runs.clear();
    let plain_line = line.style == Style::default();
    for span in &line.spans {
        let style = if plain_line {
            span.style
        } else {
            line.style.patch(span.style)
        };
        clean(&span.content, text);
        match runs.last_mut() {
            Some((last, end)) if *last == style => *end = text.len(),
            _ => runs.push((style, text.len())),
        }
    }
    while let Some(&(_, end)) = runs.last() {
        let start = runs.len().checked_sub(2).map_or(0, |before| runs[before].1);
        let kept = start + text[start..end].trim_end_matches(' ').len();
        if kept == start {
            runs.pop();
        } else {
            if let Some(last) = runs.last_mut() {
                last.1 = kept;
            }
            break;
        }
    }
    let mut open = false;
    let mut start = 0;
    for &(style, end) in runs.iter() {
        let run = &text[start..end];
        start = end;
        if run.is_empty() {
            continue;
        }
        if color {
            if open {
                out.push_str("\x1b[0m");
            }
            open = push_sgr(out, style);
        }
        out.push_str(run);
    }
    if open {
        out.push_str("\x1b[0m");
    }
}

/// Writes the SGR sequence for a style (nothing for the default style);
/// whether it wrote one. Conceal is never written.
fn push_sgr(out: &mut String, style: Style) -> bool {
    let mut wrote = false;
    // The separator before the next parameter: the sequence's start, then `;`.
    let mut next = |out: &mut String| {
        out.push_str(if wrote { ";" } else { "\x1b[" });
        wrote = true;
    };
    let modifiers = style.add_modifier - style.sub_modifier;
    for (modifier, digit) in [
        (Modifier::BOLD, "1"),
        (Modifier::DIM, "2"),
        (Modifier::ITALIC, "3"),
        (Modifier::UNDERLINED, "4"),
        (Modifier::SLOW_BLINK, "5"),
        (Modifier::RAPID_BLINK, "6"),
        (Modifier::REVERSED, "7"),
        (Modifier::CROSSED_OUT, "9"),
    ] {
        if modifiers.contains(modifier) {
            next(out);
            out.push_str(digit);
        }
    }
    if let Some(fg) = style.fg {
        next(out);
        push_color_code(out, fg, false);
    }
    if let Some(bg) = style.bg {
        next(out);
        push_color_code(out, bg, true);
    }
    if wrote {
        out.push('m');
    }
    wrote
}

fn push_color_code(out: &mut String, color: Color, background: bool) {
    let base = |n: u8| if background { n + 10 } else { n };
    let extended = if background { "48" } else { "38" };
    let number = match color {
        Color::Reset => base(39),
        Color::Black => base(30),
        Color::Red => base(31),
        Color::Green => base(32),
        Color::Yellow => base(33),
        Color::Blue => base(34),
        Color::Magenta => base(35),
        Color::Cyan => base(36),
        Color::Gray => base(37),
        Color::DarkGray => base(90),
        Color::LightRed => base(91),
        Color::LightGreen => base(92),
        Color::LightYellow => base(93),
        Color::LightBlue => base(94),
        Color::LightMagenta => base(95),
        Color::LightCyan => base(96),
        Color::White => base(97),
        Color::Indexed(i) => {
            out.push_str(extended);
            out.push_str(";5;");
            push_number(out, i);
            return;
        }
        Color::Rgb(r, g, b) => {
            out.push_str(extended);
            out.push_str(";2;");
            for (n, part) in [r, g, b].into_iter().enumerate() {
                if n > 0 {
                    out.push(';');
                }
                push_number(out, part);
            }
            return;
        }
    };
    push_number(out, number);
}

/// Writes `n` in decimal, as `write!` does, without the formatting machinery
/// (a colour code is written for every run of a highlighted line).
fn push_number(out: &mut String, n: u8) {
    if n >= 100 {
        out.push(char::from(b'0' + n / 100));
    }
    if n >= 10 {
        out.push(char::from(b'0' + n / 10 % 10));
    }
    out.push(char::from(b'0' + n % 10));
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::text::Span;
    use std::fmt::Write as _;

    #[test]
    fn colour_codes_are_written_as_format_writes_them() {
        let mut colours: Vec<Color> = (0..=u8::MAX).map(Color::Indexed).collect();
        for n in [0, 1, 9, 10, 99, 100, 199, 200, 255] {
            colours.extend([
                Color::Rgb(n, 0, 255),
                Color::Rgb(7, n, 42),
                Color::Rgb(255, 128, n),
            ]);
        }
        colours.extend([Color::Reset, Color::Black, Color::DarkGray, Color::White]);
        for colour in colours {
            for background in [false, true] {
                let extended = if background { "48" } else { "38" };
                let mut expected = String::new();
                match colour {
                    Color::Indexed(i) => write!(expected, "{extended};5;{i}").unwrap(),
                    Color::Rgb(r, g, b) => write!(expected, "{extended};2;{r};{g};{b}").unwrap(),
                    Color::Reset => expected.push_str(if background { "49" } else { "39" }),
                    Color::Black => expected.push_str(if background { "40" } else { "30" }),
                    Color::DarkGray => expected.push_str(if background { "100" } else { "90" }),
                    _ => expected.push_str(if background { "107" } else { "97" }),
                }
                let mut written = String::new();
                push_color_code(&mut written, colour, background);
                assert_eq!(written, expected, "{colour:?} background {background}");
            }
        }
    }

    fn write(lines: &[Line<'_>], color: bool) -> String {
        let mut out = Vec::new();
        write_lines(&mut out, lines, color).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn plain_output_has_no_escapes_and_no_trailing_spaces() {
        let lines = [
            Line::from(vec![
                Span::styled("bold", Style::new().bold()),
                Span::raw(" x   "),
            ]),
            Line::from("   "),
        ];
        assert_eq!(write(&lines, false), "bold x\n\n");
    }

    #[test]
    fn colour_output_opens_and_resets_per_line() {
        let lines = [Line::from(vec![
            Span::raw("a "),
            Span::styled("b", Style::new().fg(Color::Red).bold()),
            Span::styled(
                "c",
                Style::new().fg(Color::Rgb(1, 2, 3)).bg(Color::Indexed(236)),
            ),
            Span::raw(" d"),
        ])];
        assert_eq!(
            write(&lines, true),
            "a \x1b[1;31mb\x1b[0m\x1b[38;2;1;2;3;48;5;236mc\x1b[0m d\n"
        );
    }

    #[test]
    fn line_style_applies_under_span_styles() {
        let line = Line::from(vec![
            Span::raw("x"),
            Span::styled("y", Style::new().italic()),
        ])
        .style(Style::new().fg(Color::Blue));
        assert_eq!(write(&[line], true), "\x1b[34mx\x1b[0m\x1b[3;34my\x1b[0m\n");
    }

    #[test]
    fn control_characters_never_reach_the_stream() {
        let line = Line::from(vec![Span::raw("a\x1b[2Jb\tc\u{9b}d\re")]);
        assert_eq!(write(&[line], true), "a␛[2Jb c␛d␛e\n");
    }

    #[test]
    fn conceal_is_never_written() {
        let line = Line::from(Span::styled(
            "x",
            Style::new().add_modifier(Modifier::HIDDEN),
        ));
        assert_eq!(write(&[line], true), "x\n");
    }

    #[test]
    fn trailing_spaces_are_trimmed_across_runs_and_empty_runs_write_nothing() {
        let red = Style::new().fg(Color::Red);
        let line = Line::from(vec![
            Span::styled("", Style::new().bold()),
            Span::styled("a ", red),
            Span::raw(""),
            Span::styled(" b", red.add_modifier(Modifier::DIM | Modifier::HIDDEN)),
            Span::styled("  ", red),
            Span::raw("   "),
            Span::styled("", Style::new().italic()),
        ]);
        assert_eq!(
            write(std::slice::from_ref(&line), true),
            "\x1b[31ma \x1b[0m\x1b[2;31m b\x1b[0m\n"
        );
        assert_eq!(write(&[line], false), "a  b\n");
    }
}
