//! The HTML export: one self-contained file. Inline CSS only (no script, no
//! external request: a Content-Security-Policy forbids any), the laid-out
//! lines as styled spans whose classes carry the dark theme's colours under
//! `prefers-color-scheme: dark` and the light theme's otherwise; tool cards
//! and reasoning fold with `<details>`. Every byte of content is escaped.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{self, Write};

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;

use super::{Laid, Part};

/// Every element the HTML export writes: any other tag in an export would
/// be content that escaped escaping (the HTML-export fuzz target checks
/// that none does, on arbitrary conversations and titles).
#[cfg(any(test, feature = "internals"))]
pub const TAGS: &[&str] = &[
    "html", "head", "meta", "title", "style", "body", "main", "h1", "h2", "section", "details",
    "summary", "pre", "span",
];

/// The first tag in `html` that is not one of [`TAGS`] (its name as
/// written), if any: what the export tests and its fuzz target look for.
/// `<!DOCTYPE` is the one declaration allowed.
#[cfg(any(test, feature = "internals"))]
pub fn foreign_tag(html: &str) -> Option<&str> {
    html.match_indices('<').find_map(|(at, _)| {
        let rest = &html[at + 1..];
        let rest = rest.strip_prefix('/').unwrap_or(rest);
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '!'))
            .unwrap_or(rest.len());
        let name = &rest[..end];
        (name != "!DOCTYPE" && !TAGS.contains(&name)).then_some(name)
    })
}

/// `text` with the five HTML special characters escaped.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// The styles met so far, each pair (dark, light) a class `sN`.
#[derive(Default)]
struct Classes {
    index: HashMap<(Style, Style), usize>,
    order: Vec<(Style, Style)>,
}

impl Classes {
    fn of(&mut self, pair: (Style, Style)) -> usize {
        let next = self.order.len();
        *self.index.entry(pair).or_insert_with(|| {
            self.order.push(pair);
            next
        })
    }

    /// The stylesheet: page, parts, then the classes for each scheme.
    fn css(&self) -> String {
        let mut css = String::from(BASE_CSS);
        for (n, (_, light)) in self.order.iter().enumerate() {
            let _ = writeln!(css, ".s{n}{{{}}}", declarations(*light));
        }
        css.push_str("@media (prefers-color-scheme: dark){\n");
        css.push_str(DARK_CSS);
        for (n, (dark, _)) in self.order.iter().enumerate() {
            let _ = writeln!(css, ".s{n}{{{}}}", declarations(*dark));
        }
        css.push_str("}\n");
        css
    }
}

