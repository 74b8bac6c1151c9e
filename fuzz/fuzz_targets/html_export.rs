//! The HTML export on arbitrary conversations and titles.
//!
//! The first byte picks the format (even: an eve stream, odd: a JP
//! `events.json`), the next two (little-endian) where the bytes split into
//! the title and the conversation. Whatever reads is exported as HTML (the
//! terminal and the user view); only the elements the export writes
//! (`overhear::export::HTML_TAGS`) may come out: any other tag is content
//! that escaped escaping.

#![no_main]

use libfuzzer_sys::fuzz_target;
use overhear::export::{ExportFormat, ExportOptions, Results, export, foreign_tag};
use overhear::format::eve::EveReader;
use overhear::format::jp;
use overhear::model::Conversation;
use overhear::render::document::{DocOptions, DocView};

fuzz_target!(|data: &[u8]| {
    let [mode, a, b, rest @ ..] = data else {
        return;
    };
    let at = usize::from(u16::from_le_bytes([*a, *b])) % (rest.len() + 1);
    let (title, bytes) = rest.split_at(at);
    let conversation = if mode % 2 == 0 {
        EveReader::read_all(bytes).conversation()
    } else {
        match jp::load(bytes, None) {
            Ok(load) => Conversation::new(load.events, load.base_config, None),
            Err(_) => return,
        }
    };
    let title = String::from_utf8_lossy(title).into_owned();
    for view in [DocView::Terminal, DocView::User] {
        let options = DocOptions {
            view,
            finished: true,
            ..DocOptions::default()
        };
        let export_options = ExportOptions {
            format: ExportFormat::Html,
            turns: None,
            title: title.clone(),
            results: Results::default(),
            home: None,
            agent: None,
            project: None,
        };
        let mut out = Vec::new();
        // The export forgets the texts it laid out: each view exports a copy.
        let mut conversation = conversation.clone();
        export(&mut out, &mut conversation, &options, &export_options).expect("writing to memory");
        let html = String::from_utf8(out).expect("the export is UTF-8");
        assert_eq!(foreign_tag(&html), None, "a foreign tag in:\n{html}");
    }
});
