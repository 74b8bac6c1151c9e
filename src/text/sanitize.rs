//! Neutralizing terminal control sequences in untrusted text (display policy §5, JP RFD 096).
//!
//! Conversation content may carry escape sequences that would move the cursor, rewrite earlier
//! lines, retitle the terminal or write the clipboard. Everything is parsed with the `vte` state
//! machine (never regex-stripped piecemeal) so that a sequence and its payload go away together.
//! What passes: printable text, `\n` and `\t`; with [`sanitize_keep_sgr`] also SGR colour
//! sequences (minus conceal), for [`crate::render::ansi`] to turn into styles. It never writes anything
//! to the terminal itself and never changes stored data: it returns a new string.
//!
//! A carriage return directly before a line feed is a line ending, not an overwrite, and is
//! dropped silently in both modes.
//!
//! Characters that reorder or hide text without being controls are handled here too (Trojan
//! Source, CVE-2021-42574): the bidi embeddings, overrides and isolates (U+202A–U+202E,
//! U+2066–U+2069), the bidi marks (U+200E, U+200F, U+061C) and tag characters (U+E0000–U+E007F)
//! outside an emoji flag are stripped, or shown as `<U+202E>` when visualizing; the line and
//! paragraph separators (U+2028, U+2029) become line feeds. Text echoed back to the user (file
//! names, option values, titles: [`echo`], [`echo_line`]) keeps every character
//! but shows each control as its control picture (`␛]0;PWNED␇`) and each of these characters,
//! and the invisible ones that can hide part of a name (zero-width space, word joiner, BOM,
//! soft hyphen, a joiner outside an emoji sequence…), as `<U+…>`; [`echo_line`], for one line
//! of the viewer, shows a whole sequence as one `␛` instead.

use std::borrow::Cow;

use vte::{Params, Parser, Perform};

use super::ascii::quiet_prefix;

/// What happens to a dropped control sequence or control character.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SanitizeMode {
    /// Remove it without a trace (the default).
    #[default]
    Strip,
    /// Replace it with one visible `␛` per dropped sequence or control, so a reader can see that
    /// something was there.
    Visualize,
}

/// [`sanitize`] of a text that may be owned already: kept as it is, not
/// copied, when there is nothing to remove.
#[cfg(feature = "cli")]
pub fn sanitize_cow(text: Cow<'_, str>, mode: SanitizeMode) -> Cow<'_, str> {
    let clean = match sanitize(&text, mode) {
        Cow::Owned(clean) => Some(clean),
        Cow::Borrowed(_) => None,
    };
    clean.map_or(text, Cow::Owned)
}

/// The mark shown in [`SanitizeMode::Visualize`] for each dropped sequence or control.
pub const VISIBLE_ESCAPE: char = '␛';

/// Returns `text` with every escape sequence and control character except `\n` and `\t`
/// removed (or visualized), and bidi controls removed (or shown as `<U+202E>`). Borrows when
/// there is nothing to remove.
pub fn sanitize(text: &str, mode: SanitizeMode) -> Cow<'_, str> {
    run(text, mode, false)
}

