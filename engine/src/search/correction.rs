//! Correction history: how far the static evaluation has been off from the search's results
//! in this search, by side to move and the last two moves, added to the evaluation where
//! the search uses it alone (the shallow prunings and the leaves).
//!
//! The evaluation counts patterns; what they miss is mostly about the fight around the last
//! stones, and the same two moves recur all over a tree (in other orders, after other
//! moves elsewhere). So each node searched to a depth of 1 or more whose score says
//! something about its evaluation — an exact score, a lower bound above the corrected
//! evaluation or an upper bound below it — pulls the entry of its last two moves towards
//! the difference, more for deeper searches and less as the entry nears its limit.

use super::SearchParams;
use crate::board::Board;
use crate::color::Color;
use crate::score::Score;
use crate::storage::Storage;

/// Entries per side to move: the last move's cell index × 512 + the one before's (511 for
/// none; cell indices are below 506).
const SIZE: usize = 1 << 18;
/// The index of "no move" in an entry's index.
const NONE: usize = 511;
/// Entries are in 1/`GRAIN` of an evaluation unit.
const GRAIN: i32 = 128;

/// The corrections of one search (one per thread: nothing is shared).
pub(crate) struct CorrectionHistory {
    entries: Box<[[i16; SIZE]; 2]>,
    /// The largest correction, in entry units (`correction_limit`, 200 evaluation units by
    /// default: about two-thirds of an open three).
    limit: i32,
    /// An update moves an entry by the difference times the depth over this
    /// (`correction_depth_divisor`) ...
    depth_divisor: i32,
    /// ... by at most this many entry units (`correction_step_percent` of the limit).
    step: i32,
}

impl CorrectionHistory {
    /// Empty entries, with the tunables of `params`.
    pub(crate) fn new(params: &SearchParams) -> Self {
        let entries = vec![[0; SIZE]; 2].into_boxed_slice();
        let entries = entries.try_into().expect("one row per colour");
        let mut history = CorrectionHistory { entries, limit: 0, depth_divisor: 1, step: 0 };
        history.set_params(params);
        history
    }

    /// Corrects with the tunables of `params` from now on.
    pub(crate) fn set_params(&mut self, params: &SearchParams) {
        // (At most 255 evaluation units: the entries are 16-bit.)
        self.limit = params.correction_limit * GRAIN;
        self.depth_divisor = params.correction_depth_divisor;
        self.step = self.limit * params.correction_step_percent / 100;
    }

    /// The entry index of `board`'s last two moves.
    #[inline]
    fn slot<B: Storage>(board: &Board<B>) -> usize {
        let history = board.history();
        let back = |n: usize| history.len().checked_sub(n).map_or(NONE, |i| history[i].index());
        (back(1) << 9 | back(2)) & (SIZE - 1)
    }

    /// The correction to add to the static evaluation of `board` (for its side to move).
    #[inline]
    pub(crate) fn correction<B: Storage>(&self, board: &Board<B>) -> Score {
        self.get(board.side_to_move(), Self::slot(board))
    }

    fn get(&self, color: Color, slot: usize) -> Score {
        i32::from(self.entries[color.index()][slot]) / GRAIN
    }

    /// A search of `depth` plies found `board` worth `diff` more than its corrected
    /// evaluation (less, if negative).
    pub(crate) fn update<B: Storage>(&mut self, board: &Board<B>, depth: i32, diff: Score) {
        self.add(board.side_to_move(), Self::slot(board), depth, diff);
    }

    fn add(&mut self, color: Color, slot: usize, depth: i32, diff: Score) {
        let entry = &mut self.entries[color.index()][slot];
        // A step at most per update; the entry moves towards the bonus's side and slows down
        // near the limit (`e + b − e·|b| / limit` stays within ±limit).
        let (limit, step) = (self.limit, self.step);
        let bonus = diff.saturating_mul(GRAIN * depth / self.depth_divisor).clamp(-step, step);
        let old = i32::from(*entry);
        let new = old + bonus - old * bonus.abs() / limit;
        *entry = i16::try_from(new.clamp(-limit, limit)).expect("the limit fits an i16");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bits256;
    use crate::rules::Rule;

    #[test]
    fn entries_follow_the_differences_and_stay_within_the_limit() {
        let mut history = CorrectionHistory::new(&SearchParams::DEFAULT);
        let (color, slot) = (Color::Black, 0x1234);
        assert_eq!(history.get(color, slot), 0);
        history.add(color, slot, 8, 10);
        assert_eq!(history.get(color, slot), 10, "a difference of 10 at depth 8");
        history.add(color, slot, 8, -4);
        let after = history.get(color, slot);
        assert!((5..10).contains(&after), "pulled back towards -4: {after}");
        for _ in 0..1_000 {
            history.add(color, slot, 30, 10_000);
        }
        assert_eq!(
            history.get(color, slot),
            SearchParams::DEFAULT.correction_limit,
            "held at the limit"
        );
        for _ in 0..1_000 {
            history.add(color, slot, 30, -10_000);
        }
        assert_eq!(history.get(color, slot), -SearchParams::DEFAULT.correction_limit);
        assert_eq!(history.get(Color::White, slot), 0, "the other side's entry is apart");
        assert_eq!(history.get(color, slot + 1), 0, "and so is another pair of moves");
    }

    #[test]
    fn the_slot_is_the_last_two_moves() {
        let board = |moves| Board::<Bits256>::from_notation(Rule::Freestyle, moves).expect("legal");
        let (a1, b1, c1) = (0, 1, 2);
        assert_eq!(CorrectionHistory::slot(&board("")), NONE << 9 | NONE);
        assert_eq!(CorrectionHistory::slot(&board("a1")), a1 << 9 | NONE);
        assert_eq!(CorrectionHistory::slot(&board("a1,b1")), b1 << 9 | a1);
        assert_eq!(CorrectionHistory::slot(&board("a1,b1,c1")), c1 << 9 | b1);
        let mut history = CorrectionHistory::new(&SearchParams::DEFAULT);
        let position = board("a1,b1,c1");
        history.update(&position, 8, 7);
        assert_eq!(history.correction(&position), 7);
        assert_eq!(history.correction(&board("a1,b1")), 0);
    }
}
