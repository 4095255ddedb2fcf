//! Candidate moves.
//!
//! On the small boards every empty cell is a candidate (the solver needs full width). On the
//! gomoku boards the candidates are the empty cells within `NEIGHBOURHOOD` steps of a stone along
//! one of the four lines (a star, not a square: the knight-move cells are left out, since a
//! stone there shares no line with the stone), or the centre on an empty board. Every cell
//! where a side makes a four or an open three is among them: such a cell shares a window
//! with stones of that side, the nearest at most two steps away.

use crate::board::Board;
use crate::geometry::Direction;
use crate::storage::Storage;

/// How far from existing stones the gomoku boards' candidates may lie, in steps along a
/// line.
pub const NEIGHBOURHOOD: i32 = 2;

/// The cells worth searching for the side to move (a subset of the legal moves).
pub fn candidates<B: Storage>(board: &Board<B>) -> B {
    let g = board.geometry();
    if g.lines_span_board() || board.outcome().is_decided() {
        return board.legal_moves();
    }
    let occupied = board.occupied();
    if occupied.is_empty() {
        let centre = g.cell(g.width() / 2, g.height() / 2).expect("the centre is on the board");
        return B::from_cell(centre);
    }
    let mut near = B::EMPTY;
    for &d in &Direction::ALL {
        for k in 1..=NEIGHBOURHOOD {
            near |= occupied.shift(d, k) | occupied.shift(d, -k);
        }
    }
    let near = near & board.empty_cells();
    if board.restricted_to_move() {
        // Forbidden points are looked for only among the candidates.
        let allowed = near - board.forbidden_among(near);
        // A forbidden-only neighbourhood (rare): any legal move will do.
        if allowed.is_empty() { board.legal_moves() } else { allowed }
    } else {
        near
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::{Bitboard, Bits32, Bits256};
    use crate::rules::Rule;

    #[test]
    fn gomoku_candidates_surround_the_stones() {
        let empty = Board::<Bits256>::new(Rule::Freestyle);
        let g = Bits256::GEOMETRY;
        assert_eq!(candidates(&empty).iter().collect::<Vec<_>>(), vec![g.cell(7, 7).unwrap()]);
        let corner = Board::<Bits256>::from_notation(Rule::Freestyle, "a1").unwrap();
        // Two steps along the edge both ways and along the diagonal.
        let cells: Vec<String> = candidates(&corner).iter().map(|c| g.format_pos(c)).collect();
        assert_eq!(cells, ["b1", "c1", "a2", "b2", "a3", "c3"]);
        let centre = Board::<Bits256>::from_notation(Rule::Freestyle, "h8").unwrap();
        // Eight directions, two steps each; no knight-move cell such as i10.
        assert_eq!(candidates(&centre).count(), 16);
        assert!(!candidates(&centre).contains(g.cell(8, 9).unwrap()));
    }

    #[test]
    fn small_boards_search_every_empty_cell() {
        let b = Board::<Bits32>::from_notation(Rule::Freestyle, "a1").unwrap();
        assert_eq!(candidates(&b).count(), 24);
    }
}
