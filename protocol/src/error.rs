//! Why the session refuses a command: every refusal is a [`SessionError`], answered
//! `ERROR <text>` and leaving the session as it was.

use std::fmt;

use mnk_engine::board::IllegalMove;
use mnk_engine::rules::Rule;
use mnk_engine::size::{MAX_SIDE, MIN_SIDE};

use crate::command::{InvalidCommand, Point};
use crate::framing::BlockKind;

/// A `rule` code mnk does not play.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct UnsupportedRule(pub u32);

impl fmt::Display for UnsupportedRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unsupported rule {} (0 freestyle, 1 standard, 2/4 renju, 8/9 caro)", self.0)
    }
}

impl std::error::Error for UnsupportedRule {}

/// A command the session refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionError {
    /// A known command with bad arguments.
    Invalid(InvalidCommand),
    /// A command that needs a game before `START`.
    NoGame,
    /// A board size mnk does not play.
    UnsupportedSize {
        /// Columns asked for.
        width: usize,
        /// Rows asked for.
        height: usize,
    },
    /// The rule the settings ask for is not one mnk plays.
    UnsupportedRule(UnsupportedRule),
    /// The game's moves are not a legal game under the rule the settings now ask for.
    IllegalUnderRule {
        /// The rule asked for.
        rule: Rule,
        /// Why a move is illegal under it.
        error: IllegalMove,
    },
    /// `BEGIN` on a board with stones.
    BeginNeedsAnEmptyBoard,
    /// A move (by `TURN`, `PLAY` or in a block) that cannot be played.
    IllegalMove {
        /// The command word.
        command: &'static str,
        /// Where.
        point: Point,
        /// Why not.
        error: IllegalMove,
    },
    /// `TURN` with the move that ends the game: nothing is left to answer.
    TurnEndsTheGame(Point),
    /// A position block lists a cell twice.
    ListedTwice {
        /// `BOARD` or `YXBOARD`.
        kind: BlockKind,
        /// The cell.
        point: Point,
    },
    /// A position block whose stone counts leave the engine not to move.
    StoneCounts {
        /// `BOARD` or `YXBOARD`.
        kind: BlockKind,
        /// The engine's stones.
        own: usize,
        /// The opponent's.
        opponent: usize,
    },
    /// A move request on a decided game.
    GameDecided,
    /// A search that found no move (a decided board).
    NoLegalMove,
    /// A job that failed inside the engine (a bug: the message says where).
    Internal(String),
    /// `TAKEBACK` of a move that is not the last one.
    TakebackNotLast {
        /// The move to take back.
        point: Point,
        /// The last move.
        last: Point,
    },
    /// `TAKEBACK` on an empty board.
    TakebackOnEmpty(Point),
    /// A command of the gomoku boards (`SWAP2BOARD`, `YXSEARCHDEFEND`) on 3×3 or 5×5.
    NeedsGomokuBoard(&'static str),
    /// `PERFT` deeper than the protocol counts on this board.
    PerftTooDeep {
        /// The depth asked for.
        depth: u32,
        /// The deepest the protocol counts here.
        max: u32,
    },
    /// `PERFT` stopped by `YXSTOP` before it finished.
    PerftStopped {
        /// The depth asked for.
        depth: u32,
        /// Milliseconds it counted.
        ms: u128,
    },
    /// `SOLVE` on a board it cannot solve.
    CannotSolve,
    /// `SOLVE` stopped by `YXSTOP` before it finished.
    SolveStopped {
        /// Milliseconds it worked.
        ms: u128,
    },
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::Invalid(e) => write!(f, "{e}"),
            SessionError::NoGame => f.write_str("no game started (send START first)"),
            SessionError::UnsupportedSize { width, height } if width == height => {
                write!(f, "unsupported board size {width}")
            }
            SessionError::UnsupportedSize { width, height } => {
                write!(
                    f,
                    "unsupported board size {width}x{height} (3x3, or each side from {MIN_SIDE} to {MAX_SIDE})"
                )
            }
            SessionError::UnsupportedRule(e) => write!(f, "{e}"),
            SessionError::IllegalUnderRule { rule, error } => {
                write!(f, "the position is illegal under rule {rule}: {error}")
            }
            SessionError::BeginNeedsAnEmptyBoard => {
                f.write_str("BEGIN needs an empty board (use BOARD for a position)")
            }
            SessionError::IllegalMove { command, point, error } => {
                write!(f, "{command} {point}: {error}")
            }
            SessionError::TurnEndsTheGame(point) => write!(f, "TURN {point} ends the game"),
            SessionError::ListedTwice { kind, point } => {
                write!(f, "{} {point}: {point} is listed twice", kind.word())
            }
            SessionError::StoneCounts { kind, own, opponent } => write!(
                f,
                "{}: {own} own and {opponent} opponent stones cannot be a position with the \
                 engine to move",
                kind.word()
            ),
            SessionError::GameDecided => f.write_str("the game is already decided"),
            SessionError::NoLegalMove => f.write_str("no legal move"),
            SessionError::Internal(message) => write!(f, "internal error: {message}"),
            SessionError::TakebackNotLast { point, last } => {
                write!(f, "TAKEBACK {point}: the last move is {last}")
            }
            SessionError::TakebackOnEmpty(point) => {
                write!(f, "TAKEBACK {point}: the board is empty")
            }
            SessionError::NeedsGomokuBoard(command) => {
                write!(f, "{command} needs a board larger than 5x5")
            }
            SessionError::PerftTooDeep { depth, max } => write!(
                f,
                "PERFT: depth {depth} is above {max} on this board (use pbrain-mnk perft)"
            ),
            SessionError::PerftStopped { depth, ms } => {
                write!(f, "PERFT: depth {depth} stopped after {ms} ms")
            }
            SessionError::CannotSolve => f.write_str(
                "SOLVE: only 3x3, 5x5 and, under freestyle, boards from 6 to 8 a side can be solved",
            ),
            SessionError::SolveStopped { ms } => write!(f, "SOLVE: stopped after {ms} ms"),
        }
    }
}

impl std::error::Error for SessionError {}

impl From<InvalidCommand> for SessionError {
    fn from(e: InvalidCommand) -> Self {
        SessionError::Invalid(e)
    }
}

impl From<UnsupportedRule> for SessionError {
    fn from(e: UnsupportedRule) -> Self {
        SessionError::UnsupportedRule(e)
    }
}
