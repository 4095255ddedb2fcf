//! The main search's prunings, reductions and extension on the gomoku boards: late-move reductions
//! and pruning, internal iterative reduction, singular extension, reverse futility pruning
//! and razoring — their tunables, and the tests that decide whether a node takes them (the
//! steps of `Searcher::pvs` that use them are numbered in `docs/search.md`).

use std::sync::LazyLock;

use super::Searcher;
use crate::color::Color;
use crate::geometry::Cell;
use crate::pattern::keys::PatternState;
use crate::pattern::pair::ThreatKind;
use crate::score::{Score, is_decisive};
use crate::storage::Storage;
use crate::tt::{Bound, TtEntry, score_from_tt};

/// Late-move reductions: from this remaining depth ...
pub const LMR_MIN_DEPTH: i32 = 3;
/// ... moves from this index in the ordering are first searched shallower: by one ply if
/// they make or stop a three or a four, else by `lmr_reduction` plies.
pub const LMR_MIN_INDEX: usize = 4;
/// Divides `ln(depth) · ln(index)` in `lmr_reduction` (smaller: deeper reductions).
pub const LMR_DIVISOR: f64 = 1.8;

/// How many plies a late quiet move's first search is reduced by: one, more for later moves
/// at greater depths (the product of their logarithms), one less at PV nodes (at least one).
pub(super) fn lmr_reduction(depth: i32, index: usize, pv_node: bool) -> i32 {
    let r = usize::try_from(depth)
        .ok()
        .and_then(|d| LMR_TABLE.get(d))
        .and_then(|row| row.get(index))
        .map_or_else(|| lmr_base_reduction(depth, index), |&r| i32::from(r));
    (r - i32::from(pv_node)).max(1)
}

/// `ln(depth) · ln(index) / LMR_DIVISOR`, rounded down: the reduction before the PV node's
/// ply and the floor of one.
fn lmr_base_reduction(depth: i32, index: usize) -> i32 {
    (f64::from(depth).ln() * (index as f64).ln() / LMR_DIVISOR) as i32
}

/// [`lmr_base_reduction`] for every depth below 64 and move index below 256 (a 15×15 board
/// has 225 cells), computed once: the two logarithms cost more than the rest of a late
/// move's bookkeeping. Other arguments fall back to the formula.
static LMR_TABLE: LazyLock<Box<[[u8; 256]; 64]>> = LazyLock::new(|| {
    let mut table = Box::new([[0u8; 256]; 64]);
    for (depth, row) in (0i32..).zip(table.iter_mut()) {
        for (index, r) in row.iter_mut().enumerate() {
            *r = u8::try_from(lmr_base_reduction(depth, index).max(0)).unwrap_or(u8::MAX);
        }
    }
    table
});

/// Late-move pruning: at null-window nodes with at most this much depth left ...
pub const LMP_MAX_DEPTH: i32 = 4;
/// ... moves after the first `LMP_BASE + LMP_SCALE · depth²` that make or stop no three or
/// four (for either side) are not searched.
pub const LMP_BASE: usize = 3;
/// See [`LMP_BASE`].
pub const LMP_SCALE: usize = 2;

/// Internal iterative reduction: the depth left from which `internal_reduction` applies.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Internal iterative reduction (gomoku boards, below the root): a node the table knows no move for
/// is searched a ply shallower once [`IIR_MIN_DEPTH`] plies are left. With no move from an
/// earlier search, the ordering is a guess and the node was probably not on a line worth
/// searching before; its re-search in the next iteration has the move and the full depth.
pub(super) fn internal_reduction(depth: i32, tt_move: Option<Cell>) -> i32 {
    if tt_move.is_none() && depth >= IIR_MIN_DEPTH { depth - 1 } else { depth }
}

/// Singular extension (gomoku boards, below the root): from this remaining depth ...
pub const SE_MIN_DEPTH: i32 = 6;
/// ... a table move whose lower bound (or exact score) comes from at most this many plies
/// shallower ...
pub const SE_TT_DEPTH_SLACK: i32 = 3;
/// ... is searched a ply deeper when every other move, searched to half the depth, stays
/// this much per ply of depth below its score (see `singular_beta`).
pub const SE_MARGIN: Score = 4;

/// Singular extension (gomoku boards, below the root): the null window's upper edge that every move
/// but the table move is tested against, searched to half the depth, or `None` where the test
/// does not apply — the table's score must be a lower bound (or exact), from a search at most
/// [`SE_TT_DEPTH_SLACK`] plies shallower, and no proven win or loss. If they all stay below
/// it, the table move is searched a ply deeper.
pub(super) fn singular_beta(depth: i32, entry: &TtEntry, ply: usize) -> Option<Score> {
    let score = score_from_tt(entry.score, ply);
    (depth >= SE_MIN_DEPTH
        && entry.bound != Bound::Upper
        && i32::from(entry.depth) >= depth - SE_TT_DEPTH_SLACK
        && !is_decisive(score))
    .then(|| score - SE_MARGIN * depth)
}

