//! `mnk-protocol`: the Gomocup ("pbrain") protocol, both sides of it.
//!
//! **The engine's side**, the protocol library, in layers each testable on its own:
//! [`framing`] (lines → frames, `BOARD`…`DONE` blocks) → [`command`] (typed commands) →
//! [`session`] (a pure state machine: commands in, [`response`]s out, every refusal an
//! [`error::SessionError`], searches and counts handed out as jobs with the engine's front
//! door, [`mnk_engine::engine::Engine`]) → [`driver`] (stdin reader thread, worker thread,
//! stop flag, one flushing writer). [`progress`] types what the `MESSAGE` lines report, and
//! [`gamefile`] reads and writes games (SGF and PSQ). Lenient on input, exact on output, no
//! panic on any input line, no `unsafe`. It needs nothing but the engine and `log`.
//!
//! **The manager's side**, `manager` (the `manager` feature, on by default): a Gomocup
//! client that plays refereed games between engine processes, speaking the same types
//! (commands out, responses in). The protocol library does not depend on it.
//!
//! **The binary** `pbrain-mnk` (`src/bin/pbrain-mnk/`, the `tools` feature, on by default)
//! holds the rooms for people and scripts, with the crates they need (clap, axum, tokio,
//! serde): the command-line tools (`perft`, `match`, `play`, `analyze`, `gui`, ...), the web
//! board, the tuner and the words and analyses they show. An engine that embeds the
//! protocol builds this library with `default-features = false` and gets none of them.

#![forbid(unsafe_code)]

pub mod command;
pub mod driver;
pub mod error;
pub mod framing;
pub mod gamefile;
#[cfg(feature = "manager")]
pub mod manager;
pub mod progress;
pub mod response;
pub mod session;
pub mod setting;
