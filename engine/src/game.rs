//! The one run-time dispatch from a board to its type: a [`Game`] holds a board of any size
//! mnk plays, and [`with_game!`](crate::with_game) runs generic engine code on it (matching once per call,
//! never per cell). Front ends build a `Game` from the size they are given; what needs only
//! a size's geometry takes [`BoardSize::geometry`], a value.

use std::fmt;

use crate::bitboard::{Bitboard, Bits16, Bits32, Bits256, Bits512};
use crate::board::{Board, IllegalMove, PositionError};
use crate::color::Color;
use crate::geometry::{Cell, Geometry};
use crate::notation::{self, Point};
use crate::outcome::Outcome;
use crate::rules::Rule;
use crate::size::BoardSize;

/// A position on a board of one of the supported sizes.
#[derive(Clone, Debug)]
#[allow(
    clippy::large_enum_variant,
    reason = "a session holds one game; boxing would add an indirection to every dispatch"
)]
pub enum Game {
    /// 3×3.
    Three(Board<Bits16>),
    /// 5×5.
    Five(Board<Bits32>),
    /// The other sizes up to 15×15, five in a row.
    Gomoku(Board<Bits256>),
    /// The larger sizes, up to 22×22, five in a row.
    Large(Board<Bits512>),
}

/// Runs `$body` with `$b` bound to the board inside a [`Game`] (a reference to it when the
/// game is given by reference, a mutable one when by mutable reference).
///
/// ```
/// use mnk_engine::bitboard::Bitboard;
/// use mnk_engine::game::Game;
/// use mnk_engine::size::BoardSize;
/// use mnk_engine::{rules::Rule, with_game};
/// let game = Game::from_notation(BoardSize::FIVE, Rule::Freestyle, "c3").unwrap();
/// let legal = with_game!(&game, b => b.empty_cells().iter().count());
/// assert_eq!(legal, 24);
/// ```
#[macro_export]
macro_rules! with_game {
    ($game:expr, $b:ident => $body:expr) => {
        match $game {
            $crate::game::Game::Three($b) => $body,
            $crate::game::Game::Five($b) => $body,
            $crate::game::Game::Gomoku($b) => $body,
            $crate::game::Game::Large($b) => $body,
        }
    };
}

impl Game {
    /// An empty board of `size` under `rule`.
    pub fn new(size: BoardSize, rule: Rule) -> Game {
        match size {
            BoardSize::THREE => Game::Three(Board::new(rule)),
            BoardSize::FIVE => Game::Five(Board::new(rule)),
            _ if size.geometry().stride() == Bits256::GEOMETRY.stride() => {
                Game::Gomoku(Board::with_geometry(size.geometry(), rule))
            }
            _ => Game::Large(Board::with_geometry(size.geometry(), rule)),
        }
    }

    /// The position after playing `moves` (coordinates) from the empty board.
    pub fn from_points(
        size: BoardSize,
        rule: Rule,
        moves: &[Point],
    ) -> Result<Game, PositionError> {
        let mut game = Game::new(size, rule);
        for (index, &point) in moves.iter().enumerate() {
            game.try_play(point).map_err(|reason| PositionError::Illegal { index, reason })?;
        }
        Ok(game)
    }

    /// The position after a move list in `x,y` or pos notation (see [`crate::notation`]).
    pub fn from_notation(size: BoardSize, rule: Rule, text: &str) -> Result<Game, PositionError> {
        Game::from_points(size, rule, &notation::parse_moves(text)?)
    }

    /// The board size.
    pub fn size(&self) -> BoardSize {
        let g = self.geometry();
        BoardSize::new(g.width(), g.height()).expect("a game's board is a size mnk plays")
    }

    /// The geometry of the board.
    pub fn geometry(&self) -> Geometry {
        with_game!(self, b => b.geometry())
    }

    /// The (x, y) of `cell` on this board.
    pub fn point(&self, cell: Cell) -> Point {
        Point::from(self.geometry().xy(cell))
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

    /// Whether the side to move has lost by having only forbidden points left (see
    /// [`Board::only_forbidden_moves_left`]).
    pub fn only_forbidden_moves_left(&self) -> bool {
        with_game!(self, b => b.only_forbidden_moves_left())
    }

    /// The game's result as a referee counts it: the outcome, except that renju's black with
    /// only forbidden points left has lost (any move it could make is a foul). `Ongoing`
    /// while the side to move has a legal move.
    pub fn result(&self) -> Outcome {
        match self.outcome() {
            Outcome::Ongoing if self.only_forbidden_moves_left() => {
                Outcome::Win(self.side_to_move().opponent())
            }
            outcome => outcome,
        }
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
        self.history_cells().into_iter().map(|c| self.point(c)).collect()
    }

    /// The moves played, first move first.
    pub fn history_cells(&self) -> Vec<Cell> {
        with_game!(self, b => b.history().to_vec())
    }

    /// Plays (x, y) for the side to move, or explains why not (the game is unchanged).
    pub fn try_play(&mut self, point: Point) -> Result<Outcome, IllegalMove> {
        with_game!(self, b => b.try_play_at(point.x, point.y))
    }

    /// The last move, as a point.
    pub fn last_move(&self) -> Option<Point> {
        with_game!(self, b => b.last_move()).map(|c| self.point(c))
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Option<Point> {
        with_game!(self, b => b.undo()).map(|c| self.point(c))
    }

    /// The legal moves, as points in cell order (none on a decided game, and none for
    /// renju's black with only forbidden points left).
    pub fn legal_points(&self) -> Vec<Point> {
        let cells: Vec<Cell> = with_game!(self, b => b.legal_moves().iter().collect());
        cells.into_iter().map(|c| self.point(c)).collect()
    }

    /// The stones of the five (or longer line, where it wins) that the last move made: empty
    /// unless that move won. Sorted by column, then row.
    pub fn winning_stones(&self) -> Vec<Point> {
        let cells: Vec<Cell> = with_game!(self, b => match b.last_move() {
            Some(cell) if b.outcome().is_decided() => {
                let color = b.stone_at(cell).expect("the last move's stone");
                let (own, opp) = (b.stones(color), b.stones(color.opponent()));
                b.rule().winning_stones_through(own, opp, cell, color).iter().collect()
            }
            _ => Vec::new(),
        });
        let mut points: Vec<Point> = cells.into_iter().map(|c| self.point(c)).collect();
        points.sort_unstable();
        points
    }

    /// Black's renju forbidden points (empty unless the rule is renju), sorted by column,
    /// then row.
    pub fn forbidden_points(&self) -> Vec<Point> {
        let forbidden: Vec<Cell> =
            with_game!(self, b => b.forbidden_among(b.empty_cells()).iter().collect());
        let mut points: Vec<Point> = forbidden.into_iter().map(|c| self.point(c)).collect();
        points.sort_unstable();
        points
    }

    /// The renju foul black would commit on `point` (regardless of whose turn it is): `None`
    /// under other rules, off the board or on an occupied point.
    pub fn foul(&self, point: Point) -> Option<crate::renju::Foul> {
        let cell = self.geometry().cell(point.x, point.y)?;
        with_game!(self, b => b.foul_at(cell))
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

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        with_game!(self, b => fmt::Display::fmt(b, f))
    }
}
