//! Move ordering: the transposition-table move, then killer moves, then by history and a
//! static cell priority. Ties break by cell index, so node counts are reproducible.

use arrayvec::ArrayVec;

use crate::board::Board;
use crate::color::Color;
use crate::eval::WINDOW_WEIGHT;
use crate::geometry::Cell;
use crate::pattern::keys::PatternState;
use crate::score::MAX_PLY;
use crate::search::SearchParams;
use crate::search::keyed::{pack, unpack_cell};
use crate::search::threats::threat_value;
use crate::storage::Storage;

/// A list of moves, at most one per cell.
pub(crate) type MoveList = ArrayVec<Cell, 512>;

/// Moves picked one at a time, best first, in stages: the transposition-table move and the
/// killers come out before anything else is looked at (a cutoff by one of them saves scoring
/// every candidate); the rest are scored when first needed — with the history as it is then —
/// and picked by selection for the first few (most nodes cut off early, so sorting them all
/// would be wasted), then by one sort. Ties break by cell index.
pub(crate) struct MovePicker<B: Storage> {
    staged: ArrayVec<Cell, 3>,
    unscored: B,
    /// Scored moves, each packed into one integer (see [`pack`]): 4 KiB to move instead of
    /// 8 KiB, and the sort compares plain integers.
    keyed: ArrayVec<i64, 512>,
    /// Moves handed out so far (staged first, then scored).
    next: usize,
    sorted: bool,
}

/// Scored picks made by selection before the remaining moves are sorted (speed only: the
/// order is the same either way).
const SELECTION_PICKS: usize = 3;

impl<B: Storage> MovePicker<B> {
    /// A picker with no moves yet (see [`MovePicker::add_in_cell_order`] and
    /// [`Ordering::stage`]). Pickers are filled where they live: moving one copies 4 KiB.
    pub(crate) fn new() -> MovePicker<B> {
        MovePicker {
            staged: ArrayVec::new(),
            unscored: B::EMPTY,
            keyed: ArrayVec::new(),
            next: 0,
            sorted: false,
        }
    }

    /// Adds the moves of `cells`, to be picked in increasing cell order (to an empty picker).
    pub(crate) fn add_in_cell_order(&mut self, cells: B) {
        self.keyed.extend(cells.iter().map(|c| pack(0, c)));
        self.sorted = true;
    }

    /// The next move, or `None` when all are out. `board` must be the position the picker
    /// was made for.
    #[inline]
    pub(crate) fn next(&mut self, board: &Board<B>, ordering: &Ordering) -> Option<Cell> {
        if let Some(&cell) = self.staged.get(self.next) {
            self.next += 1;
            return Some(cell);
        }
        if !self.unscored.is_empty() {
            let history = &ordering.history[board.side_to_move().index()];
            let scale = ordering.history_scale;
            for cell in self.unscored.iter() {
                let key = i64::from(history[cell.index()]) * scale + cell_priority(board, cell);
                self.keyed.push(pack(key, cell));
            }
            self.unscored = B::EMPTY;
        }
        let picked = self.next - self.staged.len();
        let rest = self.keyed.get_mut(picked..)?;
        if rest.is_empty() {
            return None;
        }
        if !self.sorted {
            if picked < SELECTION_PICKS {
                let mut best = 0;
                for i in 1..rest.len() {
                    if rest[i] > rest[best] {
                        best = i;
                    }
                }
                rest.swap(0, best);
            } else {
                rest.sort_unstable_by(|a, b| b.cmp(a));
                self.sorted = true;
            }
        }
        self.next += 1;
        Some(unpack_cell(rest[0]))
    }
}

/// Killer moves (two per ply) and the history table (per colour and cell).
pub(crate) struct Ordering {
    killers: Box<[[Option<Cell>; 2]; MAX_PLY]>,
    history: Box<[[u32; 512]; 2]>,
    /// History counts are multiplied by this before the static priority is added, which
    /// breaks history ties (`history_scale`).
    history_scale: i64,
    /// History counts are halved when one reaches this, keeping them recent (`history_cap`).
    history_cap: u32,
}

impl Ordering {
    /// Empty tables, with the tunables of `params`.
    pub(crate) fn new(params: &SearchParams) -> Ordering {
        let mut ordering = Ordering {
            killers: Box::new([[None; 2]; MAX_PLY]),
            history: Box::new([[0; 512]; 2]),
            history_scale: 0,
            history_cap: 0,
        };
        ordering.set_params(params);
        ordering
    }

