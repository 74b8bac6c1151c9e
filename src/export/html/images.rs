//! Images a conversation holds the bytes of (a JP tool result's `image`
//! block: base64 and a mime type), embedded in the page as `data:` URIs so
//! the page stays one file that loads nothing.
//!
//! Only PNG, JPEG, GIF and WebP are embedded, and only when the decoded
//! bytes start as that format does (never SVG, which can hold script,
//! whatever the block claims); an image over [`MAX_IMAGE_BYTES`] decoded,
//! or one that is not what it says, is a placeholder that says why.
//! Formats whose readers keep only a placeholder (Claude Code, Codex) show
//! that placeholder in the card.

use std::fmt::Write as _;

use super::card::bytes;
use super::escape;
use crate::model::{Conversation, Event, EventKind};
use crate::render::document::ToolCard;
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
        .map(|r| of_event(&conv.events[r]))
        .unwrap_or_default()
}

/// The images of an event's content blocks.
fn of_event(event: &Event) -> Vec<Shown> {
    let EventKind::ToolCallResponse { content, .. } = &event.kind else {
        return Vec::new();
    };
    let crate::model::Content::Blocks(blocks) = content else {
        return Vec::new();
    };
    blocks
        .iter()
        .filter(|b| b.kind() == "image")
        .map(|b| {
            let data = b.0.get("data").and_then(serde_json::Value::as_str);
            shown(b.mime_type().unwrap_or(""), data.unwrap_or(""))
        })
        .collect()
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
