//! What a terminal did besides drawing text, as a `vt100` parser saw it:
//! bells, titles, clipboard writes, resizes and every sequence it did not
//! know. Shared by the hostile tests of `render` and of the viewer: whatever
//! a leaked escape sequence would do shows up here.

/// Everything the terminal did besides drawing.
#[derive(Debug, Default)]
pub struct Effects {
    /// Each effect but clipboard writes, in words.
    pub seen: Vec<String>,
    /// The data of each clipboard write (OSC 52), as sent.
    pub clipboard: Vec<Vec<u8>>,
}

impl vt100::Callbacks for Effects {
    fn audible_bell(&mut self, _: &mut vt100::Screen) {
        self.seen.push("bell".into());
    }
    fn visual_bell(&mut self, _: &mut vt100::Screen) {
        self.seen.push("visual bell".into());
    }
    fn resize(&mut self, _: &mut vt100::Screen, request: (u16, u16)) {
        self.seen.push(format!("resize {request:?}"));
    }
    fn set_window_icon_name(&mut self, _: &mut vt100::Screen, name: &[u8]) {
        self.seen
            .push(format!("icon {:?}", String::from_utf8_lossy(name)));
    }
    fn set_window_title(&mut self, _: &mut vt100::Screen, title: &[u8]) {
        self.seen
            .push(format!("title {:?}", String::from_utf8_lossy(title)));
    }
    fn copy_to_clipboard(&mut self, _: &mut vt100::Screen, _: &[u8], data: &[u8]) {
        self.clipboard.push(data.to_vec());
    }
    fn paste_from_clipboard(&mut self, _: &mut vt100::Screen, _: &[u8]) {
        self.seen.push("paste".into());
    }
    fn unhandled_char(&mut self, _: &mut vt100::Screen, c: char) {
        // vt100 reports U+FFFD as it would a decoding error; in output checked
        // to be valid UTF-8 it is a literal replacement character, which prints.
        if c != '\u{fffd}' {
            self.seen.push(format!("char {c:?}"));
        }
    }
    fn unhandled_control(&mut self, _: &mut vt100::Screen, b: u8) {
        self.seen.push(format!("control {b:#04x}"));
    }
    fn unhandled_escape(&mut self, _: &mut vt100::Screen, i1: Option<u8>, i2: Option<u8>, b: u8) {
        self.seen.push(format!("escape {i1:?} {i2:?} {b:#04x}"));
    }
    fn unhandled_csi(
        &mut self,
        _: &mut vt100::Screen,
        i1: Option<u8>,
        i2: Option<u8>,
        params: &[&[u16]],
        c: char,
    ) {
        self.seen
            .push(format!("csi {i1:?} {i2:?} {params:?} {c:?}"));
    }
    fn unhandled_osc(&mut self, _: &mut vt100::Screen, params: &[&[u8]]) {
        let params: Vec<_> = params.iter().map(|p| String::from_utf8_lossy(p)).collect();
        self.seen.push(format!("osc {params:?}"));
    }
}