const BASE_CSS: &str = "\
:root{color-scheme:light dark}
body{margin:0;background:#ffffff;color:#1f2328;font:15px/1.45 system-ui,sans-serif}
main{max-width:62rem;margin:0 auto;padding:1rem 1.5rem 3rem}
h1{font-size:1.3rem;margin:.5rem 0 1rem}
h2{font-size:1rem;font-weight:600;margin:1.8rem 0 .6rem;padding-bottom:.2rem;border-bottom:1px solid #d0d7de;opacity:.85}
pre,summary{font:13px/1.35 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre}
pre{margin:0 0 .2rem;overflow-x:auto}
details{margin:0 0 .2rem}
summary{cursor:pointer;list-style-position:outside;margin-left:1.1rem}
summary span{white-space:pre}
";

const DARK_CSS: &str = "\
body{background:#0d1117;color:#e6edf3}
h2{border-bottom-color:#30363d}
";

/// CSS declarations of a terminal style (colour, bold, italic, underline, dim).
fn declarations(style: Style) -> String {
    let reversed = style.add_modifier.contains(Modifier::REVERSED);
    let (fg, bg) = if reversed {
        (style.bg, style.fg)
    } else {
        (style.fg, style.bg)
    };
    let mut out = String::new();
    if let Some(css) = fg.and_then(css_color) {
        let _ = write!(out, "color:{css};");
    }
    if let Some(css) = bg.and_then(css_color) {
        let _ = write!(out, "background:{css};");
    }
    let m = style.add_modifier;
    if m.contains(Modifier::BOLD) {
        out.push_str("font-weight:bold;");
    }
    if m.contains(Modifier::ITALIC) {
        out.push_str("font-style:italic;");
    }
    if m.contains(Modifier::UNDERLINED) {
        out.push_str("text-decoration:underline;");
    }
    if m.contains(Modifier::CROSSED_OUT) {
        out.push_str("text-decoration:line-through;");
    }
    if m.contains(Modifier::DIM) {
        out.push_str("opacity:.7;");
    }
    out
}

/// A terminal colour as CSS (`None`: the page's own).
fn css_color(color: Color) -> Option<String> {
    let (r, g, b) = match color {
        Color::Reset => return None,
        Color::Rgb(r, g, b) => (r, g, b),
        Color::Indexed(n) => xterm(n),
        Color::Black => xterm(0),
        Color::Red => xterm(1),
        Color::Green => xterm(2),
        Color::Yellow => xterm(3),
        Color::Blue => xterm(4),
        Color::Magenta => xterm(5),
        Color::Cyan => xterm(6),
        Color::Gray => xterm(7),
        Color::DarkGray => xterm(8),
        Color::LightRed => xterm(9),
        Color::LightGreen => xterm(10),
        Color::LightYellow => xterm(11),
        Color::LightBlue => xterm(12),
        Color::LightMagenta => xterm(13),
        Color::LightCyan => xterm(14),
        Color::White => xterm(15),
    };
    Some(format!("#{r:02x}{g:02x}{b:02x}"))
}

/// The xterm 256-colour palette.
fn xterm(n: u8) -> (u8, u8, u8) {
    const BASIC: [(u8, u8, u8); 16] = [
        (0, 0, 0),
        (205, 0, 0),
        (0, 205, 0),
        (205, 205, 0),
        (0, 0, 238),
        (205, 0, 205),
        (0, 205, 205),
        (229, 229, 229),
        (127, 127, 127),
        (255, 0, 0),
        (0, 255, 0),
        (255, 255, 0),
        (92, 92, 255),
        (255, 0, 255),
        (0, 255, 255),
        (255, 255, 255),
    ];
    match n {
        0..=15 => BASIC[usize::from(n)],
        16..=231 => {
            let n = n - 16;
            let level = |v: u8| if v == 0 { 0 } else { 55 + v * 40 };
            (level(n / 36), level((n / 6) % 6), level(n % 6))
        }
        _ => {
            let v = 8 + (n - 232) * 10;
            (v, v, v)
        }
    }
}

/// Writes `parts` as an HTML page titled `title`.
pub(super) fn write(out: &mut impl Write, title: &str, parts: &[Part]) -> io::Result<()> {
    let mut classes = Classes::default();
    let mut body = String::new();
    let mut in_turn = false;
    for part in parts {
        match part {
            Part::Turn { number, title } => {
                if in_turn {
                    body.push_str("</section>\n");
                }
                in_turn = true;
                let _ = writeln!(
                    body,
                    "<section class=\"turn\" id=\"turn-{number}\">\n<h2>{}</h2>",
                    escape(title)
                );
            }
            Part::Speech { laid, .. } => pre("speech", laid, &mut classes, &mut body),
            Part::Fold {
                summary,
                body: inside,
                open,
                close,
            } => {
                if *open {
                    body.push_str("<details class=\"fold\"><summary>");
                    let lines = zip(summary);
                    for (i, line) in lines.iter().enumerate() {
                        if i > 0 && !line.is_empty() {
                            body.push('\n');
                        }
                        spans(line, &mut classes, &mut body);
                    }
                    body.push_str("</summary>\n");
                }
                pre("body", inside, &mut classes, &mut body);
                if *close {
                    body.push_str("</details>\n");
                }
            }
            Part::Lines(laid) => pre("lines", laid, &mut classes, &mut body),
        }
    }
    if in_turn {
        body.push_str("</section>\n");
    }
    let title = escape(title);
    write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"overhear {}\">\n\
         <title>{title}</title>\n<style>\n{}</style>\n</head>\n<body>\n<main>\n<h1>{title}</h1>\n{body}</main>\n</body>\n</html>\n",
        env!("CARGO_PKG_VERSION"),
        classes.css(),
    )
}

/// A segment of a line: its text and its (dark, light) style.
type Segment = (String, (Style, Style));

/// Laid-out lines as a `<pre>` of class `kind`; nothing when all blank.
fn pre(kind: &str, laid: &Laid, classes: &mut Classes, body: &mut String) {
    let mut lines = zip(laid);
    while lines
        .last()
        .is_some_and(|l| l.iter().all(|(t, _)| t.trim().is_empty()))
    {
        lines.pop();
    }
    if lines.is_empty() {
        return;
    }
    let _ = write!(body, "<pre class=\"{kind}\">");
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            body.push('\n');
        }
        spans(line, classes, body);
    }
    body.push_str("</pre>\n");
}

