//! The main search's prunings, reductions and extension on the gomoku boards: late-move reductions
//! and pruning, internal iterative reduction, singular extension, reverse futility pruning
//! and razoring — their tunables, and the tests that decide whether a node takes them (the
//! steps of `Searcher::pvs` that use them are numbered in `docs/search.md`).

use std::sync::LazyLock;

use super::Searcher;
use super::params::SearchParams;
use crate::color::Color;
use crate::geometry::Cell;
use crate::pattern::keys::PatternState;
use crate::pattern::pair::ThreatKind;
use crate::score::{Score, is_decisive};
use crate::storage::Storage;
use crate::tt::{Bound, TtEntry, score_from_tt};

/// How many plies a late quiet move's first search is reduced by: one, more for later moves
/// at greater depths (`ln(depth) · ln(index)` divided by `divisor_x100` hundredths), one less
/// at PV nodes (at least one).
pub(super) fn lmr_reduction(depth: i32, index: usize, pv_node: bool, divisor_x100: i32) -> i32 {
    (lmr_base_reduction(depth, index, divisor_x100) - i32::from(pv_node)).max(1)
}

/// `ln(depth) · ln(index) / (divisor_x100 / 100)`, rounded down: the reduction before the PV
/// node's ply and the floor of one.
fn lmr_base_reduction(depth: i32, index: usize, divisor_x100: i32) -> i32 {
    let divisor = f64::from(divisor_x100) / 100.0;
    (ln(usize::try_from(depth).unwrap_or(0)) * ln(index) / divisor) as i32
}

/// `ln(n)` (`-inf` at 0), looked up below 256: the logarithms cost more than the rest of a
/// late move's bookkeeping.
fn ln(n: usize) -> f64 {
    LN_TABLE.get(n).copied().unwrap_or_else(|| (n as f64).ln())
}

/// `ln(n)` for every `n` below 256 (a 15×15 board has 225 cells), computed once.
static LN_TABLE: LazyLock<[f64; 256]> = LazyLock::new(|| std::array::from_fn(|n| (n as f64).ln()));

/// Move-count pruning: how many moves a null-window node `depth` plies from the leaves
/// searches before it skips the quiet ones, `lmp_base + lmp_scale_x10 · depth² / 10`, cut to
/// `lmp_not_improving_percent` of that when the position is not improving.
pub(super) fn move_count_limit(depth: i32, improving: bool, params: &SearchParams) -> usize {
    let depth = depth.max(0);
    let limit = params.lmp_base + params.lmp_scale_x10 * depth * depth / 10;
    let limit = if improving { limit } else { limit * params.lmp_not_improving_percent / 100 };
    limit.max(1) as usize
}

/// Internal iterative reduction (gomoku boards, below the root): a node the table knows no move for
/// is searched a ply shallower once `min_depth` plies are left. With no move from an
/// earlier search, the ordering is a guess and the node was probably not on a line worth
/// searching before; its re-search in the next iteration has the move and the full depth.
pub(super) fn internal_reduction(depth: i32, tt_move: Option<Cell>, min_depth: i32) -> i32 {
    if tt_move.is_none() && depth >= min_depth { depth - 1 } else { depth }
}

/// Singular extension (gomoku boards, below the root): the null window's upper edge that every move
/// but the table move is tested against, searched to half the depth, or `None` where the test
/// does not apply — the table's score must be a lower bound (or exact), from a search at most
/// `se_tt_depth_slack` plies shallower, and no proven win or loss. If they all stay below
/// it, the table move is searched a ply deeper.
pub(super) fn singular_beta(
    depth: i32,
    entry: &TtEntry,
    ply: usize,
    params: &SearchParams,
) -> Option<Score> {
    let score = score_from_tt(entry.score, ply);
    (depth >= params.se_min_depth
        && entry.bound != Bound::Upper
        && i32::from(entry.depth) >= depth - params.se_tt_depth_slack
        && !is_decisive(score))
    .then(|| score - params.se_margin * depth)
}

