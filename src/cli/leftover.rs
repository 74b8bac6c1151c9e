//! Removes the pages overhear wrote before and no longer needs
//! (`export::leftover` tells which are overhear's), through the one place
//! that changes files (`files::write::remove_own`).

use std::path::{Path, PathBuf};

use crate::export::leftover::own_page;
use crate::export::page_name;
use crate::files::write::{WriteError, remove_own};

/// Removes the pages past the `pages` just written of an HTML export to
/// `first` (`run.html`): `run-N.html` for N from `pages + 1` on, up to the
/// first that is not there, each only when it is overhear's page linking
/// back to the one before it. Returns what was removed, or why a page
/// could not be.
pub(super) fn remove_later_pages(first: &Path, pages: usize) -> Vec<Result<PathBuf, WriteError>> {
    let Some(name) = first.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return Vec::new();
    };
    let mut done = Vec::new();
    for index in pages.max(1).. {
        let path = first.with_file_name(page_name(&name, index));
        if std::fs::symlink_metadata(&path).is_err() {
            break;
        }
        let previous = page_name(&name, index - 1);
        match remove_own(&path, |file| own_page(file, Some(&previous))) {
            Ok(true) => done.push(Ok(path)),
            Ok(false) => {}
            Err(err) => done.push(Err(err)),
        }
    }
    done
}

/// Removes `path`, the page of a session that an earlier `export --all`
/// wrote (its manifest says so) and this one no longer lists: an HTML page
/// only when it holds overhear's mark. `Ok(true)` when removed.
pub(super) fn remove_listed_page(path: &Path) -> Result<bool, WriteError> {
    let html = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("html"));
    remove_own(
        path,
        |file| {
            if html { own_page(file, None) } else { Ok(true) }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::leftover::tests::page;

    #[test]
    fn only_overhears_later_pages_are_removed_and_never_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let at = |name: &str| dir.path().join(name);
        std::fs::write(at("run.html"), page(None)).unwrap();
        std::fs::write(at("run-2.html"), page(Some("run.html"))).unwrap();
        std::fs::write(at("run-3.html"), page(Some("run-2.html"))).unwrap();
        // A user's file named as a later page would be, and a link to a page.
        std::fs::write(at("run-4.html"), "<!DOCTYPE html>\n<p>mine</p>").unwrap();
        std::fs::write(at("elsewhere.html"), page(Some("run-4.html"))).unwrap();
        std::os::unix::fs::symlink(at("elsewhere.html"), at("run-5.html")).unwrap();
        // Another export's page: its previous page is not this export's.
        std::fs::write(at("run-6.html"), page(Some("other.html"))).unwrap();
        let removed: Vec<PathBuf> = remove_later_pages(&at("run.html"), 1)
            .into_iter()
            .map(Result::unwrap)
            .collect();
        assert_eq!(removed, [at("run-2.html"), at("run-3.html")]);
        for kept in ["run.html", "run-4.html", "elsewhere.html", "run-6.html"] {
            assert!(at(kept).is_file(), "{kept}");
        }
        assert!(std::fs::symlink_metadata(at("run-5.html")).is_ok());
    }

    #[test]
    fn a_listed_page_goes_only_with_the_mark() {
        let dir = tempfile::tempdir().unwrap();
        let ours = dir.path().join("claude-a.html");
        let theirs = dir.path().join("claude-b.html");
        std::fs::write(&ours, page(None)).unwrap();
        std::fs::write(&theirs, "<!DOCTYPE html>\n<title>mine</title>").unwrap();
        assert!(remove_listed_page(&ours).unwrap());
        assert!(!remove_listed_page(&theirs).unwrap());
        assert!(!ours.exists() && theirs.exists());
    }
}
