//! Exact values of the small boards (3×3, 5×5): [`solve`] runs the ordinary search to full
//! depth, where every leaf is a decided game, so its score is the game value. What makes it
//! fast is the search's small-board step: the draw bounds of [`crate::pairing`] and the
//! symmetry-canonical table keys.

use std::fmt;
use std::time::Duration;

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

/// An exact value, with one optimal move and what proving it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The game value for the side to move (of a decided position: its result for the side
    /// to move, who has not won).
    pub value: GameValue,
    /// One optimal move (`None` on a decided board): the search's is among wins the
    /// fastest, among losses the slowest.
    pub best: Option<Cell>,
    /// The proven score, distance-encoded for wins and losses, where the search proved the
    /// value (the small boards); `None` from the prover.
    pub score: Option<Score>,
    /// Nodes searched (the prover's node expansions).
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
}

impl Solution {
    /// The solution a full-depth search proved.
    fn of_search(search: &SearchResult) -> Solution {
        Solution {
            value: GameValue::from_score(search.score()),
            best: search.best_move,
            score: Some(search.score()),
            nodes: search.nodes,
            time: search.time,
        }
    }
}

/// Solves a small-board position exactly with the full-depth search.
pub fn solve<B: Storage>(board: &Board<B>, tt: &mut TranspositionTable) -> Solution {
    solve_with(board, tt, true, &Limits::default()).expect("a solve without limits ends proven")
}

/// [`solve`], choosing whether the search may use pairing strategies, within `limits` (their
/// nodes, deadline and flag; the depth is the board's). `None` if they stopped it first.
pub fn solve_with<B: Storage>(
    board: &Board<B>,
    tt: &mut TranspositionTable,
    pairing: bool,
    limits: &Limits,
) -> Option<Solution> {
    assert!(B::GEOMETRY.lines_span_board(), "solve is for boards whose lines span the board");
    let limits = Limits { depth: Some(B::GEOMETRY.cells() as u32), ..limits.each_search() };
    let search = Searcher::new(board.clone(), tt, limits).with_pairing(pairing).run(&mut |_| {});
    debug_assert!(search.proven || search.stopped, "a full-depth small-board search is exact");
    search.proven.then(|| Solution::of_search(&search))
}