/// `text` as it may be echoed to a terminal in a message (an error, a warning, a note): each
/// control character but `\n` and `\t` is shown as its control picture (`␛`, `␇`, `␍`, `␡`),
/// an 8-bit control, a bidi control, a line separator or a character that hides text as
/// `<U+…>`; the rest of a sequence stays as plain text. So `evil\e]0;PWNED\a` reads
/// `evil␛]0;PWNED␇`: the user sees exactly which name was meant, and nothing in it acts.
#[cfg(feature = "cli")]
pub fn echo(text: &str) -> Cow<'_, str> {
    let chars: Vec<char> = text.chars().collect();
    // Tag characters that continue a flag (🏴 then tags) are part of it.
    let mut in_flag = vec![false; chars.len()];
    for i in 1..chars.len() {
        in_flag[i] = is_tag(chars[i]) && (chars[i - 1] == '\u{1F3F4}' || in_flag[i - 1]);
    }
    let shown = |i: usize| -> Option<String> {
        let c = chars[i];
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        match c {
            '\n' | '\t' => None,
            '\0'..='\u{1F}' => char::from_u32(0x2400 + u32::from(c)).map(String::from),
            '\u{7F}' => Some("␡".to_string()),
            '\u{200D}' if prev.is_some_and(joins_emoji) && next.is_some_and(joins_emoji) => None,
            _ if in_flag[i] => None,
            c if c.is_control()
                || is_bidi_control(c)
                || is_tag(c)
                || is_invisible(c)
                || c == '\u{2028}'
                || c == '\u{2029}' =>
            {
                Some(visible_code(c))
            }
            _ => None,
        }
    };
    let Some(first) = (0..chars.len()).find(|&i| shown(i).is_some()) else {
        return Cow::Borrowed(text);
    };
    let mut out: String = chars[..first].iter().collect();
    for (i, &c) in chars.iter().enumerate().skip(first) {
        match shown(i) {
            Some(visible) => out.push_str(&visible),
            None => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Text shown on one line of the viewer (the status bar, a picker row): like [`echo`], but a
/// sequence is shown as one `␛` with its payload dropped, as [`SanitizeMode::Visualize`] does
/// (a title `evil\e]0;PWNED\a` reads `evil␛`, no leftover `]0;PWNED` posing as text); a line
/// feed is shown as `␊`, a tab as a space.
#[cfg(feature = "cli")]
pub fn echo_line(text: &str) -> Cow<'_, str> {
    let visualized = run(text, SanitizeMode::Visualize, false);
    let echoed = match echo(&visualized) {
        Cow::Borrowed(_) => visualized,
        Cow::Owned(out) => Cow::Owned(out),
    };
    if echoed.contains(['\n', '\t']) {
        Cow::Owned(echoed.replace('\n', "␊").replace('\t', " "))
    } else {
        echoed
    }
}

/// Whether `c` reorders the text around it (a bidi embedding, override, isolate or mark).
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// Whether `c` is a tag character (U+E0000–U+E007F): invisible, it can smuggle text past a
/// reader unless it is part of an emoji flag sequence (🏴 followed by tags).
fn is_tag(c: char) -> bool {
    ('\u{E0000}'..='\u{E007F}').contains(&c)
}

/// Whether `c` is invisible and can hide part of a name: zero-width space and joiners, word
/// joiner and invisible operators, BOM, soft hyphen, Mongolian vowel separator, combining
/// grapheme joiner, Hangul fillers.
#[cfg(feature = "cli")]
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200D}'
            | '\u{2060}'..='\u{2064}'
            | '\u{3164}'
            | '\u{FEFF}'
            | '\u{FFA0}'
    )
}

/// Whether `c` can take part in an emoji ZWJ sequence (a pictograph, a skin tone, VS16).
#[cfg(feature = "cli")]
fn joins_emoji(c: char) -> bool {
    c == '\u{FE0F}'
        || c == '\u{20E3}'
        || (c >= '\u{2190}' && !is_invisible(c) && !c.is_alphanumeric())
}

/// The visible form of a format character: `<U+202E>`.
fn visible_code(c: char) -> String {
    format!("<U+{:04X}>", u32::from(c))
}

/// Like [`sanitize`] but keeps SGR (`CSI … m`) sequences, minus the conceal attribute (a
/// standalone parameter `8`; the `8` in `38;5;8` is a colour). For callers that convert the SGR
/// sequences into their own styles and never write them raw.
pub fn sanitize_keep_sgr(text: &str, mode: SanitizeMode) -> Cow<'_, str> {
    run(text, mode, true)
}

/// Whether the sanitizer leaves `text` as it is, in every mode: it holds no
/// control character but `\n` and `\t`, no bidi control, tag character or line separator.
pub fn is_clean(text: &str) -> bool {
    !needs_work(text)
}