impl<B: Storage> Searcher<'_, B> {
    /// Reverse futility pruning, at a shallow null-window node with no five threatened: if
    /// the static evaluation is at least `rfp_margin` per ply of `depth` (at most
    /// `rfp_max_depth`) above `beta`, the node fails high with it unsearched — unless the
    /// opponent can make an open four (from an open three), a win a search this shallow
    /// could miss behind a move of the side to move.
    pub(super) fn reverse_futility(
        &self,
        depth: i32,
        beta: Score,
        static_eval: Score,
        improving: bool,
    ) -> Option<Score> {
        if !(1..=self.params.rfp_max_depth).contains(&depth) {
            return None;
        }
        if self.may_make_open_four(self.board.side_to_move().opponent()) {
            return None;
        }
        let plies = (depth - i32::from(improving && depth > 1)).max(1);
        (static_eval - self.params.rfp_margin * plies >= beta).then_some(static_eval)
    }

    /// Razoring, at a shallow null-window node with no five threatened: whether the static
    /// evaluation is at least `razor_margin` per ply of `depth` (at most
    /// `razor_max_depth`) below `alpha` while neither side can make an open four. The node
    /// is then searched as a leaf first (the leaf VCF and the double-three test): a move or
    /// two would most likely not make up the gap, and the quick wins they could find, an
    /// open three of either side becoming an open four, are excluded.
    pub(super) fn razor(&self, depth: i32, alpha: Score, static_eval: Score) -> bool {
        if !(1..=self.params.razor_max_depth).contains(&depth) {
            return false;
        }
        if [Color::Black, Color::White].into_iter().any(|color| self.may_make_open_four(color)) {
            return false;
        }
        static_eval + self.params.razor_margin * depth <= alpha
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

    /// The defaults the tests check the rules with.
    const P: SearchParams = SearchParams::DEFAULT;

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
        let d = P.se_min_depth;
        let oldest = d + 2 - P.se_tt_depth_slack;
        let margin = P.se_margin;
        assert_eq!(singular_beta(d, &entry(100, d, Bound::Lower), 3, &P), Some(100 - margin * d));
        let exact = entry(-50, oldest, Bound::Exact);
        assert_eq!(singular_beta(d + 2, &exact, 3, &P), Some(-50 - margin * (d + 2)));
        assert_eq!(singular_beta(d + 3, &exact, 3, &P), None, "too shallow a table search");
        assert_eq!(singular_beta(d - 1, &entry(100, d, Bound::Lower), 3, &P), None, "shallow");
        assert_eq!(singular_beta(d, &entry(100, d, Bound::Upper), 3, &P), None, "upper bound");
        let win = score_to_tt(win_in(9), 3);
        assert_eq!(singular_beta(d, &entry(win, d, Bound::Lower), 3, &P), None, "a proven win");
    }

    /// Move-count pruning keeps more moves deeper, fewer when not improving, at least one.
    #[test]
    fn the_move_count_limit_grows_with_depth_and_shrinks_when_not_improving() {
        assert_eq!(move_count_limit(1, true, &P), 3 + 1);
        assert_eq!(move_count_limit(4, true, &P), 3 + 16);
        assert_eq!(move_count_limit(4, false, &P), 19 * 60 / 100);
        for depth in 0..30 {
            let limit = move_count_limit(depth, true, &P);
            assert!(limit >= 1 && move_count_limit(depth + 1, true, &P) >= limit);
            assert!(move_count_limit(depth, false, &P) <= limit);
        }
    }

    #[test]
    fn only_deep_nodes_without_a_table_move_are_reduced_internally() {
        let cell = Bits256::GEOMETRY.parse_pos("h8");
        let min = P.iir_min_depth;
        for depth in -1..min {
            assert_eq!(internal_reduction(depth, None, min), depth);
        }
        for depth in min..20 {
            assert_eq!(internal_reduction(depth, None, min), depth - 1);
            assert_eq!(internal_reduction(depth, Some(cell), min), depth);
        }
    }

    /// Late-move reductions: at least one ply, growing with the depth and the move's index,
    /// one less at PV nodes (while above one).
    #[test]
    fn late_move_reductions_grow_with_depth_and_index() {
        let divisor = P.lmr_divisor_x100;
        let lmr = |depth, index: usize, pv_node| lmr_reduction(depth, index, pv_node, divisor);
        for pv_node in [false, true] {
            for depth in P.lmr_min_depth..40 {
                for index in P.lmr_min_index as usize..200 {
                    let r = lmr(depth, index, pv_node);
                    assert!(r >= 1);
                    assert!(lmr(depth + 1, index, pv_node) >= r);
                    assert!(lmr(depth, index + 1, pv_node) >= r);
                    if pv_node {
                        assert_eq!(r, (lmr(depth, index, false) - 1).max(1));
                    }
                }
            }
        }
        // The table of logarithms gives what the formula gives, wherever a search looks.
        for depth in 1..80 {
            for index in 1..300 {
                let divisor = f64::from(P.lmr_divisor_x100) / 100.0;
                let exact = (f64::from(depth).ln() * (index as f64).ln() / divisor) as i32;
                assert_eq!(lmr(depth, index, false), exact.max(1), "{depth} {index}");
            }
        }
        assert_eq!(lmr_reduction(3, 4, false, 180), 1);
        assert_eq!(lmr_reduction(10, 20, false, 180), 3);
        assert_eq!(lmr_reduction(10, 20, true, 180), 2);
        // A smaller divisor reduces more.
        assert_eq!(lmr_reduction(10, 20, false, 90), 7);
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
        for depth in 1..=P.rfp_max_depth {
            let beta = eval - P.rfp_margin * depth;
            assert_eq!(
                searcher.reverse_futility(depth, beta, eval, false),
                Some(eval),
                "depth {depth}"
            );
            assert_eq!(
                searcher.reverse_futility(depth, beta + 1, eval, false),
                None,
                "depth {depth}"
            );
        }
        for depth in [0, P.rfp_max_depth + 1] {
            assert_eq!(searcher.reverse_futility(depth, -INFINITY, eval, false), None);
        }
        // Improving, a node needs a ply less of margin (at least one).
        for depth in 2..=P.rfp_max_depth {
            let beta = eval - P.rfp_margin * (depth - 1);
            assert_eq!(searcher.reverse_futility(depth, beta, eval, true), Some(eval));
            assert_eq!(searcher.reverse_futility(depth, beta + 1, eval, true), None);
        }
        // White's open three h8-i8-j8 could become an open four: never pruned.
        let (searcher, eval) = searcher_of(&mut tt, OPEN_THREE_WAITING);
        let threatened = &searcher.board;
        let open_fours = threatened.patterns().threat_cells(Color::White, ThreatKind::OpenFour);
        assert!(open_fours.is_some_and(|cells| !(cells & threatened.empty_cells()).is_empty()));
        assert_eq!(searcher.reverse_futility(1, -INFINITY, eval, false), None);
    }

    #[test]
    fn razoring_needs_the_margin_a_shallow_depth_and_no_open_three_on_either_side() {
        let mut tt = TranspositionTable::with_bytes(1 << 20);
        let (searcher, eval) = searcher_of(&mut tt, QUIET);
        for depth in 1..=P.razor_max_depth {
            let alpha = eval + P.razor_margin * depth;
            assert!(searcher.razor(depth, alpha, eval), "depth {depth}");
            assert!(!searcher.razor(depth, alpha - 1, eval), "depth {depth}");
        }
        for depth in [0, P.razor_max_depth + 1] {
            assert!(!searcher.razor(depth, INFINITY, eval));
        }
        // An open three of the side to move or of the opponent: never razored.
        for moves in [OPEN_THREE_TO_MOVE, OPEN_THREE_WAITING] {
            let (searcher, eval) = searcher_of(&mut tt, moves);
            assert!(!searcher.razor(1, INFINITY, eval), "{moves}");
        }
    }
}
