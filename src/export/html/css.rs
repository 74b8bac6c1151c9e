//! The page's stylesheet: the layout of the page (prose at a readable
//! measure, prompts and replies, cards, the header, the controls, print and
//! narrow screens), the classes of the terminal's styled spans (each pair of
//! a dark and a light style is a class `sN`) and syntect's classes for code,
//! each in the light scheme and, under `prefers-color-scheme: dark`, the dark.

use std::fmt::Write as _;

use ratatui::style::{Color, Modifier, Style};

use crate::render::highlight::classed::classed_css;
use crate::render::theme::Theme;

/// The styles met so far, each pair (dark, light) a class `sN`.
#[derive(Default)]
pub(super) struct Classes {
    /// Looked up for every run of text of a page (foldhash: the styles are
    /// the theme's, not the input's).
    index: foldhash::HashMap<(Style, Style), usize>,
    order: Vec<(Style, Style)>,
    /// The pairs last looked up, with their numbers: a result's lines
    /// alternate between two (its gutter's and its text's), asked for
    /// thousands of times, and comparing is cheaper than hashing.
    recent: [Option<((Style, Style), usize)>; RECENT],
    /// Where the next pair looked up goes in `recent`.
    next_recent: usize,
}

/// How many pairs [`Classes`] keeps at hand.
const RECENT: usize = 4;

impl Classes {
    /// The class number of a (dark, light) pair of styles.
    pub(super) fn of(&mut self, pair: (Style, Style)) -> usize {
        if let Some(&(_, n)) = self.recent.iter().flatten().find(|(p, _)| *p == pair) {
            return n;
        }
        let next = self.order.len();
        let n = *self.index.entry(pair).or_insert_with(|| {
            self.order.push(pair);
            next
        });
        self.recent[self.next_recent] = Some((pair, n));
        self.next_recent = (self.next_recent + 1) % RECENT;
        n
    }

    /// Writes the tag that opens a span of `pair`'s class, with more
    /// classes after it (`extra`, as `" g"`), without formatting machinery.
    pub(super) fn open_span(&mut self, pair: (Style, Style), extra: &str, out: &mut String) {
        out.push_str("<span class=\"s");
        push_number(self.of(pair), out);
        out.push_str(extra);
        out.push_str("\">");
    }

    /// The whole stylesheet: the page's, the classes met and the code's,
    /// light first, then dark under `prefers-color-scheme: dark`.
    pub(super) fn css(&self) -> String {
        let dark_theme = Theme::dark();
        let light_theme = Theme::builtin("light").unwrap_or_else(Theme::dark);
        let mut css = String::from(PAGE_CSS);
        css.push_str(&classed_css(light_theme.syntax_theme));
        for (n, (_, light)) in self.order.iter().enumerate() {
            let _ = writeln!(css, ".s{n}{{{}}}", declarations(*light));
        }
        css.push_str("@media (prefers-color-scheme: dark){\n");
        css.push_str(DARK_CSS);
        css.push_str(&classed_css(dark_theme.syntax_theme));
        for (n, (dark, _)) in self.order.iter().enumerate() {
            let _ = writeln!(css, ".s{n}{{{}}}", declarations(*dark));
        }
        css.push_str("}\n");
        css.push_str(PRINT_CSS);
        css
    }
}

