//! Which sub-agent an event belongs to, and which call of this conversation
//! its lines go to (spec agent-transcripts-2 §3.7).
//!
//! A sub-agent's events are in the same log as its parent's, marked by the
//! envelope `agentId`; `subagent.started {toolCallId}` ties an agent to the
//! call that started it, but no field says which `agentId` that agent
//! writes. So an agent id is bound, when it first appears, to: the call
//! whose id it is; else the call its deprecated `data.parentToolCallId`
//! names; else the oldest sub-agent started and not bound yet. A sub-agent's
//! own sub-agents go to the call of the sub-agent they descend from, whose
//! reader nests them in turn. An agent bound to nothing is noticed once and
//! stays in the raw view.

use std::collections::{HashMap, VecDeque};

use serde_json::Value;

use crate::format::SubAgentSource;
use super::super::transcript::{Sink, str_at, timestamp};

/// The sub-agents seen so far.
#[derive(Debug, Default)]
pub(super) struct Agents {
    /// By agent id: the call of this conversation its lines are handed to
    /// (`None`: bound to none, its events only in the raw view).
    roots: HashMap<String, Option<String>>,
    /// Calls made by other agents, by call id: the agent that made them.
    foreign: HashMap<String, String>,
    /// Sub-agent calls started whose agent id has not appeared yet, oldest first.
    waiting: VecDeque<String>,
}

impl Agents {
    /// The agent whose event this is when it is not this conversation's
    /// (`own`): its envelope `agentId`, or for a `subagent.*` event, the agent
    /// that made the call it names. `None`: this conversation's own event.
    pub(super) fn owner(
        &self,
        kind: &str,
        data: &Value,
        agent: Option<&str>,
        own: Option<&str>,
    ) -> Option<String> {
        if let Some(agent) = agent
            && Some(agent) != own
        {
            return Some(agent.to_string());
        }
        if kind.starts_with("subagent.")
            && let Some(maker) = str_at(data, "toolCallId").and_then(|c| self.foreign.get(c))
            && Some(maker.as_str()) != own
        {
            return Some(maker.clone());
        }
        None
    }

    /// A sub-agent call of this conversation started: the next new agent id is its.
    pub(super) fn started(&mut self, call: &str) {
        self.waiting.push_back(call.to_string());
    }

    /// Hands the event `value` of agent `owner` to the call of this
    /// conversation it descends from (`calls`: this conversation's calls),
    /// noting the calls and sub-agents it makes.
    pub(super) fn hand_over(
        &mut self,
        sink: &mut Sink,
        value: &Value,
        kind: &str,
        data: &Value,
        owner: &str,
        calls: &HashMap<String, String>,
    ) {
        let root = self.root(sink, value, data, owner, calls);
        let made: Vec<&str> = match kind {
            "assistant.message" => data
                .get("toolRequests")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|r| str_at(r, "toolCallId"))
                .collect(),
            "tool.execution_start" => str_at(data, "toolCallId").into_iter().collect(),
            _ => Vec::new(),
        };
        for call in made {
            self.foreign
                .entry(call.to_string())
                .or_insert_with(|| owner.to_string());
        }
        if kind == "subagent.started"
            && let Some(call) = str_at(data, "toolCallId")
        {
            self.waiting.push_back(call.to_string());
        }
        if let Some(call) = root {
            let mut line = serde_json::to_vec(value).unwrap_or_default();
            line.push(b'\n');
            sink.link(&call, SubAgentSource::Lines(line));
        }
    }

    /// The call of this conversation agent `owner`'s lines go to, bound
    /// when the agent first appears.
    fn root(
        &mut self,
        sink: &mut Sink,
        value: &Value,
        data: &Value,
        owner: &str,
        calls: &HashMap<String, String>,
    ) -> Option<String> {
        if let Some(root) = self.roots.get(owner) {
            return root.clone();
        }
        let call = if calls.contains_key(owner) || self.foreign.contains_key(owner) {
            Some(owner.to_string())
        } else if let Some(parent) = str_at(data, "parentToolCallId") {
            self.waiting.retain(|c| c != parent);
            Some(parent.to_string())
        } else {
            self.waiting.pop_front()
        };
        let root = call.and_then(|call| {
            if calls.contains_key(&call) {
                return Some(call);
            }
            let maker = self.foreign.get(&call)?;
            self.roots.get(maker).cloned().flatten()
        });
        if root.is_none() {
            sink.notice(
                timestamp(value),
                "info",
                format!("unlinked sub-agent {owner} (its events are in the raw view)"),
            );
        }
        self.roots.insert(owner.to_string(), root.clone());
        root
    }
}
