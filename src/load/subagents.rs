//! Sub-agents: the conversations a stream's tool calls started, each read
//! by a [`Live`] of its own through the same format seam, kept in the
//! parent's [`Conversation::subagents`] by the call's id.
//!
//! The reader says where a sub-agent's records are
//! ([`crate::format::SubAgentLink`]): lines of the parent's own input
//! (handed over as they are read), or a file beside the parent's (looked
//! for again at every refresh until it is there, then followed like the
//! parent). Nothing here knows a format (docs/agents.md, "Sub-agents").
//!
//! The files link one another, so the links can close a cycle (a file that
//! is its own sub-agent, a → b → a) or make a chain as long as there are
//! files. Each reader knows the files above it (by device and inode): a
//! file already read above is not read again, and no sub-agent is read
//! deeper than [`MAX_DEPTH`]; either way the call shows a notice where the
//! cut is. So the tree of conversations is finite and at most
//! [`MAX_DEPTH`] deep, and everything that walks it (the document, the
//! layout, `events`, the viewer) recurses at most that deep
//! (docs/hardening.md, "Bounded work").

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::{Live, Origin, Reader};
use crate::format::{SubAgentLink, SubAgentSource};
use crate::model::facts::NOTICE;
use crate::model::{Conversation, Event, EventKind};

/// How many levels of sub-agents are read under a conversation: one nested
/// deeper shows a notice instead of its conversation. Agents nest one or
/// two levels deep; the cap keeps an input from deepening the tree (and
/// the recursion of whatever walks it) without bound.
pub const MAX_DEPTH: usize = 16;

/// The sub-agents of a followed stream, by the id of the call that started each.
#[derive(Default)]
pub(super) struct Children {
    by_call: BTreeMap<String, Child>,
    /// Files whose first prompt is no running sub-agent's: never read again.
    rejected: HashSet<PathBuf>,
    /// The files of the conversations above this one (not its own), from
    /// the top: none is read again below.
    above: Vec<FileId>,
    /// How many sub-agent levels this conversation is below the top one.
    depth: usize,
    /// A file only looked at to tell its first prompt: its own sub-agents
    /// are not followed (they would look at files in turn, the parent's
    /// among them, without end).
    probe: bool,
}

/// Which file a path is, whatever the path: links, `..` and hard links
/// name the same file.
#[derive(Debug, Clone, PartialEq, Eq)]
enum FileId {
    /// Device and inode.
    #[cfg(unix)]
    Inode(u64, u64),
    /// The canonical path, where there are no inodes.
    #[cfg(not(unix))]
    Path(PathBuf),
}

/// The identity of the file at `path`, if it can be told.
fn identity(path: &Path) -> Option<FileId> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        let meta = std::fs::metadata(path).ok()?;
        Some(FileId::Inode(meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        std::fs::canonicalize(path).ok().map(FileId::Path)
    }
}

/// A sub-agent's conversation that is only a notice of why it is not read.
fn notice_only(text: String) -> Conversation {
    let mut notice = Map::new();
    notice.insert("type".into(), Value::from(NOTICE));
    notice.insert("level".into(), Value::from("warning"));
    notice.insert("text".into(), Value::from(text));
    let event = Event::new(None, EventKind::Unknown(Box::new(Value::Object(notice))));
    Conversation::new(vec![event], None, None)
}

/// One sub-agent being read.
struct Child {
    /// Its reader; its conversation is kept in the parent's
    /// [`Conversation::subagents`] between reads (one copy).
    live: Box<Live>,
    /// A file not found yet: where to look at the next refresh.
    wanted: Option<SubAgentSource>,
    /// The file it is read from, once found.
    path: Option<PathBuf>,
    /// Whether its records come from the parent's own input.
    inline: bool,
    /// Not read, and a notice says why: its file is one above it (a
    /// cycle), it is nested deeper than [`MAX_DEPTH`], or it is larger
    /// than the size limit (or inflates past it).
    cut: bool,
}

