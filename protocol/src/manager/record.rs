//! A finished game — its moves, its result and why it ended — and the files it is saved
//! in: SGF (`GM[4]`, as Gomoku GUIs read it) and Piskvork's PSQ.

use mnk_engine::color::Color;
use mnk_engine::notation::Point;
use mnk_engine::rules::Rule;
use mnk_engine::size::BoardSize;
use std::fmt;

use mnk_engine::board::IllegalMove;

use super::process::EngineError;
use crate::gamefile::GameFile;

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Black's name (from `ABOUT`) and white's.
    pub names: [String; 2],
    /// The opening stones, then the moves with the time each took (0 for the opening).
    pub moves: Vec<(Point, u64)>,
    /// Stones of the opening at the start of `moves`.
    pub opening_len: usize,
    /// The rule it was played under.
    pub rule: Rule,
    /// The result.
    pub result: GameResult,
}

impl GameRecord {
    /// The game as a file holds it (see [`crate::gamefile`]): the rule, the names, the
    /// result with its reason as the comment, and each move's time (none for the opening's
    /// stones). The caller adds the date and the event.
    pub fn to_game_file(&self, size: BoardSize) -> GameFile {
        let mut file = GameFile::new(size, Some(self.rule), &[]);
        file.moves = self
            .moves
            .iter()
            .enumerate()
            .map(|(i, &(point, ms))| (point, (i >= self.opening_len).then_some(ms)))
            .collect();
        file.names = self.names.clone().map(Some);
        file.result = Some(
            match self.result.winner {
                Some(Color::Black) => "B+",
                Some(Color::White) => "W+",
                None => "0",
            }
            .to_string(),
        );
        file.comment = Some(self.result.reason.to_string());
        file
    }
}

/// How a game ended, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why.
    pub reason: GameEnd,
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// A five (by the rule).
    Five,
    /// The board filled up.
    FullBoard,
    /// Adjudicated a draw at the move limit.
    MoveLimit,
    /// An engine answered `START` with something else than `OK`.
    StartRefused(String),
    /// An engine failed while being set up.
    StartFailed(EngineError),
    /// A move on an occupied cell, off the board, or (`foul`) on a renju forbidden point.
    IllegalMove {
        /// The move.
        point: Point,
        /// Why it is illegal.
        error: IllegalMove,
    },
    /// An answer shaped like a move whose numbers cannot be a cell of any board.
    OffAnyBoard(String),
    /// A known reply that is not a move.
    Refused(String),
    /// No move within the time allowed (`ms`, tolerance included).
    Timeout {
        /// The milliseconds waited.
        ms: u64,
    },
    /// The game clock ran out.
    ClockRanOut,
    /// The engine exited or could not be written to.
    Crashed(EngineError),
}

impl GameEnd {
    /// For a game lost by a forfeit, its kind as a match counts them: `start`, `illegal`,
    /// `foul`, `refused`, `timeout`, `time` (the game clock) or `crash`; `None` for a game
    /// decided on the board.
    pub fn forfeit(&self) -> Option<&'static str> {
        match self {
            GameEnd::Five | GameEnd::FullBoard | GameEnd::MoveLimit => None,
            GameEnd::StartRefused(_) | GameEnd::StartFailed(_) => Some("start"),
            GameEnd::IllegalMove { error: IllegalMove::Forbidden { .. }, .. } => Some("foul"),
            GameEnd::IllegalMove { .. } | GameEnd::OffAnyBoard(_) => Some("illegal"),
            GameEnd::Refused(_) => Some("refused"),
            GameEnd::Timeout { .. } => Some("timeout"),
            GameEnd::ClockRanOut => Some("time"),
            GameEnd::Crashed(_) => Some("crash"),
        }
    }
}

impl fmt::Display for GameEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameEnd::Five => f.write_str("five"),
            GameEnd::FullBoard => f.write_str("full board"),
            GameEnd::MoveLimit => f.write_str("adjudicated: move limit"),
            GameEnd::StartRefused(answer) => write!(f, "START answered {answer:?}"),
            GameEnd::StartFailed(e) => write!(f, "start-up: {e}"),
            GameEnd::IllegalMove { point, error } => {
                let kind = if matches!(error, IllegalMove::Forbidden { .. }) {
                    "foul"
                } else {
                    "illegal move"
                };
                write!(f, "{kind} {point}: {error}")
            }
            GameEnd::OffAnyBoard(text) => write!(f, "illegal move {text}: off the board"),
            GameEnd::Refused(text) => write!(f, "refused: answered {text:?}"),
            GameEnd::Timeout { ms } => write!(f, "timeout: no move within {ms} ms"),
            GameEnd::ClockRanOut => f.write_str("time forfeit: the game clock ran out"),
            GameEnd::Crashed(e) => write!(f, "crash: {e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gamefile::{write_psq, write_sgf};

    #[test]
    fn records_print_as_sgf_and_psq() {
        let record = GameRecord {
            names: ["mnk".into(), "other]".into()],
            moves: vec![(Point::new(7, 7), 0), (Point::new(8, 8), 12)],
            opening_len: 1,
            rule: Rule::Freestyle,
            result: GameResult {
                winner: Some(Color::White),
                reason: GameEnd::Timeout { ms: 1100 },
            },
        };
        let file = record.to_game_file(BoardSize::FIFTEEN);
        assert_eq!(
            write_sgf(&file),
            "(;GM[4]FF[4]SZ[15]RU[freestyle]PB[mnk]PW[other\\]]RE[W+]\
             C[timeout: no move within 1100 ms];B[hh];W[ii]C[12 ms])\n"
        );
        assert_eq!(write_psq(&file), "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,12\nmnk\nother]\n");
    }

    #[test]
    fn reasons_read_as_the_match_reports_them() {
        let occupied = IllegalMove::Occupied { x: 7, y: 7 };
        let illegal = GameEnd::IllegalMove { point: Point::new(7, 7), error: occupied };
        assert_eq!(illegal.to_string(), "illegal move 7,7: 7,7 is occupied");
        let foul = GameEnd::IllegalMove {
            point: Point::new(9, 7),
            error: IllegalMove::Forbidden { x: 9, y: 7 },
        };
        assert!(foul.to_string().starts_with("foul 9,7: "), "{foul}");
        assert_eq!(
            GameEnd::OffAnyBoard("-1,3".into()).to_string(),
            "illegal move -1,3: off the board"
        );
        assert_eq!(GameEnd::Timeout { ms: 400 }.to_string(), "timeout: no move within 400 ms");
    }
}
