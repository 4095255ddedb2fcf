//! Draw bounds of the small boards (3×3, 5×5): live lines and pairing strategies.
//!
//! On a board whose lines span the board (side = k) a player can only win by filling one of
//! the few full lines (3×3: 8, 5×5: 12). A line is **live** for a player while the opponent
//! has no stone in it.
//!
//! * **No live line for either side** — nobody can ever win: the position is a draw.
//! * **Pairing strategy** — if the defender can choose, for every line live for the attacker,
//!   two empty cells of that line, all chosen cells distinct, then the attacker can never
//!   win: whenever the attacker takes one cell of a pair the defender takes the other, and
//!   every live line keeps a defender stone. (When the defender moves first, or the attacker
//!   plays outside the pairs, the defender's free move only kills more lines.) Finding the
//!   pairs is a bipartite matching of two "slots" per live line to empty cells.
//!
//! The search uses both as bounds ([`draw_bounds`]): if the opponent can pair off all my
//! live lines my score is at most a draw; if I can pair off all of the opponent's, at least
//! a draw; both, a draw. On 5×5 the second player has a pairing from the empty board (12
//! disjoint pairs, one inside each line), which is why the game is a draw.

use crate::board::Board;
use crate::color::Color;
use crate::storage::Storage;

/// The most lines any small board has (5×5: 12).
const MAX_SMALL_LINES: usize = 12;

/// The masks of the lines still live for `color` (no opponent stone in them).
pub fn live_lines<B: Storage>(
    board: &Board<B>,
    color: Color,
) -> arrayvec::ArrayVec<B, MAX_SMALL_LINES> {
    debug_assert!(B::GEOMETRY.lines_span_board());
    let blockers = board.stones(color.opponent());
    B::line_table().lines().iter().map(|l| l.mask).filter(|&m| (m & blockers).is_empty()).collect()
}

/// Whether the defender can pair off every line in `lines` (see the module docs): each line
/// gets two distinct cells of `empty` inside it, no cell used twice.
pub fn has_pairing<B: Storage>(lines: &[B], empty: B) -> bool {
    let slots = 2 * lines.len();
    if slots > empty.count() as usize {
        return false;
    }
    // owner[cell index] = the slot matched to that cell.
    let mut owner = [u8::MAX; 256];
    for slot in 0..slots {
        let mut visited = B::EMPTY;
        if !augment(slot, lines, empty, &mut owner, &mut visited) {
            return false;
        }
    }
    true
}

/// Kuhn's augmenting path from `slot` (slot s belongs to line s / 2).
fn augment<B: Storage>(
    slot: usize,
    lines: &[B],
    empty: B,
    owner: &mut [u8; 256],
    visited: &mut B,
) -> bool {
    let candidates = (lines[slot / 2] & empty) - *visited;
    for cell in candidates.iter() {
        *visited = visited.with(cell);
        let holder = owner[cell.index()];
        if holder == u8::MAX || augment(usize::from(holder), lines, empty, owner, visited) {
            owner[cell.index()] = slot as u8;
            return true;
        }
    }
    false
}

/// What the pairing and live-line tests prove about the side to move's score.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct DrawBounds {
    /// The side to move cannot win (score ≤ 0).
    pub cannot_win: bool,
    /// The side to move cannot lose (score ≥ 0).
    pub cannot_lose: bool,
}

/// The draw bounds of a small-board position, from the side to move's point of view. With
/// `pairing` false only the absence of live lines counts.
pub fn draw_bounds<B: Storage>(board: &Board<B>, pairing: bool) -> DrawBounds {
    let me = board.side_to_move();
    let empty = board.empty_cells();
    let blocked = |lines: &[B]| lines.is_empty() || (pairing && has_pairing(lines, empty));
    DrawBounds {
        cannot_win: blocked(&live_lines(board, me)),
        cannot_lose: blocked(&live_lines(board, me.opponent())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard;
    use crate::bitboard::{Bits16, Bits32};
    use crate::rules::Rule;

    #[test]
    fn five_by_five_second_player_has_a_pairing_from_the_empty_board() {
        let board = Board::<Bits32>::new(Rule::Freestyle);
        let all: Vec<Bits32> = Bits32::line_table().lines().iter().map(|l| l.mask).collect();
        assert!(has_pairing(&all, board.empty_cells()));
        assert_eq!(draw_bounds(&board, true), DrawBounds { cannot_win: true, cannot_lose: true });
    }

    #[test]
    fn tic_tac_toe_has_no_pairing_from_the_empty_board() {
        let board = Board::<Bits16>::new(Rule::Freestyle);
        assert_eq!(draw_bounds(&board, true), DrawBounds { cannot_win: false, cannot_lose: false });
    }

    #[test]
    fn a_line_with_one_empty_cell_cannot_be_paired() {
        // X has four of the top row; O to move cannot pair that line off.
        let board = Board::<Bits32>::from_notation(Rule::Freestyle, "a1a2b1b2c1c2d1d3").unwrap();
        assert_eq!(board.side_to_move(), Color::Black);
        let x_lines = live_lines(&board, Color::Black);
        assert!(!has_pairing(&x_lines, board.empty_cells()));
    }

    #[test]
    fn no_live_lines_pair_trivially() {
        // X O X / X O O / O X .  — every line holds both colours.
        let board = Board::<Bits16>::from_notation(Rule::Freestyle, "a1b1c1b2a2c2b3a3").unwrap();
        assert!(live_lines(&board, Color::Black).is_empty());
        assert!(live_lines(&board, Color::White).is_empty());
        assert_eq!(draw_bounds(&board, false), DrawBounds { cannot_win: true, cannot_lose: true });
    }

    /// Brute-force pairing check: try every assignment of cell pairs.
    fn pairing_by_brute_force(lines: &[Bits32], empty: Bits32) -> bool {
        fn go(lines: &[Bits32], free: Bits32) -> bool {
            let Some((&first, rest)) = lines.split_first() else {
                return true;
            };
            let cells: Vec<_> = (first & free).iter().collect();
            for (i, &a) in cells.iter().enumerate() {
                for &b in &cells[i + 1..] {
                    if go(rest, free - Bits32::from_cell(a) - Bits32::from_cell(b)) {
                        return true;
                    }
                }
            }
            false
        }
        go(lines, empty)
    }

    #[test]
    fn matching_agrees_with_brute_force_on_random_positions() {
        let mut rng = crate::rng::SplitMix64::new(5);
        let all: Vec<Bits32> = Bits32::line_table().lines().iter().map(|l| l.mask).collect();
        let mut found = [0; 2];
        for _ in 0..3000 {
            let mut empty = Bits32::FULL;
            for c in Bits32::FULL.iter() {
                if rng.below(10) < 3 {
                    empty = empty - Bits32::from_cell(c);
                }
            }
            let lines: Vec<Bits32> = all.iter().copied().filter(|_| rng.below(3) != 0).collect();
            let fast = has_pairing(&lines, empty);
            assert_eq!(fast, pairing_by_brute_force(&lines, empty));
            found[usize::from(fast)] += 1;
        }
        assert!(found[0] > 100 && found[1] > 100, "both answers occur: {found:?}");
    }
}
