//! Images a conversation holds the bytes of (a JP tool result's `image`
//! block: base64 and a mime type), embedded in the page as `data:` URIs so
//! the page stays one file that loads nothing.
//!
//! Only PNG, JPEG, GIF and WebP are embedded, and only when the decoded
//! bytes start as that format does (never SVG, which can hold script,
//! whatever the block claims); an image over [`MAX_IMAGE_BYTES`] decoded,
//! or one that is not what it says, is a placeholder that says why.
//! Claude Code and Codex events hold only a placeholder of an image; their
//! readers note where its bytes are in the stored line the event came from
//! (`facts::ImageAt`), which the conversation keeps anyway for the raw
//! view, and the image is taken from there: a pasted image in a prompt, an
//! image in a tool's result, base64 or a `data:` URL.

use std::fmt::Write as _;

use super::card::bytes;
use super::escape;
use serde_json::Value;

use crate::model::{Content, Conversation, Event, EventKind, facts};
use crate::render::document::{BlockKind, DocBlock, ToolCard};
use crate::text::sanitize::{SanitizeMode, sanitize};

/// The largest image embedded, decoded: past it, a placeholder.
pub const MAX_IMAGE_BYTES: usize = 2 * 1024 * 1024;

/// The image types embedded, with the bytes each file starts with.
const KINDS: &[(&str, &[u8])] = &[
    ("image/png", b"\x89PNG\r\n\x1a\n"),
    ("image/jpeg", b"\xff\xd8\xff"),
    ("image/gif", b"GIF8"),
    ("image/webp", b"RIFF"),
];

/// An image as the page shows it.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Shown {
    /// Embedded: its type and its bytes as standard base64.
    Embedded { mime: &'static str, base64: String },
    /// Not embedded: a note that says why.
    Placeholder(String),
}

/// The images of `card`'s result.
pub(super) fn of_card(card: &ToolCard, conv: &Conversation) -> Vec<Shown> {
    card.call
        .response
        .map(|r| of_event(&conv.events[r], conv))
        .unwrap_or_default()
}

/// The images of a prompt or a reply (a pasted image).
pub(super) fn of_speech(block: &DocBlock, conv: &Conversation) -> Vec<Shown> {
    let events: &[usize] = match &block.kind {
        BlockKind::UserMessage { event } => std::slice::from_ref(event),
        BlockKind::AssistantMessage { events, .. } => events,
        _ => &[],
    };
    events
        .iter()
        .flat_map(|&e| of_event(&conv.events[e], conv))
        .collect()
}

/// The images of an event: its content blocks' (JP), then those its
/// reader left in its stored line (Claude Code, Codex).
fn of_event(event: &Event, conv: &Conversation) -> Vec<Shown> {
    let mut images: Vec<Shown> = match &event.kind {
        EventKind::ToolCallResponse {
            content: Content::Blocks(blocks),
            ..
        } => blocks
            .iter()
            .filter(|b| b.kind() == "image")
            .map(|b| {
                let data = b.0.get("data").and_then(Value::as_str);
                shown(b.mime_type().unwrap_or(""), data.unwrap_or(""))
            })
            .collect(),
        _ => Vec::new(),
    };
    images.extend(stored(event, conv));
    images
}

/// The images whose bytes are in the line `event` was read from, looked
/// up there ([`facts::ImageAt`]): the line is parsed once for all of them.
fn stored(event: &Event, conv: &Conversation) -> Vec<Shown> {
    let mut line: Option<(usize, Option<Value>)> = None;
    facts::images(event)
        .iter()
        .map(|at| {
            if line.as_ref().is_none_or(|(index, _)| *index != at.line) {
                let value = conv
                    .originals
                    .get(at.line)
                    .and_then(|original| original.json)
                    .and_then(|json| serde_json::from_str::<Value>(&json).ok());
                line = Some((at.line, value));
            }
            let data = line
                .as_ref()
                .and_then(|(_, value)| value.as_ref())
                .and_then(|value| value.pointer(&at.data))
                .and_then(Value::as_str);
            match data {
                Some(url) if url.starts_with("data:") => data_url(url),
                Some(base64) => shown(at.mime.as_deref().unwrap_or(""), base64),
                None => Shown::Placeholder(
                    "[image: not embedded: its bytes are not in the stored line]".into(),
                ),
            }
        })
        .collect()
}

