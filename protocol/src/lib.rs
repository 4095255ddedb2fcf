//! `mnk-protocol`: the Gomocup ("pbrain") protocol, both sides of it.
//!
//! **The engine's side**, the protocol library, in layers each testable on its own:
//! [`framing`] (lines → frames, `BOARD`…`DONE` blocks) → [`command`] (typed commands) →
//! [`session`] (a pure state machine: commands in, [`response`]s out, every refusal an
//! [`error::SessionError`], searches and counts handed out as jobs with the engine's front
//! door, [`mnk_engine::engine::Engine`]) → [`driver`] (stdin reader thread, worker thread,
//! stop flag, one flushing writer). [`progress`] types what the `MESSAGE` lines report.
//! Lenient on input, exact on output, no panic on any input line, no `unsafe`.
//!
//! **The manager's side**, [`manager`]: a Gomocup client that plays refereed games between
//! engine processes, speaking the same types (commands out, responses in). The protocol
//! library does not depend on it.
//!
//! **For people**: game files ([`gamefile`], SGF and PSQ), a position's analysis as front
//! ends show it ([`analysis`]), refused moves in words ([`explain`]), and the web board
//! ([`web`]), which seats engines through the manager.
//!
//! The command-line tools (`perft`, `match`, `play`, `analyze`, `gui`, ...) are the
//! binary's, in its `cli` module.

#![forbid(unsafe_code)]

pub mod analysis;
pub mod command;
pub mod driver;
pub mod error;
pub mod explain;
pub mod framing;
pub mod gamefile;
pub mod manager;
pub mod progress;
pub mod response;
pub mod session;
pub mod setting;
pub mod web;
