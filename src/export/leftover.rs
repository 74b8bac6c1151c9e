//! Pages overhear wrote before and no longer needs: the `run-2.html`,
//! `run-3.html` of an earlier export to `run.html` that needed more pages
//! than this one, the page of a session `export --all` no longer lists.
//! A file is removed only when it proves overhear wrote it: its head holds
//! overhear's generator mark, and a later page of an export links back to
//! the page before it; a Markdown page of `export --all` is proven by the
//! manifest alone (Markdown carries no mark). This module tells; the
//! command line removes, through `files::write::remove_own` (never through
//! a link, never a file this run read).

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};

use super::html::escape;

/// How many bytes of a page's start are read to find the mark: the head
/// before the title and the stylesheet.
const HEAD: usize = 2048;

/// How many bytes of a page's end are read to find its link to the page
/// before it (the navigation under the last turn).
const TAIL: u64 = 16 * 1024;

/// What starts every HTML file overhear writes.
const DOCTYPE: &[u8] = b"<!DOCTYPE html>\n";

/// Overhear's mark in the head of every HTML file it writes, before the
/// title.
const GENERATOR: &[u8] = b"<meta name=\"generator\" content=\"overhear ";

/// Whether `file` is an HTML page overhear wrote: it starts with overhear's
/// doctype and holds the generator mark before its title; with `previous`,
/// its end also links back to that page (`rel="prev"`), as the later pages
/// of one export do.
pub fn own_page(file: &mut File, previous: Option<&str>) -> io::Result<bool> {
    let mut head = Vec::with_capacity(HEAD);
    file.by_ref().take(HEAD as u64).read_to_end(&mut head)?;
    let title = find(&head, b"<title>").unwrap_or(head.len());
    if !head.starts_with(DOCTYPE) || find(&head[..title], GENERATOR).is_none() {
        return Ok(false);
    }
    let Some(previous) = previous else {
        return Ok(true);
    };
    let length = file.metadata()?.len();
    file.seek(SeekFrom::Start(length.saturating_sub(TAIL)))?;
    let mut tail = Vec::new();
    file.take(TAIL).read_to_end(&mut tail)?;
    let link = format!("rel=\"prev\" href=\"{}\"", escape(previous));
    Ok(find(&tail, link.as_bytes()).is_some())
}

/// Where `needle` starts in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A page as overhear writes it, linking back to `previous` (the tests
    /// of the command line that removes pages use it too).
    pub(crate) fn page(previous: Option<&str>) -> String {
        let nav = previous.map_or(String::new(), |p| {
            format!("<nav class=\"pages\"><a rel=\"prev\" href=\"{p}\">← previous page</a></nav>\n")
        });
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"generator\" content=\"overhear 0.1.0\">\n<title>t</title>\n\
             </head><body>{}{nav}</body></html>\n",
            "x".repeat(40_000)
        )
    }

    #[test]
    fn a_page_is_overhears_with_its_mark_and_its_link_back() {
        let dir = tempfile::tempdir().unwrap();
        let check = |text: &str, previous: Option<&str>| {
            let path = dir.path().join("p.html");
            std::fs::write(&path, text).unwrap();
            own_page(&mut File::open(&path).unwrap(), previous).unwrap()
        };
        assert!(check(&page(None), None));
        assert!(check(&page(Some("run.html")), Some("run.html")));
        assert!(!check(&page(Some("other.html")), Some("run.html")));
        assert!(!check(&page(None), Some("run.html")));
        assert!(!check("<!DOCTYPE html>\n<title>mine</title>", None));
        assert!(!check("", None));
    }
}
