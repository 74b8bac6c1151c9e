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

use crate::text::sanitize::{VISIBLE_ESCAPE, is_bidi_control};

/// Writes `lines`, each followed by `\n`; with `color`, styles as SGR sequences.
pub fn write_lines(out: &mut impl Write, lines: &[Line<'_>], color: bool) -> io::Result<()> {
    let mut buffer = String::new();
    for line in lines {
        buffer.clear();
        render_line(&mut buffer, line, color);
        buffer.push('\n');
        out.write_all(buffer.as_bytes())?;
    }
    Ok(())
}

/// The lines as plain text, one `\n`-terminated row each (for snapshots and pipes).
pub fn lines_to_string(lines: &[Line<'_>]) -> String {
    let mut out = String::new();
    for line in lines {
        render_line(&mut out, line, false);
        out.push('\n');
    }
    out
}

/// Span content with every control character made harmless.
fn clean(text: &str, into: &mut String) {
    for c in text.chars() {
        match c {
            '\t' => into.push(' '),
            c if c.is_control() => into.push(VISIBLE_ESCAPE),
            c if is_bidi_control(c) => {}
            c => into.push(c),
        }
    }
}

fn render_line(out: &mut String, line: &Line<'_>, color: bool) {
    // Collect the runs first so that trailing spaces can be trimmed across spans.
    let mut runs: Vec<(Style, String)> = Vec::with_capacity(line.spans.len());
    for span in &line.spans {
        let style = line.style.patch(span.style);
        let mut text = String::with_capacity(span.content.len());
        clean(&span.content, &mut text);
        match runs.last_mut() {
            Some((last, content)) if *last == style => content.push_str(&text),
            _ => runs.push((style, text)),
        }
    }
    while let Some((_, text)) = runs.last_mut() {
        let trimmed = text.trim_end_matches(' ').len();
        text.truncate(trimmed);
        if text.is_empty() {
            runs.pop();
        } else {
            break;
        }
    }
    let mut open = false;
    for (style, text) in &runs {
        if text.is_empty() {
            continue;
        }
        if color {
            let sgr = sgr(*style);
            if open {
                out.push_str("\x1b[0m");
                open = false;
            }
            if !sgr.is_empty() {
                out.push_str("\x1b[");
                out.push_str(&sgr);
                out.push('m');
                open = true;
            }
        }
        out.push_str(text);
    }
    if open {
        out.push_str("\x1b[0m");
    }
}

/// The SGR parameters for a style (empty for the default style). Conceal is never written.
fn sgr(style: Style) -> String {
    let mut codes: Vec<String> = Vec::new();
    let modifiers = style.add_modifier - style.sub_modifier;
    for (modifier, code) in [
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
            codes.push(code.to_string());
        }
    }
    if let Some(fg) = style.fg {
        codes.push(color_code(fg, false));
    }
    if let Some(bg) = style.bg {
        codes.push(color_code(bg, true));
    }
    codes.join(";")
}

fn color_code(color: Color, background: bool) -> String {
    let base = |n: u8| (if background { n + 10 } else { n }).to_string();
    let extended = if background { "48" } else { "38" };
    match color {
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
        Color::Indexed(i) => format!("{extended};5;{i}"),
        Color::Rgb(r, g, b) => format!("{extended};2;{r};{g};{b}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::text::Span;

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
}