/// The page in the light scheme (colours as custom properties the dark
/// scheme redefines).
const PAGE_CSS: &str = "\
:root{color-scheme:light dark;--bg:#ffffff;--fg:#1f2328;--muted:#59636e;--line:#d0d7de;\
--box:#f6f8fa;--user:#ddf4ff;--user-edge:#54aeff;--final:#1a7f37;--fail:#cf222e;--refused:#9a6700;--link:#0969da}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.6 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;overflow-wrap:break-word}
main{max-width:56rem;margin:0 auto;padding:1rem 1rem 4rem}
a{color:var(--link)}
h1{font-size:1.5rem;line-height:1.3;margin:.5rem 0 .75rem}
.session dl{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem;margin:0 0 1rem;font-size:.9rem}
.session dt{color:var(--muted)}
.session dd{margin:0;overflow-wrap:anywhere}
.controls{display:flex;flex-wrap:wrap;gap:.5rem;margin:.5rem 0;font-size:.85rem}
.controls label{border:1px solid var(--line);border-radius:1rem;padding:.1rem .7rem;cursor:pointer;user-select:none}
.toggle{position:absolute;opacity:0;pointer-events:none}
#show-tools:checked~main label[for=show-tools],#show-reasoning:checked~main label[for=show-reasoning]{background:var(--box);border-color:var(--muted)}
.controls label::before{content:'\\2610  '}
#show-tools:checked~main label[for=show-tools]::before,#show-reasoning:checked~main label[for=show-reasoning]::before{content:'\\2611  '}
#show-tools:not(:checked)~main .tool{display:none}
#show-reasoning:not(:checked)~main .reasoning{display:none}
nav.toc{font-size:.9rem;margin:0 0 1rem}
nav.toc ol{margin:.3rem 0;padding-left:2.2rem}
nav.toc .meta,.turn-meta{color:var(--muted)}
nav.pages{display:flex;justify-content:space-between;gap:1rem;margin:1rem 0;font-size:.9rem}
.turn{margin-top:2rem}
.turn>h2{font-size:1.1rem;margin:0 0 .1rem;padding-top:.5rem;border-top:1px solid var(--line)}
.turn>h2 a{color:inherit;text-decoration:none}
.turn-meta{font-size:.85rem;margin:0 0 .8rem}
.turn-error{color:var(--fail);font-size:.9rem}
.speech{margin:.8rem 0}
.speech>.label{font-size:.75rem;font-weight:600;letter-spacing:.04em;text-transform:uppercase;color:var(--muted)}
.speech.user{background:var(--user);border-left:4px solid var(--user-edge);border-radius:6px;padding:.4rem 1rem}
.speech.final{border-left:4px solid var(--final);padding-left:1rem}
.speech.final>.label{color:var(--final)}
.prose{max-width:70ch}
.prose>:first-child{margin-top:.2rem}
.prose>:last-child{margin-bottom:.2rem}
.prose h1,.prose h2,.prose h3,.prose h4{line-height:1.3;margin:1.1rem 0 .4rem}
.prose h1{font-size:1.3rem}.prose h2{font-size:1.15rem}.prose h3,.prose h4{font-size:1rem}
.prose table{border-collapse:collapse;display:block;overflow-x:auto;max-width:100%}
.prose th,.prose td{border:1px solid var(--line);padding:.2rem .5rem}
.prose blockquote{margin:.5rem 0;padding-left:1rem;border-left:3px solid var(--line);color:var(--muted)}
.prose img{max-width:100%;height:auto}
code,pre,summary.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85em}
:not(pre)>code{background:var(--box);padding:.1em .3em;border-radius:4px}
pre{margin:.4rem 0;padding:.5rem .7rem;overflow-x:auto;max-width:100%;line-height:1.4;border-radius:6px;white-space:pre}
pre.lines,pre.body{background:var(--box);font-size:13px}
pre.as-written{white-space:pre-wrap;overflow-wrap:anywhere}
pre .r{display:block;position:relative;white-space:pre-wrap;overflow-wrap:anywhere;padding-left:var(--hang,4ch)}
.g{-webkit-user-select:none;user-select:none}
pre .r>.g{position:absolute;top:0;bottom:0;left:0;visibility:hidden}
pre .r>.g::before{content:'';visibility:visible;position:absolute;top:0;bottom:0;left:2.5ch;border-left:1px solid}
pre .r>.g:nth-child(2){left:4ch}pre .r>.g:nth-child(3){left:8ch}pre .r>.g:nth-child(4){left:12ch}\
pre .r>.g:nth-child(5){left:16ch}pre .r>.g:nth-child(6){left:20ch}pre .r>.g:nth-child(7){left:24ch}\
pre .r>.g:nth-child(8){left:28ch}pre .r>.g:nth-child(9){left:32ch}pre .r>.g:nth-child(10){left:36ch}\
pre .r>.g:nth-child(11){left:40ch}pre .r>.g:nth-child(12){left:44ch}pre .r>.g:nth-child(13){left:48ch}\
pre .r>.g:nth-child(14){left:52ch}pre .r>.g:nth-child(15){left:56ch}pre .r>.g:nth-child(16){left:60ch}
.prose p.note{color:var(--muted)}
details{margin:.4rem 0}
details.card,details.reasoning,div.card{border:1px solid var(--line);border-radius:6px;background:var(--bg)}
details>summary{cursor:pointer;padding:.25rem .6rem;font-size:.9rem;overflow-wrap:anywhere}
div.card{padding:.25rem .6rem;font-size:.9rem;margin:.4rem 0}
details[open]>summary{border-bottom:1px solid var(--line)}
details>pre.body{margin:0;border-radius:0 0 6px 6px}
details.reasoning>.prose{padding:.2rem .9rem;color:var(--muted)}
.tool-name{font-weight:600}
.subject{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85em}
.outcome{font-weight:600}
.outcome.failed{color:var(--fail)}
.outcome.refused{color:var(--refused)}
.outcome.running,.size,.took{color:var(--muted)}
.figure{display:block;max-width:100%;height:auto;margin:.4rem 0;border:1px solid var(--line);border-radius:4px}
.image-note{color:var(--muted);font-size:.85rem}
";

/// The page in the dark scheme, inside `prefers-color-scheme: dark`.
const DARK_CSS: &str = "\
:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#30363d;--box:#161b22;--user:#0c2d4a;\
--user-edge:#1f6feb;--final:#3fb950;--fail:#f85149;--refused:#d29922;--link:#4493f8}
";

/// Print: every fold open, no controls, no navigation, code wrapped.
const PRINT_CSS: &str = "\
@media print{
.controls,.toggle,nav.pages{display:none}
#show-tools:not(:checked)~main .tool,#show-reasoning:not(:checked)~main .reasoning{display:block}
details::details-content{content-visibility:visible;display:contents}
details>summary{list-style:none}
pre{white-space:pre-wrap;overflow:visible}
body{font-size:11pt}
main{max-width:none}
}
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

/// `n` in decimal digits.
fn push_number(n: usize, out: &mut String) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = n;
    loop {
        at -= 1;
        // `rest % 10` is a digit: the cast keeps it whole.
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for &digit in &digits[at..] {
        out.push(char::from(digit));
    }
}

#[cfg(test)]
mod tests {
    use super::push_number;

    #[test]
    fn a_number_is_written_as_format_writes_it() {
        for n in [0, 7, 9, 10, 99, 100, 12_345, usize::MAX] {
            let mut out = String::from("s");
            push_number(n, &mut out);
            assert_eq!(out, format!("s{n}"));
        }
    }
}