/// One line's segments as spans.
fn spans(line: &[Segment], classes: &mut Classes, body: &mut String) {
    for (text, pair) in line {
        let trimmed = text.as_str();
        if *pair == (Style::default(), Style::default()) {
            body.push_str(&escape(trimmed));
        } else {
            let n = classes.of(*pair);
            let _ = write!(body, "<span class=\"s{n}\">{}</span>", escape(trimmed));
        }
    }
}

/// The dark and the light lines as segments of constant (dark, light) style.
/// Both layouts have the same text; a line where they differ (never
/// expected) keeps the dark one's styles for both.
fn zip(laid: &Laid) -> Vec<Vec<Segment>> {
    laid.dark
        .iter()
        .enumerate()
        .map(|(i, dark)| match laid.light.get(i) {
            Some(light) if super::plain(Some(dark)) == super::plain(Some(light)) => {
                merge(dark, light)
            }
            _ => dark
                .spans
                .iter()
                .map(|s| {
                    (
                        s.content.to_string(),
                        (dark.style.patch(s.style), dark.style.patch(s.style)),
                    )
                })
                .collect(),
        })
        .collect()
}

/// Per character styles of a line.
fn char_styles(line: &Line<'_>) -> Vec<(char, Style)> {
    line.spans
        .iter()
        .flat_map(|s| {
            let style = line.style.patch(s.style);
            s.content.chars().map(move |c| (c, style))
        })
        .collect()
}

fn merge(dark: &Line<'_>, light: &Line<'_>) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::new();
    for ((c, d), (_, l)) in char_styles(dark).into_iter().zip(char_styles(light)) {
        match out.last_mut() {
            Some((text, pair)) if *pair == (d, l) => text.push(c),
            _ => out.push((c.to_string(), (d, l))),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use ratatui::style::{Color, Style};
    use ratatui::text::{Line, Span};

    use super::{Laid, escape, foreign_tag, write};
    use crate::export::Part;

    #[test]
    fn markup_in_the_title_and_the_text_comes_out_as_text() {
        let hostile = "<script>alert(1)</script><img src=x onerror=y></pre><a href=z>";
        let line = || Line::from(vec![Span::raw(hostile)]);
        let parts = [Part::Lines(Laid {
            dark: vec![line()],
            light: vec![line()],
        })];
        let mut out = Vec::new();
        write(&mut out, hostile, &parts).unwrap();
        let html = String::from_utf8(out).unwrap();
        assert_eq!(foreign_tag(&html), None, "{html}");
        assert_eq!(foreign_tag(&format!("{html}<script>")), Some("script"));
    }

    #[test]
    fn every_special_character_is_escaped() {
        assert_eq!(
            escape(r#"<a href="x">'&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn a_span_gets_the_dark_colour_under_dark_and_the_light_one_otherwise() {
        let dark = Line::from(vec![
            Span::raw("a "),
            Span::styled("b", Style::new().fg(Color::Rgb(1, 2, 3))),
        ]);
        let light = Line::from(vec![
            Span::raw("a "),
            Span::styled("b", Style::new().fg(Color::Rgb(4, 5, 6))),
        ]);
        let parts = [Part::Lines(Laid {
            dark: vec![dark],
            light: vec![light],
        })];
        let mut out = Vec::new();
        write(&mut out, "t<", &parts).unwrap();
        let html = String::from_utf8(out).unwrap();
        assert!(html.contains("<title>t&lt;</title>"));
        assert!(html.contains("<pre class=\"lines\">a <span class=\"s0\">b</span></pre>"));
        let (light_css, dark_css) = html.split_once("prefers-color-scheme: dark").unwrap();
        assert!(light_css.contains(".s0{color:#040506;}"));
        assert!(dark_css.contains(".s0{color:#010203;}"));
    }
}
