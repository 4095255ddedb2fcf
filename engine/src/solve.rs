//! Exact values of the small boards (3×3, 5×5): [`solve`] runs the ordinary search to full
//! depth, where every leaf is a decided game, so its score is the game value. What makes it
//! fast is the search's small-board step: the draw bounds of [`crate::pairing`] and the
//! symmetry-canonical table keys.

use std::fmt;

use crate::board::Board;
use crate::geometry::Cell;
use crate::limits::Limits;
use crate::report::SearchResult;
use crate::score::Score;
use crate::search::Searcher;
use crate::storage::Storage;
use crate::tt::TranspositionTable;

/// The value of a game for the side to move under perfect play.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum GameValue {
    /// The side to move can force a win.
    Win,
    /// Both sides can force at least a draw.
    Draw,
    /// The opponent can force a win.
    Loss,
}

impl GameValue {
    /// The value a proven search score stands for.
    pub fn from_score(score: Score) -> GameValue {
        match score {
            s if s > 0 => GameValue::Win,
            0 => GameValue::Draw,
            _ => GameValue::Loss,
        }
    }
}

impl fmt::Display for GameValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameValue::Win => "win",
            GameValue::Draw => "draw",
            GameValue::Loss => "loss",
        })
    }
}

/// The result of [`solve`].
#[derive(Clone, Debug)]
pub struct Solution {
    /// The search that proved it.
    pub search: SearchResult,
}

impl Solution {
    /// The game value for the side to move (of a decided position: its result for the side
    /// to move, who has not won).
    pub fn value(&self) -> GameValue {
        GameValue::from_score(self.score())
    }

    /// One optimal move (`None` on a decided board). Among wins the fastest, among losses
    /// the slowest.
    pub fn best(&self) -> Option<Cell> {
        self.search.best_move
    }

    /// The proven score (distance-encoded for wins and losses).
    pub fn score(&self) -> Score {
        self.search.score()
    }
}

/// Solves a small-board position exactly with the full-depth search.
pub fn solve<B: Storage>(board: &Board<B>, tt: &mut TranspositionTable) -> Solution {
    solve_with(board, tt, true)
}

/// [`solve`], choosing whether the search may use pairing strategies.
pub fn solve_with<B: Storage>(
    board: &Board<B>,
    tt: &mut TranspositionTable,
    pairing: bool,
) -> Solution {
    assert!(B::GEOMETRY.lines_span_board(), "solve is for boards whose lines span the board");
    let limits = Limits::depth(B::GEOMETRY.cells() as u32);
    let search = Searcher::new(board.clone(), tt, limits).with_pairing(pairing).run(&mut |_| {});
    debug_assert!(search.proven, "a full-depth small-board search is exact");
    Solution { search }
}
