//! Symmetry-canonical position keys for the small boards: the Zobrist hash of each of the 8
//! images of the position, kept incrementally, so mirrored and rotated positions share one
//! transposition-table entry (the smallest of the 8 hashes).

use crate::board::Board;
use crate::color::Color;
use crate::geometry::{Cell, Symmetry};
use crate::storage::Storage;
use crate::zobrist;

/// The hashes of the 8 images of a position; `hashes[i]` belongs to `Symmetry::ALL[i]`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct SymmetricHash {
    hashes: [u64; 8],
}

impl SymmetricHash {
    /// Computed from scratch (also the checker for the incremental version).
    pub(crate) fn from_board<B: Storage>(board: &Board<B>) -> SymmetricHash {
        let mut h = SymmetricHash { hashes: [0; 8] };
        for color in [Color::Black, Color::White] {
            for cell in board.stones(color).iter() {
                h.toggle::<B>(color, cell);
            }
        }
        h
    }

    /// Adds or removes a stone.
    #[inline]
    pub(crate) fn toggle<B: Storage>(&mut self, color: Color, cell: Cell) {
        let g = B::GEOMETRY;
        for (hash, sym) in self.hashes.iter_mut().zip(Symmetry::ALL) {
            *hash ^= zobrist::key(color, g.transform(sym, cell));
        }
    }

    /// The canonical key (the smallest image hash) and the symmetry that produces it.
    #[inline]
    pub(crate) fn canonical(&self) -> (u64, Symmetry) {
        let mut best = 0;
        for i in 1..8 {
            if self.hashes[i] < self.hashes[best] {
                best = i;
            }
        }
        (self.hashes[best], Symmetry::ALL[best])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::{Bits16, Bits32};
    use crate::rules::Rule;

    #[test]
    fn mirrored_positions_share_the_canonical_key() {
        let a = Board::<Bits32>::from_notation(Rule::Freestyle, "a1c3b1").unwrap();
        let b = Board::<Bits32>::from_notation(Rule::Freestyle, "e5c3e4").unwrap(); // rotated 180°
        let c = Board::<Bits32>::from_notation(Rule::Freestyle, "a1c3a2").unwrap(); // transposed
        let d = Board::<Bits32>::from_notation(Rule::Freestyle, "a1c3c1").unwrap(); // different
        let key = |board: &Board<Bits32>| SymmetricHash::from_board(board).canonical().0;
        assert_eq!(key(&a), key(&b));
        assert_eq!(key(&a), key(&c));
        assert_ne!(key(&a), key(&d));
    }

    #[test]
    fn the_identity_image_is_the_plain_hash() {
        let board = Board::<Bits16>::from_notation(Rule::Freestyle, "b2a1").unwrap();
        assert_eq!(SymmetricHash::from_board(&board).hashes[0], board.hash());
    }
}
