//! Why a move or a position is refused: an illegal move ([`IllegalMove`]), or a move list
//! that does not parse or holds one ([`PositionError`]). Syntax and legality are separate
//! errors.

use std::fmt;

use crate::notation::NotationError;

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The coordinates are not on the board.
    OffBoard {
        /// Column as given.
        x: usize,
        /// Row as given.
        y: usize,
    },
    /// A stone already stands there.
    Occupied {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
    },
    /// The game is already decided.
    GameOver,
    /// A renju forbidden point for black.
    Forbidden {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
    },
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::OffBoard { x, y } => write!(f, "{x},{y} is off the board"),
            IllegalMove::Occupied { x, y } => write!(f, "{x},{y} is occupied"),
            IllegalMove::GameOver => write!(f, "the game is already decided"),
            IllegalMove::Forbidden { x, y } => write!(f, "{x},{y} is forbidden for black (renju)"),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// Why a position could not be built from a move list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The text is not a move list.
    Syntax(NotationError),
    /// Move number `index` (0-based) is illegal.
    Illegal {
        /// 0-based index of the offending move in the list.
        index: usize,
        /// Why it is illegal.
        reason: IllegalMove,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Syntax(e) => write!(f, "bad move list: {e}"),
            PositionError::Illegal { index, reason } => {
                write!(f, "move {} is illegal: {reason}", index + 1)
            }
        }
    }
}

impl std::error::Error for PositionError {}

impl From<NotationError> for PositionError {
    fn from(e: NotationError) -> Self {
        PositionError::Syntax(e)
    }
}