/// True when `text` holds a character the sanitizer would act on. Runs of
/// printable ASCII, line feeds and tabs are skipped eight bytes at a time;
/// the bytes between them are looked at one by one.
fn needs_work(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        at += quiet_prefix(&bytes[at..]);
        let window = (at + 8).min(bytes.len());
        if (at..window).any(|i| acts_at(bytes, i)) {
            return true;
        }
        at = window;
    }
    false
}

/// Whether the sanitizer acts on the character that starts at byte `i` of
/// `bytes` (a byte that starts none acts on nothing).
fn acts_at(bytes: &[u8], i: usize) -> bool {
    let b = bytes[i];
    (b < 0x20 && b != b'\n' && b != b'\t')
        || b == 0x7F
        || (b == 0xC2 && matches!(bytes.get(i + 1), Some(0x80..=0x9F)))
        || (b == 0xD8 && bytes.get(i + 1) == Some(&0x9C))
        || (b == 0xE2
            && matches!(
                (bytes.get(i + 1), bytes.get(i + 2)),
                (Some(0x80), Some(0x8E | 0x8F | 0xA8..=0xAE)) | (Some(0x81), Some(0xA6..=0xA9))
            ))
        || (b == 0xF3
            && matches!(
                (bytes.get(i + 1), bytes.get(i + 2)),
                (Some(0xA0), Some(0x80 | 0x81))
            ))
}

fn run(text: &str, mode: SanitizeMode, keep_sgr: bool) -> Cow<'_, str> {
    if !needs_work(text) {
        return Cow::Borrowed(text);
    }
    let mut sink = Sink {
        out: String::with_capacity(text.len()),
        mode,
        keep_sgr,
        in_sequence: false,
        after_string: false,
        last_printed: '\0',
    };
    let mut parser = Parser::new();
    let bytes = text.as_bytes();
    let mut plain_start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        // A CR that only ends a line is not an overwrite: drop it silently.
        if b == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
            parser.advance(&mut sink, &bytes[plain_start..i]);
            plain_start = i;
            i += 1;
            if !sink.in_sequence {
                plain_start = i;
            }
            continue;
        }
        let c1 = b == 0xC2 && matches!(bytes.get(i + 1), Some(0x80..=0x9F));
        if b == 0x1B || c1 {
            parser.advance(&mut sink, &bytes[plain_start..i]);
            // After an ESC byte vte is always in its escape state, whatever it dispatched.
            parser.advance(&mut sink, b"\x1b");
            sink.in_sequence = true;
            if c1 {
                // An 8-bit control is the 7-bit `ESC (c - 0x40)`: CSI, OSC, DCS, SOS, PM, APC
                // and ST then take their payload with them.
                parser.advance(&mut sink, &[bytes[i + 1] - 0x40]);
                i += 2;
            } else {
                i += 1;
            }
            plain_start = i;
            continue;
        }
        i += 1;
    }
    parser.advance(&mut sink, &bytes[plain_start..]);
    if sink.in_sequence {
        // A dangling introducer at the end of the text is a dropped sequence too.
        sink.dropped();
    }
    Cow::Owned(sink.out)
}

/// The `vte` performer that rebuilds the text.
struct Sink {
    out: String,
    mode: SanitizeMode,
    keep_sgr: bool,
    /// An escape sequence has started and not yet been dispatched.
    in_sequence: bool,
    /// The previous event ended an OSC or DCS string at an ESC, so a following `\` is its
    /// string terminator and not a sequence of its own.
    after_string: bool,
    /// The last character printed (for tag characters, which belong to the flag before them).
    last_printed: char,
}

impl Sink {
    fn dropped(&mut self) {
        if self.mode == SanitizeMode::Visualize {
            self.out.push(VISIBLE_ESCAPE);
            self.last_printed = VISIBLE_ESCAPE;
        }
    }

    fn sequence_done(&mut self) {
        self.in_sequence = false;
        self.after_string = false;
    }

