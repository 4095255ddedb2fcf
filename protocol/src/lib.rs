//! `mnk-protocol`: the Gomocup ("pbrain") protocol front end of mnk.
//!
//! Layers, each testable on its own:
//! [`framing`] (lines → frames, `BOARD`…`DONE` blocks) → [`command`] (typed commands) →
//! [`session`] (a pure state machine: commands in, [`response`]s out, every refusal an
//! [`error::SessionError`], searches and counts handed out as jobs) → [`driver`] (stdin
//! reader thread, worker thread, stop flag, one flushing writer). [`player`] is who
//! chooses the moves; [`manager`] is the other side of the protocol: it runs refereed games
//! between engine processes.
//!
//! Lenient on input, exact on output, no panic on any input line, no `unsafe`.

#![forbid(unsafe_code)]

pub mod command;
pub mod driver;
pub mod error;
pub mod framing;
pub mod manager;
pub mod progress;
pub mod response;
pub mod session;
