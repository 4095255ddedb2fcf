//! The manager side of the protocol, a Gomocup client: it plays refereed games between two
//! pbrain engines, as Piskvork or c-gomoku-cli do. The protocol library (framing → command
//! → session → driver) does not depend on it; it speaks to engines in the same types
//! ([`crate::command::Command`] out, [`crate::response::Response`] in).
//!
//! - [`process`]: an engine as a child process, and its command line;
//! - [`referee`]: one game — the engines started and set up, asked for their moves, judged
//!   under the rule;
//! - [`openings`]: the openings games start from (a file's, random ones, and mnk's score of
//!   one);
//! - [`record`]: a finished game, in SGF and Piskvork's PSQ;
//! - [`stats`]: Elo with its interval, and the SPRT.
//!
//! It is behind the `manager` feature (on by default): an engine that embeds the protocol
//! library alone leaves it out with `default-features = false`.

pub mod openings;
pub mod process;
pub mod record;
pub mod referee;
pub mod stats;

use std::fmt;

/// A problem that stops the whole match (not just one game).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchError {
    /// An engine could not be started.
    EngineStart(process::EngineError),
    /// An opening is not a legal position.
    BadOpening(openings::OpeningError),
    /// An engine started but did not get through the game's set-up (it exited, or refused
    /// the board): no game can be played with it, so none is scored.
    SetupFailed {
        /// The engine's name (its program's, as it gave none before failing).
        engine: String,
        /// What happened.
        reason: record::GameEnd,
    },
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::EngineStart(e) => write!(f, "engine failed to start: {e}"),
            MatchError::BadOpening(e) => write!(f, "bad opening: {e}"),
            MatchError::SetupFailed { engine, reason } => {
                write!(f, "engine failed to start: {engine}: {reason}")
            }
        }
    }
}

impl std::error::Error for MatchError {}
