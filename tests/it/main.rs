//! The integration tests, as one test binary (as ripgrep's are): every
//! command run through the real program, the viewer in a real
//! pseudo-terminal, the corpora walked. One binary links the crate once;
//! sixty did sixty times. Shared helpers live in [`common`].

mod common;
// `all_widths/check.rs` is shared with a fuzz target, where `sgr` sits at the root.
use common::sgr;

mod agent_counts;
mod agent_finished;
mod agent_live_pty;
mod agent_loose_ends;
mod agent_snapshots;
mod agent_styles;
mod all_widths;
mod architecture;
mod base64_agreement;
mod bounded_work;
mod cli_card;
mod cli_command_line;
mod cli_errors;
mod cli_events;
mod cli_time_travel;
mod corpus_jp;
mod corpus_render;
mod discover_sessions;
mod echoed_names;
mod eve_corpus;
mod eve_live;
mod eve_pieces;
mod eve_render;
mod eve_snapshots;
mod eve_streams;
mod eve_updates;
mod eve_v27;
mod export;
mod fuzz_regressions;
mod highlight_visible_pty;
mod hostile;
mod hostile_flood;
mod hostile_idle;
mod hostile_signals;
mod hostile_streams;
mod hostile_tui;
mod lazy_open;
mod lazy_open_pty;
mod library_api;
mod library_corpus;
mod no_clap_in_core;
mod picker_sessions_pty;
mod readonly;
mod redact_viewer_pty;
mod render_markdown;
mod render_snapshots;
mod render_turns;
mod rewrite_prefix;
mod soak;
mod subagents;
mod subagents_pty;
mod text_layer;
mod tui_eve_pty;
mod tui_everyday_pty;
mod tui_keys_pty;
mod tui_pty;
mod tui_replay_pty;
mod user_config;
