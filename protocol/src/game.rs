//! The one run-time dispatch over board sizes: [`Game`] holds a board of any supported size
//! and forwards each operation to the generic engine code.

use std::fmt;

use mnk_engine::BoardSize;
use mnk_engine::bitboard::{Bitboard, Bits256};
use mnk_engine::board::{Board, IllegalMove};
use mnk_engine::outcome::Outcome;
use mnk_engine::color::Color;
use mnk_engine::rules::Rule;

use crate::command::Point;

/// A position on a board of one of the supported sizes.
#[derive(Clone, Debug)]
pub enum Game {
    /// 3×3.
    Three(Board<u16>),
    /// 5×5.
    Five(Board<u32>),
    /// 15×15.
    Fifteen(Board<Bits256>),
}

/// Runs `$body` with `$b` bound to the inner board of a [`Game`] (by reference, or by
/// mutable reference with `mut`).
#[macro_export]
macro_rules! with_game {
    ($game:expr, $b:ident => $body:expr) => {
        match $game {
            $crate::game::Game::Three($b) => $body,
            $crate::game::Game::Five($b) => $body,
            $crate::game::Game::Fifteen($b) => $body,
        }
    };
}

impl Game {
    /// An empty board of `size` under `rule`.
    pub fn new(size: BoardSize, rule: Rule) -> Game {
        match size {
            BoardSize::Three => Game::Three(Board::new(rule)),
            BoardSize::Five => Game::Five(Board::new(rule)),
            BoardSize::Fifteen => Game::Fifteen(Board::new(rule)),
        }
    }

    /// The board size.
    pub fn size(&self) -> BoardSize {
        match self {
            Game::Three(_) => BoardSize::Three,
            Game::Five(_) => BoardSize::Five,
            Game::Fifteen(_) => BoardSize::Fifteen,
        }
    }

    /// The rule in force.
    pub fn rule(&self) -> Rule {
        with_game!(self, b => b.rule())
    }

    /// The state of the game.
    pub fn outcome(&self) -> Outcome {
        with_game!(self, b => b.outcome())
    }

    /// The colour to move.
    pub fn side_to_move(&self) -> Color {
        with_game!(self, b => b.side_to_move())
    }

    /// Stones on the board.
    pub fn move_count(&self) -> usize {
        with_game!(self, b => b.move_count())
    }

    /// Empty cells.
    pub fn empty_count(&self) -> usize {
        with_game!(self, b => b.empty_cells().count() as usize)
    }

    /// The moves played, as points, first move first.
    pub fn history(&self) -> Vec<Point> {
        with_game!(self, b => b.history().iter().map(|&c| xy_of(b, c)).collect())
    }

    /// Plays (x, y) for the side to move, or explains why not (the game is unchanged).
    pub fn try_play(&mut self, (x, y): Point) -> Result<Outcome, IllegalMove> {
        with_game!(self, b => b.try_play_at(x, y))
    }

    /// The last move, as a point.
    pub fn last_move(&self) -> Option<Point> {
        with_game!(self, b => b.last_move().map(|c| xy_of(b, c)))
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Option<Point> {
        with_game!(self, b => b.undo().map(|c| xy_of(b, c)))
    }

    /// Black's renju forbidden points (empty unless the rule is renju), sorted by column,
    /// then row.
    pub fn forbidden_points(&self) -> Vec<Point> {
        let mut points: Vec<Point> = with_game!(self, b => {
            b.forbidden_among(b.empty_cells()).iter().map(|c| xy_of(b, c)).collect()
        });
        points.sort_unstable();
        points
    }

    /// The same moves replayed under `rule`.
    pub fn with_rule(&self, rule: Rule) -> Result<Game, IllegalMove> {
        let mut game = Game::new(self.size(), rule);
        for point in self.history() {
            game.try_play(point)?;
        }
        Ok(game)
    }
}

/// The (x, y) of `cell` on `board`'s size: lets code inside [`with_game!`] name the size
/// through the board it holds.
pub fn xy_of<B: Bitboard>(_board: &Board<B>, cell: mnk_engine::geometry::Cell) -> Point {
    B::GEOMETRY.xy(cell)
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        with_game!(self, b => fmt::Display::fmt(b, f))
    }
}
