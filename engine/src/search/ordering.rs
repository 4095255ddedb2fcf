//! Move ordering: the transposition-table move, then killer moves, then by history and a
//! static cell priority. Ties break by cell index, so node counts are reproducible.

use arrayvec::ArrayVec;

use crate::bitboard::Bitboard;
use crate::board::{Board, Color};
use crate::eval::WINDOW_WEIGHT;
use crate::geometry::Cell;
use crate::pattern::keys::LineState;
use crate::search::score::MAX_PLY;
use crate::search::threats::threat_value;

/// Sort key of the transposition-table move.
const TT_MOVE_KEY: i64 = 1 << 40;
/// Sort key of the first killer (the second gets one less).
const KILLER_KEY: i64 = 1 << 39;
/// History counts are scaled below killers; the static priority breaks history ties.
const HISTORY_SCALE: i64 = 1 << 12;
/// History counts are halved when one reaches this, keeping them recent.
const HISTORY_CAP: u32 = 1 << 24;

/// A list of moves, at most one per cell.
pub(crate) type MoveList = ArrayVec<Cell, 256>;

/// Moves picked one at a time, best first: the first few by selection (most nodes cut off
/// after one or two moves, so sorting them all would be wasted), the rest by one sort. The
/// order is exactly that of a full sort by key (highest first), ties by cell index.
pub(crate) struct MovePicker {
    keyed: ArrayVec<(i64, Cell), 256>,
    next: usize,
    sorted: bool,
}

/// Picks made by selection before the remaining moves are sorted.
const SELECTION_PICKS: usize = 3;

impl MovePicker {
    /// The moves of `cells` in increasing cell order (all keys equal).
    pub(crate) fn in_cell_order<B: Bitboard>(cells: B) -> MovePicker {
        MovePicker { keyed: cells.iter().map(|c| (0, c)).collect(), next: 0, sorted: true }
    }

    /// Whether `a` comes before `b`.
    #[inline(always)]
    fn before(a: &(i64, Cell), b: &(i64, Cell)) -> bool {
        a.0 > b.0 || (a.0 == b.0 && a.1 < b.1)
    }
}

impl Iterator for MovePicker {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        let rest = self.keyed.get_mut(self.next..)?;
        if rest.is_empty() {
            return None;
        }
        if !self.sorted {
            if self.next < SELECTION_PICKS {
                let mut best = 0;
                for i in 1..rest.len() {
                    if MovePicker::before(&rest[i], &rest[best]) {
                        best = i;
                    }
                }
                rest.swap(0, best);
            } else {
                rest.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
                self.sorted = true;
            }
        }
        self.next += 1;
        Some(rest[0].1)
    }
}

/// Killer moves (two per ply) and the history table (per colour and cell).
pub(crate) struct Ordering {
    killers: Box<[[Option<Cell>; 2]; MAX_PLY]>,
    history: Box<[[u32; 256]; 2]>,
}

impl Ordering {
    pub(crate) fn new() -> Ordering {
        Ordering { killers: Box::new([[None; 2]; MAX_PLY]), history: Box::new([[0; 256]; 2]) }
    }

    /// Records a move that caused a beta cutoff at `ply` with `depth` remaining.
    pub(crate) fn record_cutoff(&mut self, color: Color, cell: Cell, ply: usize, depth: i32) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(cell) {
            killers[1] = killers[0];
            killers[0] = Some(cell);
        }
        let table = &mut self.history[color.index()];
        let bonus = (depth.max(1) * depth.max(1)) as u32;
        table[cell.index()] += bonus;
        if table[cell.index()] >= HISTORY_CAP {
            table.iter_mut().for_each(|h| *h /= 2);
        }
    }

    /// `moves` sorted best first for the side to move at `ply`.
    pub(crate) fn order<B: Bitboard>(
        &self,
        board: &Board<B>,
        moves: B,
        ply: usize,
        tt_move: Option<Cell>,
    ) -> MoveList {
        self.picker(board, moves, ply, tt_move).collect()
    }

    /// `moves` to be picked best first for the side to move at `ply`.
    pub(crate) fn picker<B: Bitboard>(
        &self,
        board: &Board<B>,
        moves: B,
        ply: usize,
        tt_move: Option<Cell>,
    ) -> MovePicker {
        let color = board.side_to_move();
        let killers = self.killers[ply];
        let history = &self.history[color.index()];
        let keyed: ArrayVec<(i64, Cell), 256> = moves
            .iter()
            .map(|cell| {
                let key = if Some(cell) == tt_move {
                    TT_MOVE_KEY
                } else if Some(cell) == killers[0] {
                    KILLER_KEY
                } else if Some(cell) == killers[1] {
                    KILLER_KEY - 1
                } else {
                    i64::from(history[cell.index()]) * HISTORY_SCALE + cell_priority(board, cell)
                };
                (key, cell)
            })
            .collect();
        MovePicker { keyed, next: 0, sorted: false }
    }
}

/// How promising `cell` is by itself: for each win window through it, what one more stone
/// would make of the side to move's window (attack) or of the opponent's (defence).
pub(crate) fn cell_priority<B: Bitboard>(board: &Board<B>, cell: Cell) -> i64 {
    let side = board.side_to_move();
    if let (Some(mine), Some(theirs)) = (
        board.lines().cell_patterns(cell, side),
        board.lines().cell_patterns(cell, side.opponent()),
    ) {
        // Attack counts double: a threat of ours is a tempo ahead of the same threat of theirs.
        return 2 * threat_value(&mine) + threat_value(&theirs);
    }
    let me = board.stones(board.side_to_move());
    let them = board.stones(board.side_to_move().opponent());
    let mut priority = 0;
    for &window in B::line_table().through(cell) {
        let (mine, theirs) = ((window & me).count() as usize, (window & them).count() as usize);
        if theirs == 0 {
            priority += i64::from(WINDOW_WEIGHT[(mine + 1).min(4)]) * 2;
        }
        if mine == 0 {
            priority += i64::from(WINDOW_WEIGHT[(theirs + 1).min(4)]);
        }
    }
    priority
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    #[test]
    fn picker_yields_the_full_sort_order() {
        let mut rng = SplitMix64::new(5);
        for len in [0, 1, 2, 3, 4, 7, 40, 200] {
            let keyed: ArrayVec<(i64, Cell), 256> = (0..len)
                .map(|i| (rng.below(5) as i64 - 2, Cell::from_index(i as u8)))
                .rev()
                .collect();
            let mut expected = keyed.clone();
            expected.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            let picked: Vec<Cell> = MovePicker { keyed, next: 0, sorted: false }.collect();
            assert_eq!(picked, expected.iter().map(|&(_, c)| c).collect::<Vec<_>>(), "{len}");
        }
    }
}