impl Children {
    /// Reads what the sub-agents gained: `links` just made by the parent's
    /// reader, and every file followed (`end`: read to the end, a last line
    /// without its newline too). `parent` is the parent's file, whose folder
    /// the sub-agents' files are in. Returns whether a conversation changed.
    pub(super) fn update(
        &mut self,
        links: Vec<SubAgentLink>,
        parent: Option<&Path>,
        conv: &mut BTreeMap<String, Conversation>,
        redactor: Option<&std::sync::Arc<crate::redact::Redactor>>,
        end: bool,
    ) -> bool {
        if self.probe {
            return false;
        }
        let mut changed = false;
        for SubAgentLink { call, source } in links {
            let child = self.by_call.entry(call.clone()).or_insert_with(|| Child {
                live: Box::new(Live::stream(PathBuf::new())),
                wanted: None,
                path: None,
                inline: false,
                cut: false,
            });
            match source {
                SubAgentSource::Lines(bytes) => {
                    if !child.inline && child.path.is_none() {
                        // Its records are in the parent's input after all.
                        child.inline = true;
                        child.wanted = None;
                        if self.depth >= MAX_DEPTH {
                            child.cut = true;
                            conv.insert(call.clone(), notice_only(too_deep("a sub-agent")));
                            changed = true;
                        } else {
                            child.live = new_live(None, parent, &call, redactor);
                            child.live.children.above = self.above.clone();
                            child.live.children.depth = self.depth + 1;
                        }
                    }
                    if child.inline && !child.cut {
                        changed |= with_conversation(conv, &call, &mut child.live, |live| {
                            live.push_stream(&bytes, false).is_ok()
                        });
                    }
                }
                // A file is looked for until one is found; a name beats a prompt.
                source if !child.inline && child.path.is_none() => {
                    let named = matches!(child.wanted, Some(SubAgentSource::File(_)));
                    if !(named && matches!(source, SubAgentSource::Prompt { .. })) {
                        child.wanted = Some(source);
                    }
                }
                _ => {}
            }
        }
        let claimed: HashSet<PathBuf> = self
            .by_call
            .values()
            .filter_map(|c| c.path.clone())
            .collect();
        for (call, child) in &mut self.by_call {
            if let Some(wanted) = &child.wanted {
                let Some(parent) = parent else { continue };
                let Some(path) = find(parent, wanted, &claimed, &mut self.rejected) else {
                    continue;
                };
                child.wanted = None;
                // The files from the top down to this conversation's own.
                let mut chain = self.above.clone();
                chain.extend(identity(parent));
                let name = path.display().to_string();
                let cut = if identity(&path).is_some_and(|id| chain.contains(&id)) {
                    Some(format!(
                        "sub-agent {name} is already shown above: cycle cut here"
                    ))
                } else if self.depth >= MAX_DEPTH {
                    Some(too_deep(&format!("sub-agent {name}")))
                } else {
                    None
                };
                if let Some(note) = cut {
                    child.cut = true;
                    conv.insert(call.clone(), notice_only(note));
                    changed = true;
                } else {
                    child.live = new_live(Some(&path), Some(parent), call, redactor);
                    child.live.children.above = chain;
                    child.live.children.depth = self.depth + 1;
                }
                child.path = Some(path);
            }
            if child.cut || (!child.inline && child.path.is_none()) {
                continue;
            }
            let mut refused = None;
            changed |= with_conversation(conv, call, &mut child.live, |live| {
                let mut changed = false;
                if !child.inline {
                    match live.refresh_stream() {
                        Ok(refresh) => changed |= refresh != super::Refresh::Unchanged,
                        // Over the size limit, or inflating past it: the
                        // error the file would get on its own, as a notice.
                        Err(super::OpenError::Io(error))
                            if error.kind() == std::io::ErrorKind::FileTooLarge =>
                        {
                            refused = Some(format!("sub-agent {error}"));
                            return true;
                        }
                        Err(_) => {}
                    }
                }
                if end {
                    let before = live.conversation.events.len();
                    live.finish_stream();
                    changed |= live.conversation.events.len() != before;
                }
                changed
            });
            if let Some(note) = refused {
                child.cut = true;
                conv.insert(call.clone(), notice_only(note));
            }
        }
        changed
    }

    /// Makes every sub-agent being read redact what it reads from now on
    /// (what it read already is redacted in the parent's conversation).
    pub(super) fn redact_with(&mut self, redactor: &std::sync::Arc<crate::redact::Redactor>) {
        for child in self.by_call.values_mut() {
            child.live.redact_with(redactor.clone());
        }
    }

    /// Forgets every sub-agent (the parent's file was replaced, so its
    /// links are read again), but not where this conversation sits in the
    /// tree.
    pub(super) fn forget(&mut self) {
        self.by_call.clear();
        self.rejected.clear();
    }

    /// Whether a sub-agent is linked: its file may still appear or grow.
    #[cfg(feature = "cli")]
    pub(super) fn any(&self) -> bool {
        !self.by_call.is_empty()
    }

    /// The problems met reading the sub-agents, one line each, naming the file.
    pub(super) fn warnings(&self) -> impl Iterator<Item = &String> {
        self.by_call.values().flat_map(|child| &child.live.warnings)
    }
}

/// The notice for `what`, nested deeper than [`MAX_DEPTH`].
fn too_deep(what: &str) -> String {
    format!("{what} is nested more than {MAX_DEPTH} levels deep: not read")
}

/// Runs `read` on `live` holding the sub-agent's conversation, which stays
/// in `conv` otherwise; a sub-agent with no conversation yet gets one.
fn with_conversation(
    conv: &mut BTreeMap<String, Conversation>,
    call: &str,
    live: &mut Live,
    read: impl FnOnce(&mut Live) -> bool,
) -> bool {
    let held = conv.entry(call.to_string()).or_default();
    std::mem::swap(held, &mut live.conversation);
    let changed = read(live);
    std::mem::swap(held, &mut live.conversation);
    changed
}