    /// Writes an SGR sequence back without conceal; false when nothing is left of it.
    fn write_sgr(&mut self, params: &Params) -> bool {
        let groups: Vec<&[u16]> = params.iter().collect();
        let mut kept: Vec<&[u16]> = Vec::with_capacity(groups.len());
        let mut i = 0;
        while i < groups.len() {
            let group = groups[i];
            match group {
                [8, ..] => i += 1,
                [38 | 48 | 58] => {
                    // `38;5;n` and `38;2;r;g;b`: the following groups are colour payload.
                    // A colour without its whole payload is dropped alone: kept, it would
                    // read the groups after it as its payload once others were dropped
                    // (`38;8;5;8;38;5;8` would become `38;5;38;5;8`, which conceals).
                    let payload = match groups.get(i + 1) {
                        Some([5]) => 2,
                        Some([2]) => 4,
                        _ => 0,
                    };
                    let end = i + 1 + payload;
                    if payload == 0 {
                        i += 1;
                    } else if end > groups.len() {
                        // A cut payload: what follows the colour is all payload.
                        i = groups.len();
                    } else {
                        kept.extend_from_slice(&groups[i..end]);
                        i = end;
                    }
                }
                _ => {
                    kept.push(group);
                    i += 1;
                }
            }
        }
        if kept.is_empty() && !groups.is_empty() && groups.iter().any(|g| g != &[0]) {
            return false;
        }
        self.out.push_str("\x1b[");
        for (n, group) in kept.iter().enumerate() {
            if n > 0 {
                self.out.push(';');
            }
            for (m, value) in group.iter().enumerate() {
                if m > 0 {
                    self.out.push(':');
                }
                self.out.push_str(&value.to_string());
            }
        }
        self.out.push('m');
        true
    }
}

impl Perform for Sink {
    fn print(&mut self, c: char) {
        self.after_string = false;
        let flag_tag = is_tag(c) && (self.last_printed == '\u{1F3F4}' || is_tag(self.last_printed));
        if c == '\x7f' {
            self.dropped();
        } else if c == '\u{2028}' || c == '\u{2029}' {
            self.out.push('\n');
            self.last_printed = '\n';
        } else if is_bidi_control(c) || (is_tag(c) && !flag_tag) {
            if self.mode == SanitizeMode::Visualize {
                self.out.push_str(&visible_code(c));
                self.last_printed = '>';
            }
        } else {
            self.out.push(c);
            self.last_printed = c;
        }
    }

    fn execute(&mut self, byte: u8) {
        self.after_string = false;
        match byte {
            b'\n' | b'\t' => {
                self.out.push(byte as char);
                self.last_printed = byte as char;
            }
            0x18 | 0x1A => {
                // CAN and SUB cancel a sequence in progress: both are dropped.
                if self.in_sequence {
                    self.in_sequence = false;
                    self.dropped();
                }
                self.dropped();
            }
            _ => self.dropped(),
        }
    }

    fn hook(&mut self, _params: &Params, _intermediates: &[u8], _ignore: bool, _action: char) {
        self.sequence_done();
        self.dropped();
    }

    fn unhook(&mut self) {
        self.after_string = true;
    }

    fn osc_dispatch(&mut self, _params: &[&[u8]], bell_terminated: bool) {
        self.sequence_done();
        self.dropped();
        self.after_string = !bell_terminated;
    }

    fn csi_dispatch(&mut self, params: &Params, intermediates: &[u8], ignore: bool, action: char) {
        self.sequence_done();
        let sgr = action == 'm' && intermediates.is_empty() && !ignore;
        if !(self.keep_sgr && sgr && self.write_sgr(params)) {
            self.dropped();
        }
    }

    fn esc_dispatch(&mut self, intermediates: &[u8], _ignore: bool, byte: u8) {
        let terminator = self.after_string && byte == b'\\' && intermediates.is_empty();
        self.sequence_done();
        if !terminator {
            self.dropped();
        }
    }
}

#[cfg(test)]
mod tests;
