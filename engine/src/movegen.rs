//! Candidate moves.
//!
//! On the small boards every empty cell is a candidate (the solver needs full width). On
//! 15×15 the candidates are the empty cells within `NEIGHBOURHOOD` steps (in any of the 8
//! compass directions) of a stone, or the centre on an empty board.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::geometry::Direction;

/// How far from existing stones 15×15 candidates may lie, in king steps along lines.
pub const NEIGHBOURHOOD: i32 = 2;

/// The cells worth searching for the side to move (a subset of the legal moves).
pub fn candidates<B: Bitboard>(board: &Board<B>) -> B {
    let g = B::GEOMETRY;
    if g.lines_span_board() || board.outcome().is_decided() {
        return board.legal_moves();
    }
    let occupied = board.occupied();
    if occupied.is_empty() {
        let c = g.side() / 2;
        return B::from_cell(g.cell(c, c).expect("the centre is on the board"));
    }
    let mut near = occupied;
    for _ in 0..NEIGHBOURHOOD {
        near = dilate(near);
    }
    let near = near.without(occupied);
    if board.renju_black_to_move() {
        // Forbidden points are looked for only among the candidates.
        let allowed = near.without(board.forbidden_among(near));
        // A forbidden-only neighbourhood (rare): any legal move will do.
        if allowed.is_empty() { board.legal_moves() } else { allowed }
    } else {
        near
    }
}

/// The set plus every cell one step away from it in any of the 8 compass directions.
pub fn dilate<B: Bitboard>(set: B) -> B {
    Direction::ALL.iter().fold(set, |acc, &d| acc | set.shift(d, 1) | set.shift(d, -1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bits256;
    use crate::rules::Rule;

    #[test]
    fn gomoku_candidates_surround_the_stones() {
        let empty = Board::<Bits256>::new(Rule::Freestyle);
        let g = Bits256::GEOMETRY;
        assert_eq!(candidates(&empty).iter().collect::<Vec<_>>(), vec![g.cell(7, 7).unwrap()]);
        let corner = Board::<Bits256>::from_notation(Rule::Freestyle, "a1").unwrap();
        // A 3×3 square of reach 2 from the corner, minus the stone.
        assert_eq!(candidates(&corner).count(), 8);
        let centre = Board::<Bits256>::from_notation(Rule::Freestyle, "h8").unwrap();
        assert_eq!(candidates(&centre).count(), 24);
    }

    #[test]
    fn small_boards_search_every_empty_cell() {
        let b = Board::<u32>::from_notation(Rule::Freestyle, "a1").unwrap();
        assert_eq!(candidates(&b).count(), 24);
    }
}