/// A reader for a sub-agent: of its file, or (`None`) of lines handed over.
fn new_live(
    path: Option<&Path>,
    parent: Option<&Path>,
    call: &str,
    redactor: Option<&std::sync::Arc<crate::redact::Redactor>>,
) -> Box<Live> {
    let mut live = Box::new(match path {
        Some(path) => Live::stream_file(path.to_path_buf()),
        None => Live::stream(PathBuf::from(format!(
            "{} (sub-agent of call {call})",
            parent.map_or("-".into(), |p| p.display().to_string())
        ))),
    });
    if let Some(redactor) = redactor {
        live.redact_with(redactor.clone());
    }
    live
}

/// The file `wanted` names beside `parent`, if it is there: by its path,
/// by the end of its name, or (a running sub-agent) by the prompt its
/// conversation opens with — a file no other sub-agent reads, whose first
/// prompt is another is set aside in `rejected` for good.
fn find(
    parent: &Path,
    wanted: &SubAgentSource,
    claimed: &HashSet<PathBuf>,
    rejected: &mut HashSet<PathBuf>,
) -> Option<PathBuf> {
    let folder = parent.parent().filter(|f| !f.as_os_str().is_empty());
    let folder = folder.unwrap_or(Path::new("."));
    let files = |dir: &Path, keep: &dyn Fn(&str) -> bool| -> Vec<PathBuf> {
        let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| entry.path())
            .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(keep))
            .filter(|p| p.as_path() != parent && !claimed.contains(p) && p.is_file())
            .collect();
        found.sort();
        found
    };
    match wanted {
        SubAgentSource::Lines(_) => None,
        SubAgentSource::File(paths) => paths.iter().map(|p| folder.join(p)).find(|p| p.is_file()),
        SubAgentSource::Ending(ending) => {
            let compressed = format!("{ending}.zst");
            files(folder, &|n| n.ends_with(ending) || n.ends_with(&compressed))
                .into_iter()
                .next()
        }
        SubAgentSource::Prompt { folders, prompt } => {
            let agent_file = |n: &str| n.starts_with("agent-") && n.ends_with(".jsonl");
            let candidates = folders
                .iter()
                .flat_map(|dir| files(&folder.join(dir), &agent_file))
                .filter(|p| !rejected.contains(p));
            for path in candidates.collect::<Vec<_>>() {
                let mut live = Live::stream_file(path.clone());
                live.children.probe = true;
                if live.refresh_stream().is_err() {
                    continue;
                }
                let first = live.conversation.events.iter().find_map(|e| match &e.kind {
                    EventKind::ChatRequest { content, .. } => Some(content.trim()),
                    _ => None,
                });
                match first {
                    Some(first) if first == prompt.trim() => return Some(path),
                    Some(_) => {
                        rejected.insert(path);
                    }
                    // Records but no prompt (a 2.0.x agent file can start
                    // so): it cannot be told by its prompt.
                    None if !live.conversation.events.is_empty() => {
                        rejected.insert(path);
                    }
                    // Not written yet: looked at again next time.
                    None => {}
                }
            }
            None
        }
    }
}

impl Live {
    /// Whether a tool call linked a sub-agent: its file is looked for and
    /// read at every refresh, so a viewer refreshes at its ticks too (the
    /// files are not the one watched).
    #[cfg(feature = "cli")]
    pub fn follows_subagents(&self) -> bool {
        self.children.any()
    }

    /// Whether the followed OpenCode store was seen written before its
    /// commit was visible: a viewer polls at its ticks until it is read.
    #[cfg(feature = "cli")]
    pub fn waits_for_a_commit(&self) -> bool {
        matches!(&self.reader, Reader::Stream { tail, .. } if tail.waiting())
    }

    /// The files the sub-agents under this conversation were read from, at
    /// every depth: what else than its own file a session's export depends
    /// on (`export --all` writes a page again when one of them changed).
    #[cfg(feature = "cli")]
    pub fn subagent_files(&self) -> Vec<PathBuf> {
        let mut files = Vec::new();
        for child in self.children.by_call.values() {
            files.extend(child.path.clone());
            files.extend(child.live.subagent_files());
        }
        files
    }

    /// Brings the sub-agents up to date after the parent's reader read
    /// (`end`: the input is over). Returns whether one changed.
    pub(super) fn update_subagents(&mut self, end: bool) -> bool {
        let links = match &mut self.reader {
            Reader::Stream { reader, .. } => reader.take_subagents(),
            _ => Vec::new(),
        };
        let parent = match &self.origin {
            Origin::Eve(path) | Origin::Stream(path) if path.as_os_str() != "-" => {
                Some(path.clone())
            }
            _ => None,
        };
        let changed = self.children.update(
            links,
            parent.as_deref(),
            &mut self.conversation.subagents,
            self.redactor.as_ref(),
            end,
        );
        for warning in self.children.warnings() {
            if !self.warnings.contains(warning) {
                self.warnings.push(warning.clone());
            }
        }
        changed
    }
}
