//! Typed progress and results of a search. The engine prints nothing; front ends format
//! these values.

use std::time::Duration;

use crate::geometry::Cell;
use crate::score::Score;

/// Progress after each completed iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Depth of the completed iteration, in plies.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score for the side to move (see [`crate::score`]).
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation, starting with the best move.
    pub pv: Vec<Cell>,
    /// In a search for several lines (multi-PV), which line this is (1 = the best); `None`
    /// in a search for one line.
    pub line: Option<usize>,
}

/// One line of a multi-PV search: a root move's score and principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvLine {
    /// Depth of the iteration that found the line, in plies.
    pub depth: u32,
    /// Score for the side to move.
    pub score: Score,
    /// The principal variation, starting with the root move.
    pub pv: Vec<Cell>,
}

/// The outcome of a search (`default()`: no search, no move).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; always legal, so `None` when no move is: on a decided board, and
    /// for renju's black with only forbidden points left (see
    /// [`crate::board::Board::only_forbidden_moves_left`]). It starts `lines[0]`
    /// when there is a line (see [`SearchResult::score`] and [`SearchResult::pv`]).
    pub best_move: Option<Cell>,
    /// Depth of the last completed iteration (0 if none completed).
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
    /// The best lines, each with a different root move (see
    /// [`crate::search::Searcher::with_multipv`]): those of the last iteration, best score
    /// first, then, if a limit cut that iteration short, the rest of the iteration before.
    /// `lines[0]` is the line of `best_move`. A gomoku-board win a threat sequence proved
    /// before the main search is one of the lines, with depth 1. Fewer than asked for when
    /// fewer moves are searched; empty when no iteration completed a line. A single-line
    /// search stopped in its first line keeps a root move that beat the last iteration's best
    /// there, searched to the unfinished iteration's depth: its one line then has that depth,
    /// one more than `depth`.
    pub lines: Vec<PvLine>,
    /// Whether the score is the exact game value (small boards searched to the end).
    pub proven: bool,
    /// Whether a limit stopped the search before its maximum depth.
    pub stopped: bool,
    /// Nodes of the VCF solver (root and leaves), counted apart from `nodes`.
    pub vcf_nodes: u64,
    /// Time of the threat searches before the main search (gomoku boards: root VCF, VCT and
    /// the defence filter); the rest of `time` is the main search's.
    pub root_threat_time: Duration,
    /// Time of the checks of the iterations' best moves against the opponent's threat
    /// sequences (gomoku boards), within `time` after `root_threat_time`.
    pub check_time: Duration,
}

impl SearchResult {
    /// Score of `best_move`: `lines[0]`'s — that of the last completed iteration, or of the
    /// unfinished one when a root move there beat the last best — or 0 if no line completed.
    pub fn score(&self) -> Score {
        self.lines.first().map_or(0, |line| line.score)
    }

    /// Principal variation of `best_move`, from the same iteration as [`SearchResult::score`]
    /// (`lines[0]`'s; empty if no line completed).
    pub fn pv(&self) -> &[Cell] {
        self.lines.first().map_or(&[], |line| &line.pv)
    }
}

/// Nodes per second for `nodes` in `time` (0 for a zero duration).
pub fn nodes_per_second(nodes: u64, time: Duration) -> u64 {
    (u128::from(nodes) * 1_000_000).checked_div(time.as_micros()).map_or(0, |n| n as u64)
}