/// What the page shows of an image in a `data:` URL
/// (`data:image/png;base64,…`): only base64 data is embedded.
fn data_url(url: &str) -> Shown {
    let rest = url.strip_prefix("data:").unwrap_or(url);
    match rest.split_once(',') {
        Some((head, data)) => match head.strip_suffix(";base64") {
            Some(mime) => shown(mime, data),
            None => Shown::Placeholder(format!(
                "[image: {}, not embedded: not base64]",
                sanitize(head, SanitizeMode::Strip)
            )),
        },
        None => Shown::Placeholder("[image: not embedded: not a data: URL]".into()),
    }
}

/// What the page shows of an image of type `mime` whose base64 is `data`.
fn shown(mime: &str, data: &str) -> Shown {
    let mime = sanitize(mime.trim(), SanitizeMode::Strip).to_ascii_lowercase();
    let Some((kind, magic)) = KINDS.iter().find(|(kind, _)| *kind == mime) else {
        return Shown::Placeholder(format!("[image: {mime}, not embedded: only PNG, JPEG, GIF and WebP are]"));
    };
    // Its size from the base64's length, before decoding anything.
    let estimate = data.len() / 4 * 3;
    if estimate > MAX_IMAGE_BYTES + 3 {
        return Shown::Placeholder(format!(
            "[image: {mime}, {}, not embedded: over the {} an export embeds]",
            bytes(estimate),
            bytes(MAX_IMAGE_BYTES)
        ));
    }
    let compact: String = data.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    let decoded = base64_simd::STANDARD
        .decode_to_vec(compact.as_bytes())
        .or_else(|_| base64_simd::URL_SAFE.decode_to_vec(compact.as_bytes()));
    match decoded {
        Ok(image) if image.len() > MAX_IMAGE_BYTES => Shown::Placeholder(format!(
            "[image: {mime}, {}, not embedded: over the {} an export embeds]",
            bytes(image.len()),
            bytes(MAX_IMAGE_BYTES)
        )),
        Ok(image) if image.starts_with(magic) => Shown::Embedded {
            mime: kind,
            base64: base64_simd::STANDARD.encode_to_string(&image),
        },
        Ok(image) => Shown::Placeholder(format!(
            "[image: {mime}, {}, not embedded: its bytes are not {mime}]",
            bytes(image.len())
        )),
        Err(_) => Shown::Placeholder(format!("[image: {mime}, not embedded: not base64]")),
    }
}

/// Writes `images` (nothing for none).
pub(super) fn write(images: &[Shown], out: &mut String) {
    for image in images {
        match image {
            Shown::Embedded { mime, base64 } => {
                let _ = write!(
                    out,
                    "<img class=\"figure\" alt=\"image\" src=\"data:{mime};base64,{base64}\">"
                );
            }
            Shown::Placeholder(note) => {
                let _ = write!(out, "<p class=\"image-note\">{}</p>", escape(note));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{MAX_IMAGE_BYTES, Shown, shown};

    const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

    #[test]
    fn a_png_is_embedded() {
        assert!(matches!(
            shown("image/png", PNG),
            Shown::Embedded {
                mime: "image/png",
                ..
            }
        ));
    }

    #[test]
    fn svg_lies_and_oversized_images_are_placeholders() {
        let svg = base64_simd::STANDARD.encode_to_string(b"<svg onload=alert(1)>");
        for (mime, data) in [
            ("image/svg+xml", svg.as_str()),
            ("image/png", svg.as_str()),
            ("image/png", "%%% not base64"),
        ] {
            assert!(
                matches!(shown(mime, data), Shown::Placeholder(_)),
                "{mime} {data}"
            );
        }
        let big = "A".repeat(MAX_IMAGE_BYTES / 3 * 4 + 400);
        match shown("image/png", &big) {
            Shown::Placeholder(note) => assert!(note.contains("over the 2 MiB"), "{note}"),
            other => panic!("{other:?}"),
        }
    }
}