/// Reverse futility pruning: at null-window nodes with at most this much depth left ...
pub const RFP_MAX_DEPTH: i32 = 3;
/// ... where the opponent cannot make an open four, a static evaluation this much per ply
/// of depth above beta ends the node.
pub const RFP_MARGIN: Score = 40;
/// Razoring: at null-window nodes with at most this much depth left ...
pub const RAZOR_MAX_DEPTH: i32 = 2;
/// ... where neither side can make an open four, a static evaluation this much per ply of
/// depth below alpha has the node searched as a leaf, which ends it if it fails low there.
pub const RAZOR_MARGIN: Score = 200;

impl<B: Storage> Searcher<'_, B> {
    /// Reverse futility pruning, at a shallow null-window node with no five threatened: if
    /// the static evaluation is at least [`RFP_MARGIN`] per ply of `depth` (at most
    /// [`RFP_MAX_DEPTH`]) above `beta`, the node fails high with it unsearched — unless the
    /// opponent can make an open four (from an open three), a win a search this shallow
    /// could miss behind a move of the side to move.
    pub(super) fn reverse_futility(&self, depth: i32, beta: Score) -> Option<Score> {
        if !(1..=RFP_MAX_DEPTH).contains(&depth) {
            return None;
        }
        if self.may_make_open_four(self.board.side_to_move().opponent()) {
            return None;
        }
        let static_eval = self.corrected_eval();
        (static_eval - RFP_MARGIN * depth >= beta).then_some(static_eval)
    }

    /// Razoring, at a shallow null-window node with no five threatened: whether the static
    /// evaluation is at least [`RAZOR_MARGIN`] per ply of `depth` (at most
    /// [`RAZOR_MAX_DEPTH`]) below `alpha` while neither side can make an open four. The node
    /// is then searched as a leaf first (the leaf VCF and the double-three test): a move or
    /// two would most likely not make up the gap, and the quick wins they could find, an
    /// open three of either side becoming an open four, are excluded.
    pub(super) fn razor(&self, depth: i32, alpha: Score) -> bool {
        if !(1..=RAZOR_MAX_DEPTH).contains(&depth) {
            return false;
        }
        if [Color::Black, Color::White].into_iter().any(|color| self.may_make_open_four(color)) {
            return false;
        }
        self.corrected_eval() + RAZOR_MARGIN * depth <= alpha
    }

    /// Whether `color` has an empty cell where its stone makes an open four (it has an open
    /// three) — assumed so on a board that keeps no patterns, which the shallow prunings
    /// asking it then leave alone.
    fn may_make_open_four(&self, color: Color) -> bool {
        self.board
            .patterns()
            .threat_cells(color, ThreatKind::OpenFour)
            .is_none_or(|cells| !(cells & self.board.empty_cells()).is_empty())
    }

    /// Gomoku boards: the cells where a stone of neither side would make a three or a four (quiet
    /// moves, for late-move pruning); none without patterns.
    pub(super) fn quiet_cells(&self) -> B {
        let lines = self.board.patterns();
        let mut tactical = B::EMPTY;
        for color in [Color::Black, Color::White] {
            for kind in [ThreatKind::Four, ThreatKind::Three] {
                match lines.threat_cells(color, kind) {
                    Some(cells) => tactical |= cells,
                    None => return B::EMPTY,
                }
            }
        }
        !tactical
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard;
    use crate::bitboard::Bits256;
    use crate::board::Board;
    use crate::eval;
    use crate::limits::Limits;
    use crate::rules::Rule;
    use crate::score::{INFINITY, win_in};
    use crate::tt::{TranspositionTable, score_to_tt};

    /// The singular-extension test needs depth, a lower bound or exact score from a search
    /// at most a few plies shallower, and no proven result.
    #[test]
    fn only_deep_nodes_with_a_recent_lower_bound_test_their_table_move_for_singularity() {
        let entry = |score, depth: i32, bound| TtEntry {
            score,
            best_move: None,
            depth: depth as u8,
            bound,
        };
        let d = SE_MIN_DEPTH;
        let oldest = d + 2 - SE_TT_DEPTH_SLACK;
        assert_eq!(singular_beta(d, &entry(100, d, Bound::Lower), 3), Some(100 - SE_MARGIN * d));
        let exact = entry(-50, oldest, Bound::Exact);
        assert_eq!(singular_beta(d + 2, &exact, 3), Some(-50 - SE_MARGIN * (d + 2)));
        assert_eq!(singular_beta(d + 3, &exact, 3), None, "too shallow a table search");
        assert_eq!(singular_beta(d - 1, &entry(100, d, Bound::Lower), 3), None, "too shallow");
        assert_eq!(singular_beta(d, &entry(100, d, Bound::Upper), 3), None, "an upper bound");
        let win = score_to_tt(win_in(9), 3);
        assert_eq!(singular_beta(d, &entry(win, d, Bound::Lower), 3), None, "a proven win");
    }

    #[test]
    fn only_deep_nodes_without_a_table_move_are_reduced_internally() {
        let cell = Bits256::GEOMETRY.parse_pos("h8");
        for depth in -1..IIR_MIN_DEPTH {
            assert_eq!(internal_reduction(depth, None), depth);
        }
        for depth in IIR_MIN_DEPTH..20 {
            assert_eq!(internal_reduction(depth, None), depth - 1);
            assert_eq!(internal_reduction(depth, Some(cell)), depth);
        }
    }

    /// Late-move reductions: at least one ply, growing with the depth and the move's index,
    /// one less at PV nodes (while above one).
    #[test]
    fn late_move_reductions_grow_with_depth_and_index() {
        for pv_node in [false, true] {
            for depth in LMR_MIN_DEPTH..40 {
                for index in LMR_MIN_INDEX..200 {
                    let r = lmr_reduction(depth, index, pv_node);
                    assert!(r >= 1);
                    assert!(lmr_reduction(depth + 1, index, pv_node) >= r);
                    assert!(lmr_reduction(depth, index + 1, pv_node) >= r);
                    if pv_node {
                        let null_window = lmr_reduction(depth, index, false);
                        assert_eq!(r, (null_window - 1).max(1));
                    }
                }
            }
        }
        // The table gives what the formula gives, wherever a search can look it up.
        for depth in 1..80 {
            for index in 1..300 {
                let from_table = lmr_reduction(depth, index, false);
                assert_eq!(from_table, lmr_base_reduction(depth, index).max(1), "{depth} {index}");
            }
        }
        assert_eq!(lmr_reduction(3, LMR_MIN_INDEX, false), 1);
        assert_eq!(lmr_reduction(10, 20, false), 3);
        assert_eq!(lmr_reduction(10, 20, true), 2);
    }

    /// For the shallow prunings' tests: black (to move) has two in a row, white two corner
    /// stones ...
    const QUIET: &str = "h8,a1,i8,a15";
    /// ... black (to move) has the open three h8-i8-j8 ...
    const OPEN_THREE_TO_MOVE: &str = "h8,a1,i8,a15,j8,o1";
    /// ... and white, waiting, has it.
    const OPEN_THREE_WAITING: &str = "a1,h8,a15,i8,o1,j8";

    /// A searcher of the freestyle 15×15 position `moves`, and that position's evaluation.
    fn searcher_of<'t>(
        tt: &'t mut TranspositionTable,
        moves: &str,
    ) -> (Searcher<'t, Bits256>, Score) {
        let board = Board::<Bits256>::from_notation(Rule::Freestyle, moves).expect("legal");
        let eval = eval::evaluate(&board);
        (Searcher::new(board, tt, Limits::default()), eval)
    }

    #[test]
    fn reverse_futility_needs_the_margin_a_shallow_depth_and_no_open_three_against() {
        let mut tt = TranspositionTable::with_bytes(1 << 20);
        let (searcher, eval) = searcher_of(&mut tt, QUIET);
        for depth in 1..=RFP_MAX_DEPTH {
            let beta = eval - RFP_MARGIN * depth;
            assert_eq!(searcher.reverse_futility(depth, beta), Some(eval), "depth {depth}");
            assert_eq!(searcher.reverse_futility(depth, beta + 1), None, "depth {depth}");
        }
        for depth in [0, RFP_MAX_DEPTH + 1] {
            assert_eq!(searcher.reverse_futility(depth, -INFINITY), None);
        }
        // White's open three h8-i8-j8 could become an open four: never pruned.
        let (searcher, _) = searcher_of(&mut tt, OPEN_THREE_WAITING);
        let threatened = &searcher.board;
        let open_fours = threatened.patterns().threat_cells(Color::White, ThreatKind::OpenFour);
        assert!(open_fours.is_some_and(|cells| !(cells & threatened.empty_cells()).is_empty()));
        assert_eq!(searcher.reverse_futility(1, -INFINITY), None);
    }

    #[test]
    fn razoring_needs_the_margin_a_shallow_depth_and_no_open_three_on_either_side() {
        let mut tt = TranspositionTable::with_bytes(1 << 20);
        let (searcher, eval) = searcher_of(&mut tt, QUIET);
        for depth in 1..=RAZOR_MAX_DEPTH {
            let alpha = eval + RAZOR_MARGIN * depth;
            assert!(searcher.razor(depth, alpha), "depth {depth}");
            assert!(!searcher.razor(depth, alpha - 1), "depth {depth}");
        }
        for depth in [0, RAZOR_MAX_DEPTH + 1] {
            assert!(!searcher.razor(depth, INFINITY));
        }
        // An open three of the side to move or of the opponent: never razored.
        for moves in [OPEN_THREE_TO_MOVE, OPEN_THREE_WAITING] {
            let (searcher, _) = searcher_of(&mut tt, moves);
            assert!(!searcher.razor(1, INFINITY), "{moves}");
        }
    }
}
