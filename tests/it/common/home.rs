//! A home folder of a test's own, with a project folder beside it: the
//! agents' sessions a test needs are planted under it, and the program, run
//! with `HOME` set to it, reads them and never the user's own.

use std::path::{Path, PathBuf};

/// A temporary `home/` and `app/` (the project), removed when dropped.
pub struct FakeHome {
    _tmp: tempfile::TempDir,
    /// What `HOME` is set to.
    pub home: PathBuf,
    /// The project folder the sessions ran in (it exists, empty).
    pub project: PathBuf,
}

impl FakeHome {
    /// An empty home and an empty project folder.
    pub fn new() -> FakeHome {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        let project = tmp.path().join("app");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&project).unwrap();
        FakeHome {
            _tmp: tmp,
            home,
            project,
        }
    }

    /// The folder Claude Code keeps the project's sessions in (created):
    /// `~/.claude/projects/` and the project's path with `/` and `.` as `-`.
    pub fn claude_folder(&self) -> PathBuf {
        let folder = claude_folder(&self.home, &self.project);
        std::fs::create_dir_all(&folder).unwrap();
        folder
    }

    /// Writes a Claude Code session of the project, `lines` (records, each
    /// ending in a newline) in `<id>.jsonl`; its path.
    pub fn claude_session(&self, id: &str, lines: &[String]) -> PathBuf {
        let path = self.claude_folder().join(format!("{id}.jsonl"));
        std::fs::write(&path, lines.concat()).unwrap();
        path
    }
}

/// Where Claude Code keeps the sessions of `project` under `home`.
pub fn claude_folder(home: &Path, project: &Path) -> PathBuf {
    let slug = project.to_string_lossy().replace(['/', '.'], "-");
    home.join(".claude/projects").join(slug)
}