    /// Orders with the tunables of `params` from now on.
    pub(crate) fn set_params(&mut self, params: &SearchParams) {
        self.history_scale = i64::from(params.history_scale);
        self.history_cap = u32::try_from(params.history_cap).expect("the cap is positive");
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
        if table[cell.index()] >= self.history_cap {
            table.iter_mut().for_each(|h| *h /= 2);
        }
    }

    /// `moves` sorted best first for the side to move at `ply`.
    pub(crate) fn order<B: Storage>(
        &self,
        board: &Board<B>,
        moves: B,
        ply: usize,
        tt_move: Option<Cell>,
    ) -> MoveList {
        let mut picker = MovePicker::new();
        self.stage(&mut picker, moves, ply, tt_move);
        std::iter::from_fn(|| picker.next(board, self)).collect()
    }

    /// Puts `moves` into the empty `picker`, to be picked best first (see [`MovePicker`])
    /// for the side to move at `ply`.
    pub(crate) fn stage<B: Storage>(
        &self,
        picker: &mut MovePicker<B>,
        moves: B,
        ply: usize,
        tt_move: Option<Cell>,
    ) {
        let [killer, second] = self.killers[ply];
        let mut unscored = moves;
        for cell in [tt_move, killer, second].into_iter().flatten() {
            if unscored.contains(cell) {
                picker.staged.push(cell);
                unscored = unscored - B::from_cell(cell);
            }
        }
        picker.unscored = unscored;
    }
}

/// How promising `cell` is by itself: for each win window through it, what one more stone
/// would make of the side to move's window (attack) or of the opponent's (defence).
pub(crate) fn cell_priority<B: Storage>(board: &Board<B>, cell: Cell) -> i64 {
    let side = board.side_to_move();
    if let (Some(mine), Some(theirs)) = (
        board.patterns().cell_patterns(cell, side),
        board.patterns().cell_patterns(cell, side.opponent()),
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
    use crate::bitboard::Bitboard;
    use crate::bitboard::Bits256;
    use crate::rng::SplitMix64;
    use crate::rules::Rule;

    #[test]
    fn picker_yields_the_full_sort_order() {
        let mut rng = SplitMix64::new(5);
        let board = Board::<Bits256>::new(Rule::Freestyle);
        let ordering = Ordering::new(&SearchParams::DEFAULT);
        for len in [0, 1, 2, 3, 4, 7, 40, 200] {
            let moves: Vec<(i64, Cell)> = (0..len)
                .map(|i| (rng.below(5) as i64 - 2, Cell::from_index(i as u16)))
                .rev()
                .collect();
            let keyed = moves.iter().map(|&(key, cell)| pack(key, cell)).collect();
            let mut expected = moves.clone();
            expected.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            let mut picker = MovePicker::<Bits256>::new();
            picker.keyed = keyed;
            let picked: Vec<Cell> = std::iter::from_fn(|| picker.next(&board, &ordering)).collect();
            assert_eq!(picked, expected.iter().map(|&(_, c)| c).collect::<Vec<_>>(), "{len}");
        }
    }

    #[test]
    fn table_move_and_killers_come_first_once_each_and_only_if_candidates() {
        let board = Board::<Bits256>::from_notation(Rule::Freestyle, "h8,h9,i8").unwrap();
        let candidates = crate::movegen::candidates(&board);
        let mut ordering = Ordering::new(&SearchParams::DEFAULT);
        let cell = |s: &str| Bits256::GEOMETRY.parse_pos(s);
        let (tt, k1, k2) = (cell("g8"), cell("j8"), cell("a1"));
        ordering.record_cutoff(board.side_to_move(), k2, 3, 1);
        ordering.record_cutoff(board.side_to_move(), k1, 3, 1);
        ordering.record_cutoff(board.side_to_move(), tt, 3, 1);
        // Killers now: tt, k1. The table move is not repeated; a1 is no candidate.
        let order = ordering.order(&board, candidates, 3, Some(tt));
        assert_eq!(order[..2], [tt, k1]);
        assert_eq!(order.len(), candidates.count() as usize);
        let distinct: std::collections::HashSet<Cell> = order.iter().copied().collect();
        assert_eq!(distinct.len(), order.len());
        assert!(!order.contains(&k2));
    }
}
