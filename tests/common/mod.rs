//! What every integration test shares, written once: the viewer in a real
//! pseudo-terminal ([`pty`]), the real corpora ([`corpus`]), and the insta
//! snapshot settings ([`snapshot`]), the Claude Code and Codex fixtures
//! ([`agents`]). Each test file uses a different part.

#![allow(dead_code)]

pub mod agents;
pub mod corpus;
pub mod pty;
pub mod snapshot;
