//! Subcommands of `pbrain-mnk` (everything except the protocol loop).

pub(crate) mod args;
pub(crate) mod bench;
pub(crate) mod matches;
pub(crate) mod openings;
pub(crate) mod perft;
pub(crate) mod play;
pub(crate) mod solve;

use std::fmt;
use std::io;

pub(crate) use args::UsageError;

/// Why a subcommand failed.
#[derive(Debug)]
pub(crate) enum CliError {
    /// Bad or missing arguments (exit code 2).
    Usage(UsageError),
    /// Writing the output failed (exit code 1).
    Io(io::Error),
    /// A match could not go on (exit code 1).
    Match(String),
    /// Fewer balanced openings were found than asked for (exit code 1).
    Openings(String),
}

impl CliError {
    /// The process exit code for this error.
    pub(crate) fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Io(_) | CliError::Match(_) | CliError::Openings(_) => 1,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(e) => write!(f, "{e}"),
            CliError::Io(e) => write!(f, "output error: {e}"),
            CliError::Match(e) => write!(f, "match stopped: {e}"),
            CliError::Openings(e) => write!(f, "openings: {e}"),
        }
    }
}

impl From<UsageError> for CliError {
    fn from(e: UsageError) -> Self {
        CliError::Usage(e)
    }
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> Self {
        CliError::Io(e)
    }
}
