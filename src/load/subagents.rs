//! Sub-agents: the conversations a stream's tool calls started, each read
//! by a [`Live`] of its own through the same format seam, kept in the
//! parent's [`Conversation::subagents`] by the call's id.
//!
//! The reader says where a sub-agent's records are
//! ([`crate::format::SubAgentLink`]): lines of the parent's own input
//! (handed over as they are read), or a file beside the parent's (looked
//! for again at every refresh until it is there, then followed like the
//! parent). Nothing here knows a format (docs/agents.md, "Sub-agents").

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{Live, Origin, Reader};
use crate::format::{SubAgentLink, SubAgentSource};
use crate::model::Conversation;

/// The sub-agents of a followed stream, by the id of the call that started each.
#[derive(Default)]
pub(super) struct Children {
    by_call: BTreeMap<String, Child>,
}

/// One sub-agent being read.
struct Child {
    /// Its reader; its conversation is kept in the parent's
    /// [`Conversation::subagents`] between reads (one copy).
    live: Box<Live>,
    /// A file not found yet: where to look at the next refresh.
    wanted: Option<SubAgentSource>,
    /// Whether its records come from the parent's own input.
    inline: bool,
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
        let mut changed = false;
        for SubAgentLink { call, source } in links {
            let child = self.by_call.entry(call.clone()).or_insert_with(|| {
                let inline = matches!(source, SubAgentSource::Lines(_));
                let mut live = Box::new(Live::stream(PathBuf::from(format!(
                    "{} (sub-agent {call})",
                    parent.map_or("-".into(), |p| p.display().to_string())
                ))));
                if let Some(redactor) = redactor {
                    live.redact_with(redactor.clone());
                }
                Child {
                    live,
                    wanted: (!inline).then(|| source.clone()),
                    inline,
                }
            });
            if let SubAgentSource::Lines(bytes) = source
                && child.inline
            {
                changed |= with_conversation(conv, &call, &mut child.live, |live| {
                    live.push_stream(&bytes, false).is_ok()
                });
            }
        }
        for (call, child) in &mut self.by_call {
            if let Some(wanted) = &child.wanted {
                let Some(path) = parent.and_then(|p| find(p, wanted)) else {
                    continue;
                };
                child.wanted = None;
                let mut live = Box::new(Live::stream_file(path));
                if let Some(redactor) = redactor {
                    live.redact_with(redactor.clone());
                }
                child.live = live;
            }
            changed |= with_conversation(conv, call, &mut child.live, |live| {
                let mut changed = false;
                if !child.inline {
                    changed |= live
                        .refresh_stream()
                        .is_ok_and(|r| r != super::Refresh::Unchanged);
                }
                if end {
                    let before = live.conversation.events.len();
                    live.finish_stream();
                    changed |= live.conversation.events.len() != before;
                }
                changed
            });
        }
        changed
    }

    /// The problems met reading the sub-agents, one line each, naming the file.
    pub(super) fn warnings(&self) -> impl Iterator<Item = &String> {
        self.by_call.values().flat_map(|child| &child.live.warnings)
    }
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

/// The file `wanted` names beside `parent`, if it exists.
fn find(parent: &Path, wanted: &SubAgentSource) -> Option<PathBuf> {
    let folder = parent.parent().filter(|f| !f.as_os_str().is_empty());
    let folder = folder.unwrap_or(Path::new("."));
    match wanted {
        SubAgentSource::Lines(_) => None,
        SubAgentSource::File(paths) => paths.iter().map(|p| folder.join(p)).find(|p| p.is_file()),
        SubAgentSource::Ending(ending) => {
            let compressed = format!("{ending}.zst");
            let mut names: Vec<PathBuf> = std::fs::read_dir(folder)
                .ok()?
                .flatten()
                .map(|entry| entry.path())
                .filter(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.ends_with(ending) || n.ends_with(&compressed))
                })
                .filter(|p| p.as_path() != parent && p.is_file())
                .collect();
            names.sort();
            names.into_iter().next()
        }
    }
}

impl Live {
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
