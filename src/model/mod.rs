//! The conversation: turns, request/response pairing, joined speech and the three views.
