//! Reading a conversation to print some of its turns (`render --turn`):
//! a whole-file format is read in outline (every event of its kind, with
//! what grouping needs, but no text; see `format::DocumentFormat::outline`),
//! grouped whole — the turn count, the configuration of every turn and the
//! problems found are those of a full read — and only the events the
//! chosen turns show are decoded. What is printed is what a
//! full read prints.

use std::ops::Range;

use super::folder::FOLDER_FORMAT;
use super::{Live, OpenError};
use crate::format::Outline;
use crate::source::conversation::named;
use crate::source::{ConversationDir, Target, Workspace, locate};

impl Live {
    /// [`Live::read_once_at`] for printing only the turns `shown` keeps
    /// (`shown(number, total)`, turns numbered from 1): the events of the
    /// other turns are not decoded. Only for printing: the conversation is
    /// not to be followed or shown in full.
    pub fn read_turns_at(
        arg: Option<&str>,
        shown: &dyn Fn(usize, usize) -> bool,
    ) -> Result<Live, OpenError> {
        let cwd = std::env::current_dir()?;
        let env = |name: &str| std::env::var(name).ok();
        let (dir, workspace) = match locate(arg, &cwd, &env)? {
            Target::JpConversation(dir) => (dir, None),
            Target::Workspace(workspace) => match workspace.most_recent() {
                Some(entry) => (entry.conversation(), Some(workspace)),
                None => return Live::read_once_at(arg),
            },
            _ => return Live::read_once_at(arg),
        };
        Live::open_jp_turns(dir, workspace, shown)
    }

    /// Opens a JP conversation folder with only the events of the turns
    /// `shown` keeps decoded (see [`Live::read_turns_at`]); read whole when
    /// an outline will not do.
    fn open_jp_turns(
        dir: ConversationDir,
        workspace: Option<Workspace>,
        shown: &dyn Fn(usize, usize) -> bool,
    ) -> Result<Live, OpenError> {
        let files = dir.read_beside()?;
        let path = dir.events_path();
        let io = |e: std::io::Error| named(&path, &e);
        let mut file = dir.open_events()?;
        let outlined = FOLDER_FORMAT
            .outline(&mut file, files.base_config.as_deref())
            .map_err(io)?;
        let Some((reader, load, outline)) = outlined else {
            return Live::open_jp(dir, workspace);
        };
        let mut live = Live::of_folder(dir, workspace, &files, reader, load);
        if !live.decode_shown(&mut file, &outline, shown).map_err(io)? {
            let Live {
                origin, workspace, ..
            } = live;
            let super::Origin::Jp(dir) = origin else {
                unreachable!("opened as a JP folder")
            };
            return Live::open_jp(dir, workspace);
        }
        Ok(live)
    }

    /// Decodes the events of the turns `shown` keeps, and the ones their
    /// items name in later turns; false when the outline was wrong about one
    /// (then only a full read will do).
    fn decode_shown(
        &mut self,
        file: &mut std::fs::File,
        outline: &Outline,
        shown: &dyn Fn(usize, usize) -> bool,
    ) -> std::io::Result<bool> {
        let conv = &mut self.conversation;
        let total = conv.turns.len();
        let chosen: Vec<Range<usize>> = conv
            .turns
            .iter()
            .filter(|turn| shown(turn.number, total))
            .map(|turn| turn.events.clone())
            .collect();
        let inside = |i: &usize| chosen.iter().any(|range| range.contains(i));
        let mut named: Vec<usize> = conv
            .turns
            .iter()
            .filter(|turn| shown(turn.number, total))
            .flat_map(|turn| turn.events_named())
            .filter(|i| !inside(i))
            .collect();
        named.sort_unstable();
        named.dedup();
        let singles = named.into_iter().map(|i| i..i + 1);
        for range in chosen.iter().cloned().chain(singles) {
            let sketches = &conv.events[range.clone()];
            let Some(events) = outline.decode(file, range.clone(), sketches)? else {
                return Ok(false);
            };
            for (slot, event) in conv.events[range].iter_mut().zip(events) {
                *slot = event;
            }
        }
        Ok(true)
    }
}
